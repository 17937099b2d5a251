"""One figure style for every notebook, and atomic figure files that carry their provenance.

A notebook's vector copies are written by a separate process while it goes on
(``save_figure(..., background=True)``, then :func:`wait_for_figures`): an SVG costs about as much
as its PNG, and a figure cell otherwise leaves the machine's other cores idle. That process gets
the figure pickled and the caller's rcParams, and writes the very bytes the caller would.
"""

from __future__ import annotations

import multiprocessing
import pickle
import re
import signal
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt

from storrepro.suite.paths import atomic_path, figures_dir
from storrepro.suite.readable import readable_tables

#: Colour-blind-safe palette (Okabe–Ito), in the order series are usually drawn.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]

STYLE = {
    "figure.figsize": (7.0, 4.2),
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
}


def use_style() -> None:
    """Apply the suite's look to figures and tables (notebooks call this once, at the top)."""
    mpl.rcParams.update(STYLE)
    readable_tables()


# ---------------------------------------------------------------- the paper's numbers

#: The id every paper mark carries, so a saved figure can say how many it has.
PAPER_GID = "paper-mark"
PAPER_COLOUR = "#000000"


def _paper(artist, label: str):
    artist.set_gid(PAPER_GID)
    artist.set_label(label)
    return artist


def paper_point(ax, x, y, label: str = "paper"):
    """Mark the value(s) the paper reports at ``(x, y)`` (numbers or sequences): black
    diamonds labelled ``label`` (it starts with "paper")."""
    (line,) = ax.plot(x, y, "D", ms=7, mfc="none", mec=PAPER_COLOUR, mew=1.5, zorder=5)
    return _paper(line, label)


def paper_line(ax, y=None, x=None, label: str = "paper"):
    """Mark a value the paper reports as a line: horizontal at ``y``, vertical at ``x``, or the
    curve through ``(x, y)`` when both are sequences."""
    style = {"color": PAPER_COLOUR, "ls": ":", "lw": 1.8, "zorder": 4}
    if x is not None and y is not None:
        (line,) = ax.plot(x, y, **style)
    elif y is not None:
        line = ax.axhline(y, **style)
    elif x is not None:
        line = ax.axvline(x, **style)
    else:
        raise ValueError("paper_line: give y (horizontal), x (vertical) or both (a curve)")
    return _paper(line, label)


def paper_band(ax, low, high, x=None, label: str = "paper"):
    """Mark the band of values the paper's words allow: between ``low`` and ``high`` along
    ``x`` (sequences), or a horizontal span when ``x`` is None."""
    style = {"color": "#9e9e9e", "alpha": 0.3, "lw": 0, "zorder": 0}
    band = (ax.axhspan(low, high, **style) if x is None
            else ax.fill_between(x, low, high, **style))
    return _paper(band, label)


def paper_marks(fig: plt.Figure) -> int:
    """How many paper marks (:func:`paper_point`, :func:`paper_line`, :func:`paper_band`) the
    figure carries."""
    return sum(
        artist.get_gid() == PAPER_GID
        for ax in fig.axes
        for artist in [*ax.lines, *ax.collections, *ax.patches]
    )


