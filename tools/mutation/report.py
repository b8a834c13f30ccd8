"""The per-module table: kill rates with the equivalence records applied, their intervals, and the markdown.

Rate.  In a stratum (one module's mutmut mutants, or its mutants of one custom operator) with ``T`` mutants of
which ``n`` were tried, ``k`` detected and ``e`` recorded as equivalent, each tried mutant stands for ``w = T / n``
of its stratum; the non-equivalent kill rate of a set of strata is the weighted mean ``sum w k / sum w (n - e)``
(the plain ratio of counts when every stratum was tried in full: then the rate is exact and has no interval).

Interval.  95 % Clopper-Pearson (statsmodels' ``proportion_confint(method="beta")``), whose coverage is at least
nominal for every rate, which a target near 100 % needs; over several strata it is taken at Kish's effective
sample size ``(sum w a)^2 / sum w^2 a`` with ``a = n - e`` (the Korn-Graubard way of carrying the exact interval
to a weighted sample); for one stratum that is Clopper-Pearson on ``k`` of ``a``.
"""

from __future__ import annotations

import json
import math
import zlib
from pathlib import Path

import numpy as np
import operators
from statsmodels.stats.proportion import proportion_confint

HERE = Path(__file__).resolve().parent
EQUIVALENTS_FILE = HERE / "equivalent_mutants.json"
KILLED_LATER_FILE = HERE / "killed_later.json"
MODULE_TARGET, PACKAGE_TARGET = 0.97, 0.98
LEVEL = 0.95
DETECTED = ("killed", "timeout", "segfault")
UNDETECTED = ("survived", "no tests", "suspicious", "not checked", "check was interrupted by user", "skipped",
              "caught by type check", "not applied")
MUTMUT = "mutmut"
STRATA = (MUTMUT,) + operators.OPERATORS
TITLES = {MUTMUT: "mutmut 3.8's operators", **operators.OPERATOR_TITLES}


# ---------------------------------------------------------------------- sampling and statistics
def sample_names(names, n: int | None, *, seed: int, stratum: str) -> list[str]:
    """A seeded simple random sample of ``n`` of ``names`` (sorted), or all of them when ``n`` is None or at least
    their number.  ``stratum`` (e.g. ``"lfverify.core._metrics:mutmut"``) keys the generator, so that strata are
    drawn independently and a stratum's sample does not depend on what else is run."""
    names = sorted(names)
    if len(set(names)) != len(names):
        raise ValueError("names must be distinct")
    if n is None or len(names) <= n:
        return names
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(zlib.crc32(stratum.encode()),)))
    return sorted(names[i] for i in rng.choice(len(names), size=n, replace=False))


def estimate(strata) -> dict:
    """Weighted rate and interval of ``strata``: dicts with ``available``, ``tried``, ``detected``, ``equivalent``."""
    strata = [s for s in strata if s["tried"]]
    for s in strata:
        if not 0 <= s["detected"] + s["equivalent"] <= s["tried"] <= s["available"]:
            raise ValueError(f"need detected + equivalent <= tried <= available; got {s}")
    weights = np.array([s["available"] / s["tried"] for s in strata])
    kept = np.array([s["tried"] - s["equivalent"] for s in strata], dtype=float)
    exact = all(s["tried"] == s["available"] for s in strata)
    if not strata or (weights * kept).sum() == 0:
        return {"rate": None, "exact": exact, "low": None, "high": None, "effective_n": 0.0}
    rate = sum(w * s["detected"] for w, s in zip(weights, strata)) / (weights * kept).sum()
    effective_n = float((weights * kept).sum() ** 2 / (weights ** 2 * kept).sum())
    low = high = None
    if not exact:
        low, high = (float(x) for x in proportion_confint(min(rate * effective_n, effective_n), effective_n,
                                                            alpha=1 - LEVEL, method="beta"))
    return {"rate": float(rate), "exact": exact, "low": low, "high": high, "effective_n": effective_n}


# ---------------------------------------------------------------------- equivalence records
def mutated_line(diff: str) -> str:
    """The mutant's line(s) in a unified diff: the added lines, stripped and joined by ' / '."""
    return " / ".join(line[1:].strip() for line in diff.splitlines()
                      if line.startswith("+") and not line.startswith("+++"))


