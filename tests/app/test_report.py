"""lfverify verify's report (lfverify/app/_report.py): evidence outcomes, regressions, REPORT.md / report.json.

Oracles: hand-built study summaries and benchmark summaries with known verdicts; the registry itself (every
claim appears in the report); a planted failing self-check must turn into a regression and exit status 1.

Private: lfverify.app._report and lfverify.app._self_checks, the verification report and its self-checks: their parts
(the study evidence, the benchmark rows, the individual checks) are tested one by one, and the benchmark, derivations
and studies they run are patched where the report looks them up.
"""

import json

import pytest

import lfverify.app._report as report
import lfverify.app._self_checks as verification
from lfverify import app as cli
from lfverify.paper import PAPER_CLAIMS

pytestmark = pytest.mark.claims("package:command-line", "package:registry")


def test_report_covers_every_claim_and_writes_both_files(tmp_path, monkeypatch, claim_results):
    """One real run without studies and benchmark: derivations + self-checks (the derivations' results shared with
    tests/proofs/test_proofs.py in the same process, which checks each against its record: tests/claim_results.py).
    Every claim has its row, and the failing claims link to their corrected statements (one test: the run takes
    tens of seconds)."""
    monkeypatch.setattr(report, "run_claims", claim_results.run_claims)
    result = report.run_verification("quick", out=tmp_path, studies=[], benchmark=False, figures=False,
                                     executor="serial")  # in this process: the shared results are read
    out = tmp_path
    assert [c.claim.label for c in result.claims] == [c.label for c in PAPER_CLAIMS]
    assert not result.regressed
    text = (out / "REPORT.md").read_text()
    for claim in PAPER_CLAIMS:
        assert f"| {claim.number} | `{claim.label}` |" in text
    assert "## Errata" in text and "E36." in text  # the generated errata travel with the report
    data = json.loads((out / "report.json").read_text())
    assert len(data["claims"]) == len(PAPER_CLAIMS) and data["regressed"] is False
    thm1 = next(c for c in data["claims"] if c["label"] == "thm:f-measure-calibration")
    assert thm1["verdict"] == "fails as stated"
    kinds = {e["kind"]: e["outcome"] for e in thm1["evidence"]}
    assert kinds["derivation"] == "as recorded" and kinds["property-test"] == "not run (pytest)"
    _check_failing_claims_link_to_corrected_statements_that_hold(result, out)


def test_derivations_on_workers_are_paired_with_their_claims_in_order(claim_results):
    """Oracle: the same claims checked in this process (the shared results).  An executor that sends each task and
    its result through pickle (what a worker process needs of them) and finishes the tasks in reverse order gives
    each outcome to its own claim, in the claims' order; a run without an executor is in this process."""
    import pickle

    from lfverify.parallel import SerialExecutor
    from lfverify.proofs import all_claims

    class Pickled(SerialExecutor):
        def map_unordered(self, function, argument_tuples):
            arguments = [pickle.loads(pickle.dumps(a)) for a in argument_tuples]
            done = [(i, pickle.loads(pickle.dumps(r))) for i, r in super().map_unordered(function, arguments)]
            yield from reversed(done)

    claims = all_claims()[:3]
    expected = [claim_results[c.key].outcome for c in claims]
    assert len({o.summary for o in expected}) == 3  # distinct outcomes: a wrong pairing shows
    said = []
    for executor in (Pickled(), None):
        results, by_label, _ = report._run_derivations(said.append, claims, "off", executor=executor)
        assert [r.claim for r in results] == claims and [r.outcome for r in results] == expected
        assert sum(len(v) for v in by_label.values()) == 3
    assert said == ["derivations: 3 claims"] * 2


def test_a_failing_self_check_is_a_regression(monkeypatch, tmp_path):
    name = "Lemma 1: U_phi <= U"
    planted = verification.Check(name, "lem:utility-lower-bound", "planted", "verified", lambda: (False, "planted"))
    monkeypatch.setattr(verification, "CHECKS", (planted,))
    monkeypatch.setattr(report, "_run_derivations", lambda *a, **k: ([], {}, 0.0))
    result = report.run_verification("quick", out=tmp_path, studies=[], benchmark=False, figures=False)
    lemma1 = next(c for c in result.claims if c.claim.label == "lem:utility-lower-bound")
    assert lemma1.regressed and lemma1.verdict == "REGRESSED"
    assert "## Regressions" in (tmp_path / "REPORT.md").read_text()


