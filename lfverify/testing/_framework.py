"""The kit's machinery: a named theory check, the subject it runs on, how a failure is reported, and how the
user's code is called so that its exceptions and NaNs become failed checks with a witness, never a crash.

A *subject* (:class:`Subject`) is one object under test together with the options of its public check
(``Subject(check_metric, f1_score, metric="f1")``).  :func:`theory_checks` lists the named checks that apply to it
(:class:`TheoryCheck`); a check returns ``None`` when it passes, raises :class:`TheoryCheckFailure` (an
``AssertionError``) naming the claim, the witness and both values when it fails, and :class:`CheckNotApplicable`
when it cannot run on this subject (a randomized function under an exact-enumeration check, say).
"""

from __future__ import annotations

import inspect
import math
import os
import sys
import warnings
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

__all__ = ["TheoryCheck", "TheoryCheckFailure", "CheckNotApplicable", "Subject", "theory_checks"]


class TheoryCheckFailure(AssertionError):
    """A theory check failed: the implementation disagrees with a claim of the paper on a witness.

    Attributes
    ----------
    check : str
        The name of the check (``"unbiased_exact"``, ...).
    claim : str
        The claim checked, with its place in the paper ("Lemma 3: E[V_hat] = V_phi").
    witness : dict
        The inputs on which the implementation disagrees.
    observed, expected
        The implementation's value and the oracle's.
    detail : str
        How they were compared (the tolerance, the test statistic, ...).
    """

    def __init__(self, check: str, claim: str, witness: dict, observed, expected, detail: str = ""):
        self.check, self.claim, self.witness = check, claim, dict(witness)
        self.observed, self.expected, self.detail = observed, expected, detail
        super().__init__(self._message())

    def _message(self) -> str:
        lines = [f"{self.check}: {self.claim}", "  witness:"]
        lines += [f"    {key} = {_show(value)}" for key, value in self.witness.items()]
        lines += [f"  implementation: {_show(self.observed)}", f"  expected:       {_show(self.expected)}"]
        if self.detail:
            lines.append(f"  {self.detail}")
        return "\n".join(lines)


class CheckNotApplicable(Exception):
    """The check does not apply to this subject (the reason is the message); neither a pass nor a failure."""


def _show(value, limit: int = 400) -> str:
    """A compact, complete-enough rendering of a witness value for a failure message."""
    if isinstance(value, np.ndarray):
        text = np.array2string(value, precision=17, separator=", ", threshold=60, max_line_width=10_000)
    elif isinstance(value, float):
        text = repr(value)
    else:
        text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


@dataclass(frozen=True)
class TheoryCheck:
    """One named check of one kind of subject.

    Calling it on a :class:`Subject` runs it: ``None`` when it passes, :class:`TheoryCheckFailure` when it fails;
    when it does not apply, it calls ``pytest.skip`` inside a pytest run and returns ``None`` with a warning
    otherwise.

    Attributes
    ----------
    name : str
        The check's name, unique within its kind (the second half of a generated test id).
    kind : str
        The public check function it belongs to (``"check_metric"``, ...).
    claim : str
        The paper's claim it checks.
    function : callable
        ``function(obj, **options)`` - the check itself.
    false_alarm : str
        Its false-alarm probability at its fixed seed budget ("0: exact" for deterministic checks).
    """

    name: str
    kind: str
    claim: str
    function: Callable = field(repr=False, compare=False)
    false_alarm: str = "0 (deterministic: decided on exact values up to rounding)"

    def run(self, subject: "Subject") -> str | None:
        """Run the check: ``None`` if it passed, the reason if it does not apply; raises on failure."""
        try:
            self.function(subject.obj, **subject.options)
        except CheckNotApplicable as reason:
            return str(reason) or "not applicable"
        return None

    def __call__(self, subject: "Subject") -> None:
        if not isinstance(subject, Subject):
            raise TypeError(f"subject must be a lfverify.testing.Subject; got {type(subject).__name__}")
        reason = self.run(subject)
        if reason is not None:
            pytest = sys.modules.get("pytest")
            if pytest is not None and "PYTEST_CURRENT_TEST" in os.environ:
                pytest.skip(f"{self.name}: {reason}")
            warnings.warn(f"{self.name} skipped: {reason}", stacklevel=2)

    def __repr__(self) -> str:
        return self.name


#: kind name -> (the public check function, the function listing its checks); filled by the check modules.
_KINDS: dict[str, tuple[Callable, Callable]] = {}


def register_kind(check_function: Callable, list_checks: Callable) -> None:
    """Make ``check_function`` usable in :class:`Subject`: ``list_checks(obj, options)`` gives its checks."""
    _KINDS[check_function.__name__] = (check_function, list_checks)


def _subject_name(obj) -> str:
    """A function's ``__name__`` (a partial's function's), a loss's ``name``, else the class name."""
    for name in (getattr(obj, "__name__", None), getattr(getattr(obj, "func", None), "__name__", None),
                 getattr(obj, "name", None)):
        if isinstance(name, str) and name:
            return name
    return type(obj).__name__


