"""Where the tasks of a study run: in this process, in local worker processes, or on a Dask cluster.

Every executor has one method, ``map_unordered(function, argument_tuples)``, yielding ``(index, result)`` as
tasks finish (in any order); the engine writes each result to disk at once.  The numbers never depend on the
executor: every task draws from its own ``SeedSequence`` (see :mod:`lfverify.simulations`), and the worker
processes limit BLAS to one thread (``threadpoolctl``, when installed), the parallelism being across tasks.

* :class:`SerialExecutor` - in-process, in task order (debugging, tests, tiny studies).
* :class:`ProcessExecutor` - ``concurrent.futures.ProcessPoolExecutor`` with ``max_workers`` (default: all
  cores) processes started with the "spawn" method (no fork of a process holding BLAS or tqdm threads).  Under the
  command line (unless ``--debug``) their standard error is a pipe relayed without the traceback of a dying worker
  (``lfverify/parallel/_worker_stderr.py``).
* :class:`DaskExecutor` - ``distributed.Client`` connected to ``address`` (``--dask tcp://host:port``), or to a
  ``LocalCluster`` of ``n_workers`` single-threaded worker processes that it starts and stops
  (``--dask-local N``).  Needs the ``distributed`` extra (``pip install ".[distributed]" in a clone``).

No worker outlives its run:

* an exception in the consumer (a failed task, Ctrl-C, or SIGTERM turned into an exception by ``lfverify``'s
  command line) stops the workers at once: the process pool's workers are terminated (killed if they do not stop
  within a few seconds) instead of finishing their tasks, and the Dask client and LocalCluster are closed with a
  timeout;
* a worker process whose parent dies (SIGKILL, a crash) exits on its own: on Linux the kernel sends it SIGKILL
  (``prctl(PR_SET_PDEATHSIG)``), and everywhere a watchdog thread exits when ``os.getppid()`` changes.  Dask
  LocalCluster workers get the same from ``distributed`` (each nanny-started worker exits when the pipe its parent
  holds open closes);
* workers ignore SIGINT: a Ctrl-C reaches the whole process group, and only the parent handles it.  The workers
  are started while this process ignores SIGINT (a disposition inherited through exec).  A Ctrl-C in those
  moments - milliseconds for the process pool, the 2-3 s a LocalCluster takes to start - stays pending (SIGINT is
  also blocked in the main thread) unless the kernel hands it to an older thread, such as a BLAS thread, which
  then ignores it: press Ctrl-C again once the run has started.

A Dask scheduler address is checked before the first task (:meth:`DaskExecutor.check`): within
``connect_timeout`` seconds (``--dask-timeout``, default :data:`DASK_CONNECT_TIMEOUT`) something must listen
there and answer Dask's handshake and an ``identity`` request as a scheduler; otherwise one ValueError names the
address and what to try.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import ctypes
import logging
import os
import pickle
import signal
import socket
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures import CancelledError as _CancelledError
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context, resource_tracker
from multiprocessing import process as mp_process

from lfverify.core import check_real
from lfverify.parallel._faults import EnvironmentFault, describe_exit
from lfverify.parallel._worker_stderr import StderrRelay, relay_wanted, relayed_spawn_context

__all__ = ["SerialExecutor", "ProcessExecutor", "DaskExecutor", "make_executor", "EXECUTORS",
           "DASK_CONNECT_TIMEOUT", "start_resource_tracker"]

#: Names accepted by :func:`make_executor` (besides an executor instance).
EXECUTORS = ("serial", "processes", "dask")

#: Seconds allowed by default to reach a Dask scheduler and hear it answer (``--dask-timeout``).
DASK_CONNECT_TIMEOUT = 10.0
#: Seconds a stopped worker or cluster is given before it is killed.
_STOP_TIMEOUT = 5.0
#: Seconds between two checks of a Dask cluster while no task finishes (workers left, scheduler alive).
_POLL_SECONDS = 1.0
#: Seconds between two parent checks of a worker's watchdog.
_PARENT_POLL_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1


def _single_threaded_blas() -> None:
    """Worker initializer: one BLAS thread per worker process (the parallelism is across tasks)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional; results are still reproducible, only slower
        return
    threadpool_limits(1)


