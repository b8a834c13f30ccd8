"""The standard error of the local worker processes, relayed by this process without the tracebacks of a dying one.

A worker that cannot go on - an address-space limit (``RLIMIT_AS``) makes every allocation fail, also in
multiprocessing's own code while the worker imports its modules or waits for a task - dies printing Python's
traceback on its standard error, which is the terminal, before the command's one line says what happened.  While
:func:`quiet_worker_tracebacks` is in effect (the command line, unless ``--debug``), the process pool's workers are
started with their standard error on a pipe (its descriptor 2 set at the spawn itself, so the first byte the worker
writes is covered): a thread of this process copies what they write to this process's ``sys.stderr`` as it comes,
except a traceback (``Traceback (most recent call last):`` up to the exception's line, with multiprocessing's
``Process SpawnProcess-N:`` header and the lines that chain exceptions), whose last line it keeps
(:attr:`StderrRelay.last_error`) for the one line the command prints.  Warnings and other output of the workers
still reach the terminal.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
import time
from multiprocessing.context import SpawnContext, SpawnProcess

__all__ = ["StderrRelay", "quiet_worker_tracebacks", "relay_wanted", "relayed_spawn_context"]

_QUIET = {"on": False}
#: Lines that open a held-back traceback block.
_OPENS = re.compile(r"^(Traceback \(most recent call last\):|Process \S+:|During handling of the above exception"
                    r"|The above exception was the direct cause)")


@contextlib.contextmanager
def quiet_worker_tracebacks(on: bool = True):
    """For the block, the process pool's workers' tracebacks stay off this process's stderr (module docstring)."""
    previous = _QUIET["on"]
    _QUIET["on"] = bool(on)
    try:
        yield
    finally:
        _QUIET["on"] = previous


def relay_wanted() -> bool:
    """Whether :func:`quiet_worker_tracebacks` is in effect."""
    return _QUIET["on"]


class StderrRelay:
    """A pipe that worker processes get as their standard error, and the thread that copies it to ``sys.stderr``
    without tracebacks (module docstring).  ``last_error``: the last line of the last traceback held back."""

    def __init__(self):
        self._read, self._write = os.pipe()  # neither end is inherited: a worker gets the write end as its fd 2
        self._lock = threading.Lock()
        self.last_error: str | None = None
        self._thread = threading.Thread(target=self._pump, name="lfverify-worker-stderr", daemon=True)
        self._thread.start()

    @contextlib.contextmanager
    def as_stderr(self):
        """This process's descriptor 2 is the pipe for the block (a worker spawned now inherits it).  The relay's
        own writes wait for the block to end; the other threads' writes meanwhile are relayed too."""
        with self._lock:
            with contextlib.suppress(Exception):
                sys.stderr.flush()
            try:
                saved = os.dup(2)
            except OSError:  # no standard error at all: the worker gets none either
                yield
                return
            os.dup2(self._write, 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
                os.close(saved)

    def _say(self, line: str) -> None:
        with self._lock, contextlib.suppress(Exception):  # a stream that fails is the command's to report
            sys.stderr.write(line)
            sys.stderr.flush()

    def _pump(self) -> None:
        held = False
        with open(self._read, "rb") as pipe:
            for raw in pipe:
                line = raw.decode("utf-8", errors="replace")
                if _OPENS.match(line):
                    held = True
                elif held is True and line.strip() and not line[0].isspace():  # the exception's line ends it
                    self.last_error = line.strip()
                    held = "after"
                elif held is True or (held == "after" and not line.strip()):
                    pass  # a frame of the traceback, or the blank line before a chained exception's header
                else:
                    held = False
                    self._say(line)

    def wait_for_error(self, timeout: float) -> str | None:
        """The last traceback's last line, waiting up to ``timeout`` seconds for one to arrive."""
        deadline = time.monotonic() + timeout
        while self.last_error is None and self._thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.last_error

    def close(self, timeout: float = 2.0) -> None:
        """Close this process's end of the pipe and let the thread copy what the workers wrote (until they end, at
        most ``timeout`` seconds)."""
        with contextlib.suppress(OSError):
            os.close(self._write)
        self._thread.join(timeout)


class _RelayedSpawnProcess(SpawnProcess):
    """A spawned process started with its standard error on a :class:`StderrRelay` (``_relay``, set by the context
    and removed before the process object is pickled for the child)."""

    def _Popen(self, process_obj):  # BaseProcess.start calls self._Popen(self)
        relay = self.__dict__.pop("_relay", None)
        if relay is None:
            return SpawnProcess._Popen(process_obj)
        with relay.as_stderr():
            return SpawnProcess._Popen(process_obj)


class _RelayedSpawnContext(SpawnContext):
    def __init__(self, relay: StderrRelay):
        super().__init__()
        self._relay = relay

    def Process(self, *args, **kwargs):  # noqa: N802 - multiprocessing's name
        process = _RelayedSpawnProcess(*args, **kwargs)
        process._relay = self._relay
        return process


def relayed_spawn_context(relay: StderrRelay):
    """A "spawn" multiprocessing context whose processes start with their standard error on ``relay``."""
    return _RelayedSpawnContext(relay)
