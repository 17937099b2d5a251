"""The readers' site: Sphinx with myst-nb over the committed results (``make site``).

:func:`build_site` writes, under ``build/site-src``, one Markdown page per paper — its
plain headline, its claims picture, one line per core claim and every figure (in a grid, each
with its caption, the verdicts of the claims it bears on and links to the full-size PNG and the
SVG) — with a sub-page of everything else one click away (the headline in detail, every claim
with role, verdict, reason and values, core claims first, filterable and sortable; the readings
of the paper's open choices with each test claim's verdict under each; the decision register),
and a landing page with a card per paper (plain headline, the top of its claims picture) and
the counts of ``test`` claims by verdict. It copies the Sphinx project of ``site/`` beside them,
the figures and the executed notebooks of the last full run (``results/executed``, committed so
a fresh clone has them), and runs Sphinx into ``build/site``. No notebook is run and nothing is
fetched from the network; Sphinx rebuilds only the pages whose source changed.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import nbformat

from storrepro.suite import claims_picture
from storrepro.suite.claims import ABBREVIATIONS, HEADLINE_RULE, ROLES, VERDICTS
from storrepro.suite.notebooks import config_class, notebook_path
from storrepro.suite.paths import (
    LIVE_CLASS,
    build_dir,
    executed_dir,
    repo_root,
    results_dir,
    write_text_atomic,
)
from storrepro.suite.plotting import STYLE
from storrepro.suite.readable import human
from storrepro.suite.scorecard import (
    ROBUST_RULE,
    alternative_labels,
    consistency_text,
    core_claim_parts,
    core_reproduced,
    dated_text,
    inputs_text,
    judged_on,
    load_results,
    robust_summary,
    role_summary,
    uncertainty_text,
    verdict_counts,
)

SITE_PROJECT = "site"  # the Sphinx project (conf.py, _static/) in the repository
#: Page metadata that gives a result page the whole width (the theme's "on this page" column
#: squeezed the claims table to 688 px at 1280).
NO_RIGHT_SIDEBAR = "---\nhtml_theme.sidebar_secondary.remove: true\n---\n"
#: Hex digits of a real-data file's SHA-256 on a page (the whole is one unbreakable word wider
#: than a phone; the results and the claims files keep all 64)
SHORT_DIGEST = 16
#: Replaces a live control's output on the static site, where no kernel runs it.
WIDGET_NOTE = (
    "*A live control: it needs a running kernel, so this static page shows its default output "
    "only. To move it, run `make lab` and open this notebook there.*"
)


def _e(value) -> str:
    return html.escape(human(value)).replace("\n", " ")


#: Table headers that have a glossary entry (glossary.md's anchors).
GLOSSARY_HEADERS = {
    "role": "role", "kind": "kind", "verdict": "verdict", "headline": "headline",
    "robust": "robust", "reading": "reading", "primary": "reading", "uncertainty": "uncertainty",
    "set in (git)": "dated-choices", "inconclusive": "inconclusive", "void": "void",
}


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


def _head(h: str) -> str:
    anchor = GLOSSARY_HEADERS.get(h)
    link = (f' <a class="gloss" href="glossary.html#{anchor}" title="what {_e(h)} means">?</a>'
            if anchor else "")
    return f"<th>{_e(h)}{link}</th>"


def _labelled(row: str, header: list[str]) -> str:
    """Each cell of ``row`` with its column's name (``data-label``): on a narrow screen a row is
    a card, and each cell shows its label."""
    labels = iter(header)
    return re.sub(r"<td(?=[ >])", lambda m: f'<td data-label="{_e(next(labels, ""))}"', row)


def _table(table_id: str, header: list[str], rows: list[str], sortable: bool = True,
           cards: bool = True) -> str:
    """A table; ``cards``: on a phone each row is a card (a wide table of words), else the
    table scrolls sideways in its box (a short table of counts)."""
    heads = "".join(_head(h) for h in header)
    css = " ".join(x for x, on in (("cards", cards), ("sortable", sortable)) if on)
    body = "".join(_labelled(row, header) for row in rows)
    return (
        f'<div class="table-scroll"><table id="{table_id}" class="{css}"><thead><tr>{heads}'
        f"</tr></thead><tbody>{body}</tbody></table></div>"
    )


def _claim_link(claim_id: str, page: str = "") -> str:
    """A link to a claim's row: on the same page, or on ``page`` (a paper's claims page)."""
    return f'<a href="{_e(page)}#claim-{_e(claim_id)}">{_e(claim_id)}</a>'


def claims_page_name(notebook: str) -> str:
    """The sub-page that holds a paper's full claims table, readings and register."""
    return f"{notebook}-claims"