def _exit_with_parent(parent_pid: int) -> None:
    """Make this worker process exit when the process ``parent_pid`` that started it dies (module docstring)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # no libc or no prctl: the watchdog still works
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before the line above took effect
        os._exit(1)

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(_PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="lfverify-parent-watchdog", daemon=True).start()


@contextlib.contextmanager
def _sigint_held():
    """Start worker processes under this (module docstring): SIGINT (and SIGHUP: a closed terminal signals the whole
    process group, and the parent stops the workers) is ignored, a disposition the workers inherit through exec (a
    blocked mask is not: multiprocessing's spawn clears it), and blocked in this thread - and so in
    the threads started meanwhile, which start Dask's workers - so that a Ctrl-C arriving now stays pending and is
    delivered when this ends instead of being lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    blocking = hasattr(signal, "pthread_sigmask")
    held = {signal.SIGINT, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, held) if blocking else None
    previous = {signum: signal.signal(signum, signal.SIG_IGN) for signum in held}
    try:
        yield
    finally:
        for signum, handler in previous.items():  # first the handlers, then a pending Ctrl-C or SIGHUP, if any
            signal.signal(signum, handler)
        if blocking:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker now, with SIGINT and SIGHUP ignored (inherited through exec).

    The tracker is otherwise started by the first library that makes a semaphore (scikit-learn's joblib does, on
    import) and dies of a closed terminal's SIGHUP, which reaches the whole process group; multiprocessing then
    relaunches it with a warning and KeyError tracebacks on stderr.  The command line calls this before it imports
    a command that runs workers; nothing happens if the tracker runs already.
    """
    with _sigint_held(), contextlib.suppress(Exception):
        resource_tracker.ensure_running()


def _process_worker_initializer(parent_pid: int) -> None:
    """Initializer of the process pool's workers: exit with the parent, leave Ctrl-C and SIGHUP (a closed terminal
    reaches the whole process group) to it, one BLAS thread."""
    _exit_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    _single_threaded_blas()


#: Local worker processes allowed per usable CPU: more only add memory (each worker holds an interpreter, NumPy
#: and its task's data), so a count beyond this is refused rather than started (memory bounded whatever the count).
WORKERS_PER_CPU = 4


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the platform has one)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux: every CPU
        return os.cpu_count() or 1


def max_local_workers() -> int:
    """The most local worker processes an executor starts: :data:`WORKERS_PER_CPU` per usable CPU."""
    return WORKERS_PER_CPU * usable_cpus()


def _check_workers(value, name):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive int; got {value!r}")
    if value > max_local_workers():
        raise ValueError(f"{name} must be at most {max_local_workers()} ({WORKERS_PER_CPU} per usable CPU, "
                         f"{usable_cpus()} here: more processes only add memory); got {value!r}")
    return value


class SerialExecutor:
    """Run every task in this process, in order."""

    name = "serial"

    def map_unordered(self, function, argument_tuples):
        for index, arguments in enumerate(argument_tuples):
            yield index, function(*arguments)

    def check(self) -> None:
        """Nothing to check (see :meth:`DaskExecutor.check`)."""

    def describe(self) -> str:
        return "serial (in-process)"


class ProcessExecutor:
    """Run tasks in ``max_workers`` local processes (default ``os.cpu_count()``).

    At most ``2 * max_workers`` tasks are in flight, so a large study does not pickle all its arguments at once.
    A main script that the spawned workers cannot run again (read from standard input) is refused with a ValueError
    before any worker starts.
    """

    name = "processes"

    def __init__(self, max_workers: int | None = None):
        self.max_workers = _check_workers(max_workers, "max_workers") or os.cpu_count() or 1
        self._kept = None  # inside workers_kept(): None until a map starts the pool, then (pool, relay)
        self._keeping = False

    @contextlib.contextmanager
    def workers_kept(self):
        """Within the block, consecutive ``map_unordered`` calls share one pool of workers, started by the first
        (a spawned worker takes seconds to import lfverify; ``lfverify verify`` runs several studies and the
        benchmark in a row).  The pool is shut down when the block ends, and stopped at once (as a failed map stops
        its own) when the block ends with an exception.  Results never depend on it: every task seeds itself."""
        if self._keeping:  # nested: the outer block owns the pool
            yield self
            return
        self._keeping = True
        failed = True
        try:
            yield self
            failed = False
        finally:
            kept, self._kept, self._keeping = self._kept, None, False
            if kept is not None:
                self._release(*kept, stop=failed)

    @staticmethod
    def _release(pool, relay, *, stop: bool) -> None:
        try:
            if stop:  # an error, Ctrl-C, SIGTERM or an abandoned iteration: stop the workers now
                _stop_pool(pool)
            else:
                pool.shutdown(wait=True)
        finally:
            if relay is not None:
                relay.close()

    def _pool(self):
        """(pool, relay): the kept pool inside workers_kept(), else a new one."""
        if self._kept is not None:
            return self._kept
        relay = StderrRelay() if relay_wanted() else None  # a dying worker's traceback off the terminal
        context = get_context("spawn") if relay is None else relayed_spawn_context(relay)
        pool = ProcessPoolExecutor(max_workers=self.max_workers, mp_context=context,
                                   initializer=_process_worker_initializer, initargs=(os.getpid(),))
        if self._keeping:
            self._kept = (pool, relay)
        return pool, relay

    def map_unordered(self, function, argument_tuples):
        arguments = list(argument_tuples)
        if not arguments:
            return
        _check_spawnable_main()
        pool, relay = self._pool()
        finished = False
        workers = dict(getattr(pool, "_processes", None) or {})  # a kept pool's workers, if any, from the start
        try:
            pending = {}
            queue = iter(enumerate(arguments))
            # a worker that died from outside (while this map runs, or while a kept pool was idle) breaks the pool:
            # not a bug, the EnvironmentFault says which worker and how
            try:
                if getattr(pool, "_broken", False) or any(p.exitcode is not None for p in workers.values()):
                    # a kept worker died while the pool was idle: the pool's own thread may not have noticed yet, and
                    # a task taken by a live worker could then finish first (a race, seen under load); say so now
                    raise BrokenProcessPool("a worker of the kept pool died while the pool was idle")
                with _sigint_held():  # the first submissions start the workers
                    for index, args in queue:
                        pending[pool.submit(function, *args)] = index
                        if len(pending) >= 2 * self.max_workers:
                            break
                workers.update(getattr(pool, "_processes", None) or {})
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    workers.update(getattr(pool, "_processes", None) or {})
                    for future in done:
                        index = pending.pop(future)
                        result = future.result()
                        yield index, result
                        nxt = next(queue, None)
                        if nxt is not None:
                            pending[pool.submit(function, *nxt[1])] = nxt[0]
            except BrokenProcessPool as exc:
                raise EnvironmentFault(_broken_pool(workers.values(), relay)) from exc
            finished = True
        finally:
            kept = self._kept is not None and self._kept[0] is pool
            if not finished and kept:
                self._kept = None  # the pool is stopped, kept or not: a later map in the block starts a new one
            if not finished or not kept:
                self._release(pool, relay, stop=not finished)

    def check(self) -> None:
        """Nothing to check (see :meth:`DaskExecutor.check`)."""

    def check_arguments(self, arguments) -> None:
        """Refuse, before any task runs, one task's ``arguments`` that a spawned worker cannot receive: what the
        standard pickle cannot serialise (a lambda, a function defined inside another), and functions of an
        interactive ``__main__`` (standard input, a notebook), which a spawned worker cannot import.

        Raises
        ------
        TypeError
            Naming the object and the ways out (a module file, ``executor="serial"``, Dask).
        """
        way_out = ("define it at the top level of a module file (or of the script you run), or run with "
                   "executor='serial' / --serial, or on Dask, which sends functions by value")
        try:
            pickle.dumps(arguments)
        except Exception as exc:  # noqa: BLE001 (pickle raises several kinds)
            raise TypeError(f"cannot send a task to worker processes: {' '.join(str(exc).split())}; {way_out}") \
                from None
        if getattr(sys.modules.get("__main__"), "__file__", None):
            return
        for obj in _callables(arguments):
            if getattr(obj, "__module__", None) == "__main__":
                raise TypeError(f"{getattr(obj, '__qualname__', obj)!r} is defined in an interactive session "
                                f"(__main__ without a file), which worker processes cannot import; {way_out}")

    def describe(self) -> str:
        return f"{self.max_workers} local processes"


def keeping_workers(executor):
    """The block in which ``executor``'s consecutive runs share one pool of workers: its ``workers_kept()`` where it
    has one (:class:`ProcessExecutor`), else a block that does nothing (an executor needs only ``map_unordered``)."""
    keep = getattr(executor, "workers_kept", None)
    return keep() if keep is not None else contextlib.nullcontext()


def _check_spawnable_main() -> None:
    """Refuse, before any worker starts, a main script that spawned workers cannot run again: multiprocessing's
    "spawn" re-runs ``__main__`` in each worker (from its ``__file__``, or by name after ``-m`` unless it is a
    package's ``__main__``).  A script read from standard input (``python - < script.py``: ``__file__`` is
    "<stdin>") has no such file, and a script that starts the workers outside ``if __name__ == "__main__":`` would
    start them again in every worker (:func:`_check_main_guard`); either way every worker would die at start and the
    run end as if a worker had been killed from outside.

    Raises
    ------
    ValueError
        Naming the main script and the ways out.
    """
    main = sys.modules.get("__main__")
    name = getattr(getattr(main, "__spec__", None), "name", None)
    path = getattr(main, "__file__", None)
    if name is not None:  # python -m: the workers import the module by name, a package's __main__ not at all
        if name != "__main__" and not name.endswith(".__main__") and path is not None:
            _check_main_guard(main, path)
        return
    if path is None:
        return  # python -c, an interactive session: nothing is re-run (check_arguments refuses their functions)
    where = path if os.path.isabs(path) else os.path.join(mp_process.ORIGINAL_DIR or "", path)  # as spawn finds it
    if not os.path.isfile(where):
        raise ValueError(f"worker processes cannot start: each runs the main script again from its file, and "
                         f"{path!r} is not a file (a script read from standard input?); run it from a file, or with "
                         f"executor='serial' / --serial, or on Dask")
    _check_main_guard(main, where, shown=path)


def _check_main_guard(main, path: str, shown: str | None = None) -> None:
    """Refuse a main script whose top-level code starts the workers outside ``if __name__ == "__main__":``: each
    spawned worker runs the script again (as ``__mp_main__``), reaches the same call and would start workers of its
    own, which multiprocessing refuses in a worker that is still starting, so every worker dies.  Read from the
    script's syntax tree at the line of its top-level frame on the current stack (nothing is refused where that
    frame or the file's text cannot be found); ``shown``: the path as the user gave it, for the message."""
    frame, line = sys._getframe(), None
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals is vars(main):
            line = frame.f_lineno  # the outermost such frame: the script's own top level
        frame = frame.f_back
    if line is None:
        return
    try:
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), filename=path)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return
    for node in ast.walk(tree):  # (a guard inside a top-level try or with block counts too)
        if isinstance(node, ast.If) and _is_main_test(node.test) and node.lineno <= line <= node.end_lineno:
            return
    raise ValueError(f"worker processes cannot start: each runs the main script {shown or path!r} again, and its "
                     f"line {line} starts them outside `if __name__ == \"__main__\":`, so every worker would start "
                     f"workers of its own and die; put the script's top-level calls under that guard, or use "
                     f"executor='serial' / --serial")


