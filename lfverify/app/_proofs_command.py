"""``lfverify proofs``: the SymPy derivations of the paper's closed forms, compared with the printed ones; writes
ERRATA.md (``--errata``) and the documents of ``proofs/`` (``--render``).

Loaded by :mod:`lfverify.app` when the command is ``proofs``: :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from lfverify.io import check_output_file, write_text_atomically
from lfverify.proofs import (
    all_claims,
    errata_markdown,
    render_documents,
    run_claims,
    write_documents,
)

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    """The options of ``lfverify proofs``."""
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--errata", metavar="PATH", help="also write the errata report (ERRATA.md) to PATH")
    parser.add_argument("--only", metavar="TEXT", help="only the claims whose key contains TEXT")
    parser.add_argument("--render", metavar="DIR",
                        help="also write the readable proofs: one Markdown document per claim and an index into DIR "
                             "(the repository's proofs/ folder; deterministic, each file written atomically)")


def run(args) -> int:
    """Run ``lfverify proofs``; exit status 1 if a claim regressed."""
    if args.errata:  # before the derivations, not after them
        check_output_file(args.errata, option="--errata")
    claims = all_claims()
    if args.only:
        claims = [c for c in claims if args.only in c.key]
        if not claims:
            raise ValueError(f"--only: no claim key contains {args.only!r}")
        if args.errata:
            raise ValueError("--errata needs every claim; drop --only")
        if args.render:
            raise ValueError("--render needs every claim; drop --only")
    if args.render:
        target = Path(args.render)
        if target.exists() and not target.is_dir():  # fail before the derivations run
            raise ValueError(f"--render: {str(target)!r} is a file, not a folder")

    def progress(claim):
        if not args.json and sys.stderr.isatty():
            print(f"  deriving: {claim.title}", file=sys.stderr)

    results = run_claims(claims, progress=progress)
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
