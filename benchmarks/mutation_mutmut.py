"""mutmut 3.8's side of benchmarks/mutation_testing.py: its configuration, and a driver run inside the scratch copy.

One mutmut set-up serves the whole package: ``only_mutate`` lists every measured module, the test selection is the
whole default suite (``tests/``, less :data:`TRAMPOLINE_INCOMPATIBLE_TESTS`), and mutmut's stats run (the suite
once, every function of the package behind a trampoline that records which tests reach it) is collected once and
kept in the scratch copy.  Each mutant then
runs only the tests that reached its function (``mutants/mutmut-stats.json``, ``tests_by_mangled_function_name``),
fastest first, in a worker forked from the process that already imported them.

Driver commands (``python mutation_mutmut.py COMMAND ...``, with the scratch copy as the working folder):

``prepare --max-children N --out FILE``
    copy the sources into ``mutants/``, generate every mutant, collect the stats; FILE gets the mutant names per
    source file and the seconds of both steps.  This calls the steps of ``mutmut run`` (mutmut.__main__'s
    ``copy_src_dir``, ``create_mutants``, ``collect_or_load_stats``) directly, because ``mutmut run`` would go on
    to run every mutant; hence the pinned mutmut version (:data:`MUTMUT_VERSION`).
``run --names FILE --max-children N``
    ``mutmut run --max-children N NAME...`` for the names in FILE (a JSON list; passed in-process, so thousands of
    names do not meet the command line's length limit).  mutmut reruns every named mutant.
``collect --names FILE --out FILE``
    per named mutant: status (mutmut's ``status_by_exit_code``), wall seconds, and the ``mutmut show`` diff of
    every mutant that was not detected or timed out (a timeout is judged again, and may turn out undetected).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

MUTMUT_VERSION = "3.8."  #: the driver uses mutmut.__main__'s steps, which are not a public interface
#: mutmut's timeout: a worker gets (estimated seconds of its tests + constant) * multiplier of wall time (and twice
#: that in CPU seconds); the estimates come from the stats run, which is slower than a mutant's run, so 5x
#: leaves room for a loaded machine while a hanging mutant costs minutes, not mutmut's default 15x.  mutmut 3.8
#: counts only each test's call phase, not its fixtures' set-up, so a test whose work is in a session fixture (the
#: report tests' derivations of every claim, ~15 s alone) gets about constant * multiplier = 25 s: enough on an
#: otherwise idle machine, not with a second copy measured at the same time (measured: every narrowed run of the
#: proofs modules timed out then).  Timeouts are judged again (mutation_widening), but one copy at a time.
TIMEOUT_MULTIPLIER = 5.0
TIMEOUT_CONSTANT = 5.0
#: Tests that fail on unmutated code behind mutmut's trampolines (found by running the suite inside ``mutants/``),
#: deselected from the mutmut set-up; they cannot kill mutants, and the mutants of the functions they test are
#: still run against every other test that reaches them.
TRAMPOLINE_INCOMPATIBLE_TESTS = {
    "tests/test_bench_optimizer_script.py::test_quick_benchmark_writes_complete_consistent_results":
        "reads cProfile's entries by function name; a trampoline replaces each profiled function by its wrapper",
    "tests/test_metrics.py::test_zero_over_zero_warning_points_at_the_calling_line":
        "checks the file a warning's stacklevel points at; the trampoline adds frames between caller and warn",
    "tests/test_estimator.py::test_the_phase_one_warning_points_at_the_callers_fit_line":
        "checks the file a warning's stacklevel points at; the trampoline adds frames between caller and warn",
}


def _toml_list(items) -> str:
    return "[" + ", ".join(json.dumps(str(i)) for i in items) + "]"


def mutmut_config(modules, also_copy) -> str:
    """The ``[tool.mutmut]`` section appended to the scratch copy's pyproject.toml (mutmut 3.8 keys).

    Parameters
    ----------
    modules : sequence of str
        Source paths to mutate (``only_mutate``), e.g. ``lfverify/metrics.py``.
    also_copy : sequence of str
        Top-level files and folders the tests read besides ``lfverify/`` and ``tests/`` (README.md, proofs/, ...):
        mutmut runs the tests inside ``mutants/``, so they must be there too.
    """
    return "\n".join([
        "",
        "[tool.mutmut]",
        'source_paths = ["lfverify"]',
        f"only_mutate = {_toml_list(modules)}",
        "pytest_add_cli_args_test_selection = " + _toml_list(
            ["tests"] + [a for t in TRAMPOLINE_INCOMPATIBLE_TESTS for a in ("--deselect", t)]),
        'pytest_add_cli_args = ["-p", "no:cacheprovider"]',
        f"also_copy = {_toml_list(also_copy)}",
        "use_git_change_detection = false",
        "track_dependencies = false",
        f"timeout_multiplier = {TIMEOUT_MULTIPLIER}",
        f"timeout_constant = {TIMEOUT_CONSTANT}",
        "",
    ])


# ---------------------------------------------------------------------- driver (runs inside the scratch copy)
def _check_version() -> None:
    from importlib.metadata import version

    found = version("mutmut")
    if not found.startswith(MUTMUT_VERSION):
        sys.exit(f"mutation_mutmut.py: needs mutmut {MUTMUT_VERSION}x (it calls the steps of `mutmut run`); "
                 f"found {found}")


def _mutants_by_path() -> dict[str, list[str]]:
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.utils.file_utils import walk_mutatable_files

    found = {}
    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        found[str(path)] = sorted(data.exit_code_by_key)
    return found


def prepare(max_children: int, out: Path) -> None:
    _check_version()
    from mutmut.__main__ import (collect_or_load_stats, copy_also_copy_files, copy_src_dir, create_mutants,
                                 setup_source_paths)
    from mutmut.mutation.trampoline import set_mutant_under_test
    from mutmut.workers.isolation import get_mutant_runner

    set_mutant_under_test("mutant_generation")
    os.makedirs("mutants", exist_ok=True)
    start = time.perf_counter()
    copy_src_dir()
    copy_also_copy_files()
    setup_source_paths()
    create_mutants(max_children)
    generated = time.perf_counter()
    collect_or_load_stats(get_mutant_runner(max_children), apply_config_invalidation=True)
    done = time.perf_counter()
    out.write_text(json.dumps({"mutants": _mutants_by_path(),
                               "seconds": {"generation": generated - start, "stats": done - generated}}))


def run(names_file: Path, max_children: int) -> None:
    _check_version()
    from mutmut.__main__ import cli

    names = json.loads(names_file.read_text())
    if not names:
        return
    cli(["run", "--max-children", str(max_children), *names])


def collect(names_file: Path, out: Path) -> None:
    _check_version()
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.mutation.diff_apply import get_diff_for_mutant
    from mutmut.stats import status_by_exit_code
    from mutmut.utils.file_utils import walk_mutatable_files

    wanted = set(json.loads(names_file.read_text()))
    results = {}
    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        for name in wanted & set(data.exit_code_by_key):
            status = status_by_exit_code[data.exit_code_by_key[name]]
            record = {"status": status, "seconds": data.durations_by_key.get(name)}
            if status not in ("killed", "segfault"):  # a timeout may be judged again and become undetected
                record["diff"] = get_diff_for_mutant(name, path=path)
            results[name] = record
    missing = sorted(wanted - set(results))
    if missing:
        sys.exit(f"mutation_mutmut.py collect: {len(missing)} named mutants are unknown to mutmut, e.g. {missing[:3]}")
    out.write_text(json.dumps(results))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--max-children", type=int, required=True)
    p.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("run")
    r.add_argument("--names", type=Path, required=True)
    r.add_argument("--max-children", type=int, required=True)
    c = sub.add_parser("collect")
    c.add_argument("--names", type=Path, required=True)
    c.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "prepare":
        prepare(args.max_children, args.out)
    elif args.command == "run":
        run(args.names, args.max_children)
    else:
        collect(args.names, args.out)


if __name__ == "__main__":
    main()
