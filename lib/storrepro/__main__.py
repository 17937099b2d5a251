"""Command line: ``python -m storrepro
reproduce|site|check-results|compare|dates|lab|bench|data|trace|list|new-paper|readme``."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from storrepro.suite.bench import SECTIONS as BENCH_SECTIONS
from storrepro.suite.config import PROFILES, ParameterError
from storrepro.suite.notebooks import NOTEBOOKS, trace_conversions
from storrepro.suite.traces.formats import FORMATS as TRACE_FORMATS


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m storrepro", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("reproduce", help="execute the notebooks and write results")
    run.add_argument(
        "--profile",
        choices=PROFILES,
        default="full",
        help="'full' is the paper's scale, 'quick' the CI scale (default: full)",
    )
    run.add_argument(
        "--only",
        nargs="+",
        metavar="NAME",
        help=f"run only these notebooks (of: {', '.join(NOTEBOOKS)})",
    )
    run.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="write figures/ and results/ (executed notebooks in results/executed) under DIR "
        "(default: the repository for "
        "the full profile with default parameters, else build/runs/<profile>-<notebooks>-<hash>)",
    )
    run.add_argument(
        "-p",
        dest="params",
        action="append",
        default=[],
        metavar="[NOTEBOOK:]NAME=VALUE",
        help="set a parameter of every notebook run, or with NOTEBOOK: of that one only; "
        "repeatable; see `python -m storrepro list`",
    )
    run.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="notebooks run side by side (default: one per core)",
    )
    run.add_argument(
        "--force",
        action="store_true",
        help="run even when the estimated time exceeds a day (memory limits still apply)",
    )
    where = run.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="local dask workers for sweeps; 1 runs in-process (default: cores)",
    )
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run sweeps on an existing dask scheduler, e.g. tcp://host:8786",
    )

    site = commands.add_parser("site", help="build the static site of the last reproduce run")
    site.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="the --out of that run: reads DIR/results, DIR/figures, DIR/results/executed "
        "and writes DIR/site (default: the repository and build/site)",
    )

    check = commands.add_parser(
        "check-results",
        help="compare results/*.json of a fresh run with those committed (CI's last step)",
    )
    check.add_argument(
        "--against", default="HEAD", metavar="REF", help="git revision to compare with"
    )

    lab = commands.add_parser(
        "lab", help="JupyterLab on working copies in build/lab/notebooks (notebooks/ untouched)"
    )
    lab.add_argument(
        "--fresh", nargs="*", default=[], metavar="NAME",
        help="replace these working copies by the committed notebooks",
    )
    lab.add_argument("--no-browser", action="store_true",
                     help="do not open a browser (Jupyter's --no-browser)")
    lab.add_argument("--port", type=int, metavar="N", help="the port JupyterLab listens on")

    compare = commands.add_parser(
        "compare",
        help="the verdicts and values a run moved against the committed results",
    )
    compare.add_argument(
        "--out", type=Path, metavar="DIR", required=True,
        help="the --out (or build/runs/<run>) folder of the run to compare",
    )
    compare.add_argument(
        "--against", type=Path, metavar="DIR",
        help="another run's folder to compare with (default: a run of the same profile and "
        "seed at the default parameters, the committed one or a baseline computed once)",
    )
    compare.add_argument(
        "--values", action="store_true",
        help="list the claims whose values alone moved, with both values",
    )

    dates = commands.add_parser(
        "dates",
        help="each notebook's decision register with the commit that set each choice (from git) "
        "and whether committed results it decides existed before",
    )
    dates.add_argument("names", nargs="*", metavar="NAME", help="notebooks (default: all)")

    bench = commands.add_parser(
        "bench", help="measure speeds, memory, scaling and parallel speedup: results/BENCH.md"
    )
    bench.add_argument(
        "--profiles",
        nargs="*",
        choices=PROFILES,
        default=list(PROFILES),
        help="notebook profiles to time (default: quick full; none: skip the notebooks)",
    )
    bench.add_argument(
        "--sections",
        nargs="+",
        choices=BENCH_SECTIONS,
        default=list(BENCH_SECTIONS),
        help="what to measure (default: all)",
    )

    data = commands.add_parser("data", help="fetch the real data sets the notebooks read")
    data.add_argument("dataset", choices=["cran"], help="cran: the 82-series CRAN benchmark")
    data.add_argument(
        "--download",
        type=Path,
        required=True,
        metavar="DIR",
        help="put the pinned CRAN package tarballs in DIR (then point $STORREPRO_CRAN_DIR at it)",
    )
    data.add_argument(
        "--mirror",
        metavar="URL",
        help="base address of a CRAN mirror (default: $STORREPRO_CRAN_MIRROR, else CRAN's cloud "
        "mirror)",
    )

    trace = commands.add_parser("trace", help="read a real block trace: info, convert")
    actions = trace.add_subparsers(dest="action", required=True)
    info = actions.add_parser("info", help="format, requests, duration, IOPS, reads, volumes")
    convert = actions.add_parser("convert", help="turn a trace into a paper's input")
    for sub in (info, convert):
        sub.add_argument("path", type=Path, help="the trace file (gzip is read transparently)")
        sub.add_argument("--format", choices=TRACE_FORMATS, help="default: detected")
    convert.add_argument(  # a metavar, so that building the parser does not list the choices
        "--to", required=True, choices=_Conversions(), metavar="PAPER",
        help="which paper's input: %(choices)s",
    )
    convert.add_argument("--out", required=True, type=Path, help="file to write (.npz or .csv)")

    listing = commands.add_parser("list", help="list notebooks and their parameters")
    listing.add_argument("names", nargs="*", metavar="NAME")

    new = commands.add_parser(
        "new-paper", help="start a paper from templates/paper/: its package, notebook, tests and "
        "registry line")
    new.add_argument("name", help="the package's name, e.g. slow_disk")
    new.add_argument("number", help="the notebook's two-digit number, e.g. 06")

    commands.add_parser("readme", help="rewrite the README's blocks written from the code: the "
                        "notebooks table, what a trace replaces, the layers")
    return parser


class _Conversions:
    """The ``trace convert --to`` choices, each paper's declared conversion
    (:func:`~storrepro.suite.notebooks.trace_conversions`), found only when argparse checks or lists
    them: finding them imports every paper's package, which takes a second."""

    def __contains__(self, name) -> bool:
        return name in trace_conversions()

    def __iter__(self):
        return iter(sorted(trace_conversions()))


