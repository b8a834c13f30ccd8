"""Figures of the benchmark (matplotlib, imported lazily, Agg backend): App. C.3, C.5 and C.6.

* :func:`plot_curves` - test metric against the training-set size (App. C.5, Figs. 6-7, n = 20 ... 400) or
  against tau (App. C.6, Figs. 8-9, tau = 0.1 ... 0.9), one panel per data set, mean +- one standard error
  shaded, as the paper draws them (the title says what lines and bands are and the number of trials);
* :func:`plot_convergence` - test metric against the iteration for U-GD and U-BFGS from N(0, I) starts
  (Sec. 6, Fig. 3; App. C.3, Figs. 4-5).

Each function writes one PNG atomically (:func:`lfverify.io.save_figure`).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from lfverify.experiments._markdown import method_sort_key
from lfverify.experiments._statistics import summarize
from lfverify.io import pyplot, save_figure

__all__ = ["plot_curves", "plot_convergence"]

_COLORS = {"U-GD": "tab:blue", "U-BFGS": "tab:orange", "ERM": "tab:green", "W-ERM": "tab:red",
           "Plug-in": "tab:purple", "Tuned-threshold": "tab:brown"}


def _figure(n_panels: int):
    plt = pyplot()
    cols = min(4, n_panels)
    rows = math.ceil(n_panels / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 2.9 * rows), squeeze=False)
    for ax in axes.flat[n_panels:]:
        ax.set_visible(False)
    return fig, axes.flat


def _band(ax, xs, samples, label) -> list[int]:
    """The mean line and the +- one standard error band of ``samples`` (one sequence per x); returns the counts."""
    stats = [summarize(s) for s in samples]
    mean = np.array([s.mean for s in stats])
    se = np.array([0.0 if s.standard_error is None else s.standard_error for s in stats])
    color = _COLORS.get(label)
    ax.plot(xs, mean, marker="o", markersize=2.5, linewidth=1.2, label=label, color=color)
    ax.fill_between(xs, mean - se, mean + se, alpha=0.25, color=color)
    return [len(s) for s in samples]


def _caption(title: str, counts) -> str:
    """The title and what the lines and bands are, with the number of trials behind each point."""
    low, high = min(counts), max(counts)
    trials = f"{low}" if low == high else f"{low}-{high}"
    return (f"{title}\nlines: mean over {trials} trials per point; shaded bands: mean +- one standard error "
            "(none for a single trial)")


def plot_curves(curves: dict, path, *, xlabel: str, ylabel: str, title: str) -> Path:
    """One panel per data set: x -> mean test value +- se per method.  ``curves``: dataset -> method -> x -> values."""
    datasets = sorted(curves)
    if not datasets:
        raise ValueError("curves: nothing to plot (no records)")
    fig, axes = _figure(len(datasets))
    counts = []
    for ax, dataset in zip(axes, datasets):
        for method in sorted(curves[dataset], key=method_sort_key):
            by_x = curves[dataset][method]
            xs = sorted(by_x)
            counts += _band(ax, xs, [by_x[x] for x in xs], method)
        ax.set_title(dataset, fontsize=9)
        ax.set_xlabel(xlabel, fontsize=8)
        ax.set_ylabel(ylabel, fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0].legend(fontsize=7)
    fig.suptitle(_caption(title, counts), fontsize=10)
    return save_figure(fig, path, tight_layout=True)


def plot_convergence(records, metric: str, path, *, title: str) -> Path:
    """Test metric by iteration (checkpoints) for U-GD and U-BFGS, mean +- se over trials, one panel per data set."""
    by_dataset = {}
    for record in records:
        if metric in record["results"]:
            by_dataset.setdefault(record["dataset"], []).append(record)
    if not by_dataset:
        raise ValueError("records: nothing to plot (no convergence records for this metric)")
    fig, axes = _figure(len(by_dataset))
    counts = []
    for ax, dataset in zip(axes, sorted(by_dataset)):
        recs = by_dataset[dataset]
        checkpoints = recs[0]["checkpoints"]
        for method in ("U-GD", "U-BFGS"):
            curves = np.array([r["results"][metric][method]["test_at_checkpoints"] for r in recs])
            counts += _band(ax, checkpoints, list(curves.T), method)
        ax.set_title(dataset, fontsize=9)
        ax.set_xlabel("iteration", fontsize=8)
        ax.set_ylabel(f"test {metric}", fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0].legend(fontsize=7)
    fig.suptitle(_caption(title, counts), fontsize=10)
    return save_figure(fig, path, tight_layout=True)
