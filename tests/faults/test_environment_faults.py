"""Reliability, round 2 (issue 32): the environment misbehaves - special files and links, path arguments, two
processes on one folder, faults that are not bugs, standard streams that cannot be written.

Each test provokes the fault for real (a FIFO made with ``mkfifo``, a Unix socket bound to a path, a symbolic
link loop, a deleted working folder, a second ``lfverify`` process, a worker killed with SIGKILL - the signal the
kernel's out-of-memory killer sends - or limited with ``RLIMIT_AS``, a real Dask scheduler and worker that are
killed, ``>&-`` and ``> /dev/full``) and asserts the exact outcome: the exit status and the one line, typed out
here.  Every wait is bounded: a read that would block forever on a FIFO is run in a thread joined with a timeout.
``benchmarks/fault_battery.py`` counts the same faults; the Dask cluster cases here are ``-m slow``.

Private: lfverify.app._cli (its _terminate), _failures (the failure classifier), lfverify.parallel._executors
(_broken_pool, _check_scheduler patched; a ProcessExecutor's kept pool, _kept) and _worker_stderr.StderrRelay,
lfverify.experiments._runner and _reproduction, lfverify.learn._datasets's readers and
lfverify.proofs._render.GENERATED: the points where an environment fault enters, driven directly.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

import lfverify.app._cli as cli
from benchmark_scripts import load_benchmark_script
from command_signals import signal_during_a_command
from lfverify.app._failures import (
    STREAM_LOST as LOST,
)
from lfverify.app._failures import (
    Interrupted,
    StreamFailure,
    classify,
    quiet_cluster_logs,
)
from lfverify.io import (
    LOCK,
    DamagedRecord,
    NotARegularFile,
    check_path_argument,
    claim_output_folder,
    holding_output_folders,
    read_bytes,
    read_sealed,
    write_text_atomically,
)
from lfverify.parallel import (
    DaskExecutor,
    EnvironmentFault,
    ProcessExecutor,
    describe_exit,
    keeping_workers,
    quiet_worker_tracebacks,
)
from lfverify.parallel._worker_stderr import StderrRelay

pytestmark = pytest.mark.claims("package:command-line", "package:files", "package:parallel")

CLI = [sys.executable, "-m", "lfverify"]
SMOKE = ["simulate", "uniform-convergence", "--mode", "smoke", "--serial", "--no-figures"]
KEPT = "every finished record is kept: run the same command again to resume"
battery = load_benchmark_script("fault_battery")


def _bounded(function, seconds=5.0):
    """(finished, outcome) of ``function()`` run in a daemon thread for at most ``seconds``."""
    outcome = {}

    def target():
        try:
            outcome["value"] = function()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    return not thread.is_alive(), outcome


def _unix_socket(path: Path) -> socket.socket:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    return server


# ------------------------------------------------------------------------------------------ special files
def test_a_fifo_is_refused_at_once_instead_of_blocking_the_read(tmp_path):
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)
    finished, outcome = _bounded(lambda: read_bytes(fifo))
    assert finished, "read_bytes blocked on a FIFO"
    assert isinstance(outcome.get("error"), NotARegularFile)
    assert str(outcome["error"]) == f"{fifo} is a named pipe (FIFO), not a regular file; lfverify does not read it"
    finished, outcome = _bounded(lambda: read_sealed(fifo))  # the records' reader: named as a damaged record
    assert finished and isinstance(outcome.get("error"), DamagedRecord)
    assert str(outcome["error"]) == (f"record {fifo} is damaged: cannot be read (it is a named pipe (FIFO), not a "
                                     "regular file)")


def test_devices_sockets_and_links_to_them_are_refused_by_kind(tmp_path):
    with pytest.raises(NotARegularFile, match=r"^/dev/null is a character device, not a regular file; lfverify "
                                              r"does not read it$"):
        read_bytes("/dev/null")
    server = _unix_socket(tmp_path / "s")
    try:
        with pytest.raises(NotARegularFile, match=r"s is a socket, not a regular file"):
            read_bytes(tmp_path / "s")
    finally:
        server.close()
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")  # never read: /dev/zero has no end
    finished, outcome = _bounded(lambda: read_bytes(link))
    assert finished and str(outcome["error"]) == f"{link} is a character device, not a regular file; lfverify " \
                                                 "does not read it"
    regular = tmp_path / "r.json"
    regular.write_bytes(b"{}")
    (tmp_path / "to-r").symlink_to(regular)
    assert read_bytes(tmp_path / "to-r") == b"{}"  # a link to a regular file is followed


def test_writes_go_through_a_symlink_to_its_target_and_the_link_stays(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "summary.json"
    target.write_text("old")
    link = tmp_path / "summary.json"
    link.symlink_to(target)
    write_text_atomically(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new"
    assert sorted(p.name for p in elsewhere.iterdir()) == ["summary.json"]  # no temporary file left


def test_a_write_never_replaces_a_device_a_fifo_a_folder_or_a_broken_link(tmp_path):
    device_link = tmp_path / "null.json"
    device_link.symlink_to("/dev/null")
    with pytest.raises(ValueError, match=rf"^{device_link} is a character device, not a regular file; lfverify "
                                         r"does not replace it$"):
        write_text_atomically(device_link, "x")
    assert device_link.is_symlink() and Path("/dev/null").is_char_device()
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"is a named pipe \(FIFO\), not a regular file; lfverify does not replace"):
        write_text_atomically(fifo, "x")
    with pytest.raises(ValueError, match=r"is a folder, not a regular file; lfverify does not replace it"):
        write_text_atomically(tmp_path, "x")
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "missing" / "x.json")
    with pytest.raises(ValueError, match=rf"^{dangling} is a dangling symbolic link \(to {tmp_path}/missing/x.json\); "
                                         r"lfverify writes through a link only to an existing file$"):
        write_text_atomically(dangling, "x")
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    with pytest.raises(ValueError, match=rf"^{loop} is a symbolic link loop; lfverify does not write through it$"):
        write_text_atomically(loop, "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling.json", "fifo.json", "loop.json", "null.json"]


def _fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def test_every_reader_refuses_a_fifo_in_place_of_its_file_at_once(tmp_path):
    """The engine's records.csv, the benchmark's timings and summaries, the proofs' stale documents and the data
    files' parsers read through ``lfverify/io/_files.py``: a FIFO in place of the file is one error naming it (or,
    for a timing and a stale document, a file skipped), never an open that waits for a writer (each call runs in a
    thread joined within 5 s)."""
    from lfverify.experiments._reproduction import load_table_values
    from lfverify.experiments._runner import Cell, load_timings, timing_path
    from lfverify.learn import load_file
    from lfverify.learn._datasets import _provenance_table, _read
    from lfverify.proofs import write_documents
    from lfverify.proofs._render import GENERATED
    from lfverify.simulations import read_records

    def refused(path):
        return f"{path} is a named pipe (FIFO), not a regular file; lfverify does not read it"

    fifo = _fifo(tmp_path / "run" / "records.csv")
    finished, outcome = _bounded(lambda: read_records(tmp_path / "run"))
    assert finished and str(outcome.get("error")) == refused(fifo)
    cell = Cell("table", "heart", "default", 0, ())
    _fifo(timing_path(tmp_path / "bench", cell))
    finished, outcome = _bounded(lambda: load_timings(tmp_path / "bench", [cell]))
    assert finished and outcome == {"value": {}}  # a time not known
    fifo = _fifo(tmp_path / "bench" / "summary.json")
    finished, outcome = _bounded(lambda: load_table_values([tmp_path / "bench"]))
    assert finished and str(outcome.get("error")) == refused(fifo)
    render = tmp_path / "render"
    _fifo(render / "old.md")
    (render / "stale.md").write_text(GENERATED + "\n")
    finished, outcome = _bounded(lambda: write_documents(render, {"new.md": "x\n"}))
    assert finished and "error" not in outcome
    assert sorted(p.name for p in render.iterdir()) == ["new.md", "old.md"]  # the FIFO left alone, never opened
    for label, call in (("data file", lambda path: _read(path, "svmlight")), ("user file", load_file),
                        ("provenance", lambda path: _provenance_table(path.parent))):
        fifo = _fifo(tmp_path / label / "PROVENANCE.tsv")
        finished, outcome = _bounded(lambda call=call, fifo=fifo: call(fifo))
        assert finished and str(outcome.get("error")) == refused(fifo), label


def test_a_data_file_replaced_by_a_link_or_a_fifo_is_named_not_called_unknown(tmp_path, capsys):
    """Oracle: the messages typed out.  A dangling link or a link loop in place of a data file makes the data set
    missing with the file and the link's kind named (not "unknown", not an empty list of available ones); a FIFO
    in its place stops `data list` with one line naming it instead of listing the data set as absent."""
    from lfverify.experiments import BenchOptions, validate_options
    from lfverify.learn import missing_dataset_files

    heart = tmp_path / "heart"
    heart.mkdir()
    (heart / "heart_scale").symlink_to(tmp_path / "nowhere")
    assert missing_dataset_files("heart", root=tmp_path) == [f"{heart / 'heart_scale'} (a dangling symbolic link)"]
    with pytest.raises(ValueError, match=re.escape(
            f"datasets: data set 'heart' cannot be used: its data location lacks {heart / 'heart_scale'} (a dangling "
            "symbolic link); available: (none)")):
        validate_options(BenchOptions(datasets=("heart",), data_root=str(tmp_path)))
    (heart / "heart_scale").unlink()
    (heart / "heart_scale").symlink_to("heart_scale")
    assert missing_dataset_files("heart", root=tmp_path) == [f"{heart / 'heart_scale'} (a symbolic link loop)"]
    (heart / "heart_scale").unlink()
    assert missing_dataset_files("heart", root=tmp_path) == [str(heart / "heart_scale")]
    os.mkfifo(heart / "heart_scale")
    finished, outcome = _bounded(lambda: cli.main(["data", "list", "--data-root", str(tmp_path)]))
    assert finished and outcome == {"value": 2}
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"lfverify data: error: {heart / 'heart_scale'} is a named pipe (FIFO), not a regular file; lfverify does "
        "not read it")


# ------------------------------------------------------------------------------------------ path arguments
def test_path_arguments_are_checked_by_kind_before_any_work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("dangling").symlink_to("nowhere")
    Path("loop").symlink_to("loop")
    Path("under-loop").symlink_to("loop")
    os.mkfifo("fifo")
    Path("file").write_text("")
    server = _unix_socket(tmp_path / "sock")
    try:
        expected = {
            "": "--out: an empty path (''); give the folder explicitly, e.g. --out ./results",
            "  ": "--out: an empty path ('  '); give the folder explicitly, e.g. --out ./results",
            "dangling": "--out: dangling is a dangling symbolic link (to nowhere); remove it or give another path",
            "loop": "--out: loop is a symbolic link loop (or runs through one)",
            "under-loop/x": "--out: under-loop/x is a symbolic link loop (or runs through one)",
            "fifo": "--out: fifo is a named pipe (FIFO), not a folder; choose a folder (new or empty)",
            "sock": "--out: sock is a socket, not a folder; choose a folder (new or empty)",
            "file": "--out: file is a file, not a folder; choose a folder (new or empty)",
        }
        for value, message in expected.items():
            with pytest.raises(ValueError) as raised:
                check_path_argument(value, "--out")
            assert str(raised.value) == message
    finally:
        server.close()
    with pytest.raises(ValueError) as raised:
        check_path_argument(".", "--errata", want="file")
    assert str(raised.value) == "--errata: . is a folder; give the path of a file"
    assert check_path_argument("new/folder", "--out") == Path("new/folder")  # to be created: fine


def test_a_relative_path_after_the_working_folder_was_deleted_is_named(tmp_path, monkeypatch):
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    with pytest.raises(ValueError) as raised:
        check_path_argument("results", "--out")
    assert str(raised.value) == ("--out: results is relative, but the working folder no longer exists (deleted while "
                                 "this shell was in it); cd to an existing folder or give an absolute path")
    assert check_path_argument(tmp_path / "abs", "--out") == tmp_path / "abs"  # an absolute path still works


@pytest.mark.parametrize("argv, line", [
    ([*SMOKE, "--out", ""], "lfverify simulate: error: --out: an empty path (''); give the folder explicitly, e.g. "
                            "--out ./results"),
    (["proofs", "--errata", ""], "lfverify proofs: error: --errata: an empty path (''); give the file explicitly, "
                                 "e.g. --errata ./out.md"),
    (["proofs", "--render", ""], "lfverify proofs: error: --render: an empty path (''); give the folder explicitly, "
                                 "e.g. --render ./results"),
    (["data", "list", "--data-root", ""], "lfverify data: error: --data-root: an empty path (''); give the folder "
                                          "explicitly, e.g. --data-root ./results"),
])
def test_an_empty_path_option_is_an_error_not_the_current_folder(argv, line, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    assert capsys.readouterr() == ("", line + "\n")
    assert list(tmp_path.iterdir()) == []


def test_an_output_folder_holding_a_fifo_is_refused_before_it_is_read(tmp_path):
    out = tmp_path / "out"
    (out / "records").mkdir(parents=True)
    os.mkfifo(out / "run.json")
    finished, outcome = _bounded(lambda: claim_output_folder(out, command="simulate x", fingerprint="f"))
    assert finished
    assert str(outcome["error"]) == (f"--out: {out} holds a named pipe (FIFO) at {out}/run.json; lfverify reads and "
                                     "writes only regular files: remove it or choose another folder")


# ------------------------------------------------------------------------------------------ two processes
_CLAIM = ("import sys\nfrom lfverify.io import claim_output_folder\ntry:\n"
          "    claim_output_folder(sys.argv[1], command='simulate x', fingerprint='f')\nexcept ValueError as e:\n"
          "    print(e)\n    sys.exit(2)\n")


def _claim_elsewhere(out):
    return subprocess.run([sys.executable, "-c", _CLAIM, str(out)], capture_output=True, text=True, timeout=60)


def test_a_folder_claimed_for_a_run_is_locked_until_the_run_ends(tmp_path):
    out = tmp_path / "out"
    with holding_output_folders("lfverify simulate x --out out"):
        claim_output_folder(out, command="simulate x", fingerprint="f")
        holder = json.loads((out / (LOCK + ".json")).read_text())
        assert holder == {"pid": os.getpid(), "host": socket.gethostname(), "command": "lfverify simulate x --out out"}
        other = _claim_elsewhere(out)  # same command, same settings: still refused while this run holds it
        assert other.returncode == 2
        assert other.stdout.strip() == (f"--out: {out} is in use by another lfverify run (pid {os.getpid()} on "
                                        f"{socket.gethostname()}: lfverify simulate x --out out); wait for it to end "
                                        "or choose another folder")
        claim_output_folder(out, command="simulate x", fingerprint="f")  # this run may claim it again
    assert not (out / (LOCK + ".json")).exists()
    assert _claim_elsewhere(out).returncode == 0  # released at the end of the run


def test_a_library_claim_locks_the_folder_only_while_it_checks_it(tmp_path):
    out = tmp_path / "out"
    claim_output_folder(out, command="simulate x", fingerprint="f")
    assert _claim_elsewhere(out).returncode == 0


#: Another process holding an output folder as a command-line run does (the lock kept until it ends), cheaply.
_HOLD = ("import sys, time\nfrom lfverify.io import claim_output_folder, holding_output_folders\n"
         "with holding_output_folders(sys.argv[2], {'out': '--out'}):\n"
         "    claim_output_folder(sys.argv[1], command='simulate uniform-convergence', fingerprint='f')\n"
         "    print('held', flush=True)\n    time.sleep(120)\n")


def test_a_second_command_line_run_is_refused_with_the_holder_named(tmp_path, capsys):
    """The holder is another process that claims the folder as ``lfverify``'s command line does (the same two
    calls, importing only lfverify.io); the second run is the command line itself, in this process."""
    out = tmp_path / "busy"
    command = f"lfverify simulate uniform-convergence --quick --no-figures --workers 1 --out {out}"
    first = subprocess.Popen([sys.executable, "-c", _HOLD, str(out), command], stdout=subprocess.PIPE, text=True,
                             start_new_session=True)
    try:
        assert first.stdout.readline() == "held\n"
        status = cli.main([*SMOKE, "--seed", "3", "--out", str(out)])
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(30)
    assert status == 2
    assert capsys.readouterr().err == (
        f"lfverify simulate: error: --out: {out} is in use by another lfverify run (pid {first.pid} on "
        f"{socket.gethostname()}: {command}); wait for it to end or choose another folder\n")


# ------------------------------------------------------------------------------------------ the taxonomy
def test_every_ending_has_its_status_and_line():
    cases = [
        (EnvironmentFault("worker process 7 was killed by SIGKILL"), 2,
         f"stopped: worker process 7 was killed by SIGKILL; {KEPT}"),
        (MemoryError(), 2, f"stopped: out of memory (MemoryError); {KEPT}"),
        (StreamFailure("standard output", "No space left on device"), 2,
         f"stopped: cannot write to standard output (No space left on device); {KEPT}"),
        (Interrupted(signal.SIGHUP), 129, "interrupted (SIGHUP: the terminal closed); the workers were stopped and "
                                          f"{KEPT}"),
        (Interrupted(), 143, f"interrupted (SIGTERM); the workers were stopped and {KEPT}"),
        (KeyboardInterrupt(), 130, f"interrupted (Ctrl-C); the workers were stopped and {KEPT}"),
        # a signal without a name of its own: its number, and the shell's status 128 + N
        (Interrupted(signal.SIGUSR1), 128 + int(signal.SIGUSR1),
         f"interrupted (signal {int(signal.SIGUSR1)}); the workers were stopped and {KEPT}"),
        (ValueError("--out: x"), 2, "error: --out: x"),
        (KeyError("k"), 3, "internal error: KeyError: 'k' (a bug; run again with --debug for the traceback and "
                           "please report it)"),
    ]
    for exc, status, line in cases:
        assert classify(exc) == (status, line)


def test_describe_exit_names_the_signal_and_the_oom_killer():
    assert describe_exit(-9) == "was killed by SIGKILL (what the kernel's out-of-memory killer sends; see `dmesg`)"
    assert describe_exit(-15) == "was killed by SIGTERM"
    assert describe_exit(3) == "exited with status 3"
    assert describe_exit(0) == "exited with status 0"  # 0 is an exit, not a signal
    assert describe_exit(None) == "ended abruptly"
    assert describe_exit(-99) == "was killed by signal 99"  # a number no signal of this system has


@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")
def test_a_real_sighup_during_a_command_exits_129_with_one_line(monkeypatch, capsys):
    status, seen, previous = signal_during_a_command(monkeypatch, signal.SIGHUP)
    assert status == 129
    assert capsys.readouterr().err == (f"lfverify metrics: interrupted (SIGHUP: the terminal closed); the workers "
                                       f"were stopped and {KEPT}\n")
    assert seen == [cli._terminate] and signal.getsignal(signal.SIGHUP) is previous


def _worker_started(proc, wait=120.0) -> bool:
    """Poll (bounded) until ``proc`` has a worker process running multiprocessing's spawn_main; False if it ended."""
    deadline = time.monotonic() + wait
    while proc.poll() is None and time.monotonic() < deadline:
        if battery._workers_of(proc):
            return True
        time.sleep(0.1)
    return False


