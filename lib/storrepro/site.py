"""The readers' site: Sphinx with myst-nb over the committed results (``make site``).

:func:`build_site` writes, under ``build/site-src``, one Markdown page per paper — its
headline, the readings of the paper's open choices with the verdict of each test claim under
every reading, the claims (role, verdict, reason, values; filterable and sortable), every figure
at full width with its caption and links to the full-size PNG and the SVG, links to the paper
and to its rendered notebook — and a landing page with every headline and the scorecard of
``test`` claims. It copies the Sphinx project of ``site/`` beside them, the figures and the
executed notebooks of the last full run (``results/executed``, committed so a fresh clone has
them), and runs Sphinx into ``build/site``. No notebook is run and nothing is fetched from the
network; Sphinx rebuilds only the pages whose source changed.
"""

from __future__ import annotations

import html
import json
import shutil
from pathlib import Path

import nbformat

from storrepro.claims import HEADLINE_RULE, ROLES, VERDICTS
from storrepro.notebooks import PAPER_LINKS, notebook_path
from storrepro.paths import build_dir, executed_dir, repo_root, write_text_atomic
from storrepro.scorecard import (
    ROBUST_RULE,
    alternative_labels,
    dated_text,
    load_results,
    robust_summary,
    role_summary,
    uncertainty_text,
    verdict_counts,
)

SITE_PROJECT = "site"  # the Sphinx project (conf.py, _static/) in the repository


def _e(value) -> str:
    if isinstance(value, float):
        value = f"{value:.5g}"
    return html.escape(str(value)).replace("\n", " ")


def _verdict_class(verdict: str) -> str:
    return "verdict-" + verdict.replace(" ", "-")


def notebook_title(name: str) -> str:
    """The first heading of a notebook ("00 — Simulator validation"), else its name."""
    for cell in nbformat.read(notebook_path(name), as_version=4).cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return name