def load_equivalents(path: Path = EQUIVALENTS_FILE) -> dict[str, dict[str, str]]:
    """Mutant name -> {"mutation": its mutated line, "reason": why it cannot change observable behaviour}."""
    mapping = json.loads(path.read_text(encoding="utf-8"))["EQUIVALENT_MUTANTS"]
    for name, entry in mapping.items():
        if set(entry) != {"mutation", "reason"} or not entry["reason"].strip():
            raise ValueError(f"{path.name}: entry {name!r} needs exactly a non-empty 'mutation' and 'reason'")
    return mapping


def load_killed_later(path: Path = KILLED_LATER_FILE) -> dict[str, dict]:
    """Survivor name -> {"mutation", "test", "confirmed"} (later.py), for the records ``later.py --confirm`` found
    killed (pytest's status 1 under the mutant); the others do not count."""
    records = json.loads(path.read_text(encoding="utf-8"))["KILLED_LATER"]
    return {name: r for name, r in records.items() if (r.get("confirmed") or {}).get("status") == 1}


def stratum_of(name: str) -> str:
    return operators.operator_of(name) or MUTMUT


def compact_names(names) -> dict[str, list[int]]:
    """``{"m.x_f__mutmut_3", "m.x_f__mutmut_1"}`` -> ``{"m.x_f__mutmut": [1, 3]}``."""
    grouped: dict[str, list[int]] = {}
    for name in names:
        head, _, index = name.rpartition("_")
        grouped.setdefault(head, []).append(int(index))
    return {head: sorted(indices) for head, indices in sorted(grouped.items())}


def expand_names(grouped: dict[str, list[int]]) -> set[str]:
    return {f"{head}_{index}" for head, indices in grouped.items() for index in indices}


def summarize(stratum: dict, equivalents: dict, *, module: str, kind: str, later: dict | None = None) -> dict:
    """Counts of one stratum of one module with the equivalence records applied.

    ``stratum`` holds ``available``, ``tried`` (compact names, or None: all), ``counts`` (status -> number),
    ``undetected`` (name -> status of each tried mutant not detected), ``diffs`` (name -> diff of each of them) and
    optionally ``tests_of`` (name -> {test file: number of tests}).  A record counts only if its mutated line is
    the mutant's; a record of a tried mutant that was detected, or whose line differs, is listed as stale.  A
    survivor that ``later`` (confirmed records of later.py) says a later test kills still counts as survived (the
    run's verdict), and is counted in ``killed_later``."""
    later = {} if later is None else later
    counts, undetected, diffs = stratum["counts"], stratum["undetected"], stratum["diffs"]
    if set(counts) - set(DETECTED + UNDETECTED):
        raise ValueError(f"counts: unknown statuses {sorted(set(counts) - set(DETECTED + UNDETECTED))}")
    if sum(counts.get(s, 0) for s in UNDETECTED) != len(undetected):
        raise ValueError(f"undetected: {len(undetected)} mutants listed, but the counts say otherwise")
    tried_total = sum(counts.values())
    tried = None if stratum.get("tried") is None else expand_names(stratum["tried"])
    if (tried is not None and len(tried) != tried_total) or tried_total > stratum["available"]:
        raise ValueError(f"tried: {tried_total} counted, {len(tried or ())} named, {stratum['available']} available")
    equivalent, surviving, stale = [], [], []
    for name, status in sorted(undetected.items()):
        entry = equivalents.get(name)
        record = {"name": name, "status": status, "mutation": mutated_line(diffs.get(name, "")),
                  "tests": stratum.get("tests_of", {}).get(name)}
        if entry is not None and entry["mutation"] == record["mutation"]:
            equivalent.append({**record, "reason": entry["reason"]})
            continue
        if entry is not None:
            stale.append({"name": name, "listed_mutation": entry["mutation"], "actual_mutation": record["mutation"]})
        killer = later.get(name, {})
        surviving.append({**record, "killed_later_by": killer.get("test")
                          if killer.get("mutation") == record["mutation"] else None})
    for name, entry in sorted(equivalents.items()):
        own = name[len(module) + 1:].startswith(("x_", "x" + operators.CLASS_SEPARATOR))  # not a submodule's
        mine = name.startswith(module + ".") and own and stratum_of(name) == kind
        if mine and name not in undetected and (tried is None or name in tried):
            stale.append({"name": name, "listed_mutation": entry["mutation"], "actual_mutation": None})
    return {"available": stratum["available"], "tried": tried_total,
            "detected": sum(counts.get(s, 0) for s in DETECTED), "equivalent": len(equivalent),
            "survived": len(surviving), "counts": dict(sorted(counts.items())), "equivalent_mutants": equivalent,
            "killed_later": sum(m["killed_later_by"] is not None for m in surviving),
            "surviving_mutants": surviving, "stale_equivalents": stale}


