"""Mutation testing of every module of lfverify/ (issues 4 and 17): the power of the test suite, per module.

A mutant is a small plausible mistake planted in one function; it is *detected* when some test fails (or hangs, or
crashes).  An undetected mutant either exposes behaviour no test pins down, or is *equivalent*: it cannot change
any observable behaviour.  Equivalent survivors are listed, each with its mutated line and a one-line reason, in
``benchmarks/mutation_equivalent_mutants.json``; an entry whose line no longer matches its mutant (the module
changed and the names were renumbered), or whose mutant was detected, is reported as stale and NOT counted.  So
the non-equivalent kill rate is computed, never typed:

    detected   = killed + timeout + segfault
    rate       = detected / (tried - equivalent)      (weighted over sampled strata: mutation_statistics.py)

Two sources of mutants, each module being its own strata:

* **mutmut 3.8** (operators, constants, comparisons, dropped arguments, ...).  One mutmut set-up covers the whole
  package (mutation_mutmut.py): every module is mutated, the test selection is the whole default suite, and
  mutmut's stats (the suite run once behind trampolines) narrow the tests of each mutant to those that reach its
  function.  The stats are collected once per scratch copy and reused by later runs of the same code.
  Mutants the narrowed run leaves undetected or timed out are judged again in fresh pytest processes
  (``widen_results``; ``--no-widen`` skips it).  A timeout reruns its narrowed tests with a limit from a
  measured clean run of those tests (CLEAN_MULTIPLIER x its seconds + CLEAN_CONSTANT): the stats time neither
  fixtures nor subprocesses, so a slow fixture looked like a hang.  An undetected mutant runs against the whole
  files of its function's tests, then of its module's: a function that runs only inside a shared fixture is
  credited to the one test that set the fixture up, not to the tests that read it, and one that runs once per
  process (at import, behind a cache) only to the test that happened to run it first.  Files are added cheapest
  first while their tests take at most WIDEN_MAX_SECONDS; the mutation tool's own tests never.  It is costly: a
  widened run took 57-142 s on 2 busy cores (test_faults.py, test_report.py, test_proofs.py), and a clean run of
  a timeout's tests up to 200 s.
* **the operators mutmut lacks** (mutation_operators.py: distributions and quantiles, dropped keywords, swapped
  data subsets, starts and seeds, swapped arguments), run by mutation_runner.py on the same copy with the same
  per-function tests, each operator a stratum of its own.  They are judged again the same way, in pytest
  processes that import the module from the mutated source (mutation_import_hook.py), after a clean run of the
  same tests with the module's own source through the same hook (a control that the hook is in force).

Modules are discovered from the tree; a file without any function (``__init__.py`` files that only re-export)
has nothing to mutate and is listed as excluded.  Each stratum is sampled (``--sample N``, ``--operator-sample
M``, ``--seed``; all of it when it has at most N mutants) and the rate gets a 95 % Clopper-Pearson interval; a
module whose mutants were all tried gets its exact rate.  Targets (issue 17): >= 97 % in every module and >= 98 %
over the package, checked on the point estimate and reported with the interval.

Usage::

    python benchmarks/mutation_testing.py --plan --sample 100                  # populations and tries, no runs
    python benchmarks/mutation_testing.py --sample 100 --max-children 2        # every module
    python benchmarks/mutation_testing.py --module atomic_write --module paper_benchmark.statistics --sample 30
    python benchmarks/mutation_testing.py --module metrics --sample all --worktree
    python benchmarks/mutation_testing.py --report-only                        # rebuild the markdown
    python benchmarks/mutation_testing.py --keep-copy --module proofs.table1   # the prepared copy, HEAD moved on

The scratch copy (``git archive HEAD``, or the working tree with ``--worktree``) lives in ``--workdir``; its
mutants, stats and every result obtained on it are reused while the code is the same (an interrupted run resumes;
``--fresh`` starts over).  Results: ``benchmarks/results/mutation.json`` (per module: strata with counts, the
undetected mutants with their diffs and tests, provenance) and ``benchmarks/results/mutation.md`` (the tables and
the survivors per module, for test writers); both generated, written atomically, merged per module into the results as
they are when the run ends (two runs on different modules, each with its own ``--workdir``, keep each other's
results; but run them one after the other: mutmut's time limits assume an otherwise idle machine, see
``mutation_mutmut.TIMEOUT_MULTIPLIER``).  Not part of
the test suite; ``tests/test_mutation_*.py`` check the operators, sampling, intervals and report.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import fcntl
import functools
import hashlib
import io
import json
import math
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import mutation_import_hook
import mutation_mutmut
import mutation_operators
from mutation_statistics import Stratum, estimate, sample_names

from lfverify.io._atomic import write_text_atomically

REPO = Path(__file__).resolve().parents[1]
BENCHMARKS = Path(__file__).resolve().parent
RESULTS = BENCHMARKS / "results"
OUT_JSON = RESULTS / "mutation.json"
EQUIVALENTS_FILE = BENCHMARKS / "mutation_equivalent_mutants.json"
DEFAULT_WORKDIR = Path(tempfile.gettempdir()) / "lfverify-mutation"
GENERATED = "benchmarks/mutation_testing.py (GENERATED FILE: do not edit by hand)"
MODULE_TARGET, PACKAGE_TARGET = 0.97, 0.98
DEFAULT_SAMPLE = 100
DEFAULT_SEED = 2020

#: statuses (mutmut's, and the operator runner's "not applied") grouped by what they mean for the suite
DETECTED = ("killed", "timeout", "segfault")
UNDETECTED = ("survived", "no tests", "suspicious", "not checked", "check was interrupted by user", "skipped",
              "caught by type check", "not applied")
MUTMUT = "mutmut"
STRATA = (MUTMUT,) + mutation_operators.OPERATORS


# ---------------------------------------------------------------------- modules
@dataclass(frozen=True)
class Module:
    """One measured module: its key (dotted, without ``lfverify.``), its source path and its dotted name."""

    key: str
    source: str

    @property
    def dotted(self) -> str:
        """mutmut's dotted prefix of the module's mutant names (``__init__`` dropped, as mutmut does)."""
        return module_prefix(self.source)


def module_prefix(source: str) -> str:
    """lfverify/metrics.py -> lfverify.metrics; lfverify/simulations/__init__.py -> lfverify.simulations."""
    dotted = source[:-3].replace("/", ".") if source.endswith(".py") else source.replace("/", ".")
    return dotted[:-len(".__init__")] if dotted.endswith(".__init__") else dotted


def discover_modules(root: Path) -> tuple[dict[str, Module], dict[str, str]]:
    """Every ``.py`` file under ``root/lfverify`` -> (measured modules by key, excluded path -> reason)."""
    modules, excluded = {}, {}
    for path in sorted((root / "lfverify").rglob("*.py")):
        source = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(tree)):
            excluded[source] = "no function: only imports, constants and re-exports, nothing to mutate"
            continue
        key = module_prefix(source).removeprefix("lfverify.") if source != "lfverify/__init__.py" else "__init__"
        modules[key] = Module(key, source)
    return modules, excluded


def select_modules(requested, modules: dict[str, Module]) -> list[Module]:
    """The modules named by ``--module`` (keys like ``paper_benchmark.statistics`` or source paths)."""
    by_source = {m.source: m for m in modules.values()}
    chosen = []
    for name in requested or list(modules):
        module = modules.get(name) or by_source.get(name)
        if module is None:
            raise ValueError(f"--module must name a measured module (e.g. {next(iter(modules))!r}); got {name!r}")
        if module not in chosen:
            chosen.append(module)
    return chosen


# ---------------------------------------------------------------------- equivalents, summaries
def mutated_line(diff: str) -> str:
    """The mutant's line(s) in a unified diff: the added lines, stripped and joined by ' / '."""
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


def stratum_of(name: str) -> str:
    """``mutmut`` for mutmut's mutant names, the operator for the names of mutation_operators.py."""
    return mutation_operators.operator_of(name) or MUTMUT


