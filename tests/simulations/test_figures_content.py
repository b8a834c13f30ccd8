"""Content of every figure the package draws: lfverify.io._figures, the benchmark's and the studies' figures.

Oracles: a spy on ``save_figure`` (patched where each module looks it up) that records the matplotlib Figure it
receives, checked against the documented layout (figure size in inches, axes grid, titles, labels, scales, font
sizes, legend entries) and against the data passed in, with every mean, standard error, band, fitted and
reference line computed by hand and typed out as literals; for :func:`lfverify.io._figures.save_figure` the written
PNG itself, read back with Pillow (pixel size = figsize x 110 dpi, no text chunk), and spies on
``importlib.util.find_spec`` / ``Figure.tight_layout`` / ``pyplot.switch_backend``.

Private: the figure modules lfverify.experiments._figures, lfverify.io._figures and lfverify.simulations._rate_figures,
and the studies' figure makers in _study_calibration, _study_consistency, _study_unbiasedness and
_study_uniform_convergence (with _intervals.mean_interval), imported to draw each figure and to patch save_figure where
each module binds it.
"""

import importlib.util
import math
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import lfverify.experiments._figures as pb_figures
import lfverify.io._figures as plotting
import lfverify.simulations._rate_figures as sim_figures
import lfverify.simulations._study_calibration as cal
import lfverify.simulations._study_consistency as con
import lfverify.simulations._study_unbiasedness as ub
import lfverify.simulations._study_uniform_convergence as uc

pytestmark = pytest.mark.claims("package:files", "package:benchmark-machinery", "package:simulation-engine")

matplotlib = pytest.importorskip("matplotlib")

from matplotlib.colors import to_hex  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

BLUE, ORANGE, GREEN = "#1f77b4", "#ff7f0e", "#2ca02c"  # tab:blue, tab:orange, tab:green (matplotlib's C0, C1, C2)


@pytest.fixture
def saved(monkeypatch):
    """Spy on save_figure: records (fig, path, keyword arguments) of every call, returns the path, writes nothing."""
    calls = []

    def spy(fig, path, **kwargs):
        calls.append(SimpleNamespace(fig=fig, path=Path(path), kwargs=kwargs))
        return Path(path)

    for module in (plotting, pb_figures, sim_figures, cal, ub):  # every module that binds save_figure
        monkeypatch.setattr(module, "save_figure", spy)
    yield calls
    plt = plotting.pyplot()
    for call in calls:
        if isinstance(call.fig, Figure):
            plt.close(call.fig)


def _size(fig):
    return [float(v) for v in fig.get_size_inches()]


def _grid(ax):
    """(nrows, ncols) of the subplot grid that holds ``ax``."""
    rows, cols, _, _ = ax.get_subplotspec().get_geometry()
    return rows, cols


def _legend(ax):
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()], {t.get_fontsize() for t in legend.get_texts()}


def _grid_lines(ax, which):
    ticks = ax.xaxis.get_major_ticks() if which == "major" else ax.xaxis.get_minor_ticks()
    return [(t.gridline.get_visible(), t.gridline.get_alpha()) for t in ticks]


def _bar_segments(container):
    """The error bars of an ErrorbarContainer as a list of ((x, y_low), (x, y_high))."""
    return [tuple(map(tuple, seg)) for seg in container.lines[2][0].get_segments()]


def _polygon(collection):
    """The distinct vertices of a fill_between band, sorted (the band's lower and upper edges)."""
    return np.unique(collection.get_paths()[0].vertices, axis=0)


def _band_vertices(xs, low, high):
    return np.unique(np.array([(x, y) for x, y in zip(xs, low)] + [(x, y) for x, y in zip(xs, high)]), axis=0)


# ---------------------------------------------------------------------------------------------- lfverify.io._figures
def test_matplotlib_available_asks_find_spec_for_matplotlib(monkeypatch):
    """True exactly when ``importlib.util.find_spec("matplotlib")`` finds a spec.  Oracle: a spy on find_spec.
    Kills `lfverify.io._figures.x_matplotlib_available__mutmut_2` ("XXmatplotlibXX") and `_mutmut_4` (is None)."""
    assert plotting.matplotlib_available() is True  # matplotlib is installed (importorskip above)
    asked = []
    for answer, expected in ((None, False), (object(), True)):
        monkeypatch.setattr(importlib.util, "find_spec", lambda name, answer=answer: asked.append(name) or answer)
        assert plotting.matplotlib_available() is expected
    assert asked == ["matplotlib", "matplotlib"]


def test_pyplot_switches_to_agg_from_another_backend():
    """pyplot() returns matplotlib.pyplot on the Agg backend even after another backend was selected.
    Oracle: matplotlib.get_backend()."""
    import matplotlib.pyplot as mpl_pyplot

    mpl_pyplot.switch_backend("svg")
    try:
        assert matplotlib.get_backend() == "svg"
    finally:
        plt = plotting.pyplot()
    assert plt is mpl_pyplot
    assert matplotlib.get_backend().lower() == "agg"


def test_pyplot_forces_agg_and_reports_a_backend_that_cannot_be_set_up(monkeypatch):
    """``matplotlib.use("Agg", force=True)``: when switching to Agg fails, the ImportError reaches the caller
    instead of being swallowed (force=False would go on with the old backend).  Oracle: a planted ImportError in
    pyplot.switch_backend.  Kills `lfverify.io._figures.x_pyplot__mutmut_8` (force=False)."""
    import matplotlib.pyplot as mpl_pyplot

    mpl_pyplot.switch_backend("svg")
    asked = []

    def failing(name):
        asked.append(name)
        raise ImportError("planted: no Agg")

    monkeypatch.setattr(mpl_pyplot, "switch_backend", failing)
    try:
        with pytest.raises(ImportError, match="^planted: no Agg$"):
            plotting.pyplot()
        assert [name.lower() for name in asked] == ["agg"]
    finally:
        monkeypatch.undo()
        plotting.pyplot()
    assert matplotlib.get_backend().lower() == "agg"


def _small_figure(tight):
    plt = plotting.pyplot()
    fig, ax = plt.subplots(figsize=(3.0, 2.0))
    ax.plot([0, 1], [0, 1])
    ax.set_title("a long title that tight_layout has to make room for")
    calls = []
    original = fig.tight_layout

    def spy(*args, **kwargs):
        calls.append((args, kwargs))
        return original(*args, **kwargs)

    fig.tight_layout = spy
    return plt, fig, ax, calls


