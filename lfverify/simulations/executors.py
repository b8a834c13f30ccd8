"""Where the tasks of a study run: in this process, in local worker processes, or on a Dask cluster.

Every executor has one method, ``map_unordered(function, argument_tuples)``, yielding ``(index, result)`` as
tasks finish (in any order); the engine writes each result to disk at once.  The numbers never depend on the
executor: every task draws from its own ``SeedSequence`` (see :mod:`lfverify.simulations.engine`), and the worker
processes limit BLAS to one thread (``threadpoolctl``, when installed), the parallelism being across tasks.

* :class:`SerialExecutor` - in-process, in task order (debugging, tests, tiny studies).
* :class:`ProcessExecutor` - ``concurrent.futures.ProcessPoolExecutor`` with ``max_workers`` (default: all
  cores) processes started with the "spawn" method (no fork of a process holding BLAS or tqdm threads).
* :class:`DaskExecutor` - ``distributed.Client`` connected to ``address`` (``--dask tcp://host:port``), or to a
  ``LocalCluster`` of ``n_workers`` single-threaded worker processes that it starts and stops
  (``--dask-local N``).  Needs the ``distributed`` extra (``pip install "lfverify[distributed]"``).
"""

from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from multiprocessing import get_context

__all__ = ["SerialExecutor", "ProcessExecutor", "DaskExecutor", "make_executor", "EXECUTORS"]

#: Names accepted by :func:`make_executor` (besides an executor instance).
EXECUTORS = ("serial", "processes", "dask")


def _single_threaded_blas() -> None:
    """Worker initializer: one BLAS thread per worker process (the parallelism is across tasks)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional; results are still reproducible, only slower
        return
    threadpool_limits(1)


def _check_workers(value, name):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive int; got {value!r}")
    return value


class SerialExecutor:
    """Run every task in this process, in order."""

    name = "serial"

    def map_unordered(self, function, argument_tuples):
        for index, arguments in enumerate(argument_tuples):
            yield index, function(*arguments)

    def describe(self) -> str:
        return "serial (in-process)"


class ProcessExecutor:
    """Run tasks in ``max_workers`` local processes (default ``os.cpu_count()``).

    At most ``2 * max_workers`` tasks are in flight, so a large study does not pickle all its arguments at once.
    """

    name = "processes"

    def __init__(self, max_workers: int | None = None):
        self.max_workers = _check_workers(max_workers, "max_workers") or os.cpu_count() or 1

    def map_unordered(self, function, argument_tuples):
        arguments = list(argument_tuples)
        if not arguments:
            return
        with ProcessPoolExecutor(max_workers=self.max_workers, mp_context=get_context("spawn"),
                                 initializer=_single_threaded_blas) as pool:
            pending = {}
            queue = iter(enumerate(arguments))
            try:
                for index, args in queue:
                    pending[pool.submit(function, *args)] = index
                    if len(pending) >= 2 * self.max_workers:
                        break
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        index = pending.pop(future)
                        yield index, future.result()
                        nxt = next(queue, None)
                        if nxt is not None:
                            pending[pool.submit(function, *nxt[1])] = nxt[0]
            finally:
                for future in pending:
                    future.cancel()

    def describe(self) -> str:
        return f"{self.max_workers} local processes"


class DaskExecutor:
    """Run tasks on a Dask distributed cluster: an existing scheduler at ``address``, or a LocalCluster of
    ``n_workers`` processes (one thread each) started here and closed when the study ends."""

    name = "dask"

    def __init__(self, address: str | None = None, *, n_workers: int | None = None):
        if (address is None) == (n_workers is None):
            raise ValueError("DaskExecutor needs exactly one of address (e.g. 'tcp://host:8786') and n_workers "
                             f"(a LocalCluster); got address={address!r}, n_workers={n_workers!r}")
        if address is not None and (not isinstance(address, str) or not address):
            raise ValueError(f"address must be a scheduler address such as 'tcp://127.0.0.1:8786'; got {address!r}")
        self.address = address
        self.n_workers = _check_workers(n_workers, "n_workers")
        _import_distributed()  # fail early, with the install hint

    def map_unordered(self, function, argument_tuples):
        distributed = _import_distributed()
        arguments = list(argument_tuples)
        if not arguments:
            return
        cluster = None
        if self.address is None:
            cluster = distributed.LocalCluster(n_workers=self.n_workers, threads_per_worker=1, processes=True,
                                               dashboard_address=None)
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(self.address)
        try:
            client.run(_single_threaded_blas)
            futures = [client.submit(function, *args, pure=False) for args in arguments]
            index_of = {future.key: index for index, future in enumerate(futures)}
            for future in distributed.as_completed(futures):
                yield index_of[future.key], future.result()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()

    def describe(self) -> str:
        return f"Dask at {self.address}" if self.address else f"Dask LocalCluster of {self.n_workers} processes"


def _import_distributed():
    try:
        import distributed
    except ImportError as exc:
        raise ValueError("the Dask executor needs the 'distributed' extra: pip install \"lfverify[distributed]\"") \
            from exc
    return distributed


def make_executor(executor="processes", *, workers: int | None = None, dask_address: str | None = None,
                  dask_local: int | None = None):
    """An executor from a name ("serial", "processes", "dask") or an instance (returned as is).

    ``workers`` sets the number of local processes; ``dask_address`` / ``dask_local`` select the Dask executor
    (a scheduler address, or the size of a LocalCluster to start) and may not be combined.
    """
    if hasattr(executor, "map_unordered"):
        return executor
    if dask_address is not None and dask_local is not None:
        raise ValueError("give either a Dask scheduler address (--dask) or a LocalCluster size (--dask-local), "
                         "not both")
    if dask_address is not None or dask_local is not None:
        return DaskExecutor(dask_address, n_workers=dask_local)
    if executor == "serial":
        return SerialExecutor()
    if executor == "processes":
        return ProcessExecutor(workers)
    if executor == "dask":
        raise ValueError("the Dask executor needs a scheduler address or a LocalCluster size "
                         "(dask_address / dask_local)")
    raise ValueError(f"executor must be one of {EXECUTORS} or an executor instance; got {executor!r}")
