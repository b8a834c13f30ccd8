"""The application: the `lfverify` command line, REPORT.md and the quick self-checks."""

from lfverify.app._cli import main

__all__ = ["main"]
