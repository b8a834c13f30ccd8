"""Survivors of a measured run killed by a test written afterwards: the records, and their confirmation.

    python tools/mutation/later.py --add NAME TEST [--add NAME TEST ...]     # record (mutation from the results)
    python tools/mutation/later.py --confirm                                  # each record's test, run on its mutant

A measured row keeps its run's verdicts (a test written for a survivor after seeing it would make the figure
optimistic).  What became of a survivor is recorded beside the equivalence records, in killed_later.json: its
mutated line and the test that kills it.  ``--confirm`` checks every record where it matters, on the code of today:
in a ``git archive HEAD`` copy, the record's test passes on the clean source and fails (pytest's status 1) with the
mutant's diff applied to its module (the diff of the results file, matched by its lines, whatever their
indentation).  It writes the commit and the status of each record; the table (report.py) shows a survivor as
*killed later* only when the confirmation at the recorded mutation says so.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone
from pathlib import Path

import measure
import report

RECORDS_FILE = report.KILLED_LATER_FILE
#: one record's test run, clean or mutated: a single test file's test, imports included (seconds)
LIMIT = 600.0


def apply_diff(source: str, diff: str) -> str:
    """``source`` with the hunks of the unified ``diff`` applied.

    mutmut's diffs show the function dedented (a method starts at column 0) and keep a docstring's inner lines as
    they are, so each hunk's old lines are looked up by their text without indentation, the context lines are kept
    as the source has them, and an added line gets the indentation by which the source's first removed line differs
    from the diff's; a hunk found nowhere or at more than one place is a ValueError (the source changed since)."""
    lines = source.splitlines(keepends=True)
    for hunk in _hunks(diff):
        old = [text for mark, text in hunk if mark != "+"]
        found = [start for start in range(len(lines) - len(old) + 1)
                 if all(line.strip() == text.strip() for line, text in zip(lines[start:start + len(old)], old))]
        if len(found) != 1:
            raise ValueError(f"the diff's hunk starting {old[0].strip()!r} is found {len(found)} times in the source "
                             "(need exactly once)")
        start, out, i, shift = found[0], [], found[0], None
        for mark, text in hunk:
            if mark == "+":
                out.append(" " * (shift or 0) + text + "\n")
                continue
            if mark == "-" and shift is None:
                shift = _width(lines[i]) - _width(text)
            if mark == " ":
                out.append(lines[i])
            i += 1
        lines[start:i] = out
    return "".join(lines)