@pytest.mark.parametrize("kwargs, tight_calls", [({}, 0), ({"tight_layout": False}, 0), ({"tight_layout": True}, 1)])
def test_save_figure_writes_the_png_exactly(tmp_path, kwargs, tight_calls):
    """A 3 x 2 inch figure is written as a 330 x 220 pixel PNG (dpi 110), with no text chunk (matplotlib's
    "Software" entry removed: nothing but the pixels and the resolution), into a created folder, and closed;
    tight_layout only when asked (the default is False; the axes then keep rcParams' subplot box 0.125, 0.11,
    0.9, 0.88).  Oracle: Pillow reading the file; a spy on Figure.tight_layout; the hand-typed rcParams box.
    Kills `lfverify.io._figures.x_save_figure__mutmut_1` (default True), `_mutmut_5` / `_mutmut_9` (dpi None /
    dropped), `_mutmut_6` / `_mutmut_10` (metadata None / dropped), `_mutmut_14`, `_mutmut_15`, `_mutmut_16`
    (the "Software" key misspelled)."""
    from PIL import Image

    plt, fig, ax, calls = _small_figure(tight=kwargs.get("tight_layout"))
    path = tmp_path / "sub" / "figure.png"
    assert plotting.save_figure(fig, str(path), **kwargs) == path
    assert len(calls) == tight_calls
    with Image.open(path) as image:
        assert image.format == "PNG"
        assert image.size == (330, 220)
        assert image.text == {}
        assert set(image.info) == {"dpi"}
        assert [round(d) for d in image.info["dpi"]] == [110, 110]
    if tight_calls == 0:
        assert ax.get_position().bounds == pytest.approx((0.125, 0.11, 0.775, 0.77), rel=0, abs=1e-12)
    else:
        assert ax.get_position().bounds != pytest.approx((0.125, 0.11, 0.775, 0.77), rel=0, abs=1e-6)
    assert not plt.fignum_exists(fig.number)
    assert sorted(p.name for p in path.parent.iterdir()) == ["figure.png"]


def test_save_figure_closes_the_figure_when_saving_fails(tmp_path, monkeypatch):
    """The figure is closed and no file (nor temporary) is left when savefig raises.  Oracle: a planted error."""
    plt, fig, ax, calls = _small_figure(tight=False)
    monkeypatch.setattr(fig, "savefig", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("planted")))
    with pytest.raises(RuntimeError, match="^planted$"):
        plotting.save_figure(fig, tmp_path / "figure.png")
    assert not plt.fignum_exists(fig.number)
    assert list(tmp_path.iterdir()) == []


def test_save_figure_closes_its_own_figure_when_saving_fails_not_the_current_one(tmp_path, monkeypatch):
    """When another figure is pyplot's current one, a failed save closes the figure given and leaves the other open.
    Oracle: a planted error and pyplot's figure numbers.

    Kills `lfverify.io._figures.x_save_figure__mutmut_17` (close(None): pyplot's current figure)."""
    plt, fig, _, _ = _small_figure(tight=False)
    other = plt.figure()  # now the current figure
    monkeypatch.setattr(fig, "savefig", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("planted")))
    try:
        with pytest.raises(RuntimeError, match="^planted$"):
            plotting.save_figure(fig, tmp_path / "figure.png")
        assert not plt.fignum_exists(fig.number) and plt.fignum_exists(other.number)
    finally:
        plt.close(other)


# ---------------------------------------------------------------------------------------------- benchmark figures
def _check_band(ax, index, label, xs, means, ses, color):
    """The index-th method of a panel: line through the hand means (marker o, size 2.5, width 1.2) and the
    band mean - se ... mean + se (alpha 0.25) in the method's colour."""
    line, band = ax.lines[index], ax.collections[index]
    assert line.get_label() == label
    np.testing.assert_allclose(np.asarray(line.get_xdata(), dtype=float), xs, rtol=0, atol=0)
    np.testing.assert_allclose(np.asarray(line.get_ydata(), dtype=float), means, rtol=1e-12, atol=1e-15)
    assert (line.get_marker(), line.get_markersize(), line.get_linewidth(), line.get_linestyle()) == ("o", 2.5, 1.2,
                                                                                                      "-")
    low = [m - s for m, s in zip(means, ses)]
    high = [m + s for m, s in zip(means, ses)]
    np.testing.assert_allclose(_polygon(band), _band_vertices(xs, low, high), rtol=1e-12, atol=1e-15)
    assert band.get_alpha() == 0.25
    if color is not None:
        assert to_hex(line.get_color()) == color
        assert to_hex(band.get_facecolor()[0], keep_alpha=False) == color


_CURVES = {  # dataset -> method -> x -> trial values; means and standard errors (ddof 1) worked out by hand below
    "heart": {"ERM": {40: [0.6, 0.8], 20: [0.5, 0.7]},            # means 0.6, 0.7; se |a - b| / 2 = 0.1, 0.1
              "U-GD": {20: [0.2, 0.2], 40: [0.3, 0.5]}},          # means 0.2, 0.4; se 0, 0.1
    "adult": {"Zeta": {20: [0.4], 40: [0.45]},                    # single trials: se None, a zero-width band
              "U-BFGS": {20: [0.1, 0.3], 40: [0.2, 0.6]},         # means 0.2, 0.4; se 0.1, 0.2
              "Plug-in": {20: [0.3, 0.3, 0.6], 40: [0.0, 0.3, 0.6]}},  # means 0.4, 0.3; se 0.1, 0.3 / sqrt 3
}


def test_plot_curves_draws_each_method_as_mean_and_standard_error_band(saved, tmp_path):
    """One panel per data set (sorted), methods in the paper's order (U-GD, U-BFGS, ERM, W-ERM, Plug-in,
    Tuned-threshold, then others), x sorted, line = mean, band = mean +- se (a single trial: no band),
    labels and titles with their font sizes, the legend on the first panel only, tight_layout asked of
    save_figure.  Oracle: means and standard errors worked out by hand.
    Kills `lfverify.experiments._figures.x__band__mutmut_9` (se 1.0 for a single trial), `_band__mutmut_21`
    (the mean not passed to plot), `_band__mutmut_38` (band down to 0), `x_plot_curves__mutmut_37` (xlabel size
    9), `x_plot_curves__mutmut_58` (tight_layout not asked), `x_plot_curves__lfv_dropkw_2` (legend font size)."""
    path = tmp_path / "curves.png"
    assert pb_figures.plot_curves(_CURVES, path, xlabel="training-set size n", ylabel="test f1",
                                  title="Sample complexity: test f1") == path
    [call] = saved
    assert call.path == path and call.kwargs == {"tight_layout": True}
    fig = call.fig
    assert isinstance(fig, Figure)
    assert _size(fig) == pytest.approx([7.2, 2.9], rel=1e-12)
    axes = fig.axes
    assert len(axes) == 2 and [_grid(ax) for ax in axes] == [(1, 2), (1, 2)]
    assert [ax.get_subplotspec().colspan.start for ax in axes] == [0, 1]
    assert (fig._suptitle.get_text(), fig._suptitle.get_fontsize()) == (
        "Sample complexity: test f1\nlines: mean over 1-3 trials per point; shaded bands: mean +- one standard error "
        "(none for a single trial)", 10)  # _CURVES: single trials (Zeta) to three (Plug-in)
    adult, heart = axes
    for ax, name in ((adult, "adult"), (heart, "heart")):
        assert (ax.get_title(), ax.title.get_fontsize()) == (name, 9)
        assert (ax.get_xlabel(), ax.xaxis.label.get_fontsize()) == ("training-set size n", 8)
        assert (ax.get_ylabel(), ax.yaxis.label.get_fontsize()) == ("test f1", 8)
        assert ax.xaxis.get_major_ticks()[0].label1.get_fontsize() == 7
        assert ax.yaxis.get_major_ticks()[0].label1.get_fontsize() == 7
        assert (ax.get_xscale(), ax.get_yscale()) == ("linear", "linear")
    assert [line.get_label() for line in adult.lines] == ["U-BFGS", "Plug-in", "Zeta"]
    assert [line.get_label() for line in heart.lines] == ["U-GD", "ERM"]
    _check_band(adult, 0, "U-BFGS", [20, 40], [0.2, 0.4], [0.1, 0.2], ORANGE)
    _check_band(adult, 1, "Plug-in", [20, 40], [0.4, 0.3], [0.1, 0.3 / math.sqrt(3)], "#9467bd")  # tab:purple
    _check_band(adult, 2, "Zeta", [20, 40], [0.4, 0.45], [0.0, 0.0], None)
    _check_band(heart, 0, "U-GD", [20, 40], [0.2, 0.4], [0.0, 0.1], BLUE)
    _check_band(heart, 1, "ERM", [20, 40], [0.6, 0.7], [0.1, 0.1], GREEN)
    assert _legend(adult) == (["U-BFGS", "Plug-in", "Zeta"], {7.0})
    assert heart.get_legend() is None


