"""Command line: ``python -m storrepro reproduce|site|check-results|bench|data|list``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from storrepro.config import PROFILES, ParameterError
from storrepro.notebooks import NOTEBOOKS


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
        metavar="NAME=VALUE",
        help="set a notebook parameter; repeatable; see `python -m storrepro list`",
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
        help="base address of a CRAN mirror (default: $STORREPRO_CRAN_MIRROR)",
    )

    listing = commands.add_parser("list", help="list notebooks and their parameters")
    listing.add_argument("names", nargs="*", metavar="NAME")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from storrepro import runner  # imported here so `--help` stays fast

    try:
        if args.command == "site":
            from storrepro.site import build_site

            index = build_site(args.out.resolve() if args.out else None)
            print(f"site written: {index}")
            return 0
        if args.command == "check-results":
            from storrepro.compare import check_results, committed_results

            problems = check_results(args.against)
            for line in problems:
                print(line)
            failed = len({line.split()[0].rstrip(":") for line in problems})
            total = len(committed_results(args.against))
            print(f"vs the results committed at {args.against}, one check per notebook:")
            print(f"results: {total - failed} passed, {failed} failed")
            return 1 if problems else 0
        if args.command == "bench":
            from storrepro.bench import run_bench, write_report

            path = write_report(run_bench(tuple(args.profiles)))
            print(f"benchmark written: {path}")
            return 0
        if args.command == "data":
            from storrepro.data.cran import CRAN_DIR_ENV, download_cran

            files = download_cran(args.download, args.mirror)
            print(
                f"{len(files)} tarballs in {args.download}; "
                f"use them with {CRAN_DIR_ENV}={args.download.resolve()}"
            )
            return 0
        if args.command == "list":
            for name in args.names or NOTEBOOKS:
                print(runner.describe_parameters(name))
            return 0
        cores = os.cpu_count() or 1
        if args.workers is not None and not 1 <= args.workers <= cores:
            raise ParameterError(
                f"--workers {args.workers}: expected a whole number from 1 to {cores} "
                "(this machine's cores; use --scheduler for a larger cluster)"
            )
        return runner.reproduce(
            args.profile, args.only, args.out, args.params, args.workers, args.scheduler
        )
    except (ParameterError, KeyError, ValueError, OSError) as err:
        message = err.args[0] if len(err.args) == 1 else str(err)
        print(f"error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
