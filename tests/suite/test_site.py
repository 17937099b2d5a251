"""The readers' site, built from the committed results and read in a real browser at desktop
and phone width (Debian's chromium, driven by Playwright; no browser is downloaded)."""

import functools
import http.server
import json
import shutil
import sys
import threading
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

from storrepro.__main__ import main
from storrepro.suite.claims import VERDICTS
from storrepro.suite.paths import executed_dir, repo_root
from storrepro.suite.readable import human
from storrepro.suite.scorecard import consistency_text, load_results, verdict_counts
from storrepro.suite.site import (
    _e,
    build_site,
    claims_page,
    claims_page_name,
    core_first,
    figure_caption,
    index_page,
    paper_page,
)

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
WIDTHS = {"desktop": 1280, "phone": 390}
HEIGHTS = {"desktop": 800, "phone": 844}
#: How long a page may be, in screens of its width (the page's full height, every <details>
#: open, over the screen's height): the landing page, and a paper's results page.
LANDING_SCREENS = {"desktop": 2, "phone": 6}
PAPER_SCREENS = {"desktop": 10, "phone": 25}
LANDING_WORDS = 400
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="browser test skipped: no chromium here; install Debian's with "
    "`apt-get install chromium` (as root) — CI does",
)


class QuietServer(http.server.ThreadingHTTPServer):
    """A browser may drop a connection mid-file (a page it has left): not the site's error."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def site(once):
    """`make site` of the repository's committed results, served on 127.0.0.1. Built once in
    the session: the xdist worker that asks first builds it (into the repository's
    build/site), while a worker asking at the same time waits on its lock, then serves it."""
    index = Path(once("site", build_site))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(index.parent))
    server = QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield index, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_missing_results_are_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="run `make reproduce`"):
        build_site(tmp_path)


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (lambda r: {**r, "headline": None}, "headline should be an object, not NoneType"),
        (lambda r: {**r, "claims": [{"id": "x"}]}, r"claims\[0\].statement is missing"),
        (lambda r: {**r, "figures": None}, "figures should be a list, not NoneType"),
        (lambda r: json.dumps(r, indent=1)[:200], r"not a valid results file \(Unterminated"),
    ],
)
def test_a_malformed_result_is_named_in_one_line(tmp_path, capsys, damage, says):
    committed = repo_root() / "results" / "00_simulator_validation.json"
    damaged = damage(json.loads(committed.read_text()))
    path = tmp_path / "results" / committed.name
    path.parent.mkdir()
    path.write_text(damaged if isinstance(damaged, str) else json.dumps(damaged))
    with pytest.raises(ValueError, match=f"{path}(, line \\d+)?: {says}"):
        build_site(tmp_path)
    assert main(["site", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}") and len(err.splitlines()) == 1
    assert not (tmp_path / "site").exists()  # refused before any page is built


def test_pages_show_headline_readings_reasons_and_figures():
    results = load_results(repo_root())
    assert results, "the repository commits the results of the last full run"
    for result in results:
        page = paper_page(result, has_notebook=True)
        summary = result["headline"]["summary"]  # the plain headline opens the page
        assert summary and f'<p class="summary">{_e(summary)}</p>' in page
        opening = page.index("summary")
        # then the claims picture, the core claims, the figures, in that order
        assert opening < page.index(f"figures/{result['notebook']}/claims.png") < page.index(
            "## Core claims") < page.index("## Figures")
        for core in result["headline"]["core"]:
            assert f"#claim-{core}\">{core}</a> — <em>the paper:</em>" in page
        assert page.count("<em>why:</em>") == len(result["headline"]["core"])
        assert page.count('<figure class="result">') == sum(
            f.endswith(".png") for f in result["figures"]
        )
        assert f"notebooks/{result['notebook']}.ipynb" in page
        assert f"]({claims_page_name(result['notebook'])}.md)" in page  # one click away
        for path in (f for f in result["figures"] if f.endswith(".png")):
            assert path in result["figure_claims"], f"{path}: which paper figure and claims?"
            caption = figure_caption(result, path)
            assert caption.startswith(("Paper ", "Not a paper figure.")), caption
            assert _e(caption) in page
        details = claims_page(result)
        assert result["headline"]["statement"].split()[0] in details
        for reading in result["readings"].values():  # each reading's consistency record
            assert _e(consistency_text(reading.get("consistency"))) in details
        ids = [c["id"] for c in result["claims"]]
        for claim_id in ids:
            assert f'<tr id="claim-{claim_id}"' in details  # anchors the ids link to
            assert f'<td data-label="id">{claim_id}</td>' in details
        # core claims first in the claims table, each marked
        order = sorted(ids, key=lambda c: details.index(f'<tr id="claim-{c}"'))
        core = result["headline"]["core"]
        assert order[: len(core)] == core
        assert details.count("★ core") == len(core)
        for name in result["readings"]:
            assert f'<td data-label="reading">{_e(name)}</td>' in details
    landing = index_page(results, [r["notebook"] for r in results])
    for r in results:
        assert f'href="{r["notebook"]}.html"' in landing
        assert f'src="figures/{r["notebook"]}/claims.png"' in landing
        assert _e(r["headline"]["summary"]) in landing


def test_the_headline_gives_the_real_data_verdict_apart():
    result = next(r for r in load_results(repo_root()) if r["notebook"] == "03_vdi_background")
    real = {"verdict": "reproduced", "claims": {"F5-real": "reproduced (−4.2 pp over 49 VMs)"}}
    with_real = {**result, "headline": {**result["headline"], "real_data": real}}
    assert ('<p class="real-data">On real data, judged apart from the stand-in: <strong>'
            'reproduced</strong> (<a href="#claim-F5-real">F5-real</a> reproduced') in \
        claims_page(with_real)
    assert ('<p class="real-data">On real data, judged apart from the stand-in: <strong>'
            'reproduced</strong> (F5-real reproduced') in paper_page(with_real, has_notebook=True)
    bare = {**result, "headline": {**result["headline"], "real_data": None}}
    assert '<p class="real-data">' not in paper_page(bare, has_notebook=True)


def test_the_rendered_notebooks_are_committed_and_small():
    notebooks = sorted(executed_dir(repo_root()).glob("*.ipynb"))
    assert [p.stem for p in notebooks] == [r["notebook"] for r in load_results(repo_root())]
    assert sum(p.stat().st_size for p in notebooks) < 20 * 2**20


def _screens(page, height: int) -> float:
    """The page's height in screens, with every <details> on it open."""
    page.eval_on_selector_all("details", "ds => ds.forEach(d => { d.open = true; })")
    return page.evaluate("document.documentElement.scrollHeight") / height