def test_plot_curves_lays_out_five_panels_on_a_four_column_grid(saved, tmp_path):
    """Five data sets: 2 rows x 4 columns, 3.6 x 2.9 inches per panel (14.4 x 5.8), the three unused cells
    hidden.  Oracle: the documented layout, typed out.  Kills `lfverify.experiments._figures.x__figure__mutmut_18`
    (no figsize), `x__figure__mutmut_21` (4.6 per column), `x__figure__lfv_args_1` (rows and columns swapped)."""
    curves = {name: {"ERM": {0.5: [0.1, 0.2]}} for name in ("e", "d", "c", "b", "a")}
    pb_figures.plot_curves(curves, tmp_path / "five.png", xlabel="tau", ylabel="test jaccard", title="t")
    [call] = saved
    fig = call.fig
    assert _size(fig) == pytest.approx([14.4, 5.8], rel=1e-12)
    axes = fig.axes
    assert len(axes) == 8 and {_grid(ax) for ax in axes} == {(2, 4)}
    assert [(ax.get_subplotspec().rowspan.start, ax.get_subplotspec().colspan.start) for ax in axes] == [
        (0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)]
    assert [ax.get_visible() for ax in axes] == [True] * 5 + [False] * 3
    assert [ax.get_title() for ax in axes[:5]] == ["a", "b", "c", "d", "e"]


def test_plot_curves_rejects_empty_curves(saved, tmp_path):
    """Oracle: the documented message."""
    with pytest.raises(ValueError, match=f"^{re.escape('curves: nothing to plot (no records)')}$"):
        pb_figures.plot_curves({}, tmp_path / "x.png", xlabel="n", ylabel="y", title="t")
    assert saved == []


def _record(dataset, metric, gd, bfgs, checkpoints=(0, 5, 10)):
    return {"dataset": dataset, "checkpoints": list(checkpoints),
            "results": {metric: {"U-GD": {"test_at_checkpoints": gd}, "U-BFGS": {"test_at_checkpoints": bfgs}}}}


def test_plot_convergence_draws_mean_and_band_per_checkpoint(saved, tmp_path):
    """Records of other metrics are ignored; per data set (sorted) and checkpoint, the mean +- se over trials of
    U-GD and U-BFGS, x = the checkpoints; title (size 9), "iteration", "test <metric>", legend on the first panel.
    Oracle: means and standard errors worked out by hand.
    Kills `lfverify.experiments._figures.x_plot_convergence__mutmut_51` (title size 10)."""
    records = [_record("heart", "f1", [0.1, 0.5, 0.6], [0.2, 0.6, 0.7]),
               _record("heart", "f1", [0.3, 0.7, 0.8], [0.4, 0.6, 0.9]),
               _record("breast-cancer", "jaccard", [9.0, 9.0, 9.0], [9.0, 9.0, 9.0]),
               _record("adult", "f1", [0.5, 0.6, 0.65], [0.55, 0.6, 0.7], checkpoints=(0, 4, 8))]
    path = tmp_path / "convergence_f1.png"
    assert pb_figures.plot_convergence(records, "f1", path, title="Test f1 by iteration") == path
    [call] = saved
    assert call.path == path and call.kwargs == {"tight_layout": True}
    fig = call.fig
    assert _size(fig) == pytest.approx([7.2, 2.9], rel=1e-12)
    assert [_grid(ax) for ax in fig.axes] == [(1, 2), (1, 2)]
    assert (fig._suptitle.get_text(), fig._suptitle.get_fontsize()) == (
        "Test f1 by iteration\nlines: mean over 1-2 trials per point; shaded bands: mean +- one standard error (none "
        "for a single trial)", 10)  # heart: 2 records, adult: 1
    adult, heart = fig.axes
    for ax, name in ((adult, "adult"), (heart, "heart")):
        assert (ax.get_title(), ax.title.get_fontsize()) == (name, 9)
        assert (ax.get_xlabel(), ax.xaxis.label.get_fontsize()) == ("iteration", 8)
        assert (ax.get_ylabel(), ax.yaxis.label.get_fontsize()) == ("test f1", 8)
        assert ax.xaxis.get_major_ticks()[0].label1.get_fontsize() == 7
    _check_band(adult, 0, "U-GD", [0, 4, 8], [0.5, 0.6, 0.65], [0.0, 0.0, 0.0], BLUE)
    _check_band(adult, 1, "U-BFGS", [0, 4, 8], [0.55, 0.6, 0.7], [0.0, 0.0, 0.0], ORANGE)
    _check_band(heart, 0, "U-GD", [0, 5, 10], [0.2, 0.6, 0.7], [0.1, 0.1, 0.1], BLUE)
    _check_band(heart, 1, "U-BFGS", [0, 5, 10], [0.3, 0.6, 0.8], [0.1, 0.0, 0.1], ORANGE)
    assert _legend(adult) == (["U-GD", "U-BFGS"], {7.0})
    assert heart.get_legend() is None


@pytest.mark.parametrize("records", [[], [_record("heart", "jaccard", [0.1], [0.2], checkpoints=(0,))]])
def test_plot_convergence_rejects_records_without_the_metric(saved, tmp_path, records):
    """Oracle: the documented message.  Kills `lfverify.experiments._figures.x_plot_convergence__mutmut_14`."""
    message = "records: nothing to plot (no convergence records for this metric)"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        pb_figures.plot_convergence(records, "f1", tmp_path / "x.png", title="t")
    assert saved == []


