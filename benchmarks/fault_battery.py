"""The reliability issue's fault battery as one script that classifies every outcome, for before / after counts.

Each item provokes one fault for real, in a subprocess running whatever ``lfverify`` Python imports from the
battery's temporary folder (so ``PYTHONPATH=/path/to/another/checkout python benchmarks/fault_battery.py`` runs the
same battery on another version; the first line printed names the package measured), and classifies what
happened:

* ``ok`` - one line on stderr naming the problem with exit status 2 (130 / 143 for Ctrl-C / SIGTERM), or the
  correct result (a damaged record recomputed to the undamaged run's summary, byte for byte);
* ``hang`` - no end within the item's timeout; ``traceback`` - a raw traceback, or an error that does not name
  its cause; ``silent-wrong`` - exit 0 or a returned value with a wrong or NaN result, or a false claim of
  convergence; ``lost`` - another command's output overwritten, or a folder made unusable; ``orphan`` - a worker
  or the resource tracker alive 15 s after its parent died.

Issue 15's categories (hang, lost, records, numbers, orphans, tracebacks) are followed by issue 32's, several cases
per mechanism: special-files (FIFOs, sockets, devices and links where records, markers, summaries and ``--out``
are), paths (empty, dangling, looping, deleted working folder, probed late), two-processes (two runs on one
folder), environment (a worker SIGKILLed - the OOM killer's signal - or limited with ``RLIMIT_AS``, a real Dask
scheduler without workers or killed mid-run, a killed Dask worker, SIGHUP), streams (``>&-``, ``2>&-``,
``/dev/full``, a pipe without reader) and numbers-2 (scaling near the float limit, the checksum cache, U-GD's
memory, an error naming the user's argument), and reads (a FIFO, a folder or a dangling link in place of every file
lfverify reads: run.json, records.csv, a benchmark's timings and summary, the data files and PROVENANCE.tsv, the
stale documents of ``proofs --render``; the library readers ``read_records`` and ``load_file``).

``tests/faults/test_faults.py`` and ``tests/faults/test_environment_faults.py`` assert the same faults one by one (exact
messages, byte-identical resumes); this script only counts.  Usage::

    python benchmarks/fault_battery.py [--json PATH] [--markdown PATH] [--skip-slow] [--only CATEGORY]
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


def kill_outcome(argv, sig, *, group=False, wait=90, min_descendants=3):
    """Start a run, wait for its workers, send ``sig``; 'orphan' if a descendant outlives it by 15 s, else the
    outcome of its stderr (SIGKILL: 'ok')."""
    proc = subprocess.Popen([*CLI, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and proc.poll() is None and len(descendants(proc.pid)) < min_descendants:
        time.sleep(0.1)
    if proc.poll() is not None:
        return "n/a", "ended before its workers started"
    time.sleep(1.5 if min_descendants else 4.0)
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
    status = {signal.SIGTERM: 143, signal.SIGINT: 130, signal.SIGHUP: 129}[sig]
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

    def copy(self, name, reference=None) -> Path:
        target = self.root / name
        shutil.copytree(reference or self.reference(), target, symlinks=True)
        return target

    def bench_reference(self) -> Path:
        """A finished small benchmark run (one trial of ERM on heart)."""
        if getattr(self, "_bench_reference", None) is None:
            self._bench_reference = self.root / "bench-reference"
            status, err = run([*BENCH_SMALL, "--out", str(self._bench_reference)])
            if status != 0:
                raise RuntimeError(f"the bench reference run failed: {err[-500:]}")
        return self._bench_reference

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
        "import numpy as np\nfrom lfverify.core._validation import check_labels\n"
        "check_labels(np.array([1 + 1j, -1, 1]))"))
    battery.add("tracebacks", "Ctrl-C (SIGINT to the process group)", lambda: kill_outcome(
        [*quick, "--workers", "2", "--out", str(root / "int-sim")], signal.SIGINT, group=True))


# ------------------------------------------------------------------------------------------ round 2 (issue 32)
def _last(err: str) -> str:
    return (err.strip().splitlines() or [""])[-1][:200]


def one_line_outcome(status, err, *, expected_status=2, names=(), out="") -> tuple[str, str]:
    """Like :func:`error_outcome`, but every string of ``names`` must be in the line (so a misleading line - "is a
    file" for a FIFO - counts as one that does not name its cause), and the line may be on stdout when stderr is
    the stream that failed."""
    text = err if err.strip() else out
    lines = [line for line in text.splitlines() if line.strip()]
    if status is None:
        return "hang", "no end within the timeout"
    if "Traceback" in text or "Exception ignored" in text:
        return "traceback", _last(text)
    if status == 0:
        return "silent-wrong", "exit 0"
    if status != expected_status or not lines or not lines[-1].startswith("lfverify"):
        return "traceback", f"exit {status}: {_last(text)}"
    missing = [n for n in names if n not in lines[-1]]
    return ("traceback", f"the line does not say {missing}: {lines[-1][:150]}") if missing else ("ok", lines[-1][:200])


def run_shell(command: str, *, timeout=120, cwd=None):
    """(exit status, stdout, stderr) of a shell command line (for redirections such as ``>&-``), bounded."""
    proc = subprocess.Popen(["/bin/sh", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=cwd, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)
        return None, "", ""
    return proc.returncode, out, err


def _shell_cli(argv) -> str:
    import shlex
    return " ".join(shlex.quote(a) for a in [*CLI, *argv])


def wait_for_descendants(proc, count, wait=90):
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and proc.poll() is None and len(descendants(proc.pid)) < count:
        time.sleep(0.1)
    return proc.poll() is None


def _workers_of(proc):
    """The spawned worker processes of ``proc`` (children running multiprocessing's spawn_main)."""
    found = []
    for pid in descendants(proc.pid):
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
    return found


def build_round2(battery: Battery, data_available: bool):
    root = battery.root
    quick = ["simulate", "uniform-convergence", "--quick", "--no-figures"]

    # 7. special files and links -------------------------------------------------------------
    def resumed(out, names, must_say=""):
        """The outcome of the smoke run again in ``out`` after a file of it was replaced: one line naming ``names``
        (exit 2), or the damaged file named (``must_say``), set aside and recomputed to the reference's summary."""
        status, err = run([*SMOKE, "--out", str(out)], timeout=30)
        if status is None:
            return "hang", "blocked opening the FIFO"
        if status == 0:
            same = (out / "summary.json").read_bytes() == (battery.reference() / "summary.json").read_bytes()
            if same and must_say in err:
                return "ok", "set aside and recomputed"
            return "silent-wrong", "exit 0, another summary" if not same else f"exit 0, not named: {_last(err)}"
        return one_line_outcome(status, err, names=names)

    def fifo_instead_of(name_of):
        def item():
            out = battery.copy(f"special-{time.monotonic_ns()}")
            target = name_of(out)
            target.unlink()
            os.mkfifo(target)
            return resumed(out, (str(target), "FIFO"))
        return item

    battery.add("special-files", "a record is a FIFO",
                fifo_instead_of(lambda out: sorted((out / "records").glob("*.json"))[0]))
    battery.add("special-files", "run.json is a FIFO", fifo_instead_of(lambda out: out / "run.json"))
    battery.add("special-files", "lfverify-owner.json is a FIFO",
                fifo_instead_of(lambda out: out / "lfverify-owner.json"))

    def record_links_to_a_fifo():
        out = battery.copy("record-link-fifo")
        record = sorted((out / "records").glob("*.json"))[0]
        fifo = root / "elsewhere.fifo"
        os.mkfifo(fifo)
        record.unlink()
        record.symlink_to(fifo)
        return resumed(out, ("FIFO",), must_say="FIFO")

    battery.add("special-files", "a record is a symlink to a FIFO", record_links_to_a_fifo)

    def summary_through_link():
        out = battery.copy("summary-link")
        elsewhere = root / "kept-summary.json"
        elsewhere.write_text("old")
        (out / "summary.json").unlink()
        (out / "summary.json").symlink_to(elsewhere)
        status, err = run([*SMOKE, "--out", str(out)])
        if status != 0:
            return one_line_outcome(status, err)
        if not (out / "summary.json").is_symlink():
            return "silent-wrong", "the link was replaced by a file; its target still holds the old content"
        same = elsewhere.read_bytes() == (battery.reference() / "summary.json").read_bytes()
        return ("ok", "written through the link") if same else ("silent-wrong", "the target was not written")

    battery.add("special-files", "summary.json is a symlink to a file elsewhere", summary_through_link)

    def summary_to_device():
        out = battery.copy("summary-device")
        (out / "summary.json").unlink()
        (out / "summary.json").symlink_to("/dev/null")
        status, err = run([*SMOKE, "--out", str(out)])
        if status == 0:
            kept = (out / "summary.json").is_symlink()
            return "silent-wrong", "exit 0: the link to /dev/null was " + ("written into" if kept else "replaced")
        return one_line_outcome(status, err, names=("summary.json", "character device"))

    battery.add("special-files", "summary.json is a symlink to a device (/dev/null)", summary_to_device)

    for label, make, names in (
            ("--out is a FIFO", lambda p: os.mkfifo(p), ("FIFO",)),
            ("--out is a socket", lambda p: socket.socket(socket.AF_UNIX).bind(str(p)), ("socket",)),
            ("--out is a dangling symlink", lambda p: p.symlink_to(root / "nowhere"), ("dangling",)),
            ("--out is a symlink loop", lambda p: p.symlink_to(p), ("loop",))):
        index = len(battery.items)

        def item(make=make, names=names, index=index):
            target = root / f"out-{index}"  # a neutral name: the line must say the kind, not echo the path
            make(target)
            status, err = run([*SMOKE, "--out", str(target)], timeout=60)
            return one_line_outcome(status, err, names=(str(target), *names))
        battery.add("special-files", label, item)

    # 7b. every file lfverify reads, replaced by a FIFO, a folder or a dangling link ----------
    def replace_by(path: Path, kind: str) -> Path:
        if path.exists() or path.is_symlink():
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
        {"FIFO": os.mkfifo, "folder": os.mkdir, "dangling link": lambda p: p.symlink_to(root / "nowhere")}[kind](path)
        return path

    said = {"FIFO": "FIFO", "folder": "folder", "dangling link": "dangling"}

    def in_a_run(reference, argv, relative, kind, time_not_known=False):
        """The run again on a copy of ``reference`` whose ``relative`` is replaced: one line naming the file and
        its kind (exit 2), or, for a timing (``time_not_known``), exit 0 with the time left out."""
        def item():
            out = battery.copy(f"reads-{time.monotonic_ns()}", reference())
            target = replace_by(out / relative, kind)
            status, err = run([*argv, "--out", str(out)], timeout=120)
            if status == 0 and time_not_known:
                return "ok", "exit 0: the timing counts as not known"
            return one_line_outcome(status, err, names=(str(target), said[kind]))
        return item

    for relative in ("run.json", "records.csv"):
        for kind in ("FIFO", "folder", "dangling link") if relative == "records.csv" else ("folder", "dangling link"):
            battery.add("reads", f"simulate: {relative} is a {kind}", in_a_run(battery.reference, SMOKE, relative,
                                                                                 kind))
    if data_available:
        timing = "timings/table/heart/default/trial-000.json"
        for kind in ("FIFO", "folder", "dangling link"):
            battery.add("reads", f"bench: a timing file is a {kind}", in_a_run(
                battery.bench_reference, BENCH_SMALL, timing, kind, time_not_known=kind != "FIFO"))
        battery.add("reads", "bench: summary.json is a folder",
                    in_a_run(battery.bench_reference, BENCH_SMALL, "summary.json", "folder"))

    def library_read(code, path_of, kind="FIFO"):
        """A library reader on a FIFO (or another kind) in a subprocess: the error names the path and the kind
        within 30 s (a blocking open is a hang)."""
        def item():
            path = replace_by(path_of(), kind)
            status, err = run([str(path)], code=code, timeout=30)
            last = _last(err)
            if status is None:
                return "hang", "blocked opening the FIFO"
            named = str(path) in last and said[kind] in last
            return ("ok", last) if status == 2 and named and "Traceback" not in err else ("traceback", last)
        return item

    guard = "\nexcept (ValueError, OSError) as e:\n    print(e, file=sys.stderr)\n    sys.exit(2)\n"
    battery.add("reads", "read_records: records.csv is a FIFO", library_read(
        "import sys\nfrom lfverify.simulations._engine import read_records\ntry:\n"
        "    read_records(sys.argv[1].rsplit('/', 1)[0])" + guard, lambda: root / "rr" / "records.csv"))
    battery.add("reads", "load_file: the data file is a FIFO", library_read(
        "import sys\nfrom lfverify.learn import load_file\ntry:\n    load_file(sys.argv[1])" + guard,
        lambda: root / "lf" / "data.csv"))
    if data_available:
        def data_root_with(relative, kind):
            def item():
                from_root = Path(os.environ.get("LFVERIFY_DATASETS", ""))
                if not (from_root / "heart").is_dir():
                    return "n/a", "LFVERIFY_DATASETS does not name the staged data"
                data = root / f"data-{time.monotonic_ns()}"
                shutil.copytree(from_root / "heart", data / "heart")
                shutil.copy(from_root / "PROVENANCE.tsv", data / "PROVENANCE.tsv")
                target = replace_by(data / relative, kind)
                status, err = run([*BENCH_SMALL, "--data-root", str(data), "--out", str(root / f"o-{data.name}")])
                names = ("heart",) if kind == "dangling link" else (str(target), said[kind])  # a dangling: missing
                return one_line_outcome(status, err, names=names)
            return item

        for relative, kind in (("heart/heart_scale", "FIFO"), ("heart/heart_scale", "folder"),
                               ("heart/heart_scale", "dangling link"), ("PROVENANCE.tsv", "FIFO"),
                               ("PROVENANCE.tsv", "folder")):
            battery.add("reads", f"bench --data-root: {relative} is a {kind}", data_root_with(relative, kind))

    def render_beside_specials():  # stale-document candidates that are not regular files: left alone, not opened
        render = root / "render-specials"
        kinds = {"a.md": "FIFO", "b.md": "folder", "c.md": "dangling link"}
        for name, kind in kinds.items():
            replace_by(render / name, kind)
        status, err = run(["proofs", "--render", str(render)], timeout=600)
        if status is None:
            return "hang", "no end within 600 s (a FIFO opened?)"
        left = all((render / n).is_symlink() if k == "dangling link" else (render / n).exists()
                   for n, k in kinds.items())
        if status in (0, 1) and left and any(render.glob("*.md")):
            return "ok", f"exit {status}: documents written, the special files left alone"
        return (one_line_outcome(status, err) if status else ("silent-wrong", "a special file was removed"))

    battery.add("reads", "proofs --render into a folder holding a FIFO, a folder and a dangling link named *.md",
                render_beside_specials)

    # 8. paths and arguments ------------------------------------------------------------------
    def empty(argv, option, timeout=120):
        def item():
            status, err = run(argv, timeout=timeout, cwd=str(root))
            return one_line_outcome(status, err, names=(option, "empty"))
        return item

    battery.add("paths", "simulate --out ''", empty([*SMOKE, "--out", ""], "--out"))
    battery.add("paths", "verify --self-checks --out '' is not run blind",
                empty(["verify", "--self-checks", "--out", ""], "--out"))
    battery.add("paths", "proofs --only 'Lemma 1' --errata ''",
                empty(["proofs", "--only", "Lemma 1", "--errata", ""], "--errata"))
    battery.add("paths", "data list --data-root ''", empty(["data", "list", "--data-root", ""], "--data-root"))

    def deleted_cwd():
        gone = root / "deleted-cwd"
        gone.mkdir()
        command = f"cd {gone} && rmdir {gone} && {_shell_cli([*SMOKE, '--out', 'relative-out'])}"
        status, out, err = run_shell(command, timeout=60)
        return one_line_outcome(status, err, names=("--out", "relative-out", "working folder"))

    battery.add("paths", "relative --out after the working folder was deleted", deleted_cwd)

    def render_probed_first():  # the derivations take a minute: an answer within 30 s means a probe first
        started = time.monotonic()
        status, err = run(["proofs", "--render", "/proc/self/x"], timeout=30)
        outcome, detail = one_line_outcome(status, err, names=("--render", "/proc/self"))
        return outcome, f"{time.monotonic() - started:.1f} s: {detail}"

    battery.add("paths", "proofs --render under /proc/self, probed within 30 s", render_probed_first)

    def errata_is_a_fifo():  # refused before the minute of derivations, or it is a hang (30 s)
        fifo = root / "errata.fifo"
        os.mkfifo(fifo)
        status, err = run(["proofs", "--errata", str(fifo)], timeout=30)
        return one_line_outcome(status, err, names=("--errata", "FIFO"))

    battery.add("paths", "proofs --errata a FIFO", errata_is_a_fifo)

    # 9. two processes at once ------------------------------------------------------------------
    def together(first, second, label):
        def item():
            out = root / f"together-{label}"
            procs = [subprocess.Popen([*CLI, *argv, "--out", str(out)], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, start_new_session=True)
                     for argv in (first, second)]
            results = []
            for proc in procs:
                try:
                    results.append((proc.wait(timeout=300), proc.communicate()[1]))
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    return "hang", ""
            statuses = [status for status, _ in results]
            if statuses.count(0) == 2:
                return "lost", "both runs wrote the folder"
            if statuses.count(0) != 1:
                return "lost", f"exit statuses {statuses}: the folder is left to neither"
            loser = results[statuses.index(2)] if 2 in statuses else results[1 - statuses.index(0)]
            winner = (first, second)[statuses.index(0)]
            again, err = run([*winner, "--out", str(out)])
            if again != 0:
                return "lost", f"the winner's settings no longer resume ({_last(err)})"
            return one_line_outcome(loser[0], loser[1], names=(str(out),))
        return item

    battery.add("two-processes", "two seeds at once on one empty folder",
                together([*SMOKE, "--seed", "1"], [*SMOKE, "--seed", "2"], "seeds"))
    battery.add("two-processes", "smoke and quick at once on one empty folder",
                together([*SMOKE], ["simulate", "uniform-convergence", "--quick", "--no-figures", "--serial"],
                         "modes"))

    def second_while_running(second, holder=True):
        def item():
            out = root / f"busy-{time.monotonic_ns()}"
            first = subprocess.Popen([*CLI, *quick, "--workers", "1", "--out", str(out)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
            try:
                if not wait_for_descendants(first, 2):
                    return "n/a", "the first run ended before its workers started"
                time.sleep(1.0)
                status, err = run([*second, "--out", str(out)], timeout=120)
                if status == 0:
                    return "silent-wrong", "a second run wrote into the folder of a running one"
                names = ("in use", f"pid {first.pid}") if holder else (str(out),)
                return one_line_outcome(status, err, names=names)
            finally:
                with contextlib.suppress(OSError):
                    os.killpg(first.pid, signal.SIGKILL)
                first.wait(30)
        return item

    battery.add("two-processes", "the same command again while it runs",
                second_while_running([*quick, "--workers", "1"]))
    battery.add("two-processes", "another seed while it runs (refused, for any reason)",
                second_while_running([*SMOKE, "--seed", "9"], holder=False))
    battery.add("two-processes", "the same settings, serial, while it runs", second_while_running([*SMOKE_ANYWHERE[:2],
                "--quick", "--no-figures", "--serial"]))

    # 10. faults of the environment -------------------------------------------------------------
    def killed_worker(how):
        def item():
            proc = subprocess.Popen([*CLI, *quick, "--workers", "2", "--out", str(root / f"worker-{how}")],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    start_new_session=True)
            if not wait_for_descendants(proc, 3):
                proc.kill()
                return "n/a", "ended before its workers started"
            time.sleep(1.5)
            workers = _workers_of(proc)
            if not workers:
                os.killpg(proc.pid, signal.SIGKILL)
                return "n/a", "no worker found"
            if how == "SIGKILL":
                os.kill(workers[0], signal.SIGKILL)  # what the kernel's OOM killer sends
                names = ("killed by SIGKILL", "kept")
            else:  # an address-space limit on the running worker: its next allocation fails (MemoryError)
                import resource
                resource.prlimit(workers[0], resource.RLIMIT_AS, (1 << 20, resource.RLIM_INFINITY))
                names = ("memory", "kept")
            try:
                _, err = proc.communicate(timeout=120)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                return "hang", ""
            return one_line_outcome(proc.returncode, err, names=names)
        return item

    battery.add("environment", "a worker SIGKILLed (the OOM killer's signal)", killed_worker("SIGKILL"))
    battery.add("environment", "a worker out of memory (RLIMIT_AS on the running worker)", killed_worker("rlimit"))

    def bench_worker_killed():
        proc = subprocess.Popen([*CLI, "bench", "--quick", "--no-figures", "--workers", "2", "--out",
                                 str(root / "bench-worker-kill")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        if not wait_for_descendants(proc, 3):
            proc.kill()
            return "n/a", "ended before its workers started"
        time.sleep(2)
        workers = _workers_of(proc)
        for pid in workers[:1]:
            os.kill(pid, signal.SIGKILL)
        try:
            _, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            return "hang", ""
        return one_line_outcome(proc.returncode, err, names=("killed by SIGKILL", "kept"))

    if data_available:
        battery.add("environment", "a bench worker SIGKILLed", bench_worker_killed)

    def dask_cluster(case):
        def item():
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            address = f"tcp://127.0.0.1:{port}"
            spawned = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                                         "127.0.0.1", "--port", str(port), "--dashboard-address", ":0"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)]
            try:
                time.sleep(4)
                if case != "no workers":
                    spawned.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                                                     "--nthreads", "1", "--no-nanny"], stdout=subprocess.DEVNULL,
                                                    stderr=subprocess.DEVNULL, start_new_session=True))
                    time.sleep(4)
                proc = subprocess.Popen([*CLI, *quick, "--dask", address, "--dask-timeout", "5", "--out",
                                         str(root / f"dask-cluster-{len(case)}")], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, start_new_session=True)
                if case != "no workers":
                    time.sleep(8)  # the run is under way on the worker
                    victim = spawned[0] if case == "scheduler killed" else spawned[1]
                    victim.kill()
                try:
                    _, err = proc.communicate(timeout=90)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.communicate()
                    return "hang", "no end 90 s after the fault"
                names = {"no workers": ("no worker",), "scheduler killed": ("lost",),
                         "worker killed": ("no workers",)}[case]
                if proc.returncode == 0:
                    return "n/a", "the run finished before the fault"
                return one_line_outcome(proc.returncode, err, names=(address, *names))
            finally:
                for p in spawned:
                    with contextlib.suppress(OSError):
                        os.killpg(p.pid, signal.SIGKILL)
                    p.wait(30)
        return item

    for case in ("no workers", "scheduler killed", "worker killed"):
        battery.add("environment", f"--dask: {case}", dask_cluster(case))

    battery.add("environment", "SIGHUP simulate --workers 2", lambda: kill_outcome(
        [*quick, "--workers", "2", "--out", str(root / "hup-sim")], signal.SIGHUP))
    battery.add("environment", "SIGHUP to the process group (the terminal closed)", lambda: kill_outcome(
        [*quick, "--workers", "2", "--out", str(root / "hup-group")], signal.SIGHUP, group=True))
    battery.add("environment", "SIGHUP simulate --serial", lambda: kill_outcome(
        [*quick, "--serial", "--out", str(root / "hup-serial")], signal.SIGHUP, min_descendants=0))

    # 11. standard streams ------------------------------------------------------------------------
    def stream(label, argv, redirect, names, where="err"):
        def item():
            status, out, err = run_shell(f"{_shell_cli(argv)} {redirect}", timeout=120, cwd=str(root))
            text = err if where == "err" else out
            if status == 0:
                return "silent-wrong", f"exit 0 with {redirect}"
            return one_line_outcome(status, text, names=names)
        return item

    sim = lambda name: [*SMOKE, "--out", str(root / name)]  # noqa: E731
    battery.add("streams", "simulate >&- (stdout closed)",
                stream("", sim("s-closed-out"), ">&-", ("standard output",)))
    battery.add("streams", "simulate 2>&- (stderr closed)",
                stream("", sim("s-closed-err"), "2>&-", ("standard error",), where="out"))
    battery.add("streams", "metrics > /dev/full", stream("", ["metrics"], "> /dev/full", ("standard output",)))
    battery.add("streams", "simulate > /dev/full",
                stream("", sim("s-full-out"), "> /dev/full", ("standard output",)))
    battery.add("streams", "simulate 2> /dev/full (progress lines)",
                stream("", sim("s-full-err"), "2> /dev/full", ("standard error",), where="out"))
    battery.add("streams", "verify --self-checks --json > /dev/full",
                stream("", ["verify", "--self-checks", "--json"], "> /dev/full", ("standard output",)))

    def broken_pipe():
        read, write = os.pipe()
        os.close(read)  # the reader went away before the output
        proc = subprocess.Popen([*CLI, "metrics"], stdout=write, stderr=subprocess.PIPE, text=True)
        os.close(write)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            return "hang", ""
        if proc.returncode == 0:
            return "silent-wrong", "exit 0 with nothing delivered"
        return one_line_outcome(proc.returncode, err, names=("standard output",))

    battery.add("streams", "metrics into a pipe whose reader is gone", broken_pipe)

    # 12. numbers and data at the edges ----------------------------------------------------------
    def library(code, judge, timeout=180):
        def item():
            status, err = run([], code=code, timeout=timeout)
            return ("hang", "") if status is None else judge(status, err)
        return item

    def exit_judge(status, err):
        return ("ok", "") if status == 0 else ("silent-wrong" if status == 4 else "traceback", _last(err))

    battery.add("numbers-2", "min_max_scale near the float limit", library(
        "import numpy as np, sys\nfrom lfverify.learn._datasets import min_max_scale\nt = np.finfo(float).max\n"
        "s = min_max_scale(np.array([[t, -t], [-t, t], [0.0, 0.0]]))\n"
        "sys.exit(0 if np.isfinite(s).all() and s[2, 0] == 0.5 else 4)", exit_judge))
    battery.add("numbers-2", "min_max_scale of 1e308 and -1e308 in one column", library(
        "import numpy as np, sys\nfrom lfverify.learn._datasets import min_max_scale\n"
        "s = min_max_scale(np.array([[1e308], [-1e308], [5e307]]))\n"
        "sys.exit(0 if np.isfinite(s).all() and s[0, 0] == 1.0 and s[1, 0] == 0.0 else 4)", exit_judge))
    battery.add("numbers-2", "U-GD on a 20,000-feature sparse problem under a 1.5 GB address space", library(
        "import resource\nresource.setrlimit(resource.RLIMIT_AS, (1536 << 20, resource.RLIM_INFINITY))\n"
        "import numpy as np, scipy.sparse as sp, sys\nimport lfverify.core as M\n"
        "from lfverify.core import EmpiricalSurrogateUtility\nfrom lfverify.learn import maximize_surrogate_utility\n"
        "rng = np.random.default_rng(0)\nX = sp.random(200, 20000, density=0.001, format='csr', random_state=0)\n"
        "y = np.where(rng.normal(size=200) > 0, 1, -1)\n"
        "u = EmpiricalSurrogateUtility(M.f1(), M.tau_logistic(0.33), X, y)\n"
        "try:\n    maximize_surrogate_utility(u, np.full(20000, 0.01), method='gd', max_iter=3)\n"
        "except MemoryError:\n    sys.exit(4)\n", exit_judge))
    if data_available:
        battery.add("numbers-2", "a data file edited in place, mtime restored, same process", library(
            "import os, shutil, sys, tempfile\nfrom pathlib import Path\nimport lfverify.learn._datasets as D\n"
            "src = D.dataset_root()\nroot = Path(tempfile.mkdtemp())\nshutil.copytree(src / 'heart', root / 'heart')\n"
            "shutil.copy(src / 'PROVENANCE.tsv', root / 'PROVENANCE.tsv')\n"
            "D.load_dataset('heart', root=root)\np = root / 'heart' / 'heart_scale'\nst = p.stat()\n"
            "b = bytearray(p.read_bytes())\nb[-2] = 48 if b[-2] != 48 else 49\n"
            "with open(p, 'r+b') as fh:\n    fh.write(bytes(b))\n"
            "os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))\n"
            "try:\n    D.load_dataset('heart', root=root)\nexcept ValueError as e:\n"
            "    sys.exit(0 if 'sha256' in str(e) else 5)\nsys.exit(4)", exit_judge))

    def names_x(status, err):
        last = _last(err)
        if status == 0:
            return "silent-wrong", "fitted"
        return ("ok", last) if "X" in last.split(":", 1)[-1].split()[:3] or " X " in last else ("traceback", last)

    battery.add("numbers-2", "LinearFractionalClassifier.fit on X * 1e200 names X", library(
        "import numpy as np\nimport lfverify.learn as L\nrng = np.random.default_rng(0)\n"
        "X = rng.normal(size=(60, 3))\ny = np.where(X[:, 0] > 0, 1, -1)\n"
        "L.LinearFractionalClassifier(metric='f1').fit(X * 1e200, y)", names_x))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", metavar="PATH", help="also write the outcomes as JSON")
    parser.add_argument("--markdown", metavar="PATH", help="also write the outcomes as a Markdown table (the command "
                                                             "in its header)")
    parser.add_argument("--skip-slow", action="store_true", help="leave out the SIGKILL of verify")
    parser.add_argument("--only", metavar="CATEGORY", help="run the items of one category only")
    args = parser.parse_args(argv)
    json_path = Path(args.json).absolute() if args.json else None
    markdown_path = Path(args.markdown).absolute() if args.markdown else None
    with tempfile.TemporaryDirectory(prefix="fault-battery-") as tmp:
        # `python -m lfverify` imports from its working folder first: run every subprocess from the temporary
        # folder, so that PYTHONPATH (or the installed package) decides which lfverify is measured
        home = os.getcwd()
        os.chdir(tmp)
        status, where = run([], code="import lfverify, sys; print(lfverify.__file__, file=sys.stderr)")
        print(f"measuring {where.strip()}", flush=True)
        status, _ = run([], code="from lfverify.learn._datasets import dataset_root; dataset_root()")
        battery = Battery(Path(tmp), args.skip_slow)
        build(battery, data_available=status == 0)
        build_round2(battery, data_available=status == 0)
        if args.only:
            battery.items = [item for item in battery.items if item[0] == args.only]
        try:
            results = battery.run_all()
        finally:
            os.chdir(home)
    categories = list(dict.fromkeys(r["category"] for r in results))
    print(f"\n{'category':<12} " + " ".join(f"{o:>12}" for o in (*OUTCOMES, "n/a")))
    for category in categories:
        counts = [sum(r["category"] == category and r["outcome"] == o for r in results) for o in (*OUTCOMES, "n/a")]
        print(f"{category:<12} " + " ".join(f"{c:>12}" for c in counts))
    totals = [sum(r["outcome"] == o for r in results) for o in (*OUTCOMES, "n/a")]
    print(f"{'all':<12} " + " ".join(f"{c:>12}" for c in totals))
    if json_path is not None:
        json_path.write_text(json.dumps(results, indent=1) + "\n")
    if markdown_path is not None:
        command = " ".join(["python", "benchmarks/fault_battery.py", *(argv if argv is not None else sys.argv[1:])])
        markdown_path.write_text(markdown(results, command, where.strip()))
    return 0


def markdown(results, command: str, measured: str = "") -> str:
    """The outcomes as Markdown: the command in the header, counts per category, then one row per item."""
    lines = ["# Fault battery (GENERATED by benchmarks/fault_battery.py)", "",
             f"Command: `{command}`" + (f" (measuring `{measured}`)" if measured else "") + ".  Outcomes: "
             + ", ".join(OUTCOMES) + ", n/a (see the script's docstring).", "",
             "| category | " + " | ".join(OUTCOMES) + " | n/a |", "|---|" + "---:|" * (len(OUTCOMES) + 1)]
    categories = list(dict.fromkeys(r["category"] for r in results))
    for category in [*categories, "all"]:
        counts = [sum((category == "all" or r["category"] == category) and r["outcome"] == o for r in results)
                  for o in (*OUTCOMES, "n/a")]
        lines.append(f"| {category} | " + " | ".join(map(str, counts)) + " |")
    lines += ["", "| category | item | outcome | seconds | detail |", "|---|---|---|---:|---|"]
    for r in results:
        detail = r["detail"].replace("|", "\\|").replace("\n", " ")
        item = r["item"].replace("|", "/")
        lines.append(f"| {r['category']} | {item} | {r['outcome']} | {r['seconds']} | {detail} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