def compact_names(names) -> dict[str, list[int]]:
    """Mutant names grouped as function key -> sorted indices (``...x_f__mutmut_3`` -> {"...x_f": [3]})."""
    grouped: dict[str, list[int]] = {}
    for name in names:
        head, _, index = name.rpartition("_")
        grouped.setdefault(head, []).append(int(index))
    return {head: sorted(indices) for head, indices in sorted(grouped.items())}


def expand_names(grouped: dict[str, list[int]]) -> set[str]:
    return {f"{head}_{index}" for head, indices in grouped.items() for index in indices}


def summarize(stratum: dict, equivalents: dict[str, dict[str, str]], *, module_prefix: str, kind: str) -> dict:
    """Counts of one stratum of one module with the equivalent mutants applied.

    Parameters
    ----------
    stratum : dict
        ``available`` (mutants in the stratum), ``tried`` (compact names, or None: all of them), ``counts``
        (status -> number of tried mutants), ``undetected`` (name -> status of every tried mutant whose status is
        not in :data:`DETECTED`), ``diffs`` (name -> diff of each undetected mutant) and optionally ``tests_of``
        (name -> {test file: number of tests}).
    equivalents : the EQUIVALENT_MUTANTS mapping; other modules' and other strata's entries are ignored
    module_prefix, kind : the dotted module and the stratum (:data:`STRATA`)

    Returns
    -------
    dict with ``available``, ``tried``, ``detected``, ``equivalent``, ``survived`` (undetected and not equivalent),
    ``counts`` and the lists ``equivalent_mutants`` (with reasons), ``surviving_mutants`` (with mutated line and
    tests) and ``stale_equivalents`` (entries of this stratum whose mutant was tried and detected, or whose line
    does not match).
    """
    counts, undetected, diffs = stratum["counts"], stratum["undetected"], stratum["diffs"]
    unknown = set(counts) - set(DETECTED + UNDETECTED)
    if unknown:
        raise ValueError(f"counts: unknown statuses {sorted(unknown)}")
    if sum(counts.get(s, 0) for s in UNDETECTED) != len(undetected):
        raise ValueError(f"undetected: {len(undetected)} mutants listed, but counts say "
                         f"{sum(counts.get(s, 0) for s in UNDETECTED)}")
    tried_total = sum(counts.values())
    tried = None if stratum.get("tried") is None else expand_names(stratum["tried"])
    if tried is not None and len(tried) != tried_total:
        raise ValueError(f"tried: {len(tried)} names, but counts say {tried_total}")
    if tried_total > stratum["available"]:
        raise ValueError(f"tried {tried_total} mutants of {stratum['available']} available")
    tests_of = stratum.get("tests_of", {})
    equivalent, surviving, stale = [], [], []
    for name, status in sorted(undetected.items()):
        entry = equivalents.get(name)
        record = {"name": name, "status": status, "mutation": mutated_line(diffs.get(name, "")),
                  "tests": tests_of.get(name)}
        if entry is not None and entry["mutation"] == record["mutation"]:
            equivalent.append({**record, "reason": entry["reason"]})
            continue
        if entry is not None:
            stale.append({"name": name, "listed_mutation": entry["mutation"], "actual_mutation": record["mutation"]})
        surviving.append(record)
    for name, entry in sorted(equivalents.items()):
        mine = name.startswith(module_prefix + ".") and stratum_of(name) == kind
        if mine and name not in undetected and (tried is None or name in tried):
            stale.append({"name": name, "listed_mutation": entry["mutation"], "actual_mutation": None})
    detected = sum(counts.get(s, 0) for s in DETECTED)
    return {"available": stratum["available"], "tried": tried_total, "detected": detected,
            "equivalent": len(equivalent), "survived": len(surviving), "counts": dict(sorted(counts.items())),
            "equivalent_mutants": equivalent, "surviving_mutants": surviving, "stale_equivalents": stale}


def combine(summaries, target: float) -> dict:
    """Totals and the weighted rate with its interval over stratum summaries; ``meets_target`` on the point
    estimate (None without a rate)."""
    summaries = list(summaries)
    strata = [Stratum(s["available"], s["tried"], s["detected"], s["equivalent"]) for s in summaries]
    result = {key: sum(s[key] for s in summaries) for key in ("available", "tried", "detected", "equivalent",
                                                              "survived")}
    result.update(estimate(strata))
    result["target"] = target
    result["meets_target"] = None if result["rate"] is None else result["rate"] >= target
    return result


# ---------------------------------------------------------------------- results file
def upgrade_legacy(module: dict) -> dict:
    """A module measured by the issue-4 version of this script (all mutmut mutants against a hand-picked list of
    test files, no operators) in the current format."""
    if "strata" in module:
        return module
    provenance = dict(module["provenance"])
    provenance.update({"sample": None, "seed": None, "tests": "the files " + ", ".join(module["tests"]) +
                       " (issue 4's narrowed selection); no custom operators"})
    total = sum(module["counts"].values())
    return {"source": module["source"], "provenance": provenance, "tests": {t: None for t in module["tests"]},
            "strata": {MUTMUT: {"available": total, "tried": None, "counts": module["counts"],
                                "undetected": module["undetected"], "diffs": module["diffs"], "tests_of": {},
                                "seconds": module["seconds"]}}}


def build_data(fresh_modules: dict[str, dict], previous: dict | None, *, run: dict | None,
               modules_known: dict[str, Module] | None = None, excluded: dict[str, str] | None = None,
               equivalents=None) -> dict:
    """Merge freshly measured modules into the previous results; recompute every summary and the totals (so
    editing the equivalents file takes effect on ``--report-only``)."""
    equivalents = load_equivalents() if equivalents is None else equivalents
    modules = {k: upgrade_legacy(v) for k, v in (previous or {}).get("modules", {}).items()}
    modules.update(fresh_modules)
    for module in modules.values():
        prefix = module_prefix(module["source"])
        module["summary"] = {"strata": {kind: summarize(stratum, equivalents, module_prefix=prefix, kind=kind)
                                        for kind, stratum in module["strata"].items()}}
        module["summary"].update(combine(module["summary"]["strata"].values(), MODULE_TARGET))
    ordered = dict(sorted(modules.items(), key=lambda item: item[1]["source"]))
    measured = {m["source"] for m in ordered.values()}
    if modules_known is not None:
        known = {m.source for m in modules_known.values()}
    else:
        known = set((previous or {}).get("discovered", [])) or measured
    operators = {kind: combine([m["summary"]["strata"][kind] for m in ordered.values() if kind in m["strata"]], 0)
                 for kind in STRATA}
    return {
        "generated_by": GENERATED,
        "mutmut": _mutmut_version(),
        "python": platform.python_version(),
        "definitions": {
            "detected": list(DETECTED),
            "undetected": list(UNDETECTED),
            "rate": "detected / (tried - equivalent), weighted by available / tried over sampled strata",
            "interval": "95 % Clopper-Pearson (at Kish's effective sample size over several strata); none when "
                        "every stratum was tried in full (the rate is exact)",
            "equivalent": f"undetected mutants listed in {EQUIVALENTS_FILE.name} with a matching mutated line",
            "targets": f">= {MODULE_TARGET * 100:.0f} % per module, >= {PACKAGE_TARGET * 100:.0f} % over the "
                       "package (point estimate)",
        },
        "last_run": run if run is not None else (previous or {}).get("last_run"),
        "discovered": sorted(known),
        "excluded": excluded if excluded is not None else (previous or {}).get("excluded", {}),
        "not_measured": sorted(known - measured),
        "overall": combine([s for m in ordered.values() for s in m["summary"]["strata"].values()], PACKAGE_TARGET),
        "by_stratum": operators,
        "modules": ordered,
    }


# ---------------------------------------------------------------------- markdown
def percent(rate, *, up: bool = False) -> str:
    """A rate as a percentage with two decimals, rounded down (up for an interval's upper end): 4711 / 4713 is
    "99.95 %", never "100.00 %"."""
    if rate is None:
        return "n/a"
    scaled = rate * 10_000
    value = (math.ceil(scaled - 1e-9) if up else math.floor(scaled + 1e-9)) / 100
    return f"{value:.2f} %"


def rate_text(s: dict) -> str:
    if s["rate"] is None:
        return "n/a"
    if s["exact"]:
        return f"{percent(s['rate'])} (exact)"
    return f"{percent(s['rate'])} [{percent(s['low'])}, {percent(s['high'], up=True)}]"