# ---------------------------------------------------------------------------------------------- loglog_rate_figure
#: log n = 0, 0, 1, 1, 2, 2 and log error = 0, 0.2, 1, 1.2, 1.6, 1.8 (tests/simulations/test_simulations_rates.py works
#: the fit out in fractions: log error = 1/6 + 0.8 log n, HC3 band pinned there); series B is series A halved.
_N = np.exp([0.0, 0.0, 1.0, 1.0, 2.0, 2.0])
_ERRORS = np.exp([0.0, 0.2, 1.0, 1.2, 1.6, 1.8])
_FIT = {"slope": 0.8, "intercept": 1 / 6, "ci_low": 0.51397, "ci_high": 1.08602, "level": 0.95}
_RATE_SERIES = [
    {"label": "A", "n": _N, "errors": _ERRORS, "fit": _FIT, "ignored": True},
    {"label": "B", "n": _N, "errors": _ERRORS / 2, "fit": {**_FIT, "intercept": 1 / 6 - math.log(2), "level": 0.9}},
]
#: per series: (geometric mean, low, high) at n = 1, e, e^2: exp(m -+ t s) with the group means m = 0.1, 1.1, 1.7
#: of the logs, s = 0.1 their standard error and t = tan(0.475 pi) = 12.706204736174705 (A, 95 %) or tan(0.45 pi)
#: = 6.3137515146750431 (B, 90 %): Student t with 1 degree of freedom is Cauchy.  mpmath at 40 digits.
_POINTS = {
    "A": [(1.1051709180756476248, 0.31017442649803816982, 3.9377932344396391284),
          (3.0041660239464331121, 0.84314150720232292730, 10.704031793406240028),
          (5.4739473917271997608, 1.5363039916629423352, 19.504017570743246474)],
    "B": [(0.55258545903782381241, 0.29389805248686542898, 1.0389680603742308168),
          (1.5020830119732165560, 0.79889773549454900496, 2.8242079988646118467),
          (2.7369736958635998804, 1.4556865834340217752, 5.1460424909444664711)],
}
#: the confidence band of the fitted line at n = 1 and n = e^2: A at 95 % (t_{0.975, 4}, pinned in
#: tests/simulations/test_simulations_rates.py), B at 90 % (t_{0.95, 4} = 2.1318467863266503, mpmath), both with the HC3
#: variance 43/2450 of the fitted log at log n = 0 and 2.
_BAND_ENDS = {"A": ((0.81778360865992138728, 1.7065791125026823394), (4.0505087298314362304, 8.4527416790212240851)),
              "B": ((0.44534405447420902926, 0.78344619798158374231), (2.2058035418223416223, 3.8804344213718588212))}


def _check_rate_points(container, points):
    """The plotted points and bars of one series are the geometric means and intervals typed out in ``points``."""
    x, y = container.lines[0].get_xdata(), container.lines[0].get_ydata()
    np.testing.assert_allclose(x, [1.0, math.e, math.e**2], rtol=1e-15)
    np.testing.assert_allclose(y, [p[0] for p in points], rtol=1e-13)
    segments = np.array(_bar_segments(container))
    np.testing.assert_allclose(segments[:, 0, 1], [p[1] for p in points], rtol=1e-13)
    np.testing.assert_allclose(segments[:, 1, 1], [p[2] for p in points], rtol=1e-13)


def _rate_lines(ax):
    """(fit lines, dotted reference lines of 50 points, the legend's reference proxy) of a rate panel."""
    lines = [line for line in ax.lines if len(line.get_xdata()) == 50]
    fits = [line for line in lines if line.get_linestyle() == "-"]
    refs = [line for line in lines if line.get_linestyle() == ":"]
    proxies = [line for line in ax.lines if len(line.get_xdata()) == 0]
    return fits, refs, proxies


def _check_geometric_grid(x, lo, hi):
    """50 points from lo to hi with the constant ratio (hi / lo)^(1/49)."""
    x = np.asarray(x, dtype=float)
    assert len(x) == 50 and x[0] == pytest.approx(lo, rel=1e-14) and x[-1] == pytest.approx(hi, rel=1e-14)
    np.testing.assert_allclose(x[1:] / x[:-1], (hi / lo) ** (1 / 49), rtol=1e-12)


def _check_power_line(line, x0, y0, x1, y1, slope):
    """A straight line in log-log from (x0, y0) to (x1, y1) with the given slope on the geometric grid."""
    x, y = np.asarray(line.get_xdata(), dtype=float), np.asarray(line.get_ydata(), dtype=float)
    _check_geometric_grid(x, x0, x1)
    assert (y[0], y[-1]) == (pytest.approx(y0, rel=1e-12), pytest.approx(y1, rel=1e-12))
    np.testing.assert_allclose(np.diff(np.log(y)) / np.diff(np.log(x)), slope, rtol=1e-9)


def _bands(ax):
    """The fill_between bands of a panel (errorbar's bar collections left out)."""
    from matplotlib.collections import PolyCollection

    return [c for c in ax.collections if isinstance(c, PolyCollection)]


def _band_edges(collection):
    """(x, lower edge, upper edge) of a fill_between band, from its polygon."""
    vertices = _polygon(collection)
    xs = np.unique(vertices[:, 0])
    low = np.array([vertices[vertices[:, 0] == x, 1].min() for x in xs])
    high = np.array([vertices[vertices[:, 0] == x, 1].max() for x in xs])
    return xs, low, high


