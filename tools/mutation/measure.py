"""Mutation testing of lfverify/, per module: mutmut 3.8 plus this project's own operators, sampled, with a table.

    python tools/mutation/measure.py --plan                                  # populations and samples, no runs
    python tools/mutation/measure.py --module lfverify/io/_atomic.py --sample 10 --operator-sample 1
    python tools/mutation/measure.py --sample 100                            # every module (many hours)
    python tools/mutation/measure.py --report-only                           # the table again from the results

mutmut does the work through its public commands, in a ``git archive HEAD`` copy (so a row names a commit) whose
``[tool.mutmut]`` (pyproject.toml) gets ``only_mutate`` = the measured modules: ``mutmut run NAME...`` on the
sampled mutants, ``mutmut results --all true`` for their statuses, ``mutmut show`` for the diffs of those not
detected and ``mutmut tests-for-mutant`` for the tests that reach a function.  What is kept here is what mutmut has
no public way to do: sampling each stratum (mutmut runs all mutants or the named ones), the custom operators
(operators.py; each mutant runs in a fresh pytest process that imports the mutated module, import_hook.py), the
equivalence records and the per-module table (report.py).  See README.md beside this file.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from importlib.metadata import version
from pathlib import Path

import import_hook
import operators
import report

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PACKAGE = "lfverify"
OUT = HERE / "results" / "mutation.json"
HELDOUT = HERE / "results" / "mutation_heldout.json"  # the fresh-seed measurement (seed 2021)
DEFAULT_WORKDIR = Path(tempfile.gettempdir()) / "lfverify-mutation"
#: an operator mutant's wall limit: this times the seconds of a clean run of its module's tests, plus the constant
CLEAN_MULTIPLIER, CLEAN_CONSTANT = 5.0, 30.0
#: mutmut's own limit, set in the copy's [tool.mutmut]: it stops a mutant's forked run (SIGXCPU) after (the stats'
#: seconds of its tests + constant) x multiplier wall seconds.  mutmut's default (15 x, + 1 s) let a run that hung in
#: a Dask cluster wait 20 minutes; a run stopped early by this limit is judged again afresh (verify_stops)
MUTMUT_TIMEOUT = {"timeout_multiplier": 5.0, "timeout_constant": 10.0}
#: mutmut's verdicts of a run that did not finish: a stop past the limit or a signal may be the environment's (a
#: cluster that hangs in the forked child, a worker killed from outside), not the mutant's, so each is judged again
STOPPED = ("timeout", "segfault")


# ---------------------------------------------------------------------- modules
def dotted(source: str) -> str:
    """lfverify/core/_metrics.py -> lfverify.core._metrics; lfverify/proofs/__init__.py -> lfverify.proofs."""
    name = source.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def discover(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Every ``.py`` file of the package: (measured source path -> dotted name, excluded path -> reason).  Found
    from the tree, so moved or new modules need no edit here; a file without a function has nothing to mutate."""
    modules, excluded = {}, {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        source = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(tree)):
            modules[source] = dotted(source)
        else:
            excluded[source] = "no function: only imports, constants and re-exports, nothing to mutate"
    return modules, excluded


def select(requested, modules: dict[str, str]) -> list[str]:
    """The source paths named by ``--module`` (a source path or a dotted name); all modules by default."""
    by_name = {name: source for source, name in modules.items()}
    chosen = []
    for item in requested or modules:
        source = item if item in modules else by_name.get(item)
        if source is None:
            raise ValueError(f"--module must name a module of {PACKAGE}/ (e.g. {next(iter(modules))}); got {item!r}")
        if source not in chosen:
            chosen.append(source)
    return chosen