def _pages(index: Path) -> list[str]:
    folder = index.parent
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*.html")
        if p.name not in ("genindex.html", "search.html") and "_static" not in p.parts
    )


def _landing_checks(page, width: str, results: list[dict]) -> None:
    assert _screens(page, HEIGHTS[width]) <= LANDING_SCREENS[width], width
    words = len(page.inner_text("article").split())
    assert words <= LANDING_WORDS, f"the landing page has {words} words"
    rows = page.eval_on_selector_all(
        "#scorecard tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
    )
    assert [r[0] for r in rows] == [r["notebook"] for r in results]
    for row, result in zip(rows, results, strict=True):
        counts = verdict_counts(result)  # test claims only
        assert row[1] == result["headline"]["verdict"]
        assert row[2 : 3 + len(VERDICTS)] == [
            str(sum(counts.values())),
            *(str(counts[v]) for v in VERDICTS),
        ]


def _paper_checks(page, width: str, result: dict) -> None:
    screens = _screens(page, HEIGHTS[width])
    assert screens <= PAPER_SCREENS[width], (result["notebook"], width, screens)
    if width == "phone":  # 10-pt figure text 10 CSS px high: the declared size or more
        small = page.eval_on_selector_all(
            "figure.result img, figure.claims-picture img",
            "is => is.filter(i => i.getBoundingClientRect().width < i.naturalWidth - 1)"
            ".map(i => i.src)")
        assert not small, (result["notebook"], small)


def _claims_checks(page, width: str, result: dict) -> None:
    text = page.inner_text("main")
    assert human(result["headline"]["cause"])[:40] in text
    missing = [c["id"] for c in result["claims"] if human(c["reason"])[:40] not in text]
    assert not missing, (result["notebook"], missing)
    # Every claim's verdict is on screen without scrolling sideways.
    boxes = page.eval_on_selector_all(
        f"#claims-{result['notebook']} tbody tr",
        "rows => rows.map(r => { const b = r.cells[1].getBoundingClientRect(); "
        "return [r.id, r.cells[1].innerText, b.left, b.right, b.width]; })",
    )
    assert len(boxes) == len(result["claims"])
    for (row, verdict, left, right, w), claim in zip(boxes, core_first(result), strict=True):
        assert row == f"claim-{claim['id']}" and verdict == claim["verdict"]
        assert w > 0 and left >= 0 and right <= WIDTHS[width], (width, row, left, right)


