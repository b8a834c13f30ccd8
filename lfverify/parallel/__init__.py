"""Where tasks run: in this process, in local worker processes, or on a Dask cluster (:func:`make_executor`).

Every executor yields ``(index, result)`` as tasks finish; no worker outlives its run.  The numbers never depend
on the executor: each task seeds itself from its own key (:mod:`lfverify.core` seeding rule).  A worker killed
from outside, a lost Dask scheduler or a cluster without workers is an :class:`EnvironmentFault` (one line).
"""

from lfverify.parallel._executors import (
    DASK_CONNECT_TIMEOUT,
    EXECUTORS,
    WORKERS_PER_CPU,
    DaskExecutor,
    ProcessExecutor,
    SerialExecutor,
    keeping_workers,
    make_executor,
    max_local_workers,
    start_resource_tracker,
    usable_cpus,
)
from lfverify.parallel._faults import EnvironmentFault, describe_exit
from lfverify.parallel._worker_stderr import quiet_worker_tracebacks

__all__ = ["make_executor", "SerialExecutor", "ProcessExecutor", "DaskExecutor", "EXECUTORS", "DASK_CONNECT_TIMEOUT",
           "EnvironmentFault", "describe_exit", "start_resource_tracker", "WORKERS_PER_CPU", "max_local_workers",
           "usable_cpus", "quiet_worker_tracebacks", "keeping_workers"]
