"""lfverify: Bao & Sugiyama (AISTATS 2020), executable and machine-checked."""

__version__ = "0.1.0"
