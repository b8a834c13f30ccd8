"""Where the tasks of ``verify``, ``simulate`` and ``bench`` run: ``--serial``, ``--workers N``, ``--dask ADDRESS``,
``--dask-local N`` (exclusive) and ``--dask-timeout SECONDS``."""

from __future__ import annotations

from lfverify.parallel import WORKERS_PER_CPU, make_executor, max_local_workers

__all__ = ["add_executor_arguments", "executor_from_args"]


def add_executor_arguments(parser):
    """Where the tasks run: --serial, --workers N, --dask ADDRESS or --dask-local N (exclusive).

    Shared by ``lfverify simulate``, ``lfverify verify`` and ``lfverify bench``; :func:`executor_from_args` reads
    them.  Returns the mutually exclusive group (``bench`` adds its older ``--jobs N`` to it).
    """
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--serial", action="store_true", help="run the simulations in this process")
    where.add_argument("--workers", type=int, metavar="N", help="local worker processes (default: all cores)")
    where.add_argument("--dask", metavar="ADDRESS", help="a Dask scheduler, e.g. tcp://127.0.0.1:8786")
    where.add_argument("--dask-local", type=int, metavar="N", help="start a Dask LocalCluster of N worker processes")
    parser.add_argument("--dask-timeout", type=float, metavar="SECONDS",
                        help="seconds to reach the --dask scheduler and hear it answer (default 10)")
    return where


def executor_from_args(args):
    """The executor selected by :func:`add_executor_arguments`' options."""

    for option, value in (("--workers", args.workers), ("--dask-local", args.dask_local)):
        if value is not None and value > max_local_workers():
            raise ValueError(f"{option} must be at most {max_local_workers()} ({WORKERS_PER_CPU} per usable CPU: "
                             f"more processes only add memory); got {value:,}")
    if args.serial:
        return make_executor("serial")
    if args.dask or args.dask_local is not None:
        return make_executor(dask_address=args.dask, dask_local=args.dask_local, dask_timeout=args.dask_timeout)
    if args.dask_timeout is not None:
        raise ValueError("--dask-timeout applies to --dask ADDRESS only")
    return make_executor("processes", workers=args.workers)