def test_loglog_rate_figure_draws_what_the_fit_describes(saved, tmp_path):
    """One 6.4 x 4.6 inch log-log panel; per series (colour C0, C1): the geometric mean exp(mean log error) of the
    replications at each n with the Student-t interval of the mean log as bars (marker o, size 4, caps 2), at the
    fit's level; the fitted line exp(a) n^b on 50 geometric points from min n to max n with its confidence band
    (alpha 0.2) from the same fit; a dotted reference line with the claimed exponent through the fitted line at the
    geometric middle of n; grid on both tick levels (alpha 0.3), a legend (size 7) naming every point,
    bar, line and band.  Oracle: the points, bars and band ends worked out in mpmath (above), the lines by hand
    (exp(1/6) = 1.1813604128656460 at n = 1, exp(1/6 + 1.6) = 5.8513164298203443 at e^2; the reference through
    exp(29/30) at n = e: exp(59/30) at 1, exp(-1/30) at e^2)."""
    path = tmp_path / "rate.png"
    assert sim_figures.loglog_rate_figure(path, _RATE_SERIES, title="Lemma 4: a title", ylabel="geometric mean",
                                          expected=-1.0, xlabel="sample size") == path
    [call] = saved
    assert call.path == path and call.kwargs == {}
    fig = call.fig
    assert _size(fig) == pytest.approx([6.4, 4.6], rel=1e-12)
    [ax] = fig.axes
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("sample size", "geometric mean")
    assert (ax.get_title(), ax.title.get_fontsize()) == ("Lemma 4: a title", 10)
    assert _grid_lines(ax, "major") and set(_grid_lines(ax, "major")) == {(True, 0.3)}
    assert _grid_lines(ax, "minor") and set(_grid_lines(ax, "minor")) == {(True, 0.3)}
    assert _legend(ax) == (["A: geometric mean exp(mean log), 95% CI",
                            "  fit exp(a) n^b: b = 0.800 [0.514, 1.086], 95% band",
                            "B: geometric mean exp(mean log), 90% CI",
                            "  fit exp(a) n^b: b = 0.800 [0.514, 1.086], 90% band",
                            "reference slope n^-1"], {7.0})
    fits, refs, proxies = _rate_lines(ax)
    for k, (container, band, fit, ref, name, color) in enumerate(zip(ax.containers, _bands(ax), fits, refs,
                                                                      ("A", "B"), (BLUE, ORANGE))):
        scale = 0.5**k
        _check_rate_points(container, _POINTS[name])
        data = container.lines[0]
        assert (data.get_marker(), data.get_markersize(), data.get_linestyle()) == ("o", 4, "None")
        assert to_hex(data.get_color()) == color
        assert [cap.get_markersize() for cap in container.lines[1]] == [4, 4]  # caps of 2 points each side
        _check_power_line(fit, 1.0, scale * 1.1813604128656460, math.e**2, scale * 5.8513164298203443, 0.8)
        assert (fit.get_linewidth(), to_hex(fit.get_color())) == (1, color)
        xs, low, high = _band_edges(band)
        _check_geometric_grid(xs, 1.0, math.e**2)
        (low0, high0), (low1, high1) = _BAND_ENDS[name]
        np.testing.assert_allclose([low[0], high[0], low[-1], high[-1]], [low0, high0, low1, high1], rtol=1e-12)
        line_y = np.asarray(fit.get_ydata())
        assert np.all(low < line_y) and np.all(line_y < high)  # the band holds its line everywhere
        assert (to_hex(band.get_facecolor()[0], keep_alpha=False), band.get_alpha()) == (color, 0.2)
        _check_power_line(ref, 1.0, scale * 7.1468140262504863, math.e**2, scale * 0.96721610048200590, -1.0)
        assert (ref.get_linewidth(), to_hex(ref.get_color())) == (1, color)
    assert len(ax.containers) == len(_bands(ax)) == len(fits) == len(refs) == 2
    [proxy] = proxies
    assert (proxy.get_linestyle(), to_hex(proxy.get_color())) == (":", "#000000")
    assert ax.get_position().bounds != pytest.approx((0.125, 0.11, 0.775, 0.77), rel=0, abs=1e-6)  # tight layout


_DEVIATION_SERIES = [  # a bias falling like 5 / n from above (A) and from below (B), each with its power-law fit
    {"label": label, "fit": {"intercept": math.log(5.0), "slope": -1.0, "ci_low": -1.2, "ci_high": -0.8, "level": 0.95},
     "table": [{"n": 10, "mean": sign * 0.5, "ci_low": sign * 0.5 - 0.2, "ci_high": sign * 0.5 + 0.1, "level": 0.95,
                "standard_error": 0.1},
               {"n": 100, "mean": sign * 0.05, "ci_low": sign * 0.05 - 0.02, "ci_high": sign * 0.05 + 0.01,
                "level": 0.95, "standard_error": 0.01}]}
    for label, sign in (("A", 1.0), ("B", -1.0))]


def test_mean_deviation_figure_draws_each_series_and_its_fit_in_one_colour_with_the_sign_of_the_means(saved,
                                                                                                        tmp_path):
    """One 6.4 x 4.6 inch panel, n on a log axis: the line 0 (black), and per series (colour C0, C1) the means with
    their interval as bars (marker o, size 4) and the fitted c n^p on 50 geometric points, drawn with the sign of
    the means (fit_power_law's rule): + 5 / n for A, - 5 / n for B, from 0.5 at n = 10 to 0.05 at n = 100 in
    absolute value.  Oracle: the data above and the lines worked by hand.

    Kills `lfverify.simulations._rate_figures.x_mean_deviation_figure__mutmut_62` (the bars' colour dropped) and
    `..._mutmut_120` (the fit drawn with + for a negative series)."""
    path = tmp_path / "bias.png"
    assert sim_figures.mean_deviation_figure(path, _DEVIATION_SERIES, title="Lemma 3: bias") == path
    [call] = saved
    [ax] = call.fig.axes
    assert _size(call.fig) == pytest.approx([6.4, 4.6], rel=1e-12)
    assert (ax.get_xscale(), ax.get_yscale(), ax.get_xlabel(), ax.get_ylabel()) == (
        "log", "linear", "n", "mean of estimate - target")
    assert _legend(ax) == (["0 (no bias)", "A: mean, 95% CI", "  fit c n^p: p = -1.000 [-1.200, -0.800] (95% CI)",
                            "B: mean, 95% CI", "  fit c n^p: p = -1.000 [-1.200, -0.800] (95% CI)"], {7.0})
    zero, *fits = ax.get_lines()[:1] + [line for line in ax.get_lines()[1:] if len(line.get_xdata()) == 50]
    assert (list(zero.get_ydata()), to_hex(zero.get_color())) == ([0.0, 0.0], "#000000")
    assert len(ax.containers) == len(fits) == 2
    for container, fit, sign, color in zip(ax.containers, fits, (1.0, -1.0), (BLUE, ORANGE)):
        data = container.lines[0]
        np.testing.assert_array_equal(data.get_xdata(), [10.0, 100.0])
        np.testing.assert_allclose(data.get_ydata(), [sign * 0.5, sign * 0.05], rtol=1e-15, atol=0)
        assert (data.get_marker(), data.get_markersize(), to_hex(data.get_color())) == ("o", 4, color)
        assert {to_hex(c) for c in container.lines[2][0].get_colors()} == {color}  # the bars
        x, y = np.asarray(fit.get_xdata()), np.asarray(fit.get_ydata())
        np.testing.assert_allclose(x[[0, -1]], [10.0, 100.0], rtol=1e-15, atol=0)
        np.testing.assert_allclose(y[[0, -1]], [sign * 0.5, sign * 0.05], rtol=1e-14, atol=0)
        assert (fit.get_linewidth(), to_hex(fit.get_color())) == (1, color)