def target_text(s: dict) -> str:
    return {None: "-", True: "met", False: "**not met**"}[s["meets_target"]]


def _tried_text(module: dict) -> str:
    s = module["summary"]
    parts = [f"{k} {v['tried']}/{v['available']}" for k, v in s["strata"].items() if v["available"]]
    return f"{s['tried']} / {s['available']}" + (f" ({', '.join(parts)})" if len(parts) > 1 else "")


def markdown_report(data: dict) -> str:
    """The per-module table, the strata table, the survivors per module, and what was not measured."""
    o = data["overall"]
    lines = [
        "<!-- GENERATED by benchmarks/mutation_testing.py from benchmarks/results/mutation.json: do not edit -->",
        "",
        f"Non-equivalent kill rate = detected / (tried - equivalent), detected = killed + timeout + segfault, "
        f"weighted by available / tried where a stratum was sampled; 95 % Clopper-Pearson interval in brackets "
        f"(exact: every mutant tried).  Targets: >= {MODULE_TARGET * 100:.0f} % per module, >= "
        f"{PACKAGE_TARGET * 100:.0f} % over the package, on the point estimate.  {len(data['modules'])} of "
        f"{len(data['discovered'])} modules measured.",
        "",
        "| module | tried / available | detected | equivalent | survived | kill rate [95 % CI] | target |",
        "|---|---:|---:|---:|---:|---|---|",
    ]
    for module in data["modules"].values():
        s = module["summary"]
        lines.append(f"| `{module['source']}` | {_tried_text(module)} | {s['detected']} | {s['equivalent']} | "
                     f"{s['survived']} | {rate_text(s)} | {target_text(s)} |")
    lines.append(f"| **package** | {o['tried']} / {o['available']} | {o['detected']} | {o['equivalent']} | "
                 f"{o['survived']} | **{rate_text(o)}** | {target_text(o)} |")
    lines += ["", "By source of mutants (strata summed over the measured modules):", "",
              "| mutants | tried / available | detected | equivalent | survived | kill rate [95 % CI] |",
              "|---|---:|---:|---:|---:|---|"]
    titles = {MUTMUT: "mutmut 3.8's operators", **mutation_operators.OPERATOR_TITLES}
    for kind, s in data["by_stratum"].items():
        if s["available"]:
            lines.append(f"| {kind}: {titles[kind]} | {s['tried']} / {s['available']} | {s['detected']} | "
                         f"{s['equivalent']} | {s['survived']} | {rate_text(s)} |")
    lines += ["", "Provenance:", ""]
    by_provenance: dict[str, list[str]] = {}
    for key, module in data["modules"].items():
        p = module["provenance"]
        sample = "all mutants" if p.get("sample") is None else \
            f"sample {p['sample']} per stratum (operators {p.get('operator_sample')}), seed {p['seed']}"
        text = (f"commit {p['commit'][:7]} ({p['source']}), {p['date'][:10]}, {sample}, --max-children "
                f"{p['max_children']} on {p['cpus']} CPUs; tests: {p.get('tests', 'default suite')}")
        by_provenance.setdefault(text, []).append(f"`{key}`")
    for text, keys in by_provenance.items():
        lines.append(f"* {', '.join(keys)}: {text}")
    run = data.get("last_run")
    if run:
        lines += ["", f"Last run: {run['date'][:16]} UTC, {run['tried']} mutants tried, "
                      f"{run['seconds']['total']:.0f} s wall ({_cost_text(run)})."]
    lines += ["", f"mutmut {data['mutmut']}, Python {data['python']}.  Equivalent mutants and their reasons: "
              "benchmarks/mutation_equivalent_mutants.json.  Reproduce: `python benchmarks/mutation_testing.py`."]
    lines += ["", "## Surviving mutants (not equivalent), per module", ""]
    any_survivor = False
    for module in data["modules"].values():
        survivors = [m for s in module["summary"]["strata"].values() for m in s["surviving_mutants"]]
        if not survivors:
            continue
        any_survivor = True
        lines += [f"### `{module['source']}`", ""]
        for m in survivors:
            lines.append(f"* `{m['name']}` ({m['status']}): `{m['mutation']}`; tests run: {_tests_text(m['tests'])}")
        lines.append("")
    if not any_survivor:
        lines += ["none", ""]
    stale = [m for module in data["modules"].values() for s in module["summary"]["strata"].values()
             for m in s["stale_equivalents"]]
    if stale:
        lines += ["Stale EQUIVALENT_MUTANTS entries (mutant detected, or mutated line changed; not counted):", ""]
        lines += [f"* `{m['name']}`" for m in stale] + [""]
    if data["not_measured"]:
        lines += ["## Not measured yet", "", ", ".join(f"`{s}`" for s in data["not_measured"]), ""]
    if data["excluded"]:
        lines += ["## Excluded", ""] + [f"* `{p}`: {why}" for p, why in data["excluded"].items()] + [""]
    return "\n".join(lines)


def _tests_text(tests: dict | None, most: int = 6) -> str:
    """The test files run on a survivor (with their numbers of tests), the first ``most`` of them."""
    if tests is None:
        return "those of the provenance line"
    if not tests:
        return "none (no test reaches the function)"
    files = [f"{f} ({n})" for f, n in sorted(tests.items(), key=lambda item: (-item[1], item[0]))]
    return ", ".join(files[:most]) + (f" and {len(files) - most} more files" if len(files) > most else "")


def _cost_text(run: dict) -> str:
    """Per-mutant seconds of the tried mutants' runs, the wall time of every run on the copy, its preparation."""
    parts = []
    for kind, (count, seconds) in run.get("per_mutant", {}).items():
        if count:
            parts.append(f"{kind} {seconds / count:.2f} s per mutant over {count}")
    for phase, (count, seconds) in run.get("copy_runs", {}).items():
        parts.append(f"{phase} runs on this copy: {int(count)} mutants in {seconds:.0f} s wall")
    s = run["seconds"]
    parts.append(f"the copy's preparation{'' if run.get('copy_prepared_now') else ' (reused)'}: generation "
                 f"{s.get('generation', 0):.0f} s, stats {s.get('stats', 0):.0f} s")
    return "; ".join(parts)


def _mutmut_version() -> str:
    try:
        from importlib.metadata import version

        return version("mutmut")
    except Exception:  # pragma: no cover - reporting only
        return "unknown"


# ---------------------------------------------------------------------- the scratch copy
def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, check=True, capture_output=True, text=True).stdout


def source_digest(*, worktree: bool) -> str:
    """What identifies the measured code and tests: HEAD's commit, or a hash of the working tree's files."""
    if not worktree:
        return "HEAD " + _git("rev-parse", "HEAD").strip()
    digest = hashlib.sha256()
    for rel in sorted(filter(None, _git("ls-files", "--cached", "--others", "--exclude-standard", "-z")
                             .split("\0"))):
        if (REPO / rel).is_file():
            digest.update(rel.encode() + b"\0" + (REPO / rel).read_bytes())
    return "worktree " + digest.hexdigest()


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
    for rel in filter(None, _git("ls-files", "--cached", "--others", "--exclude-standard", "-z").split("\0")):
        src = REPO / rel
        if src.is_file():
            dst = target / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)


def also_copy(scratch: Path) -> list[str]:
    """The copy's top-level entries the tests may read, besides what mutmut copies itself."""
    own = {"lfverify", "tests", "mutants", "pyproject.toml", ".git"}
    return sorted(p.name + ("/" if p.is_dir() else "") for p in scratch.iterdir()
                  if p.name not in own and not p.name.startswith(".lfverify-"))


