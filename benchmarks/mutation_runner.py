"""Runner of the mutants of mutation_operators.py (issue 17): one forked worker per mutant, patched in memory.

Run inside the scratch copy (its folder as working folder and first on PYTHONPATH, so ``lfverify`` is the copy's)::

    python mutation_runner.py --jobs JOBS.json --out RESULTS.json --max-children N --log LOG

JOBS.json: ``{"mutants": [Mutant.to_json() + {"tests": [node ids, fastest first], "timeout": seconds}, ...],
"durations": {node id: seconds of the stats run}}``.

The parent imports pytest, every target module and (``--collect-only``) every test file once.  Then, like mutmut's
fork runner, each mutant runs in a child forked from it: the child compiles the mutated module source, takes the
code object of the mutated function (``co_qualname`` and ``co_firstlineno``), assigns it to ``__code__`` of every
live function object with the original's name, file and first line (so callers that imported the function, bound
methods, properties, ``functools.wraps`` wrappers and registries all see the mutant; nothing is written to disk),
runs ``pytest -x`` on the mutant's tests and exits with pytest's code.  A child gets its own process group, which
is killed after its wall-time limit (status ``timeout``) and after it exits (no test's worker outlives it), and
dies with the runner (``PR_SET_PDEATHSIG``).

Before the mutants, two checks of the set-up: a *clean run* (every target function re-patched with its unmutated
code, then every test of the jobs: all must pass) and a *forced failure* (a target function's body replaced by a
raise: its tests must fail).  Either failing aborts with exit status 1 and nothing counted.

Statuses: pytest exit 0 -> survived, 1 or 3 -> killed, 5 -> no tests, a signal -> segfault, the wall limit ->
timeout, a mutant that cannot be patched in -> ``not applied``, any other exit code -> suspicious.
"""

from __future__ import annotations

import argparse
import ast
import gc
import importlib
import json
import os
import signal
import sys
import time
import types
from pathlib import Path

from mutation_operators import Edit, apply_edits

NOT_APPLIED = 97
FORCED_FAILURE = "raise AssertionError('lfverify mutation runner: forced failure')"


def _code_objects(code: types.CodeType):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def compiled_function(source: str, filename: str, qualname: str, firstlineno: int) -> types.CodeType:
    """The code object of function ``qualname`` (first line ``firstlineno``) in ``source`` compiled as a module."""
    module_code = compile(source, filename, "exec", dont_inherit=True)
    found = [c for c in _code_objects(module_code)
             if c.co_qualname == qualname and c.co_firstlineno == firstlineno]
    if len(found) != 1:
        raise LookupError(f"{len(found)} code objects named {qualname} at line {firstlineno} of {filename}")
    return found[0]


def live_functions(filename: str, qualname: str, firstlineno: int) -> list[types.FunctionType]:
    """Every function object of the running process made from that function's code."""
    return [f for f in gc.get_objects()
            if isinstance(f, types.FunctionType) and f.__code__.co_filename == filename
            and f.__code__.co_qualname == qualname and f.__code__.co_firstlineno == firstlineno]


def patch_function(module_name: str, qualname: str, firstlineno: int, source: str) -> int:
    """Give every live function ``qualname`` of ``module_name`` the code compiled from ``source``; the count."""
    module = importlib.import_module(module_name)
    code = compiled_function(source, module.__file__, qualname, firstlineno)
    targets = live_functions(module.__file__, qualname, firstlineno)
    if not targets:
        raise LookupError(f"no live function {qualname} (line {firstlineno}) of {module_name}")
    for function in targets:
        function.__code__ = code
    return len(targets)


def forced_failure_source(source: str, qualname: str, firstlineno: int) -> str:
    """``source`` with the body of that function replaced by a raise."""
    from mutation_operators import _Source, functions_of

    tree = ast.parse(source)
    src = _Source(source)
    for fn in functions_of(tree):
        if fn.qualname == qualname and fn.firstlineno == firstlineno:
            first, last = fn.node.body[0], fn.node.body[-1]
            return apply_edits(source, (Edit(src.span(first)[0], src.span(last)[1], FORCED_FAILURE),))
    raise LookupError(f"no function {qualname} at line {firstlineno}")


