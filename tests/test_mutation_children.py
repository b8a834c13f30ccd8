"""benchmarks/mutation_testing.py leaves no child behind (the Standards: no worker left running after its parent dies).

Oracle: the operating system's process table. A parent script runs the tool's child machinery on a child that starts a
grandchild in its own process group and sleeps; each pid is written to a file. The parent is then SIGKILLed (only the
kernel's parent-death signal can help) or SIGTERMed (the tool's handler must kill the whole group and exit 143), and
both pids must be gone within a bounded wait. Found by hand in session 20: killing the tool left `mutmut prepare`
running, because SIGTERM ended Python without running the `except BaseException` that killed the group.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from benchmark_scripts import BENCHMARKS

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal is Linux-only")

SLEEPER = textwrap.dedent('''\
    import subprocess, sys, time
    grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    with open(sys.argv[1], "w") as f:
        f.write(f"{grandchild.pid}\\n")
    time.sleep(120)
''')

PARENT = textwrap.dedent('''\
    import os, sys
    from pathlib import Path
    sys.path.insert(0, {benchmarks!r})
    import mutation_testing as mt

    pid_file, mode, log = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    command = [sys.executable, "-c", {sleeper!r}, pid_file]

    def body(argv):
        mt.run_bounded(command, cwd=Path.cwd(), env=dict(os.environ), log=log, timeout=100, label="sleeper")
        return 0

    if mode == "main":
        mt._main = body
        sys.exit(mt.main([]))
    body([])
''')


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie (dead, not yet reaped) counts as gone
        return f.read().split(") ", 1)[1][0] != "Z"


def _grandchild_pid(pid_file, parent=None):
    """The pid the sleeper writes to ``pid_file`` (its grandchild's), once written (60 s at most); ``parent``, if
    given, must stay alive meanwhile."""
    deadline = time.monotonic() + 60
    while not (pid_file.exists() and pid_file.read_text().endswith("\n")):
        if parent is not None:
            assert parent.poll() is None, parent.stderr.read() if parent.stderr else parent.returncode
        assert time.monotonic() < deadline, "the sleeper never started"
        time.sleep(0.05)
    return int(pid_file.read_text())


def _sleeper_started(pid_file, parent):
    """(the parent's children, the sleeper's grandchild) once the sleeper has written its pid file (60 s at most)."""
    grandchild = _grandchild_pid(pid_file, parent)
    children = [int(p) for p in open(f"/proc/{parent.pid}/task/{parent.pid}/children").read().split()]
    return children, grandchild


def _start(tmp_path, mode):
    pid_file = tmp_path / "pids"
    script = PARENT.format(benchmarks=str(BENCHMARKS), sleeper=SLEEPER)
    parent = subprocess.Popen([sys.executable, "-c", script, str(pid_file), mode, str(tmp_path / "log")],
                              stderr=subprocess.PIPE, text=True)
    children, grandchild = _sleeper_started(pid_file, parent)
    assert len(children) == 1 and _alive(children[0]) and _alive(grandchild)
    return parent, children[0], grandchild


def _gone_within(pids, seconds=20.0):
    deadline = time.monotonic() + seconds
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


def test_a_sigkilled_tool_takes_its_child_with_it(tmp_path):
    parent, child, grandchild = _start(tmp_path, "bare")
    parent.kill()
    parent.wait(timeout=30)
    assert _gone_within([child]) == []  # the parent-death signal; the grandchild is the child's own business
    os.kill(grandchild, signal.SIGKILL)  # (it would exit after 120 s; not ours to test)


def test_a_sigtermed_tool_kills_the_whole_child_group_and_says_so_in_one_line(tmp_path):
    parent, child, grandchild = _start(tmp_path, "main")
    parent.send_signal(signal.SIGTERM)
    _, err = parent.communicate(timeout=30)
    assert parent.returncode == 143
    assert err.strip().splitlines() == [
        "mutation_testing: stopped by SIGTERM; the results table was not updated (the copy keeps what was run)"]
    assert _gone_within([child, grandchild]) == []


def test_the_control_a_plain_popen_child_outlives_a_sigkilled_parent(tmp_path):
    """The check above can fail: without the tool's prefix, the same child survives its parent's SIGKILL."""
    pid_file = tmp_path / "pids"
    script = ("import subprocess, sys, time\n"
              f"subprocess.Popen([sys.executable, '-c', {SLEEPER!r}, {str(pid_file)!r}], start_new_session=True)\n"
              "time.sleep(120)\n")
    parent = subprocess.Popen([sys.executable, "-c", script])
    (child,), grandchild = _sleeper_started(pid_file, parent)
    parent.kill()
    parent.wait(timeout=30)
    try:
        assert _gone_within([child], seconds=1.0) == [child]
    finally:
        os.kill(child, signal.SIGKILL)
        os.kill(grandchild, signal.SIGKILL)


def test_an_interrupted_thread_pool_kills_its_childrens_groups_and_lets_children_start_again(tmp_path):
    """An exception leaving ``_thread_pool``'s block (what Ctrl-C does in a widened run) kills the live child's
    whole group and waits for its thread; afterwards a direct caller (not main(), which clears the flag itself)
    can start children again.  Oracle: the process table, and a later child's exit status."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    import mutation_testing as mt

    pid_file = tmp_path / "pids"

    def sleep_in_a_child(_):
        return mt.wait_child(mt.start_child([sys.executable, "-c", SLEEPER, str(pid_file)]), 100)

    with pytest.raises(KeyboardInterrupt):
        with mt._thread_pool(2) as pool:
            future = pool.submit(sleep_in_a_child, None)
            grandchild = _grandchild_pid(pid_file)
            raise KeyboardInterrupt
    assert future.done() and future.result() == -signal.SIGKILL  # its child was killed, not left to time out
    assert _gone_within([grandchild]) == [] and not mt._LIVE_GROUPS
    assert mt.wait_child(mt.start_child([sys.executable, "-c", "pass"]), 30) == 0
