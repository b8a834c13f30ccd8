"""lfverify: Bao & Sugiyama (AISTATS 2020), executable and machine-checked."""

from lfverify._version import __version__

__all__ = ["__version__"]
