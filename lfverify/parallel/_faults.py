"""Faults of the environment that the executors meet: not bugs of lfverify, and not the user's input.

:class:`EnvironmentFault` is raised by :mod:`lfverify.parallel._executors` for a worker process killed from
outside (the kernel's out-of-memory killer sends SIGKILL), a Dask scheduler lost in the middle of a run, a Dask
scheduler with no workers, or a Dask worker that died running a task.  Its message is one line saying what
happened and what to try; the command line adds that every finished record is kept and exits with status 2
(``lfverify/app/_failures.py``).
"""

from __future__ import annotations

import signal

__all__ = ["EnvironmentFault", "describe_exit"]


class EnvironmentFault(RuntimeError):
    """The run cannot go on because of the machine or the cluster (one-line message)."""


def describe_exit(exitcode) -> str:
    """How a worker process ended, in words, from its ``exitcode`` (negative: the signal that killed it)."""
    if exitcode is None:
        return "ended abruptly"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        why = " (what the kernel's out-of-memory killer sends; see `dmesg`)" if name == "SIGKILL" else ""
        return f"was killed by {name}{why}"
    return f"exited with status {exitcode}"