def _module_source(module_name: str) -> str:
    return Path(importlib.import_module(module_name).__file__).read_text(encoding="utf-8")


def _pytest_args(tests, *, stop_first: bool) -> list[str]:
    return (["-x"] if stop_first else []) + ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", *tests]


def _in_child(action, log: str | None, *, errors: str | None = None, label: str = "") -> int:
    """Fork; the child gets its own process group, dies with us, sends its output to ``log`` (or nowhere, and
    only an exception of ``action`` to ``errors``), runs ``action()`` and exits with its return value (an
    exception: :data:`NOT_APPLIED`).  Returns the child's pid."""
    pid = os.fork()
    if pid:
        return pid
    code = NOT_APPLIED
    try:
        os.setsid()
        try:
            import ctypes

            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:
            pass
        sink = os.open(log or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(sink, 1)
        os.dup2(sink, 2)
        code = action()
    except BaseException as exc:  # noqa: BLE001 - the child reports through its exit status (and the log)
        try:
            with open(errors or log or os.devnull, "a") as out:
                print(f"mutation runner: {label}: {type(exc).__name__}: {exc}", file=out, flush=True)
        except Exception:
            pass
    finally:
        os._exit(int(code) if isinstance(code, int) else NOT_APPLIED)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _wait(pid: int, timeout: float) -> tuple[int | None, float]:
    """Exit code of child ``pid`` (None on timeout, after killing its group) and its wall seconds."""
    start = time.monotonic()
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            _kill_group(pid)
            return os.waitstatus_to_exitcode(status), time.monotonic() - start
        if time.monotonic() - start > timeout:
            _kill_group(pid)
            os.waitpid(pid, 0)
            return None, time.monotonic() - start
        time.sleep(0.05)


def status_of(exit_code: int | None) -> str:
    if exit_code is None:
        return "timeout"
    if exit_code == 0:
        return "survived"
    if exit_code in (1, 3):
        return "killed"
    if exit_code == 5:
        return "no tests"
    if exit_code == NOT_APPLIED:
        return "not applied"
    if exit_code < 0:
        return "segfault"
    return "suspicious"


def run_jobs(jobs: list[dict], max_children: int, errors: str, say=print) -> dict[str, dict]:
    """Every mutant in a forked child, at most ``max_children`` at a time; name -> status, exit code, seconds.
    A mutant that cannot be patched in says why in ``errors``."""
    import pytest

    def action(job):
        def run():
            source = apply_edits(_module_source(job["module"]), tuple(Edit(*e) for e in job["edits"]))
            patch_function(job["module"], job["function"], job["firstlineno"], source)
            return int(pytest.main(_pytest_args(job["tests"], stop_first=True)))
        return run

    results, running, queue = {}, {}, list(jobs)
    last_report = time.monotonic()
    while queue or running:
        while queue and len(running) < max_children:
            job = queue.pop(0)
            if not job["tests"]:
                results[job["name"]] = {"status": "no tests", "exit_code": None, "seconds": 0.0}
                continue
            running[_in_child(action(job), None, errors=errors, label=job["name"])] = (job, time.monotonic())
        if not running:
            continue
        pid, status = os.waitpid(-1, os.WNOHANG)
        now = time.monotonic()
        if pid == 0:
            for child, (job, started) in list(running.items()):
                if now - started > job["timeout"]:
                    _kill_group(child)
                    os.waitpid(child, 0)
                    del running[child]
                    results[job["name"]] = {"status": "timeout", "exit_code": None, "seconds": now - started}
            time.sleep(0.02)
        elif pid in running:
            job, started = running.pop(pid)
            _kill_group(pid)
            code = os.waitstatus_to_exitcode(status)
            results[job["name"]] = {"status": status_of(code), "exit_code": code, "seconds": now - started}
        if now - last_report > 60:
            last_report = now
            say(f"  [operators] {len(results)}/{len(jobs)} mutants", flush=True)
    return results


def check_setup(jobs: list[dict], durations: dict[str, float], log: str, say=print) -> dict:
    """The clean run and the forced failure (see the module docstring); their seconds.  Raises RuntimeError."""
    import pytest

    functions = sorted({(j["module"], j["function"], j["firstlineno"]) for j in jobs})
    tests = sorted({t for j in jobs for t in j["tests"]})

    def clean():
        for module, qualname, firstlineno in functions:
            try:
                patch_function(module, qualname, firstlineno, _module_source(module))
            except LookupError as exc:  # its mutants will say "not applied"
                print(f"mutation runner: clean run: {exc}", flush=True)
        return int(pytest.main(_pytest_args(tests, stop_first=False)))

    say(f"  [operators] clean run: {len(tests)} tests, {len(functions)} functions re-patched", flush=True)
    code, clean_seconds = _wait(_in_child(clean, log), 600 + 5 * sum(durations.get(t, 1.0) for t in tests))
    if code != 0:
        raise RuntimeError(f"the clean run of the operators' tests failed (exit {code}); see {log}")
    tried = []
    for job in jobs:  # the first of (at most three) target functions whose forced failure its tests notice
        where = (job["module"], job["function"], job["firstlineno"])
        if not job["tests"] or where in tried:
            continue
        if len(tried) == 3:
            break
        tried.append(where)

        def forced(job=job):
            source = forced_failure_source(_module_source(job["module"]), job["function"], job["firstlineno"])
            patch_function(job["module"], job["function"], job["firstlineno"], source)
            return int(pytest.main(_pytest_args(job["tests"], stop_first=True)))

        code, forced_seconds = _wait(_in_child(forced, log), job["timeout"])
        if code == 1:
            return {"clean_run": clean_seconds, "forced_failure": forced_seconds,
                    "forced_function": f"{job['module']}.{job['function']}"}
        say(f"  [operators] forced failure of {job['module']}.{job['function']} exited {code}", flush=True)
    if not tried:
        return {"clean_run": clean_seconds}
    raise RuntimeError(f"no forced failure of a target function made its tests fail; see {log}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--max-children", type=int, default=1)
    parser.add_argument("--log", type=Path, required=True)
    args = parser.parse_args(argv)
    data = json.loads(args.jobs.read_text())
    jobs, durations = data["mutants"], data["durations"]
    import pytest

    root = Path.cwd().resolve()
    for module in sorted({j["module"] for j in jobs}):
        imported = Path(importlib.import_module(module).__file__).resolve()
        if root not in imported.parents:
            print(f"mutation runner: {module} is imported from {imported}, not from the copy {root}", file=sys.stderr)
            return 1
    files = sorted({t.split("::")[0] for j in jobs for t in j["tests"]})
    start = time.perf_counter()
    with open(args.log, "a") as log:  # import the test modules once, so that every child inherits them
        saved = os.dup(1), os.dup(2)
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        try:
            collected = pytest.main(["--collect-only", "-qq", "-p", "no:cacheprovider", *files]) if files else 0
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
    if collected != 0:
        print(f"mutation runner: collecting the tests failed (exit {collected}); see {args.log}", file=sys.stderr)
        return 1
    seconds = {"warm_up": time.perf_counter() - start}
    try:
        seconds.update(check_setup(jobs, durations, str(args.log)))
    except RuntimeError as exc:
        print(f"mutation runner: {exc}", file=sys.stderr)
        return 1
    start = time.perf_counter()
    results = run_jobs(jobs, args.max_children, str(args.log))
    seconds["mutants"] = time.perf_counter() - start
    args.out.write_text(json.dumps({"results": results, "seconds": seconds}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
