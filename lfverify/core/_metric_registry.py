"""One home for what the package knows about each metric by name: Table 1's metrics (and any added one) with their
names, factory, default and paper tau, title and the row of ``lfverify metrics``.

Every other place reads this table: :func:`resolve_metric` (names -> metric, for the estimators, the testing kit and
the command line), :func:`default_tau`, :func:`paper_tau` (Sec. 6: "tau was set to 0.33 in the F1-measure case and
0.75 in the Jaccard index case"), :func:`metric_title` (the reports' headings) and :func:`metrics_table_rows`.
Adding a metric is one :class:`MetricEntry` in :data:`METRIC_REGISTRY` plus its tests (docs/contributing.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from lfverify.core._metrics import LinearFractionalMetric, accuracy, f_beta, gower_legendre, jaccard

__all__ = ["MetricEntry", "METRIC_REGISTRY", "resolve_metric", "default_tau", "paper_tau", "metric_title",
           "metrics_table_rows"]


@dataclass(frozen=True)
class MetricEntry:
    """A family of metrics known by name.

    Parameters
    ----------
    family : str
        ``LinearFractionalMetric.family`` of the metrics the factory builds ("custom" for an added metric, which
        is then found by equality with ``factory(None)``).
    names : tuple of str
        Exact names (lower case) that resolve to ``factory(None)``.
    pattern : str
        A regular expression for parametrised names (its group 1 is the parameter, > 0), e.g. "f2" -> beta = 2;
        empty for a family without parametrised names.
    factory : callable
        ``factory(parameter)`` -> LinearFractionalMetric (``parameter`` None for an exact name).
    title : callable
        ``title(metric)`` -> the heading used in reports ("F1-measure").
    default_tau : callable
        ``default_tau(metric)`` -> the discrepancy tau of the loss the estimators use by default.
    paper_tau : float or None
        Sec. 6's tau for the parameter-free name (F_1, Jaccard), None where the paper sets none.
    cli : callable or None
        ``cli(options)`` -> the metric ``lfverify metrics`` prints (its ``--beta`` / ``--alpha``); None to omit.
    pattern_help : str
        How the parametrised names read, for error messages.
    """

    family: str
    names: tuple
    pattern: str
    factory: Callable
    title: Callable
    default_tau: Callable
    paper_tau: float | None = None
    cli: Callable | None = None
    pattern_help: str = ""  #: how the parametrised names read, for error messages ("'f<beta>' (e.g. 'f2', 'f0.5')")


def _fbeta_tau(metric) -> float:
    if metric.parameter == 1.0:
        return 0.33  # Sec. 6: "tau was set to 0.33 in the F1-measure case"
    b2 = metric.parameter ** 2
    return round(0.99 * b2 / (2.0 + b2), 6)  # inside Thm. 1's range (0, beta^2 / (2 + beta^2)]


def _no_tau(metric) -> float:
    raise ValueError(f"tau: no default for the metric {metric.name!r} (family {metric.family!r}); pass tau "
                     "explicitly (Thm. 7 gives the admissible range)")


#: The metrics known by name, in the order ``lfverify metrics`` prints them.
METRIC_REGISTRY: tuple[MetricEntry, ...] = (
    MetricEntry("f_beta", names=("f1",), pattern=r"^f_?(\d+(?:\.\d*)?|\.\d+)$",
                factory=lambda beta: f_beta(1.0 if beta is None else beta),
                title=lambda m: f"F{m.parameter:g}-measure", default_tau=_fbeta_tau, paper_tau=0.33,
                cli=lambda options: f_beta(options.beta), pattern_help="'f<beta>' (e.g. 'f2', 'f0.5')"),
    MetricEntry("jaccard", names=("jaccard",), pattern="", factory=lambda _: jaccard(), title=lambda m: "Jaccard index",
                default_tau=lambda m: 0.75,
                paper_tau=0.75, cli=lambda options: jaccard()),  # Sec. 6: "0.75 in the Jaccard index case"
    MetricEntry("gower_legendre", names=(), pattern="",
                factory=lambda alpha: gower_legendre(0.5 if alpha is None else alpha),
                title=lambda m: f"Gower-Legendre({m.parameter:g})", default_tau=_no_tau,
                cli=lambda options: gower_legendre(options.alpha)),
    MetricEntry("accuracy", names=("accuracy",), pattern="", factory=lambda _: accuracy(), title=lambda m: "accuracy",
                default_tau=lambda m: 1.0, cli=lambda options: accuracy()),
)


def _names() -> str:
    return ", ".join(part for e in METRIC_REGISTRY for part in [*(f"'{n}'" for n in e.names), e.pattern_help] if part)


def resolve_metric(metric) -> LinearFractionalMetric:
    """The :class:`~lfverify.core.LinearFractionalMetric` named by ``metric`` (a name of :data:`METRIC_REGISTRY`:
    'f1', 'f<beta>' such as 'f2' or 'f0.5', 'jaccard', 'accuracy'; case and surrounding spaces ignored), or
    ``metric`` itself if it is one.

    Raises
    ------
    ValueError
        For an unknown name.
    TypeError
        For anything that is neither a str nor a LinearFractionalMetric.
    """
    if isinstance(metric, LinearFractionalMetric):
        return metric
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a metric name (str) or a LinearFractionalMetric; got {metric!r}")
    name = metric.strip().lower()
    for entry in METRIC_REGISTRY:
        if name in entry.names:
            return entry.factory(None)
        match = re.match(entry.pattern, name) if entry.pattern else None
        if match and float(match.group(1)) > 0:
            return entry.factory(float(match.group(1)))
    raise ValueError(f"metric must be {_names()} or a LinearFractionalMetric; got {metric!r}")


def _entry(metric) -> MetricEntry:
    """The entry of ``metric``: by its family, or - for an added metric of family "custom" - the entry whose
    parameter-free factory builds an equal metric."""
    metric = resolve_metric(metric)
    for entry in METRIC_REGISTRY:
        if entry.family == metric.family != "custom" or (
                entry.family == metric.family == "custom" and entry.factory(None) == metric):
            return entry
    raise ValueError(f"metric {metric.name!r} (family {metric.family!r}) is not in the metric registry")


def default_tau(metric) -> float:
    """The default discrepancy tau of the loss for a metric (Sec. 6 for F_1 and Jaccard; for F_beta,
    0.99 beta^2 / (2 + beta^2) rounded to 6 decimals, inside Thm. 1's range; 1 for accuracy, the plain logistic
    loss).

    Raises
    ------
    ValueError
        For a metric outside the F_beta, Jaccard and accuracy families (pass tau explicitly).

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Sec. 6 (tau = 0.33 for F_1, 0.75 for Jaccard); Thm. 1's range for F_beta.

    Examples
    --------
    >>> from lfverify.core import default_tau, f1, f_beta, jaccard
    >>> default_tau(f1()), default_tau(jaccard())
    (0.33, 0.75)
    >>> round(default_tau(f_beta(2.0)), 12)   # 0.99 * 4 / 6
    0.66
    """
    metric = resolve_metric(metric)
    try:
        entry = _entry(metric)
    except ValueError:
        return _no_tau(metric)
    return entry.default_tau(metric)


def paper_tau(metric) -> float:
    """Sec. 6's tau for the metric named ``metric`` ("f1": 0.33, "jaccard": 0.75).

    Raises
    ------
    ValueError
        For a metric the paper sets no tau for.
    """
    entry = _entry(metric)
    if entry.paper_tau is None:
        raise ValueError(f"metric {metric!r}: the paper sets no tau for it (Sec. 6 sets F1's and Jaccard's)")
    return entry.paper_tau


def metric_title(metric) -> str:
    """The heading of a metric in the reports ("F1-measure", "Jaccard index"); a name the registry does not know is
    returned unchanged."""
    try:
        metric_object = resolve_metric(metric)
        return _entry(metric_object).title(metric_object)
    except ValueError:
        return str(metric)


def metrics_table_rows(options) -> list[LinearFractionalMetric]:
    """The metrics ``lfverify metrics`` prints, in registry order (``options``: its parsed ``--beta`` and
    ``--alpha``)."""
    return [entry.cli(options) for entry in METRIC_REGISTRY if entry.cli is not None]
