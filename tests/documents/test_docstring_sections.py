"""The public faces' docstrings (issue 43 item 7): every Examples section runs, and every public function of
``lfverify.core`` that implements a numbered result of the paper says which (References) and shows it (Examples).

Oracle: the standard library's doctest (``DocTestFinder`` / ``DocTestRunner`` with ELLIPSIS and
NORMALIZE_WHITESPACE) on the docstring of every name in each wing's ``__all__``; the expected outputs are the
docstrings' own literals (checked by hand against the formulas written beside them).  The section rule is read from
the docstring text: a citation of a numbered result (``Eq. (6)``, ``Definition 1``, ``Lemma 3``, ``Thm. 1``,
``Prop. 8``, ``Table 1``, ...) requires numpydoc ``References`` and ``Examples`` sections; its companion test plants a
citing docstring without them and expects the rule to name it.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import re

import pytest

pytestmark = pytest.mark.claims("package:documentation")

#: The wings whose public face is documented in the API reference (tests/test_architecture.py has the floor plan).
FACES = ("io", "core", "parallel", "learn", "simulations", "testing", "experiments")
_CITATION = re.compile(r"\b(?:Eqs?\. \(\d+\)|Definition \d+|Lemma \d+|Thm\. \d+|Theorem \d+|Prop\. \d+|"
                       r"Proposition \d+|Table \d+)")
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _public(face: str):
    module = importlib.import_module(f"lfverify.{face}")
    for name in getattr(module, "__all__", ()):
        yield f"lfverify.{face}.{name}", getattr(module, name)


def _examples():
    finder = doctest.DocTestFinder(recurse=False)
    seen = set()
    for face in FACES:
        for qualified, obj in _public(face):
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            for test in finder.find(obj, qualified, globs={}):
                if test.examples:
                    yield pytest.param(test, id=qualified)


def missing_sections(functions) -> list[str]:
    """Names of the ``(name, function)`` pairs whose docstring cites a numbered result of the paper but lacks a
    numpydoc References or Examples section."""
    problems = []
    for name, function in functions:
        doc = inspect.getdoc(function) or ""
        if not _CITATION.search(doc):
            continue
        absent = [s for s in ("References", "Examples") if not re.search(rf"^{s}\n-{{{len(s)}}}$", doc, re.M)]
        if absent:
            problems.append(f"{name}: cites {_CITATION.search(doc).group(0)} but has no {' or '.join(absent)} "
                            "section")
    return problems


@pytest.mark.parametrize("test", list(_examples()))
def test_every_examples_section_runs(test):
    runner, report = doctest.DocTestRunner(optionflags=_FLAGS), []
    runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0, (
        f"{test.name}: {result.failed} of {result.attempted} examples fail:\n{''.join(report)}")


#: Public functions outside lfverify.core that implement a numbered result of the paper (the rule's other wings:
#: their citations elsewhere name a table or a lemma a function is about, e.g. Table 3's data sets).
IMPLEMENTING = ("lfverify.learn.maximize_surrogate_utility", "lfverify.learn.bayes_level_weights")


def test_core_functions_that_implement_a_numbered_result_have_references_and_examples():
    functions = [(name, obj) for name, obj in _public("core") if inspect.isfunction(obj)]
    functions += [(name, obj) for face in ("learn",) for name, obj in _public(face) if name in IMPLEMENTING]
    assert len([f for f in functions if _CITATION.search(inspect.getdoc(f[1]) or "")]) >= 17
    assert missing_sections(functions) == []


def test_the_section_rule_names_a_citing_docstring_without_sections():
    def cites():
        """U_hat of Eq. (6)."""

    def documented():
        """U_hat of Eq. (6).

        References
        ----------
        Bao & Sugiyama (AISTATS 2020), Eq. (6).

        Examples
        --------
        >>> 1
        1
        """

    def silent():
        """No citation here."""

    assert missing_sections([("cites", cites), ("documented", documented), ("silent", silent)]) == [
        "cites: cites Eq. (6) but has no References or Examples section"]


def test_a_wrong_example_output_fails_the_runner():
    """Companion of the doctest run: an example whose printed output differs is counted as failed."""
    def wrong():
        """>>> 1 + 1
        3
        """

    (test,) = doctest.DocTestFinder(recurse=False).find(wrong, "wrong", globs={})
    runner = doctest.DocTestRunner(optionflags=_FLAGS)
    runner.run(test, out=lambda text: None)
    assert runner.summarize(verbose=False).failed == 1
