"""Where the tests find the project's shared inputs: the paper's LaTeX source and the staged data sets.

The data sets are found by lfverify.learn._datasets.dataset_root itself; the paper is searched the same way (walking up
from the current folder and from this folder, then /work).  ``None`` when absent (the tests that need them are
skipped with a reason).
"""

from pathlib import Path

import pytest

from lfverify.learn._datasets import dataset_root


def find_shared(relative: str) -> Path | None:
    for start in (Path.cwd(), Path(__file__).resolve().parent):
        for folder in (start, *start.parents):
            if (folder / relative).exists():
                return folder / relative
    fallback = Path("/work") / relative
    return fallback if fallback.exists() else None


PAPER_TEX = find_shared("shared/paper/bao-sugiyama-2020-linear-fractional.tex")
try:
    DATA_ROOT = dataset_root()
except FileNotFoundError:  # pragma: no cover - the staged data sit beside the repository in CI
    DATA_ROOT = None
needs_tex = pytest.mark.skipif(PAPER_TEX is None, reason="the paper's LaTeX source (shared/paper) is not available")
needs_data = pytest.mark.skipif(DATA_ROOT is None, reason="the staged data sets (shared/datasets) are not available")
