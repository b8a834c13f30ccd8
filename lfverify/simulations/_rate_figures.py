"""Figures of the studies (matplotlib, the ``plot`` extra, imported lazily with the non-interactive Agg backend).

:func:`loglog_rate_figure` draws what a rate fit (:func:`lfverify.simulations._rates.fit_rate`: OLS of log(error)
on log(n) over the replications) describes: at each n the *geometric mean* exp(mean log error) with the Student-t
interval of the mean of the logs, the fitted line exp(a) n^slope with its confidence band, and a reference line
with the claimed exponent.  (The arithmetic mean error lies above the geometric mean by Jensen's inequality, so a
log-log fit drawn over arithmetic means runs below the points.)  :func:`mean_deviation_figure` draws what a bias
claim describes: the mean signed deviation at each n with its interval, the zero line, and the fitted c n^p when
one was fitted.  Files are written atomically by
:func:`lfverify.io.save_figure`.
"""

from __future__ import annotations

import numpy as np

from lfverify.io import pyplot, save_figure
from lfverify.simulations._intervals import geometric_mean_interval
from lfverify.simulations._rates import rate_fit_band

__all__ = ["loglog_rate_figure", "mean_deviation_figure"]


def loglog_rate_figure(path, series, *, title: str, ylabel: str, expected: float = -0.5, xlabel: str = "n",
                       variable: str = "n"):
    """One log-log panel: for each series, geometric means with their intervals, the fitted line, its band.

    Parameters
    ----------
    path : path of the PNG
    series : list of dict
        Each with ``label``, ``n`` and ``errors`` (one positive error per replication, as given to
        :func:`~lfverify.simulations._rates.fit_rate`) and ``fit``: that fit's dict (``slope``, ``intercept``,
        ``ci_low``, ``ci_high``, ``level``).  The points, bars and band are at the fit's level.
    expected : float
        Exponent of the dotted reference line, drawn through each fitted line at the geometric middle of its n.
    xlabel, variable : str
        The x axis's label and the symbol of the reference line's legend (``variable^expected``).
    """

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    handles, labels = [], []
    for i, s in enumerate(series):
        color = colors[i % len(colors)]
        n = np.asarray(s["n"], dtype=float)
        errors = np.asarray(s["errors"], dtype=float)
        fit = s["fit"]
        level = fit["level"]
        sizes = np.unique(n)
        points = [geometric_mean_interval(errors[n == size], level=level) for size in sizes]
        centre = np.array([float(p.mean) for p in points])
        bars = np.array([[c - float(p.low) for c, p in zip(centre, points)],
                         [float(p.high) - c for c, p in zip(centre, points)]])
        handles.append(ax.errorbar(sizes, centre, yerr=bars, fmt="o", ms=4, color=color, capsize=2))
        labels.append(f"{s['label']}: geometric mean exp(mean log), {100 * level:g}% CI")
        grid = np.geomspace(sizes[0], sizes[-1], 50)
        low, high = rate_fit_band(n, errors, grid, level=level)
        band = ax.fill_between(grid, low, high, color=color, alpha=0.2, lw=0)
        [line] = ax.plot(grid, np.exp(fit["intercept"]) * grid ** fit["slope"], "-", color=color, lw=1)
        handles.append((band, line))  # drawn on top of each other in the legend
        labels.append(f"  fit exp(a) {variable}^b: b = {fit['slope']:.3f} [{fit['ci_low']:.3f}, "
                      f"{fit['ci_high']:.3f}], {100 * level:g}% band")
        middle = np.sqrt(sizes[0] * sizes[-1])
        at_middle = np.exp(fit["intercept"]) * middle ** fit["slope"]
        ax.plot(grid, at_middle * (grid / middle) ** expected, ":", color=color, lw=1)
    handles.append(ax.plot([], [], "k:", lw=1)[0])
    labels.append(f"reference slope {variable}^{expected:g}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(handles, labels, fontsize=7, loc="best")
    fig.tight_layout()
    return save_figure(fig, path)


def mean_deviation_figure(path, series, *, title: str, ylabel: str = "mean of estimate - target"):
    """One panel, n on a log axis: for each series the mean deviation per n with its interval, the line 0 and, when
    a power law was fitted (:func:`~lfverify.simulations._rates.fit_power_law`), the fitted c n^p.

    Parameters
    ----------
    path : path of the PNG
    series : list of dict
        Each with ``label``, ``table`` (rows with ``n``, ``mean``, ``ci_low``, ``ci_high``, ``level``) and ``fit``
        (the power-law fit's dict, or None).
    """
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    handles, labels = [ax.axhline(0.0, color="k", lw=0.8)], ["0 (no bias)"]
    for i, s in enumerate(series):
        color = colors[i % len(colors)]
        n = np.array([row["n"] for row in s["table"]], dtype=float)
        mean = np.array([row["mean"] for row in s["table"]])
        bars = np.array([mean - [row["ci_low"] for row in s["table"]], [row["ci_high"] for row in s["table"]] - mean])
        handles.append(ax.errorbar(n, mean, yerr=bars, fmt="o", ms=4, color=color, capsize=2))
        levels = sorted({row["level"] for row in s["table"]})
        labels.append(f"{s['label']}: mean, {'/'.join(f'{100 * v:.4g}' for v in levels)}% CI")
        fit = s["fit"]
        if fit is not None:
            grid = np.geomspace(n[0], n[-1], 50)
            weights = np.array([row["standard_error"] for row in s["table"]]) ** -2.0
            sign = 1.0 if np.sum(mean * weights) >= 0 else -1.0  # fit_power_law's sign rule
            handles.append(ax.plot(grid, sign * np.exp(fit["intercept"]) * grid ** fit["slope"], "-", color=color,
                                   lw=1)[0])
            labels.append(f"  fit c n^p: p = {fit['slope']:.3f} [{fit['ci_low']:.3f}, {fit['ci_high']:.3f}] "
                          f"({100 * fit['level']:g}% CI)")
    ax.set_xscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(handles, labels, fontsize=7, loc="best")
    fig.tight_layout()
    return save_figure(fig, path)
