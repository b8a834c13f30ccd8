"""``lfverify proofs``: the SymPy derivations of the paper's closed forms, compared with the printed ones; writes
ERRATA.md (``--errata``) and the documents of ``proofs/`` (``--render``).

Loaded by :mod:`lfverify.app` when the command is ``proofs``: :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from lfverify.io import Progress, check_output_file, check_output_folder, write_text_atomically
from lfverify.paper import corrected_claim_of, resolve_claim
from lfverify.proofs import (
    all_claims,
    errata_markdown,
    render_documents,
    run_claims,
    write_documents,
)

__all__ = ["add_arguments", "run", "select_claims"]


def add_arguments(parser) -> None:
    """The options of ``lfverify proofs``."""
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--errata", metavar="PATH", help="also write the errata report (ERRATA.md) to PATH")
    parser.add_argument("--only", metavar="NAME",
                        help="only the derivations of one claim, named as printed ('Theorem 1', 'Thm. 1'), by its "
                             "LaTeX label or its proofs/ file name (its corrected statement's included), or the "
                             "derivations whose key contains NAME")
    parser.add_argument("--render", metavar="DIR",
                        help="also write the readable proofs: one Markdown document per claim and an index into DIR "
                             "(the repository's proofs/ folder; deterministic, each file written atomically)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr (default: a bar on a terminal, a line per derivation otherwise)")


def _targets(claim) -> set[str]:
    return {e.target for e in claim.evidence if e.kind == "derivation"}


def select_claims(claims, name: str) -> list:
    """The derivations ``--only NAME`` selects: those of the registry claim NAME names
    (:func:`lfverify.paper.resolve_claim`) and of its corrected statement, as its document in proofs/ shows them; else
    those whose key contains NAME.  Raises ValueError (the close matches of NAME) when neither selects any."""
    try:
        claim = resolve_claim(name, what="--only")
    except ValueError as refused:
        matching = [c for c in claims if name in c.key]
        if matching:
            return matching
        raise ValueError(f"{refused}; or a part of a derivation's key (`lfverify proofs --json` lists the keys)") \
            from None
    wanted = _targets(claim)
    fix = corrected_claim_of(claim.label)
    if fix is not None:
        wanted |= _targets(fix)
    selected = [c for c in claims if c.label in wanted or c.key in wanted]
    if not selected:
        kinds = ", ".join(dict.fromkeys(e.kind for e in claim.evidence))
        raise ValueError(f"--only: {claim.number} ({claim.label}) has no derivations (its evidence: {kinds}); "
                         f"`lfverify verify --only {name!r}` checks it")
    return selected


def run(args) -> int:
    """Run ``lfverify proofs``; exit status 1 if a claim regressed."""
    if args.errata:  # before the derivations, not after them
        check_output_file(args.errata, option="--errata")
    claims = all_claims()
    if args.only:
        if args.errata:
            raise ValueError("--errata needs every claim; drop --only")
        if args.render:
            raise ValueError("--render needs every claim; drop --only")
        claims = select_claims(claims, args.only)
    if args.render:  # probed like --errata, before the derivations run, not a minute after them
        target = Path(args.render)
        if target.exists() and not target.is_dir():
            raise ValueError(f"--render: {str(target)!r} is a file, not a folder")
        check_output_folder(target, option="--render")

    quiet = args.quiet or args.json
    with Progress(len(claims), "derivations", "claim", mode="off" if quiet else "auto") as bar:
        results = run_claims(claims, done=lambda result: bar.advance(result.claim.title))
    if args.json:
        json.dump([{"key": r.claim.key, "title": r.claim.title, "label": r.claim.label,
                    "status": r.outcome.status, "expected": r.claim.expected, "regressed": r.regressed,
                    "seconds": round(r.seconds, 3), "method": r.outcome.method, "summary": r.outcome.summary,
                    "errata": [e.__dict__ for e in r.outcome.errata]} for r in results], sys.stdout, indent=2)
        print()
    else:
        width = min(max(len(r.claim.title) for r in results), 72)
        print(f"{'claim':<{width}}  {'label':<40} {'status':<9} {'seconds':>7}")
        for r in results:
            flag = f"  <-- REGRESSION (recorded: {r.claim.expected})" if r.regressed else ""
            print(f"{r.claim.title[:width]:<{width}}  {r.claim.label[:40]:<40} {r.outcome.status:<9} "
                  f"{r.seconds:7.2f}{flag}")
        counts = {s: sum(r.outcome.status == s for r in results) for s in ("verified", "erratum", "undecided")}
        print(f"\n{len(results)} claims: {counts['verified']} verified, {counts['erratum']} with errata, "
              f"{counts['undecided']} undecided; {sum(r.regressed for r in results)} regressions; "
              f"{sum(r.seconds for r in results):.1f} s")
    if args.errata:
        write_text_atomically(args.errata, errata_markdown(results))
        if not args.json:
            print(f"wrote {args.errata}")
    if args.render:
        written = write_documents(args.render, render_documents(results))
        if not args.json:
            print(f"wrote {len(written)} documents into {args.render}")
    return 1 if any(r.regressed for r in results) else 0
