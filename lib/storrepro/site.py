"""The static site of the last reproduce run: ``build/site/index.html`` and rendered notebooks.

Readers browse it without running anything: per paper its figures with captions, its claims
(paper vs reproduced, verdict coloured, tolerance), provenance and a link to the executed
notebook rendered as HTML; on top, a scorecard of every paper. Plain static files that open from
``file://`` or any static server: no script, font or style sheet is fetched from the network
(the rendered notebooks are stripped of nbconvert's CDN scripts, which static output never needs).
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter

from storrepro.claims import VERDICT_COLOURS, VERDICTS, load_results, verdict_counts
from storrepro.paths import atomic_path, build_dir, repo_root, write_text_atomic

_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S | re.I)
# An inline icon, so browsers do not ask the server for a missing /favicon.ico.
_NO_FAVICON = '<link rel="icon" href="data:,">'

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto;
       max-width: 1100px; padding: 1.5rem; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.provenance { color: #555; font-size: 0.9rem; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr));
           gap: 1rem; }
figure { margin: 0; } figure img { width: 100%; border: 1px solid #eee; }
figcaption { font-size: 0.88rem; color: #333; }
"""


def _e(value) -> str:
    if isinstance(value, float):
        value = f"{value:.5g}"
    return html.escape(str(value))


def _verdict_cell(verdict: str) -> str:
    return f'<td style="background:{VERDICT_COLOURS[verdict]}">{_e(verdict)}</td>'


def render_notebook(executed: Path, target: Path) -> None:
    """Executed notebook -> standalone HTML with no network fetches."""
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(
        nbformat.read(executed, as_version=4)
    )
    write_text_atomic(target, _SCRIPT.sub("", body).replace("<head>", "<head>" + _NO_FAVICON, 1))


def _scorecard(results: list[dict]) -> str:
    head = "".join(f"<th>{_e(v)}</th>" for v in VERDICTS)
    rows = []
    for r in results:
        counts = verdict_counts(r)
        cells = "".join(f'<td class="num">{counts[v]}</td>' for v in VERDICTS)
        rows.append(
            f'<tr><td><a href="#{_e(r["notebook"])}">{_e(r["notebook"])}</a></td>'
            f'<td class="num">{sum(counts.values())}</td>{cells}<td>{_e(r["profile"])}</td></tr>'
        )
    return (
        '<table id="scorecard"><thead><tr><th>notebook</th><th>test claims</th>'
        f"{head}<th>profile</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _paper_section(r: dict, notebook_link: str | None) -> str:
    name = r["notebook"]
    h = r["headline"]
    captions = r.get("captions", {})
    figures = "".join(
        f'<figure><img src="{_e(path)}" alt="{_e(Path(path).stem)}">'
        f"<figcaption>{_e(captions.get(path, Path(path).stem.replace('_', ' ')))}</figcaption>"
        "</figure>"
        for path in r["figures"]
        if path.endswith(".png")
    )
    claims = "".join(
        f"<tr><td>{_e(c['id'])}</td><td>{_e(c['role'])}</td><td>{_e(c['statement'])}</td>"
        f'<td class="num">{_e(c["paper_value"])}</td>'
        f'<td class="num">{_e(c["reproduced_value"])}</td><td>{_e(c["tolerance"])}</td>'
        f"{_verdict_cell(c['verdict'])}<td>{_e(c['reason'])}</td></tr>"
        for c in r["claims"]
    )
    link = (
        f'<a href="{_e(notebook_link)}">the executed notebook</a>'
        if notebook_link
        else "no executed notebook in this build (run <code>make reproduce</code>)"
    )
    return (
        f'<section id="{_e(name)}"><h2>{_e(name)}</h2><p>{_e(r["paper"])}</p>'
        f'<p class="headline"><strong>{_e(h["verdict"])}</strong>: {_e(h["statement"])} '
        f"{_e(h['cause'])}</p>"
        f'<p class="provenance">commit {_e(r["git_commit"])} · profile {_e(r["profile"])} · '
        f"seed {_e(r['seed'])} · started {_e(r['started'])} · "
        f"wall time {r['wall_seconds']:.1f} s · {link}</p>"
        f'<div class="figures">{figures}</div>'
        '<table class="claims"><thead><tr><th>id</th><th>role</th><th>claim</th><th>paper</th>'
        "<th>reproduced</th><th>tolerance</th><th>verdict</th><th>reason</th></tr></thead>"
        f"<tbody>{claims}</tbody></table></section>"
    )


def build_site(out: Path | None = None) -> Path:
    """Write the site of the run under ``out`` (default: the repository) from its results,
    figures and executed notebooks, next to them (see :func:`storrepro.paths.build_dir`);
    return the path of index.html."""
    out = out or repo_root()
    executed_dir = build_dir(out, "executed")
    site_dir = build_dir(out, "site")
    results = load_results(out)
    if not results:
        raise FileNotFoundError(
            f"no results in {out / 'results'}: run `make reproduce` (or `make reproduce "
            "PROFILE=quick`) first"
        )
    sections = []
    for r in results:
        for path in r["figures"]:
            with atomic_path(site_dir / path) as tmp:
                shutil.copyfile(out / path, tmp)
        executed = executed_dir / f"{r['notebook']}.ipynb"
        link = None
        if executed.exists():
            link = f"notebooks/{r['notebook']}.html"
            render_notebook(executed, site_dir / link)
        sections.append(_paper_section(r, link))
    page = (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{_NO_FAVICON}"
        f"<title>storrepro results</title><style>{STYLE}</style></head><body>"
        "<h1>storrepro</h1><p>Reproductions of five cloud-storage papers: every figure and "
        "every claim of the last run, paper number against reproduced number.</p>"
        f"<h2>Scorecard</h2>{_scorecard(results)}{''.join(sections)}</body></html>\n"
    )
    index = site_dir / "index.html"
    write_text_atomic(index, page)
    return index
