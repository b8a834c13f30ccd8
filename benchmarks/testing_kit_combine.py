"""The combined error-rate table of lfverify.testing: each row's counts summed over the runs of
``benchmarks/testing_kit_error_rates.py`` that measured the check as it is now, with Clopper-Pearson intervals.

The runs (``benchmarks/results/<name>.json``) and, per run, the rows taken from it are listed in :data:`SOURCES`;
the seed ranges of one row never overlap (checked).  Rows measured before a check changed are left out, with one
exception stated in the table: the false-alarm rows of ``expectation_monte_carlo`` (U_hat) from runs at level 1e-3
count for the current level 1e-4, because the test statistic and its samples are unchanged and p < 1e-4 implies
p < 1e-3 (0 failures at 1e-3 are 0 failures at 1e-4).

Usage::

    python benchmarks/testing_kit_combine.py

Writes ``benchmarks/results/testing_kit_combined.md`` and ``.json`` (generated; written atomically).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from scipy.stats import binomtest

from lfverify.io import write_text_atomically

RESULTS = Path(__file__).resolve().parent / "results"

_EXACT = {"unbiased_exact", "expectation_exact", "convexity"}
#: (run name, the rows taken from it: a predicate on (implementation, check), why).
SOURCES = (
    ("testing_kit_error_rates", lambda impl, check: check in _EXACT or impl == "lfverify U_hat",
     "first run: the exact and loss checks (unchanged since), U_hat false alarms (seeds 0-49, level 1e-3)"),
    ("testing_kit_false_alarms", lambda impl, check: impl == "lfverify U_hat",
     "U_hat false alarms, seeds 50-199 (level 1e-3)"),
    ("testing_kit_uhat_false_alarms", lambda impl, check: True, "U_hat false alarms, seeds 200-369 (level 1e-4)"),
    ("testing_kit_uhat_power", lambda impl, check: True, "dropped-offset U_hat, level 1e-4"),
    ("testing_kit_monte_carlo", lambda impl, check: True, "unbiased_monte_carlo as it is now (paired z, 1e-4)"),
    ("testing_kit_classifier_rates",
     lambda impl, check: check == "consistency_finite" or (check == "consistency_gaussian"
                                                             and impl == "BestThresholdClassifier"),
     "consistency_finite, and consistency_gaussian's false alarms on BestThresholdClassifier (its regret at n = 4,000 "
     "is below the tolerance at every seed, so the rate stage added since never ran: the verdicts are unchanged)"),
    ("testing_kit_consistency_rate", lambda impl, check: True,
     "consistency_gaussian with its rate stage: power against the 1/2 threshold, false alarms on the shifted one"),
    ("testing_kit_consistency_rate_more", lambda impl, check: True,
     "consistency_gaussian with its rate stage: false alarms on the shifted threshold, seeds 370-739"),
    ("testing_kit_order_4000", lambda impl, check: True,
     "sample_order_invariance on the Gaussian consistency sample of n = 4,000 (before: n = 1,000)"),
    ("testing_kit_cheap_rows_200", lambda impl, check: True,
     "the exact checks' power rows, dropped-offset U_hat and the loss rows, seeds 200-369"),
    ("testing_kit_exact_false_alarms", lambda impl, check: True, "unbiased_exact false alarms, seeds 50-369"),
)
ORDER = ("unbiased_monte_carlo", "unbiased_exact", "expectation_monte_carlo", "expectation_exact", "convexity",
         "consistency_finite", "consistency_gaussian", "sample_order_invariance")


def combine(results: Path = RESULTS) -> list[dict]:
    rows: dict = {}
    for name, wanted, _why in SOURCES:
        path = results / f"{name}.json"
        if not path.exists():
            print(f"missing {path.name}: its rows are left out", file=sys.stderr)
            continue
        record = json.loads(path.read_text())
        for row in record["rows"]:
            if not wanted(row["implementation"], row["check"]) or not row["seeds"]:
                continue
            first = row.get("first_seed", record.get("start_seed", 0))
            key = (row["implementation"], row["measures"], row["check"])
            entry = rows.setdefault(key, {"seeds": 0, "failures": 0, "ranges": [], "runs": []})
            span = (first, first + row["seeds"] - 1)
            if any(not (span[1] < a or span[0] > b) for a, b in entry["ranges"]):
                raise ValueError(f"{key}: seeds {span} of {name} overlap {entry['ranges']}")
            entry["seeds"] += row["seeds"]
            entry["failures"] += row["failures"]
            entry["ranges"].append(span)
            entry["runs"].append(name)
    out = []
    for (impl, what, check), entry in rows.items():
        n, k = entry["seeds"], entry["failures"]
        ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
        out.append({"implementation": impl, "measures": what, "check": check, "seeds": n, "failures": k,
                    "rate": k / n, "ci95": [ci.low, ci.high],
                    "interval_within_target": bool(ci.high <= 0.01 if what == "false alarm" else ci.low >= 0.99),
                    "seed_ranges": sorted(entry["ranges"]), "runs": entry["runs"]})
    out.sort(key=lambda r: (ORDER.index(r["check"]) if r["check"] in ORDER else len(ORDER),
                            r["measures"] != "false alarm"))
    return out


def markdown(rows: list[dict]) -> str:
    lines = ["# lfverify.testing: combined error rates", "",
             "Generated by `python benchmarks/testing_kit_combine.py` from the runs of "
             "`benchmarks/testing_kit_error_rates.py` listed below (each run's command is in its own file).", "",
             "Targets: false-alarm rate <= 1 % and power >= 99 %.  95 % Clopper-Pearson interval; \"interval\" = the "
             "whole interval meets the target (at 0 failures, or 0 misses, that needs >= 368 seeds).  The U_hat "
             "false-alarm rows of runs at level 1e-3 count at the current 1e-4 (same statistic and samples; "
             "p < 1e-4 implies p < 1e-3).", "",
             "| implementation | measures | check | seeds | failures | rate | 95 % CI | interval | seeds used |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        spans = ", ".join(f"{a}-{b}" for a, b in r["seed_ranges"])
        lines.append(f"| {r['implementation']} | {r['measures']} | `{r['check']}` | {r['seeds']} | {r['failures']} | "
                     f"{r['rate']:.3f} | [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] | "
                     f"{'yes' if r['interval_within_target'] else 'no'} | {spans} |")
    lines += ["", "Runs:", ""]
    lines += [f"* `benchmarks/results/{name}.md`: {why}" for name, _, why in SOURCES]
    return "\n".join(lines + [""])


def main() -> int:
    rows = combine()
    write_text_atomically(RESULTS / "testing_kit_combined.json", json.dumps({"rows": rows}, indent=2) + "\n")
    text = markdown(rows)
    write_text_atomically(RESULTS / "testing_kit_combined.md", text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