def test_dask_logs_stay_off_the_terminal_unless_debug(monkeypatch):
    import logging

    monkeypatch.delenv("DASK_LOGGING__DISTRIBUTED", raising=False)
    client = logging.getLogger("distributed.client")  # sets its own level in distributed's configuration
    client.setLevel(logging.WARNING)
    assert client.isEnabledFor(logging.ERROR)
    with quiet_cluster_logs(debug=False):
        assert not client.isEnabledFor(logging.CRITICAL)
        assert os.environ["DASK_LOGGING__DISTRIBUTED"] == "critical"  # for the LocalCluster's worker processes
    assert client.isEnabledFor(logging.ERROR) and "DASK_LOGGING__DISTRIBUTED" not in os.environ
    with quiet_cluster_logs(debug=True):
        assert client.isEnabledFor(logging.ERROR)


# ------------------------------------------------------------------------------------------ killed workers
def _kill_myself(_):
    os.kill(os.getpid(), signal.SIGKILL)  # what the kernel's out-of-memory killer sends


def _allocate_under_a_limit(_):
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.RLIM_INFINITY))
    return len(bytearray(2 << 30))  # 2 GB under a 1 GB address space: MemoryError


# ------------------------------------------------------------------------------------------ kept workers
def _worker_pid(_):
    return os.getpid()