def scratch_env(pythonpath: Path) -> dict:
    """The environment of every run in the copy: the CI Hypothesis profile, one BLAS thread per process (the
    children share 2 cores; CPU-time limits must not count BLAS threads), and ``pythonpath`` first, so that tests
    starting a Python subprocess import the copy, not the installed lfverify."""
    return {**os.environ, "LFVERIFY_HYPOTHESIS_PROFILE": "ci", "PYTHONDONTWRITEBYTECODE": "1",
            "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "PYTHONPATH": str(pythonpath)}


#: Prefix of every child command: the child asks the kernel for SIGKILL when the thread that started it dies
#: (``PR_SET_PDEATHSIG``, kept across exec), checks that its parent is still the one that started it, then execs
#: the command.  A SIGKILLed tool so leaves no mutmut run or pytest behind; SIGTERM and Ctrl-C are handled by
#: :func:`_kill_live_groups` (the whole process group, grandchildren included).
_DIE_WITH_PARENT = [sys.executable, "-c",
                    "import ctypes, os, sys\n"
                    "if sys.platform.startswith('linux'):\n"
                    "    ctypes.CDLL(None, use_errno=True).prctl(1, 9, 0, 0, 0)\n"
                    "if os.getppid() != int(sys.argv[1]):\n"
                    "    sys.exit(1)\n"
                    "os.execvp(sys.argv[2], sys.argv[2:])\n"]
_LIVE_GROUPS: set[int] = set()
_LIVE_LOCK = threading.Lock()
_STOPPING = threading.Event()


def start_child(command: list[str], **popen) -> subprocess.Popen:
    """``command`` started in its own session, dying with this process (:data:`_DIE_WITH_PARENT`) and registered
    so that :func:`_kill_live_groups` can end its whole process group."""
    with _LIVE_LOCK:
        if _STOPPING.is_set():
            raise RuntimeError("the tool is stopping: no new child is started")
        proc = subprocess.Popen([*_DIE_WITH_PARENT, str(os.getpid()), *command], start_new_session=True, **popen)
        _LIVE_GROUPS.add(proc.pid)
    return proc


def wait_child(proc: subprocess.Popen, timeout: float) -> int | None:
    """The child's exit status, or None after killing its process group when it ran over ``timeout`` seconds; on
    any interruption (Ctrl-C, SIGTERM turned into an exception by :func:`main`) the group is killed too."""
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        return None
    except BaseException:
        _kill_group(proc)
        raise
    finally:
        with _LIVE_LOCK:
            _LIVE_GROUPS.discard(proc.pid)


def _killpg(pgid: int) -> None:
    """SIGKILL the process group ``pgid``, if it still exists."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:  # the group is already gone
        pass


def _kill_group(proc: subprocess.Popen) -> None:
    _killpg(proc.pid)
    proc.wait()


def _kill_live_groups() -> None:
    """Kill the process group of every child still running; none is started after this (the tool is stopping)."""
    with _LIVE_LOCK:
        _STOPPING.set()
        groups = sorted(_LIVE_GROUPS)
        _LIVE_GROUPS.clear()
    for pid in groups:
        _killpg(pid)


@contextlib.contextmanager
def _thread_pool(max_workers: int):
    """A thread pool whose jobs start children (:func:`start_child`).  When the ``with`` block is left by an
    exception (Ctrl-C, SIGTERM raised by :func:`main`), no queued job starts, every live child group is killed,
    the threads (whose children are now dead) are waited for, and only then may children be started again."""
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=max_workers)
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        _kill_live_groups()  # sets _STOPPING: a thread about to start a child is refused
        pool.shutdown(wait=True)
        _STOPPING.clear()
        raise
    pool.shutdown()


class Terminated(BaseException):
    """SIGTERM, raised in the main thread so that every child group is killed on the way out."""


def _raise_terminated(signum, frame):
    raise Terminated


def run_bounded(command: list[str], *, cwd: Path, env: dict, log: Path, timeout: float, label: str,
                progress=None) -> None:
    """Run ``command`` in its own session with output to ``log``; kill its whole process group on timeout or on
    an interruption.  Raises RuntimeError on a non-zero exit or a timeout."""
    stop = threading.Event()
    with open(log, "ab") as out:
        proc = start_child(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        reporter = threading.Thread(target=progress, args=(stop,), daemon=True) if progress else None
        if reporter:
            reporter.start()
        try:
            code = wait_child(proc, timeout)
        finally:
            stop.set()
            if reporter:
                reporter.join()
    if code is None:
        raise RuntimeError(f"{label}: no result after {timeout:.0f} s; see {log}")
    if code != 0:
        raise RuntimeError(f"{label} exited with {code}; see {log}")


def _mutmut_progress(log: Path, label: str, every: float):
    pattern = re.compile(r"(\d+)/(\d+)\s+🎉 (\d+) 🫥 (\d+)\s+⏰ (\d+)\s+🤔 (\d+)\s+🙁 (\d+)")

    def report(stop: threading.Event):
        while not stop.wait(every):
            try:
                tail = log.read_bytes()[-3000:].decode("utf-8", errors="ignore")
            except OSError:
                continue
            found = pattern.findall(tail)
            if found:
                done, total, killed, no_tests, timeout, suspicious, survived = found[-1]
                print(f"  [{label}] {done}/{total} of the copy's mutants done (killed {killed}, survived {survived}, "
                      f"timeout {timeout})", flush=True)
    return report


@dataclass
class Scratch:
    """A prepared copy: its folder, its mutmut mutants per source path, the stats, the seconds spent."""

    root: Path
    mutmut_mutants: dict[str, list[str]]
    tests_by_function: dict[str, list[str]]
    duration_by_test: dict[str, float]
    seconds: dict[str, float]
    digest: str

    @functools.cached_property
    def trampolined(self) -> set[str]:
        """The functions mutmut put behind a trampoline (those with mutmut mutants): stats know their tests."""
        return {mutation_operators.function_key_of(n) for names in self.mutmut_mutants.values() for n in names}


def prepare_scratch(workdir: Path, *, worktree: bool, max_children: int, fresh: bool, keep: bool = False,
                    say=print) -> tuple[Scratch, bool]:
    """The copy in ``workdir/package`` with every module's mutmut mutants generated and the stats collected (and
    whether it was prepared now), reused when the code and the tests are those of the last preparation."""
    root = workdir / "package"
    marker = root / ".lfverify-mutation.json"
    digest = source_digest(worktree=worktree)
    state = json.loads(marker.read_text()) if marker.exists() and not fresh else None
    if keep and state is not None and (root / "mutants" / "mutmut-stats.json").exists():
        digest = state["digest"]  # --keep-copy: the copy as it is, measured as the code it was made from
    prepared = state is None or state.get("digest") != digest or not (root / "mutants" / "mutmut-stats.json").exists()
    if prepared:
        say(f"preparing {root} from {digest[:20]}: copy, every mutant, the stats (one instrumented suite run)")
        make_scratch_copy(root, worktree=worktree)
        modules, _ = discover_modules(root)
        config = mutation_mutmut.mutmut_config([m.source for m in modules.values()], also_copy(root))
        with open(root / "pyproject.toml", "a", encoding="utf-8") as f:
            f.write(config)
        out = root / ".lfverify-prepare.json"
        run_bounded([sys.executable, str(BENCHMARKS / "mutation_mutmut.py"), "prepare", "--max-children",
                     str(max_children), "--out", str(out)], cwd=root, env=scratch_env(root),
                    log=root / "mutmut-prepare.log", timeout=6 * 3600, label="mutmut prepare")
        prepared = json.loads(out.read_text())
        state = {"digest": digest, "mutants": prepared["mutants"], "seconds": prepared["seconds"]}
        marker.write_text(json.dumps(state))
    else:
        say(f"reusing the prepared copy {root} ({digest[:20]})")
    stats = json.loads((root / "mutants" / "mutmut-stats.json").read_text())
    return Scratch(root, state["mutants"], {k: sorted(v) for k, v in stats["tests_by_mangled_function_name"].items()},
                   stats["duration_by_test"], state["seconds"], digest), prepared


# ---------------------------------------------------------------------- tests of a mutant
def _fastest_first(scratch: Scratch, tests) -> list[str]:
    return sorted(tests, key=lambda t: (scratch.duration_by_test.get(t, 0.0), t))


def tests_of_module(scratch: Scratch, module: str) -> list[str]:
    """The tests that reached any function of the module in mutmut's stats, fastest first."""
    sep = mutation_operators.CLASS_SEPARATOR
    return _fastest_first(scratch, {t for k, v in scratch.tests_by_function.items()
                                    if k.startswith(f"{module}.x_") or k.startswith(f"{module}.x{sep}") for t in v})