def test_loglog_rate_points_of_arithmetic_means_fail_the_geometric_mean_check(saved, tmp_path, monkeypatch):
    """Companion: the former figure plotted the arithmetic mean error (with its t interval) under a fit of the mean
    log error; with the points computed that way (geometric_mean_interval replaced by mean_interval) the check of
    the test above fails: (1 + e^0.2) / 2 = 1.1107013790800849 is not exp(0.1) = 1.1051709180756476."""
    import lfverify.simulations._intervals as intervals

    monkeypatch.setattr(sim_figures, "geometric_mean_interval", intervals.mean_interval)
    sim_figures.loglog_rate_figure(tmp_path / "rate.png", _RATE_SERIES[:1], title="t", ylabel="y")
    [ax] = saved[0].fig.axes
    assert ax.containers[0].lines[0].get_ydata()[0] == pytest.approx(1.1107013790800849, rel=1e-13)
    with pytest.raises(AssertionError):
        _check_rate_points(ax.containers[0], _POINTS["A"])


# ---------------------------------------------------------------------------------------------- studies' _figures
def _consistency_rows():
    """theta* = (0, 0), U_phi(theta*) = 0.5, U(theta*) = 0.8 for both metrics; per replication at n the distance,
    surrogate gap and true gap planted as theta_hat = (d, 0), U_phi = 0.5 - g, U = 0.8 - t.  F1 at n = 100 has a
    third replication whose surrogate gap is 0 (theta_hat = theta*): left out of that panel, kept in the others."""
    rows = [{"kind": "population", "metric": m, "tau": tau, "theta_1": 0.0, "theta_2": 0.0, "surrogate_utility": 0.5,
             "true_utility": 0.8} for m, tau in (("F1", 0.33), ("Jaccard", 0.75))]
    for k, metric in enumerate(("F1", "Jaccard")):
        for n, values in ((100, [(0.4, 0.04, 0.02), (0.2, 0.01, -0.01)] + ([(0.3, 0.0, 0.03)] if k == 0 else [])),
                          (400, [(0.2, 0.01, 0.01), (0.1, 0.0025, -0.005)]),
                          (1600, [(0.1, 0.0025, 0.005), (0.05, 0.000625, -0.0025)])):
            for d, g, t in values:
                rows.append({"kind": "sample", "metric": metric, "n": n, "theta_1": d * (k + 1), "theta_2": 0.0,
                             "surrogate_utility": 0.5 - g, "true_utility": 0.8 - t})
    return rows


def test_consistency_figures_one_rate_panel_per_quantity(saved, tmp_path):
    """Three log-log panels (distance, surrogate gap, |true gap|) with the claimed exponents -1/2, -1, -1/2, a
    series per metric whose points are the geometric means of that quantity's replications (non-positive gaps
    left out, as in the fit) and whose line is that quantity's fit from the summary.  Oracle: rows planted by
    hand (above) and exp(mean log) of the planted values written out, e.g. the F1 distance at n = 100:
    (0.4 x 0.2 x 0.3)^(1/3), the F1 surrogate gap there sqrt(0.04 x 0.01) = 0.02 (the zero gap left out)."""
    names = ("distance", "surrogate_gap", "true_gap_abs")
    summary = {"settings": {m: {"tau": tau, "rate_fits": {q: {"slope": -0.5 - j, "intercept": -1.0 - k, "ci_low": -1.0,
                                                             "ci_high": 0.0, "level": 0.95}
                                                         for j, q in enumerate(names)}}
                            for k, (m, tau) in enumerate((("F1", 0.33), ("Jaccard", 0.75)))}}
    paths = con._figures(_consistency_rows(), summary, tmp_path)
    assert paths == [tmp_path / "consistency_distance.png", tmp_path / "consistency_surrogate_gap.png",
                     tmp_path / "consistency_true_gap_abs.png"]
    assert [c.path for c in saved] == paths
    labels = ["||theta_hat_n - theta*||", "U_phi(theta*) - U_phi(theta_hat_n)", "|U(theta*) - U(theta_hat_n)|"]
    expected_points = {  # metric -> quantity -> geometric mean at n = 100, 400, 1600
        "F1": {"distance": [(0.4 * 0.2 * 0.3) ** (1 / 3), math.sqrt(0.02), math.sqrt(0.005)],
               "surrogate_gap": [0.02, 0.005, 0.00125], "true_gap_abs": [(0.02 * 0.01 * 0.03) ** (1 / 3),
                                                                         math.sqrt(0.00005), math.sqrt(0.0000125)]},
        "Jaccard": {"distance": [2 * math.sqrt(0.08), 2 * math.sqrt(0.02), 2 * math.sqrt(0.005)],
                    "surrogate_gap": [0.02, 0.005, 0.00125],
                    "true_gap_abs": [math.sqrt(0.0002), math.sqrt(0.00005), math.sqrt(0.0000125)]}}
    for j, (call, name, label, expected) in enumerate(zip(saved, names, labels, (-0.5, -1.0, -0.5))):
        [ax] = call.fig.axes
        assert ax.get_title() == f"Thm. 5 on the bounded-logistic population: {label}"
        assert (ax.get_xlabel(), ax.get_ylabel()) == ("n", f"geometric mean of {label}")
        fit_label = f"  fit exp(a) n^b: b = {-0.5 - j:.3f} [-1.000, 0.000], 95% band"
        assert _legend(ax) == (["F1 (tau = 0.33): geometric mean exp(mean log), 95% CI", fit_label,
                                "Jaccard (tau = 0.75): geometric mean exp(mean log), 95% CI", fit_label,
                                f"reference slope n^{'-1' if expected == -1.0 else '-0.5'}"], {7.0})
        fits, refs, _ = _rate_lines(ax)
        for k, (container, fit, ref, metric) in enumerate(zip(ax.containers, fits, refs, ("F1", "Jaccard"))):
            np.testing.assert_allclose(container.lines[0].get_xdata(), [100, 400, 1600], rtol=0)
            np.testing.assert_allclose(container.lines[0].get_ydata(), expected_points[metric][name], rtol=1e-13)
            a, b = -1.0 - k, -0.5 - j
            _check_power_line(fit, 100, math.exp(a) * 100**b, 1600, math.exp(a) * 1600**b, b)
            at_400 = math.exp(a) * 400**b  # 400 = sqrt(100 x 1600), the reference's anchor
            _check_power_line(ref, 100, at_400 * 0.25**expected, 1600, at_400 * 4**expected, expected)


