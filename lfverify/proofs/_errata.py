"""ERRATA.md: the disagreements found by the proofs, and the claims that check out.

The file is generated (``lfverify proofs --errata``), checked in, and a test keeps it in sync, so it never
states more or less than the derivations find.  Its content is deterministic: no timings, no dates.
"""

from __future__ import annotations

__all__ = ["errata_markdown"]

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


def errata_markdown(results) -> str:
    """The markdown text of ERRATA.md for a list of :class:`~lfverify.proofs.ClaimResult`."""
    lines = [HEADER]
    errata = [(r.claim, e) for r in results for e in r.outcome.errata]
    lines.append(f"## Errata ({len(errata)})\n")
    if not errata:
        lines.append("None found.\n")
    for number, (claim, e) in enumerate(errata, start=1):
        lines += [
            f"### E{number}. {e.location}\n",
            f"- Claim: {claim.title} (`{claim.key}`, `{claim.label}`)",
            f"- Printed: {e.printed}",
            f"- Derived: {e.derived}",
            f"- Changes a conclusion: {e.consequence}",
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
        lines.append(f"| {_cell(r.claim.title)} | `{r.claim.label}` | {_cell(r.outcome.method)} | {_cell(r.outcome.summary)} |")
    lines.append("")
    if undecided:
        lines.append(f"## Could not decide ({len(undecided)})\n")
        for r in undecided:
            lines.append(f"- {r.claim.title} (`{r.claim.label}`): {r.outcome.summary}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