def _width(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _hunks(diff: str) -> list[list[tuple[str, str]]]:
    """Each hunk's lines as (mark, text): " " context, "-" removed, "+" added."""
    hunks: list[list[tuple[str, str]]] = []
    for line in diff.splitlines():
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("@@"):
            hunks.append([])
        elif hunks:
            hunks[-1].append((line[:1] or " ", line[1:]))
    if not any(mark in "+-" for hunk in hunks for mark, _ in hunk):
        raise ValueError("the diff changes nothing")
    return hunks


def load(path: Path = RECORDS_FILE) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _save(data: dict, path: Path) -> None:
    measure.write_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def add(pairs: list[tuple[str, str]], results: Path, path: Path = RECORDS_FILE, today: dict | None = None) -> None:
    """Record that test ``TEST`` kills survivor ``NAME`` of the results file ``results`` (unconfirmed).  Where the
    code has moved since the run, ``today`` maps NAME to (module path, a diff making the same mutated line there)."""
    data, diffs = load(path), _diffs(results)
    for name, test in pairs:
        if name not in diffs:
            raise SystemExit(f"{name}: not an undetected mutant of {results}")
        if not (measure.REPO / test.split("::")[0]).is_file():
            raise SystemExit(f"{test}: no such test file")
        data["KILLED_LATER"][name] = {"mutation": report.mutated_line(diffs[name]), "test": test, "confirmed": None}
        if name in (today or {}):
            module, diff = today[name]
            if report.mutated_line(diff) != data["KILLED_LATER"][name]["mutation"]:
                raise SystemExit(f"{name}: the diff for today's code makes another mutated line")
            data["KILLED_LATER"][name].update(module_today=module, diff_today=diff)
    data["KILLED_LATER"] = dict(sorted(data["KILLED_LATER"].items()))
    _save(data, path)


def _diffs(results: Path) -> dict[str, str]:
    data = json.loads(results.read_text(encoding="utf-8"))
    return {name: diff for entry in data["modules"].values() for stratum in entry["strata"].values()
            for name, diff in stratum["diffs"].items()}


def confirm(results: Path, workdir: Path, max_children: int, path: Path = RECORDS_FILE, say=print) -> int:
    """Run every record's test on its mutant, in ``max_children`` copies of ``git archive HEAD`` (one mutant at a
    time in each: a mutated module would reach another record's test in the same copy); write each record's
    confirmation.  Returns the number of records not confirmed."""
    data, diffs = load(path), _diffs(results)
    records = data["KILLED_LATER"]
    if not records:  # nothing to run (and pytest without node ids would run the whole suite)
        return 0
    copies = [workdir / f"later-{i}" for i in range(max(1, min(max_children, len(records))))]
    commit = {measure.make_copy(copy, {}) for copy in copies}.pop()
    tests = sorted({r["test"] for r in records.values()})
    clean = measure._pytest_in_own_group(tests, cwd=copies[0], env=measure.environment(str(copies[0])), limit=LIMIT)
    if clean != 0:
        raise SystemExit(f"the records' {len(tests)} tests do not pass on the clean copy (pytest status {clean})")

    def one(copy: Path, name: str, record: dict) -> dict:
        stem = Path(*name.split(".")[:-1])
        candidates = [Path(record["module_today"])] if record.get("module_today") else \
            [stem.with_suffix(".py"), stem / "__init__.py"]
        relative = next((p for p in candidates if (copy / p).is_file()), None)
        if relative is None:
            return {"commit": commit, "status": None, "why": f"not applied: no module {candidates[0]} today"}
        if name not in diffs or report.mutated_line(diffs[name]) != record["mutation"]:
            return {"commit": commit, "status": None, "why": "not in the results file with this mutation"}
        diff = record.get("diff_today") or diffs[name]  # the same mutated line where the code has moved since
        if report.mutated_line(diff) != record["mutation"]:
            return {"commit": commit, "status": None, "why": "diff_today makes another mutation"}
        target = copy / relative
        original = target.read_text(encoding="utf-8")
        try:
            mutated = apply_diff(original, diff)
        except ValueError as exc:
            return {"commit": commit, "status": None, "why": f"not applied: {exc}"}
        target.write_text(mutated, encoding="utf-8")
        try:
            status = measure._pytest_in_own_group([record["test"]], cwd=copy, env=measure.environment(str(copy)),
                                                  limit=LIMIT)
        finally:
            target.write_text(original, encoding="utf-8")
        return {"commit": commit, "status": status, **({} if status == 1 else {"why": f"pytest status {status}"})}

    def share(i: int) -> list:
        mine = sorted(records.items())[i::len(copies)]
        found = []
        for name, record in mine:
            found.append((name, one(copies[i], name, record)))
            say(f"{name}: {'killed' if found[-1][1]['status'] == 1 else found[-1][1]['why']}")
        return found

    outcomes = dict(pair for found in measure._map_killing_children(share, range(len(copies)), len(copies))
                    for pair in found)
    for name, outcome in outcomes.items():
        records[name]["confirmed"] = outcome
    data["confirmed_at"] = {"commit": commit, "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    _save(data, path)
    return sum(o["status"] != 1 for o in outcomes.values())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--add", nargs=2, action="append", metavar=("NAME", "TEST"), default=[])
    parser.add_argument("--today", nargs=3, action="append", metavar=("NAME", "MODULE", "DIFF_FILE"), default=[],
                        help="with --add: where the code has moved since the run, the module and a diff (file) "
                        "making the same mutated line there")
    parser.add_argument("--confirm", action="store_true")
    parser.add_argument("--results", type=Path, default=measure.HELDOUT)
    parser.add_argument("--workdir", type=Path, default=measure.DEFAULT_WORKDIR)
    parser.add_argument("--max-children", type=int, default=2)
    args = parser.parse_args(argv)
    if args.add:
        today = {name: (module, Path(diff).read_text(encoding="utf-8")) for name, module, diff in args.today}
        add([tuple(pair) for pair in args.add], args.results, today=today)
    if args.confirm:
        missed = confirm(args.results, args.workdir, args.max_children)
        print(f"{missed} record(s) not confirmed" if missed else "every record confirmed")
        return 1 if missed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
