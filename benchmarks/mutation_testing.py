"""Mutation testing of lfverify's core modules with mutmut (issue 4, item 5): the power of the test suite.

mutmut changes one small piece of a module at a time (an operator, a constant, a comparison, an argument, ...)
and runs the tests that exercise the changed function; a mutant is *killed* when some test fails.  A mutant that
survives either exposes behaviour no test pins down, or is *equivalent*: it cannot change any observable
behaviour (e.g. ``dtype=None`` where the input already is float64).  The equivalent survivors are listed, each
with its reason, in ``benchmarks/mutation_equivalent_mutants.json``; every entry also records the mutated line,
and an entry whose line no longer matches the mutant (the module changed and mutmut renumbered) is reported as
stale and NOT counted as equivalent.  So the non-equivalent kill rate is computed, never hand-typed:

    detected  = killed + timeout + segfault            (the tests noticed: failed, hung, or crashed)
    undetected = survived + "no tests" + suspicious + not checked
    non-equivalent kill rate = detected / (total - equivalent)

Every module is run in its own scratch copy of the repository made with ``git archive HEAD`` (so the measured
code and tests are exactly the committed ones; ``--worktree`` copies the working tree instead, for iterating
before a commit, and the result says so).  The tests given to mutmut are narrowed per module
(:data:`MODULES`) to the files that exercise it: mutmut runs, for each mutant, only the selected tests that
call the mutated function, and the whole suite would make every survivor cost ~30 s.

Usage::

    python benchmarks/mutation_testing.py                      # every core module, in sequence (~15 min on 2 cores)
    python benchmarks/mutation_testing.py --module validation --module scores
    python benchmarks/mutation_testing.py --module metrics --worktree --max-children 2
    python benchmarks/mutation_testing.py --report-only        # rebuild the markdown from mutation.json

Results: ``benchmarks/results/mutation.json`` (per module: counts, every undetected mutant with its diff, the
equivalent ones with their reasons) and ``benchmarks/results/mutation.md`` (the table for the README); both are
generated, written atomically, and merged per module (re-running one module keeps the others' results).
Not part of the test suite (it takes long); ``tests/test_mutation_report.py`` checks the parsing and the rates.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from lfverify.atomic_write import write_text_atomically

REPO = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).with_name("results")
OUT_JSON = RESULTS / "mutation.json"
OUT_MD = RESULTS / "mutation.md"
EQUIVALENTS_FILE = Path(__file__).with_name("mutation_equivalent_mutants.json")
DEFAULT_WORKDIR = Path(tempfile.gettempdir()) / "lfverify-mutation"
GENERATED = "benchmarks/mutation_testing.py (GENERATED FILE: do not edit by hand)"


@dataclass(frozen=True)
class ModuleRun:
    """One core module and the test files that exercise it (the narrowed mutmut test selection)."""

    source: str
    tests: tuple[str, ...]


#: The core modules (issue 4: not lfverify/proofs/, cli.py, verification.py, atomic_write.py, nor the modules
#: other sessions are adding) in the order they are run: smallest first.
MODULES: dict[str, ModuleRun] = {
    "validation": ModuleRun("lfverify/validation.py", (
        "tests/test_validation.py", "tests/test_metrics.py", "tests/test_losses.py", "tests/test_empirical.py",
        "tests/test_populations.py")),
    "scores": ModuleRun("lfverify/scores.py", (
        "tests/test_scores.py", "tests/test_empirical.py", "tests/test_populations.py")),
    "calibration": ModuleRun("lfverify/calibration.py", (
        "tests/test_calibration.py", "tests/test_calibration_properties.py")),
    "quadrature": ModuleRun("lfverify/quadrature.py", (
        "tests/test_quadrature.py", "tests/test_populations.py")),
    "empirical": ModuleRun("lfverify/empirical.py", (
        "tests/test_empirical.py", "tests/test_properties.py")),
    "losses": ModuleRun("lfverify/losses.py", (
        "tests/test_losses.py", "tests/test_properties.py")),
    "metrics": ModuleRun("lfverify/metrics.py", (
        "tests/test_metrics.py", "tests/test_properties.py", "tests/test_calibration.py")),
    "populations": ModuleRun("lfverify/populations.py", (
        "tests/test_populations.py",)),
}

#: mutmut's statuses (``mutmut results --all true``) grouped by what they mean for the suite.
DETECTED = ("killed", "timeout", "segfault")
UNDETECTED = ("survived", "no tests", "suspicious", "not checked", "check was interrupted by user", "skipped",
              "caught by type check")

_RESULT_LINE = re.compile(r"^\s+(?P<name>\S+): (?P<status>[a-z][a-z ]*)$")


# ---------------------------------------------------------------------- parsing and rates (unit-tested)
def parse_results(text: str) -> dict[str, str]:
    """Mutant name -> status from the output of ``mutmut results --all true`` (lines ``    name: status``).

    Raises
    ------
    ValueError
        If a status is not one of mutmut's known statuses (a changed output format must not be miscounted).
    """
    statuses = {}
    for line in text.splitlines():
        match = _RESULT_LINE.match(line)
        if not match:
            continue
        status = match["status"].strip()
        if status not in DETECTED + UNDETECTED:
            raise ValueError(f"mutmut results: unknown status {status!r} for mutant {match['name']!r}")
        statuses[match["name"]] = status
    return statuses


def mutated_line(diff: str) -> str:
    """The mutant's line(s) in a ``mutmut show`` diff: the added lines, stripped and joined by ' / '."""
    added = [line[1:].strip() for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    return " / ".join(added)


def load_equivalents(path: Path = EQUIVALENTS_FILE) -> dict[str, dict[str, str]]:
    """The EQUIVALENT_MUTANTS mapping: mutant name -> {"mutation": mutated line, "reason": why equivalent}."""
    data = json.loads(path.read_text(encoding="utf-8"))
    mapping = data["EQUIVALENT_MUTANTS"]
    for name, entry in mapping.items():
        if set(entry) != {"mutation", "reason"} or not entry["reason"].strip():
            raise ValueError(f"{path.name}: entry {name!r} needs exactly a non-empty 'mutation' and 'reason'")
    return mapping


def summarize(counts: dict[str, int], undetected: dict[str, str], diffs: dict[str, str],
              equivalents: dict[str, dict[str, str]], *, module_prefix: str) -> dict:
    """Counts and the non-equivalent kill rate of one module.

    Parameters
    ----------
    counts : mutmut status -> number of mutants (every mutant of the module)
    undetected : mutant name -> status, for every mutant whose status is not in :data:`DETECTED`
    diffs : mutant name -> ``mutmut show`` diff, for every undetected mutant
    equivalents : the EQUIVALENT_MUTANTS mapping; entries of other modules (other ``module_prefix``) are ignored
    module_prefix : the dotted module name mutmut puts in front of the module's mutant names

    Returns
    -------
    dict with ``counts``, ``total``, ``detected``, ``equivalent``, ``non_equivalent``, ``kill_rate``
    (detected / total), ``non_equivalent_kill_rate`` (detected / (total - equivalent)), and the lists
    ``equivalent_mutants`` (with their reasons), ``surviving_mutants`` (undetected and not equivalent) and
    ``stale_equivalents`` (entries of this module whose mutant is not undetected, or whose mutated line does not
    match).  Each listed mutant carries its mutated line; the full diffs stay in the module's ``diffs``.
    """
    unknown = set(counts) - set(DETECTED + UNDETECTED)
    if unknown:
        raise ValueError(f"counts: unknown statuses {sorted(unknown)}")
    if sum(counts.get(s, 0) for s in UNDETECTED) != len(undetected):
        raise ValueError(f"undetected: {len(undetected)} mutants listed, but counts say "
                         f"{sum(counts.get(s, 0) for s in UNDETECTED)}")
    equivalent, surviving, stale = [], [], []
    for name, status in sorted(undetected.items()):
        entry = equivalents.get(name)
        record = {"name": name, "status": status, "mutation": mutated_line(diffs.get(name, ""))}
        if entry is not None and entry["mutation"] == record["mutation"]:
            equivalent.append({**record, "reason": entry["reason"]})
            continue
        if entry is not None:
            stale.append({"name": name, "listed_mutation": entry["mutation"], "actual_mutation": record["mutation"]})
        surviving.append(record)
    for name, entry in sorted(equivalents.items()):
        if name.startswith(module_prefix + ".") and name not in undetected:
            stale.append({"name": name, "listed_mutation": entry["mutation"], "actual_mutation": None})
    total = sum(counts.values())
    detected = sum(counts.get(s, 0) for s in DETECTED)
    non_equivalent = total - len(equivalent)
    return {
        "counts": dict(sorted(counts.items())),
        "total": total,
        "detected": detected,
        "equivalent": len(equivalent),
        "non_equivalent": non_equivalent,
        "kill_rate": detected / total if total else None,
        "non_equivalent_kill_rate": detected / non_equivalent if non_equivalent else None,
        "equivalent_mutants": equivalent,
        "surviving_mutants": surviving,
        "stale_equivalents": stale,
    }


def overall(modules: dict[str, dict]) -> dict:
    """Totals over modules (sums of the per-module counts, not an average of rates)."""
    counts: dict[str, int] = {}
    for m in modules.values():
        for status, number in m["summary"].get("counts", {}).items():
            counts[status] = counts.get(status, 0) + number
    total = sum(m["summary"]["total"] for m in modules.values())
    detected = sum(m["summary"]["detected"] for m in modules.values())
    equivalent = sum(m["summary"]["equivalent"] for m in modules.values())
    return {
        "counts": dict(sorted(counts.items())),
        "total": total,
        "detected": detected,
        "equivalent": equivalent,
        "surviving_non_equivalent": total - detected - equivalent,
        "kill_rate": detected / total if total else None,
        "non_equivalent_kill_rate": detected / (total - equivalent) if total > equivalent else None,
    }


def module_prefix(source: str) -> str:
    """mutmut's dotted prefix of a module's mutant names: lfverify/metrics.py -> lfverify.metrics."""
    return source[:-3].replace("/", ".") if source.endswith(".py") else source.replace("/", ".")


def percent(rate) -> str:
    """A rate as a percentage with two decimals, rounded down: 4711 / 4713 is "99.95 %", never "100.00 %"."""
    if rate is None:
        return "n/a"
    return f"{math.floor(rate * 10_000 + 1e-9) / 100:.2f} %"


def markdown_report(data: dict) -> str:
    """The README table and the list of non-equivalent survivors, from mutation.json's content."""
    lines = [
        "<!-- GENERATED by benchmarks/mutation_testing.py from benchmarks/results/mutation.json: do not edit -->",
        "",
        "| module | mutants | killed | timeout | survived | no tests | equivalent | kill rate | non-equivalent kill rate |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, module in data["modules"].items():
        s, c = module["summary"], module["summary"]["counts"]
        lines.append(
            f"| `{module['source']}` | {s['total']} | {c.get('killed', 0)} | {c.get('timeout', 0)} | "
            f"{c.get('survived', 0)} | {c.get('no tests', 0)} | {s['equivalent']} | {percent(s['kill_rate'])} | "
            f"{percent(s['non_equivalent_kill_rate'])} |")
    o, c = data["overall"], data["overall"]["counts"]
    lines.append(f"| **all** | {o['total']} | {c.get('killed', 0)} | {c.get('timeout', 0)} | {c.get('survived', 0)} | "
                 f"{c.get('no tests', 0)} | {o['equivalent']} | {percent(o['kill_rate'])} | "
                 f"**{percent(o['non_equivalent_kill_rate'])}** |")
    commits = sorted({m["provenance"]["commit"][:7] + " (" + m["provenance"]["source"] + ")" for m in data["modules"].values()})
    seconds = sum(m["seconds"] for m in data["modules"].values())
    lines += ["", f"mutmut {data['mutmut']}, Python {data['python']}; code and tests of commit {', '.join(commits)}; "
              f"{seconds:.0f} s of mutation runs in total.  Detected = killed + timeout + segfault; the equivalent mutants and "
              f"their reasons are in benchmarks/mutation_equivalent_mutants.json.  Reproduce: "
              f"`python benchmarks/mutation_testing.py`."]
    lines += ["", "Non-equivalent surviving mutants:", ""]
    survivors = [(name, m) for name, module in data["modules"].items()
                 for m in module["summary"]["surviving_mutants"]]
    if not survivors:
        lines.append("none")
    for _, m in survivors:
        lines.append(f"* `{m['name']}` ({m['status']}): `{m['mutation']}`")
    stale = [m for module in data["modules"].values() for m in module["summary"]["stale_equivalents"]]
    if stale:
        lines += ["", "Stale EQUIVALENT_MUTANTS entries (mutated line changed; not counted as equivalent):", ""]
        lines += [f"* `{m['name']}`" for m in stale]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- running mutmut
def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, check=True, capture_output=True, text=True).stdout


def make_scratch_copy(target: Path, *, worktree: bool) -> None:
    """A fresh copy of the repository in ``target``: ``git archive HEAD``, or the working tree's tracked and
    untracked-but-not-ignored files when ``worktree``."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    if not worktree:
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=REPO, check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(target, filter="data")
        return
    files = _git("ls-files", "--cached", "--others", "--exclude-standard", "-z").split("\0")
    for rel in filter(None, files):
        src = REPO / rel
        if src.is_file():
            dst = target / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)


def mutmut_config(run: ModuleRun) -> str:
    """The [tool.mutmut] section for one module (mutmut 3.x keys)."""
    tests = list(run.tests)  # tests/conftest.py (Hypothesis profiles) is loaded by pytest itself
    as_toml = lambda items: "[" + ", ".join(json.dumps(i) for i in items) + "]"  # noqa: E731
    return "\n".join([
        "",
        "[tool.mutmut]",
        'source_paths = ["lfverify"]',
        f"only_mutate = {as_toml([run.source])}",
        f"pytest_add_cli_args_test_selection = {as_toml(tests)}",
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-x", "-q"]',
        'also_copy = ["benchmarks/", "README.md", "ERRATA.md"]',
        "use_git_change_detection = false",
        "",
    ])


def _progress(log: Path, stop: threading.Event, label: str, every: float) -> None:
    """Print mutmut's latest 'done/total' counter from its log every ``every`` seconds."""
    pattern = re.compile(r"(\d+)/(\d+)\s+🎉 (\d+) 🫥 (\d+)\s+⏰ (\d+)\s+🤔 (\d+)\s+🙁 (\d+)")
    while not stop.wait(every):
        try:
            tail = log.read_bytes()[-2000:].decode("utf-8", errors="ignore")
        except OSError:
            continue
        found = pattern.findall(tail)
        if found:
            done, total, killed, no_tests, timeout, suspicious, survived = found[-1]
            print(f"  [{label}] {done}/{total} mutants: killed {killed}, survived {survived}, timeout {timeout}, "
                  f"no tests {no_tests}, suspicious {suspicious}", flush=True)


def run_module(name: str, run: ModuleRun, *, workdir: Path, worktree: bool, max_children: int,
               progress_every: float, allow_missing_tests: bool = False) -> dict:
    """Run mutmut on one module in a fresh scratch copy; return its counts, undetected mutants with their diffs,
    the test files used and the run time."""
    scratch = workdir / name
    make_scratch_copy(scratch, worktree=worktree)
    missing = [t for t in run.tests if not (scratch / t).is_file()]
    if missing and not allow_missing_tests:
        raise FileNotFoundError(f"{name}: test files {missing} are not in the {'working tree' if worktree else 'HEAD'} copy")
    run = ModuleRun(run.source, tuple(t for t in run.tests if t not in missing))
    with open(scratch / "pyproject.toml", "a", encoding="utf-8") as f:
        f.write(mutmut_config(run))
    env = {**os.environ, "LFVERIFY_HYPOTHESIS_PROFILE": "ci", "PYTHONDONTWRITEBYTECODE": "1"}
    log = scratch / "mutmut-run.log"
    stop = threading.Event()
    reporter = threading.Thread(target=_progress, args=(log, stop, name, progress_every), daemon=True)
    start = time.perf_counter()
    reporter.start()
    try:
        with open(log, "wb") as out:
            proc = subprocess.run(["mutmut", "run", "--max-children", str(max_children)], cwd=scratch, env=env,
                                  stdout=out, stderr=subprocess.STDOUT)
    finally:
        stop.set()
        reporter.join()
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{name}: mutmut run exited with {proc.returncode}; see {log}")
    results = subprocess.run(["mutmut", "results", "--all", "true"], cwd=scratch, env=env, check=True,
                             capture_output=True, text=True).stdout
    statuses = parse_results(results)
    if not statuses:
        raise RuntimeError(f"{name}: mutmut produced no mutants; see {log}")
    diffs = {}
    for mutant, status in statuses.items():
        if status not in DETECTED:
            shown = subprocess.run(["mutmut", "show", mutant], cwd=scratch, env=env, check=True,
                                   capture_output=True, text=True).stdout
            diffs[mutant] = "\n".join(line for line in shown.splitlines() if not line.startswith("# "))
    counts: dict[str, int] = {}
    for status in statuses.values():
        counts[status] = counts.get(status, 0) + 1
    undetected = {mutant: status for mutant, status in statuses.items() if status not in DETECTED}
    return {"counts": counts, "undetected": undetected, "diffs": diffs, "seconds": seconds,
            "tests": list(run.tests), "missing_tests": missing}


def _mutmut_version() -> str:
    try:
        from importlib.metadata import version

        return version("mutmut")
    except Exception:  # pragma: no cover - reporting only
        return "unknown"


def build_data(modules_raw: dict[str, dict], previous: dict | None, *, provenance: dict) -> dict:
    """Merge freshly run modules into the previous results and recompute every summary and the totals."""
    equivalents = load_equivalents()
    modules = dict(previous["modules"]) if previous else {}
    for name, raw in modules_raw.items():
        modules[name] = {"source": MODULES[name].source, "tests": raw["tests"], "missing_tests": raw["missing_tests"],
                         "seconds": round(raw["seconds"], 1), "provenance": provenance,
                         "counts": raw["counts"], "undetected": raw["undetected"], "diffs": raw["diffs"]}
    ordered = {name: modules[name] for name in MODULES if name in modules}
    for module in ordered.values():  # summaries are recomputed, so editing the equivalents file takes effect
        module["summary"] = summarize(module["counts"], module["undetected"], module["diffs"], equivalents,
                                      module_prefix=module_prefix(module["source"]))
    return {
        "generated_by": GENERATED,
        "mutmut": _mutmut_version(),
        "python": platform.python_version(),
        "definitions": {
            "detected": list(DETECTED),
            "undetected": list(UNDETECTED),
            "non_equivalent_kill_rate": "detected / (total - equivalent)",
            "equivalent": f"undetected mutants listed in {EQUIVALENTS_FILE.name} with a matching mutated line",
        },
        "overall": overall(ordered),
        "modules": ordered,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", action="append", choices=list(MODULES),
                        help="module to run (repeatable); default: all, in order")
    parser.add_argument("--worktree", action="store_true", help="copy the working tree instead of git archive HEAD")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR, help="scratch directory (default %(default)s)")
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--progress-every", type=float, default=60.0, help="seconds between progress lines")
    parser.add_argument("--out", type=Path, default=OUT_JSON)
    parser.add_argument("--allow-missing-tests", action="store_true",
                        help="run without selected test files that do not exist (recorded in the results)")
    parser.add_argument("--report-only", action="store_true",
                        help="only recompute summaries and the markdown from the existing results")
    args = parser.parse_args(argv)
    if args.max_children < 1:
        parser.error(f"--max-children must be >= 1; got {args.max_children}")
    if not args.report_only and shutil.which("mutmut") is None:
        parser.error("the mutmut command is not on PATH; install it with `pip install mutmut` (3.x)")

    previous = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else None
    raw = {}
    provenance = {
        "commit": _git("rev-parse", "HEAD").strip(),
        "source": "working tree" if args.worktree else "git archive HEAD",
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "max_children": args.max_children,
        "cpus": os.cpu_count(),
    }
    if not args.report_only:
        for name in args.module or list(MODULES):
            print(f"[{name}] mutating {MODULES[name].source} against {', '.join(MODULES[name].tests)}", flush=True)
            raw[name] = run_module(name, MODULES[name], workdir=args.workdir, worktree=args.worktree,
                                   max_children=args.max_children, progress_every=args.progress_every,
                                   allow_missing_tests=args.allow_missing_tests)
            print(f"[{name}] {sum(raw[name]['counts'].values())} mutants in {raw[name]['seconds']:.0f} s", flush=True)
            # save after every module, so a long run that is interrupted keeps what it measured
            data = build_data(raw, previous, provenance=provenance)
            write_text_atomically(args.out, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    elif previous is None:
        parser.error(f"--report-only needs existing results in {args.out}")
    data = build_data(raw, previous, provenance=provenance)
    write_text_atomically(args.out, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    report = markdown_report(data)
    write_text_atomically(args.out.with_suffix(".md"), report)
    print(report)
    print(f"results: {args.out} and {args.out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
