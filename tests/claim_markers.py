"""The claims each test checks: the ``claims`` marker, ``pytest --claim NAME`` and the completeness rule.

Every test declares the registry claims (or package contracts) its oracle checks with
``@pytest.mark.claims(NAME, ...)`` on one parametrisation (``pytest.param(..., marks=pytest.mark.claims(...))``),
the test, its class or the module (``pytestmark``); NAME is any name :func:`lfverify.paper.resolve_claim_label`
accepts ("Theorem 1", "Thm. 1", ``thm:f-measure-calibration``, ``theorem-1``, ``package:files``).  The closest
marker wins: a parametrisation's mark replaces its test's, a test's replaces its class's and a class's its module's
(the marks of one level add up; the levels do not), so a module's default names what most of its tests check and a
test whose oracle checks something else - a document, a rendering, the command line's plumbing - names that instead.
``pytest --claim NAME`` (repeatable) runs the tests that name the claim or its corrected statement, and the
registry's property tests of either; with ``--collect-only`` it lists each with its oracle (:func:`oracle_of`).  The
rule, checked by tests/paper/test_claim_markers.py: every test names a claim or contract, every registry claim and
contract has a test, and every property test the registry lists names the claim that lists it.

tests/conftest.py wires these functions into pytest; this module holds them so that a test can import them (a
conftest is not meant to be imported).
"""

from __future__ import annotations

import functools
import inspect
import re

import pytest

from lfverify.paper import (
    CORRECTED_CLAIMS,
    PACKAGE_CONTRACTS,
    PAPER_CLAIMS,
    corrected_claim_of,
    resolve_claim_label,
)

#: Where pytest_collection_modifyitems leaves {node id: claim labels} of every collected test (before -k, -m and
#: --claim deselect any).
CLAIMS_INDEX = pytest.StashKey[dict]()


def base_id(nodeid: str) -> str:
    """A node id without its parameters: ``tests/t.py::test_x[1-2]`` -> ``tests/t.py::test_x``."""
    return nodeid.split("[", 1)[0]


def closest_claims_marks(item) -> list:
    """The ``claims`` marks that decide the item's claims: those of the closest level that has any - its
    parametrisation, the test function, its class(es), its module - in the order they were written."""
    callspec = getattr(item, "callspec", None)
    param = [m for m in getattr(callspec, "marks", ()) if m.name == "claims"]
    if param:
        return param
    for node in reversed(item.listchain()):
        own = [m for m in node.own_markers if m.name == "claims"]
        if own:
            return own
    return []


@functools.cache
def _marker_label(name) -> str:
    """resolve_claim_label of a marker's name, once per name: the registry's name index is rebuilt on every call,
    and thousands of tests name far fewer distinct claims (3 s of each worker's collection before this cache).  An
    unknown name raises every time (functools.cache keeps no exception)."""
    return resolve_claim_label(name, what="the claims marker")


def marked_claims(item) -> list[str]:
    """The labels of the claims the item's closest ``claims`` markers name (parametrisation, else test, else class,
    else module: the closest level replaces the others), in order.

    Raises ValueError naming the test when a marker names no claim (the message lists the close matches)."""
    labels = []
    for marker in closest_claims_marks(item):
        if not marker.args:
            raise ValueError(f"{item.nodeid}: @pytest.mark.claims() needs at least one claim name")
        for name in marker.args:
            try:
                labels.append(_marker_label(name) if isinstance(name, str)
                              else resolve_claim_label(name, what="the claims marker"))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"{item.nodeid}: {exc}") from None
    return list(dict.fromkeys(labels))


#: The first sentence of a docstring that starts with "Oracle" or "Oracles" (the docstring's whitespace folded):
#: it ends at ".", "!" or "?" before a capital letter or the end, not after an abbreviation ("e.g. Theorem 1",
#: "Thm. 1" and "the ratio. the" do not end it).
_ABBREVIATIONS = ("e.g", "i.e", "cf", "vs", "Thm", "Lem", "Prop", "Def", "Eq", "Eqs", "Sec", "Fig", "Alg", "Tab")
_ORACLE_SENTENCE = re.compile(r"(?:^|(?<=[.!?:;] ))(Oracles?\b.*?(?:"
                              + "".join(rf"(?<!\b{re.escape(a)})" for a in _ABBREVIATIONS)
                              + r"[.!?](?= [A-Z]|$)|$))")
NO_ORACLE = "(no oracle named)"


def oracle_sentence(doc: str | None) -> str | None:
    """The sentence of ``doc`` that starts with "Oracle" (whitespace folded to single spaces), or None."""
    found = _ORACLE_SENTENCE.search(" ".join(inspect.cleandoc(doc or "").split()))
    return found.group(1) if found else None


def oracle_of(item) -> str:
    """The oracle the item's test names: the "Oracle..." sentence of its function's docstring, else of its class's,
    else of its module's; :data:`NO_ORACLE` when none names one."""
    function = getattr(item, "function", None)
    cls = getattr(item, "cls", None)
    module = getattr(item, "module", None)
    for owner in (function, cls, module):
        sentence = oracle_sentence(getattr(owner, "__doc__", None)) if owner is not None else None
        if sentence:
            return sentence
    return NO_ORACLE


def property_tests(label: str) -> set[str]:
    """The registry's property-test targets (node ids without parameters) of the claim ``label``."""
    return {e.target for c in PAPER_CLAIMS + CORRECTED_CLAIMS if c.label == label for e in c.evidence
            if e.kind == "property-test"}


def wanted_labels(names) -> set[str]:
    """The labels ``--claim NAME ...`` selects: each named claim and its corrected statement."""
    wanted = set()
    for name in names:
        label = resolve_claim_label(name, what="--claim")
        wanted.add(label)
        fix = corrected_claim_of(label)
        if fix is not None:
            wanted.add(fix.label)
    return wanted


def selected(index: dict, names) -> list[str]:
    """The node ids of ``index`` ({node id: labels}) that ``--claim NAME ...`` selects, in index order."""
    wanted = wanted_labels(names)
    targets = set().union(*(property_tests(label) for label in wanted))
    return [nodeid for nodeid, labels in index.items() if wanted & set(labels) or base_id(nodeid) in targets]


def coverage_problems(index: dict, claims=PAPER_CLAIMS + CORRECTED_CLAIMS, contracts=PACKAGE_CONTRACTS) -> list[str]:
    """Every breach of the rule (module docstring) in ``index`` ({node id: labels}), one line each."""
    problems = [f"{nodeid}: names no claim (add @pytest.mark.claims(...))" for nodeid, labels in index.items()
                if not labels]
    covered = {label for labels in index.values() for label in labels}
    problems += [f"{c.number} ({c.label}): no test names it" for c in claims if c.label not in covered]
    problems += [f"{label}: no test names it" for label in contracts if label not in covered]
    by_base: dict[str, set] = {}
    for nodeid, labels in index.items():
        by_base.setdefault(base_id(nodeid), set()).update(labels)
    for claim in claims:
        for e in claim.evidence:
            if e.kind != "property-test":
                continue
            if e.target not in by_base:
                problems.append(f"{claim.number} ({claim.label}): its property test {e.target} was not collected")
            elif claim.label not in by_base[e.target]:
                problems.append(f"{e.target}: the registry lists it for {claim.number} ({claim.label}), but its "
                                f"claims marker does not name that claim")
    return problems
