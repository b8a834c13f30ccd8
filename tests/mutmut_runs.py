"""Which run of the mutation tool (tools/mutation/README.md) this test process is part of, if any.

mutmut 3.8 names its phase in ``MUTANT_UNDER_TEST``: "stats", "" (its clean run) and "fail" in its main process, and
a mutant's name (``...__mutmut_N``) in the run it forks for that mutant.  The tool's own fresh processes (a mutant
judged again, tools/mutation/measure.py) set the mutant's name too, and :data:`FRESH` beside it; its custom
operators' runs set neither (their mutant is imported through import_hook.py).
"""

from __future__ import annotations

import os

#: set by tools/mutation/measure.py in a fresh pytest process that judges a mutmut mutant again
FRESH = "LFVERIFY_FRESH_MUTANT_RUN"


def in_mutmut_main_process(environ=os.environ) -> bool:
    """mutmut's main process (its stats, clean and forced-fail runs), from which it forks every mutant's run."""
    phase = environ.get("MUTANT_UNDER_TEST")
    return phase is not None and "__mutmut_" not in phase and "__lfv_" not in phase


def in_forked_mutant_run(environ=os.environ) -> bool:
    """A mutmut mutant's run forked from mutmut's main process (not a fresh process of the tool)."""
    return "__mutmut_" in environ.get("MUTANT_UNDER_TEST", "") and not environ.get(FRESH)


def guard_clusters(monkeypatch, environ=os.environ) -> bool:
    """In a forked mutant run, make ``distributed.LocalCluster`` skip the test that starts one
    (:func:`refuse_cluster`); whether it did."""
    if not in_forked_mutant_run(environ):
        return False
    import distributed

    monkeypatch.setattr(distributed.LocalCluster, "__init__", refuse_cluster)
    return True


def refuse_cluster(*args, **kwargs):
    """Stand-in for ``distributed.LocalCluster.__init__`` in a forked mutant run: the test is skipped there.

    mutmut's main process ran the Dask tests in its stats run, and a process forked from it inherits Dask's state
    without the thread of its event loop, so a cluster started there waits forever (measured: each such run held
    until mutmut's wall limit, 20 minutes and more).  A mutant that only such a test kills survives the forked run
    and is judged again, this test included, in a fresh process (tools/mutation/measure.py's ``judge_again``)."""
    import pytest

    pytest.skip("a Dask LocalCluster cannot start in mutmut's forked run; the mutant's fresh judgement runs this test")
