"""``lfverify simulate NAME [--quick|--full] --out DIR`` (or ``--study MODULE:OBJECT``, the user's own study): run
(or resume) a Monte-Carlo study.

Loaded by :mod:`lfverify.app` when the command is ``simulate``: :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import argparse
import sys

from lfverify.app._executor_options import add_executor_arguments, executor_from_args
from lfverify.app._report import _study_evidence, study_claim_lines, study_rows
from lfverify.io import (
    check_output_folder,
    claim_output_folder,
    settings_fingerprint,
)
from lfverify.parallel import keeping_workers
from lfverify.simulations import STUDIES, STUDY_NAMES, Study
from lfverify.simulations import run as run_engine

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    """The options of ``lfverify simulate``."""

    parser.add_argument("name", nargs="?", choices=[*STUDY_NAMES, "all"],
                        help="the study (uniform-convergence: Lemma 4; consistency: Thm. 5; calibration: Thms. 1-2; "
                             "unbiasedness: Lemma 3); 'all' runs each into OUT/NAME")
    parser.add_argument("--study", metavar="MODULE:OBJECT",
                        help="your own study instead of NAME: a Study (e.g. from lfverify.simulations.rate_study) "
                             "defined in MODULE (an importable module, or a path to a .py file) under the name OBJECT")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="mode", action="store_const", const="quick",
                      help="the committed sizes, under a minute per study on 2 cores (default)")
    size.add_argument("--full", dest="mode", action="store_const", const="full", help="the issue's full sizes")
    size.add_argument("--mode", dest="mode", choices=("smoke", "quick", "full"), help=argparse.SUPPRESS)
    parser.set_defaults(mode="quick")
    parser.add_argument("--out", required=True, metavar="DIR", help="output folder; re-running resumes")
    parser.add_argument("--seed", type=int, default=None, help="study seed (default: the study's fixed seed)")
    add_executor_arguments(parser)
    parser.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--progress", action="store_true", default=None,
                       help="force the progress bar (default: a bar on a terminal, a line per tenth of the tasks "
                            "otherwise)")
    shown.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _verdict_lines(summary: dict, mode: str | None = None, name: str | None = None) -> list[str]:
    """What a study found, in REPORT.md's words: for each claim the study is evidence for, the claim's verdict and
    the study's outcome against its record (:func:`lfverify.app._report.study_claim_lines`); each row of its
    "verdicts" block as yes / no with its outcome and, where it reads against the claim's verdict, why that is
    expected (:func:`lfverify.app._report.study_rows`); then every verdict sentence of the summary (keys "verdict" /
    "rate_verdict", with their path) and the number of findings."""
    lines = []
    name = summary.get("study") if name is None else name
    if name is not None and mode is not None and isinstance(summary.get("verdicts"), dict):
        evidence = _study_evidence(name, mode, summary, 0.0)
        lines += [f"  {line}" for line in study_claim_lines(name, evidence)]
        lines += [f"  {row.text}" for row in study_rows(name, mode, summary)]

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("verdict", "rate_verdict") and isinstance(value, str):
                    lines.append(f"  {'/'.join(path)}: {value}")
                elif key != "verdicts":
                    walk(value, path + [str(key)])
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, path + [str(i)])

    walk({k: v for k, v in summary.items() if k in ("settings", "main", "rates")}, [])
    if summary.get("findings"):
        lines.append(f"  {len(summary['findings'])} findings (summary.json, 'findings')")
    return lines


def load_study(spec: str):
    """The :class:`lfverify.simulations.Study` named by ``MODULE:OBJECT`` (MODULE a module importable from the current
    folder, or a path to a ``.py`` file, whose folder is then put on the import path so that worker processes import
    the statistic from it too), its command line recorded in it.

    Raises
    ------
    ValueError
        One line: a malformed spec, a module that cannot be imported (with the error), a missing object, or an
        object that is not a Study.
    """
    import dataclasses
    import importlib
    from pathlib import Path


    module_name, sep, attr = spec.rpartition(":")
    if not sep or not module_name or not attr.isidentifier():
        raise ValueError(f"--study must be MODULE:OBJECT (a module or a .py file, and a name in it); got {spec!r}")
    if module_name.endswith(".py") or "/" in module_name or "\\" in module_name:
        path = Path(module_name).resolve()
        if not path.is_file():
            raise ValueError(f"--study: {module_name!r} is not a file")
        folder, module_name = str(path.parent), path.stem
    else:
        folder = str(Path.cwd())
    if folder not in sys.path:
        sys.path.insert(0, folder)  # spawned workers receive sys.path, so they import the module the same way
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 (the user's module: any import error is reported in one line)
        raise ValueError(f"--study: cannot import {module_name!r}: {type(exc).__name__}: "
                         f"{' '.join(str(exc).split())}") from None
    study = getattr(module, attr, None)
    if study is None:
        raise ValueError(f"--study: module {module_name!r} has no {attr!r}")
    if not isinstance(study, Study):
        raise ValueError(f"--study: {module_name}:{attr} must be a lfverify.simulations.Study (e.g. from rate_study); "
                         f"got {type(study).__name__}")
    return dataclasses.replace(study, command=f"lfverify simulate --study {spec}")


def run(args) -> int:
    """Run the selected study (or all of them, or the user's ``--study``) and print where the results went and the
    verdicts."""

    if (args.name is None) == (args.study is None):
        raise ValueError("give a study NAME or --study MODULE:OBJECT (one of them)")
    user = load_study(args.study) if args.study else None
    if user is not None and args.mode not in user.modes:
        raise ValueError(f"--mode {args.mode}: study {user.name!r} defines {sorted(user.modes)}")
    executor = executor_from_args(args)
    executor.check()  # a Dask scheduler must answer before any work starts
    names = [user.name] if user is not None else list(STUDY_NAMES) if args.name == "all" else [args.name]
    studies = {user.name: user} if user is not None else STUDIES
    out = check_output_folder(args.out, option="--out")
    if args.name == "all":  # each study also claims its own subfolder
        seed = "default" if args.seed is None else args.seed
        claim_output_folder(out, command="simulate all", settings=f"mode {args.mode}, seed {seed}",
                            fingerprint=settings_fingerprint({"mode": args.mode, "seed": args.seed}))
    with keeping_workers(executor):  # "all": one pool of workers for every study
        for name in names:
            target = out / name if args.name == "all" else out
            line = f"{name} ({args.mode}, {executor.describe()}) -> {target}"
            progress = True if args.progress else "off" if args.quiet else "auto"
            result = run_engine(studies[name], mode=args.mode, out=target, executor=executor, seed=args.seed,
                                progress=progress, figures=not args.no_figures,
                                announce=lambda line=line: args.quiet or print(line, file=sys.stderr, flush=True))
            print(f"{name}: {result.computed} tasks computed, {result.skipped} found done; {target / 'summary.json'}")
            recorded = args.mode if args.seed is None else f"{args.mode}, seed {args.seed}"  # none: measured only
            for line in _verdict_lines(result.summary, None if user is not None else recorded, name):
                print(line)
    return 0