def test_uniform_convergence_figures_one_rate_panel_per_population(saved, tmp_path):
    """One log-log panel per population (finite, bounded-logistic), a series per metric drawn from that
    population's and metric's rows only, reference n^-1/2.  Oracle: rows planted by hand (the sup errors of each
    (population, metric) are those of _ERRORS times a factor of its own) and the titles typed out."""
    factors = {("finite", "F1"): 1.0, ("finite", "Jaccard"): 0.5, ("bounded-logistic", "F1"): 0.25,
               ("bounded-logistic", "Jaccard"): 0.125}
    rows = [{"population": p, "metric": m, "tau": 0.0, "n": float(n), "replication": i, "sup_error": f * e}
            for (p, m), f in factors.items() for i, (n, e) in enumerate(zip(_N, _ERRORS))]
    summary = {"settings": {f"{p}/{m}": {"tau": tau, "rate_fit": {**_FIT, "intercept": 1 / 6 + math.log(f)}}
                            for (p, m), f in factors.items() for tau in [0.33 if m == "F1" else 0.75]}}
    paths = uc._figures(rows, summary, tmp_path)
    assert paths == [tmp_path / "uniform_convergence_finite.png", tmp_path / "uniform_convergence_bounded-logistic.png"]
    for call, pop in zip(saved, ("finite", "bounded-logistic")):
        [ax] = call.fig.axes
        assert ax.get_title() == f"Lemma 4, {pop} population: sup ||V_hat - V|| over ||theta|| <= 3"
        assert ax.get_ylabel() == "geometric mean of sup_theta ||V_hat(theta) - V(theta)||"
        fit_label = "  fit exp(a) n^b: b = 0.800 [0.514, 1.086], 95% band"
        assert _legend(ax) == (["F1 (tau = 0.33): geometric mean exp(mean log), 95% CI", fit_label,
                                "Jaccard (tau = 0.75): geometric mean exp(mean log), 95% CI", fit_label,
                                "reference slope n^-0.5"], {7.0})
        fits, _, _ = _rate_lines(ax)
        for container, fit, metric in zip(ax.containers, fits, ("F1", "Jaccard")):
            f = factors[(pop, metric)]
            _check_rate_points(container, [tuple(f * v for v in p) for p in _POINTS["A"]])
            _check_power_line(fit, 1.0, f * 1.1813604128656460, math.e**2, f * 5.8513164298203443, 0.8)


def _calibration_summary():
    """Per metric: means exactly 0.01 + 0.3 n^-1/2 (+ 0.1 for Jaccard) at n = 100, 400, 1600 with standard errors
    0.004, 0.002, 0.001 and 95 % intervals typed as mean - 0.02 .. mean + 0.03 (they need not be symmetric)."""
    def main(tau, shift):
        return {"tau": tau, "table": [{"n": n, "mean_gap": 0.01 + shift + 0.3 / math.sqrt(n), "standard_error": se,
                                       "ci_low": 0.01 + shift + 0.3 / math.sqrt(n) - 0.02,
                                       "ci_high": 0.01 + shift + 0.3 / math.sqrt(n) + 0.03}
                                      for n, se in ((100, 0.004), (400, 0.002), (1600, 0.001))],
                "limit_fit": {"limit": 0.01 + shift, "coefficient": 0.3, "exponent": -0.5, "ci_low": 0.005 + shift,
                              "ci_high": 0.015 + shift, "level": 0.95},
                "population": {"linear_gap": 0.012 + shift}}

    def sweep(hold):
        return {"entries": [{"tau": tau, "linear_gap": 0.1 * (i + 1), "measured_gap": 0.11 * (i + 1),
                             "measured_gap_ci": [0.09 * (i + 1), 0.14 * (i + 1)], "n": 1000,
                             "sign_gap": 0.05 * (i + 1), "hypotheses_hold": h}
                            for i, (tau, h) in enumerate(zip((0.2, 0.5, 0.8), hold))]}

    return {"main": {"F1": main(0.33, 0.0), "Jaccard": main(0.75, 0.1)},
            "sweep": {"F1": sweep((True, False, True)), "Jaccard": sweep((False, True, False))}}


def test_calibration_figures_gap_against_n(saved, tmp_path):
    """First figure: per metric the measured mean gap with the table's 95 % interval as bars, the fit a + b n^-1/2
    on the n range with its confidence band, the exact linear gap as a dotted horizontal line; zero line; log x;
    legend size 7 naming each.  Oracle: a summary typed by hand (means on 0.01 + 0.3 n^-1/2: 0.04 at n = 100,
    0.0175 at 1600); the band of the weighted fit with known standard errors worked out in fractions,
    (X'WX)^-1 = [[3/875000, -1/12500], [-1/12500, 3/1250]], variance 1/87500 at n = 100 and 13/14000000 at 1600,
    times z_{0.975} = 1.9599639845400542 (mpmath): [0.033374112397405267, 0.046625887602594733] at 100 and
    [0.015611331446513110, 0.019388668553486890] at 1600 (no lack of fit: the means lie on the curve)."""
    paths = cal._figures([], _calibration_summary(), tmp_path)
    assert paths == [tmp_path / "calibration_gap_vs_n.png", tmp_path / "calibration_tau_sweep.png"]
    assert [c.path for c in saved] == paths and [c.kwargs for c in saved] == [{}, {}]
    fig = saved[0].fig
    assert _size(fig) == pytest.approx([6.4, 4.6], rel=1e-12)
    [ax] = fig.axes
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "linear")
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("n", "U-dagger - U(theta_hat_n)")
    assert ax.get_title() == "Calibration on a Gaussian population with a linear Bayes classifier"
    assert _legend(ax) == (["F1 (tau = 0.33): mean U-dagger - U(theta_hat_n), 95% CI",
                            "  fit a + b n^-0.5 (WLS): a = 0.0100 [0.0050, 0.0150], 95% band",
                            "  exact U-dagger - U(theta*) = 0.0120",
                            "Jaccard (tau = 0.75): mean U-dagger - U(theta_hat_n), 95% CI",
                            "  fit a + b n^-0.5 (WLS): a = 0.1100 [0.1050, 0.1150], 95% band",
                            "  exact U-dagger - U(theta*) = 0.1120"], {7.0})
    means = [0.04, 0.025, 0.0175]
    for k, (container, color) in enumerate(zip(ax.containers, (BLUE, ORANGE))):
        shift = 0.1 * k
        assert list(container.lines[0].get_xdata()) == [100.0, 400.0, 1600.0]
        np.testing.assert_allclose(container.lines[0].get_ydata(), np.add(means, shift), rtol=1e-14)
        assert to_hex(container.lines[0].get_color()) == color
        segments = np.array(_bar_segments(container))
        np.testing.assert_allclose(segments[:, :, 1], [[m + shift - 0.02, m + shift + 0.03] for m in means],
                                   rtol=1e-13)
    fits = [line for line in ax.lines if len(line.get_xdata()) == 50]
    assert len(fits) == len(_bands(ax)) == 2
    for k, (fit, band, color) in enumerate(zip(fits, _bands(ax), (BLUE, ORANGE))):
        x, y = np.asarray(fit.get_xdata()), np.asarray(fit.get_ydata())
        _check_geometric_grid(x, 100, 1600)
        np.testing.assert_allclose(y, 0.01 + 0.1 * k + 0.3 / np.sqrt(x), rtol=1e-12)
        xs, low, high = _band_edges(band)
        np.testing.assert_allclose(xs, x, rtol=1e-15)
        np.testing.assert_allclose([low[0], high[0], low[-1], high[-1]],
                                   np.add([0.033374112397405267, 0.046625887602594733, 0.015611331446513110,
                                           0.019388668553486890], 0.1 * k), rtol=1e-12)
        assert np.all(low < y) and np.all(y < high)
        assert (to_hex(band.get_facecolor()[0], keep_alpha=False), band.get_alpha()) == (color, 0.2)
    exact = [line for line in ax.lines if line.get_linestyle() == ":"]
    assert [(list(line.get_ydata()), to_hex(line.get_color())) for line in exact] == [
        ([0.012, 0.012], BLUE), ([0.112, 0.112], ORANGE)]
    [zero] = [line for line in ax.lines if list(line.get_ydata()) == [0, 0]]
    assert to_hex(zero.get_color()) == "#808080"