def tests_of_function(scratch: Scratch, module: str, key: str) -> tuple[list[str], str]:
    """The tests that reached a function in mutmut's stats, fastest first, and where they come from: the
    function itself (``function``; none if no test reached it), or, for a function mutmut put no trampoline on
    (decorated ones, methods of nested classes), the union over its class's methods (``class``) or over the
    module's functions (``module``)."""
    sep = mutation_operators.CLASS_SEPARATOR
    if f"{module}.{key}" in scratch.trampolined:
        return _fastest_first(scratch, scratch.tests_by_function.get(f"{module}.{key}", ())), "function"
    if key.startswith("x" + sep):
        prefix = f"{module}.{key[:key.rindex(sep) + 1]}"
        tests = {t for k, v in scratch.tests_by_function.items() if k.startswith(prefix) for t in v}
        if tests:
            return _fastest_first(scratch, tests), "class"
    return tests_of_module(scratch, module), "module"


def test_files(tests) -> dict[str, int]:
    """node ids -> {file: number of tests}."""
    files: dict[str, int] = {}
    for test in tests:
        files[test.split("::")[0]] = files.get(test.split("::")[0], 0) + 1
    return dict(sorted(files.items()))


def _tests_seconds(scratch: Scratch, tests) -> float:
    """Stats-run seconds of ``tests``: node ids, or test files (every test of the file)."""
    files = {t for t in tests if "::" not in t}
    return (sum(scratch.duration_by_test.get(t, 0.0) for t in tests if "::" in t)
            + sum(d for t, d in scratch.duration_by_test.items() if t.split("::")[0] in files))


def wall_limit(scratch: Scratch, tests) -> float:
    """mutmut's wall-time limit for a mutant whose tests are ``tests`` (node ids or whole test files;
    mutation_mutmut.py's constants)."""
    return (_tests_seconds(scratch, tests) + mutation_mutmut.TIMEOUT_CONSTANT) * mutation_mutmut.TIMEOUT_MULTIPLIER


# ---------------------------------------------------------------------- the two runs
def record_phase(scratch: Scratch, phase: str, mutants: int, seconds: float) -> None:
    """Append a run of one runner to the copy's log of runs (``.lfverify-phases.json``)."""
    log = scratch.root / ".lfverify-phases.json"
    phases = json.loads(log.read_text()) if log.exists() else []
    phases.append({"phase": phase, "mutants": mutants, "seconds": round(seconds, 1)})
    log.write_text(json.dumps(phases))


def copy_phases(scratch: Scratch) -> dict[str, list[float]]:
    """phase -> [mutants run, wall seconds], summed over every run on this copy."""
    log = scratch.root / ".lfverify-phases.json"
    totals: dict[str, list[float]] = {}
    for entry in json.loads(log.read_text()) if log.exists() else []:
        total = totals.setdefault(entry["phase"], [0, 0.0])
        total[0] += entry["mutants"]
        total[1] += entry["seconds"]
    return totals


def run_mutmut(scratch: Scratch, names: list[str], *, max_children: int, progress_every: float, rerun: bool = False,
               say=print) -> dict[str, dict]:
    """Status, seconds and (undetected) diff of each named mutmut mutant; mutants with a result on this copy
    already (an earlier or interrupted run) are not rerun unless ``rerun``."""
    names_file, out = scratch.root / ".lfverify-names.json", scratch.root / ".lfverify-collect.json"
    log = scratch.root / "mutmut-run.log"
    env = scratch_env(scratch.root / "mutants")

    def collect(selected):
        names_file.write_text(json.dumps(sorted(selected)))
        run_bounded([sys.executable, str(BENCHMARKS / "mutation_mutmut.py"), "collect", "--names", str(names_file),
                     "--out", str(out)], cwd=scratch.root, env=env, log=log, timeout=3600, label="mutmut collect")
        return json.loads(out.read_text())

    known = collect(names) if names else {}
    pending = [n for n in names if rerun or known[n]["status"] == "not checked"]
    if pending:
        limits = [wall_limit(scratch, scratch.tests_by_function.get(mutation_operators.function_key_of(n), ()))
                  for n in pending]
        timeout = 3 * 3600 + sum(limits) / max_children
        say(f"  [mutmut] {len(pending)} mutants to run ({len(names) - len(pending)} already have a result)")
        names_file.write_text(json.dumps(sorted(pending)))
        start = time.perf_counter()
        run_bounded([sys.executable, str(BENCHMARKS / "mutation_mutmut.py"), "run", "--names", str(names_file),
                     "--max-children", str(max_children)], cwd=scratch.root, env=env, log=log, timeout=timeout,
                    label="mutmut run", progress=_mutmut_progress(log, "mutmut", progress_every))
        record_phase(scratch, MUTMUT, len(pending), time.perf_counter() - start)
        known = collect(names)
    return known


#: statuses judged again in fresh processes (:func:`widen_results`): the undetected ones, and timeouts
WIDENED_STATUSES = ("survived", "no tests", "timeout")
#: seconds added to a widened run's stats-based wall limit (fixture set-up that the stats do not time)
WIDEN_SLACK_SECONDS = 300.0
#: the mutation tool's own tests (they reach lfverify only incidentally, and cost minutes behind trampolines) are
#: not widened to; files are added to a widened run only while their tests take at most this (stats seconds)
WIDEN_SKIPPED_FILES = re.compile(r"^tests/test_mutation_\w+\.py$")
WIDEN_MAX_SECONDS = 90.0
WIDENED_STORE = ".lfverify-widened.json"


def takes_widened_status(status: str, widened_status: str) -> bool:
    """Whether a mutant whose narrowed run gave ``status`` takes the status of a run in a fresh process: an
    undetected or timed-out mutant when that run detected it, and a timeout also when that run passed (the
    narrowed limit did not time fixtures); a run that was not applied or ended oddly changes nothing."""
    return status in WIDENED_STATUSES and (widened_status in DETECTED
                                           or (status == "timeout" and widened_status == "survived"))


def widened_files(scratch: Scratch, module: str, key: str) -> list[str]:
    """The test files a widened run of a mutant of ``module``'s function ``key`` takes (see :func:`run_widened`): first
    the files of the tests that reached the function, then those of the tests that reached any function of the
    module, each group cheapest first, a file taken while the total stays within :data:`WIDEN_MAX_SECONDS`; the
    mutation tool's own files are never taken.

    The module's files matter for a function that runs once per process - at import time (``POPULATIONS =
    _populations()``), on first use behind a module-level cache (``STUDIES``) or an ``lru_cache``: the stats
    credit it only to the test that happened to run it first (session 20: ``simulations._registry`` was credited
    to one test of test_baselines.py, while test_simulations_studies.py fails at collection with its mutants),
    and a decorated function has no trampoline, so no test at all is credited to it."""
    tests, _ = tests_of_function(scratch, module, key)
    chosen, seconds = [], 0.0
    for group in (tests, tests_of_module(scratch, module)):
        cost = {f: _tests_seconds(scratch, [f]) for f in test_files(group)
                if f not in chosen and not WIDEN_SKIPPED_FILES.match(f)}
        for file in sorted(cost, key=lambda f: (cost[f], f)):
            if seconds + cost[file] <= WIDEN_MAX_SECONDS:
                chosen.append(file)
                seconds += cost[file]
    return chosen


def widened_status(exit_code: int | None) -> str:
    """A widened run's status from its pytest exit status (None: over the wall limit).  0 and 5 (no test
    collected) -> survived; 1 (a test failed), 2 (a test module failed to import or collect: the default suite
    is red) and 3 (pytest's internal error, e.g. a hook raising) -> killed; a signal -> segfault;
    :data:`mutation_import_hook.NOT_APPLIED` -> not applied; anything else (4: usage error) -> suspicious, which
    is never counted as detected."""
    if exit_code is None:
        return "timeout"
    if exit_code in (0, 5):
        return "survived"
    if exit_code in (1, 2, 3):
        return "killed"
    if exit_code < 0:
        return "segfault"
    return "not applied" if exit_code == mutation_import_hook.NOT_APPLIED else "suspicious"


