"""Write lfverify/learn/data_registry.tsv, the pinned public source of every file of the paper's data sets, from the
staged copy's PROVENANCE.tsv.

    python tools/make_data_registry.py PATH/TO/shared/datasets/PROVENANCE.tsv

Each row of PROVENANCE.tsv names the public GitHub repository a staged file was copied from, the commit, the path in
the repository, the size and the sha256.  The registry keeps those columns (the commit is PROVENANCE's
``head_commit``, the state the file was copied from; its git blob equals the staged file's, so
``https://raw.githubusercontent.com/<repository>/<commit>/<path>`` serves exactly the staged bytes), sorted as
PROVENANCE lists them.  lfverify's data fetcher (lfverify/learn/_fetch.py) downloads every file from there and
checks its sha256.  Run it once when the staged copy changes; tests/learn/test_data_fetch.py checks that the shipped
registry equals PROVENANCE.tsv whenever the staged copy is present.
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

REGISTRY = Path(__file__).resolve().parents[1] / "lfverify" / "learn" / "data_registry.tsv"
#: The registry's columns, in order.
COLUMNS = ("dataset", "file", "repository", "commit", "path", "size", "sha256")


def registry_text(provenance: Path) -> str:
    """The registry's text for the PROVENANCE.tsv at ``provenance``."""
    with open(provenance, newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    if not rows:
        raise ValueError(f"{provenance}: no rows")
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([row["dataset"], row["file"], row["repo"], row["head_commit"], row["path"], row["size"],
                         row["sha256"]])
    return out.getvalue()


def main(argv) -> int:
    if len(argv) != 1:
        print("usage: python tools/make_data_registry.py PATH/TO/shared/datasets/PROVENANCE.tsv", file=sys.stderr)
        return 2
    REGISTRY.write_text(registry_text(Path(argv[0])))
    print(f"wrote {REGISTRY}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