def _trace(args) -> int:
    from storrepro.suite.paths import atomic_path
    from storrepro.suite.traces.summary import trace_info

    if args.action == "info":
        print(trace_info(args.path, args.format).describe())
        return 0
    if args.out.is_dir():
        raise ParameterError(f"--out {args.out}: a directory; name the file to write")
    if args.out.resolve() == args.path.resolve():
        raise ParameterError(f"--out {args.out}: the input trace itself; name another file")
    conversion = trace_conversions()[args.to]
    if args.out.suffix in (".csv", ".npz") and args.out.suffix != conversion.suffix:
        raise ParameterError(  # a .csv named .npz (or the reverse) fails only when read
            f"--out {args.out}: --to {args.to} writes a {conversion.suffix} file "
            f"({conversion.writes.rsplit(' (', 1)[0]}); name a {conversion.suffix} file")
    try:  # before converting: a conversion can take minutes
        args.out.parent.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=args.out.parent).close()
    except (FileExistsError, NotADirectoryError):
        raise ParameterError(f"--out {args.out}: a file stands where its folder would be"
                             ) from None  # fmt: skip
    except OSError as err:
        raise ParameterError(f"--out {args.out}: cannot write there ({err.strerror or err})"
                             ) from None  # fmt: skip
    result = conversion.convert(args.path, format=args.format)
    with atomic_path(args.out) as tmp:
        wrote = conversion.save(result, tmp)
    print(wrote)
    print(f"written: {args.out} ({conversion.writes})")
    return 0