# ---------------------------------------------------------------------- the copy and mutmut
def make_copy(target: Path, overrides: dict) -> str:
    """``git archive HEAD`` into ``target`` (emptied first), with ``overrides`` in its ``[tool.mutmut]``; returns
    HEAD's commit."""
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, check=True, capture_output=True,
                            text=True).stdout.strip()
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    archive = subprocess.Popen(["git", "archive", commit], cwd=REPO, stdout=subprocess.PIPE)
    with tarfile.open(fileobj=archive.stdout, mode="r|") as tar:
        tar.extractall(target, filter="data")
    if archive.wait() != 0:
        raise RuntimeError("git archive failed")
    pyproject = target / "pyproject.toml"
    pyproject.write_text(configure(pyproject.read_text(encoding="utf-8"), overrides), encoding="utf-8")
    # mutants/ is on PYTHONPATH (environment()): if it did not exist when `mutmut run` starts, Python would cache
    # that path entry as empty, and mutmut's stats run would import lfverify from the checkout, without trampolines
    (target / "mutants").mkdir()
    return commit


def configure(pyproject: str, overrides: dict) -> str:
    """The text of pyproject.toml with ``overrides`` (e.g. ``only_mutate``: the measured modules) set in its
    ``[tool.mutmut]``, the section rewritten from its parsed values (mutmut reads its configuration only there)."""
    config = {**tomllib.loads(pyproject)["tool"]["mutmut"], **overrides}
    start = pyproject.index("[tool.mutmut]\n")
    following = re.compile(r"^\[", re.M).search(pyproject, start + 1)
    end = following.start() if following else len(pyproject)
    section = "[tool.mutmut]\n" + "".join(f"{key} = {json.dumps(value)}\n" for key, value in config.items())
    return pyproject[:start] + section + ("\n" if following else "") + pyproject[end:]


def mutmut_population(copy: Path, source: str) -> list[str]:
    """The names of every mutmut mutant of a module, without running anything.

    Not a public interface of mutmut 3.8 (pinned in README.md): mutmut has no command that lists mutants without
    also running them, and sampling needs the population first.  The names are checked after the run against
    ``mutmut results --all true``, which lists every mutant mutmut generated (:func:`check_population`)."""
    from mutmut.mutation.file_mutation import mutate_file_contents

    here = os.getcwd()
    os.chdir(copy)  # mutmut reads its configuration (do_not_mutate_patterns) from ./pyproject.toml
    try:
        names = mutate_file_contents(source, Path(source).read_text(encoding="utf-8")).mutant_names
    finally:
        os.chdir(here)
    return sorted(f"{dotted(source)}.{name}" for name in names)


def environment(pythonpath: str) -> dict[str, str]:
    """The runs' environment: the CI Hypothesis profile, one BLAS thread per process (two runs share 2 cores), and
    ``pythonpath`` first, so that a test that starts ``python -m lfverify`` imports the copy, not the checkout."""
    return {**os.environ, "LFVERIFY_HYPOTHESIS_PROFILE": "ci", "PYTHONDONTWRITEBYTECODE": "1",
            "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONPATH": pythonpath}


