"""``lfverify data``: the paper's data sets - ``data fetch [NAME ...]`` downloads and checks them, ``data list`` shows
where they are looked for and which are there.

Loaded by :mod:`lfverify.app` when the command is ``data``: :func:`add_arguments` and :func:`run`; the fetching
itself is :func:`lfverify.learn.fetch_datasets` (pooch: pinned sources, sha256, the user cache).
"""

from __future__ import annotations

import argparse
import sys

from lfverify.learn import (
    DATA_CACHE_ENV_VARIABLE,
    DATASET_SPECS,
    DATASETS_ENV_VARIABLE,
    DOWNLOAD_TIMEOUT,
    STAGED_DATASETS,
    data_location,
    dataset_files,
    dataset_status,
    describe_source,
    fetch_datasets,
    file_states,
)

__all__ = ["add_arguments", "run"]


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds; got {text!r}")
    return value


def add_arguments(parser) -> None:
    """The options of ``lfverify data`` and its two actions."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    fetch = actions.add_parser(
        "fetch", help="download the data sets into the user cache and check every file's sha256 (an offline copy "
                      "given by --data-root or $LFVERIFY_DATASETS is checked instead)")
    fetch.add_argument("names", nargs="*", metavar="NAME",
                       help="data sets to fetch (default: all; `lfverify data list` names them)")
    fetch.add_argument("--timeout", type=_seconds, default=DOWNLOAD_TIMEOUT, metavar="SECONDS",
                       help=f"seconds to wait for the server (default {DOWNLOAD_TIMEOUT:g})")
    fetch.add_argument("--quiet", action="store_true",
                       help="no progress on stderr (default: a bar on a terminal, a line per file otherwise)")
    listing = actions.add_parser("list", help="the data sets, where they are looked for, and which are there")
    for action in (fetch, listing):
        action.add_argument("--data-root", metavar="DIR",
                            help=f"an offline copy of the data sets (default: ${DATASETS_ENV_VARIABLE}, else the user "
                                 f"cache, or ${DATA_CACHE_ENV_VARIABLE})")
        action.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                            help="show the traceback of a failure (default: one line)")


def _where(base, kind) -> str:
    if kind == "root":
        return f"{base} (the offline copy --data-root names)"
    if kind == "env":
        return f"{base} (the offline copy ${DATASETS_ENV_VARIABLE} names)"
    return f"{base} (the user cache; missing files are downloaded from {describe_source()} and checked by sha256)"


def _fetch(args) -> int:
    names = args.names or None
    for name in names or ():
        if name not in DATASET_SPECS:
            raise ValueError(f"NAME must be one of the data sets {', '.join(DATASET_SPECS)}; got {name!r}")
    base, kind = data_location(args.data_root)
    chosen = names or [n for n, s in DATASET_SPECS.items() if s.available_offline]
    before = ((), ())
    if kind == "cache":  # what the fetch will download: said after it, with why
        before = file_states([f for n in chosen for f in dataset_files(n, all_files=True)], base)
    paths = fetch_datasets(names, root=args.data_root, timeout=args.timeout,
                           progress="off" if args.quiet else "auto")
    missing, damaged = before
    if missing:
        print(f"downloaded {len(missing)} missing files: {', '.join(missing)}")
    if damaged:
        print(f"downloaded again {len(damaged)} damaged files (their sha256 was not the pinned one): "
              f"{', '.join(damaged)}")
    size = sum(p.stat().st_size for p in paths)
    print(f"{len(chosen)} data sets, {len(paths)} files, {size / 1e6:.1f} MB: present and checked by sha256 in "
          f"{_where(base, kind)}")
    return 0


def _list(args) -> int:
    base, kind = data_location(args.data_root)
    print(f"Data sets are read from {_where(base, kind)}.")
    print(f"{'data set':<14} {'files':>5} {'MB':>5}  {'state':<8} {'n x d':>12} {'prior':>6}  note")
    for name, spec in DATASET_SPECS.items():
        if not spec.available_offline:
            print(f"{name:<14} {'-':>5} {'-':>5}  {'-':<8} {'-':>12} {'-':>6}  {spec.note}")
            continue
        every = dataset_files(name, all_files=True)
        # every present file is hashed: "checked" means present and its sha256 the pinned one
        state, missing, damaged = dataset_status(name, root=args.data_root)
        d, n, prior = STAGED_DATASETS[name]
        size = sum(f.size for f in every) / 1e6
        note = (f"damaged (sha256 not the pinned one): {', '.join(damaged)}" if damaged else
                f"missing: {', '.join(missing)}" if state == "partly" else spec.note or spec.merge)
        print(f"{name:<14} {len(every):>5} {size:>5.1f}  {state:<8} {f'{n} x {d}':>12} {prior:>6.4f}  {note}".rstrip())
    print("state: checked = every file present with its pinned sha256; damaged = a file with another sha256 "
          "(`lfverify data fetch` downloads it again in the cache); missing / partly = no file / some files there")
    return 0


def run(args) -> int:
    """Run ``lfverify data ACTION``."""
    if args.action == "fetch":
        return _fetch(args)
    if args.action == "list":
        return _list(args)
    print("lfverify data: choose an action: fetch or list (lfverify data --help)", file=sys.stderr)
    return 2
