"""Shared test configuration: Hypothesis profiles chosen by the environment variable LFVERIFY_HYPOTHESIS_PROFILE.

* ``dev`` (default): random, 50 examples per property, no deadline (numerical code has uneven run times).
* ``ci``: derandomized (the same examples on every run), no deadline, no example database, failing examples
  printed as reproduction blobs.  ``.ci/run`` selects it.
* ``thorough``: 1000 examples per property, for a deliberate hunt before a release.
"""

import os

from hypothesis import settings

settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("ci", max_examples=50, deadline=None, derandomize=True, database=None, print_blob=True)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("LFVERIFY_HYPOTHESIS_PROFILE", "dev"))


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` are skipped unless a marker expression (``-m slow``) selects them."""
    if config.option.markexpr:
        return
    import pytest

    skip = pytest.mark.skip(reason="slow: select with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