class Subject:
    """One object under test and the options of the check that tests it.

    Parameters
    ----------
    check : callable or str
        One of the public checks of :mod:`lfverify.testing` (``check_metric``, ``check_surrogate_loss``,
        ``check_surrogate_utility_estimator``, ``check_gradient_direction_estimator``, ``check_metric_classifier``)
        or its name.
    obj : object
        What that check takes as its first argument: the function, the loss or the unfitted classifier.
    name : str or None, keyword-only
        The subject's name in generated test ids (default: the function's ``__name__`` or the object's class
        name; subjects of one default name get the parameters that differ from their class's defaults).
    **options
        The check's keyword arguments (``metric=``, ``loss=``, ...), validated as the check itself validates
        them: a missing or unknown option, or an object of the wrong kind, raises ``TypeError`` / ``ValueError``
        here, before any test runs.

    Examples
    --------
    >>> from sklearn.metrics import f1_score
    >>> from lfverify.testing import Subject, check_metric
    >>> Subject(check_metric, f1_score, metric="f1")
    Subject(check_metric, f1_score, metric='f1')
    """

    def __init__(self, check, obj, *, name: str | None = None, **options):
        key = check if isinstance(check, str) else getattr(check, "__name__", None)
        if key not in _KINDS or (not isinstance(check, str) and _KINDS[key][0] is not check):
            raise TypeError(f"check must be one of the checks of lfverify.testing ({', '.join(sorted(_KINDS))}) "
                            f"or its name; got {check!r}")
        function, list_checks = _KINDS[key]
        signature = inspect.signature(function)
        try:
            signature.bind(obj, **options)
        except TypeError as exc:
            raise TypeError(f"{key}: options {sorted(options)} do not match its signature {signature}: {exc}") from None
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name must be a str or None; got {name!r}")
        self.kind = key
        self.obj = obj
        self.name = name or _subject_name(obj)
        self.explicit_name = name is not None
        self.options = options
        self._validated = list_checks(obj, options)  # (normalised options, checks): raises on bad input

    @property
    def checks(self) -> list[TheoryCheck]:
        """The checks that apply to this subject, in the order they run."""
        return list(self._validated[1])

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"Subject({self.kind}, {self.name}{options})"


def theory_checks(subject: Subject) -> list[TheoryCheck]:
    """The named checks that apply to ``subject``, in the order the public check functions and the generated tests
    run them."""
    if not isinstance(subject, Subject):
        raise TypeError(f"subject must be a lfverify.testing.Subject; got {type(subject).__name__}")
    return subject.checks


def run_all(subject: Subject) -> None:
    """Run every check of ``subject``; raise one :class:`TheoryCheckFailure` listing every failure, or return None."""
    failures = []
    for check in subject.checks:
        try:
            check.run(subject)
        except TheoryCheckFailure as failure:
            failures.append(failure)
    if len(failures) == 1:
        raise failures[0]
    if failures:
        first = failures[0]
        combined = TheoryCheckFailure(first.check, first.claim, witness=first.witness, observed=first.observed,
                                      expected=first.expected, detail=first.detail)
        combined.failures = failures
        combined.args = (f"{len(failures)} of {len(subject.checks)} checks of {subject.name} failed "
                         f"({', '.join(f.check for f in failures)}):\n\n" + "\n\n".join(str(f) for f in failures),)
        raise combined


# ---------------------------------------------------------------------------------------------- calling user code
def call_user(fn, args: tuple, *, check: str, claim: str, witness: dict, kwargs=None):
    """``fn(*args)`` with warnings silenced; an exception becomes a :class:`TheoryCheckFailure` naming the witness."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                return fn(*args, **(kwargs or {}))
    except Exception as exc:  # noqa: BLE001 - the user's code failing is a failed check, with its witness
        raise TheoryCheckFailure(check, claim, witness=witness, observed=f"raised {type(exc).__name__}: {exc}",
                                 expected="a value", detail="the implementation must not raise on this input") from exc


def as_real(value, *, check: str, claim: str, witness: dict, expected) -> float:
    """The user's return value as a finite float, or a failure naming what was returned."""
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.size != 1:
        raise TheoryCheckFailure(check, claim, witness=witness, observed=value, expected=expected,
                                 detail="the implementation must return one real "
                                 "number")
    out = float(arr.reshape(()))
    if not math.isfinite(out):
        raise TheoryCheckFailure(check, claim, witness=witness, observed=out, expected=expected,
                                 detail="the implementation returned a non-finite "
                                 "value")
    return out


def as_vector(value, d: int, *, check: str, claim: str, witness: dict, expected) -> np.ndarray:
    """The user's return value as a finite float64 vector of shape (d,), or a failure naming what was returned."""
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.shape != (d,):
        shape = None if arr is None else arr.shape
        raise TheoryCheckFailure(check, claim, witness=witness, observed=value, expected=expected,
                                 detail=f"the implementation must return an array of shape ({d},); got shape {shape}")
    if not np.isfinite(arr).all():
        raise TheoryCheckFailure(check, claim, witness=witness, observed=arr, expected=expected,
                                 detail="the implementation returned a non-finite "
                                 "value")
    return arr