def combine(summaries, target: float | None) -> dict:
    summaries = list(summaries)
    result = {k: sum(s[k] for s in summaries) for k in ("available", "tried", "detected", "equivalent", "survived")}
    result["killed_later"] = sum(s.get("killed_later", 0) for s in summaries)
    result.update(estimate(summaries))
    result["target"] = target
    result["meets_target"] = None if result["rate"] is None or target is None else result["rate"] >= target
    return result


def build(modules: dict[str, dict], *, discovered: list[str], excluded: dict[str, str], last_run: dict | None,
          equivalents: dict | None = None, later: dict | None = None) -> dict:
    """The results file: every module's summary recomputed (so an edit of the equivalence records takes effect on
    ``--report-only``), the package's and each stratum's totals."""
    equivalents = load_equivalents() if equivalents is None else equivalents
    later = load_killed_later() if later is None else later
    modules = dict(sorted(modules.items()))
    for entry in modules.values():
        strata = {kind: summarize(s, equivalents, module=entry["module"], kind=kind, later=later)
                  for kind, s in entry["strata"].items()}
        entry["summary"] = {"strata": strata, **combine(strata.values(), MODULE_TARGET)}
    summaries = [m["summary"]["strata"] for m in modules.values()]
    return {
        "generated_by": "tools/mutation/measure.py (GENERATED FILE: do not edit by hand)",
        "definitions": {
            "detected": list(DETECTED), "undetected": list(UNDETECTED),
            "rate": "detected / (tried - equivalent), weighted by available / tried over sampled strata",
            "interval": "95 % Clopper-Pearson (statsmodels, method='beta'; at Kish's effective sample size over "
                        "several strata); none when every stratum was tried in full (the rate is exact)",
            "equivalent": "undetected mutants recorded in tools/mutation/equivalent_mutants.json with a matching "
                          "mutated line",
            "killed_later": "survivors (counted as survived) that a test written after the run kills, as "
                            "tools/mutation/later.py --confirm found on the commit it records",
            "targets": f">= {MODULE_TARGET * 100:.0f} % per module, >= {PACKAGE_TARGET * 100:.0f} % over the "
                       "package (point estimate)",
        },
        "last_run": last_run,
        "discovered": sorted(discovered),
        "excluded": excluded,
        "not_measured": sorted(set(discovered) - set(modules)),
        "overall": combine([s for strata in summaries for s in strata.values()], PACKAGE_TARGET),
        "by_stratum": {kind: combine([s[kind] for s in summaries if kind in s], None) for kind in STRATA},
        "modules": modules,
    }


# ---------------------------------------------------------------------- docs/testing.md's generated part
DOCS_START = "<!-- generated by tools/mutation/measure.py --docs: do not edit -->"
DOCS_END = "<!-- end generated -->"


def docs_block(fresh: dict, carried: dict) -> str:
    """docs/testing.md's generated part, between :data:`DOCS_START` and :data:`DOCS_END`: the fresh-seed table's
    package figure and per-module scores (``fresh``: mutation_heldout.json), the carried table's package figure."""
    o, modules = fresh["overall"], fresh["modules"].values()
    met = sum(bool(e["summary"]["meets_target"]) for e in modules)
    triaged = sum(not e["summary"]["meets_target"] and e["summary"]["survived"] == e["summary"]["killed_later"]
                  for e in modules)
    lines = [DOCS_START, "",
             f"**Fresh seed** ([table](../tools/mutation/results/mutation_heldout.md)): {len(fresh['modules'])} of "
             f"{len(fresh['discovered'])} modules, {o['tried']:,} mutants tried of {o['available']:,}, "
             f"{o['detected']:,} detected, {o['equivalent']} recorded equivalent, {o['survived']} survived (of which "
             f"{o['killed_later']} are killed by a test written after the run; they still count as survived).  "
             f"Package: **{rate_text(o)}** (target >= {PACKAGE_TARGET * 100:.0f} %); {met} of {len(fresh['modules'])} "
             f"modules meet the >= {MODULE_TARGET * 100:.0f} % target, and in {triaged} more every survivor is "
             "killed by a later test.",
             "", f"**Carried** ([table](../tools/mutation/results/mutation.md); same seed, re-measured after tests "
             f"were written for its survivors, so optimistic): package {rate_text(carried['overall'])}, "
             f"{carried['overall']['tried']:,} of {carried['overall']['available']:,} mutants tried.",
             "", "Fresh seed, per module (95 % Clopper-Pearson interval in brackets):", "",
             "| module | kill rate [95 % CI] | survived (killed later) | equivalent |", "|---|---|---:|---:|"]
    lines += [f"| `{e['source']}` | {rate_text(e['summary'])} | {_survived_text(e['summary'])} | "
              f"{e['summary']['equivalent']} |" for e in modules]
    return "\n".join(lines + ["", DOCS_END])


