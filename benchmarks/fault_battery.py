"""The reliability issue's fault battery as one script that classifies every outcome, for before / after counts.

Each item provokes one fault for real, in a subprocess running whatever ``lfverify`` Python imports (so
``PYTHONPATH=/path/to/another/checkout python benchmarks/fault_battery.py`` runs the same battery on another
version), and classifies what happened:

* ``ok`` - one line on stderr naming the problem with exit status 2 (130 / 143 for Ctrl-C / SIGTERM), or the
  correct result (a damaged record recomputed to the undamaged run's summary, byte for byte);
* ``hang`` - no end within the item's timeout; ``traceback`` - a raw traceback, or an error that does not name
  its cause; ``silent-wrong`` - exit 0 or a returned value with a wrong or NaN result, or a false claim of
  convergence; ``lost`` - another command's output overwritten, or a folder made unusable; ``orphan`` - a worker
  or the resource tracker alive 15 s after its parent died.

``tests/test_faults.py`` asserts the same faults one by one (exact messages, byte-identical resumes); this script
only counts.  Usage::

    python benchmarks/fault_battery.py [--json PATH] [--skip-slow]   # about 3 minutes on 2 cores (with verify)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

CLI = [sys.executable, "-m", "lfverify"]
SMOKE_ANYWHERE = ["simulate", "uniform-convergence", "--mode", "smoke", "--no-figures"]
SMOKE = [*SMOKE_ANYWHERE, "--serial"]
BENCH_SMALL = ["bench", "--datasets", "heart", "--trials", "1", "--experiments", "table", "--methods", "ERM",
               "--serial", "--no-figures"]
OUTCOMES = ("ok", "hang", "traceback", "silent-wrong", "lost", "orphan")


def run(argv, *, timeout=120, code=None, env=None, cwd=None):
    """(exit status, stderr) of a subprocess, or (None, "") if it did not end within ``timeout``."""
    command = [sys.executable, "-c", code, *argv] if code is not None else [*CLI, *argv]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
                            env={**os.environ, **(env or {})}, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)
        return None, ""
    return proc.returncode, err


def error_outcome(status, err, *, expected_status=2, names="") -> str:
    """The outcome of a command expected to fail with one line (naming ``names``, e.g. the path or address)."""
    if status is None:
        return "hang"
    if "Traceback" in err:
        return "traceback"
    if status == 0:
        return "silent-wrong"
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("  ")]
    one_line = status == expected_status and lines and lines[-1].startswith("lfverify") and "usage:" not in err
    return "ok" if one_line and names in lines[-1] else "traceback"


# ------------------------------------------------------------------------------------------ servers
@contextlib.contextmanager
def listener(reply):
    """A TCP server that is not a Dask scheduler: silent, or answering ``reply`` and closing."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop, held = threading.Event(), []

    def serve():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            if reply is None:
                held.append(conn)
                continue
            with contextlib.suppress(OSError):
                conn.settimeout(1)
                conn.recv(4096)
                conn.sendall(reply)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        server.close()


