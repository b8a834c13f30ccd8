"""Claims found by the names people use: one resolver for ``lfverify proofs --only``, ``lfverify verify --only`` and
the test suite's ``pytest --claim``.

A registry claim answers to

* its printed name (:attr:`PaperClaim.number`, e.g. "Theorem 1") and the usual abbreviations of its kind ("Thm. 1",
  "Thm 1", "Lem. 3", "Prop. 5", "Def. 1", "Tab. 4", "Figure 2", "Alg. 1"); a figure that stands for others answers
  to each of them ("Fig. 9" is Fig. 3's claim, whose panels Figs. 9-10 are);
* its LaTeX label (``thm:f-measure-calibration``);
* the name of its document in the repository's ``proofs/`` folder (``theorem-1``, ``theorem-1.md``,
  ``proofs/theorem-1.md``), :func:`claim_file_name`;

case-insensitively and whatever the punctuation: names are compared after lower-casing, splitting into runs of
letters and digits and expanding the abbreviations, so "THM 1", "thm.1" and "Theorem-1" are one name.  A corrected
statement answers to its own names ("Theorem 1 (corrected)", ``corrected:thm:f-measure-calibration``).  The
package's own contracts (:data:`~lfverify.paper.PACKAGE_CONTRACTS`) answer to their labels, for the test suite.

An unknown name is refused with the close matches (:mod:`difflib`) in the one-line message.
"""

from __future__ import annotations

import difflib
import re

from lfverify.paper._registry import CORRECTED_CLAIMS, PACKAGE_CONTRACTS, PAPER_CLAIMS, PaperClaim

__all__ = ["claim_file_name", "claim_names", "resolve_claim", "resolve_claim_label", "normalize_claim_name"]

#: Abbreviation -> the word it stands for (compared after lower-casing).
_WORDS = {"thm": "theorem", "th": "theorem", "lem": "lemma", "prop": "proposition", "def": "definition",
          "defn": "definition", "tab": "table", "fig": "figure", "figs": "figure", "alg": "algorithm",
          "algo": "algorithm", "app": "appendix", "sec": "section", "eq": "equation", "cor": "corollary"}


def normalize_claim_name(name: str) -> str:
    """The comparison form of a name: lower case, runs of letters and digits joined by one space, abbreviations
    expanded, a ``proofs/`` prefix and an ``.md`` suffix dropped ("Thm. 1" and "proofs/theorem-1.md" give
    "theorem 1")."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    if len(words) > 1 and words[-1] == "md":
        words = words[:-1]
    if len(words) > 1 and words[0] == "proofs":
        words = words[1:]
    return " ".join(_WORDS.get(w, w) for w in words)


def claim_file_name(claim: PaperClaim) -> str:
    """The stem of a claim's document in ``proofs/``: its printed name, lower case, non-alphanumerics as "-"
    ("Theorem 1" -> "theorem-1", "Lemma (App. C)" -> "lemma-app-c")."""
    return re.sub(r"[^a-z0-9]+", "-", claim.number.lower()).strip("-")


def claim_names(claim: PaperClaim) -> tuple[str, ...]:
    """The names a claim answers to, as a user would type them (before normalisation): its printed name, the
    printed name without a trailing "(and Figs. ...)", each figure such a note names, its label and its file
    name."""
    names = [claim.number, claim.label, claim_file_name(claim)]
    head = re.sub(r"\s*\(and [^)]*\)$", "", claim.number)
    names.append(head)
    for first, last in re.findall(r"Figs?\.\s*(\d+)(?:-(\d+))?", claim.number):
        for k in range(int(first), int(last or first) + 1):
            names.append(f"Fig. {k}")
    return tuple(dict.fromkeys(names))


def _index(claims) -> dict[str, object]:
    index: dict[str, object] = {}
    for claim in claims:
        for name in claim_names(claim):
            index.setdefault(normalize_claim_name(name), claim)
    return index


def _contract_index() -> dict[str, str]:
    return {normalize_claim_name(label): label for label in PACKAGE_CONTRACTS}


def _refuse(name, what: str, index_names: dict[str, str]) -> ValueError:
    """The one-line ValueError for an unknown ``name``: the close matches (display names), else every name."""
    close = difflib.get_close_matches(normalize_claim_name(name), list(index_names), n=5, cutoff=0.6)
    if close:
        shown = "close matches: " + ", ".join(dict.fromkeys(index_names[c] for c in close))
    else:
        shown = "known: " + ", ".join(dict.fromkeys(index_names.values()))
    return ValueError(f"{what} must be a claim's printed name (e.g. 'Theorem 1' or 'Thm. 1'), its LaTeX label or its "
                      f"proofs/ file name; got {name!r}; {shown}")


def _display(claim) -> str:
    return f"{claim.number} ({claim.label})"


def resolve_claim(name, *, what: str = "claim") -> PaperClaim:
    """The registry claim (printed or corrected) that ``name`` names (module docstring).

    Parameters
    ----------
    name : str
        "Theorem 1", "Thm. 1", "thm:f-measure-calibration", "theorem-1", "Theorem 1 (corrected)", ...
    what : str, keyword-only
        How the caller calls the value in messages (e.g. "--only").

    Raises
    ------
    TypeError
        ``name`` is not a str.
    ValueError
        No claim has that name (the message lists the close matches), or it names a package contract, which
        only the test suite checks.
    """
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a claim's name (str); got {name!r}")
    claims = PAPER_CLAIMS + CORRECTED_CLAIMS
    index = _index(claims)
    found = index.get(normalize_claim_name(name))
    if found is not None:
        return found
    contracts = _contract_index()
    if normalize_claim_name(name) in contracts:
        raise ValueError(f"{what}: {name!r} is a contract of the package, not a claim of the paper; its tests run "
                         f"with `python -m pytest --claim {contracts[normalize_claim_name(name)]}`")
    raise _refuse(name, what, {k: _display(c) for k, c in index.items()})


def resolve_claim_label(name, *, what: str = "claim") -> str:
    """The label of the registry claim or package contract that ``name`` names (the test suite's markers and
    ``--claim``); raises as :func:`resolve_claim`, a contract's label being a name too."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a claim's name (str); got {name!r}")
    contracts = _contract_index()
    label = contracts.get(normalize_claim_name(name))
    if label is not None:
        return label
    index = _index(PAPER_CLAIMS + CORRECTED_CLAIMS)
    found = index.get(normalize_claim_name(name))
    if found is not None:
        return found.label
    names = {k: _display(c) for k, c in index.items()}
    names.update({k: v for k, v in contracts.items()})
    raise _refuse(name, what, names)