def _source_sha(source: str | None) -> str | None:
    return None if source is None else hashlib.sha256(source.encode()).hexdigest()


#: a timed-out mutant judged again gets CLEAN_MULTIPLIER x the seconds of a clean run of the same tests, measured
#: in the same conditions (fresh process, same concurrency), plus CLEAN_CONSTANT: tighter than mutmut's 5x on the
#: stats' estimates, which is generous because the estimates miss fixtures; a measured clean run 150-200 s long
#: (tests that run the whole verification) makes each hanging mutant cost 6-8 min even so
CLEAN_MULTIPLIER = 2.5
CLEAN_CONSTANT = 10.0


def clean_limit(seconds: float) -> float:
    """The wall limit of a mutant whose tests took ``seconds`` in a measured clean run."""
    return seconds * CLEAN_MULTIPLIER + CLEAN_CONSTANT


def _module_source(scratch: Scratch, module: str) -> str:
    path = scratch.root / (module.replace(".", "/") + ".py")
    return (path if path.exists() else path.with_suffix("") / "__init__.py").read_text(encoding="utf-8")


def run_widened(scratch: Scratch, jobs: dict[str, dict], *, max_children: int, say=print) -> dict[str, dict]:
    """Run each mutant of ``jobs`` in a fresh pytest process; name -> ``{"tests", "status", "exit_code",
    "seconds", "limit"}``, or ``{"error": why}`` when its clean run failed.

    A job is ``{"tests": node ids or whole files, "module": dotted name, "source": the mutated module source, or
    None for a mutmut mutant, "limit": "stats" or "clean"}``.  A mutmut mutant runs in ``mutants/`` with
    ``MUTANT_UNDER_TEST`` set, as mutmut's trampolines expect; an operator mutant runs in the plain copy with
    :mod:`mutation_import_hook`, which imports its module from the mutated source.  Either way the mutant is in
    force from the first import on, so a fresh process also runs functions that run once per process (see
    :func:`widened_files`), which a forked worker of a warm process never calls again.

    *Clean runs* come first: the same tests, unmutated (``MUTANT_UNDER_TEST`` empty; the hook with the module's
    own source), for every operator job (a control: exit 0 shows the hook is in force - the module is imported -
    and the tests pass on the plain copy) and every job whose ``limit`` is ``"clean"``.  A job whose clean run
    does not exit 0 gets ``{"error": ...}``.  The wall limit of a mutant is :func:`clean_limit` of its clean
    run's seconds with ``"clean"``, else its tests' stats seconds under mutmut's rule plus
    :data:`WIDEN_SLACK_SECONDS`.  Outcomes are kept in the copy (:data:`WIDENED_STORE`) and reused for the same
    tests, source and limit rule."""
    store = scratch.root / WIDENED_STORE
    saved = json.loads(store.read_text()) if store.exists() else {}
    specs = scratch.root / ".lfverify-widened-sources"
    specs.mkdir(exist_ok=True)
    deselect = [a for t in mutation_mutmut.TRAMPOLINE_INCOMPATIBLE_TESTS for a in ("--deselect", t)]

    def run_key(name, job):
        return json.dumps([name, job["tests"], _source_sha(job["source"]), job["limit"]])

    def clean_key(job):
        return json.dumps(["clean", job["tests"], None if job["source"] is None else job["module"]])

    def one(item):
        """(key, outcome) of one pytest run: ``item`` is (key, name or None for a clean run, job, limit)."""
        key, name, job, limit = item
        if job["source"] is None:
            cwd, extra = scratch.root / "mutants", deselect
            env = {**scratch_env(scratch.root / "mutants"), "MUTANT_UNDER_TEST": name or ""}
        else:
            spec = specs / (hashlib.sha256(key.encode()).hexdigest()[:16] + ".json")
            source = job["source"] if name else _module_source(scratch, job["module"])
            spec.write_text(json.dumps({"module": job["module"], "source": source}))
            cwd, extra = scratch.root, ["-p", "mutation_import_hook"]
            env = {**scratch_env(f"{scratch.root}{os.pathsep}{BENCHMARKS}"), mutation_import_hook.ENV: str(spec)}
        start = time.perf_counter()
        try:
            proc = start_child([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *extra,
                                *job["tests"]], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            code = wait_child(proc, limit)
        finally:
            if job["source"] is not None:
                spec.unlink(missing_ok=True)
        return key, {"tests": job["tests"], "status": widened_status(code), "exit_code": code,
                     "seconds": round(time.perf_counter() - start, 1), "limit": round(limit, 1)}

    def run_all(items):
        with _thread_pool(max_children) as pool:
            for key, outcome in pool.map(one, items):
                saved[key] = outcome
                write_text_atomically(store, json.dumps(saved))

    todo = {n: j for n, j in jobs.items() if run_key(n, j) not in saved}
    cleans = {clean_key(j): j for j in todo.values() if j["source"] is not None or j["limit"] == "clean"}
    cleans = {k: j for k, j in cleans.items() if k not in saved}
    if cleans:
        say(f"  [widen] {len(cleans)} clean runs of the tests of the mutants below (timing, and the import hook's "
            "control)")
        run_all([(k, None, j, wall_limit(scratch, j["tests"]) + WIDEN_SLACK_SECONDS) for k, j in cleans.items()])

    def clean_error(job):
        clean = saved.get(clean_key(job)) if job["source"] is not None or job["limit"] == "clean" else None
        if clean is not None and clean["exit_code"] != 0:
            what = "unmutated" if job["source"] is None else "unmutated, through the import hook"
            if clean["exit_code"] is None:
                return f"the clean run of its tests ({what}) did not finish within {clean['limit']:g} s"
            return f"the clean run of its tests ({what}) exited with {clean['exit_code']}"
        return None

    runnable = [(run_key(n, j), n, j, clean_limit(saved[clean_key(j)]["seconds"]) if j["limit"] == "clean"
                 else wall_limit(scratch, j["tests"]) + WIDEN_SLACK_SECONDS)
                for n, j in todo.items() if clean_error(j) is None]
    if runnable:
        say(f"  [widen] {len(runnable)} mutants run again in a fresh process")
        run_all(runnable)
    return {n: saved[run_key(n, j)] if run_key(n, j) in saved else {"error": clean_error(j)}
            for n, j in jobs.items()}


def _apply_widened(results: dict[str, dict], outcomes: dict[str, dict], field: str) -> int:
    """Give each mutant its widened status where :func:`takes_widened_status` says so (``field`` names the tests
    of that run), or the reason its run was not made (``widen_error``); how many became detected."""
    detected = 0
    for name, outcome in outcomes.items():
        result = results[name]
        if "error" in outcome:
            result["widen_error"] = outcome["error"]
        elif takes_widened_status(result["status"], outcome["status"]):
            detected += result["status"] not in DETECTED and outcome["status"] in DETECTED
            result.update({"status": outcome["status"], field: outcome["tests"]})
    return detected


def widen_results(scratch: Scratch, results: dict[str, dict], targets: dict[str, tuple[str, str, str | None]], *,
                  max_children: int, say=print) -> int:
    """Judge again, in fresh processes (:func:`run_widened`), the mutants the narrowed run left undetected or
    timed out; update ``results`` and return how many became detected.  ``targets`` maps a mutant name to its
    module's dotted name, its function's key and its mutated module source (None for mutmut's mutants).

    1. A *timeout* runs again against the same narrowed tests with a limit from their measured clean run
       (:func:`clean_limit`; mutmut's limit comes from stats that time neither fixtures nor subprocesses, so a
       mutant whose tests set up a slow fixture - the proofs' derivations - times out without hanging).  It keeps
       the new status (``rejudged`` names the tests): a timeout again, a kill, or survived - then it goes on to 2.
    2. An *undetected* mutant runs against the whole files of :func:`widened_files` (``widened`` names them): a
       function that runs only inside a shared fixture is credited to the one test that set the fixture up, and
       one that runs once per process only to the test that ran it first; every widened test is a test of the
       default suite, so a failure is a real kill."""
    def job(name, tests, limit):
        module, _, source = targets[name]
        return {"tests": tests, "module": module, "source": source, "limit": limit}

    timeouts = {n: job(n, tests_of_function(scratch, targets[n][0], targets[n][1])[0], "clean")
                for n, r in results.items() if n in targets and r["status"] == "timeout"}
    timeouts = {n: j for n, j in timeouts.items() if j["tests"]}
    if timeouts:
        _apply_widened(results, run_widened(scratch, timeouts, max_children=max_children, say=say), "rejudged")
        say(f"  [widen] timeouts judged again with a limit from a clean run: "
            f"{sum(results[n]['status'] == 'timeout' for n in timeouts)} of {len(timeouts)} time out again, "
            f"{sum(results[n]['status'] not in DETECTED for n in timeouts)} pass")
    undetected = {}
    for name, result in results.items():
        if name in targets and result["status"] in ("survived", "no tests"):
            files = widened_files(scratch, targets[name][0], targets[name][1])
            if files:
                undetected[name] = job(name, files, "stats")
    return _apply_widened(results, run_widened(scratch, undetected, max_children=max_children, say=say), "widened")


def widen_undetected(scratch: Scratch, results: dict[str, dict], modules: dict[str, str], *, max_children: int,
                     say=print) -> int:
    """:func:`widen_results` for mutmut's mutants (``modules``: mutant name -> its module's dotted name)."""
    targets = {name: (module, mutation_operators.function_key_of(name).removeprefix(module + "."), None)
               for name, module in modules.items()}
    return widen_results(scratch, results, targets, max_children=max_children, say=say)


def run_operators(scratch: Scratch, mutants: list, *, max_children: int, rerun: bool = False, widen: bool = True,
                  say=print) -> dict[str, dict]:
    """Status, seconds and diff of each operator mutant (mutation_runner.py); results obtained on this copy by the
    same operators and runner are reused (``.lfverify-operators.json``).  With ``widen``, a mutant left
    undetected or timed out is judged again in fresh processes (:func:`widen_results`, the module imported from
    the mutated source)."""
    store = scratch.root / ".lfverify-operators.json"
    tool = hashlib.sha256(b"".join((BENCHMARKS / f).read_bytes() for f in ("mutation_operators.py",
                                                                            "mutation_runner.py"))).hexdigest()
    saved = json.loads(store.read_text()) if store.exists() else {}
    if saved.get("tool") != tool:  # results of another version of the operators or the runner are not reused
        saved = {"tool": tool, "results": {}, "checks": []}
    known = saved["results"]
    jobs = []
    for m in mutants:
        if m.name in known and not rerun:
            continue
        tests, _ = tests_of_function(scratch, m.module, m.key)
        jobs.append({**m.to_json(), "tests": tests, "timeout": wall_limit(scratch, tests)})
    if jobs:
        say(f"  [operators] {len(jobs)} mutants to run ({len(mutants) - len(jobs)} already have a result)")
        jobs_file, out = scratch.root / ".lfverify-jobs.json", scratch.root / ".lfverify-runner.json"
        durations = {t: _tests_seconds(scratch, [t]) for j in jobs for t in j["tests"]}
        jobs_file.write_text(json.dumps({"mutants": jobs, "durations": durations}))
        timeout = 2 * 3600 + 5 * sum(durations.values()) + sum(j["timeout"] for j in jobs) / max_children
        start = time.perf_counter()
        run_bounded([sys.executable, str(BENCHMARKS / "mutation_runner.py"), "--jobs", str(jobs_file), "--out",
                     str(out), "--max-children", str(max_children), "--log", str(scratch.root / "runner-tests.log")],
                    cwd=scratch.root, env=scratch_env(scratch.root), log=scratch.root / "runner.log",
                    timeout=timeout, label="operator runner")
        record_phase(scratch, "operators", len(jobs), time.perf_counter() - start)
        ran = json.loads(out.read_text())
        saved["checks"].append(ran["seconds"])
        known.update(ran["results"])
        store.write_text(json.dumps(saved))
    results = {m.name: {**known[m.name], "diff": m.diff} for m in mutants}
    if widen:
        targets = {m.name: (m.module, m.key, m.apply((scratch.root / m.path).read_text(encoding="utf-8")))
                   for m in mutants if results[m.name]["status"] in WIDENED_STATUSES}
        widen_results(scratch, results, targets, max_children=max_children, say=say)
    return results

# ---------------------------------------------------------------------- assembling a module's entry
def stratum_record(available: int, tried_results: dict[str, dict], tests_of) -> dict:
    """A stratum's entry of mutation.json from the results of its tried mutants; ``tests_of(name)`` gives the test
    files (with their numbers of tests) run on an undetected mutant."""
    counts: dict[str, int] = {}
    undetected, diffs = {}, {}
    for name, result in tried_results.items():
        status = result["status"]
        counts[status] = counts.get(status, 0) + 1
        if status not in DETECTED:
            undetected[name] = status
            diffs[name] = result.get("diff", "")
    return {"available": available, "tried": compact_names(tried_results), "counts": dict(sorted(counts.items())),
            "undetected": dict(sorted(undetected.items())), "diffs": dict(sorted(diffs.items())),
            "tests_of": {n: tests_of(n) for n in sorted(undetected)},
            "seconds": round(sum(r.get("seconds") or 0.0 for r in tried_results.values()), 1)}


def populations(scratch: Scratch, module: Module) -> dict[str, list]:
    """Stratum -> every mutant of the module: mutmut's names, and the operators' Mutant objects."""
    mutants = {MUTMUT: list(scratch.mutmut_mutants.get(module.source, []))}
    source = (scratch.root / module.source).read_text(encoding="utf-8")
    for m in mutation_operators.generate_mutants(source, module.dotted, module.source):
        mutants.setdefault(m.operator, []).append(m)
    return mutants


def _name(m) -> str:
    return m if isinstance(m, str) else m.name


def draw(population: dict[str, list], *, sample: int | None, operator_sample: int | None, seed: int,
         module: Module) -> dict[str, list]:
    """The seeded sample of each stratum of one module."""
    chosen = {}
    for kind, mutants in population.items():
        by_name = {_name(m): m for m in mutants}
        n = sample if kind == MUTMUT else operator_sample
        chosen[kind] = [by_name[x] for x in sample_names(by_name, n, seed=seed, stratum=f"{module.dotted}:{kind}")]
    return chosen


#: cost model of --plan, from the trial run (2 small modules, a loaded 2-core machine): a detected mutant costs
#: about the fork, pytest's start and its first failing test; an undetected one all of its tests (their stats-run
#: seconds, an overestimate: the stats run is the slower one)
PLAN_OVERHEAD_SECONDS = 0.5
PLAN_UNDETECTED_FRACTIONS = (0.05, 0.10, 0.20)


def _duration(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


def plan_text(plans: dict[str, dict[str, tuple[int, int, float]]], sample, operator_sample, max_children: int) -> str:
    """What a run would try: per module and stratum, tried / available and the stats seconds of the tried mutants'
    tests (what they cost if none were detected); then the totals and the estimated wall time."""
    lines = [f"module: tried / available per stratum (sample {sample or 'all'}, operators {operator_sample or 'all'}); "
             f"seconds of their tests if all survived"]
    totals: dict[str, list[float]] = {}
    for key, strata in plans.items():
        parts = []
        for kind, (tried, available, seconds) in strata.items():
            parts.append(f"{kind} {tried}/{available}")
            total = totals.setdefault(kind, [0, 0, 0.0])
            total[0], total[1], total[2] = total[0] + tried, total[1] + available, total[2] + seconds
        lines.append(f"  {key}: " + ", ".join(parts) + f"; {sum(v[2] for v in strata.values()):.0f} s")
    tried = sum(t[0] for t in totals.values())
    bound = sum(t[2] for t in totals.values())
    estimates = ", ".join(f"{_duration((tried * PLAN_OVERHEAD_SECONDS + f * bound) / max_children)} if {f:.0%} "
                          f"are undetected" for f in PLAN_UNDETECTED_FRACTIONS)
    lines.append("total: " + ", ".join(f"{k} {int(t)}/{int(a)}" for k, (t, a, _) in totals.items()))
    lines.append(f"estimated time of the {tried} mutants with --max-children {max_children}: {estimates} "
                 f"({_duration(bound / max_children)} if none were detected); plus each runner's clean run of the "
                 f"tests involved, and the copy's preparation if the code changed")
    return "\n".join(lines)


def _sample_arg(text: str) -> int | None:
    if text == "all":
        return None
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1 or 'all'; got {text}")
    return value


def main(argv=None) -> int:
    """The command (:func:`_main`), with SIGTERM raised as :class:`Terminated`; Ctrl-C and SIGTERM are one line and
    exit status 130 / 143, and every child's process group is killed on the way out, whatever ends the run."""
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _raise_terminated) if in_main_thread else None
    try:
        return _main(argv)
    except (KeyboardInterrupt, Terminated) as exc:
        name, status = ("SIGTERM", 143) if isinstance(exc, Terminated) else ("Ctrl-C", 130)
        print(f"mutation_testing: stopped by {name}; the results table was not updated (the copy keeps what was run)",
              file=sys.stderr)
        return status
    finally:
        _kill_live_groups()
        _STOPPING.clear()
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)