def _fail_in_worker(_):
    raise ArithmeticError("a task's own error")


def _run(executor, tasks=4) -> set:
    """Run a few tasks; the process ids that ran them."""
    return {pid for _, pid in executor.map_unordered(_worker_pid, [(k,) for k in range(tasks)])}


def _workers(before) -> dict:
    """pid -> start time of this process's live multiprocessing children that ``before`` did not hold (the start time
    tells a reused pid apart: fault_battery.survivors)."""
    import multiprocessing

    table = battery.processes()
    return {child.pid: table[child.pid][1] for child in multiprocessing.active_children()
            if child.pid not in before and child.pid in table}


def _pool_workers(executor, before) -> dict:
    """:func:`_workers` of ``executor``'s kept pool only: in one long run of the whole suite (mutmut's stats run) a
    child of an earlier test can appear after ``before`` was read, and killing it instead of a worker tests nothing
    (seen: the next map ran to the end)."""
    pool = executor._kept[0]
    kept = {pid: start for pid, start in _workers(before).items() if pid in pool._processes}
    assert kept, "the kept pool has no live worker"
    return kept


def _exit_seen(executor, pid, seconds=10.0) -> bool:
    """Whether the kept pool's worker ``pid`` reports its exit code within ``seconds`` (its death is then observable
    to the next map; right after the kill it may not be yet)."""
    process = executor._kept[0]._processes.get(pid)
    deadline = time.monotonic() + seconds
    while process is not None and process.exitcode is None and time.monotonic() < deadline:
        time.sleep(0.01)
    return process is None or process.exitcode is not None