def numeric_paper_value(claim: dict) -> bool:
    """Whether a claim's paper value is in numbers (a number, numbers, or words with a number
    that is not a figure's, table's or section's, nor the metric F1's, nor a percentile's name
    such as p99.9). A band's edges do not count: many are the bands vocabulary's translation of
    words ("majority", "on a par", a sign) or an acceptance tolerance, not a number the paper
    printed that a figure could mark."""
    value = claim.get("paper_value")
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int | float):
        return True
    if isinstance(value, list):
        return any(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    words = re.sub(r"(Figs?\.|Table|Eq\.|§|k\s*=|n\s*=)\s*[\d(,–\- ]+|\bF1\b|\bp\d+(\.\d+)?\b", "",
                   str(value))
    return bool(re.search(r"\d", words))


def figures_without_paper_marks(result: dict) -> list[str]:
    """The figures of a result that reproduce a paper's figure and bear on a claim with a
    numeric paper value, but carry no paper mark (as :meth:`storrepro.suite.run.Run.save_figure`
    recorded them)."""
    claims = {c["id"]: c for c in result["claims"]}
    return [
        path for path, meta in result.get("figure_claims", {}).items()
        if meta.get("paper_figure") and not meta.get("paper_marks")
        and any(numeric_paper_value(claims[c]) for c in meta["claims"])
    ]


def save_figure(
    fig: plt.Figure,
    notebook: str,
    name: str,
    *,
    out: Path | None = None,
    metadata: dict[str, str] | None = None,
    formats: tuple[str, ...] = ("png", "svg"),
    background: bool = False,
) -> list[Path]:
    """Write ``figures/<notebook>/<name>.<fmt>`` atomically, with provenance in the metadata.

    ``metadata`` (commit, profile, seed, ...) goes into the PNG text chunks and the SVG
    description, so a figure found on its own still says which run made it. With
    ``background``, every format after the first is written by the background process: call
    :func:`wait_for_figures` before relying on those files.
    """
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"figure name {name!r}: expected a plain file stem such as 'mm1_ccdf'")
    known = fig.canvas.get_supported_filetypes()
    unknown = [fmt for fmt in formats if fmt not in known]
    if unknown or not formats:
        raise ValueError(f"formats = {formats!r}: expected some of {sorted(known)}")
    description = "; ".join(f"{k}={v}" for k, v in (metadata or {}).items())
    paths = []
    for i, fmt in enumerate(formats):
        target = figures_dir(notebook, out) / f"{name}.{fmt}"
        info = {"Title": name, "Description": description}
        if fmt == "svg":
            info["Date"] = None  # no timestamp: identical runs give identical files
        if background and i > 0:
            _in_background(fig, target, fmt, info)
        else:
            _write(fig, target, fmt, info)
        paths.append(target)
    return paths


def _write(fig: plt.Figure, target: Path, fmt: str, info: dict) -> None:
    # a fixed hash salt gives stable SVG ids, so re-running does not churn committed files
    with atomic_path(target) as tmp, mpl.rc_context({"svg.hashsalt": "storrepro"}):
        fig.savefig(tmp, format=fmt, metadata=info)


_writer: ProcessPoolExecutor | None = None
_pending: list[tuple[Path, Future]] = []


def _in_background(fig: plt.Figure, target: Path, fmt: str, info: dict) -> None:
    global _writer
    try:  # pickled now: the caller may change or close the figure as soon as this returns
        blob = pickle.dumps(fig)
    except (pickle.PicklingError, AttributeError, TypeError):  # e.g. a lambda tick formatter
        _write(fig, target, fmt, info)
        return
    if _writer is None:
        _writer = ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_interrupts
        )
    rc = {key: value for key, value in mpl.rcParams.items() if key != "backend"}
    _pending.append((target, _writer.submit(_write_pickled, blob, target, fmt, info, rc)))


def _ignore_interrupts() -> None:
    """An interrupt of the notebook (or the runner's at its end) is not the writer's to take."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _write_pickled(blob: bytes, target: Path, fmt: str, info: dict, rc: dict) -> None:
    mpl.use("agg")
    mpl.rcParams.update(rc)
    fig = pickle.loads(blob)
    try:
        _write(fig, target, fmt, info)
    finally:
        plt.close(fig)


def wait_for_figures() -> None:
    """Wait until every figure handed to the background process is written, and end that
    process (the next figure starts another); raise the first failure, naming its file."""
    global _writer
    try:
        while _pending:
            target, job = _pending.pop(0)
            try:
                job.result()
            except Exception as error:
                raise RuntimeError(f"writing {target} in the background failed: {error}") from error
    finally:
        _pending.clear()
        if _writer is not None:
            _writer.shutdown()
            _writer = None
