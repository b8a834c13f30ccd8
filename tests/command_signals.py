"""A real signal sent to this process in the middle of an ``lfverify`` command (``tests/app/test_cli_surface.py``'s
SIGTERM, ``tests/faults/test_environment_faults.py``'s SIGHUP): the one way both are provoked.

Private: lfverify.app._cli, whose signal handler (_terminate) and command table (command_module) the signal tests drive
in-process.
"""

from __future__ import annotations

import os
import signal
import time

import lfverify.app._cli as cli


def signal_during_a_command(monkeypatch, signum) -> tuple[int, list, object]:
    """Run ``lfverify metrics`` with its command replaced by one that sends ``signum`` to this process and waits;
    return (the exit status of :func:`lfverify.app._cli.main`, the handlers of ``signum`` the command saw, the
    handler before).  The signal is sent only while lfverify's handler is installed, never to pytest without it."""
    previous = signal.getsignal(signum)
    seen = []

    def command(args):
        seen.append(signal.getsignal(signum))
        if seen[0] is not cli._terminate:
            return 0
        os.kill(os.getpid(), signum)
        for _ in range(200):  # the handler runs in the main thread between bytecodes
            time.sleep(0.01)
        return 0

    monkeypatch.setattr(cli.command_module("metrics"), "run", command)
    return cli.main(["metrics"]), seen, previous