def test_calibration_figures_tau_sweep(saved, tmp_path):
    """Second figure: one 11 x 4.4 inch row of two panels; per metric the linear-model gap ("o-", size 4), the
    measured gap with its asymmetric interval ("x"), the sign gap ("s--") against tau, a green span tau +- 0.02
    where the hypotheses hold; "tau" on x, legend size 7.  Oracle: a summary typed by hand.
    Kills `lfverify.simulations._study_calibration.x__figures__mutmut_190` (no "o-"), `_mutmut_252`
    (x["HYPOTHESES_HOLD"]), `_mutmut_276` ("XXtauXX"), `__lfv_dropkw_3` (legend font size)."""
    cal._figures([], _calibration_summary(), tmp_path)
    fig = saved[1].fig
    assert _size(fig) == pytest.approx([11.0, 4.4], rel=1e-12)
    assert [_grid(ax) for ax in fig.axes] == [(1, 2), (1, 2)]
    for ax, metric, spans in zip(fig.axes, ("F1", "Jaccard"), ([0.2, 0.8], [0.5])):
        assert ax.get_title() == f"{metric}: tau sweep (green: the theorem's hypotheses hold)"
        assert ax.title.get_fontsize() == 9
        assert (ax.get_xlabel(), ax.get_ylabel()) == ("tau", "gap to U-dagger")
        assert _legend(ax) == (["linear model: U-dagger - U(theta*)", "all f: U-dagger - U(sgn f*)",
                                "measured U-dagger - U(theta_hat_n), n = 1000"], {7.0})
        assert set(_grid_lines(ax, "major")) == {(True, 0.3)}
        [linear] = [line for line in ax.lines if line.get_label().startswith("linear")]
        [sign] = [line for line in ax.lines if line.get_label().startswith("all f")]
        for line, (marker, style, values) in ((linear, ("o", "-", [0.1, 0.2, 0.3])),
                                              (sign, ("s", "--", [0.05, 0.1, 0.15]))):
            assert list(line.get_xdata()) == [0.2, 0.5, 0.8]
            np.testing.assert_allclose(line.get_ydata(), values, rtol=1e-15)
            assert (line.get_marker(), line.get_linestyle(), line.get_markersize()) == (marker, style, 4)
        [measured] = ax.containers
        assert measured.lines[0].get_marker() == "x"
        np.testing.assert_allclose(np.array(_bar_segments(measured)),
                                   [[(t, 0.09 * i), (t, 0.14 * i)] for i, t in ((1, 0.2), (2, 0.5), (3, 0.8))],
                                   rtol=1e-12)
        assert [(p.get_x(), p.get_width()) for p in ax.patches] == [
            (pytest.approx(t - 0.02, rel=1e-12), pytest.approx(0.04, rel=1e-12)) for t in spans]
        assert {to_hex(p.get_facecolor(), keep_alpha=False) for p in ax.patches} == {"#008000"}  # "green"
        assert {p.get_alpha() for p in ax.patches} == {0.12}


def test_unbiasedness_figures_scaled_bias_per_population(saved, tmp_path):
    """Per population a 6.4 x 4.6 inch panel of n x projection (split "o", same-sample "s", size 4, caps 2) with
    1.96 n s.e. bars per metric, the exact bias line at 1 and zero; the title gives the replications of the first
    F1 row.  Oracle: a summary typed by hand (n x mean: 100 x 0.01 = 1, 400 x 0.0025 = 1; split 0).
    Kills `lfverify.simulations._study_unbiasedness.x__figures__mutmut_43` (fmt None), `_mutmut_48` (y dropped),
    `_mutmut_59` (capsize 3), `_mutmut_120` (save_figure(None)), `__lfv_dropkw_1` (no figsize)."""
    summary = {"settings": {f"{p}/{m}": {"table": [
        {"n": n, "replications": 20 + 10 * j, "split_projection": 0.0, "split_projection_standard_error": se,
         "same_sample_projection": 1.0 / n, "same_sample_projection_standard_error": 2 * se}
        for n, se in ((100, 0.001), (400, 0.0005))]} for j, p in enumerate(("finite", "bounded-logistic"))
        for m in ("F1", "Jaccard")}}
    paths = ub._figures([], summary, tmp_path)
    assert paths == [tmp_path / "unbiasedness_finite.png", tmp_path / "unbiasedness_bounded-logistic.png"]
    assert [c.path for c in saved] == paths and [c.kwargs for c in saved] == [{}, {}]
    for call, pop, reps in zip(saved, ("finite", "bounded-logistic"), (20, 30)):
        assert isinstance(call.fig, Figure)
        assert _size(call.fig) == pytest.approx([6.4, 4.6], rel=1e-12)
        [ax] = call.fig.axes
        assert ax.get_title() == (f"Lemma 3, {pop} population: bias along B, times n ({reps} replications, "
                                  "95% bars)")
        assert (ax.get_xscale(), ax.get_xlabel(), ax.get_ylabel()) == ("log", "n", "n x <mean(V_hat - V), B> / |B|^2")
        assert _legend(ax) == (["exact same-sample bias (B / n)", "F1: V_hat (Eq. 7)", "F1: same-sample",
                                "Jaccard: V_hat (Eq. 7)", "Jaccard: same-sample"], {7.0})
        for container, (marker, y, se) in zip(ax.containers, [("o", 0.0, 0.001), ("s", 1.0, 0.002)] * 2):
            data = container.lines[0]
            assert (data.get_marker(), data.get_markersize()) == (marker, 4)
            assert list(data.get_xdata()) == [100.0, 400.0]
            np.testing.assert_allclose(data.get_ydata(), [y, y], rtol=1e-14)
            assert [cap.get_markersize() for cap in container.lines[1]] == [4, 4]
            np.testing.assert_allclose(np.array(_bar_segments(container)),
                                       [[(100, y - 1.96 * 100 * se), (100, y + 1.96 * 100 * se)],
                                        [(400, y - 1.96 * 400 * se / 2), (400, y + 1.96 * 400 * se / 2)]], rtol=1e-12)
        horizontal = [(list(line.get_ydata()), line.get_linestyle(), to_hex(line.get_color()))
                      for line in ax.lines if line.get_linestyle() != "None" and len(line.get_ydata()) == 2
                      and line.get_ydata()[0] == line.get_ydata()[1]]
        assert horizontal == [([1.0, 1.0], ":", "#000000"), ([0.0, 0.0], "-", "#808080")]