#: Set to see the traceback of an unexpected error instead of its one-line summary.
TRACEBACK_ENV = "STORREPRO_TRACEBACK"


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a volume or path a C/ASCII locale cannot print
        if hasattr(stream, "reconfigure"):  # is shown escaped, not a UnicodeEncodeError
            stream.reconfigure(errors="backslashreplace")
    args = _parser().parse_args(argv)
    from storrepro.suite import runner  # imported here so `--help` stays fast

    try:
        if args.command == "site":
            from storrepro.suite.site import build_site

            index = build_site(args.out.resolve() if args.out else None)
            print(f"site written: {index}")
            return 0
        if args.command == "check-results":
            from storrepro.suite.compare import check_results, committed_results

            problems = check_results(args.against)
            for line in problems:
                print(line)
            failed = len({line.split()[0].rstrip(":") for line in problems})
            total = len(committed_results(args.against))
            print(f"vs the results committed at {args.against}, one check per notebook:")
            print(f"results: {total - failed} passed, {failed} failed")
            return 1 if problems else 0
        if args.command == "bench":
            from storrepro.suite.bench import run_bench, write_report

            path = write_report(run_bench(tuple(args.profiles), tuple(args.sections)))
            print(f"benchmark written: {path}")
            return 0
        if args.command == "data":
            from storrepro.suite.data.cran import CRAN_DIR_ENV, download_cran

            files = download_cran(args.download, args.mirror)
            print(
                f"{len(files)} tarballs in {args.download}; "
                f"use them with {CRAN_DIR_ENV}={args.download.resolve()}"
            )
            return 0
        if args.command == "trace":
            return _trace(args)
        if args.command == "compare":
            from storrepro.suite.compare import moved_report
            from storrepro.suite.scorecard import load_results

            results = load_results(args.out.resolve())
            if not results:
                raise ValueError(f"--out {args.out}: no results/*.json there")
            if args.against is not None and not load_results(args.against.resolve()):
                raise ValueError(f"--against {args.against}: no results/*.json there")
            for result in results:
                if args.against is None:
                    _ensure_baseline(result)
                print(moved_report(result, against=args.against, values=args.values))
            return 0
        if args.command == "lab":
            from storrepro.suite.lab import start_lab

            start_lab(args.fresh, no_browser=args.no_browser, port=args.port)
            return 0
        if args.command == "dates":
            from storrepro.suite.dating import register_lines

            for name in args.names or NOTEBOOKS:
                print("\n".join(register_lines(name)))
            return 0
        if args.command == "list":
            for name in args.names or NOTEBOOKS:
                print(runner.describe_parameters(name))
            return 0
        if args.command == "new-paper":
            from storrepro.suite.scaffold import new_paper

            for path in new_paper(args.name, args.number):
                print(f"written: {path}")
            print("next: make the template's parts the paper's, `python -m storrepro readme` (its "
                  f"rows in the README's tables), `make test`, `make reproduce NOTEBOOKS="
                  f"{args.number}_{args.name}`")
            return 0
        if args.command == "readme":
            from storrepro.suite.readme import update_code_blocks

            print("README " + ("rewritten" if update_code_blocks() else "already current"))
            return 0
        cores = os.cpu_count() or 1
        if args.workers is not None and not 1 <= args.workers <= cores:
            raise ParameterError(
                f"--workers {args.workers}: expected a whole number from 1 to {cores} "
                "(this machine's cores; use --scheduler for a larger cluster)"
            )
        if args.jobs is not None and not 1 <= args.jobs <= cores:
            raise ParameterError(f"--jobs {args.jobs}: expected a whole number from 1 to {cores}")
        return runner.reproduce(
            args.profile, args.only, args.out, args.params, args.workers, args.scheduler,
            args.jobs, args.force,
        )
    except (ParameterError, KeyError, ValueError, OSError, MemoryError) as err:
        message = (err.args[0] if len(err.args) == 1 else str(err)) or type(err).__name__
        print(f"error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as err:  # runner.Stopped carries the signal: SIGTERM gives 143
        print("\ninterrupted", file=sys.stderr)
        return 128 + getattr(err, "signum", 2)
    except Exception as err:  # a case no check foresaw: one line, not a traceback
        if os.environ.get(TRACEBACK_ENV):
            raise
        print(f"error: {args.command}: unexpected {type(err).__name__}: {err} (a damaged file "
              f"among those it read? {TRACEBACK_ENV}=1 shows where)", file=sys.stderr)
        return 2


def _ensure_baseline(result: dict) -> None:
    """Run ``result``'s notebook once at its profile and seed with the default parameters into
    the baseline cache, unless the committed or a cached result already is that run."""
    from storrepro.suite.compare import baseline_dir, needs_baseline
    from storrepro.suite.runner import reproduce

    if not needs_baseline(result):
        return
    folder = baseline_dir(result["profile"], result["seed"])
    print(f"computing the baseline of {result['notebook']} at profile {result['profile']}, seed "
          f"{result['seed']} and the default parameters, once (cached in {folder})")
    code = reproduce(result["profile"], [result["notebook"]], folder,
                     [f"seed={result['seed']}"])
    if code:
        raise RuntimeError(f"the baseline run into {folder} failed (exit {code})")


if __name__ == "__main__":
    sys.exit(main())