@contextlib.contextmanager
def _kept_pool_with_a_killed_worker():
    """(executor, victim) inside a ProcessExecutor(2)'s workers_kept() block, after one map, with the pool's worker
    ``victim`` killed by SIGKILL, gone, and its exit readable; every kept worker is gone after the block."""
    before = _workers({})
    executor = ProcessExecutor(2)
    with executor.workers_kept():
        _run(executor)
        kept = _pool_workers(executor, before)
        victim = min(kept)
        os.kill(victim, signal.SIGKILL)
        assert _gone_within({victim: kept[victim]})
        assert _exit_seen(executor, victim)
        yield executor, victim
    assert _gone_within(kept)


def _gone_within(workers, seconds=10.0) -> bool:
    """Every process of ``workers`` (pid -> start time) has ended within ``seconds``."""
    return battery.survivors(workers, seconds) == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_maps_inside_workers_kept_share_one_pool_which_ends_with_the_block():
    """Oracle: this process's children.  After two maps in the block (entered through ``keeping_workers``, as the
    commands do) the same two workers live, and they are gone when the block ends; outside the block each map's
    workers are gone when it ends (the companion: the check can fail)."""
    before = _workers({})
    executor = ProcessExecutor(2)
    with keeping_workers(executor):
        ran = _run(executor)
        first = _workers(before)
        ran |= _run(executor)
        assert _workers(before) == first and len(first) == 2 and ran <= first.keys()
    assert _gone_within(first)
    _run(executor)
    assert _workers(before) == {}