def _main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", action="append", help="module key (e.g. paper_benchmark.statistics) or source "
                        "path; repeatable; default: every module")
    parser.add_argument("--sample", type=_sample_arg, default=DEFAULT_SAMPLE,
                        help="mutmut mutants tried per module, or 'all' (default %(default)s)")
    parser.add_argument("--operator-sample", type=_sample_arg, default=argparse.SUPPRESS,
                        help="mutants tried per module and custom operator (default: as --sample)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--worktree", action="store_true", help="copy the working tree instead of git archive HEAD")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR, help="scratch folder (default %(default)s)")
    parser.add_argument("--fresh", action="store_true", help="prepare a new copy even if the code is unchanged")
    parser.add_argument("--rerun", action="store_true",
                        help="run every sampled mutant again, even those the copy has a result for")
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--keep-copy", action="store_true",
                        help="use the prepared copy even if HEAD has moved (the results name the copy's commit)")
    parser.add_argument("--no-widen", action="store_true",
                        help="do not run undetected or timed-out mutants again against the whole files of their "
                             "tests")
    parser.add_argument("--progress-every", type=float, default=120.0, help="seconds between progress lines")
    parser.add_argument("--out", type=Path, default=OUT_JSON)
    parser.add_argument("--plan", action="store_true", help="prepare, then only print what would be tried")
    parser.add_argument("--report-only", action="store_true",
                        help="only recompute summaries and the markdown from the existing results")
    args = parser.parse_args(argv)
    operator_sample = getattr(args, "operator_sample", args.sample)
    if args.max_children < 1:
        parser.error(f"--max-children must be >= 1; got {args.max_children}")
    if args.report_only:
        if not args.out.exists():
            parser.error(f"--report-only needs existing results in {args.out}")
        modules, excluded = discover_modules(REPO)
        return merge_and_write(args.out, {}, run=None, modules_known=modules, excluded=excluded)  # parses args.out
    if args.out.exists():
        json.loads(args.out.read_text(encoding="utf-8"))  # unreadable results fail now, not after the mutants ran
    if shutil.which("mutmut") is None:
        parser.error("mutmut is not installed; `pip install mutmut==3.8.1`")

    started = time.perf_counter()
    scratch, prepared = prepare_scratch(args.workdir, worktree=args.worktree, max_children=args.max_children,
                                        fresh=args.fresh, keep=args.keep_copy)
    modules, excluded = discover_modules(scratch.root)
    try:
        chosen = select_modules(args.module, modules)
    except ValueError as exc:
        parser.error(str(exc))
    population = {m.key: populations(scratch, m) for m in chosen}
    drawn = {m.key: draw(population[m.key], sample=args.sample, operator_sample=operator_sample, seed=args.seed,
                         module=m) for m in chosen}
    def tests_seconds(module, mutants):
        return sum(sum(scratch.duration_by_test.get(t, 0.0) for t in tests_of_function(
            scratch, module.dotted, mutation_operators.function_key_of(_name(m)).removeprefix(module.dotted + "."))[0])
            for m in mutants)

    print(plan_text({m.key: {kind: (len(drawn[m.key][kind]), len(population[m.key][kind]),
                                    tests_seconds(m, drawn[m.key][kind])) for kind in population[m.key]}
                     for m in chosen}, args.sample, operator_sample, args.max_children), flush=True)
    if args.plan:
        return 0

    mutmut_names = [n for d in drawn.values() for n in d[MUTMUT]]
    operator_mutants = [m for d in drawn.values() for kind, ms in d.items() if kind != MUTMUT for m in ms]
    t0 = time.perf_counter()
    results = run_mutmut(scratch, mutmut_names, max_children=args.max_children, progress_every=args.progress_every,
                         rerun=args.rerun)
    if not args.no_widen:
        owner = {n: m.dotted for m in chosen for n in drawn[m.key][MUTMUT]}
        widened = widen_undetected(scratch, results, owner, max_children=args.max_children)
        print(f"  [widen] {widened} of the undetected mutmut mutants detected by the whole files of their tests",
              flush=True)
    t1 = time.perf_counter()
    results.update(run_operators(scratch, operator_mutants, max_children=args.max_children, rerun=args.rerun,
                                 widen=not args.no_widen))
    t2 = time.perf_counter()

    copy_kind, _, copy_id = scratch.digest.partition(" ")
    provenance = {"commit": copy_id if copy_kind == "HEAD" else _git("rev-parse", "HEAD").strip(),
                  "source": "working tree" if copy_kind == "worktree" else "git archive HEAD",
                  "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "sample": args.sample, "operator_sample": operator_sample, "seed": args.seed,
                  "max_children": args.max_children, "cpus": os.cpu_count(),
                  "tests": "the default suite (tests/), narrowed per function by mutmut's stats" + (
                      "" if args.no_widen else "; timed-out mutants again with a limit from a clean run of their tests, "
                      "undetected ones again with the whole files of their function's and module's tests")}
    fresh = {}
    for module in chosen:
        def tests_of(name, module=module):
            key = mutation_operators.function_key_of(name).removeprefix(module.dotted + ".")
            return test_files(tests_of_function(scratch, module.dotted, key)[0])

        module_tests = tests_of_module(scratch, module.dotted)
        strata = {kind: stratum_record(len(population[module.key][kind]),
                                       {_name(m): results[_name(m)] for m in mutants}, tests_of)
                  for kind, mutants in drawn[module.key].items()}
        fresh[module.key] = {"source": module.source, "provenance": provenance, "tests": test_files(module_tests),
                             "strata": strata}
    per_mutant = {MUTMUT: [len(mutmut_names), sum(results[n].get("seconds") or 0.0 for n in mutmut_names)],
                  "operators": [len(operator_mutants),
                                sum(results[m.name].get("seconds") or 0.0 for m in operator_mutants)]}
    run = {"date": provenance["date"], "tried": len(mutmut_names) + len(operator_mutants),
           "modules": [m.key for m in chosen], "per_mutant": per_mutant, "copy_prepared_now": prepared,
           "copy_runs": copy_phases(scratch),
           "seconds": {**scratch.seconds, "mutmut": t1 - t0, "operators": t2 - t1,
                       "total": time.perf_counter() - started}}
    return merge_and_write(args.out, fresh, run=run, modules_known=modules, excluded=excluded)


def merge_and_write(out: Path, fresh: dict, **build) -> int:
    """Merge ``fresh`` modules into the results in ``out`` as they are NOW (not as they were when this run started),
    under an exclusive lock on ``out``'s folder: two invocations measuring different modules (each on its own
    --workdir) keep each other's modules, whichever finishes last."""
    out.parent.mkdir(parents=True, exist_ok=True)
    folder = os.open(out.parent, os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        previous = json.loads(out.read_text(encoding="utf-8")) if out.exists() else None
        return _write(out, build_data(fresh, previous, **build))
    finally:
        os.close(folder)  # releases the lock


def _write(out: Path, data: dict) -> int:
    write_text_atomically(out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    report = markdown_report(data)
    write_text_atomically(out.with_suffix(".md"), report)
    print(report)
    print(f"results: {out} and {out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