def test_cli_exit_status_follows_regressions(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(report, "_run_derivations", lambda *a, **k: ([], {}, 0.0))
    monkeypatch.setattr(verification, "CHECKS", ())
    monkeypatch.setattr(report, "_run_benchmark", lambda *a, **k: ({}, "", []))
    monkeypatch.setattr(report, "PAPER_CLAIMS", PAPER_CLAIMS[:1])  # Definition 1: derivation + self-check
    # without derivations and self-checks, the evidence is missing: reported as an error, exit 1
    assert cli.main(["verify", "--serial", "--no-figures", "--out", str(tmp_path)]) == 1
    assert "REGRESSION" in capsys.readouterr().out


def test_study_evidence_against_the_record(monkeypatch):
    monkeypatch.setitem(report.STUDY_EXPECTATIONS, "quick", {"toy": {"a": True, "b": False}})
    ok = report._study_evidence("toy", "quick", {"verdicts": {"a": True, "b": False}}, 1.0)
    assert ok.outcome == "as recorded" and not ok.regressed
    flipped = report._study_evidence("toy", "quick", {"verdicts": {"a": True, "b": True}}, 1.0)
    assert flipped.regressed and "{'b': True}" in flipped.figure
    extra = report._study_evidence("toy", "quick", {"verdicts": {"a": True, "b": False, "c": True}}, 1.0)
    assert extra.regressed
    unrecorded = report._study_evidence("toy", "full", {"verdicts": {"a": False}}, 1.0)
    assert unrecorded.outcome == "measured (no record)" and not unrecorded.regressed
    assert report._study_evidence("toy", "quick", {}, 1.0).outcome == "error"


def test_benchmark_table_verdict_uses_combined_standard_errors():
    """Printed Table 4, breast-cancer U-GD: 0.963 (31e-4).  Our mean 0.955 with s.e. ~0.002: inside 3 combined
    s.e. (0.0111); a planted shift of 0.05 is outside."""
    values = [0.952, 0.955, 0.958]  # mean 0.955, s.e. 0.00173
    summary = {"table": {"f1": {"breast-cancer": {"U-GD": values}}}}
    holds, figure = report.benchmark_verdict("table", summary)
    assert holds and figure.endswith("in 1 of 1 cells")
    shifted = {"table": {"f1": {"breast-cancer": {"U-GD": [v - 0.05 for v in values]}}}}
    assert report.benchmark_verdict("table", shifted)[0] is False


def test_benchmark_convergence_and_sample_complexity_verdicts():
    conv = {"convergence": {"f1": {"a": {"U-BFGS": {"median_surrogate_iters": 12}},
                                   "b": {"U-BFGS": {"median_surrogate_iters": 50}},
                                   "c": {"U-BFGS": {"median_surrogate_iters": 30}}}}}
    assert report.benchmark_verdict("convergence", conv) == (
        True, "U-BFGS reaches its final surrogate utility within 30 iterations (median over trials) in 2 of 3 "
              "(data set, metric) pairs")
    sizes = {"sample-complexity": {"f1": {"a": {"U-GD": {"20": [0.9, 0.8, 0.85], "40": [0.1, 0.2], "100": [1, 1]},
                                                "Plug-in": {"20": [0.5, 0.6, 0.55], "40": [0.9, 0.8],
                                                            "100": [0, 0.1]}}}}}
    assert report.benchmark_verdict("sample-complexity", sizes) == (
        True, "U-GD or U-BFGS significantly above Plug-in at some n <= 40 in 1 of 1 (data set, metric) pairs")
    two = {"sample-complexity": {"f1": {**sizes["sample-complexity"]["f1"], "b": {  # b: Plug-in ahead everywhere
        "U-GD": {"20": [0.5, 0.6, 0.55], "40": [0.1, 0.2], "100": [0, 0.1]},
        "Plug-in": {"20": [0.9, 0.8, 0.85], "40": [0.9, 0.8], "100": [1, 1]}}}}}
    assert report.benchmark_verdict("sample-complexity", two) == (  # a win in 1 of 2 pairs is not "most"
        False, "U-GD or U-BFGS significantly above Plug-in at some n <= 40 in 1 of 2 (data set, metric) pairs")
    sizes["sample-complexity"]["f1"]["a"]["Plug-in"]["20"] = [0.95, 0.9, 0.92]  # Plug-in ahead at n = 20 too
    assert report.benchmark_verdict("sample-complexity", sizes)[0] is False
    assert report.benchmark_verdict("tau", {})[0] is False


def test_smoke_studies_run_through_the_report(tmp_path, monkeypatch):
    """The simulation path end to end, at the studies' smoke sizes (no record for that mode: measured only)."""
    monkeypatch.setattr(report, "_run_derivations", lambda *a, **k: ([], {}, 0.0))
    monkeypatch.setattr(verification, "CHECKS", ())
    result = report.run_verification("quick", out=tmp_path, studies=["unbiasedness"], benchmark=False,
                                     figures=False, study_mode="smoke", executor="serial")
    lemma3 = next(c for c in result.claims if c.claim.label == "lem:unbiased-gradient")
    sim = next(e for e in lemma3.evidence if e.kind == "simulation")
    assert sim.outcome == "measured (no record)" and "split_unbiased" in sim.figure
    assert (tmp_path / "simulations" / "unbiasedness" / "summary.json").exists()


def test_bad_mode():
    with pytest.raises(ValueError, match=r"^mode must be one of \('quick', 'full'\); got 'fast'$"):
        report.run_verification("fast", out=".")


def test_full_mode_runs_the_full_studies_and_the_paper_protocol(monkeypatch, tmp_path):
    """--full passes mode "full" to every study and the paper's defaults (50 trials, every data set) to the
    benchmark; the runners are replaced by recorders (the real full run takes hours)."""
    import lfverify.simulations as simulations

    studies, options = [], []
    monkeypatch.setattr(report, "_run_derivations", lambda *a, **k: ([], {}, 0.0))
    monkeypatch.setattr(verification, "CHECKS", ())
    monkeypatch.setattr(report, "run_study", lambda name, mode, **kw: studies.append((name, mode)) or
                        {"verdicts": {"finite/F1": True, "finite/Jaccard": True, "bounded-logistic/F1": True,
                                      "bounded-logistic/Jaccard": True}})

    executors = []

    def fake_benchmark(opts, *, executor=None):
        options.append(opts)
        executors.append(executor)
        (opts.out).mkdir(parents=True, exist_ok=True)
        (opts.out / "summary.json").write_text("{}")
        return report.write_text_atomically(opts.out / "paper_benchmark.md", "# bench\n")

    monkeypatch.setattr(report, "run_benchmark", fake_benchmark)
    monkeypatch.setattr(report, "ensure_datasets", lambda *a, **k: None)  # no data location is read
    monkeypatch.setattr(report, "available_datasets", lambda **k: [])
    from lfverify.parallel import SerialExecutor

    where = SerialExecutor()
    result = report.run_verification("full", out=tmp_path, figures=False, executor=where)
    assert sorted(studies) == [(s, "full") for s in sorted(simulations.STUDIES)]
    assert options[0].trials == 50 and options[0].datasets is None  # the paper's protocol on every data set
    assert executors == [where]  # the benchmark's trials run where the studies' tasks run (e.g. on Dask)
    lemma4 = next(c for c in result.claims if c.claim.label == "lem:uniform-convergence")
    assert next(e for e in lemma4.evidence if e.kind == "simulation").outcome == "as recorded"
    consistency = next(c for c in result.claims if c.claim.label == "thm:consistency")
    assert consistency.evidence[0].outcome == "measured (no record)"


def _check_failing_claims_link_to_corrected_statements_that_hold(result, out):
    """REPORT.md: every 'fails as stated' row names its corrected statement, which has a row of its own in the
    'Corrected statements' table with verdict 'holds'; report.json links both ways.  Oracle: the registry."""
    from lfverify.paper import CORRECTED_CLAIMS

    text = (out / "REPORT.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    failing = [c for c in PAPER_CLAIMS if c.expected == "fails as stated"]
    assert len(failing) == len(CORRECTED_CLAIMS) == 5
    for claim in failing:
        fix = next(c for c in CORRECTED_CLAIMS if c.corrects == claim.label)
        row = next(r for r in rows if r.startswith(f"| {claim.number} | `{claim.label}` |"))
        assert f"fails as stated; corrected: [{fix.number}](#corrected-statements), holds" in row
        assert any(r.startswith(f"| {fix.number} | `{claim.label}` |") and "| holds |" in r for r in rows)
    assert "## Corrected statements" in text
    assert [c.claim.label for c in result.corrected] == [c.label for c in CORRECTED_CLAIMS]
    assert all(not c.regressed and c.verdict == "holds" for c in result.corrected)
    data = json.loads((out / "report.json").read_text())
    thm1 = next(c for c in data["claims"] if c["label"] == "thm:f-measure-calibration")
    assert thm1["corrected_by"] == "corrected:thm:f-measure-calibration"
    assert {c["corrects"] for c in data["corrected"]} == {c.label for c in failing}


def test_a_regressed_corrected_statement_fails_the_run(monkeypatch, tmp_path):
    """A corrected statement whose derivation no longer verifies regresses the report (and lfverify verify exits 1).
    Oracle: a planted proof result with the status 'undecided'."""
    from lfverify.proofs import ClaimResult, Outcome, all_claims

    claims = {c.key: c for c in all_claims()}
    planted = [ClaimResult(claims["corrected_calibration.fbeta"], Outcome("undecided", "planted"), 0.0)]
    by_label = {"thm:f-measure-calibration": planted}
    monkeypatch.setattr(report, "_run_derivations", lambda *a, **k: (planted, by_label, 0.0))
    monkeypatch.setattr(verification, "CHECKS", ())
    result = report.run_verification("quick", out=tmp_path, studies=[], benchmark=False, figures=False)
    fixed = next(c for c in result.corrected if c.claim.corrects == "thm:f-measure-calibration")
    assert fixed.regressed and fixed.verdict == "REGRESSED" and result.regressed
    text = (tmp_path / "REPORT.md").read_text()
    assert "corrected: [Theorem 1 (corrected)](#corrected-statements), REGRESSED" in text
    assert "Theorem 1 (corrected), derivation `corrected_calibration.fbeta`: REGRESSED" in text


# ---------------------------------------------------------------------- hand-computed report pieces
def _tiny_report(*, figures=(), regressed=True, figure="planted figure", rates=(), corrected=()):
    """A report of one claim with one piece of evidence, built by hand (no derivation runs); ``corrected``: the
    corrected claims to add, each with one piece of evidence of ``figure``."""
    def claim_report(claim, seconds):
        evidence = report.EvidenceResult("self-check", "planted", "REGRESSED" if regressed else "as recorded",
                                         figure, seconds)
        return report.ClaimReport(claim, [evidence])

    return report.VerificationReport("quick", [claim_report(PAPER_CLAIMS[0], 1.23456)], 2.0, "# Errata\n\nnone\n",
                                     list(rates), "", list(figures),
                                     corrected=[claim_report(c, 1.0) for c in corrected])


def test_rates_rows_are_keyed_by_study_and_setting():
    """Oracle: the row typed out by hand from the summary (scalar fit entries copied, lists dropped, 'ci' and
    'verdict' added).  Kills: report.x__rates__mutmut_18"""
    summary = {"settings": {"n=100": {"rate_fit": {"slope": -0.5, "intercept": 1.0, "ci": [-0.6, -0.4],
                                                   "points": [1, 2]}, "rate_verdict": "ok"},
                            "other": {"rate_fit": {"no_slope": 1}}}}
    assert report._rates("toy", summary) == [
        {"study": "toy", "setting": "n=100", "slope": -0.5, "intercept": 1.0, "ci": [-0.6, -0.4], "verdict": "ok"}]


def test_study_figure_names_at_most_two_fits_and_counts_the_rest():
    """Exactly two fits print both and no '+0 more'; three print two and '+1 more'.  Oracle: hand-typed strings.
    Kills: report.x__study_figure__mutmut_46"""
    a = {"rate_fit": {"slope": 0.5, "ci": [0.4, 0.6]}}
    b = {"fit": {"slope": -1.0, "ci_low": -1.1, "ci_high": -0.9}}
    c = {"rate_fit": {"slope": 2.0, "ci": [1.0, 3.0]}}
    two = "a: slope 0.500 [0.400, 0.600]; b: slope -1.000 [-1.100, -0.900]"
    assert report._study_figure("toy", {"settings": {"a": a, "b": b}}) == two
    assert report._study_figure("toy", {"settings": {"a": a, "b": b, "c": c}}) == two + "; +1 more"


def test_report_json_entry_keys_and_regressed_flag():
    """Oracle: the entry's keys typed out from the documented report.json format, and the planted REGRESSED
    evidence's flag.  Kills: report.x_report_json__mutmut_13"""
    data = report.report_json(_tiny_report())
    entry = data["claims"][0]
    assert list(entry) == ["number", "label", "statement", "expected", "verdict", "regressed", "not_run", "summary",
                           "seconds", "corrects", "corrected_by", "evidence"]
    assert entry["regressed"] is True and entry["verdict"] == "REGRESSED" and entry["seconds"] == 1.235
    assert report.report_json(_tiny_report(regressed=False))["claims"][0]["regressed"] is False


def test_report_markdown_figures_section():
    """Oracle: the hand-typed lines '## Figures', '' and '![stem](path)' per figure.
    Kills: report.x_report_markdown__mutmut_174"""
    text = report.report_markdown(_tiny_report(figures=["simulations/toy/bias.png", "benchmark/f1.png"]))
    lines = text.splitlines()
    i = lines.index("## Figures")
    assert lines[i - 1:i + 4] == ["", "## Figures", "", "![bias](simulations/toy/bias.png)",
                                  "![f1](benchmark/f1.png)"]
    assert "## Figures" not in report.report_markdown(_tiny_report())


def _no_derivations(monkeypatch):
    monkeypatch.setattr(report, "_run_derivations", lambda *a, **k: ([], {}, 0.0))
    monkeypatch.setattr(verification, "CHECKS", ())


def test_a_failing_study_is_an_error_naming_the_study_and_its_figures_are_listed(monkeypatch, tmp_path):
    """A study that raises is reported as evidence (simulation, <study>, error, '<Type>: <message>'); the PNG
    files it left in its folder are listed (lower-case '.png').  Oracle: the planted exception and file names.
    Kills: report.x_run_verification__mutmut_91, report.x_run_verification__mutmut_112"""

    _no_derivations(monkeypatch)

    def failing_study(name, mode, *, out, **kw):
        out.mkdir(parents=True, exist_ok=True)
        (out / "b.png").write_bytes(b"")
        (out / "a.png").write_bytes(b"")
        (out / "notes.txt").write_text("")
        raise RuntimeError("planted")

    monkeypatch.setattr(report, "run_study", failing_study)
    result = report.run_verification("quick", out=tmp_path, studies=["unbiasedness"], benchmark=False,
                                     figures=False, executor="serial")
    assert result.figures == ["simulations/unbiasedness/a.png", "simulations/unbiasedness/b.png"]
    lemma3 = next(c for c in result.claims if c.claim.label == "lem:unbiased-gradient")
    sim = next(e for e in lemma3.evidence if e.kind == "simulation")
    assert (sim.kind, sim.target, sim.outcome, sim.figure) == ("simulation", "unbiasedness", "error",
                                                               "RuntimeError: planted")
    assert isinstance(sim.seconds, float) and sim.regressed


def test_the_executor_is_checked_before_any_work(monkeypatch, tmp_path):
    """The executor given to run_verification is the one checked before the first derivation (e.g. an
    unreachable Dask scheduler fails at once).  Oracle: a spy executor whose check() raises; the derivations
    must not start.  Kills: report.x_run_verification__mutmut_22"""
    from lfverify.parallel import SerialExecutor

    class Unreachable(SerialExecutor):
        def check(self):
            raise ConnectionError("planted: scheduler unreachable")

    started = []
    monkeypatch.setattr(report, "_run_derivations", lambda *a, **k: started.append(1) or ([], {}, 0.0))
    with pytest.raises(ConnectionError, match="^planted: scheduler unreachable$"):
        report.run_verification("quick", out=tmp_path, studies=[], benchmark=False, figures=False,
                                executor=Unreachable())
    assert started == []


def test_data_that_cannot_be_had_mark_the_benchmark_not_run_never_regressed(monkeypatch, tmp_path, capsys):
    """A download that fails, a file missing from an offline copy or a damaged file (lfverify.learn.DATA_FAULTS) is
    the environment, not a result: the data step's evidence is "not run: <cause>", one line on stderr says so at
    once, and every benchmark experiment inherits it without running - none regressed.  Oracle: the planted
    exceptions.  Companion: any other exception while the data sets load (a set that loads wrong) is an error, a
    regression."""
    from lfverify.learn import DamagedDataFile, DataFetchError

    for fault in (DataFetchError("could not download heart/heart_scale: planted"), FileNotFoundError("planted"),
                  DamagedDataFile("planted")):
        def broken(*a, fault=fault, **k):
            raise fault

        monkeypatch.setattr(report, "ensure_datasets", broken)
        data = report._benchmark_data("quick", lambda text: None)
        assert (data.target, data.outcome) == ("datasets", f"not run: {fault}") and data.not_run and not data.regressed
        assert capsys.readouterr().err == (f"lfverify verify: the benchmark's data cannot be had here ({fault}); its "
                                           "claims will be reported 'not run' and the rest runs\n")
        results, markdown, figures = report._run_benchmark("quick", tmp_path, None, False, lambda t: None, data)
        assert (markdown, figures) == ("", [])
        assert list(results) == ["datasets", "table", "convergence", "sample-complexity", "tau"]
        assert all(e.outcome == f"not run: {fault}" and not e.regressed for e in results.values())

    def wrong(**kwargs):
        raise ValueError("planted: 269 rows, MANIFEST.md says 270")

    monkeypatch.setattr(report, "ensure_datasets", lambda *a, **k: None)
    monkeypatch.setattr(report, "available_datasets", wrong)
    data = report._benchmark_data("quick", lambda text: None)
    assert (data.outcome, data.figure) == ("error", "ValueError: planted: 269 rows, MANIFEST.md says 270")
    assert data.regressed and not data.not_run


@pytest.mark.parametrize("mode", ["quick", "full"])
def test_the_data_step_reads_every_data_set_from_the_folder_it_is_given(monkeypatch, tmp_path, mode):
    """``lfverify verify --data-root``: the data step lists, fetches and loads from that folder only (a spy records
    the root each call receives; oracle: the argument given)."""
    seen = []

    def spy(name):
        def call(*args, root=None, **kwargs):
            seen.append((name, root))
            return ["heart"] if name == "available_datasets" else []
        return call

    for name in ("available_datasets", "fetchable_datasets", "ensure_datasets", "load_dataset"):
        monkeypatch.setattr(report, name, spy(name))
    data = report._benchmark_data(mode, lambda text: None, data_root=tmp_path)
    assert data.outcome == "as recorded" and data.figure.startswith("1 data sets load")
    assert {root for _, root in seen} == {tmp_path}
    assert [name for name, _ in seen][-2:] == ["available_datasets", "load_dataset"]


def test_verify_without_its_data_reports_not_run_counted_alike_everywhere_and_exits_2(monkeypatch, tmp_path,
                                                                                        capsys):
    """``lfverify verify --only 'Table 2'`` when the data cannot be downloaded: the claim is "not run: <cause>" (not
    REGRESSED) in the terminal, REPORT.md and report.json, the three give the same counts, and the exit status is 2
    with one line naming the cause (issue 44: no network used to mark 9 claims REGRESSED and exit 1).  Oracle: the
    planted download failure; the counts typed out (Table 2 and no corrected statement)."""
    import json

    from lfverify.learn import DataFetchError

    def offline(*a, **k):
        raise DataFetchError("could not download breast-cancer/breast-cancer_scale: planted (no network)")

    monkeypatch.setattr(report, "ensure_datasets", offline)
    assert cli.main(["verify", "--only", "Table 2", "--serial", "--no-figures", "--quiet",
                     "--out", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    cause = "could not download breast-cancer/breast-cancer_scale: planted (no network)"
    assert err.splitlines()[-1] == f"lfverify verify: 1 claims not run: {cause}"
    sentence = f"1 claims (0 of them corrected statements): 0 as recorded, 0 regressed, 1 not run (not run: {cause})"
    assert sentence in out and "REGRESSION" not in out and "NOT RUN" in out
    text = (tmp_path / "REPORT.md").read_text()
    assert sentence in text and "## Not run (the environment, not a result)" in text and "## Regressions" not in text
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["counts"] == {"claims": 1, "corrected": 0, "as_recorded": 0, "regressed": 0, "not_run": 1}
    assert data["regressed"] is False and data["claims"][0]["not_run"] == f"not run: {cause}"


_DATA_OK = report.EvidenceResult("benchmark", "datasets", "as recorded", "planted: the data step passed")


def test_benchmark_options_name_the_verify_command_and_a_failure_marks_every_experiment(monkeypatch, tmp_path):
    """Spy on paper_benchmark.command.run_benchmark: the options carry command 'lfverify verify --quick' (resp.
    '--full'); when it raises, each of the four experiments table, convergence, sample-complexity, tau is an
    error with the message.  Oracle: the hand-typed command strings and experiment names.
    Kills: report.x__run_benchmark__mutmut_79, report.x__run_benchmark__mutmut_98"""
    from lfverify.parallel import SerialExecutor

    seen = []

    def failing_benchmark(options, *, executor=None):
        seen.append(options.command)
        raise RuntimeError("planted")

    monkeypatch.setattr(report, "available_datasets", lambda **k: [])
    monkeypatch.setattr(report, "ensure_datasets", lambda *a, **k: None)
    monkeypatch.setattr(report, "run_benchmark", failing_benchmark)
    for mode in ("quick", "full"):
        results, markdown, figures = report._run_benchmark(mode, tmp_path, SerialExecutor(), False, lambda t: None,
                                                           _DATA_OK)
        assert (markdown, figures) == ("", [])
        assert list(results) == ["datasets", "table", "convergence", "sample-complexity", "tau"]
        for name in ("table", "convergence", "sample-complexity", "tau"):
            assert (results[name].target, results[name].outcome, results[name].figure) == (
                name, "error", "RuntimeError: planted")
    assert seen == ["lfverify verify --quick", "lfverify verify --full"]


def test_prop5_threshold_check_draws_its_populations_from_the_fixed_seed(monkeypatch):
    """Oracle: numpy's default_rng(verification.SEED) in the test - the check's first random population (a spy on
    _random_population that stops the check there) equals the one drawn from that seed, so the report is
    reproducible.

    Kills: verification.x__check_prop5_threshold__mutmut_2."""
    import numpy as np

    drawn = []

    class Stop(Exception):
        pass

    real = verification._random_population

    def spy(rng, *args, **kwargs):
        drawn.append(real(rng, *args, **kwargs))
        raise Stop

    expected = real(np.random.default_rng(verification.SEED))
    monkeypatch.setattr(verification, "_random_population", spy)
    with pytest.raises(Stop):
        verification._check_prop5_threshold()
    np.testing.assert_array_equal(drawn[0].eta, expected.eta)
    np.testing.assert_array_equal(drawn[0].weights, expected.weights)


def test_tau_discrepancy_check_needs_both_of_its_conditions(monkeypatch):
    """Oracle: truth table of the check's conjunction - with the real tau-logistic quotients (within 1e-6) but a
    spy logistic loss that claims to be 0.33-discrepant, the check must fail and say so.

    Kills: verification.x__check_tau_discrepancy__mutmut_39."""
    from types import SimpleNamespace

    assert verification._check_tau_discrepancy()[0] is True
    fake_logistic = SimpleNamespace(is_tau_discrepant=lambda tau: tau == 0.33)
    monkeypatch.setattr(verification.core, "logistic", lambda: fake_logistic)  # the face the check reads
    ok, text = verification._check_tau_discrepancy()
    assert ok is False and text.endswith("logistic loss 0.33-discrepant: True")


def test_progress_names_every_self_check_as_it_runs(monkeypatch, tmp_path, capsys):
    """Spy on ``progress``: with no derivation, study or benchmark, the only step announced is the self-checks'; in
    the lines mode each finished check is one line naming it, in order (typed out by hand, the clock masked).

    Kills: report.x_run_verification__lfv_dropkw_1 (run_checks() without the progress callback)."""
    import re

    names = ("Lemma 1: U_phi <= U", "Lemma 3: V_hat is unbiased")  # registered names, planted checks
    checks = tuple(verification.Check(name, "lem:utility-lower-bound", "planted", "verified", lambda: (True, "ok"))
                   for name in names)
    monkeypatch.setattr(verification, "CHECKS", checks)
    monkeypatch.setattr(report, "_run_derivations", lambda *a, **k: ([], {}, 0.0))
    said = []
    report.run_verification("quick", out=tmp_path, studies=[], benchmark=False, figures=False, executor="serial",
                            progress=said.append, progress_mode="lines")
    assert said == ["self-checks: 2"]
    assert re.sub(r"^\[ *[0-9.]+ s\] ", "", capsys.readouterr().err, flags=re.M) == (
        "self-checks: 1 of 2 checks done (Lemma 1: U_phi <= U)\n"
        "self-checks: 2 of 2 checks done (Lemma 3: V_hat is unbiased)\n")


def test_a_finished_benchmark_is_judged_experiment_by_experiment_against_the_record(monkeypatch, tmp_path):
    """Spy on paper_benchmark.command.run_benchmark that finishes with an empty summary.json: each of the four
    experiments table, convergence, sample-complexity, tau gets the outcome "criterion not met: no <name> results in
    the benchmark summary", compared with BENCHMARK_EXPECTATIONS["quick"] (typed out: False, False, False, True),
    and the written markdown is returned.  Oracle: hand-typed names, outcomes and figures.

    Kills: report.x__run_benchmark__mutmut_98 (the verdict loop with "TABLE")."""
    from lfverify.parallel import SerialExecutor

    def finished_benchmark(options, *, executor=None):
        (options.out / "summary.json").write_text("{}")
        (options.out / "BENCHMARK.md").write_text("# planted\n")
        return options.out / "BENCHMARK.md"

    monkeypatch.setattr(report, "available_datasets", lambda **k: [])
    monkeypatch.setattr(report, "ensure_datasets", lambda *a, **k: None)
    monkeypatch.setattr(report, "run_benchmark", finished_benchmark)
    results, markdown, figures = report._run_benchmark("quick", tmp_path, SerialExecutor(), False, lambda t: None,
                                                       _DATA_OK)
    assert (markdown, figures) == ("# planted\n", [])
    assert list(results) == ["datasets", "table", "convergence", "sample-complexity", "tau"]
    outcomes = {"table": "as recorded", "convergence": "as recorded", "sample-complexity": "as recorded",
                "tau": "REGRESSED"}
    for name, outcome in outcomes.items():
        e = results[name]
        assert (e.kind, e.target, e.outcome, e.figure) == (
            "benchmark", name, outcome, f"criterion not met: no {name} results in the benchmark summary")


def test_only_runs_the_evidence_of_the_named_claim_and_its_corrected_statement(monkeypatch, tmp_path):
    """Oracle: the registry's evidence of Theorem 1 and of Theorem 1 (corrected), read by hand: derivations, the
    calibration study and property tests, no self-check and no benchmark; spies record what runs."""
    seen = {}

    def derivations(say, claims=None, progress_mode=None, *, executor=None):
        seen["derivations"] = sorted({c.label for c in claims})
        return [], {}, 0.0

    def study(name, mode, **kw):
        seen.setdefault("studies", []).append(name)
        raise RuntimeError("spy")

    def benchmark(*args, **kw):
        seen["benchmark"] = True
        return {}, "", []

    monkeypatch.setattr(report, "_run_derivations", derivations)
    monkeypatch.setattr(report, "run_study", study)
    monkeypatch.setattr(report, "_run_benchmark", benchmark)
    monkeypatch.setattr(report, "run_checks", lambda checks, **kw: seen.setdefault("checks", list(checks)) and [])
    result = report.run_verification("quick", out=tmp_path, only=["Thm. 1"], figures=False, executor="serial")
    assert [c.claim.label for c in result.claims] == ["thm:f-measure-calibration"]
    assert [c.claim.label for c in result.corrected] == ["corrected:thm:f-measure-calibration"]
    assert seen["studies"] == ["calibration"] and "benchmark" not in seen and seen["checks"] == []
    assert "thm:f-measure-calibration" in seen["derivations"] and "lem:utility-lower-bound" not in seen["derivations"]
    text = (tmp_path / "REPORT.md").read_text()
    assert "Generated by `lfverify verify --quick --only 'Thm. 1'`" in text
    assert "2 claims (1 of them corrected statements): " in text


@pytest.mark.parametrize("text, width, clipped", [
    ("split_unbiased yes, same_sample_bias_matches yes, same_sample_bias_visible yes", 60,
     "split_unbiased yes, same_sample_bias_matches yes..."),
    ("finite/F1: slope -0.456 [-0.495, -0.418]; finite/Jaccard: slope -0.486", 50,
     "finite/F1: slope -0.456 [-0.495, -0.418]..."),
    ("short enough", 12, "short enough"),
    ("abcdefghijklmnopqrstuvwxyz", 10, "abcdefg..."),  # one word longer than the width: cut, marked
])
def test_clip_cuts_at_a_word_boundary_and_marks_the_cut(text, width, clipped):
    """Terminal and REPORT.md key figures are cut between words, never inside a word or a number (issue 44: the
    terminal table cut 'same_sampl').  Oracle: the cuts typed out by hand."""
    assert report.clip(text, width) == clipped and len(clipped) <= width


def test_report_markdown_rows_rates_corrected_table_and_clipping():
    """Oracle: REPORT.md's lines typed out by hand - a rate row with its verdict; the corrected statements' section
    after a blank line; a key figure of exactly 161 characters clipped at 160 (cut at a word, "..."), one of 160
    kept whole.  Found by the fresh-seed mutation run (each a surviving mutant of lfverify/app/_report_output.py)."""
    from lfverify.paper import CORRECTED_CLAIMS

    rates = [{"study": "toy", "setting": "n=100", "slope": -0.5, "ci": [-0.6, -0.4], "verdict": "ok"}]
    long_figure = "word " * 32  # 160 characters
    lines = report.report_markdown(_tiny_report(regressed=False, figure=long_figure[:-1] + "ab", rates=rates,
                                                corrected=[CORRECTED_CLAIMS[0]])).splitlines()
    assert "| toy | n=100 | -0.500 | [-0.600, -0.400] | ok |" in lines
    i = lines.index("## Corrected statements")
    assert lines[i - 1] == "" and lines[i + 1] == ""
    first = next(line for line in lines if line.startswith("| Definition 1 |"))
    assert "word ab" not in first and first.endswith("word word... | 1.2 |")  # 161 characters: clipped
    whole = report.report_markdown(_tiny_report(regressed=False, figure=long_figure,
                                                corrected=[CORRECTED_CLAIMS[0]])).splitlines()
    corrected = next(line for line in whole if line.startswith("| Theorem 1 (corrected) |"))
    assert corrected.endswith(f"| {long_figure} | 1.0 |")  # 160 characters: whole


def test_the_terminal_summary_starts_with_its_header_line():
    """Oracle: the header typed out for a report whose longest claim name is "Definition 1" (12 characters)."""
    import io

    stream = io.StringIO()
    report.print_summary(_tiny_report(), "out", stream=stream)
    assert stream.getvalue().splitlines()[0] == ("claim         verdict                              seconds  "
                                                 "key figure")