def _is_main_test(test) -> bool:
    """``__name__ == "__main__"`` (either order)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = {ast.dump(test.left), ast.dump(test.comparators[0])}
    return sides == {ast.dump(ast.Name("__name__", ast.Load())), ast.dump(ast.Constant("__main__"))}


def _callables(value, depth: int = 0):
    """The functions and classes in ``value`` (tuples, lists, dicts and dataclass fields, a few levels deep)."""
    if depth > 4:
        return
    if callable(value) and hasattr(value, "__module__"):
        yield value
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from _callables(item, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _callables(item, depth + 1)


#: What a worker's last error line says when memory ran out outside Python's allocator: ENOMEM's text, and the
#: dynamic loader's words when an address-space limit stops it mapping a shared library (an ImportError).
_OUT_OF_MEMORY_SIGNS = ("Cannot allocate memory", "[Errno 12]", "failed to map segment from shared object")


def _broken_pool(processes, relay=None) -> str:
    """One line on a process pool whose worker died: which worker, how (its exit code and, from ``relay``, the last
    line of the traceback it printed: a MemoryError is said as running out of memory), what to try."""
    deadline = time.monotonic() + 1.0
    dead = []
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(max(0.0, deadline - time.monotonic()))
            # the pool's own manager thread may be reaping the same process: our waitpid then finds no child and
            # join returns before that thread has stored the exit code (measured under load: 2 of 10 kills read
            # as "ended abruptly"), so wait for the code itself, within the same deadline
            while process.exitcode is None and time.monotonic() < deadline:
                time.sleep(0.005)
            if process.exitcode not in (None, 0):
                dead.append(process)
    # a broken pool terminates (SIGTERM) the workers still running: name the one that died first, of something else
    dead.sort(key=lambda process: process.exitcode == -signal.SIGTERM)
    said = relay.wait_for_error(1.0) if relay is not None and any(p.exitcode > 0 for p in dead) else None
    if dead and said is not None and said.split(":")[0] == "MemoryError":
        how = f"worker process {dead[0].pid} ran out of memory (MemoryError; {describe_exit(dead[0].exitcode)})"
    elif dead and said is not None and any(sign in said for sign in _OUT_OF_MEMORY_SIGNS):
        how = (f"worker process {dead[0].pid} ran out of memory ({' '.join(said.split())[:200]}; "
               f"{describe_exit(dead[0].exitcode)})")
    elif dead:
        how = f"worker process {dead[0].pid} {describe_exit(dead[0].exitcode)}"
        if said is not None:
            how += f" after {' '.join(said.split())[:200]}"
    else:
        how = "a worker process ended abruptly"
    return (f"{how} while running a task; a worker killed from outside (out of memory, a signal) stops the run - "
            "use fewer --workers if memory is short")


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and stop the running workers now: SIGTERM, then SIGKILL after a timeout."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.terminate()
    deadline = time.monotonic() + _STOP_TIMEOUT
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(_STOP_TIMEOUT)


class DaskExecutor:
    """Run tasks on a Dask distributed cluster: an existing scheduler at ``address``, or a LocalCluster of
    ``n_workers`` processes (one thread each) started here and closed when the study ends.

    ``connect_timeout`` (seconds, default :data:`DASK_CONNECT_TIMEOUT`) bounds the wait for the scheduler at
    ``address``: see :meth:`check`."""

    name = "dask"

    def __init__(self, address: str | None = None, *, n_workers: int | None = None,
                 connect_timeout: float | None = None):

        if (address is None) == (n_workers is None):
            raise ValueError("DaskExecutor needs exactly one of address (e.g. 'tcp://host:8786') and n_workers "
                             f"(a LocalCluster); got address={address!r}, n_workers={n_workers!r}")
        if address is not None and (not isinstance(address, str) or not address):
            raise ValueError(f"address must be a scheduler address such as 'tcp://127.0.0.1:8786'; got {address!r}")
        self.address = address
        self.n_workers = _check_workers(n_workers, "n_workers")
        self.connect_timeout = DASK_CONNECT_TIMEOUT if connect_timeout is None else check_real(
            connect_timeout, "connect_timeout (--dask-timeout)", low=0.0, low_inclusive=False)
        _import_distributed()  # fail early, with the install hint

    def check(self) -> None:
        """Make sure a Dask scheduler answers at ``address`` within ``connect_timeout`` seconds (nothing to check
        for a LocalCluster).

        Raises
        ------
        ValueError
            Naming the address and what to try, if the address is malformed, nothing listens there, nothing
            answers in time, or what answers is not a Dask scheduler (an HTTP server, for instance).
        """
        if self.address is not None:
            _check_scheduler(self.address, self.connect_timeout)

    def map_unordered(self, function, argument_tuples):
        distributed = _import_distributed()
        arguments = list(argument_tuples)
        if not arguments:
            return
        cluster = None
        if self.address is None:
            # silence_logs: the workers' warnings about tasks cancelled by an interruption stay off the terminal
            with _sigint_held():
                cluster = distributed.LocalCluster(n_workers=self.n_workers, threads_per_worker=1, processes=True,
                                                   dashboard_address=None, silence_logs=logging.ERROR)
            client = distributed.Client(cluster)
        else:
            self.check()
            try:
                client = distributed.Client(self.address, timeout=self.connect_timeout)
            except (OSError, TimeoutError) as exc:
                raise ValueError(_dask_advice(self.address, f"the client could not connect ({exc})",
                                              self.connect_timeout)) from exc
        finished = False
        try:
            try:  # a worker that dies now is left to the wait below (no workers for connect_timeout seconds)
                if self.address is not None:
                    self._wait_for_workers(client)
                client.run(_single_threaded_blas, on_error="ignore")
                futures = [client.submit(function, *args, pure=False) for args in arguments]
            except OSError as exc:  # CommClosedError: the scheduler died while the run started
                raise EnvironmentFault(self._lost()) from exc
            index_of = {future.key: index for index, future in enumerate(futures)}
            yield from self._results(distributed, client, futures, index_of)
            finished = True
        finally:
            logger = logging.getLogger("distributed")
            level = logger.level
            if not finished:  # the cancelled tasks' warnings are expected: keep the terminal to one line
                logger.setLevel(logging.CRITICAL)
            try:
                with contextlib.suppress(Exception):
                    client.close(timeout=_STOP_TIMEOUT)
                if cluster is not None:
                    with contextlib.suppress(Exception):
                        cluster.close(timeout=_STOP_TIMEOUT)
            finally:
                logger.setLevel(level)

    def describe(self) -> str:
        return f"Dask at {self.address}" if self.address else f"Dask LocalCluster of {self.n_workers} processes"

    def _where(self) -> str:
        return f"--dask {self.address}" if self.address else f"--dask-local {self.n_workers}"

    def _wait_for_workers(self, client) -> None:
        """EnvironmentFault unless the scheduler has a worker within ``connect_timeout`` seconds."""
        try:
            client.wait_for_workers(1, timeout=self.connect_timeout)
        except (TimeoutError, asyncio.TimeoutError) as exc:
            raise EnvironmentFault(f"{self._where()}: the scheduler answers but no worker joined it within "
                                   f"{self.connect_timeout:g} s; start workers (`dask worker {self.address}`) or "
                                   "raise --dask-timeout") from exc

    def _results(self, distributed, client, futures, index_of):
        """(index, result) as the futures finish; an EnvironmentFault for a lost scheduler, a worker that died
        running a task, or a cluster left without workers for ``connect_timeout`` seconds (never an endless wait)."""
        pending, alone_since = set(futures), None
        while pending:
            try:
                done, pending = distributed.wait(pending, timeout=_POLL_SECONDS, return_when="FIRST_COMPLETED")
            except (TimeoutError, asyncio.TimeoutError):
                done = set()
            except Exception as exc:  # noqa: BLE001 - the client's own failure: the scheduler is gone
                raise EnvironmentFault(self._lost()) from exc
            for future in done:
                try:
                    result = future.result()
                except distributed.KilledWorker as exc:
                    raise EnvironmentFault(f"{self._where()}: the Dask workers running a task died ({exc}; out of "
                                           "memory or killed from outside); use more memory per worker") from exc
                except _CancelledError as exc:
                    raise EnvironmentFault(self._lost()) from exc
                yield index_of[future.key], result
            if done:
                alone_since = None
                continue
            if getattr(client, "status", "running") not in ("running", "connecting"):
                raise EnvironmentFault(self._lost())
            try:
                workers = len(client.scheduler_info().get("workers", {}))
            except Exception as exc:  # noqa: BLE001 - as above
                raise EnvironmentFault(self._lost()) from exc
            if workers:
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > self.connect_timeout:
                raise EnvironmentFault(f"{self._where()}: the scheduler has had no workers for "
                                       f"{self.connect_timeout:g} s with {len(pending)} tasks left (the workers died "
                                       "or were stopped); start workers or raise --dask-timeout")

    def _lost(self) -> str:
        return (f"{self._where()}: the connection to the Dask scheduler was lost in the middle of the run (it "
                "stopped, or the network failed)")


def _dask_advice(address: str, problem: str, timeout: float | None = None) -> str:
    slow = "" if timeout is None else f", raise --dask-timeout (now {timeout:g} s) on a slow network"
    return (f"--dask {address}: {problem}; check the address (`dask scheduler` listens on tcp://HOST:8786){slow}, "
            "or run locally with --dask-local N or --workers N")


def _check_scheduler(address: str, timeout: float) -> None:
    """Raise ValueError (:func:`_dask_advice`) unless a Dask scheduler answers at ``address`` within ``timeout``."""
    from distributed.comm import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address, strict=False)
        host, port = parse_host_port(location) if scheme in ("tcp", "tls") else (None, None)
    except (ValueError, TypeError) as exc:
        raise ValueError(_dask_advice(address, f"not a scheduler address such as tcp://127.0.0.1:8786 ({exc})")) \
            from exc
    if scheme in ("tcp", "tls"):
        try:  # refused or unreachable: say so at once, without the client's retries
            socket.create_connection((host, port), timeout=timeout).close()
        except socket.timeout as exc:
            raise ValueError(_dask_advice(address, f"no answer within {timeout:g} s (host unreachable or port "
                                                   "filtered)", timeout)) from exc
        except OSError as exc:
            raise ValueError(_dask_advice(address, f"cannot connect ({exc.strerror or exc})")) from exc
    outcome = {}

    def probe():
        async def identity():
            from distributed.comm import connect

            comm = await connect(address, timeout=timeout)
            try:
                await comm.write({"op": "identity", "reply": True})
                return await comm.read()
            finally:
                comm.abort()

        try:
            outcome["reply"] = asyncio.run(asyncio.wait_for(identity(), timeout))
        except BaseException as exc:  # noqa: BLE001 - anything here means "not a scheduler that answers"
            outcome["error"] = exc

    thread = threading.Thread(target=probe, name="lfverify-dask-probe", daemon=True)
    thread.start()
    thread.join(timeout + _STOP_TIMEOUT)
    error, reply = outcome.get("error"), outcome.get("reply")
    if thread.is_alive() or isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        raise ValueError(_dask_advice(address, f"something listens there but no Dask scheduler answered within "
                                               f"{timeout:g} s (is it another service?)", timeout))
    if error is not None:
        raise ValueError(_dask_advice(address, "what answers there is not a Dask scheduler (its reply is not Dask's "
                                               f"protocol: {type(error).__name__}); is it an HTTP server or another "
                                               "service?")) from error
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise ValueError(_dask_advice(address, "what answers there is not a Dask scheduler (its identity: "
                                               f"{str(reply)[:80]!r})"))


def _import_distributed():
    try:
        import distributed
    except ImportError as exc:
        raise ValueError("the Dask executor needs the 'distributed' extra: pip install \"lfverify[distributed]\"") \
            from exc
    return distributed


def make_executor(executor="processes", *, workers: int | None = None, dask_address: str | None = None,
                  dask_local: int | None = None, dask_timeout: float | None = None):
    """An executor from a name ("serial", "processes", "dask") or an instance (returned as is).

    ``workers`` sets the number of local processes; ``dask_address`` / ``dask_local`` select the Dask executor
    (a scheduler address, or the size of a LocalCluster to start) and may not be combined; ``dask_timeout`` is
    the seconds allowed to reach the scheduler (:class:`DaskExecutor`).
    """
    if hasattr(executor, "map_unordered"):
        return executor
    if dask_address is not None and dask_local is not None:
        raise ValueError("give either a Dask scheduler address (--dask) or a LocalCluster size (--dask-local), "
                         "not both")
    if dask_address is not None or dask_local is not None:
        return DaskExecutor(dask_address, n_workers=dask_local, connect_timeout=dask_timeout)
    if executor == "serial":
        return SerialExecutor()
    if executor == "processes":
        return ProcessExecutor(workers)
    if executor == "dask":
        raise ValueError("the Dask executor needs a scheduler address or a LocalCluster size "
                         "(dask_address / dask_local)")
    raise ValueError(f"executor must be one of {EXECUTORS} or an executor instance; got {executor!r}")
