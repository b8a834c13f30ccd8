"""``lfverify metrics``: Table 1's coefficients and Definition 1's constraints for each metric.

Loaded by :mod:`lfverify.app` when the command is ``metrics``: :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

from lfverify.core import metrics_table_rows

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    """The options of ``lfverify metrics``."""
    parser.add_argument("--beta", type=float, default=1.0, help="beta of F_beta (default 1)")
    parser.add_argument("--alpha", type=float, default=0.5, help="alpha of Gower-Legendre (default 0.5)")


def run(args) -> int:
    """Print one row per metric of the metric registry."""
    rows = metrics_table_rows(args)
    print(f"{'metric':<22} {'a0p':>6} {'a0n':>6} {'b0':>12} {'a1p':>6} {'a1n':>6} {'b1':>14}  Definition 1")
    for m in rows:
        b0 = f"{m.b0_const:g}{m.b0_prior:+g}pi"
        b1 = f"{m.b1_const:g}{m.b1_prior:+g}pi"
        report = m.admissibility()
        status = "admissible" if report.admissible else "violates " + "; ".join(report.violations)
        print(f"{m.name:<22} {m.a0p:6g} {m.a0n:6g} {b0:>12} {m.a1p:6g} {m.a1n:6g} {b1:>14}  {status}")
    return 0
