"""ERRATA.md: the disagreements found by the proofs, and the claims that check out.

The file is generated (``lfverify proofs --errata``), checked in, and a test keeps it in sync, so it never
states more or less than the derivations find.  Its content is deterministic: no timings, no dates.
"""

from __future__ import annotations

from importlib import resources

from lfverify.paper import claim_by_label

__all__ = ["errata_markdown", "errata_numbers", "numbers_of", "numbers_affecting", "affected_by", "references",
           "unnumbered", "NUMBERS_FILE"]

#: The permanent number of every erratum (claim key, location), so that a reference "ERRATA E12" in a summary, a
#: docstring or FINDINGS.md stays true when an erratum is added (it used to be its position, which shifted).
NUMBERS_FILE = "errata_numbers.tsv"

HEADER = """# Errata and verified claims

Bao & Sugiyama, *Calibrated Surrogate Maximization of Linear-fractional Utility in Binary Classification*
(AISTATS 2020), as found by lfverify's symbolic derivations (`lfverify/proofs/`).

GENERATED FILE: do not edit by hand.  Regenerate with `lfverify proofs --errata ERRATA.md`; a test checks that
this file matches what the derivations find.

Each erratum gives the location, the printed form, the derived form, whether it changes a conclusion, a
numeric witness, and independent evidence of which form is right.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _index() -> dict[tuple[str, str], tuple[int, tuple[str, ...]]]:
    """(claim key, location) -> (number, affects), from ``NUMBERS_FILE`` (checked: numbers and keys unique)."""
    table, seen = {}, set()
    text = resources.files("lfverify.proofs").joinpath(NUMBERS_FILE).read_text(encoding="utf-8")
    for line_number, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#") or line.startswith("number\t"):
            continue
        cells = line.split("\t")
        if len(cells) != 4 or not cells[0].isdigit():
            raise ValueError(f"lfverify/proofs/{NUMBERS_FILE}, line {line_number}: expected 'number<TAB>claim key<TAB>"
                             f"location<TAB>affects'; got {line!r}")
        number, key = int(cells[0]), (cells[1], cells[2])
        if number in seen or key in table:
            raise ValueError(f"lfverify/proofs/{NUMBERS_FILE}, line {line_number}: number {number} or erratum {key} "
                             "listed twice")
        seen.add(number)
        table[key] = (number, tuple(cells[3].split()))
    return table


def _number_table() -> dict[tuple[str, str], int]:
    """(claim key, location) -> number, from ``NUMBERS_FILE``."""
    return {key: number for key, (number, _) in _index().items()}


def affected_by() -> dict[int, tuple[str, ...]]:
    """Erratum number -> the labels of the claims whose stated conclusion it changes, its own claim included
    (``NUMBERS_FILE``'s affects)."""
    return {number: affects for number, affects in _index().values()}


def errata_numbers(results) -> dict[tuple[str, int], int]:
    """(claim key, index of the erratum in its outcome) -> its permanent number, for every erratum of ``results``.

    An erratum not yet in ``NUMBERS_FILE`` gets the next free number, provisionally (in the order of
    ``results``); ``unnumbered`` lists the rows to append so that it keeps it (a test requires none missing
    for the committed ERRATA.md).  The numbers are distinct: a claim whose outcome lists two errata at one location
    (which the table cannot tell apart) is a ValueError.
    """
    table = _number_table()
    numbers, following, seen = {}, max(table.values(), default=0) + 1, set()
    for r in results:
        for i, e in enumerate(r.outcome.errata):
            if (r.claim.key, e.location) in seen:
                raise ValueError(f"results: claim {r.claim.key!r} lists two errata at location {e.location!r}; an "
                                 "erratum's permanent number is keyed by (claim, location), so each location may "
                                 "hold one erratum")
            seen.add((r.claim.key, e.location))
            number = table.get((r.claim.key, e.location))
            if number is None:
                number, following = following, following + 1
            numbers[(r.claim.key, i)] = number
    return numbers


def numbers_of(keys) -> list[int]:
    """The permanent numbers of the errata of the claims ``keys``, ascending, read from ``NUMBERS_FILE`` (a test
    keeps it equal to the errata the derivations find, so no derivation needs to run)."""
    keys = set(keys)
    return sorted(number for (key, _), number in _number_table().items() if key in keys)


def references(numbers) -> str:
    """Erratum numbers as ERRATA.md names them: "E2, E3"."""
    return ", ".join(f"E{n}" for n in numbers)


def numbers_affecting(label: str) -> list[int]:
    """The permanent numbers of the errata whose ``affects`` names the claim ``label``, ascending."""
    return sorted(number for number, affects in affected_by().items() if label in affects)


def unnumbered(errata) -> list[str]:
    """The rows to append to ``NUMBERS_FILE`` for the (number, claim key, location) of ``errata`` that it lacks (with
    an empty affects column: fill it in if the erratum's consequence changes another claim's conclusion)."""
    table = _number_table()
    return [f"{number}\t{key}\t{location}\t" for number, key, location in errata if (key, location) not in table]


def _claims_named(labels) -> str:
    """"Theorem 7 (`thm:general-calibration`)" for each label, joined."""
    return ", ".join(f"{claim_by_label(label).number} (`{label}`)" for label in labels)


def errata_markdown(results) -> str:
    """The markdown text of ERRATA.md for a list of :class:`~lfverify.proofs.ClaimResult`, errata in the order of
    their permanent numbers (``errata_numbers``)."""
    lines = [HEADER]
    numbers, affects = errata_numbers(results), affected_by()
    errata = sorted(((numbers[(r.claim.key, i)], r.claim, e) for r in results
                     for i, e in enumerate(r.outcome.errata)), key=lambda item: item[0])
    lines.append(f"## Errata ({len(errata)})\n")
    if not errata:
        lines.append("None found.\n")
    for number, claim, e in errata:
        lines += [
            f"### E{number}. {e.location}\n",
            f"- Claim: {claim.title} (`{claim.key}`, `{claim.label}`)",
            f"- Printed: {e.printed}",
            f"- Derived: {e.derived}",
            f"- Changes a conclusion: {e.consequence}",
            *([f"- Changes the stated conclusion of: {_claims_named(affects[number])}"] if affects.get(number) else []),
            f"- Witness: {e.witness}",
            f"- Evidence: {e.evidence}",
            "",
        ]
    verified = [r for r in results if r.outcome.status == "verified"]
    undecided = [r for r in results if r.outcome.status == "undecided"]
    lines.append(f"## Verified claims ({len(verified)})\n")
    lines.append("| claim | label | method | what was derived |")
    lines.append("|---|---|---|---|")
    for r in verified:
        lines.append(f"| {_cell(r.claim.title)} | `{r.claim.label}` | {_cell(r.outcome.method)} | "
                     f"{_cell(r.outcome.summary)} |")
    lines.append("")
    if undecided:
        lines.append(f"## Could not decide ({len(undecided)})\n")
        for r in undecided:
            lines.append(f"- {r.claim.title} (`{r.claim.label}`): {r.outcome.summary}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
