"""The claims each test checks: the ``claims`` marker, ``pytest --claim NAME`` and the completeness rule.

Every test declares the registry claims (or package contracts) it checks with ``@pytest.mark.claims(NAME, ...)``
on the test, its class or the module (``pytestmark``); NAME is any name :func:`lfverify.paper.resolve_claim_label`
accepts ("Theorem 1", "Thm. 1", ``thm:f-measure-calibration``, ``theorem-1``, ``package:files``).
``pytest --claim NAME`` (repeatable) runs the tests that name the claim or its corrected statement, and the
registry's property tests of either.  The rule, checked by tests/paper/test_claim_markers.py: every test names a claim
or contract, every registry claim and contract has a test, and every property test the registry lists names the
claim that lists it.

tests/conftest.py wires these functions into pytest; this module holds them so that a test can import them (a
conftest is not meant to be imported).
"""

from __future__ import annotations

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


def marked_claims(item) -> list[str]:
    """The labels of the claims the item's ``claims`` markers name (test, class and module), in order.

    Raises ValueError naming the test when a marker names no claim (the message lists the close matches)."""
    labels = []
    for marker in item.iter_markers("claims"):
        if not marker.args:
            raise ValueError(f"{item.nodeid}: @pytest.mark.claims() needs at least one claim name")
        for name in marker.args:
            try:
                labels.append(resolve_claim_label(name, what="the claims marker"))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"{item.nodeid}: {exc}") from None
    return list(dict.fromkeys(labels))


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
