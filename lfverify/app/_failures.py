"""Every way a command can end, in one place: the exit status and the one line the user reads.

* 0 - finished, every claim as expected; 1 - a claim regressed (the command's own output says which).
* 2, ``error: <what, naming the option and the path>`` - an expected failure: bad input or option, an output
  location that cannot be used or is in use by another run, a Dask address that does not answer (ValueError,
  TypeError, OSError).
* 2, ``stopped: <what happened>; every finished record is kept: run the same command again to resume`` - the
  environment failed (:data:`ENVIRONMENT_FAULTS`): a worker killed (out of memory, a signal), a Dask scheduler
  lost or without workers, MemoryError, a standard stream that cannot be written (closed, full, broken pipe).
* 129 / 130 / 143, ``interrupted (SIGHUP: the terminal closed | Ctrl-C | SIGTERM); the workers were stopped and
  every finished record is kept ...`` - the shell's 128 + signal number.
* 3, ``internal error: <type>: <message> (a bug; ...)`` - anything else: a bug of lfverify.

``--debug`` shows the traceback instead of the line, Dask's own log messages and the traceback of a dying worker
process (kept off the terminal otherwise).

Standard streams: :func:`guarded_streams` wraps ``sys.stdout`` and ``sys.stderr`` so that a write that fails (a
full disk, ``> /dev/full``, a reader that went away: ``| head``) is recorded as a :class:`StreamFailure` and every
later write to that stream is dropped (no "Exception ignored" at exit: its descriptor is pointed at ``/dev/null``
so Python's final flush succeeds).  The command goes on to its end, so the files it was asked to write are
complete whatever happens to its streams (issue 44); it then ends with exit 2 and one line saying that its
printed output was cut and its files are complete (:data:`STREAM_LOST`), since a lost line is never a success.  A
stream closed before the start (``>&-``, ``2>&-``) is refused before any work.  The one line goes to whichever
stream still works; if none does, the exit status alone tells.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading

from lfverify.parallel import EnvironmentFault, quiet_worker_tracebacks

__all__ = ["Interrupted", "StreamFailure", "STREAM_LOST", "ENVIRONMENT_FAULTS", "EXPECTED_ERRORS", "SIGNAL_STATUS",
           "classify", "guarded_streams", "signals_as_exceptions", "quiet_cluster_logs"]

#: Exceptions that are expected failures of a command (exit status 2).
EXPECTED_ERRORS = (ValueError, TypeError, OSError)
#: Signal -> (name in the message, exit status): the shell's 128 + signal number.
SIGNAL_STATUS = {signal.SIGINT: ("Ctrl-C", 130), signal.SIGTERM: ("SIGTERM", 143),
                 signal.SIGHUP: ("SIGHUP: the terminal closed", 129)}


class Interrupted(BaseException):
    """Raised in the main thread by SIGTERM or SIGHUP (``signum``), so that the executors' cleanup runs as for
    Ctrl-C."""

    def __init__(self, signum: int = signal.SIGTERM):
        super().__init__(signum)
        self.signum = signum


class StreamFailure(Exception):
    """A write to standard output or standard error failed (``stream``: their names in words; ``reason``)."""

    def __init__(self, stream: str, reason: str):
        super().__init__(f"cannot write to {stream} ({reason})")
        self.stream, self.reason = stream, reason


#: Failures of the environment, not of the input and not bugs: exit status 2 with "every finished record is kept".
ENVIRONMENT_FAULTS = (EnvironmentFault, MemoryError, StreamFailure)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def classify(exc: BaseException) -> tuple[int, str]:
    """(exit status, the text after ``lfverify CMD: ``) for an exception that ended a command."""
    if isinstance(exc, KeyboardInterrupt):
        name, status = SIGNAL_STATUS[signal.SIGINT]
    elif isinstance(exc, Interrupted):
        name, status = SIGNAL_STATUS.get(exc.signum, (f"signal {exc.signum}", 128 + exc.signum))
    else:
        name = None
    if name is not None:
        return status, (f"interrupted ({name}); the workers were stopped and every finished record is kept: run "
                        "the same command again to resume")
    if isinstance(exc, ENVIRONMENT_FAULTS):
        what = "out of memory (MemoryError)" if isinstance(exc, MemoryError) else _one_line(exc)
        return 2, (f"stopped: {what}; every finished record is kept: run the same command again to resume")
    if isinstance(exc, EXPECTED_ERRORS):
        return 2, f"error: {_one_line(exc)}"
    return 3, (f"internal error: {type(exc).__name__}: {_one_line(exc)} (a bug; run again with --debug for the "
               "traceback and please report it)")


# ---------------------------------------------------------------------------------------------- streams
#: The line of a command that finished after one of its standard streams failed (its files are complete).
STREAM_LOST = ("finished, but {failure}: what it printed from then on was lost; every file it was asked to write is "
               "complete")


class _Guarded:
    """A text stream whose failed write is recorded (``failure``), after which every write is dropped."""

    def __init__(self, stream, name: str):
        self._stream, self._name = stream, name
        self.failure: StreamFailure | None = None

    def _fail(self, exc: OSError):
        self.failure = StreamFailure(self._name, exc.strerror or type(exc).__name__)
        with contextlib.suppress(Exception):  # the pending bytes drain into /dev/null at exit, not into an error
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())
            os.close(null)

    def write(self, text):
        if self.failure is not None:
            return len(text)
        try:
            return self._stream.write(text)
        except OSError as exc:
            self._fail(exc)
            return len(text)

    def flush(self):
        if self.failure is not None:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            self._fail(exc)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _say(line: str, *streams) -> None:
    """Write ``line`` to the first of ``streams`` that takes it."""
    for stream in streams:
        if stream is None or getattr(stream, "failure", None) is not None:
            continue
        try:
            stream.write(line + "\n")
            stream.flush()
            return
        except (OSError, StreamFailure, ValueError):
            continue


@contextlib.contextmanager
def guarded_streams():
    """Guard ``sys.stdout`` / ``sys.stderr`` for the block (module docstring); yields ``(out, err)`` and a
    function ``say(line)`` writing one line on stderr, else on stdout."""
    original = sys.stdout, sys.stderr
    out = _Guarded(sys.stdout, "standard output") if sys.stdout is not None else None
    err = _Guarded(sys.stderr, "standard error") if sys.stderr is not None else None
    sys.stdout, sys.stderr = out, err

    def say(line: str) -> None:
        _say(line, err, out)

    try:
        yield out, err, say
    finally:
        for guarded in (out, err):
            if guarded is not None and guarded.failure is None:
                with contextlib.suppress(Exception):
                    guarded.flush()
        sys.stdout, sys.stderr = original


def closed_stream(out, err) -> str | None:
    """The name of a standard stream closed before the start (``>&-``), or None."""
    if out is None:
        return "standard output"
    if err is None:
        return "standard error"
    return None


# ---------------------------------------------------------------------------------------------- signals
def _raise_interrupted(signum, frame):
    raise Interrupted(signum)


@contextlib.contextmanager
def signals_as_exceptions():
    """SIGTERM and SIGHUP raise :class:`Interrupted` in the main thread for the block (as Ctrl-C raises
    KeyboardInterrupt), so that the executors stop their workers and the finished records stay."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGHUP):
            previous[signum] = signal.signal(signum, _raise_interrupted)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def quiet_cluster_logs(debug: bool):
    """Dask's log messages stay off the terminal unless ``debug``: the failure they describe reaches the user as one
    line.  lfverify itself does not log, so every log record of the process is dropped for the block
    (``logging.disable``: ``distributed.client`` and its siblings set their own levels and share one handler, so
    raising the level of ``distributed`` alone is not enough); the worker processes a LocalCluster starts get the
    same through the environment (``DASK_LOGGING__DISTRIBUTED=critical``).  Likewise the traceback a dying local
    worker process prints (``lfverify/parallel/_worker_stderr.py``: the rest of what the workers write is relayed)."""
    if debug:
        yield
        return
    disabled = logging.root.manager.disable
    previous = os.environ.get("DASK_LOGGING__DISTRIBUTED")
    os.environ["DASK_LOGGING__DISTRIBUTED"] = "critical"
    logging.disable(logging.CRITICAL)
    try:
        with quiet_worker_tracebacks():
            yield
    finally:
        logging.disable(disabled)
        if previous is None:
            os.environ.pop("DASK_LOGGING__DISTRIBUTED", None)
        else:
            os.environ["DASK_LOGGING__DISTRIBUTED"] = previous