def test_keeping_workers_is_a_block_that_does_nothing_for_an_executor_without_a_kept_pool():
    """A user's executor needs only ``map_unordered``: the block runs and its maps run as without it."""
    class OnlyMaps:
        def map_unordered(self, function, argument_tuples):
            return ((i, function(*a)) for i, a in enumerate(argument_tuples))

    with keeping_workers(OnlyMaps()) as block:
        assert block is None and sorted(OnlyMaps().map_unordered(len, [("ab",)])) == [(0, 2)]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_a_failed_map_or_block_stops_the_kept_workers():
    """A task's error inside the block stops the pool (the next map starts new workers), and an exception that ends
    the block stops the pool it kept.  Oracle: this process's children."""
    before = _workers({})
    executor = ProcessExecutor(2)
    with executor.workers_kept():
        _run(executor)
        first = _workers(before)
        with pytest.raises(ArithmeticError, match="a task's own error"):
            list(executor.map_unordered(_fail_in_worker, [(1,)]))
        assert _gone_within(first)
        _run(executor)
        assert _workers(before).keys().isdisjoint(first) and len(_workers(before)) == 2
    with pytest.raises(KeyError), executor.workers_kept():
        _run(executor)
        kept = _workers(before)
        raise KeyError("the caller's own error")
    assert _gone_within(kept)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_a_kept_worker_killed_while_idle_is_an_environment_fault_of_the_next_map():
    """SIGKILL to an idle worker of a kept pool (what the out-of-memory killer does between two studies): the next map
    ends with the EnvironmentFault naming that worker and the signal, as a worker killed during a map does, not with
    the pool's own BrokenProcessPool nor the other worker, which the broken pool terminates (SIGTERM).  Oracle: the
    fault's text, typed out; the pool is gone afterwards."""
    with _kept_pool_with_a_killed_worker() as (executor, victim):
        with pytest.raises(EnvironmentFault, match=rf"^worker process {victim} was killed by SIGKILL ") as raised:
            list(executor.map_unordered(_worker_pid, [(1,)]))
        assert not isinstance(raised.value, BrokenProcessPool) and classify(raised.value)[0] == 2


def test_a_dead_kept_worker_is_found_before_any_task_is_submitted(monkeypatch):
    """The check behind the test above, without its race: once a kept worker is gone, the next map refuses before it
    submits anything, whether or not the pool's own thread has noticed (under mutmut's stats run it had not, and the
    task ran to the end on the other worker).  Oracle: the fault's text; the pool's submit, patched, is never
    called."""
    with _kept_pool_with_a_killed_worker() as (executor, victim):
        monkeypatch.setattr(executor._kept[0], "submit", lambda *a, **k: pytest.fail("a task reached a broken pool"))
        with pytest.raises(EnvironmentFault, match=rf"^worker process {victim} was killed by SIGKILL "):
            list(executor.map_unordered(_worker_pid, [(1,)]))


def test_a_function_of_an_interactive_session_is_refused_before_any_task_runs(monkeypatch):
    """Where __main__ has no file (standard input, a notebook), a function defined there - found among the task's
    arguments, inside a list inside a dict - cannot be imported by a spawned worker: check_arguments refuses it by
    name; a library function passes.  Oracle: the message typed out.

    Kills `lfverify.parallel._executors.x__callables__mutmut_7` (no test reached _callables in-process: the
    command-line tests that do run in temporary folders, outside mutmut's selection)."""
    import types

    from lfverify.parallel import ProcessExecutor

    def user_function(x):
        return x

    main = types.ModuleType("__main__")  # no __file__
    user_function.__module__, user_function.__qualname__ = "__main__", "user_function"
    main.user_function = user_function  # so that pickle finds it by name, as in a real session
    monkeypatch.setitem(sys.modules, "__main__", main)
    executor = ProcessExecutor(1)
    with pytest.raises(TypeError) as raised:
        executor.check_arguments((1, {"options": [user_function]}))
    assert str(raised.value) == (
        "'user_function' is defined in an interactive session (__main__ without a file), which worker processes "
        "cannot import; define it at the top level of a module file (or of the script you run), or run with "
        "executor='serial' / --serial, or on Dask, which sends functions by value")
    assert executor.check_arguments((1, {"options": [len, os.path.join]})) is None


_MAIN_SCRIPT = """
from lfverify.parallel import ProcessExecutor

if __name__ == "__main__":
    print(sorted(ProcessExecutor(max_workers=2).map_unordered(len, [("ab",), ("abc",)])))
"""


