"""matplotlib set-up shared by every figure of the package (the ``plot`` extra, imported lazily).

The studies (:mod:`lfverify.simulations` and the studies' own panels), the benchmark
(:mod:`lfverify.experiments`) and ``lfverify verify`` draw with the non-interactive Agg backend,
headless, and write PNGs atomically (to a temporary name, then ``os.replace``) without the "Software"
metadata, so that the same data give the same bytes.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from lfverify.io._atomic import atomic_path

__all__ = ["matplotlib_available", "pyplot", "save_figure"]


def matplotlib_available() -> bool:
    """Whether matplotlib can be imported (``pip install ".[plot]" in a clone``)."""
    return importlib.util.find_spec("matplotlib") is not None


def pyplot():
    """``matplotlib.pyplot`` on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig, path, *, tight_layout: bool = False) -> Path:
    """Save ``fig`` as a PNG at ``path`` atomically and close it (also when saving fails)."""
    try:
        if tight_layout:
            fig.tight_layout()
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format="png", dpi=110, metadata={"Software": None})
    finally:
        pyplot().close(fig)
    return Path(path)
