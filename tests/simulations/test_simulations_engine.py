"""The simulation engine: per-key random streams, atomic per-task records, resume after SIGKILL, and identical
results from the serial, process and Dask executors (a real LocalCluster).

Oracle for every check: an uninterrupted serial run of the same configuration, compared byte for byte
(records.csv, summary.json).

Private: lfverify.simulations._engine, for spawn_key and its record writer (_write_record, patched to plant a damaged
record).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import lfverify.simulations._engine as engine
from lfverify.parallel import DaskExecutor, ProcessExecutor, SerialExecutor, make_executor
from lfverify.simulations import STUDIES, Task, run_study, seed_sequence
from lfverify.simulations._engine import spawn_key

pytestmark = pytest.mark.claims("package:simulation-engine", "package:parallel")

#: A tiny uniform-convergence run: 2 populations x 3 sample sizes, 6 replications, 9 tasks per population.
TINY = {"sample_sizes": [100, 200, 400], "replications": 6, "refinement_rounds": 2, "samples_per_task": 600}


def _run(out, executor="serial", **kwargs):
    kwargs = {"progress": False, "overrides": TINY, **kwargs}
    return engine.run(STUDIES["uniform-convergence"], mode="smoke", out=out, executor=executor, figures=False,
                      **kwargs)


def _outputs(out):
    return (out / "records.csv").read_bytes(), (out / "summary.json").read_bytes()


def _finished_run(reference, tmp_path):
    """A finished run's folder, to resume or damage: a copy of the reference run."""
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    return out


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The uninterrupted serial run every other run must reproduce."""
    out = tmp_path_factory.mktemp("reference")
    result = _run(out)
    assert result.computed == 18 and result.skipped == 0
    return out


def test_spawn_key_is_a_pinned_hash_of_the_key_text():
    # BLAKE2b-128 of "population=finite,n=100", four little-endian 32-bit words (pinned: changing the hash would
    # silently change every study's numbers)
    assert spawn_key((("population", "finite"), ("n", 100))) == (2057059785, 1829551649, 956104477, 3983860134)
    assert spawn_key("population=finite,n=100") == spawn_key((("population", "finite"), ("n", 100)))
    a = np.random.default_rng(seed_sequence(1, (("n", 100), ("replication", 0)))).random(3)
    b = np.random.default_rng(seed_sequence(1, (("n", 100), ("replication", 1)))).random(3)
    c = np.random.default_rng(seed_sequence(2, (("n", 100), ("replication", 0)))).random(3)
    assert not np.array_equal(a, b) and not np.array_equal(a, c)
    with pytest.raises(ValueError, match="study_seed"):
        seed_sequence(-1, "x")


def test_task_keys_are_validated():
    with pytest.raises(TypeError, match="pairs"):
        Task((("n", 1.5),))
    with pytest.raises(TypeError, match="non-empty tuple"):
        Task(())
    assert Task((("population", "finite"), ("n", 100))).label == "population=finite,n=100"


def test_run_writes_records_csv_and_summary(reference):
    records = sorted((reference / "records").glob("*.json"))
    assert len(records) == 18 and not list((reference / "records").glob(".*.tmp"))
    first = json.loads(records[0].read_text())
    assert first["study"] == "uniform-convergence" and first["rows"]
    summary = json.loads((reference / "summary.json").read_text())
    assert summary["config"] == TINY and "GENERATED" in summary["generated_by"]["note"]
    rows = engine.read_records(reference)
    assert len(rows) == 2 * 2 * 3 * 6  # populations x metrics x sample sizes x replications
    assert all(r["sup_error"] >= r["net_sup_error"] > 0 for r in rows)  # the refinement never loses ground
    # grid order, not completion order: populations, then n, then replications
    assert [r["n"] for r in rows[:12]] == [100] * 12


def test_numbers_do_not_depend_on_how_replications_are_grouped_into_tasks(reference, tmp_path):
    """Each replication has its own stream, so regrouping replications (a study constant, never the number of
    workers) changes nothing but rounding: BLAS may pick other kernels for other batch shapes (~1 ulp)."""
    _run(tmp_path, overrides={**TINY, "samples_per_task": 100_000})  # one task per (population, n)
    key = ("population", "metric", "n", "replication")
    mine = {tuple(r[k] for k in key): r["sup_error"] for r in engine.read_records(tmp_path)}
    ref = {tuple(r[k] for k in key): r["sup_error"] for r in engine.read_records(reference)}
    assert mine.keys() == ref.keys()
    np.testing.assert_allclose([mine[k] for k in ref], [ref[k] for k in ref], rtol=1e-12)


def test_resume_skips_finished_tasks_and_reproduces_the_uninterrupted_run(reference, tmp_path):
    """SIGKILL a run (each record write slowed to 0.25 s) after 4 records, then resume it in-process."""
    script = tmp_path / "slow_run.py"
    script.write_text(textwrap.dedent(f"""
        import sys, time
        import lfverify.simulations._engine as engine
        from lfverify.simulations import run_study
        write = engine._write_record
        def slow(path, text):
            write(path, text)
            time.sleep(0.25)
        engine._write_record = slow
        if __name__ == "__main__":
            run_study("uniform-convergence", "smoke", out=sys.argv[1], executor="serial", progress=False,
                      figures=False, overrides={TINY!r})
    """))
    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, str(script), str(out)])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if len(list((out / "records").glob("*.json"))) >= 4:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the run finished (or failed) before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    done = len(list((out / "records").glob("*.json")))
    assert 4 <= done < 18 and not (out / "summary.json").exists()
    result = _run(out)
    assert (result.computed, result.skipped) == (18 - done, done)
    assert _outputs(out) == _outputs(reference)
    again = _run(out)  # a finished run resumes to nothing
    assert (again.computed, again.skipped) == (0, 18) and _outputs(out) == _outputs(reference)


def test_stale_temporary_files_are_removed_and_another_configuration_is_refused(reference, tmp_path):
    out = tmp_path / "run"
    (out / "records").mkdir(parents=True)
    (out / "records" / ".population=finite.json.abc.tmp").write_text("{half")  # as left by a kill mid-write
    _run(out)
    assert not list((out / "records").glob(".*.tmp")) and _outputs(out) == _outputs(reference)
    with pytest.raises(ValueError, match="holds the results of another run"):
        _run(out, seed=5)
    with pytest.raises(ValueError, match="not a constant"):
        _run(tmp_path / "other", overrides={"replication": 3})


def test_process_and_dask_executors_reproduce_the_serial_run(reference, tmp_path):
    """Same seed, same bytes: 2 spawned worker processes, and a real Dask LocalCluster of 2 processes."""
    _run(tmp_path / "processes", ProcessExecutor(2))
    assert _outputs(tmp_path / "processes") == _outputs(reference)
    _run(tmp_path / "dask", DaskExecutor(n_workers=2))
    assert _outputs(tmp_path / "dask") == _outputs(reference)


def test_make_executor_choices_and_errors():
    assert isinstance(make_executor("serial"), SerialExecutor)
    assert make_executor("processes", workers=3).max_workers == 3
    assert isinstance(make_executor(dask_local=1), DaskExecutor)
    with pytest.raises(ValueError, match="executor must be one of"):
        make_executor("threads")
    with pytest.raises(ValueError, match="not both"):
        make_executor(dask_address="tcp://127.0.0.1:1", dask_local=2)
    with pytest.raises(ValueError, match="max_workers"):
        ProcessExecutor(0)


def test_progress_bar_is_quiet_when_stderr_is_not_a_terminal(tmp_path, capfd):
    run_study("uniform-convergence", "smoke", out=tmp_path, executor="serial", figures=False, overrides=TINY)
    assert capfd.readouterr().err == ""
    _run(tmp_path / "forced", progress=True)
    err = capfd.readouterr().err
    assert "uniform-convergence" in err and "18/18" in err


def test_run_study_rejects_unknown_names_and_modes(tmp_path):
    with pytest.raises(ValueError, match="name must be one of"):
        run_study("consistancy", out=tmp_path)
    with pytest.raises(ValueError, match="mode must be one of"):
        run_study("uniform-convergence", "medium", out=tmp_path)


def test_read_records_parses_the_documented_record_format_exactly(tmp_path):
    """Oracle: the documented record format (records.csv, one header, an empty cell = a column the row does not
    have, numbers as int then float, True / False as booleans, anything else a string), hand-parsed.

    Kills: simulations.engine.x_read_records__mutmut_14, simulations.engine.x_read_records__mutmut_29."""
    (tmp_path / "records.csv").write_text("kind,n,value,converged,note\n"
                                          "sample,10,0.25,True,\n"
                                          "sample,20,,False,x1\n")
    rows = engine.read_records(tmp_path)
    assert rows == [{"kind": "sample", "n": 10, "value": 0.25, "converged": True},
                    {"kind": "sample", "n": 20, "converged": False, "note": "x1"}]
    assert rows[1]["converged"] is False and rows[0]["converged"] is True
    assert type(rows[0]["n"]) is int and type(rows[0]["value"]) is float


@pytest.mark.parametrize("seed", [1.5, True, -3, "7", np.float64(2.0)])
def test_a_given_seed_that_is_not_a_non_negative_int_is_refused_before_anything_is_written(tmp_path, seed):
    """The seed the caller gave is validated, not the study's default one: 1.5 must not silently become seed 1.
    Oracle: seed_sequence's documented rule (non-negative int, bool refused) and its message, typed here.

    Kills: simulations.engine.x_run__lfv_start_1 (``seed_sequence(study.seed, "check")``)."""
    out = tmp_path / "run"
    with pytest.raises(ValueError) as caught:
        _run(out, seed=seed)
    assert str(caught.value) == f"study_seed must be a non-negative int; got {seed!r}"
    assert not out.exists()


@pytest.mark.parametrize("mode, flag", [("quick", " --quick"), ("full", " --full"), ("smoke", " --mode smoke")])
def test_generated_by_names_the_command_that_reproduces_the_run(mode, flag):
    """Oracle: the command line syntax of ``lfverify simulate`` (docs/cli.md), typed here for each mode.

    Kills: simulations.engine.x_generated_by__mutmut_5 (``.get(mode, )``: "None" in the smoke command)."""
    study = STUDIES["calibration"]
    block = engine.generated_by(study, mode, 11, None)
    command = f"lfverify simulate calibration{flag} --seed 11 --out DIR"
    assert block == {"note": f"GENERATED by `{command}`; do not edit by hand", "command": command,
                     "lfverify_version": engine.__version__, "seed": 11, "mode": mode}
    assert engine.generated_by(study, mode, 11, {"replications": 3})["overrides"] == {"replications": 3}


def test_resuming_a_finished_run_reads_its_records_and_writes_none(reference, tmp_path, monkeypatch):
    """A sealed record is read, never rewritten: only a format-1 record (no hash) is sealed in place.  Oracle: a
    spy on the engine's record writer during a resume of a finished run.

    Kills: simulations.engine.x__load_record__mutmut_66 (every record re-sealed on each resume)."""
    out = _finished_run(reference, tmp_path)
    writes = []
    real = engine._write_record
    monkeypatch.setattr(engine, "_write_record", lambda path, text: writes.append(path) or real(path, text))
    result = _run(out)
    assert (result.computed, result.skipped, writes) == (0, 18, [])


def test_a_sound_record_of_another_fingerprint_is_refused_with_the_whole_message(reference, tmp_path):
    """Oracle: the documented refusal, typed here: a record sealed with another run's fingerprint in a folder whose
    run.json agrees (as two runs writing one folder would leave it).

    Kills: simulations.engine.x__load_record__mutmut_63 (``ValueError(None)``)."""
    from lfverify.io import seal

    out = _finished_run(reference, tmp_path)
    path = sorted((out / "records").glob("*.json"))[0]
    record = json.loads(path.read_text())
    expected_fingerprint = record["fingerprint"]
    record["fingerprint"] = "ffffffffffffffff"
    path.write_text(json.dumps(seal(record)))
    with pytest.raises(ValueError) as caught:
        _run(out)
    assert str(caught.value) == (f"record {path} belongs to a different run (fingerprint 'ffffffffffffffff', "
                                 f"expected {expected_fingerprint!r}); use another output folder")


def test_a_study_with_duplicate_task_keys_is_refused(tmp_path):
    """Kills: simulations.engine.x_run__mutmut_113 (``ValueError(None)``): the whole message."""
    import dataclasses

    study = STUDIES["uniform-convergence"]
    doubled = dataclasses.replace(study, tasks=lambda config: study.tasks(config)[:1] * 2)
    with pytest.raises(ValueError) as caught:
        engine.run(doubled, mode="smoke", out=tmp_path / "run", executor="serial", progress=False, figures=False,
                   overrides=TINY)
    assert str(caught.value) == "study 'uniform-convergence' produced duplicate task keys"


def test_a_sealed_record_lacking_keys_is_set_aside_naming_every_missing_key(reference, tmp_path, capsys):
    """Oracle: the documented schema check, written out: a record whose hash is sound but which lacks its
    ``study`` and ``key`` entries is damaged, "lacks 'study', 'key'" (every missing key, in the schema's order),
    set aside and recomputed; the run's outputs equal the undamaged run's byte for byte.

    Kills: simulations.engine.x__load_record__mutmut_14 (the keys joined by another separator)."""
    from lfverify.io import seal

    out = _finished_run(reference, tmp_path)
    path = sorted((out / "records").glob("*.json"))[0]
    record = json.loads(path.read_text())
    for key in ("sha256", "study", "key"):
        del record[key]
    path.write_text(json.dumps(seal(record)))
    result = _run(out)
    assert (result.computed, result.skipped) == (1, 17)
    assert _outputs(out) == _outputs(reference)
    assert f"record {path} is damaged: lacks 'study', 'key'" in capsys.readouterr().err
    assert path.with_name(path.name + ".damaged").exists()


def test_figures_receive_every_row_the_summary_and_the_folder(tmp_path, monkeypatch):
    """Oracle: a spy in place of the study's figure function (matplotlib reported available): it is called once
    with the rows written to records.csv (the same CSV text), the summary written to summary.json and the output
    folder, and what it returns is the run's ``figures``.

    Kills: simulations.engine.x_run__mutmut_275 (the figures given ``None`` for the rows)."""
    import dataclasses

    calls = []

    def figures(rows, summary, out):
        calls.append((engine._csv_text(rows), summary, out))
        return [out / "spy.png"]

    monkeypatch.setattr(engine, "matplotlib_available", lambda: True)
    study = dataclasses.replace(STUDIES["uniform-convergence"], figures=figures)
    out = tmp_path / "run"
    result = engine.run(study, mode="smoke", out=out, executor="serial", progress=False, figures=True,
                        overrides=TINY)
    assert calls == [((out / "records.csv").read_text(), json.loads((out / "summary.json").read_text()), out)]
    assert result.figures == [out / "spy.png"]


def test_run_json_holds_the_documented_identity_and_its_fingerprint(reference):
    """Oracle: run.json's documented content, written out: the run's identity (format, study, mode, resolved
    config, seed, lfverify version) and its fingerprint, recomputed here with hashlib as 16 hex digits of the
    SHA-256 of the identity's canonical JSON (sorted keys).  Every record carries the same fingerprint.

    Kills: simulations.engine.x_run__mutmut_38 (the identity's "seed" key renamed)."""
    import hashlib

    study = STUDIES["uniform-convergence"]
    summary = json.loads((reference / "summary.json").read_text())
    identity = {"format": engine._FORMAT, "study": study.name, "mode": "smoke", "config": summary["config"],
                "seed": study.seed, "lfverify_version": engine.__version__}
    fingerprint = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]
    assert json.loads((reference / "run.json").read_text()) == {**identity, "fingerprint": fingerprint}
    records = sorted((reference / "records").glob("*.json"))
    assert records and {json.loads(p.read_text())["fingerprint"] for p in records} == {fingerprint}
