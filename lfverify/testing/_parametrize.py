"""``parametrize_with_theory_checks``: one pytest case per (subject, check), as scikit-learn's
``parametrize_with_checks`` does for its estimator checks.

The ids read ``<subject name>-<check name>`` (``my_vhat-unbiased_exact``), so ``pytest -k unbiased_exact`` selects
one check for every subject.  Subjects of one name get distinct readable ids: the name and the parameters that
differ from the class defaults (``TunedThresholdClassifierCV[scoring=f1]-consistency_gaussian``), else ``#2``,
``#3``; ``Subject(..., name="tuned-f1")`` chooses the name.  ``expected_failed_checks`` maps a check name (for every
subject that has it) or a
full id (for one subject) to the reason it is expected to fail; those cases are marked
``xfail(strict=True, reason=...)``, so a check that starts to pass is reported too.  A key that names no generated
case is an error: a misspelt expectation would otherwise hide a real failure.
"""

from __future__ import annotations

from lfverify.testing._framework import Subject

__all__ = ["parametrize_with_theory_checks", "generated_cases"]


def _changed_parameters(obj) -> str:
    """``[a=1,b=LogisticRegression]``: the parameters of a scikit-learn style object that differ from its class's
    defaults (estimators shown by class name), or "" when there are none or the object has no ``get_params``."""
    import inspect

    try:
        params = obj.get_params(deep=False)
        defaults = {k: v.default for k, v in inspect.signature(type(obj).__init__).parameters.items()}
    except (AttributeError, TypeError, ValueError):
        return ""
    changed = []
    for key, value in sorted(params.items()):
        default = defaults.get(key, inspect.Parameter.empty)
        same = value is default or (type(value) is type(default) and not hasattr(value, "get_params")
                                    and repr(value) == repr(default))
        if not same:
            shown = (type(value).__name__ + _changed_parameters(value)) if hasattr(value, "get_params") else value
            changed.append(f"{key}={shown}")
    return f"[{','.join(changed)}]" if changed else ""


def _subject_ids(subjects) -> list[str]:
    """One readable id per subject, distinct: its name; where names repeat, the name and the parameters that differ
    from the class defaults (``TunedThresholdClassifierCV[scoring=f1]``); where those repeat too, ``#2``, ``#3`` in
    order.  Two subjects given the same ``name=`` are an error (the user named them alike)."""
    names = [s.name for s in subjects]
    explicit = {}
    for s in subjects:
        if s.explicit_name:
            if s.name in explicit:
                raise ValueError(f"two subjects are named {s.name!r} (name=): give each a distinct name")
            explicit[s.name] = s
    ids = [name if names.count(name) == 1 else name + _changed_parameters(s.obj) for name, s in zip(names, subjects)]
    seen: dict = {}
    out = []
    for case_id in ids:
        seen[case_id] = seen.get(case_id, 0) + 1
        out.append(case_id if ids.count(case_id) == 1 else f"{case_id}#{seen[case_id]}")
    return out


def generated_cases(objects):
    """(id, subject, check) for every check of every subject, in order; ids ``<subject>-<check>`` with distinct
    subject ids (:func:`_subject_ids`)."""
    objects = list(objects)
    if not objects:
        raise ValueError("objects must hold at least one lfverify.testing.Subject; got none")
    for subject in objects:
        if not isinstance(subject, Subject):
            raise TypeError(f"objects must be lfverify.testing.Subject instances, e.g. Subject(check_metric, "
                            f"f1_score, metric='f1'); got {type(subject).__name__}: {subject!r}")
    return [(f"{subject_id}-{check.name}", subject, check)
            for subject_id, subject in zip(_subject_ids(objects), objects) for check in subject.checks]


def parametrize_with_theory_checks(objects, *, expected_failed_checks=None):
    """A ``pytest.mark.parametrize("subject, check", ...)`` over every check of every subject.

    Parameters
    ----------
    objects : iterable of Subject
        The objects under test with their options, e.g. ``Subject(check_metric, f1_score, metric="f1")``.
    expected_failed_checks : dict or None, keyword-only
        ``{check name or "<subject>-<check>" id: reason}``: those cases are ``xfail(strict=True)`` with the reason.

    Returns
    -------
    pytest.MarkDecorator
        Decorate ``def test_theory(subject, check): check(subject)`` with it.

    Raises
    ------
    ImportError
        If pytest is not installed (``pip install ".[testing]" in a clone``).
    TypeError, ValueError
        If an object is not a :class:`~lfverify.testing.Subject`, or a key of ``expected_failed_checks`` names no
        generated case, or a reason is not a non-empty string.

    Examples
    --------
    >>> from sklearn.metrics import f1_score
    >>> from lfverify.testing import Subject, check_metric, parametrize_with_theory_checks
    >>> @parametrize_with_theory_checks([Subject(check_metric, f1_score, metric="f1")])
    ... def test_theory(subject, check):
    ...     check(subject)
    """
    try:
        import pytest
    except ImportError as exc:  # pragma: no cover - pytest is in the testing extra
        raise ImportError('parametrize_with_theory_checks needs pytest: pip install ".[testing]" in a clone') from exc
    cases = generated_cases(objects)
    expected = dict(expected_failed_checks or {})
    for key, reason in expected.items():
        if not isinstance(key, str) or not isinstance(reason, str) or not reason.strip():
            raise TypeError(f"expected_failed_checks must map check names or ids (str) to reasons (non-empty str); "
                            f"got {key!r}: {reason!r}")
    ids = {case_id for case_id, _, _ in cases}
    names = {check.name for _, _, check in cases}
    unknown = sorted(key for key in expected if key not in ids and key not in names)
    if unknown:
        raise ValueError(f"expected_failed_checks names no generated case: {unknown}; the cases are "
                         f"{sorted(ids)}")
    params = []
    for case_id, subject, check in cases:
        reason = expected.get(case_id, expected.get(check.name))
        marks = [pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)] if reason is not None else []
        params.append(pytest.param(subject, check, id=case_id, marks=marks))
    return pytest.mark.parametrize("subject, check", params)
