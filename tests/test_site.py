"""The static site, built from the committed results and checked in a real browser."""

import functools
import http.server
import shutil
import threading
import urllib.request

import pytest

from storrepro.claims import VERDICTS, load_results, verdict_counts
from storrepro.paths import repo_root
from storrepro.site import build_site

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Flags for a closed network: no background connections that would only be refused.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def site():
    """`make site` of the repository's committed results, served on 127.0.0.1."""
    index = build_site()
    folder = index.parent
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield index, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_site_is_static_and_offline(site):
    index, _ = site
    text = index.read_text()
    assert "<script" not in text and "http://" not in text and "https://" not in text
    for page in index.parent.glob("notebooks/*.html"):
        rendered = page.read_text()
        assert "<script" not in rendered, f"{page.name} would run scripts"


def test_missing_results_are_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="run `make reproduce`"):
        build_site(tmp_path)


@pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium: `apt-get install chromium` (as root)"
)
def test_site_in_a_real_browser(site):
    sync_api = pytest.importorskip("playwright.sync_api")
    index, url = site
    results = load_results(repo_root())
    errors = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url, wait_until="load")

        widths = page.eval_on_selector_all("img", "imgs => imgs.map(i => i.naturalWidth)")
        assert widths and all(w > 0 for w in widths)
        assert len(widths) == sum(1 for r in results for f in r["figures"] if f.endswith(".png"))

        rows = page.eval_on_selector_all(
            "#scorecard tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
        )
        assert [r[0] for r in rows] == [r["notebook"] for r in results]
        for row, result in zip(rows, results, strict=True):
            counts = verdict_counts(result)
            assert row[1 : 2 + len(VERDICTS)] == [  # test claims only
                str(sum(counts.values())),
                *(str(counts[v]) for v in VERDICTS),
            ]

        links = page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)")
        for link in links:
            if "#" in link:
                anchor = link.split("#", 1)[1]
                assert page.locator(f"[id='{anchor}']").count() == 1, link
            else:
                with urllib.request.urlopen(link) as response:
                    assert response.status == 200, link
                page.goto(link, wait_until="load")
                page.goto(url, wait_until="load")

        page.screenshot(path=str(index.parent / "screenshot.png"), full_page=True)
        browser.close()
    assert not errors, errors