def test_a_main_script_read_from_standard_input_is_refused_before_any_worker_starts(tmp_path):
    """``python - < script.py``: spawned workers re-run the main script from its file, and "<stdin>" is none, so every
    worker would die at start (reported as a worker killed from outside).  Oracle: the process's stderr, its last
    line the ValueError typed out here, no worker traceback; the same script from a file runs (companion)."""
    done = subprocess.run([sys.executable, "-"], input=_MAIN_SCRIPT, capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "ValueError: worker processes cannot start: each runs the main script again from its file, and '<stdin>' is "
        "not a file (a script read from standard input?); run it from a file, or with executor='serial' / --serial, "
        "or on Dask")
    assert "spawn_main" not in done.stderr and "BrokenProcessPool" not in done.stderr
    (tmp_path / "script.py").write_text(_MAIN_SCRIPT)
    done = subprocess.run([sys.executable, "script.py"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "[(0, 2), (1, 3)]\n"), done.stderr[-2000:]


@pytest.mark.parametrize("how", ["path", "module"])
def test_a_main_script_that_starts_workers_outside_its_main_guard_is_refused(tmp_path, how):
    """Spawned workers run the main script again (``python script.py``, and ``python -m script`` unless the module is
    a package's __main__), so a top-level call outside ``if __name__ == "__main__":`` would start workers in every
    worker, which multiprocessing refuses there: each worker would die and the run read as a worker killed from
    outside.  Oracle: the ValueError typed out here, naming the line, and no worker's traceback; the guarded script
    runs (companion: test_a_main_script_read_from_standard_input_is_refused_before_any_worker_starts)."""
    unguarded = "\n".join(line.strip() for line in _MAIN_SCRIPT.splitlines() if not line.startswith("if "))
    (tmp_path / "script.py").write_text(unguarded)
    line = unguarded.splitlines().index(next(x for x in unguarded.splitlines() if x.startswith("print("))) + 1
    command = [sys.executable, "script.py"] if how == "path" else [sys.executable, "-m", "script"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 1
    where = str(tmp_path / "script.py")  # (Python >= 3.9 makes the main script's __file__ absolute)
    assert done.stderr.splitlines()[-1] == (
        f"ValueError: worker processes cannot start: each runs the main script {where!r} again, and its line {line} "
        "starts them outside `if __name__ == \"__main__\":`, so every worker would start workers of its own and die; "
        "put the script's top-level calls under that guard, or use executor='serial' / --serial")
    assert "spawn_main" not in done.stderr and "bootstrapping" not in done.stderr


def test_a_worker_killed_by_sigkill_is_an_environment_fault_naming_it():
    with pytest.raises(EnvironmentFault) as raised:
        list(ProcessExecutor(1).map_unordered(_kill_myself, [(1,)]))
    message = str(raised.value)
    assert message.startswith("worker process ") and message.endswith(
        " was killed by SIGKILL (what the kernel's out-of-memory killer sends; see `dmesg`) while running a task; a "
        "worker killed from outside (out of memory, a signal) stops the run - use fewer --workers if memory is short")
    assert classify(raised.value)[0] == 2


def test_a_worker_out_of_memory_is_memory_error_and_exit_2():
    with pytest.raises(MemoryError) as raised:
        list(ProcessExecutor(1).map_unordered(_allocate_under_a_limit, [(1,)]))
    assert classify(raised.value) == (2, f"stopped: out of memory (MemoryError); {KEPT}")


def _limit_and_return(_):
    """Set a 1 MB address-space limit on this worker and return: reading the next task (4 MB of arguments) fails in
    concurrent.futures' own loop, outside any task, and the worker dies printing a traceback."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 20, resource.RLIM_INFINITY))
    return 1


def test_a_worker_dying_of_memory_outside_a_task_is_one_line_and_its_traceback_stays_off_the_terminal(capfd):
    with quiet_worker_tracebacks(), pytest.raises(EnvironmentFault) as raised:
        list(ProcessExecutor(1).map_unordered(_limit_and_return, [(b"",), (bytes(4 << 20),)]))
    pid = re.match(r"worker process (\d+) ", str(raised.value))
    assert pid and str(raised.value) == (
        f"worker process {pid[1]} ran out of memory (MemoryError; exited with status 1) while running a task; a worker "
        "killed from outside (out of memory, a signal) stops the run - use fewer --workers if memory is short")
    assert capfd.readouterr() == ("", "")


def test_a_worker_that_cannot_map_a_library_is_said_to_have_run_out_of_memory():
    """Oracle: the lines typed out.  Under an address-space limit a worker can die while the dynamic loader maps a
    shared library (an ImportError naming no memory): the line says it ran out of memory, with the worker's own
    last line; a last line with no sign of memory is only quoted."""
    from lfverify.parallel._executors import _broken_pool

    class Dead:
        pid, exitcode = 4242, 1

        def join(self, timeout):
            return None

    class Relay:
        def __init__(self, line):
            self.line = line

        def wait_for_error(self, timeout):
            return self.line

    lost = "ImportError: libopenblas.so.0: failed to map segment from shared object"
    tail = ("while running a task; a worker killed from outside (out of memory, a signal) stops the run - use fewer "
            "--workers if memory is short")
    assert _broken_pool([Dead()], Relay(lost)) == (
        f"worker process 4242 ran out of memory ({lost}; exited with status 1) {tail}")
    assert _broken_pool([Dead()], Relay("OSError: [Errno 12] Cannot allocate memory")) == (
        f"worker process 4242 ran out of memory (OSError: [Errno 12] Cannot allocate memory; exited with status 1) "
        f"{tail}")
    assert _broken_pool([Dead()], Relay("KeyError: 1")) == (
        f"worker process 4242 exited with status 1 after KeyError: 1 {tail}")


def test_the_relay_waits_for_an_error_no_longer_than_asked_and_closes_twice(monkeypatch):
    """Oracle: the docstrings - wait_for_error returns None after about ``timeout`` seconds when no traceback comes
    and the workers' pipe is still open (not at once, not never); close() of a relay whose end is already closed
    does not raise (a second close, as in a cleanup after an error)."""
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    relay = StderrRelay()
    try:
        started = time.monotonic()
        assert relay.wait_for_error(0.2) is None
        assert 0.2 <= time.monotonic() - started < 5.0  # a lower bound only, and a generous upper one: no timing claim
    finally:
        relay.close()
    relay.close()  # its write end is closed already: OSError (EBADF) suppressed


def test_the_worker_stderr_relay_copies_what_is_not_a_traceback(monkeypatch):
    """The relay's filter on a real pipe: a warning passes, a traceback (with multiprocessing's header and a chained
    exception) is held back and its last line kept."""
    seen = io.StringIO()
    monkeypatch.setattr(sys, "stderr", seen)
    relay = StderrRelay()
    os.write(relay._write, b"x.py:3: UserWarning: kept\n  warnings.warn('kept')\nProcess SpawnProcess-1:\n"
                           b"Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n    f()\n"
                           b"KeyError: 1\n\nDuring handling of the above exception, another exception occurred:\n\n"
                           b"Traceback (most recent call last):\n  File \"b.py\", line 2, in g\nMemoryError\n"
                           b"after\n")
    relay.close()
    assert seen.getvalue() == "x.py:3: UserWarning: kept\n  warnings.warn('kept')\nafter\n"
    assert relay.last_error == "MemoryError"


def test_a_killed_worker_and_a_closed_terminal_end_the_command_line_as_the_taxonomy_says(tmp_path):
    """Two real runs at once (one worker each: the two cores share the wall time).  In the first, the worker is
    SIGKILLed (what the kernel's out-of-memory killer sends): exit 2, one line naming it, not "a bug".  The second's
    whole process group gets SIGHUP (the terminal closed): the worker and multiprocessing's resource tracker ignore
    it (the tracker used to die and be relaunched with KeyError tracebacks), the parent stops the worker, one line,
    exit 129, no process left."""
    runs = [subprocess.Popen([*CLI, "simulate", "uniform-convergence", "--quick", "--no-figures", "--workers", "1",
                              "--out", str(tmp_path / name)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True) for name in ("killed", "hup")]
    killed, hup = runs
    try:
        assert all(_worker_started(proc) for proc in runs), "a run ended before its worker started"
        time.sleep(1.0)
        workers = battery._workers_of(killed)
        seen = battery.descendants(hup.pid)
        os.kill(workers[0], signal.SIGKILL)
        os.killpg(hup.pid, signal.SIGHUP)
        endings = [proc.communicate(timeout=120)[1] for proc in runs]
    finally:
        for proc in runs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
    assert killed.returncode == 2 and "Traceback" not in endings[0], endings[0]
    assert endings[0].splitlines()[-1] == (
        f"lfverify simulate: stopped: worker process {workers[0]} was killed by SIGKILL (what the kernel's "
        "out-of-memory killer sends; see `dmesg`) while running a task; a worker killed from outside (out of memory, "
        f"a signal) stops the run - use fewer --workers if memory is short; {KEPT}")
    assert hup.returncode == 129 and "Traceback" not in endings[1] and "relaunching" not in endings[1], endings[1]
    assert endings[1].splitlines()[-1] == (f"lfverify simulate: interrupted (SIGHUP: the terminal closed); the "
                                           f"workers were stopped and {KEPT}")
    assert len(seen) >= 2 and battery.survivors(seen, 15) == []  # the worker and the resource tracker


# ------------------------------------------------------------------------------------------ standard streams
def test_stream_faults_of_a_real_process_are_one_line_on_the_other_stream(tmp_path):
    """One shell run of four cheap commands at once (refused before any work, or ``metrics``), each with its exit
    status and streams kept in files: ``>&-``, ``2>&-``, ``> /dev/full``, and a pipe whose reader went away (the
    script's own standard output) - the one line on the other stream, never exit 0, never "Exception ignored"."""
    smoke = battery._shell_cli([*SMOKE, "--out", "o"])
    metrics = battery._shell_cli(["metrics"])
    script = " & ".join([f"({smoke} >&- 2> e1; echo $? > s1)", f"({smoke} 2>&- > o2; echo $? > s2)",
                          f"({metrics} > /dev/full 2> e3; echo $? > s3)", f"({metrics} 2> e4; echo $? > s4)", "wait"])
    read, write = os.pipe()
    os.close(read)  # the reader went away before the output
    try:
        subprocess.run(["/bin/sh", "-c", script], stdout=write, cwd=tmp_path, timeout=240, check=False)
    finally:
        os.close(write)
    found = {name: (tmp_path / name).read_text() for name in ("s1", "e1", "s2", "o2", "s3", "e3", "s4", "e4")}
    assert found == {
        "s1": "2\n", "e1": "lfverify: error: standard output is closed; nothing was run: redirect it to a file or "
                          "/dev/null instead\n",
        "s2": "2\n", "o2": "lfverify: error: standard error is closed; nothing was run: redirect it to a file or "
                          "/dev/null instead\n",
        "s3": "2\n",
        "e3": f"lfverify metrics: {LOST.format(failure='cannot write to standard output (No space left on device)')}\n",
        "s4": "2\n",
        "e4": f"lfverify metrics: {LOST.format(failure='cannot write to standard output (Broken pipe)')}\n"}
    assert not (tmp_path / "o").exists()  # refused before any work


@pytest.fixture
def tiny_smoke(monkeypatch):  # noqa: PT004 - used for its effect
    """uniform-convergence's smoke mode shrunk to 3 sample sizes x 4 replications for this test (seconds less)."""
    from lfverify.simulations import STUDIES

    smoke = STUDIES["uniform-convergence"].modes["smoke"]
    for key, value in {"sample_sizes": [100, 200, 300], "replications": 4, "refinement_rounds": 1,
                       "samples_per_task": 1200}.items():
        monkeypatch.setitem(smoke, key, value)


def _with_stream(name, stream, argv):
    """``cli.main(argv)`` with ``sys.<name>`` set to ``stream`` (restored after)."""
    saved = getattr(sys, name)
    setattr(sys, name, stream)
    try:
        return cli.main(argv)
    finally:
        setattr(sys, name, saved)


def test_a_full_stream_in_the_middle_of_a_run_ends_it_complete_with_the_line_on_the_other(tmp_path, capsys,
                                                                                           tiny_smoke):
    """``> /dev/full`` and ``2> /dev/full`` of a real (tiny) simulation, run in this process: stdout block-buffered
    as a shell redirection makes it, stderr line-buffered as Python's.  The run goes on to its end: its files are
    those of a run with working streams (oracle: the same run into another folder, summary.json and records.csv
    byte for byte), and the line on the other stream says what was lost (exit 2).  The process-level endings (the
    final flush, "Exception ignored") are the subprocess test's above."""
    assert _with_stream("stdout", sys.stdout, [*SMOKE, "--out", str(tmp_path / "ref"), "--quiet"]) == 0
    capsys.readouterr()
    with open("/dev/full", "w") as full:  # the guard points a failed stream at /dev/null: closing it is quiet
        assert _with_stream("stdout", full, [*SMOKE, "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"lfverify simulate: {LOST.format(failure='cannot write to standard output (No space left on device)')}")
    for name in ("summary.json", "records.csv"):
        assert (tmp_path / "o" / name).read_bytes() == (tmp_path / "ref" / name).read_bytes()
    with open("/dev/full", "w", buffering=1) as full:
        assert _with_stream("stderr", full, [*SMOKE, "--out", str(tmp_path / "e")]) == 2
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"lfverify simulate: {LOST.format(failure='cannot write to standard error (No space left on device)')}")
    for name in ("summary.json", "records.csv"):
        assert (tmp_path / "e" / name).read_bytes() == (tmp_path / "ref" / name).read_bytes()
    with open("/dev/full", "w", buffering=1) as full:  # nothing to say on stderr: nothing lost
        assert _with_stream("stderr", full, [*SMOKE, "--out", str(tmp_path / "e"), "--quiet"]) == 0
    assert "summary.json" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------ Dask clusters
@pytest.fixture
def scheduler():
    """A real Dask scheduler in its own process; yields (address, start_worker, processes)."""
    pytest.importorskip("distributed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    spawned = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                 "--port", str(port), "--dashboard-address", ":0"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)]

    def start_worker():
        spawned.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads",
                                         "1", "--no-nanny"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True))
        return spawned[-1]

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            DaskExecutor(address, connect_timeout=2).check()
            break
        except ValueError:
            time.sleep(0.5)
    try:
        yield address, start_worker, spawned
    finally:
        for proc in spawned:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)


def test_a_scheduler_lost_while_the_run_starts_is_an_environment_fault(monkeypatch):
    """The scheduler dies between the handshake and the first task (the battery met it under load: the client's
    broadcast of the BLAS setting raised CommClosedError, reported as "error: in <TCP (closed) ...>"): one line
    saying the scheduler was lost.  A stand-in client raises what distributed raises there; the setting is sent
    with on_error="ignore", so a worker dying meanwhile is left to the wait for workers."""
    distributed = pytest.importorskip("distributed")
    from distributed.comm.core import CommClosedError

    import lfverify.parallel._executors as executors

    class Client:
        def __init__(self, *args, **kwargs):
            pass

        def wait_for_workers(self, n, timeout):
            pass

        def run(self, function, *, on_error):
            assert on_error == "ignore"
            raise CommClosedError("in <TCP (closed) ConnectionPool.broadcast>: Stream is closed")

        def close(self, timeout):
            pass

    monkeypatch.setattr(distributed, "Client", Client)
    monkeypatch.setattr(executors, "_check_scheduler", lambda address, timeout: None)
    with pytest.raises(EnvironmentFault) as raised:
        list(DaskExecutor("tcp://127.0.0.1:9", connect_timeout=1).map_unordered(time.sleep, [(0,)]))
    assert str(raised.value) == ("--dask tcp://127.0.0.1:9: the connection to the Dask scheduler was lost in the "
                                 "middle of the run (it stopped, or the network failed)")


@pytest.mark.slow
def test_a_scheduler_without_workers_is_named_within_the_timeout(scheduler):
    address, _, _ = scheduler
    started = time.monotonic()
    with pytest.raises(EnvironmentFault) as raised:
        list(DaskExecutor(address, connect_timeout=2).map_unordered(time.sleep, [(0,)]))
    assert time.monotonic() - started < 20
    assert str(raised.value) == (f"--dask {address}: the scheduler answers but no worker joined it within 2 s; start "
                                 f"workers (`dask worker {address}`) or raise --dask-timeout")


@pytest.mark.slow
@pytest.mark.parametrize("victim", ["scheduler", "worker"])
def test_a_cluster_that_fails_mid_run_is_an_environment_fault(scheduler, victim):
    address, start_worker, spawned = scheduler
    worker = start_worker()
    results = DaskExecutor(address, connect_timeout=3).map_unordered(time.sleep, [(1,)] * 6)
    next(results)  # the run is under way
    (spawned[0] if victim == "scheduler" else worker).kill()
    started = time.monotonic()
    with pytest.raises(EnvironmentFault) as raised:
        list(results)
    assert time.monotonic() - started < 30
    expected = {"scheduler": f"--dask {address}: the connection to the Dask scheduler was lost in the middle of the "
                             "run (it stopped, or the network failed)",
                "worker": f"--dask {address}: the scheduler has had no workers for 3 s with "}[victim]
    assert str(raised.value).startswith(expected)


@pytest.mark.slow
def test_a_lost_scheduler_on_the_command_line_is_one_line_without_dask_logs(scheduler, tmp_path):
    address, start_worker, spawned = scheduler
    start_worker()
    time.sleep(3)
    proc = subprocess.Popen([*CLI, "simulate", "uniform-convergence", "--quick", "--no-figures", "--dask", address,
                             "--out", str(tmp_path / "o")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not any((tmp_path / "o" / "records").glob("*.json")) and time.monotonic() < deadline:
            time.sleep(0.2)
        spawned[0].kill()
        _, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    lines = [line for line in err.splitlines() if not line.startswith(("[", "uniform-convergence ("))]
    assert proc.returncode == 2 and lines == [
        f"lfverify simulate: stopped: --dask {address}: the connection to the Dask scheduler was lost in the middle "
        f"of the run (it stopped, or the network failed); {KEPT}"], err


def test_a_dead_worker_whose_exit_code_arrives_after_join_is_still_named():
    """The race behind a flaky "ended abruptly" under load: the pool's manager thread reaps the killed worker, so our
    join returns at once and the exit code is stored a moment later.  A stand-in process whose code appears 50 ms
    after join must still be named with its signal; one whose code never appears (alive) is not."""
    import time as _time

    from lfverify.parallel._executors import _broken_pool

    class _Late:
        pid = 4242

        def __init__(self, code, after):
            self._code, self._ready = code, _time.monotonic() + after

        def join(self, timeout=None):
            return None

        @property
        def exitcode(self):
            return self._code if _time.monotonic() >= self._ready else None

    assert _broken_pool([_Late(-9, 0.05)]).startswith("worker process 4242 was killed by SIGKILL")
    assert _broken_pool([_Late(-9, 5.0)]).startswith("a worker process ended abruptly")
