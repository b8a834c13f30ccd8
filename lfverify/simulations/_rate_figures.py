"""Figures of the studies (matplotlib, the ``plot`` extra, imported lazily with the non-interactive Agg backend).

:func:`loglog_rate_figure` draws Monte-Carlo means with error bars against n on log-log axes, the fitted line
exp(a) n^slope and a reference line through the first point with the claimed exponent (n^-1/2 for Lemma 4).
Files are written atomically by :func:`lfverify.io.save_figure`.
"""

from __future__ import annotations

import numpy as np

from lfverify.io._figures import pyplot, save_figure

__all__ = ["loglog_rate_figure"]


def loglog_rate_figure(path, series, *, title: str, ylabel: str, expected: float = -0.5, xlabel: str = "n"):
    """One log-log panel: for each series, means +- 1.96 s.e., the fitted line and the reference line.

    Parameters
    ----------
    path : path of the PNG
    series : list of dict
        Each with ``label``, ``n``, ``mean``, ``se`` (arrays) and optionally ``fit`` (a dict with ``slope`` and
        ``intercept`` of log(mean) = intercept + slope log(n), plus ``ci_low``, ``ci_high``).
    expected : float
        Exponent of the dashed reference line (drawn through each series' first point).
    """
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, s in enumerate(series):
        color = colors[i % len(colors)]
        n = np.asarray(s["n"], dtype=float)
        mean = np.asarray(s["mean"], dtype=float)
        se = np.asarray(s["se"], dtype=float)
        ax.errorbar(n, mean, yerr=1.96 * se, fmt="o", ms=4, color=color, capsize=2, label=s["label"])
        grid = np.geomspace(n.min(), n.max(), 50)
        fit = s.get("fit")
        if fit is not None:
            ax.plot(grid, np.exp(fit["intercept"]) * grid ** fit["slope"], "-", color=color, lw=1,
                    label=f"  fit: slope {fit['slope']:.3f} [{fit['ci_low']:.3f}, {fit['ci_high']:.3f}]")
        ax.plot(grid, mean[0] * (grid / n[0]) ** expected, ":", color=color, lw=1)
    ax.plot([], [], "k:", lw=1, label=f"reference n^{expected:g}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return save_figure(fig, path)