def replace_docs_block(text: str, block: str) -> str:
    """``text`` with its one generated part replaced by ``block``."""
    if text.count(DOCS_START) != 1 or text.count(DOCS_END) != 1 or text.index(DOCS_START) > text.index(DOCS_END):
        raise ValueError(f"need exactly one {DOCS_START!r} ... {DOCS_END!r} in the page")
    return text[:text.index(DOCS_START)] + block + text[text.index(DOCS_END) + len(DOCS_END):]


# ---------------------------------------------------------------------- markdown
def percent(rate, *, up: bool = False) -> str:
    """Two decimals, rounded down (up for an interval's top): 4711 / 4713 is "99.95 %", never "100.00 %"."""
    if rate is None:
        return "n/a"
    scaled = rate * 10_000
    return f"{(math.ceil(scaled - 1e-9) if up else math.floor(scaled + 1e-9)) / 100:.2f} %"


def rate_text(s: dict) -> str:
    if s["rate"] is None:
        return "n/a"
    if s["exact"]:
        return f"{percent(s['rate'])} (exact)"
    return f"{percent(s['rate'])} [{percent(s['low'])}, {percent(s['high'], up=True)}]"


def _survived_text(summary: dict) -> str:
    later = summary.get("killed_later", 0)
    return f"{summary['survived']} ({later})" if later else str(summary["survived"])


def _tried_text(summary: dict) -> str:
    parts = [f"{k} {v['tried']}/{v['available']}" for k, v in summary["strata"].items() if v["available"]]
    return f"{summary['tried']} / {summary['available']}" + (f" ({', '.join(parts)})" if len(parts) > 1 else "")


def _measured_text(entry: dict) -> str:
    """Where a row was measured: its commit, and the path it had there if the module has moved since."""
    p = entry["provenance"]
    moved = p.get("measured_as")
    return f"{p['commit'][:7]}" + (f" as `{moved}`" if moved and moved != entry["source"] else "")


def _method_text(p: dict) -> str:
    operator_sample = p.get("operator_sample", p.get("sample"))
    sample = ("all mutants" if p.get("sample") is None and operator_sample is None else
              f"sample {p['sample'] or 'all'} per stratum (operators {operator_sample or 'all'}), seed {p['seed']}")
    return (f"{p.get('tool', 'tools/mutation/measure.py')}, mutmut {p.get('mutmut', '?')}, Python "
            f"{p.get('python', '?')}; {sample}, --max-children {p['max_children']} on {p['cpus']} CPUs; tests: "
            f"{p.get('tests', 'the default suite')}")


def _tests_text(tests: dict | None, most: int = 6) -> str:
    if tests is None:
        return "those of the method line"
    if not tests:
        return "none (no test reaches the function)"
    files = [f"{f} ({n})" for f, n in sorted(tests.items(), key=lambda item: (-item[1], item[0]))]
    return ", ".join(files[:most]) + (f" and {len(files) - most} more files" if len(files) > most else "")


