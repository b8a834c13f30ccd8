"""Declared parameter constraints: a table {parameter: constraint} checked by one function.

scikit-learn's ``_parameter_constraints`` is the model: an estimator declares what each parameter accepts, and
:func:`check_parameters` checks a mapping of parameter values against the table in its order (the first failure
is raised), each error a ValueError or TypeError naming the parameter, the expectation and the value received.
"""

from __future__ import annotations

import numbers

import numpy as np

from lfverify.core import check_real


class _Constraint:
    """What a parameter accepts: ``check(value, name)`` returns the value, or raises
    ``error(f"{name} must be {expectation}; got {value!r}")``."""

    error = ValueError

    def __init__(self, expectation: str):
        self.expectation = expectation

    def accepts(self, value) -> bool:  # pragma: no cover - every constraint defines it
        raise NotImplementedError

    def check(self, value, name: str):
        if not self.accepts(value):
            raise self.error(f"{name} must be {self.expectation}; got {value!r}")
        return value


class _Options(_Constraint):
    """One of ``options`` (a string among them where ``strings_only``)."""

    def __init__(self, options: tuple, *, strings_only: bool = True, expectation: str | None = None):
        super().__init__(f"one of {options}" if expectation is None else expectation)
        self.options, self.strings_only = options, strings_only

    def accepts(self, value) -> bool:
        return (isinstance(value, str) or not self.strings_only) and value in self.options


class _Int(_Constraint):
    """An int (not a bool) >= ``low``."""

    def __init__(self, low: int, *, expectation: str | None = None):
        super().__init__(f"an int >= {low}" if expectation is None else expectation)
        self.low = low

    def accepts(self, value) -> bool:
        return not isinstance(value, bool) and isinstance(value, numbers.Integral) and value >= self.low


class _Bool(_Constraint):
    """A bool (Python's or numpy's); TypeError otherwise."""

    error = TypeError

    def __init__(self):
        super().__init__("a bool")

    def accepts(self, value) -> bool:
        return isinstance(value, (bool, np.bool_))


class _NotString(_Constraint):
    """Anything but a string (an array-like, say, checked where it is used)."""

    def __init__(self):
        super().__init__("not a string")

    def accepts(self, value) -> bool:
        return not isinstance(value, str)


class _NoneConstraint(_Constraint):
    def __init__(self):
        super().__init__("None")

    def accepts(self, value) -> bool:
        return value is None


#: Accepts None only.
NONE = _NoneConstraint()


class _DictOf(_Constraint):
    """A dict whose every value meets ``values`` (checked as ``name[key]``); the dict is returned unchanged."""

    def __init__(self, values, *, expectation: str = "a dict"):
        super().__init__(expectation)
        self.values = values

    def accepts(self, value) -> bool:
        return isinstance(value, dict)

    def check(self, value, name: str):
        super().check(value, name)
        for key, entry in value.items():
            self.values.check(entry, f"{name}[{key!r}]")
        return value


class _AnyOf(_Constraint):
    """Any of ``constraints`` accepts the value; the first that does checks it."""

    def __init__(self, *constraints: _Constraint, expectation: str):
        super().__init__(expectation)
        self.constraints = constraints

    def accepts(self, value) -> bool:
        return any(constraint.accepts(value) for constraint in self.constraints)

    def check(self, value, name: str):
        for constraint in self.constraints:
            if constraint.accepts(value):
                return constraint.check(value, name)
        return super().check(value, name)


class _Real:
    """A finite real number in an interval, returned as a float (:func:`lfverify.core.check_real` and its
    messages)."""

    def __init__(self, *, low: float | None = None, high: float | None = None, low_inclusive: bool = True):
        self.low, self.high, self.low_inclusive = low, high, low_inclusive

    def check(self, value, name: str) -> float:
        return check_real(value, name, low=self.low, high=self.high, low_inclusive=self.low_inclusive)


class _Optional:
    """None, or what ``constraint`` accepts (checked, and converted, by it)."""

    def __init__(self, constraint):
        self.constraint = constraint

    def check(self, value, name: str):
        return None if value is None else self.constraint.check(value, name)


class _Unused:
    """A parameter that does not act in this configuration (``reason``): only None is accepted."""

    def __init__(self, setting: str, reason: str):
        self.setting, self.reason = setting, reason

    def check(self, value, name: str):
        if value is not None:
            raise ValueError(f"{name} does not act under {self.setting} ({self.reason}); leave it None or choose the "
                             f"other {self.setting.split('=')[0]}; got {name}={value!r}")
        return value


def options(values: tuple, *, strings_only: bool = True, expectation: str | None = None) -> _Options:
    """A constraint: one of ``values`` (a string among them where ``strings_only``)."""
    return _Options(values, strings_only=strings_only, expectation=expectation)


def integer(low: int, *, expectation: str | None = None) -> _Int:
    """A constraint: an int (not a bool) >= ``low``."""
    return _Int(low, expectation=expectation)


def boolean() -> _Bool:
    """A constraint: a bool (TypeError otherwise)."""
    return _Bool()


def not_string() -> _NotString:
    """A constraint: anything but a string."""
    return _NotString()


def dict_of(values) -> _DictOf:
    """A constraint: a dict whose values meet ``values``."""
    return _DictOf(values)


def any_of(*constraints, expectation: str) -> _AnyOf:
    """A constraint met where one of ``constraints`` is; ``expectation`` is its message."""
    return _AnyOf(*constraints, expectation=expectation)


def real(*, low: float | None = None, high: float | None = None, low_inclusive: bool = True) -> _Real:
    """A constraint: a finite real number in [low, high] (low excluded unless ``low_inclusive``), as a float."""
    return _Real(low=low, high=high, low_inclusive=low_inclusive)


def optional(constraint) -> _Optional:
    """A constraint: None, or what ``constraint`` accepts."""
    return _Optional(constraint)


def unused(setting: str, reason: str) -> _Unused:
    """A constraint for a parameter that does not act under ``setting`` (e.g. "objective='cost-sensitive'"):
    only None, else ValueError naming ``reason``."""
    return _Unused(setting, reason)


def check_parameters(values: dict, constraints: dict) -> dict:
    """Check ``values[name]`` against each ``constraints[name]``, in the table's order.

    Parameters
    ----------
    values : dict
        Parameter name -> value (e.g. ``estimator.get_params(deep=False)``).
    constraints : dict
        Parameter name -> constraint (an object with ``check(value, name)``).

    Returns
    -------
    dict
        Parameter name -> checked value (converted where the constraint converts, e.g. a real to a float), for the
        names of ``constraints``.

    Raises
    ------
    ValueError, TypeError
        From the first constraint not met, naming the parameter, the expectation and the value received.
    """
    return {name: constraint.check(values[name], name) for name, constraint in constraints.items()}