def _table(table_id: str, header: list[str], rows: list[str], sortable: bool = True) -> str:
    heads = "".join(f"<th>{_e(h)}</th>" for h in header)
    css = ' class="sortable"' if sortable else ""
    return (
        f'<div class="table-scroll"><table id="{table_id}"{css}><thead><tr>{heads}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _core_count(result: dict) -> str:
    h = result["headline"]
    return f"{h.get('core_reproduced', 0)} of {len(h['core'])} core claims reproduced"


def _headline(result: dict) -> str:
    h = result["headline"]
    hangs = f" It hangs on the reading of: {', '.join(h['hangs_on'])}." if h["hangs_on"] else ""
    under = "".join(
        f"; under {_e(label)}: <strong>{_e(verdict)}</strong>"
        for label, verdict in h.get("by_reading", {}).items()
    )
    return (
        f'<div class="headline {_verdict_class(h["verdict"])}"><p><strong>{_e(h["verdict"])}'
        f"</strong> ({_e(_core_count(result))}: {_e(', '.join(h['core']))}{under}) — "
        f"{_e(h['statement'])}</p>"
        f"<p>{_e(h['cause'])}{_e(hangs)}</p></div>"
    )


def _readings(result: dict) -> str:
    readings = result["readings"]
    forced = _forced(result)
    if not readings:
        return forced + "This paper leaves no open choice that moves a verdict here.\n"
    choices = []
    for name, r in readings.items():
        others = [f"{_e(k)}: {_e(v)}" for k, v in r["alternatives"].items() if k != r["primary"]]
        choices.append(
            f"<tr><td>{_e(name)}</td><td>{_e(r.get('kind', 'resolution'))}</td>"
            f"<td>{_e(r['question'])}</td><td>{_e(r['paper_words'])}</td>"
            f"<td><strong>{_e(r['primary'])}</strong>: {_e(r['alternatives'][r['primary']])}</td>"
            f"<td>{'<br>'.join(others)}</td><td>{_e(r['argument'])}</td>"
            f"<td>{_e(dated_text(r))}</td></tr>"
        )
    labels = alternative_labels(readings)
    rows = []
    for c in result["claims"]:
        if c["role"] != "test":
            continue
        cells = [
            f'<td class="{_verdict_class(c["verdict"])}">{_e(c["verdict"])}<br>'
            f"<small>{_e(c['reproduced_value'])}</small></td>"
        ]
        for label in labels:
            alt = c["by_reading"].get(label)
            cells.append(
                f'<td class="{_verdict_class(alt["verdict"])}">{_e(alt["verdict"])}<br>'
                f"<small>{_e(alt['reproduced_value'])}</small></td>"
                if alt
                else "<td>— (not affected)</td>"
            )
        robust = "robust" if c["robust"] else "hangs on " + ", ".join(c["decided_by"])
        rows.append(
            f"<tr><td>{_e(c['id'])}</td><td>{_e(c['statement'])}</td>{''.join(cells)}"
            f"<td>{_e(robust)}</td></tr>"
        )
    return (
        _table(
            f"readings-{result['notebook']}",
            [
                "reading",
                "kind",
                "open choice",
                "the paper's words",
                "primary",
                "alternatives",
                "why the primary",
                "set in (git)",
            ],
            choices,
            sortable=False,
        )
        + "\n\n"
        + forced
        + "Each test claim judged under the primary readings and under each alternative, "
        "one changed at a time. " + ROBUST_RULE + "\n\n"
        + _table(
            f"by-reading-{result['notebook']}",
            ["id", "claim", "primary", *labels, "verdict"],
            rows,
        )
        + "\n"
    )


def _forced(result: dict) -> str:
    """The register's choices that the paper's words settle, with the quote and their date."""
    forced = result.get("forced") or {}
    if not forced:
        return ""
    rows = [
        f"<tr><td>{_e(name)}</td><td>{_e(f['kind'])}</td><td>{_e(f['question'])}</td>"
        f"<td>{_e(f['value'])}</td><td>{_e(f['quote'])}</td><td>{_e(dated_text(f))}</td></tr>"
        for name, f in forced.items()
    ]
    return (
        "Choices the paper's words settle (the rest of the decision register):\n\n"
        + _table(
            f"forced-{result['notebook']}",
            ["choice", "kind", "question", "value", "the words that force it", "set in (git)"],
            rows,
            sortable=False,
        )
        + "\n\n"
    )


def _claims(result: dict) -> str:
    table_id = f"claims-{result['notebook']}"
    options = lambda values: "".join(  # noqa: E731
        f'<option value="{_e(v)}">{_e(v)}</option>' for v in values
    )
    form = (
        f'<form class="claim-filter" data-table="{table_id}">'
        f'<select name="role" aria-label="role"><option value="">every role</option>'
        f"{options(ROLES)}</select>"
        f'<select name="verdict" aria-label="verdict"><option value="">every verdict</option>'
        f"{options(VERDICTS)}</select>"
        '<input name="text" type="search" placeholder="filter text" aria-label="filter"></form>'
    )
    rows = [
        f'<tr data-role="{_e(c["role"])}" data-verdict="{_e(c["verdict"])}">'
        f"<td>{_e(c['id'])}</td><td>{_e(c['role'])}</td><td>{_e(c['kind'])}</td>"
        f"<td>{_e(c['statement'])}</td><td>{_e(c['paper_value'])}</td>"
        f"<td>{_e(c['reproduced_value'])}</td>"
        f'<td class="{_verdict_class(c["verdict"])}">{_e(c["verdict"])}</td>'
        f"<td>{_e(c['reason'])}<br><small>tolerance: {_e(c['tolerance'])}"
        + (f"; uncertainty: {_e(uncertainty_text(c))}" if c["role"] == "test" else "")
        + "</small>"
        f'<details class="values"><summary>values</summary><code>'
        f"{_e(json.dumps(c['values'], ensure_ascii=False))}</code></details></td></tr>"
        for c in result["claims"]
    ]
    return (
        form
        + _table(
            table_id,
            ["id", "role", "kind", "claim", "paper", "reproduced", "verdict", "reason"],
            rows,
        )
        + "\n"
    )


def figure_caption(result: dict, path: str) -> str:
    """The caption printed under a figure: the paper's figure it reproduces, what it shows,
    and the verdicts of the claims it bears on."""
    caption = result.get("captions", {}).get(path, Path(path).stem.replace("_", " "))
    meta = result.get("figure_claims", {}).get(path, {})
    verdicts = {c["id"]: c["verdict"] for c in result["claims"]}
    paper = meta.get("paper_figure")
    if not caption.rstrip().endswith((".", "!", "?", ")")):
        caption = caption.rstrip() + "."
    parts = [f"Paper {paper}." if paper else "Not a paper figure.", caption]
    if meta.get("claims"):
        judged = "; ".join(f"{c} {verdicts[c]}" for c in meta["claims"])
        parts.append(f"Our verdict: {judged}.")
    return " ".join(parts)


def _figures(result: dict) -> str:
    blocks = []
    for path in result["figures"]:
        if not path.endswith(".png"):
            continue
        svg = path[:-4] + ".svg"
        links = f'<a href="{_e(path)}">full-size PNG</a>' + (
            f' · <a href="{_e(svg)}">SVG</a>' if svg in result["figures"] else ""
        )
        caption = figure_caption(result, path)
        blocks.append(
            f'<figure class="result"><a href="{_e(path)}"><img src="{_e(path)}" '
            f'alt="{_e(caption)}"></a>'
            f"<figcaption>{_e(caption)} ({links})</figcaption></figure>"
        )
    return "\n".join(blocks) + "\n"


def paper_page(result: dict, has_notebook: bool) -> str:
    """The MyST page of one notebook's results."""
    name = result["notebook"]
    link = PAPER_LINKS.get(name)
    notebook = (
        f"[the rendered notebook](notebooks/{name}.ipynb)"
        if has_notebook
        else "no rendered notebook in this build (`make reproduce` writes it)"
    )
    return "\n".join(
        [
            f"# {notebook_title(name)}: results",
            "",
            f"{result['paper']}" + (f" — [the paper]({link})" if link else "") + f" · {notebook}",
            "",
            f"Run: profile {result['profile']}, seed {result['seed']}, commit "
            f"`{result['git_commit']}`, {result['wall_seconds']:.0f} s; input: "
            f"{result.get('input', 'synthetic stand-in')}.",
            "",
            "## Headline",
            "",
            _headline(result),
            "",
            "## Readings of the paper's open choices",
            "",
            _readings(result),
            "## Claims",
            "",
            "Roles: *test* — a statement of the paper that could have come out false here, "
            "judged on its replicates (*inconclusive* when the 95 % interval straddles the "
            "band); *calibration* — a target a stand-in was fitted to; *invariant* — a property "
            "of this implementation; *stand-in* — a property of the paper's data checked on our "
            "stand-in; *analysis* — our own experiment. Only tests count in the verdict columns. "
            "Click a column header to sort.",
            "",
            _claims(result),
            "## Figures",
            "",
            _figures(result),
        ]
    )


def index_page(results: list[dict], notebooks: list[str]) -> str:
    rows = []
    for r in results:
        counts = verdict_counts(r)
        rows.append(
            f'<tr><td><a href="{_e(r["notebook"])}.html">{_e(r["notebook"])}</a></td>'
            f'<td class="{_verdict_class(r["headline"]["verdict"])}">'
            f'{_e(r["headline"]["verdict"])}</td><td class="num">{sum(counts.values())}</td>'
            + "".join(f'<td class="num">{counts[v]}</td>' for v in VERDICTS)
            + f"<td>{_e(robust_summary(r))}</td><td>{_e(role_summary(r, 'calibration'))}</td>"
            f"<td>{_e(role_summary(r, 'invariant'))}</td>"
            f"<td>{_e(role_summary(r, 'stand-in'))}</td></tr>"
        )
    headlines = "\n".join(
        f"- **[{notebook_title(r['notebook'])}]({r['notebook']}.md)** — "
        f"**{r['headline']['verdict']}** ({_core_count(r)}"
        + "".join(f"; under {k}: **{v}**" for k, v in r["headline"].get("by_reading", {}).items())
        + f"): {r['headline']['statement']} {r['headline']['cause']}"
        for r in results
    )
    toc = lambda caption, entries: "\n".join(  # noqa: E731
        ["```{toctree}", ":hidden:", f":caption: {caption}", "", *entries, "```"]
    )
    return "\n".join(
        [
            "# storrepro",
            "",
            "Reproductions of five cloud-storage papers — PrecisePeriod, AccGecko, forecast-driven "
            "background scheduling for VDI, BID and TOFEC — run end to end on this suite's "
            "simulators. "
            "Each page gives a paper's headline (its core claim, our verdict, the measured cause), "
            "the readings of its open choices, every claim with its reason, and every figure.",
            "",
            "## Headlines",
            "",
            HEADLINE_RULE,
            "",
            headlines,
            "",
            "## Scorecard",
            "",
            "The verdict columns count only *test* claims — statements of a paper that could have "
            "come out false here, each judged on its replicates. " + ROBUST_RULE + " Calibration "
            "targets, invariants and stand-in properties are counted as met/total.",
            "",
            _table(
                "scorecard",
                [
                    "notebook",
                    "headline",
                    "test claims",
                    *VERDICTS,
                    "robust",
                    "calibration met",
                    "invariants held",
                    "stand-in met",
                ],
                rows,
            ),
            "",
            toc("Results", [r["notebook"] for r in results]),
            "",
            toc("Rendered notebooks", [f"notebooks/{n}" for n in notebooks]),
            "",
        ]
    )


def _write_if_changed(path: Path, text: str) -> None:
    """Leave an unchanged page untouched, so Sphinx rebuilds only what changed."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        write_text_atomic(path, text)


def _copy_if_changed(source: Path, target: Path) -> None:
    if not target.exists() or target.read_bytes() != source.read_bytes():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def build_site(out: Path | None = None) -> Path:
    """Build the site of the results under ``out`` (default: the repository) into
    ``build/site`` (``OUT/site`` for a run with ``--out``); return the path of index.html."""
    from sphinx.cmd.build import build_main

    out = out or repo_root()
    results = load_results(out)
    if not results:
        raise FileNotFoundError(
            f"no results in {out / 'results'}: run `make reproduce` (or `make reproduce "
            "PROFILE=quick`) first"
        )
    source, target = build_dir(out, "site-src"), build_dir(out, "site")
    project = repo_root() / SITE_PROJECT
    for path in project.rglob("*"):
        if path.is_file():
            _copy_if_changed(path, source / path.relative_to(project))
    notebooks = []
    for r in results:
        name = r["notebook"]
        executed = executed_dir(out) / f"{name}.ipynb"
        if executed.exists():
            _copy_if_changed(executed, source / "notebooks" / f"{name}.ipynb")
            notebooks.append(name)
        for figure in r["figures"]:
            _copy_if_changed(out / figure, source / "extra" / figure)
        _write_if_changed(source / f"{name}.md", paper_page(r, executed.exists()))
    _write_if_changed(source / "index.md", index_page(results, notebooks))
    doctrees = source / ".doctrees"
    status = build_main(["-b", "html", "-q", "-d", str(doctrees), str(source), str(target)])
    if status:
        raise RuntimeError(f"sphinx could not build the site from {source} (exit {status})")
    return target / "index.html"