def core_first(result: dict) -> list[dict]:
    """A result's claims with the headline's core claims first (in the headline's order)."""
    core = result["headline"]["core"]
    by_id = {c["id"]: c for c in result["claims"]}
    return [by_id[c] for c in core if c in by_id] + [
        c for c in result["claims"] if c["id"] not in core]



def _core_count(result: dict) -> str:
    return f"{core_reproduced(result)} of {len(result['headline']['core'])} core claims reproduced"


def _headline(result: dict) -> str:
    h = result["headline"]
    hangs = f" It hangs on the reading of: {', '.join(h['hangs_on'])}." if h["hangs_on"] else ""
    ruled_out = h.get("ruled_out", {})
    under = "".join(
        f"; under {_e(label)}: <strong>{_e(verdict)}</strong>"
        + (f" (ruled out by: {_e('; '.join(ruled_out[label]))})" if label in ruled_out else "")
        for label, verdict in h.get("by_reading", {}).items()
    )
    plain = f'<p class="summary">{_e(h["summary"])}</p>' if h.get("summary") else ""
    real = _real_data(h, link=True)
    return (
        f'<div class="headline {_verdict_class(h["verdict"])}">{plain}<p><strong>'
        f'{_e(h["verdict"])}</strong> ({_e(_core_count(result))}: '
        f"{', '.join(map(_claim_link, h['core']))}{under}) — {_e(h['statement'])}</p>"
        f"<p>{_e(h['cause'])}{_e(hangs)}</p>{real}</div>"
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
            f"<td>{_e(consistency_text(r.get('consistency')))}</td>"
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
            f"<tr><td>{_claim_link(c['id'])}</td><td>{_e(c['statement'])}</td>{''.join(cells)}"
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
                "the paper's reported results",
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
        "The rest of the decision register: choices taken as stated, each with the words "
        "behind it (the paper's, or ours where the paper is silent):\n\n"
        + _table(
            f"forced-{result['notebook']}",
            ["choice", "kind", "question", "value", "the words behind it", "set in (git)"],
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
    core = set(result["headline"]["core"])
    rows = [_claim_row(c, c["id"] in core, result) for c in core_first(result)]
    return (
        form
        + _table(
            table_id,
            ["id", "verdict", "claim", "role", "kind", "paper", "reproduced", "reason"],
            rows,
        )
        + "\n"
    )


def _claim_row(c: dict, core: bool, result: dict) -> str:
    star = "<strong>★ core</strong> " if core else ""
    return (
        f'<tr id="claim-{_e(c["id"])}" data-role="{_e(c["role"])}" '
        f'data-verdict="{_e(c["verdict"])}"' + (' class="core"' if core else "") + ">"
        f"<td>{_e(c['id'])}</td>"
        f'<td class="{_verdict_class(c["verdict"])}">{_e(c["verdict"])}</td>'
        f"<td>{star}{_e(c['statement'])}</td><td>{_e(c['role'])}</td><td>{_e(c['kind'])}</td>"
        f"<td>{_e(c['paper_value'])}</td><td>{_e(c['reproduced_value'])}</td>"
        f"<td>{_e(c['reason'])}<br><small>tolerance: {_e(c['tolerance'])}"
        + (f"; uncertainty: {_e(uncertainty_text(c))}" if c["role"] == "test" else "")
        + f"; judged on: {_e(judged_on(c, result))}</small>"
        f'<details class="values"><summary>values</summary><code>'
        f"{_e(c['values'])}</code></details></td></tr>"
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


#: The pixel density the site declares for a figure (``srcset``): a PNG saved at the suite's
#: ``savefig.dpi`` shows its 10-pt text 10 CSS px high at its declared size, which a phone
#: shows in a strip the reader pans sideways (a figure fit to a 390-px screen would show
#: that text about 5 px high). On a wide screen the grid sets the width as before.
_TEXT_PT, _TEXT_CSS_PX = 10, 10  # matplotlib's default text size; its height on the phone
LEGIBLE_DENSITY = STYLE["savefig.dpi"] / 72 * _TEXT_PT / _TEXT_CSS_PX  # image px per CSS px


def _img(path: str, alt: str) -> str:
    """A figure's image, linked full size, at :data:`LEGIBLE_DENSITY`."""
    return (f'<a class="pan" href="{_e(path)}"><img src="{_e(path)}" '
            f'srcset="{_e(path)} {LEGIBLE_DENSITY:.3g}x" alt="{_e(alt)}"></a>')


def _figures(result: dict) -> str:
    """Every figure in a grid (three a row on a wide screen, one on a phone), its caption under
    it with the verdicts of the claims it bears on, linked to their rows on the claims page."""
    page = claims_page_name(result["notebook"]) + ".html"
    blocks = []
    for path in result["figures"]:
        if not path.endswith(".png"):
            continue
        svg = path[:-4] + ".svg"
        links = f'<a href="{_e(path)}">full size</a>' + (
            f' · <a href="{_e(svg)}">SVG</a>' if svg in result["figures"] else ""
        )
        caption = figure_caption(result, path)
        text = _e(caption)
        for claim in result.get("figure_claims", {}).get(path, {}).get("claims", []):
            # the claim ids of "Our verdict: C2 not reproduced; …" link to their rows
            text = re.sub(rf"(?<=[:;] ){re.escape(_e(claim))}(?= )", _claim_link(claim, page),
                          text)
        blocks.append(
            f'<figure class="result">{_img(path, caption)}'
            f"<figcaption>{text} ({links})</figcaption></figure>"
        )
    return '<div class="figure-grid">' + "\n".join(blocks) + "</div>\n"


def claims_picture_html(result: dict) -> str:
    """The paper's claims picture, linked full size, with the caption that says how to read it."""
    path = claims_picture.relative_path(result["notebook"])
    return (
        f'<figure class="claims-picture">'
        f'{_img(path, result["paper"] + ": every test claim, the paper’s band and our estimate")}'
        f"<figcaption>{_e(claims_picture.CAPTION)}</figcaption></figure>"
    )


def core_lines(result: dict) -> str:
    """One line per core claim: its verdict, what the paper says, what we measured and why."""
    page = claims_page_name(result["notebook"]) + ".html"
    by_id = {c["id"]: c for c in result["claims"]}
    items = []
    for cid in result["headline"]["core"]:
        c = by_id[cid]
        paper, we, why = core_claim_parts(c)
        items.append(
            f'<li><span class="badge {_verdict_class(c["verdict"])}">{_e(c["verdict"])}</span> '
            f"{_claim_link(cid, page)} — <em>the paper:</em> {_e(paper)} · "
            f"<em>we:</em> {_e(we)} · <em>why:</em> {_e(why)}</li>"
        )
    return f'<ul class="core-lines">{"".join(items)}</ul>\n'


def _real_data(h: dict, link: bool) -> str:
    """The headline's real-data verdict, judged apart from the stand-in's ('' without one);
    ``link``: each claim links to its row (on the claims page)."""
    real = h.get("real_data")
    if not real:
        return ""
    claims = "; ".join(f"{_claim_link(k) if link else _e(k)} {_e(v)}"
                       for k, v in real["claims"].items())
    return (f'<p class="real-data">On real data, judged apart from the stand-in: <strong>'
            f'{_e(real["verdict"])}</strong> ({claims}).</p>')


def paper_page(result: dict, has_notebook: bool) -> str:
    """The MyST page of one notebook's results: the plain headline, the claims picture, a line
    per core claim, then the figures; everything else one click away, on the claims page."""
    name = result["notebook"]
    link = config_class(name).paper_link
    sub = claims_page_name(name)
    notebook = (
        f"[the notebook as it ran](notebooks/{name}.ipynb)"
        if has_notebook
        else "no rendered notebook in this build (`make reproduce` writes it)"
    )
    h = result["headline"]
    return "\n".join([
        NO_RIGHT_SIDEBAR,
        f"# {notebook_title(name)}",
        "",
        f'<div class="headline {_verdict_class(h["verdict"])}"><p class="summary">'
        f'{_e(h.get("summary") or h["statement"])}</p>{_real_data(h, link=False)}</div>',
        "",
        claims_picture_html(result),
        "",
        "## Core claims",
        "",
        core_lines(result),
        f"Every claim with its reason, the readings of the paper's open choices and the decision "
        f"register: [all claims and readings]({sub}.md) · "
        + (f"[the paper]({link}) · " if link else "") + notebook,
        "",
        "## Figures",
        "",
        _figures(result),
        "```{toctree}",
        ":hidden:",
        "",
        sub,
        "```",
        "",
    ])


def claims_page(result: dict) -> str:
    """The MyST sub-page of one notebook: the headline in detail, every claim (core first),
    the readings with each test claim's verdict under each, and the decision register."""
    name = result["notebook"]
    return "\n".join([
        NO_RIGHT_SIDEBAR,
        f"# {notebook_title(name)}: all claims and readings",
        "",
        f"[Back to the results]({name}.md). Run: profile {result['profile']}, seed "
        f"{result['seed']}, commit `{result['git_commit']}`, {result['wall_seconds']:.0f} s; "
        f"input: {inputs_text(result, SHORT_DIGEST)}. Robust test claims "
        f"{robust_summary(result)}; calibration met {role_summary(result, 'calibration')}; "
        f"invariants held {role_summary(result, 'invariant')}; stand-in met "
        f"{role_summary(result, 'stand-in')}.",
        "",
        "## Headline",
        "",
        _headline(result),
        "",
        "## Claims",
        "",
        "Core claims first (★). Roles: *test* — a statement of the paper that could have come "
        "out false here, judged on its replicates (*inconclusive* when the 95 % interval "
        "straddles the band); *calibration* — a target a stand-in was fitted to; *invariant* — "
        "a property of this implementation; *stand-in* — a property of the paper's data checked "
        "on our stand-in; *analysis* — our own experiment. Only tests count in the verdict "
        "columns. Click a column header to sort.",
        "",
        _claims(result),
        "## Readings of the paper's open choices",
        "",
        _readings(result),
    ])


def index_page(results: list[dict], notebooks: list[str]) -> str:
    """The landing page: for each paper its plain headline and the top of its claims picture
    (its core claims), then the counts of test claims by verdict."""
    cards = []
    for r in results:
        h, name = r["headline"], r["notebook"]
        cards.append(
            f'<div class="paper-card {_verdict_class(h["verdict"])}">'
            f'<p><a href="{_e(name)}.html"><strong>{_e(notebook_title(name))}</strong></a> '
            f'<span class="badge {_verdict_class(h["verdict"])}">{_e(h["verdict"])}</span></p>'
            f'<p>{_e(h.get("summary") or h["statement"])}</p>'
            f'<a class="thumb" href="{_e(name)}.html"><img src="'
            f'{_e(claims_picture.relative_path(name))}" alt="{_e(name)}: the claims picture">'
            "</a></div>"
        )
    rows = []
    for r in results:
        counts = verdict_counts(r)
        rows.append(
            f'<tr><td><a href="{_e(r["notebook"])}.html">{_e(r["notebook"])}</a></td>'
            f'<td class="{_verdict_class(r["headline"]["verdict"])}">'
            f'{_e(r["headline"]["verdict"])}</td><td class="num">{sum(counts.values())}</td>'
            + "".join(f'<td class="num">{counts[v]}</td>' for v in VERDICTS)
            + "</tr>"
        )
    toc = lambda caption, entries: "\n".join(  # noqa: E731
        ["```{toctree}", ":hidden:", f":caption: {caption}", "", *entries, "```"]
    )
    return "\n".join(
        [
            NO_RIGHT_SIDEBAR,
            "# storrepro",
            "",
            "Five cloud-storage papers reproduced on simulators: our verdict on each paper's core "
            "claims, and a picture of all its claims ([how verdicts are read](glossary.md)).",
            "",
            f'<div class="paper-cards">{"".join(cards)}</div>',
            "",
            "## Test claims by verdict",
            "",
            _table("scorecard", ["notebook", "headline", "test claims", *VERDICTS], rows,
                   cards=False),
            "",
            toc("Results", [r["notebook"] for r in results]),
            "",
            toc("Rendered notebooks", [f"notebooks/{n}" for n in notebooks]),
            "",
            toc("About", ["glossary"]),
            "",
        ]
    )


def glossary_page() -> str:
    """What the words of the results mean; every table header with an entry links here."""
    roles = "\n".join(f"- **{r}** — {ROLE_WORDS[r]}" for r in ROLES)
    verdicts = "\n".join(f"- **{v}** — {VERDICT_WORDS[v]}" for v in VERDICTS)
    return "\n".join([
        "# Glossary",
        "",
        "(role)=",
        "## Role",
        "",
        "What a claim is evidence of. Only tests count in the verdict columns.",
        "",
        roles,
        "",
        "(verdict)=",
        "## Verdict",
        "",
        verdicts,
        "",
        "(inconclusive)=",
        "## Inconclusive",
        "",
        VERDICT_WORDS["inconclusive"],
        "",
        "(void)=",
        "## Void",
        "",
        VERDICT_WORDS["void"],
        "",
        "(uncertainty)=",
        "## Uncertainty",
        "",
        "The 95 % interval of the measured quantity over its replicates (seeds, traces, series), "
        "or the reason a quantity has none (a deterministic computation on fixed data).",
        "",
        "(kind)=",
        "## Kind: must, should, report",
        "",
        "How central a claim is to the paper: **must** — a core result; **should** — a "
        "supporting result; **report** — a number the paper reports without a claim on it.",
        "",
        "(reading)=",
        "## Reading",
        "",
        "An open choice between the paper's text and a number, and how this reproduction reads "
        "it: the **primary** value (chosen for fidelity to the paper's words and the authors' "
        "code where known) and the **alternatives**. Every test claim is judged under each, "
        "changed one at a time. Choices the paper's words settle are listed with the quote "
        "that settles them.",
        "",
        "(robust)=",
        "## Robust",
        "",
        ROBUST_RULE.replace("*Robust* means: the", "The"),
        "",
        "(dated-choices)=",
        "## Set in (git)",
        "",
        "The commit since which a choice has held, read from git, and whether committed results "
        "of the claims it decides existed before it (then the choice was made with them in "
        "view).",
        "",
        "(headline)=",
        "## Headline",
        "",
        "Each paper's headline opens with one plain sentence (at most 40 words, the verdict "
        "first), then gives the verdict on its core claims in detail. " + HEADLINE_RULE,
        "",
        "(abbreviations)=",
        "## Abbreviations",
        "",
        "\n".join(f"- **{k}** — {v}" for k, v in sorted(ABBREVIATIONS.items())),
        "",
    ])


#: The glossary's words for each role and verdict.
ROLE_WORDS = {
    "test": "a statement of the paper that could have come out false here.",
    "calibration": "a target a stand-in (a synthetic trace, a fitted model) was fitted to: it "
    "shows the stand-in is calibrated, not that the paper holds.",
    "invariant": "a property of this implementation (a simulator against a closed form, a "
    "conservation law).",
    "stand-in": "a property of the paper's data checked on our stand-in: it tells how faithful "
    "the stand-in is, not whether the paper holds.",
    "analysis": "our own experiment or diagnostic, reported beside the paper's claims.",
}
VERDICT_WORDS = {
    "reproduced": "the measured value (its whole 95 % interval, where it has one) lies inside "
    "the band the paper's words give.",
    "partly": "some parts of a claim with several parts hold and others do not.",
    "inconclusive": "the 95 % interval of the measured value straddles an edge of the band: "
    "more replicates, not a verdict, would settle it.",
    "not reproduced": "the measured value lies outside the band.",
    "void": "the claim requires another that is not reproduced (for example, admitting more "
    "tenants is no gain while they miss their SLOs); its verdict without that condition is "
    "kept in its values.",
    "not checkable": "this reproduction cannot check the claim (the data or tool it needs is "
    "missing); the reason says what is missing.",
}


def _site_notebook(source: Path) -> nbformat.NotebookNode:
    """An executed notebook as the static site shows it: code folded (a click shows it), each
    live control's output dropped where the run precomputed a slider for it, else replaced by a
    note saying it needs a kernel."""
    try:
        nb = nbformat.read(source, as_version=4)
        nbformat.validate(nb)
    except Exception as err:  # nbformat raises JSON, schema and attribute errors alike
        first = (str(err).strip().splitlines() or [type(err).__name__])[0][:200]
        raise ValueError(f"{source}: not a readable executed notebook ({first}); run its "
                         "notebook again, or delete the file to build the site without it"
                         ) from None  # fmt: skip
    widget = "application/vnd.jupyter.widget-view+json"
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tags = cell.metadata.setdefault("tags", [])
        if "hide-input" not in tags:
            tags.append("hide-input")
        outputs = []
        slider = any(f'class="{LIVE_CLASS}"' in str(o.get("data", {}).get("text/html", ""))
                     for o in cell.get("outputs", []))  # fmt: skip
        for output in cell.get("outputs", []):
            if widget in output.get("data", {}):
                if slider:
                    continue  # the precomputed slider above stands in for it
                output = nbformat.v4.new_output(
                    "display_data", data={"text/markdown": WIDGET_NOTE, "text/plain": ""}
                )
            outputs.append(output)
        cell.outputs = outputs
    return nb


def _write_if_changed(path: Path, text: str) -> None:
    """Leave an unchanged page untouched, so Sphinx rebuilds only what changed."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        write_text_atomic(path, text)


def _copy_if_changed(source: Path, target: Path) -> None:
    if not target.exists() or target.read_bytes() != source.read_bytes():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def _claims_picture(result: dict, out: Path, extra: Path) -> None:
    """The run's claims picture of ``result``, or, from results written before the runs drew
    one, the picture drawn from the result (so the site still builds from results alone)."""
    path = claims_picture.relative_path(result["notebook"])
    if (out / path).exists():
        _copy_if_changed(out / path, extra / path)
    elif not (extra / path).exists() or (extra / path).stat().st_mtime < _mtime(result, out):
        claims_picture.save(result, extra)


def _mtime(result: dict, out: Path) -> float:
    return (results_dir(out) / f"{result['notebook']}.json").stat().st_mtime


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
            _write_if_changed(source / "notebooks" / f"{name}.ipynb",
                              nbformat.writes(_site_notebook(executed)))
            notebooks.append(name)
        for figure in r["figures"]:
            _copy_if_changed(out / figure, source / "extra" / figure)
        _claims_picture(r, out, source / "extra")
        _write_if_changed(source / f"{name}.md", paper_page(r, executed.exists()))
        _write_if_changed(source / f"{claims_page_name(name)}.md", claims_page(r))
    _write_if_changed(source / "index.md", index_page(results, notebooks))
    _write_if_changed(source / "glossary.md", glossary_page())
    doctrees = source / ".doctrees"
    status = build_main(["-b", "html", "-q", "-d", str(doctrees), str(source), str(target)])
    if status:
        raise RuntimeError(f"sphinx could not build the site from {source} (exit {status})")
    return target / "index.html"