# ------------------------------------------------------------------------------------------ processes
def processes():
    """pid -> (parent pid, start time) of every live process (zombies excluded), from /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                if fields[0] != "Z":
                    table[int(entry)] = (int(fields[1]), fields[19])
    return table


def descendants(pid):
    """pid -> start time of every descendant of ``pid``."""
    table, found, frontier = processes(), {}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, start) in table.items():
            if ppid == parent and child not in found:
                found[child] = start
                frontier.append(child)
    return found


def survivors(seen, timeout):
    """The processes of ``seen`` (pid -> start time) still alive after up to ``timeout`` seconds; the start time
    tells a reused pid apart."""
    deadline = time.monotonic() + timeout
    while True:
        table = processes()
        alive = [pid for pid, start in seen.items() if pid in table and table[pid][1] == start]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


def kill_outcome(argv, sig, *, group=False, wait=90):
    """Start a run, wait for its workers, send ``sig``; 'orphan' if a descendant outlives it by 15 s, else the
    outcome of its stderr (SIGKILL: 'ok')."""
    proc = subprocess.Popen([*CLI, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and proc.poll() is None and len(descendants(proc.pid)) < 3:
        time.sleep(0.1)
    if proc.poll() is not None:
        return "n/a", "ended before its workers started"
    time.sleep(1.5)
    seen = descendants(proc.pid)
    (os.killpg if group else os.kill)(proc.pid, sig)
    try:
        proc.wait(timeout=60)  # not communicate(): orphans would hold its pipes open
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        return "hang", "did not exit 60 s after the signal"
    alive = survivors(seen, 15)
    for pid in alive:  # clean up after the measurement
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    _, err = proc.communicate(timeout=30)
    if alive:
        return "orphan", f"{len(alive)} of {len(seen)} descendants alive 15 s later"
    if sig == signal.SIGKILL:
        return "ok", f"{len(seen)} descendants gone"
    status = {signal.SIGTERM: 143, signal.SIGINT: 130}[sig]
    return error_outcome(proc.returncode, err, expected_status=status), f"exit {proc.returncode}"


# ------------------------------------------------------------------------------------------ the battery
class Battery:
    def __init__(self, root: Path, skip_slow: bool):
        self.root = root
        self.skip_slow = skip_slow
        self.items = []
        self._reference = None

    def add(self, category, name, function):
        self.items.append((category, name, function))

    def reference(self) -> Path:
        """A finished smoke uniform-convergence run (copied for each record item)."""
        if self._reference is None:
            self._reference = self.root / "reference"
            status, err = run([*SMOKE, "--out", str(self._reference)])
            if status != 0:
                raise RuntimeError(f"the reference run failed: {err[-500:]}")
        return self._reference

    def copy(self, name) -> Path:
        target = self.root / name
        shutil.copytree(self.reference(), target)
        return target

    def run_all(self):
        results = []
        for category, name, function in self.items:
            started = time.monotonic()
            try:
                outcome, detail = function()
            except Exception as exc:  # noqa: BLE001 - a broken item is reported, not fatal
                outcome, detail = "n/a", f"{type(exc).__name__}: {exc}"
            results.append({"category": category, "item": name, "outcome": outcome, "detail": detail[:200],
                            "seconds": round(time.monotonic() - started, 1)})
            print(f"{outcome:<13} {category:<22} {name} ({results[-1]['seconds']} s) {detail[:100]}", flush=True)
        return results


def record_item(battery, name, damage):
    def item():
        out = battery.copy(name.replace(" ", "-"))
        records = sorted((out / "records").glob("*.json"))
        damage(records[0])
        before = (battery.reference() / "summary.json").read_bytes()
        status, err = run([*SMOKE, "--out", str(out)])
        if status == 0:
            same = (out / "summary.json").read_bytes() == before
            return ("ok" if same else "silent-wrong"), "recomputed" if same else "the damaged record was used"
        outcome = error_outcome(status, err)
        if outcome == "ok" and str(records[0]) not in err:
            return "traceback", "the error does not name the record"
        return outcome, err.strip().splitlines()[-1][:200] if err.strip() else ""
    return item


def _rows(keep):
    def damage(path):
        record = json.loads(path.read_text())
        record["rows"] = record["rows"][:keep]
        with contextlib.suppress(Exception):  # keep the hash consistent where there is one
            from lfverify.io._sealed_records import content_hash
            if "sha256" in record:
                record["sha256"] = content_hash(record)
        path.write_text(json.dumps(record))
    return damage


def _edit(path):
    record = json.loads(path.read_text())
    record["rows"][0]["sup_error"] *= 1.5
    path.write_text(json.dumps(record))


def _drop_rows(path):
    record = json.loads(path.read_text())
    del record["rows"]
    path.write_text(json.dumps(record))


def build(battery: Battery, data_available: bool):
    root = battery.root

    # 1. hangs: --dask at something that is not a Dask scheduler
    def dask(reply, label):
        def item():
            with listener(reply) as address:
                status, err = run([*SMOKE_ANYWHERE, "--out", str(root / f"dask-{label}"), "--dask", address],
                                  timeout=60)
            return error_outcome(status, err, names=address), (err.strip().splitlines() or [""])[-1][:200]
        return item

    battery.add("hang", "--dask: a silent TCP listener", dask(None, "silent"))
    battery.add("hang", "--dask: an HTTP server", dask(b"HTTP/1.0 400 Bad Request\r\n\r\nbad", "http"))

    def refused():
        with socket.create_server(("127.0.0.1", 0)) as s:
            port = s.getsockname()[1]
        started = time.monotonic()
        address = f"tcp://127.0.0.1:{port}"
        status, err = run([*SMOKE_ANYWHERE, "--out", str(root / "dask-refused"), "--dask", address])
        outcome = error_outcome(status, err, names=address)
        return outcome, f"{time.monotonic() - started:.0f} s: {(err.strip().splitlines() or [''])[-1][:150]}"

    battery.add("hang", "--dask: nothing listens (refused)", refused)

    # 2. data loss: two commands, one folder
    if data_available:
        def simulate_then_bench():
            out = battery.copy("simulate-then-bench")
            before = (out / "summary.json").read_bytes()
            status, err = run([*BENCH_SMALL, "--out", str(out)])
            if (out / "summary.json").read_bytes() != before:
                return "lost", f"bench exit {status} overwrote summary.json"
            return error_outcome(status, err, names=str(out)), ""

        def bench_then_simulate():
            out = root / "bench-then-simulate"
            status, err = run([*BENCH_SMALL, "--out", str(out)])
            if status != 0:
                return "n/a", f"the bench run failed: {err[-200:]}"
            before = (out / "summary.json").read_bytes()
            status, err = run([*SMOKE, "--out", str(out)])
            if (out / "summary.json").read_bytes() != before:
                return "lost", f"simulate exit {status} overwrote summary.json"
            return error_outcome(status, err, names=str(out)), ""

        battery.add("lost", "simulate, then bench into its folder", simulate_then_bench)
        battery.add("lost", "bench, then simulate into its folder", bench_then_simulate)

    def run_json_deleted():
        out = battery.copy("run-json-deleted")
        (out / "run.json").unlink()
        status, err = run([*SMOKE, "--out", str(out), "--seed", "5"])
        status_again, err_again = run([*SMOKE, "--out", str(out)])  # the original settings must still resume
        if status_again != 0:
            return "lost", "the folder no longer resumes with its own settings (wedged)"
        if status == 0:
            return "silent-wrong", "another seed ran in the folder"
        return error_outcome(status, err, names=str(out)), ""

    battery.add("lost", "run.json deleted, another --seed", run_json_deleted)

    # 3. records read back
    battery.add("records", "simulation record with 3 of its rows", record_item(battery, "rows-3", _rows(3)))
    battery.add("records", "simulation record with an edited value", record_item(battery, "edited", _edit))
    battery.add("records", "simulation record holding 42",
                record_item(battery, "int-42", lambda p: p.write_text("42")))
    battery.add("records", "simulation record without rows", record_item(battery, "no-rows", _drop_rows))
    battery.add("records", "simulation record not UTF-8",
                record_item(battery, "not-utf8", lambda p: p.write_bytes(b"\xff\xfe{")))

    # 4. numbers
    def library(code, judge):
        def item():
            status, err = run([], code=code, timeout=120)
            if status is None:
                return "hang", ""
            return judge(status, err)
        return item

    sample = ("import numpy as np, warnings\nimport lfverify.core as M\nimport lfverify.core as L\n"
              "from lfverify.core import EmpiricalSurrogateUtility\nfrom lfverify.learn import "
              "maximize_surrogate_utility\nrng = np.random.default_rng(0)\nX = rng.normal(size=(40, 2))\n"
              "y = np.where(X[:, 0] + rng.normal(size=40) > 0, 1, -1)\n"
              "u = EmpiricalSurrogateUtility(M.f1(), L.tau_logistic(0.33), X, y)\n")

    def nan_judge(status, err):
        if "Traceback" in err and "ValueError" in err.splitlines()[-1] and "overflow" in err.splitlines()[-1]:
            return "ok", "ValueError naming the overflow"
        if status == 3:
            return "silent-wrong", "NaN returned"
        return ("traceback" if "Traceback" in err else "ok"), err.strip()[-150:]

    battery.add("numbers", "evaluate on X * 1e155", library(
        sample + "u = EmpiricalSurrogateUtility(M.f1(), L.tau_logistic(0.33), X * 1e155, y)\n"
        "ev = u.evaluate(np.array([1.0, 1.0]))\nimport sys\n"
        "sys.exit(3 if not np.isfinite(ev.gradient_direction).all() or not np.isfinite(ev.gradient).all() else 0)",
        nan_judge))

    def convergence_judge(status, err):
        if status == 0:
            return "silent-wrong", "reported converged"
        return ("ok", "not converged, with the reason") if status == 4 else ("traceback", err.strip()[-150:])

    for label, call in (("theta0 = 1e300", "maximize_surrogate_utility(u, np.array([1e300, 1e300]))"),
                        ("U-GD, learning_rate = 1e300",
                         "maximize_surrogate_utility(u, np.array([1.0, 0.0]), method='gd', learning_rate=1e300)"),
                        ("U-BFGS, learning_rate = 1e300",
                         "maximize_surrogate_utility(u, np.array([1.0, 1.0]), learning_rate=1e300)")):
        battery.add("numbers", f"optimizer, {label}", library(
            sample + f"r = {call}\nimport sys\nbad = r.converged or 'maximal' in r.message\n"
            "sys.exit(0 if bad else 4)", convergence_judge))
    battery.add("numbers", "optimizer, subnormal gradient", library(
        sample + "y = np.where(rng.normal(size=40) > 0, 1, -1)\n"
        "X = np.column_stack([y * 5e-309 * (1 + rng.random(40)), rng.normal(size=40) * 5e-309])\n"
        "u = EmpiricalSurrogateUtility(M.f1(), L.tau_logistic(0.33), X, y)\n"
        "r = maximize_surrogate_utility(u, np.array([1e308, 0.0]), method='gd', learning_rate=1e-3)\n"
        "import sys\nsys.exit(0 if r.converged else 4)", convergence_judge))

    def complex_judge(status, err):
        if status == 0:
            return "silent-wrong", "the imaginary part was dropped"
        last = err.strip().splitlines()[-1] if err.strip() else ""
        return ("ok", last[:150]) if "TypeError" in last and "complex" in last else ("traceback", last[:150])

    battery.add("numbers", "complex X", library(
        sample + "EmpiricalSurrogateUtility(M.f1(), L.tau_logistic(0.33), X + 1j, y)", complex_judge))
    battery.add("numbers", "complex theta", library(sample + "u.value(np.array([1 + 1j, 0]))", complex_judge))

    # 5. orphans
    quick = ["simulate", "uniform-convergence", "--quick", "--no-figures"]
    battery.add("orphans", "SIGKILL simulate --workers 2", lambda: kill_outcome(
        [*quick, "--workers", "2", "--out", str(root / "kill-sim")], signal.SIGKILL))
    battery.add("orphans", "SIGTERM simulate --workers 2", lambda: kill_outcome(
        [*quick, "--workers", "2", "--out", str(root / "term-sim")], signal.SIGTERM))
    battery.add("orphans", "SIGKILL simulate --dask-local 2", lambda: kill_outcome(
        [*quick, "--dask-local", "2", "--out", str(root / "kill-dask")], signal.SIGKILL))
    if data_available:
        battery.add("orphans", "SIGKILL bench --workers 2", lambda: kill_outcome(
            ["bench", "--quick", "--no-figures", "--workers", "2", "--out", str(root / "kill-bench")],
            signal.SIGKILL))
        battery.add("orphans", "SIGTERM bench --workers 2", lambda: kill_outcome(
            ["bench", "--quick", "--no-figures", "--workers", "2", "--out", str(root / "term-bench")],
            signal.SIGTERM))
    if not battery.skip_slow:
        battery.add("orphans", "SIGKILL verify --workers 2", lambda: kill_outcome(
            ["verify", "--no-figures", "--workers", "2", "--out", str(root / "kill-verify")], signal.SIGKILL))

    # 6. raw tracebacks
    a_file = root / "a-file"
    a_file.write_text("")
    for label, argv, names in (
            ("simulate --out a file", [*SMOKE, "--out", str(a_file)], str(a_file)),
            ("simulate --out under a file", [*SMOKE, "--out", str(a_file / "sub")], str(a_file)),
            ("simulate --out /proc/self/x", [*SMOKE, "--out", "/proc/self/x"], "/proc/self"),
            ("verify --out a file", ["verify", "--no-figures", "--serial", "--out", str(a_file)], str(a_file)),
            ("proofs --errata a folder", ["proofs", "--errata", str(root)], str(root)),
            ("proofs --errata /proc/self/x/E.md", ["proofs", "--errata", "/proc/self/x/E.md"], "/proc/self")):
        battery.add("tracebacks", label, lambda argv=argv, names=names: (error_outcome(*run(argv), names=names), ""))
    if data_available:
        missing = str(root / "missing")
        battery.add("tracebacks", "bench --out a file",
                    lambda: (error_outcome(*run([*BENCH_SMALL, "--out", str(a_file)]), names=str(a_file)), ""))
        battery.add("tracebacks", "bench --data-root missing", lambda: (error_outcome(*run(
            [*BENCH_SMALL, "--out", str(root / "dr"), "--data-root", missing]), names=missing), ""))
        battery.add("tracebacks", "bench with LFVERIFY_DATASETS missing", lambda: (error_outcome(*run(
            [*BENCH_SMALL, "--out", str(root / "env")], env={"LFVERIFY_DATASETS": missing}), names=missing), ""))

    def library_error(code):
        def item():
            status, err = run([], code=code)
            last = err.strip().splitlines()[-1] if err.strip() else ""
            named = last.startswith(("ValueError", "TypeError")) and ("n_samples" in last or "y must" in last)
            return ("ok" if named else "traceback"), last[:150]
        return item

    battery.add("tracebacks", "value_from_counts(n_samples=0)", library_error(
        "from lfverify.core import f1\nf1().value_from_counts(1, 0, 1, n_samples=0)"))
    battery.add("tracebacks", "complex y", library_error(
        "import numpy as np\nfrom lfverify.core._validation import check_labels\ncheck_labels(np.array([1 + 1j, -1, 1]))"))
    battery.add("tracebacks", "Ctrl-C (SIGINT to the process group)", lambda: kill_outcome(
        [*quick, "--workers", "2", "--out", str(root / "int-sim")], signal.SIGINT, group=True))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", metavar="PATH", help="also write the outcomes as JSON")
    parser.add_argument("--skip-slow", action="store_true", help="leave out the SIGKILL of verify")
    parser.add_argument("--only", metavar="CATEGORY", help="run the items of one category only")
    args = parser.parse_args(argv)
    status, _ = run([], code="from lfverify.learn._datasets import dataset_root; dataset_root()")
    with tempfile.TemporaryDirectory(prefix="fault-battery-") as tmp:
        battery = Battery(Path(tmp), args.skip_slow)
        build(battery, data_available=status == 0)
        if args.only:
            battery.items = [item for item in battery.items if item[0] == args.only]
        results = battery.run_all()
    categories = list(dict.fromkeys(r["category"] for r in results))
    print(f"\n{'category':<12} " + " ".join(f"{o:>12}" for o in (*OUTCOMES, "n/a")))
    for category in categories:
        counts = [sum(r["category"] == category and r["outcome"] == o for r in results) for o in (*OUTCOMES, "n/a")]
        print(f"{category:<12} " + " ".join(f"{c:>12}" for c in counts))
    totals = [sum(r["outcome"] == o for r in results) for o in (*OUTCOMES, "n/a")]
    print(f"{'all':<12} " + " ".join(f"{c:>12}" for c in totals))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
