"""The command line: --version, verify (exit status follows the verdicts), metrics, and error reporting.

Private: lfverify.app._self_checks, _executor_options and _simulate_command, imported to patch the checks, the executor
factory and the engine where the commands look them up (and _self_checks to read the optimiser checks' problem);
_simulate_command._verdict_lines and _report.STUDY_ROW_NOTES, the study verdict text the command prints, checked against
each other; lfverify.io._atomic._new_file_mode, the file mode the atomic writes must give; and lfverify.app._cli, whose
_run and _main are replaced to reach an interrupt before the command runs and a closed standard stream in process.
"""

import json
import subprocess
import sys

import pytest

import lfverify.app._self_checks as verification
from lfverify import __version__
from lfverify import app as cli

pytestmark = pytest.mark.claims("package:command-line")


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"lfverify {__version__}"


def test_verify_runs_every_check_as_expected(capsys):
    assert cli.main(["verify", "--self-checks", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in results] == [c.name for c in verification.CHECKS]
    assert all(r["as_expected"] for r in results)
    # the documented counterexample is reported as violated, not hidden
    assert {r["verdict"] for r in results} == {"verified", "violated"}


def test_the_optimizer_checks_use_the_documented_sample_and_a_converged_reference():
    """The problem of the Alg. 1 and Alg. 2 self-checks is the same sample on every machine, so that ``lfverify
    verify`` prints the same figures: 300 rows x = (z1, z2, 1) with z ~ N(0, I_2), then 300 uniforms u, and
    y = +1 where u < sigmoid(1.5 z1 - z2 - 0.5), else -1, all from ``numpy.random.default_rng(SEED)``.  Oracle: that
    recipe, drawn here with NumPy.  And the Alg. 1 check's Nelder-Mead reference is converged far below the check's
    1e-9 threshold (run to xatol 1e-10, fatol 1e-14: the reported relative gap is below 1e-12; at SciPy's default
    tolerances it stops about 2e-11 short of the maximum)."""
    import re

    import numpy as np

    rng = np.random.default_rng(verification.SEED)
    X = np.c_[rng.normal(size=(300, 2)), np.ones(300)]
    y = np.where(rng.random(300) < 1 / (1 + np.exp(-(1.5 * X[:, 0] - X[:, 1] - 0.5))), 1, -1)
    _, X_check, y_check = verification._optimizer_problem()
    np.testing.assert_array_equal(X_check, X)
    np.testing.assert_array_equal(y_check, y)
    ok, detail = verification._check_algorithm1()
    assert ok
    assert float(re.fullmatch(r".*rel\. gap (\S+)", detail).group(1)) < 1e-12, detail


def test_verify_exits_nonzero_when_a_check_regresses(monkeypatch, capsys):
    broken = verification.Check("always false", "none", "none", "verified", lambda: (False, "planted"))
    crashing = verification.Check("crashes", "none", "none", "verified", lambda: 1 / 0)
    monkeypatch.setattr(verification, "CHECKS", (broken, crashing))
    assert cli.main(["verify", "--self-checks"]) == 1
    out = capsys.readouterr().out
    assert "REGRESSION" in out and "ZeroDivisionError" in out


def test_metrics_table_and_bad_argument(capsys):
    assert cli.main(["metrics", "--alpha", "2"]) == 0
    out = capsys.readouterr().out
    assert "Gower-Legendre_2" in out and "violates a_{1,+1} >= 0" in out
    assert cli.main(["metrics", "--beta", "-1"]) == 2
    assert "beta must lie in (0.0, inf)" in capsys.readouterr().err


def test_console_script_is_installed():
    out = subprocess.run([sys.executable, "-m", "lfverify", "--version"], capture_output=True, text=True, check=True)
    assert __version__ in out.stdout


def test_atomic_write_leaves_the_old_file_on_failure(tmp_path):
    from lfverify.io import write_text_atomically

    target = tmp_path / "sub" / "out.txt"
    write_text_atomically(target, "first")
    with pytest.raises(TypeError):
        write_text_atomically(target, None)  # fails while writing
    assert target.read_text() == "first"
    assert sorted(p.name for p in target.parent.iterdir()) == ["out.txt"]  # no temporary left behind


def test_atomic_path_writes_a_hidden_temporary_beside_the_destination(tmp_path):
    """The temporary file lies in the destination's folder (os.replace is atomic only within one file system),
    is hidden and named after the destination (.NAME.*.tmp, which .gitignore's '*.tmp' rule and a reader listing
    the folder rely on), and is gone afterwards.  Oracle: the documented naming.  (Kills mkstemp's dir=, prefix=
    and suffix= keywords dropped.)"""
    from lfverify.io import atomic_path, write_bytes_atomically

    target = tmp_path / "deep" / "summary.json"
    with atomic_path(target) as tmp:
        assert tmp.parent == target.parent
        assert tmp.name.startswith(".summary.json.") and tmp.name.endswith(".tmp")
        assert tmp.exists() and not target.exists()
        tmp.write_text("{}")
    assert target.read_text() == "{}" and not tmp.exists()
    assert write_bytes_atomically(target, b"\x00\xff") == target and target.read_bytes() == b"\x00\xff"
    assert sorted(p.name for p in target.parent.iterdir()) == ["summary.json"]


def test_atomic_write_gives_the_file_the_mode_of_any_new_file(tmp_path):
    """Oracle: a file made by open() in the same process (0o666 without the umask).  mkstemp alone made every
    written file private (0600) - reports, summaries and figures unreadable for the user's group.  Both write
    functions and atomic_path, with a non-default umask in force."""
    import os

    import lfverify.io._atomic as atomic_write

    atomic_write._new_file_mode.cache_clear()
    old = os.umask(0o027)
    try:
        expected = tmp_path / "plain.txt"
        expected.write_text("x")
        wanted = expected.stat().st_mode & 0o777
        assert wanted == 0o640
        text = atomic_write.write_text_atomically(tmp_path / "a.txt", "x")
        data = atomic_write.write_bytes_atomically(tmp_path / "b.bin", b"x")
        with atomic_write.atomic_path(tmp_path / "c.png") as tmp:
            tmp.write_bytes(b"x")
        assert [p.stat().st_mode & 0o777 for p in (text, data, tmp_path / "c.png")] == [wanted] * 3
    finally:
        os.umask(old)
        atomic_write._new_file_mode.cache_clear()


# ------------------------------------------------------------------ lfverify.app._simulate_command, with spies

def test_simulate_verdict_lines_exact():
    """Oracle: the documented listing, hand-written - for each claim the study is evidence for, its verdict and the
    study's outcome against the record; each row of "verdicts" (nested blocks joined by "/") as yes / no with its
    outcome and, for a row that reads against the claim's verdict, the recorded reason; then every "verdict" /
    "rate_verdict" string under "settings" and "main" with its path (other top-level keys are not walked), then
    the number of findings.  No claim or row lines without a study name and mode.

    Kills: simulations.cli.x__verdict_lines__mutmut_34, _mutmut_5, _mutmut_6, _mutmut_48."""
    from lfverify.app._report import STUDY_ROW_NOTES
    from lfverify.app._simulate_command import _verdict_lines

    summary = {"settings": {"mode": "smoke"},
               "main": {"f1": {"verdict": "holds", "table": [{"rate_verdict": "slope ok", "n": 10}]}},
               "other": {"verdict": "not listed"}, "findings": [1, 2]}
    assert _verdict_lines(summary) == ["  main/f1: holds", "  main/f1/table/0: slope ok",
                                       "  2 findings (summary.json, 'findings')"]
    recorded = {"finite/F1": False, "finite/Jaccard": True, "bounded-logistic/F1": True,
                "bounded-logistic/Jaccard": True}
    reason = STUDY_ROW_NOTES["uniform-convergence"]["finite/F1"][1]
    assert _verdict_lines({"study": "uniform-convergence", "verdicts": recorded}, "quick") == [
        "  Lemma 4 (lem:uniform-convergence): fails as stated; this study: as recorded",
        f"  finite/F1: no (as recorded) - against the claim's verdict, as expected: {reason}",
        "  finite/Jaccard: yes (as recorded)", "  bounded-logistic/F1: yes (as recorded)",
        "  bounded-logistic/Jaccard: yes (as recorded)"]
    flipped = {**recorded, "finite/F1": True, "finite/Jaccard": False}
    assert _verdict_lines({"verdicts": flipped}, "quick", "uniform-convergence")[:3] == [
        "  Lemma 4 (lem:uniform-convergence): REGRESSED; this study: REGRESSED",
        "  finite/F1: yes (REGRESSED)",
        f"  finite/Jaccard: no (REGRESSED) - against the claim's verdict, as expected: {reason}"]
    assert _verdict_lines({"verdicts": {"a": True, "b": {"c": False}}}, "smoke", "calibration") == [
        "  Theorem 1 (thm:f-measure-calibration): fails as stated; this study: measured (no record)",
        "  Theorem 2 (thm:jaccard-calibration): fails as stated; this study: measured (no record)",
        "  a: yes (measured (no record))", "  b/c: no (measured (no record))"]


def _simulate_args(tmp_path, **over):
    import argparse

    args = dict(name="consistency", study=None, mode="smoke", out=str(tmp_path / "out"), seed=3, progress=False,
                quiet=False, no_figures=True, serial=False, dask=None, dask_local=None, dask_timeout=None, workers=2)
    args.update(over)
    return argparse.Namespace(**args)


def test_simulate_dask_timeout_reaches_make_executor(monkeypatch, tmp_path):
    """Oracle: a spy make_executor records its keyword arguments; --dask ADDRESS --dask-timeout 7.5 (not the
    default) must reach it as dask_timeout=7.5.

    Kills: simulations.cli.x_executor_from_args__mutmut_11 (before the move to lfverify.app._executor_options)."""
    import lfverify.app._executor_options as options

    seen = []
    monkeypatch.setattr(options, "make_executor", lambda *a, **k: seen.append((a, k)) or "executor")
    assert options.executor_from_args(_simulate_args(tmp_path, dask="tcp://10.0.0.1:8786",
                                                     dask_timeout=7.5)) == "executor"
    assert seen == [((), {"dask_address": "tcp://10.0.0.1:8786", "dask_local": None, "dask_timeout": 7.5})]


def test_simulate_run_passes_its_options_to_the_engine(monkeypatch, tmp_path, capsys):
    """Oracle: spies on make_executor, claim_output_folder and the engine's run record what they receive:
    'all' claims the folder for `simulate all` (settings 'mode smoke, seed 3', the fingerprint of {mode, seed});
    --no-figures reaches the engine as figures=False; announce prints the documented progress line to stderr.

    Kills: simulations.cli.x_run__mutmut_18, simulations.cli.x_run__mutmut_56, simulations.cli.x_run__mutmut_57."""
    from types import SimpleNamespace

    import lfverify.app._executor_options as executor_options
    import lfverify.app._simulate_command as scli
    from lfverify import io as output_folder
    from lfverify.simulations import STUDY_NAMES

    fake = SimpleNamespace(check=lambda: None, describe=lambda: "fake executor")
    monkeypatch.setattr(executor_options, "make_executor", lambda *a, **k: fake)
    claims, runs = [], []
    monkeypatch.setattr(scli, "claim_output_folder", lambda path, **k: claims.append((path, k)))
    monkeypatch.setattr(scli, "run_engine", lambda study, **k: runs.append(k) or SimpleNamespace(computed=0, skipped=1,
                                                                                            summary={}))
    out = tmp_path / "out"
    assert scli.run(_simulate_args(tmp_path, name="all")) == 0
    assert claims == [(out, {"command": "simulate all", "settings": "mode smoke, seed 3",
                             "fingerprint": output_folder.settings_fingerprint({"mode": "smoke", "seed": 3})})]
    assert [k["out"] for k in runs] == [out / name for name in STUDY_NAMES]
    assert all(k["figures"] is False and k["executor"] is fake and k["seed"] == 3 for k in runs)
    capsys.readouterr()
    runs[0]["announce"]()
    assert capsys.readouterr().err == f"{STUDY_NAMES[0]} (smoke, fake executor) -> {out / STUDY_NAMES[0]}\n"


@pytest.mark.parametrize("argv, named", [(["verify", "--quick"], "lfverify verify"), ([], "lfverify")])
def test_ctrl_c_before_the_command_runs_is_one_line_naming_the_command(monkeypatch, capsys, argv, named):
    """A Ctrl-C while the command's modules load (before it runs): status 130 and one line naming the command the
    user typed.  Oracle: lfverify.app._failures' documented line for Ctrl-C (SIGINT), typed out."""
    import lfverify.app._cli as entry

    def interrupted(argv, say):
        raise KeyboardInterrupt

    monkeypatch.setattr(entry, "_run", interrupted)
    assert entry.main(argv) == 130
    assert capsys.readouterr().err == (f"{named}: interrupted (Ctrl-C); the workers were stopped and every finished "
                                       "record is kept: run the same command again to resume\n")


@pytest.mark.parametrize("closed, other", [("stdout", "stderr"), ("stderr", "stdout")])
def test_a_closed_standard_stream_is_named_on_the_other_one_before_any_work(monkeypatch, capsys, closed, other):
    """``lfverify ... >&-``: Python starts with sys.stdout None; nothing runs, status 2, one line on the other stream.
    In process here (the real-process test runs in a temporary folder, outside mutation testing's selection)."""
    import lfverify.app._cli as entry

    monkeypatch.setattr(entry, "_main", lambda argv, say: pytest.fail("a command ran"))
    monkeypatch.setattr(sys, closed, None)
    assert entry.main(["metrics"]) == 2
    name = {"stdout": "standard output", "stderr": "standard error"}[closed]
    assert getattr(capsys.readouterr(), other[3:]) == (f"lfverify: error: {name} is closed; nothing was run: redirect "
                                                       "it to a file or /dev/null instead\n")