def mutmut(copy: Path, *args: str, log: Path | None = None) -> str:
    """``mutmut ARGS`` in the copy (public commands only); its output, or RuntimeError on a non-zero exit."""
    command = [shutil.which("mutmut", path=Path(sys.executable).parent) or "mutmut", *args]
    env = environment(str(copy / "mutants"))
    if log is None:
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True)
        output, code = done.stdout + done.stderr, done.returncode
    else:
        with open(log, "a", encoding="utf-8") as out:
            code = subprocess.run(command, cwd=copy, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
        output = log.read_text(encoding="utf-8")[-3000:]
    if code != 0:
        raise RuntimeError(f"mutmut {args[0]} exited with {code}:\n{output[-3000:]}")
    return output


def parse_results(text: str) -> dict[str, str]:
    """``mutmut results --all true`` -> mutant name -> status."""
    found = {}
    for line in text.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            found[name] = status
    return found


def check_population(statuses: dict[str, str], population: dict[str, list[str]]) -> None:
    """mutmut's own list of its mutants of each measured module must be the population that was sampled."""
    for module, names in population.items():
        listed = sorted(n for n in statuses if operators.function_key_of(n).rpartition(".")[0] == module)
        if listed != names:
            raise RuntimeError(f"{module}: mutmut generated {len(listed)} mutants, the sample was drawn from "
                               f"{len(names)} (mutmut's mutant generation changed?)")


def tests_of(copy: Path, module: str, key: str) -> list[str]:
    """The tests mutmut's stats saw reach function ``key`` of ``module`` (``mutmut tests-for-mutant``), else, for a
    function mutmut put no trampoline on (decorated, nested classes), those reaching any of the module's functions."""
    for pattern in (f"{module}.{key}__mutmut_1", f"{module}.x*"):
        try:
            tests = node_ids(mutmut(copy, "tests-for-mutant", pattern))
        except RuntimeError:  # mutmut found no stats
            tests = []
        if tests:
            return tests
    return []


def node_ids(output: str) -> list[str]:
    """The test node ids ``mutmut tests-for-mutant`` prints, one a line (a parametrized id may hold spaces)."""
    return [line.strip() for line in output.splitlines() if "::" in line]


def test_files(tests) -> dict[str, int]:
    """Node ids -> {test file: number of its tests}."""
    return dict(sorted(Counter(test.split("::")[0] for test in tests).items()))


# ---------------------------------------------------------------------- the custom operators' mutants
_LIVE: set[int] = set()


def run_pytest(copy: Path, module: str, source: str, tests: list[str], limit: float) -> tuple[int | None, float]:
    """One fresh ``pytest -x`` on ``tests`` in the copy, ``module`` imported from ``source`` (import_hook.py): its
    exit status (None past ``limit`` seconds, its whole process group killed) and its wall seconds."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", dir=copy, delete=False) as spec:
        json.dump({"module": module, "source": source}, spec)
    env = {**environment(f"{copy}{os.pathsep}{HERE}"), import_hook.ENV: spec.name}
    start = time.perf_counter()
    try:
        # -p no:lfverify: an installed lfverify registers its testing kit as a pytest11 plugin, which would import the
        # package under test at start-up (before the hook) - and fail outright on a planted package without the kit
        code = _pytest_in_own_group(["-p", "no:lfverify", "-p", "import_hook", *tests], cwd=copy, env=env, limit=limit)
    finally:
        os.unlink(spec.name)
    return code, time.perf_counter() - start


def _pytest_in_own_group(arguments: list[str], *, cwd: Path, env: dict, limit: float) -> int | None:
    """``pytest -x -q ARGUMENTS`` in its own process group (pytest's children too): its exit status, None past
    ``limit`` seconds; the whole group is killed either way."""
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *arguments],
                            cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    _LIVE.add(proc.pid)
    try:
        return proc.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    finally:
        _kill_group(proc.pid)
        proc.wait()
        _LIVE.discard(proc.pid)


def _map_killing_children(function, jobs, max_children: int) -> list:
    """``function`` over ``jobs`` in ``max_children`` threads; on any exception (Ctrl-C, SIGTERM's SystemExit) every
    pytest process group still running is killed before it propagates: no child outlives the tool."""
    with ThreadPoolExecutor(max_children) as pool:
        try:
            return list(pool.map(function, jobs))
        except BaseException:
            pool.shutdown(cancel_futures=True, wait=False)
            for pid in list(_LIVE):
                _kill_group(pid)
            raise


def kill_leftovers(copy: Path, say=print) -> list[int]:
    """Kill every process of a mutant's run still working in ``copy`` once mutmut has exited (read from ``/proc``:
    its working folder inside the copy and ``MUTANT_UNDER_TEST`` in its environment, which mutmut sets for a
    mutant's run and its children inherit; a shell someone opened in the copy has neither the variable nor is
    killed): the orphans of a forked run mutmut stopped, such as a Dask cluster's workers; their pids.  Nothing to
    do where there is no ``/proc``."""
    root, killed = copy.resolve(), []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            where = Path(os.readlink(entry / "cwd"))
            mutant_run = where.is_relative_to(root) and b"\0MUTANT_UNDER_TEST=" in b"\0" + (
                entry / "environ").read_bytes()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if int(entry.name) != os.getpid() and mutant_run:
            try:
                os.kill(int(entry.name), signal.SIGKILL)
                killed.append(int(entry.name))
            except ProcessLookupError:
                pass
    if killed:
        say(f"  killed {len(killed)} processes left running in {copy} after mutmut exited: {sorted(killed)}")
    return sorted(killed)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def status_of(code: int | None) -> str:
    """pytest's exit status -> mutmut's words: 0 survived; 1 a test failed, 2 collection failed (the mutated module
    does not import), 3 internal error, 4 a node id not found -> killed; 5 no tests; a signal -> segfault; over the
    limit -> timeout.  4 counts as killed because the same node ids were found by the clean run that every module's
    mutants follow: a test file that no longer collects under the mutant leaves its node ids unmatched (pytest then
    stops with a usage error, exit 4, instead of 2)."""
    if code is None:
        return "timeout"
    if code in (1, 2, 3, 4):
        return "killed"
    if code < 0:
        return "segfault"
    return {0: "survived", 5: "no tests", import_hook.NOT_APPLIED: "not applied"}.get(code, "suspicious")


def run_operator_mutants(copy: Path, mutants: list, max_children: int, say=print) -> dict[str, dict]:
    """Status and tests of each operator mutant; per module first a clean run of all their tests through the hook
    with the module's own source, which must pass (the hook in force, the suite green), and gives the limit."""
    results, jobs = {}, []
    for module in sorted({m.module for m in mutants}):
        mine = [m for m in mutants if m.module == module]
        source = (copy / mine[0].path).read_text(encoding="utf-8")
        tests = {m.name: tests_of(copy, module, m.key) for m in mine}
        union = sorted({t for ts in tests.values() for t in ts})
        if union:
            code, seconds = run_pytest(copy, module, source, union, 3600.0)
            if code != 0:
                raise RuntimeError(f"the clean run of {module}'s tests through import_hook exited with {code}")
            say(f"  [operators] {module}: clean run of {len(union)} tests in {seconds:.0f} s")
        for m in mine:
            if tests[m.name]:
                jobs.append((m, m.apply(source), tests[m.name], CLEAN_MULTIPLIER * seconds + CLEAN_CONSTANT))
            else:
                results[m.name] = {"status": "no tests", "tests": []}

    def one(job):
        m, mutated, tests, limit = job
        code, _ = run_pytest(copy, m.module, mutated, tests, limit)
        return m.name, {"status": status_of(code), "tests": tests}

    results.update(_map_killing_children(one, jobs, max_children))
    return results


# ---------------------------------------------------------------------- mutmut's survivors, judged again
#: the variable that tells the suite a mutmut mutant's run is a fresh process of this tool (tests/mutmut_runs.py)
FRESH_RUN = "LFVERIFY_FRESH_MUTANT_RUN"
#: a fresh judgement's wall limit (a whole derivation re-run by the one test mutmut credits with it: ~1 min)
FRESH_LIMIT = 900.0


def fresh_pytest(copy: Path, tests: list[str], mutant: str | None, limit: float = FRESH_LIMIT) -> int | None:
    """One fresh ``pytest -x`` on ``tests`` in the copy's ``mutants/`` (mutmut's trampolined package), with
    ``MUTANT_UNDER_TEST`` = ``mutant`` (None: the original code): its exit status, None past ``limit`` seconds."""
    # FRESH (tests/mutmut_runs.py): a fresh process, where a test may start a Dask cluster (not so in mutmut's fork)
    env = {**environment(str(copy / "mutants")), "MUTANT_UNDER_TEST": mutant or "", FRESH_RUN: "1"}
    return _pytest_in_own_group(list(tests), cwd=copy / "mutants", env=env, limit=limit)


def _fresh_statuses(copy: Path, mutants: dict[str, list[str]], max_children: int, *, limit_of, tag: str,
                    say=print) -> dict[str, str]:
    """name -> :func:`status_of` a fresh ``pytest -x`` under each mutant of ``mutants`` (name -> its tests), the
    mutants with the same tests sharing one clean fresh run first, which must pass (else their verdicts are left out,
    as are those of mutants without tests); each mutant's run is limited to ``limit_of(the clean run's seconds)``."""
    groups: dict[tuple, list[str]] = {}
    for name, tests in mutants.items():
        if tests:
            groups.setdefault(tuple(tests), []).append(name)

    def one(job):
        tests, names = job
        start = time.perf_counter()
        if fresh_pytest(copy, list(tests), None) != 0:
            say(f"  [{tag}] the clean run of {len(tests)} tests failed; {len(names)} verdicts left as mutmut's")
            return {}
        limit = limit_of(time.perf_counter() - start)
        return {n: status_of(fresh_pytest(copy, list(tests), n, limit)) for n in names}

    return {n: st for judged in _map_killing_children(one, groups.items(), max_children) for n, st in judged.items()}


def judge_again(copy: Path, undetected: dict[str, list[str]], max_children: int, say=print) -> list[str]:
    """The mutmut mutants of ``undetected`` (name -> the tests mutmut credits to its function) that a fresh process
    detects: pytest's status under the mutant is one :func:`status_of` calls killed (1-4: a test fails, or the mutated
    module does not import, at collection or in a conftest), where the same tests pass on the original code.

    mutmut 3.8 forks each mutant's run from its main process, which has run the whole suite for its stats: a result
    computed once per process there (a derivation cached by the tests, a table built at import) is not computed again
    under the mutant, whatever the tests.  A fresh process computes it.  A fresh run over its limit
    (:data:`FRESH_LIMIT`), or one whose clean run fails, leaves mutmut's verdict standing."""
    found = _fresh_statuses(copy, undetected, max_children, limit_of=lambda _: FRESH_LIMIT, tag="fresh", say=say)
    killed = sorted(n for n, status in found.items() if status == "killed")
    say(f"  [fresh] {len(killed)} of {sum(1 for tests in undetected.values() if tests)} undetected mutmut mutants "
        "detected in a fresh process")
    return killed


def verify_stops(copy: Path, stopped: dict[str, list[str]], max_children: int, say=print) -> dict[str, str]:
    """The mutmut mutants of ``stopped`` (name -> the tests mutmut ran; each a :data:`STOPPED` verdict) judged again:
    name -> :func:`status_of` a fresh ``pytest -x`` of the same tests under the mutant, limited to
    :data:`CLEAN_MULTIPLIER` x the seconds of a clean fresh run of those tests + :data:`CLEAN_CONSTANT` (the
    operator mutants' rule).  So a timeout the fresh process reproduces stays a timeout, a crash that becomes a
    failing test is killed, and a run that passes is a survivor: mutmut's stop was the environment's.  A mutant
    whose clean run fails or passes :data:`FRESH_LIMIT`, or that has no tests, is left out: its verdict stands."""
    found = _fresh_statuses(copy, stopped, max_children, tag="stops", say=say,
                            limit_of=lambda seconds: CLEAN_MULTIPLIER * seconds + CLEAN_CONSTANT)
    moved = sum(status not in report.DETECTED for status in found.values())
    say(f"  [stops] {len(stopped)} mutmut runs stopped (timeout or signal): {len(found)} judged again in a fresh "
        f"process, {moved} of them not detected there (the stop was not the mutant's)")
    return dict(sorted(found.items()))


def detected_afresh(stratum: dict, killed: list[str]) -> dict:
    """A results-file stratum with the mutants ``killed`` (undetected in it) counted as killed, and named in its
    ``fresh_kills``."""
    out = {**stratum, "counts": dict(stratum["counts"]), "undetected": dict(stratum["undetected"]),
           "diffs": dict(stratum["diffs"]), "tests_of": dict(stratum.get("tests_of", {}))}
    for name in killed:
        status = out["undetected"].pop(name)
        out["counts"][status] -= 1
        if not out["counts"][status]:
            del out["counts"][status]
        out["counts"]["killed"] = out["counts"].get("killed", 0) + 1
        out["diffs"].pop(name, None)
        out["tests_of"].pop(name, None)
    out["counts"] = dict(sorted(out["counts"].items()))
    out["fresh_kills"] = sorted(set(stratum.get("fresh_kills", [])) | set(killed))
    return out


#: what the provenance says of mutmut's limit and of the stopped runs' second judgement
STOPS_TEXT = (f"; mutmut's wall limit (seconds of the tests + {MUTMUT_TIMEOUT['timeout_constant']:g}) x "
              f"{MUTMUT_TIMEOUT['timeout_multiplier']:g}, each run it stopped (timeout, signal) judged again in a "
              "fresh pytest process")
#: what the provenance says of the second judgement
FRESH_TEXT = "; each mutmut mutant it left undetected judged again on the same tests in a fresh pytest process"


def _check_copy_is(copy: Path, source: str, commit: str) -> None:
    """The copy's ``source`` must be that file at ``commit``: a row names the commit it was measured on."""
    committed = subprocess.run(["git", "show", f"{commit}:{source}"], cwd=REPO, check=True, capture_output=True,
                               text=True).stdout
    if (copy / source).read_text(encoding="utf-8") != committed:
        raise RuntimeError(f"{copy / source} is not {source} at {commit[:7]}: not the copy of that run")


def rejudge(args, modules: dict[str, str], say=print) -> dict:
    """``--rejudge``: the last run's modules of the results file ``args.out``, their mutmut survivors judged again in
    the run's copy (``args.workdir``), which must still hold that run's mutants and stats and the sources of the
    commit the rows name.  Each module's new row is written to the results file as soon as it is judged, and a row
    already judged afresh is skipped, so an interrupted run resumes."""
    data = json.loads(args.out.read_text(encoding="utf-8"))
    copy, entries = args.workdir / "copy", {}
    for source in data["last_run"]["modules"]:
        entry = data["modules"][source]
        if entry["provenance"]["tests"].endswith(FRESH_TEXT):
            say(f"{source}: judged afresh already")
            continue
        _check_copy_is(copy, source, entry["provenance"]["commit"])
        stratum = entry["strata"][report.MUTMUT]
        names = [n for n, status in stratum["undetected"].items() if status == "survived"]
        undetected = {n: node_ids(mutmut(copy, "tests-for-mutant", n)) for n in names}
        killed = judge_again(copy, undetected, args.max_children, say=say)
        provenance = {**entry["provenance"], "tests": entry["provenance"]["tests"] + FRESH_TEXT}
        entries[source] = {**entry, "provenance": provenance,
                           "strata": {**entry["strata"], report.MUTMUT: detected_afresh(stratum, killed)}}
        say(f"{source}: {len(killed)} of {len(names)} survivors detected afresh")
        data["modules"][source] = entries[source]
        write_atomically(args.out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")  # the checkpoint
    return entries


# ---------------------------------------------------------------------- a run
def record(available: int, tried: dict[str, dict]) -> dict:
    """A stratum of the results file from its tried mutants' ``{"status", "diff", "tests"}``."""
    counts = Counter(result["status"] for result in tried.values())
    undetected = {n: r for n, r in sorted(tried.items()) if r["status"] not in report.DETECTED}
    fresh = sorted(n for n, r in tried.items() if r.get("fresh"))
    restated = {n: {"mutmut": r["mutmut"], "fresh": r["status"]} for n, r in sorted(tried.items()) if "mutmut" in r}
    return {"available": available, "tried": report.compact_names(tried), "counts": dict(sorted(counts.items())),
            "undetected": {n: r["status"] for n, r in undetected.items()},
            "diffs": {n: r["diff"] for n, r in undetected.items()},
            "tests_of": {n: test_files(r["tests"]) for n, r in undetected.items()},
            **({"fresh_kills": fresh} if fresh else {}), **({"stops_judged_again": restated} if restated else {})}


def copy_settings(chosen: list[str], tests: list[str] | None, deselect: list[str] | None) -> dict:
    """The copy's ``[tool.mutmut]`` overrides: the ``chosen`` modules, :data:`MUTMUT_TIMEOUT`, and the test
    selection when ``--tests`` or ``--deselect`` change it."""
    overrides = {"only_mutate": chosen, **MUTMUT_TIMEOUT}
    if tests or deselect:
        selection = tests or tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
            "tool"]["mutmut"]["pytest_add_cli_args_test_selection"]
        overrides["pytest_add_cli_args_test_selection"] = selection + [
            a for node in deselect or () for a in ("--deselect", node)]
    return overrides


def measure(args, modules: dict[str, str], chosen: list[str], say=print) -> tuple[dict, dict]:
    """Measure the ``chosen`` modules; (fresh module entries, last_run)."""
    started = time.perf_counter()
    copy = args.workdir / "copy"
    overrides = copy_settings(chosen, args.tests, args.deselect)
    if args.reuse_copy:  # the copy of a run stopped during its fresh judgement: its mutmut verdicts stand
        commit = args.reuse_copy
        for source in chosen:
            _check_copy_is(copy, source, commit)
    else:
        commit = make_copy(copy, overrides)
    population, drawn = {}, {}
    for source in chosen:
        module, text = modules[source], (copy / source).read_text(encoding="utf-8")
        strata = {report.MUTMUT: mutmut_population(copy, source)}
        for m in () if args.mutmut_only else operators.generate_mutants(text, module, source):
            strata.setdefault(m.operator, []).append(m)
        population[source] = strata
        drawn[source] = {}
        for kind, items in strata.items():
            by_name = {(i if isinstance(i, str) else i.name): i for i in items}
            n = args.sample if kind == report.MUTMUT else args.operator_sample
            drawn[source][kind] = [by_name[x] for x in report.sample_names(by_name, n, seed=args.seed,
                                                                             stratum=f"{module}:{kind}")]
        say(f"{source}: " + ", ".join(f"{k} {len(drawn[source][k])}/{len(v)}" for k, v in strata.items()))
    if args.plan:
        return {}, {}
    names = [n for d in drawn.values() for n in d[report.MUTMUT]]
    ours = [m for d in drawn.values() for k, ms in d.items() if k != report.MUTMUT for m in ms]
    t0 = time.perf_counter()
    if names and not args.reuse_copy:
        say(f"mutmut run: {len(names)} mutants (log: {copy / 'mutmut.log'})")
        try:
            mutmut(copy, "run", "--max-children", str(args.max_children), *names, log=copy / "mutmut.log")
        finally:
            kill_leftovers(copy, say=say)
    statuses = parse_results(mutmut(copy, "results", "--all", "true")) if names else {}
    check_population(statuses, {modules[s]: population[s][report.MUTMUT] for s in chosen} if names else {})
    stopped = {n: node_ids(mutmut(copy, "tests-for-mutant", n)) for n in names if statuses[n] in STOPPED}
    restated = verify_stops(copy, stopped, args.max_children, say=say) if stopped else {}
    results = {}
    for name in names:
        status = restated.get(name, statuses[name])
        undetected = status not in report.DETECTED
        diff = mutmut(copy, "show", name).partition("\n")[2].strip() if undetected else ""
        tests = node_ids(mutmut(copy, "tests-for-mutant", name)) if undetected else []
        results[name] = {"status": status, "diff": diff, "tests": tests,
                         **({"mutmut": statuses[name]} if name in restated else {})}
    # a survivor of verify_stops ran in a fresh process already
    survivors = {n: r["tests"] for n, r in results.items() if r["status"] == "survived" and n not in restated}
    for name in judge_again(copy, survivors, args.max_children, say=say) if not args.reuse_copy else ():
        results[name] = {"status": "killed", "diff": "", "tests": [], "fresh": True}
    t1 = time.perf_counter()
    say(f"operators: {len(ours)} mutants")
    for name, result in run_operator_mutants(copy, ours, args.max_children, say=say).items():
        results[name] = result
    for m in ours:
        results[m.name]["diff"] = m.diff
    t2 = time.perf_counter()
    date = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    provenance = {"commit": commit, "source": "git archive HEAD", "date": date, "sample": args.sample,
                  "operator_sample": args.operator_sample, "seed": args.seed, "max_children": args.max_children,
                  "cpus": os.cpu_count(), "tool": "tools/mutation/measure.py", "mutmut": version("mutmut"),
                  "python": platform.python_version(),
                  "tests": ("the files " + ", ".join(args.tests) if args.tests else "the default suite (tests/)")
                  + "".join(f" less {node}" for node in args.deselect or ())
                  + ", narrowed per function by mutmut's stats; each operator mutant in a fresh pytest process, on "
                    "the same tests" + ("" if args.reuse_copy else STOPS_TEXT + FRESH_TEXT)
                  + ("; mutmut's mutants only (--mutmut-only)" if args.mutmut_only else "")}
    fresh = {source: {"source": source, "module": modules[source], "provenance": provenance,
                      "strata": {kind: record(len(population[source][kind]),
                                              {(i if isinstance(i, str) else i.name):
                                               results[i if isinstance(i, str) else i.name] for i in items})
                                 for kind, items in drawn[source].items()}}
             for source in chosen}
    run = {"date": date, "tried": len(names) + len(ours), "modules": chosen,
           "seconds": {"mutmut": round(t1 - t0, 1), "operators": round(t2 - t1, 1),
                       "total": round(time.perf_counter() - started, 1)},
           "note": f"mutmut {t1 - t0:.0f} s for {len(names)} mutants including its mutant generation, stats run "
                   f"and clean run; operators {t2 - t1:.0f} s for {len(ours)}"}
    return fresh, run


def write_atomically(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder and rename it over ``path``."""
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False) as tmp:
        tmp.write(text)
    os.chmod(tmp.name, 0o644)
    os.replace(tmp.name, path)


def _sample(text: str) -> int | None:
    if text == "all":
        return None
    if int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1 or 'all'; got {text}")
    return int(text)


def _stop(signum, frame):
    """SIGTERM: leave as Ctrl-C does, through the runs' clean-up, which kills every pytest process group started."""
    raise SystemExit(128 + signum)


def main(argv=None) -> int:
    signal.signal(signal.SIGTERM, _stop)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", action="append", help="source path or dotted name; repeatable; default: all")
    parser.add_argument("--sample", type=_sample, default=100, help="mutmut mutants per module, or 'all' (%(default)s)")
    parser.add_argument("--operator-sample", type=_sample, default=None,
                        help="mutants per module and custom operator, or 'all' (default: as --sample)")
    parser.add_argument("--seed", type=int, default=2020)
    parser.add_argument("--tests", nargs="+", help="test files or node ids instead of [tool.mutmut]'s selection (a "
                        "quick run; the table says so)")
    parser.add_argument("--deselect", action="append", help="a test (node id) left out of the selection; repeatable")
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR, help="scratch folder (%(default)s)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--plan", action="store_true", help="print populations and samples, run nothing")
    parser.add_argument("--report-only", action="store_true", help="rebuild the table from the results file")
    parser.add_argument("--docs", type=Path, help="also rewrite the generated part of this page (docs/testing.md) "
                        "from the committed results files")
    parser.add_argument("--mutmut-only", action="store_true", help="no custom operators: rows with mutmut's "
                        "stratum only (a re-measure of it; the table says so)")
    parser.add_argument("--reuse-copy", metavar="COMMIT", help="finish a run stopped during its fresh judgement, "
                        "from its copy (--workdir) of COMMIT: mutmut's verdicts as they stand, the operator mutants "
                        "run now; --rejudge judges the survivors afresh after")
    parser.add_argument("--rejudge", action="store_true", help="judge the last run's mutmut survivors again in fresh "
                        "processes, in that run's copy (--workdir), and rebuild the table")
    args = parser.parse_args(argv)
    if args.operator_sample is None:
        args.operator_sample = args.sample
    modules, excluded = discover(REPO)
    try:
        chosen = select(args.module, modules)
    except ValueError as exc:
        parser.error(str(exc))
    previous = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {"modules": {}}
    if args.rejudge:
        fresh, run = rejudge(args, modules), previous.get("last_run")
    else:
        fresh, run = ({}, previous.get("last_run")) if args.report_only else measure(args, modules, chosen)
    if args.plan:
        return 0
    data = report.build({**previous["modules"], **fresh}, discovered=list(modules), excluded=excluded,
                        last_run=run)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(args.out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    shown = args.out.resolve().relative_to(REPO) if args.out.resolve().is_relative_to(REPO) else args.out
    write_atomically(args.out.with_suffix(".md"), report.markdown(data, shown.as_posix()))
    print(f"results: {args.out} and {args.out.with_suffix('.md')}; package {report.rate_text(data['overall'])}")
    if args.docs:
        fresh, carried = (json.loads(OUT.with_name(n).read_text(encoding="utf-8")) for n in (HELDOUT.name, OUT.name))
        text = report.replace_docs_block(args.docs.read_text(encoding="utf-8"), report.docs_block(fresh, carried))
        write_atomically(args.docs, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