@needs_chromium
@pytest.mark.parametrize("width", WIDTHS)
def test_site_in_a_real_browser(site, width):
    sync_api = pytest.importorskip("playwright.sync_api")
    index, url = site
    results = load_results(repo_root())
    # Each page is loaded once: the checks every page gets (with its <details> closed), then
    # those of its kind (the landing page, a paper's results page, a paper's claims page).
    checks = {"index.html": functools.partial(_landing_checks, width=width, results=results)}
    for result in results:
        checks[f"{result['notebook']}.html"] = functools.partial(
            _paper_checks, width=width, result=result)
        checks[f"{claims_page_name(result['notebook'])}.html"] = functools.partial(
            _claims_checks, width=width, result=result)
    pages = _pages(index)
    assert set(checks) <= set(pages), sorted(set(checks) - set(pages))
    errors, outside, links = [], [], set()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": WIDTHS[width], "height": HEIGHTS[width]})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on(
            "request",
            lambda r: outside.append(r.url) if urlparse(r.url).hostname != "127.0.0.1" else None,
        )
        for path in pages:
            page.goto(url + path, wait_until="load")
            broken = page.eval_on_selector_all(
                "img", "imgs => imgs.filter(i => !i.complete || i.naturalWidth === 0)"
                ".map(i => i.src)"
            )
            assert not broken, (path, broken)
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 1, f"{path} is {overflow} px wider than the {width} screen"
            links.update(
                page.eval_on_selector_all("a[href]", "as => as.map(a => a.href.split('#')[0])")
            )
            if path in checks:
                checks[path](page)
        browser.close()
    local = sorted(link for link in links if urlparse(link).hostname == "127.0.0.1")
    for link in local:
        with urllib.request.urlopen(link) as response:
            assert response.status == 200, link
    assert not errors, errors
    assert not outside, f"assets fetched from the network: {outside[:5]}"


def test_values_are_written_for_people():
    assert human({"p99": 1.5, "p99.9": float("inf")}) == "p99: 1.5; p99.9: unbounded"
    assert human([1, None]) == "1, —"
    assert human(float("nan")) == "—"
    assert human("DB inf %, gap nan ms, info 3") == "DB unbounded %, gap — ms, info 3"


def test_every_cell_carries_its_column_name_and_ids_link_to_their_rows():
    from storrepro.suite.site import _claim_link, _table

    table = _table("t", ["id", "verdict"], ["<tr><td>A1</td><td class='x'>void</td></tr>"])
    assert '<td data-label="id">A1</td><td data-label="verdict" class=\'x\'>void</td>' in table
    assert 'glossary.html#verdict' in table and 'glossary.html#id' not in table
    assert _claim_link("B5-mean") == '<a href="#claim-B5-mean">B5-mean</a>'


def test_the_static_site_says_a_live_control_needs_a_kernel(tmp_path):
    import nbformat

    from storrepro.suite.site import WIDGET_NOTE, _site_notebook, glossary_page

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("live(...)")
    cell.outputs = [nbformat.v4.new_output(
        "display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": "x"},
                              "text/plain": "Box(...)"})]
    nb.cells = [cell, nbformat.v4.new_code_cell("1")]
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    shown = _site_notebook(path)
    assert shown.cells[0].outputs[0]["data"]["text/markdown"] == WIDGET_NOTE
    assert "make lab" in WIDGET_NOTE
    glossary = glossary_page()
    for anchor in ("(role)=", "(verdict)=", "(inconclusive)=", "(void)=", "(robust)=",
                   "(reading)=", "(kind)=", "(uncertainty)=", "(headline)="):
        assert anchor in glossary


def test_a_precomputed_slider_stands_in_for_its_live_control(tmp_path):
    import nbformat

    from storrepro.suite.paths import LIVE_CLASS
    from storrepro.suite.site import _site_notebook

    cell = nbformat.v4.new_code_cell("live(...)")
    cell.outputs = [
        nbformat.v4.new_output("display_data",
                               data={"text/html": f'<div class="{LIVE_CLASS}"></div>'}),
        nbformat.v4.new_output("display_data", data={
            "application/vnd.jupyter.widget-view+json": {"model_id": "x"}, "text/plain": "Box"}),
    ]
    nb = nbformat.v4.new_notebook(cells=[cell])
    nbformat.write(nb, tmp_path / "n.ipynb")
    (shown,) = _site_notebook(tmp_path / "n.ipynb").cells[0].outputs
    assert LIVE_CLASS in shown["data"]["text/html"]


def test_the_committed_scorecard_is_short():
    words = len((repo_root() / "results" / "SCORECARD.md").read_text().split())
    assert words <= 3000, f"results/SCORECARD.md has {words} words; the full claims go in claims/"