def markdown(data: dict, source: str = "tools/mutation/results/mutation.json") -> str:
    """The table of the results ``data``, read from the file ``source``."""
    o = data["overall"]
    lines = [
        f"<!-- GENERATED by tools/mutation/measure.py from {source}: do not edit -->",
        "",
        "Non-equivalent kill rate = detected / (tried - equivalent), detected = killed + timeout + segfault, "
        "weighted by available / tried where a stratum was sampled; 95 % Clopper-Pearson interval in brackets "
        f"(exact: every mutant tried).  Targets: >= {MODULE_TARGET * 100:.0f} % per module, >= "
        f"{PACKAGE_TARGET * 100:.0f} % over the package, on the point estimate.  *Killed later*: survivors (still "
        "counted as survived) that a test written after the run kills, confirmed by tools/mutation/later.py.  "
        f"{len(data['modules'])} of "
        f"{len(data['discovered'])} modules measured.  *Measured at*: the commit of the copy each row was measured "
        "on, and the module's path there when it has moved since (the figures carried over from the layout before "
        "the subpackages).",
        "",
        "| module | measured at | tried / available | detected | equivalent | survived (killed later) "
        "| kill rate [95 % CI] | target |",
        "|---|---|---:|---:|---:|---:|---|---|",
    ]
    target = {None: "-", True: "met", False: "**not met**"}
    for entry in data["modules"].values():
        s = entry["summary"]
        lines.append(f"| `{entry['source']}` | {_measured_text(entry)} | {_tried_text(s)} | {s['detected']} | "
                     f"{s['equivalent']} | {_survived_text(s)} | {rate_text(s)} | {target[s['meets_target']]} |")
    lines.append(f"| **package** | | {o['tried']} / {o['available']} | {o['detected']} | {o['equivalent']} | "
                 f"{_survived_text(o)} | **{rate_text(o)}** | {target[o['meets_target']]} |")
    lines += ["", "By source of mutants (strata summed over the measured modules):", "",
              "| mutants | tried / available | detected | equivalent | survived | kill rate [95 % CI] |",
              "|---|---:|---:|---:|---:|---|"]
    for kind, s in data["by_stratum"].items():
        if s["available"]:
            lines.append(f"| {kind}: {TITLES[kind]} | {s['tried']} / {s['available']} | {s['detected']} | "
                         f"{s['equivalent']} | {s['survived']} | {rate_text(s)} |")
    lines += ["", "Method of each row:", ""]
    by_method: dict[str, list[str]] = {}
    for entry in data["modules"].values():
        p = entry["provenance"]
        text = f"commit {p['commit'][:7]} ({p['source']}), {p['date'][:10]}, {_method_text(p)}"
        by_method.setdefault(text, []).append(f"`{entry['source']}`")
    lines += [f"* {', '.join(sources)}: {text}" for text, sources in by_method.items()]
    afresh = {e["source"]: len(st.get("fresh_kills", ())) for e in data["modules"].values()
              for st in [e["strata"].get(MUTMUT, {})] if st.get("fresh_kills")}
    if afresh:
        lines += ["", f"Detected only when judged again in a fresh process ({sum(afresh.values())} mutmut mutants; "
                      "mutmut's forked run read a result its parent process had cached, or a table built at import): "
                      + ", ".join(f"`{src}` {n}" for src, n in afresh.items()) + "."]
    restated = {e["source"]: st["stops_judged_again"] for e in data["modules"].values()
                for st in [e["strata"].get(MUTMUT, {})] if st.get("stops_judged_again")}
    if restated:
        lines += ["", "mutmut runs stopped (timeout, signal) and judged again in a fresh process (mutmut's verdict -> "
                      "the fresh one; a stop that passes there was the environment's, not the mutant's): "
                      + "; ".join(f"`{name}` {v['mutmut']} -> {v['fresh']}" for found in restated.values()
                                  for name, v in found.items()) + "."]
    run = data.get("last_run")
    if run:
        lines += ["", f"Last run: {run['date'][:16]} UTC, {run['tried']} mutants of {', '.join(run['modules'])}, "
                      f"{run['seconds']['total']:.0f} s wall ({run['note']})."]
    lines += ["", "Equivalence records and their reasons: tools/mutation/equivalent_mutants.json.  How to measure: "
                  "tools/mutation/README.md.", "", "## Surviving mutants (not equivalent), per module", ""]
    survivors = False
    for entry in data["modules"].values():
        found = [m for s in entry["summary"]["strata"].values() for m in s["surviving_mutants"]]
        if found:
            survivors = True
            lines += [f"### `{entry['source']}`", ""]
            lines += [f"* `{m['name']}` ({m['status']}): `{m['mutation']}`; tests run: {_tests_text(m['tests'])}"
                      + (f"; killed later by `{m['killed_later_by']}`" if m.get("killed_later_by") else "")
                      for m in found] + [""]
    if not survivors:
        lines += ["none", ""]
    stale = [m for e in data["modules"].values() for s in e["summary"]["strata"].values()
             for m in s["stale_equivalents"]]
    if stale:
        lines += ["Stale equivalence records (mutant detected, or mutated line changed; not counted):", ""]
        lines += [f"* `{m['name']}`" for m in stale] + [""]
    if data["not_measured"]:
        lines += ["## Not measured yet", "", ", ".join(f"`{s}`" for s in data["not_measured"]), ""]
    if data["excluded"]:
        lines += ["## Excluded", ""] + [f"* `{p}`: {why}" for p, why in data["excluded"].items()] + [""]
    return "\n".join(lines)
