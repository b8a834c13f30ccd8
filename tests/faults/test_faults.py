"""The fault battery of the reliability issue: every fault, bad file and bad address ends in one clear line, and
nothing is lost.

Each test provokes one fault for real - damaged records on disk, a folder owned by another command, a TCP
listener that is not a Dask scheduler, a read-only folder that holds for root, SIGKILL / SIGTERM / SIGINT sent to
a real ``lfverify`` process - and asserts the exact outcome: a named error (one line, exit status 2), a result
identical to an uninterrupted run (oracle: the same run without the fault, compared byte for byte), no worker
left running (checked by PID and start time, with a timeout), or the correct number (oracle: exact rational
arithmetic).  Waits are bounded everywhere.

Private: lfverify.app._cli (its command table) and _report, lfverify.experiments._benchmark and _runner,
lfverify.io._output_folder._infer_owner, lfverify.parallel._executors and lfverify.simulations._engine, imported to
plant faults where the code looks its collaborators up (a damaged record, a failing cell, a lost scheduler) and to drive
the recovery paths directly.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import lfverify.app._cli as cli
import lfverify.simulations._engine as engine
from benchmark_scripts import load_benchmark_script
from lfverify import core
from lfverify.core import EmpiricalSurrogateUtility, check_features, check_labels, check_parameters
from lfverify.io import MARKER, claim_output_folder, content_hash, settings_fingerprint
from lfverify.learn import maximize_surrogate_utility
from lfverify.parallel import DaskExecutor
from lfverify.simulations import STUDIES
from shared_files import SMALL_DATA_ROOT, TEST_MIRROR, needs_data

pytestmark = pytest.mark.claims("package:command-line", "package:files")

#: A very small uniform-convergence run: 2 populations x 3 sample sizes, one task of 4 replications each.
TINY = {"sample_sizes": [100, 200, 300], "replications": 4, "refinement_rounds": 1, "samples_per_task": 1200}
#: benchmarks/fault_battery.py: the same faults counted; its TCP listeners and /proc helpers serve here too.
battery = load_benchmark_script("fault_battery")
CLI = battery.CLI


def _simulate(out, **kwargs):
    kwargs = {"progress": False, "overrides": TINY, "executor": "serial", "figures": False, **kwargs}
    return engine.run(STUDIES["uniform-convergence"], mode="smoke", out=out, **kwargs)


def _outputs(out):
    return (out / "records.csv").read_bytes(), (out / "summary.json").read_bytes()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The uninterrupted, undamaged run that every damaged or interrupted run must reproduce."""
    out = tmp_path_factory.mktemp("reference")
    result = _simulate(out)
    assert (result.computed, result.skipped) == (6, 0)
    return out


def _one_error_line(err: str, status_text: str = "error") -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err and lines, err
    assert f": {status_text}" in lines[-1] or status_text in lines[-1], err
    return lines[-1]


# ------------------------------------------------------------------------------------------ records
def _damage(path: Path, how: str) -> None:
    record = json.loads(path.read_text())
    if how == "3 of its rows, re-hashed":  # valid JSON, a consistent hash: only the row count can tell
        record["rows"] = record["rows"][:3]
        record["sha256"] = content_hash(record)
        path.write_text(json.dumps(record))
    elif how == "an edited value":
        record["rows"][0]["sup_error"] *= 1.5
        path.write_text(json.dumps(record))
    elif how == "42":
        path.write_text("42")
    elif how == "no rows key":
        del record["rows"]
        path.write_text(json.dumps(record))
    elif how == "not UTF-8":
        path.write_bytes(b"\xff\xfe{\x00")
    elif how == "truncated":
        path.write_text(path.read_text()[:40])


DAMAGES = ("3 of its rows, re-hashed", "an edited value", "42", "no rows key", "not UTF-8", "truncated")


def test_damaged_simulation_records_are_named_set_aside_and_recomputed(reference, tmp_path, capsys):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    records = sorted((out / "records").glob("*.json"))
    assert len(records) == 6
    for path, how in zip(records, DAMAGES):
        _damage(path, how)
    result = _simulate(out)
    assert (result.computed, result.skipped) == (6, 0)
    assert _outputs(out) == _outputs(reference)  # never used: the summary is the undamaged run's, byte for byte
    err = capsys.readouterr().err
    for path in records:  # each one named by path, and kept aside rather than lost
        assert f"record {path} is damaged" in err and path.with_name(path.name + ".damaged").exists()
    assert "3 rows where the study has 8" in err  # 2 metrics x 4 replications
    assert "does not match its sha256" in err and "holds a JSON int" in err and "not UTF-8" in err


def test_records_written_before_the_hash_are_checked_and_sealed(reference, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    path = sorted((out / "records").glob("*.json"))[0]
    sealed = path.read_bytes()
    record = json.loads(sealed)
    del record["sha256"]
    record["format"] = 1
    path.write_text(json.dumps(record))  # a format-1 record, as earlier versions wrote it
    assert (_simulate(out).computed, path.read_bytes()) == (0, sealed)
    record["rows"] = record["rows"][:3]  # a format-1 record has no hash; its row count still tells
    path.write_text(json.dumps(record))
    assert _simulate(out).computed == 1 and path.read_bytes() == sealed


def test_a_record_damaged_after_it_was_checked_is_refused_with_the_fixing_command(reference, tmp_path, monkeypatch):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    load = engine._load_record
    calls = []

    def damage_on_second_read(path, task, fingerprint, study, config):
        calls.append(path)
        if len(calls) == 7:  # the first read after the run (6 were checked before it)
            path.write_text("{")
        return load(path, task=task, fingerprint=fingerprint, study=study, config=config)

    monkeypatch.setattr(engine, "_load_record", damage_on_second_read)
    with pytest.raises(ValueError, match=r"is damaged: is not valid JSON.*run the same command again"):
        _simulate(out)


def test_damaged_benchmark_records_are_named_set_aside_and_recomputed(tmp_path, capsys):
    from lfverify.experiments._runner import Cell, record_path, run_cells

    settings = {"metrics": ["f1"], "methods": ["ERM", "Plug-in"], "max_iter": 3, "learning_rates": [0.1], "seed": 0}
    key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in settings.items()))
    cells = [Cell("table", "heart", "default", t, key) for t in range(5)]
    run_cells(cells, tmp_path, jobs=1, data_root=SMALL_DATA_ROOT, progress=False)
    original = {c: record_path(tmp_path, c).read_bytes() for c in cells}
    paths = [record_path(tmp_path, c) for c in cells]
    record = json.loads(original[cells[0]])
    del record["results"]["f1"]["Plug-in"]  # one method's result missing, the hash made consistent
    record["sha256"] = content_hash(record)
    paths[0].write_text(json.dumps(record))
    record = json.loads(original[cells[1]])
    record["results"]["f1"]["ERM"]["test"] = 0.999  # an edited value
    paths[1].write_text(json.dumps(record))
    paths[2].write_text("42")
    paths[3].write_bytes(b"\xff\xfe")
    record = json.loads(original[cells[4]])
    del record["sha256"]
    record["version"] = 2  # written before the hash: checked, then sealed in place
    paths[4].write_text(json.dumps(record))
    found = run_cells(cells, tmp_path, jobs=1, data_root=SMALL_DATA_ROOT, progress=False)
    assert {c: record_path(tmp_path, c).read_bytes() for c in cells} == original
    assert set(found) == set(cells)
    err = capsys.readouterr().err
    assert err.count("is damaged") == 4 and f"record {paths[0]} is damaged: holds f1 results of ['ERM']" in err
    assert all(p.with_name(p.name + ".damaged").exists() for p in paths[:4])


# ------------------------------------------------------------------------------------------ ownership
def test_simulate_then_bench_in_one_folder_loses_nothing(reference, tmp_path, capsys):
    out = tmp_path / "shared"
    shutil.copytree(reference, out)
    before = _outputs(out)
    assert cli.main(["bench", "--quick", "--out", str(out), "--serial"]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert line == (f"lfverify bench: error: --out: {out} holds the output of `lfverify simulate uniform-convergence`;"
                    " `lfverify bench` will not overwrite it: choose another folder")
    assert _outputs(out) == before and not (out / "paper_benchmark.md").exists()


def test_bench_then_simulate_in_one_folder_loses_nothing(tmp_path, capsys):
    out = tmp_path / "bench"
    claim_output_folder(out, command="bench", fingerprint=settings_fingerprint({"seed": 0}), settings="seed 0")
    (out / "summary.json").write_text('{"bench": 1}\n')
    assert cli.main(["simulate", "uniform-convergence", "--mode", "smoke", "--out", str(out), "--serial"]) == 2
    err = capsys.readouterr().err
    assert "holds the output of `lfverify bench`" in _one_error_line(err)
    assert len(err.strip().splitlines()) == 1  # the refusal only: the progress line comes after the folder is claimed
    assert (out / "summary.json").read_text() == '{"bench": 1}\n' and not (out / "records").exists()


def test_folders_written_before_the_marker_are_attributed_by_their_files(reference, tmp_path, capsys):
    legacy = tmp_path / "legacy-simulation"
    shutil.copytree(reference, legacy)
    (legacy / MARKER).unlink()
    with pytest.raises(ValueError, match="holds the output of `lfverify simulate uniform-convergence`"):
        claim_output_folder(legacy, command="bench", fingerprint="x")
    assert _simulate(legacy).computed == 0 and (legacy / MARKER).exists()  # its own command adopts it
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="is not empty and was not written by lfverify"):
        _simulate(foreign)
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]


def test_deleting_run_json_and_changing_the_seed_does_not_wedge_the_folder(reference, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    (out / "run.json").unlink()
    with pytest.raises(ValueError, match="holds the results of another run"):
        _simulate(out, seed=5)
    assert not (out / "run.json").exists()
    assert _simulate(out).computed == 0 and _outputs(out) == _outputs(reference)  # still resumes
    assert json.loads((out / "run.json").read_text())["fingerprint"] == json.loads(
        (reference / "run.json").read_text())["fingerprint"]


# ------------------------------------------------------------------------------------------ output locations
@pytest.fixture
def read_only_folder(tmp_path):
    """A folder nobody can write to, root included; yields (path, mechanism) and undoes it afterwards.

    Mechanisms, in order: the immutable attribute (``chattr +i``, holds for root), a read-only bind mount
    (holds for root), permissions (hold for other users only).  Skips with the reason if none holds."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    (folder / "existing.txt").write_text("keep")

    def writable():
        try:
            (folder / "probe").write_text("")
        except OSError:
            return False
        (folder / "probe").unlink()
        return True

    attempts = [("chattr +i", ["chattr", "+i", str(folder)], ["chattr", "-i", str(folder)]),
                ("read-only bind mount", ["sh", "-c", f"mount --bind '{folder}' '{folder}' && "
                                                      f"mount -o remount,ro,bind '{folder}'"],
                 ["umount", str(folder)])]
    for mechanism, make, undo in attempts:
        if shutil.which(make[0]) is None:
            continue
        if subprocess.run(make, capture_output=True, timeout=10).returncode == 0 and not writable():
            try:
                yield folder, mechanism
            finally:
                subprocess.run(undo, capture_output=True, timeout=10)
            return
        subprocess.run(undo, capture_output=True, timeout=10)
    folder.chmod(0o555)
    if not writable():
        try:
            yield folder, "chmod 555"
        finally:
            folder.chmod(0o755)
        return
    folder.chmod(0o755)
    pytest.skip("no read-only mechanism holds here (root without chattr or mount)")


def _no_work(monkeypatch):
    """Make any start of real work fail the test: the checks must come first."""
    import dataclasses

    import lfverify.app._report as report
    import lfverify.experiments._benchmark as command

    def forbidden(*args, **kwargs):
        raise AssertionError("work started before the output location was checked")

    monkeypatch.setattr(report, "run_claims", forbidden)
    monkeypatch.setattr(report, "_run_derivations", forbidden)
    monkeypatch.setattr(command, "build_cells", forbidden)
    for name, study in list(STUDIES.items()):
        monkeypatch.setitem(STUDIES, name, dataclasses.replace(study, context=forbidden, tasks=forbidden))


@pytest.mark.parametrize("command", [["simulate", "uniform-convergence", "--mode", "smoke", "--serial"],
                                     ["bench", "--quick", "--serial"], ["verify", "--serial"]])
def test_an_output_folder_that_cannot_be_written_is_refused_before_any_work(command, read_only_folder, tmp_path,
                                                                            monkeypatch, capsys):
    folder, mechanism = read_only_folder
    _no_work(monkeypatch)
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    for out, expected in ((folder, f"cannot write to {folder}"), (folder / "new", f"cannot write to {folder}"),
                          (a_file, "is a file, not a folder"), (a_file / "sub", f"{a_file} is a file, not a folder")):
        assert cli.main([*command, "--out", str(out)]) == 2, (out, mechanism)
        line = _one_error_line(capsys.readouterr().err)
        assert line.startswith(f"lfverify {command[0]}: error: --out: ") and expected in line, (line, mechanism)
    assert sorted(p.name for p in folder.iterdir()) == ["existing.txt"] and a_file.read_text() == ""


def test_errata_location_is_checked_before_the_derivations(read_only_folder, tmp_path, monkeypatch, capsys):
    folder, mechanism = read_only_folder
    _no_work(monkeypatch)
    for target, expected in ((tmp_path, "is a folder; give the path of a file"),
                             (folder / "ERRATA.md", f"cannot write to {folder}")):
        assert cli.main(["proofs", "--errata", str(target)]) == 2
        line = _one_error_line(capsys.readouterr().err)
        assert line.startswith("lfverify proofs: error: --errata: ") and expected in line, (line, mechanism)


def test_missing_data_folders_are_one_line(tmp_path, monkeypatch, capsys):
    _no_work(monkeypatch)
    missing = tmp_path / "missing"
    assert cli.main(["bench", "--quick", "--out", str(tmp_path / "b"), "--data-root", str(missing)]) == 2
    assert f"--data-root) must be a folder holding the data sets; got '{missing}'" in _one_error_line(
        capsys.readouterr().err)
    monkeypatch.setenv("LFVERIFY_DATASETS", str(missing))
    for command in (["bench", "--quick", "--out", str(tmp_path / "b")], ["verify", "--out", str(tmp_path / "v")]):
        assert cli.main(command) == 2
        assert "$LFVERIFY_DATASETS must name a folder" in _one_error_line(capsys.readouterr().err)
    assert not (tmp_path / "v").exists() and not (tmp_path / "b").exists()  # nothing created for a failed start


# ------------------------------------------------------------------------------------------ Dask addresses
HTTP_400 = b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/html\r\nContent-Length: 11\r\n\r\nbad request"


@pytest.mark.parametrize("reply, expected", [(None, "no Dask scheduler answered within 1 s"),
                                             (HTTP_400, "is not a Dask scheduler (its reply is not Dask's protocol")])
def test_a_service_that_is_not_a_scheduler_is_named_within_the_timeout(reply, expected):
    with battery.listener(reply) as address:
        started = time.monotonic()
        with pytest.raises(ValueError) as error:
            DaskExecutor(address, connect_timeout=1).check()
        assert time.monotonic() - started < 8  # the timeout, plus the probe thread's grace
    assert str(error.value).startswith(f"--dask {address}: ") and expected in str(error.value)


def test_a_dask_peer_that_is_not_the_scheduler_is_named_with_its_identity(monkeypatch):
    """Something that speaks Dask's protocol but whose identity is not a scheduler's (a worker, say): the line names
    the address and the identity.  The connection is made to a silent listener; Dask's connect is replaced by a comm
    that answers a worker's identity.  Oracle: the line typed out.

    Kills `lfverify.parallel._executors.x__check_scheduler__mutmut_119` (the address left out of the advice)."""
    import distributed.comm

    class WorkerComm:
        async def write(self, message):
            assert message == {"op": "identity", "reply": True}

        async def read(self):
            return {"type": "Worker", "id": "w-1"}

        def abort(self):
            pass

    async def connect(address, timeout):
        return WorkerComm()

    monkeypatch.setattr(distributed.comm, "connect", connect)
    with battery.listener(None) as address:
        with pytest.raises(ValueError) as error:
            DaskExecutor(address, connect_timeout=1).check()
    identity = repr(str({"type": "Worker", "id": "w-1"}))
    assert str(error.value) == (f"--dask {address}: what answers there is not a Dask scheduler (its identity: "
                                f"{identity}); check the address (`dask scheduler` listens on tcp://HOST:8786), or "
                                "run locally with --dask-local N or --workers N")


def test_a_client_that_cannot_connect_after_the_check_is_named_with_the_timeout(monkeypatch):
    """The scheduler answered the check, then Dask's Client could not connect (it went away, a slow network): the
    line names the address, the client's error and the --dask-timeout to raise.  The check is passed by hand and
    the Client replaced by one that raises.  Oracle: the line typed out.

    Kills `lfverify.parallel._executors.xǁDaskExecutorǁmap_unordered__lfv_args_2` (the problem and the timeout
    swapped)."""
    import distributed

    def refuse(address, timeout):
        raise OSError(f"cannot reach {address} within {timeout} s")

    monkeypatch.setattr(distributed, "Client", refuse)
    executor = DaskExecutor("tcp://127.0.0.1:8786", connect_timeout=2)
    monkeypatch.setattr(executor, "check", lambda: None)
    with pytest.raises(ValueError) as error:
        list(executor.map_unordered(len, [("ab",)]))
    assert str(error.value) == (
        "--dask tcp://127.0.0.1:8786: the client could not connect (cannot reach tcp://127.0.0.1:8786 within 2.0 s); "
        "check the address (`dask scheduler` listens on tcp://HOST:8786), raise --dask-timeout (now 2 s) on a slow "
        "network, or run locally with --dask-local N or --workers N")


def test_refused_and_malformed_addresses_are_named_at_once():
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]  # closed below: nothing listens there any more
    started = time.monotonic()
    with pytest.raises(ValueError, match=rf"--dask tcp://127.0.0.1:{port}: cannot connect \(Connection refused\)"):
        DaskExecutor(f"tcp://127.0.0.1:{port}", connect_timeout=30).check()
    with pytest.raises(ValueError, match="missing port number"):
        DaskExecutor("tcp://localhost", connect_timeout=30).check()
    assert time.monotonic() - started < 5  # no waiting out the 30 s timeout
    with pytest.raises(ValueError, match=r"connect_timeout \(--dask-timeout\) must lie in \(0.0, inf\)"):
        DaskExecutor("tcp://127.0.0.1:8786", connect_timeout=0)


def test_a_real_scheduler_passes_the_check():
    """The other side of the check: a real (in-process) Dask scheduler answers it."""
    distributed = pytest.importorskip("distributed")
    for protocol in ("tcp", "inproc"):
        with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None,
                                      protocol=protocol) as cluster:
            assert cluster.scheduler_address.startswith(f"{protocol}://")
            DaskExecutor(cluster.scheduler_address, connect_timeout=10).check()


def test_the_command_line_names_the_address_instead_of_hanging(tmp_path):
    with battery.listener(None) as address:
        started = time.monotonic()
        proc = subprocess.run([*CLI, "simulate", "uniform-convergence", "--mode", "smoke", "--out",
                               str(tmp_path / "d"), "--dask", address, "--dask-timeout", "1"],
                              capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and time.monotonic() - started < 30
    line = _one_error_line(proc.stderr)
    assert line.startswith(f"lfverify simulate: error: --dask {address}: something listens there") and \
        "--dask-timeout (now 1 s)" in line
    assert not (tmp_path / "d").exists()  # checked before the output folder was created


# ------------------------------------------------------------------------------------------ numbers
def _sample(scale=1.0, n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + rng.normal(size=n) > 0, 1, -1)
    return EmpiricalSurrogateUtility(core.f1(), core.tau_logistic(0.33), X * scale, y)


def test_gradient_direction_overflow_is_an_error_and_the_gradient_is_exact():
    """Features near 1e155: D_hat grad N_hat overflows, V_hat does not fit in a double (an error naming the
    overflow, never NaN), and grad U_hat = V_hat / D_hat^2 is still returned, equal to the exact rational value of
    the quotient rule applied to the computed N_hat, D_hat and their gradients (oracle: fractions.Fraction)."""
    objective = _sample(1e155)
    theta = np.array([1.0, 1.0])
    with pytest.raises(ValueError, match="overflows the largest double"):
        objective.evaluate(theta)
    with pytest.raises(ValueError, match="overflows the largest double"):
        objective.gradient_direction(theta)
    ev = objective.evaluate(theta, direction=False)
    assert ev.gradient_direction is None and np.isfinite(ev.value)
    N, D = Fraction(float(ev.numerator)), Fraction(float(ev.denominator))
    exact = [(D * Fraction(float(gn)) - N * Fraction(float(gd))) / (D * D)
             for gn, gd in zip(ev.numerator_gradient, ev.denominator_gradient)]
    np.testing.assert_allclose(ev.gradient, [float(e) for e in exact], rtol=4e-16)
    np.testing.assert_array_equal(objective.gradient(theta), ev.gradient)
    # the same sample at scale 1: V_hat exists and grad U_hat is the unscaled quotient, bit for bit as before
    small = _sample(1.0).evaluate(theta)
    np.testing.assert_array_equal(small.gradient, small.gradient_direction / small.denominator ** 2)


def test_the_optimizer_says_why_it_stopped_instead_of_claiming_convergence():
    objective = _sample()
    normal = maximize_surrogate_utility(objective, np.array([1.0, 0.0]))
    assert normal.converged and normal.message.startswith("converged: ||grad U_hat||")  # the control case
    huge_start = maximize_surrogate_utility(objective, np.array([1e300, 1e300]))
    assert not huge_start.converged and "no longer changes theta" in huge_start.message
    huge_steps = maximize_surrogate_utility(objective, np.array([1.0, 0.0]), method="gd", learning_rate=1e300)
    assert not huge_steps.converged and "only through the scale of theta" in huge_steps.message
    huge_bfgs = maximize_surrogate_utility(objective, np.array([1.0, 1.0]), learning_rate=1e300)
    assert not huge_bfgs.converged and "learning_rate = 1e+300 is too large" in huge_bfgs.message


@pytest.mark.parametrize("method", ["gd", "bfgs"])
def test_underflowed_gradient_is_not_convergence(method):
    """Subnormal features (5e-309) and theta = 1e308: margins of order 1, N_hat > 0, but grad U_hat is below the
    smallest normal double while the ascent direction grad N_hat - U_hat grad D_hat is not 0; the optimizer says
    so rather than 'converged'."""
    rng = np.random.default_rng(1)
    y = np.where(rng.normal(size=40) > 0, 1, -1)
    X = np.column_stack([y * 5e-309 * (1 + rng.random(40)), rng.normal(size=40) * 5e-309])
    objective = EmpiricalSurrogateUtility(core.f1(), core.tau_logistic(0.33), X, y)
    theta = np.array([1e308, 0.0])
    assert objective.numerator(theta) > 0 and 0 < np.abs(objective.gradient(theta)).max() < np.finfo(float).tiny
    result = maximize_surrogate_utility(objective, theta, method=method, learning_rate=1e-3)
    assert not result.converged and result.message.startswith("stopped: grad U_hat underflowed"), result.message


def test_complex_input_is_rejected_and_counts_need_a_sample():
    for value, check in (([[1 + 1j, 2.0]], check_features), (np.array([1 + 0j, 2.0]), check_features)):
        with pytest.raises(TypeError, match="X must hold real numbers; got complex"):
            check(value)
    with pytest.raises(TypeError, match=r"y must hold real labels .* got complex"):
        check_labels(np.array([1 + 1j, -1, 1]))
    with pytest.raises(TypeError, match="theta must hold real numbers; got complex"):
        check_parameters(np.array([1 + 1j, 2.0]), 2)
    with pytest.raises(ValueError, match=r"n_samples must be an int >= 1 .* got 0"):
        core.f1().value_from_counts(1, 0, 1, n_samples=0)
    with pytest.raises(TypeError, match="n_samples must be an int"):
        core.f1().value_from_counts(1, 0, 1, n_samples=2.0)
    assert core.f1().value_from_counts(1, 0, 1, n_samples=2) == 1.0  # the control case


# ------------------------------------------------------------------------------------------ one entry point
def test_every_failure_is_one_line_and_debug_shows_the_traceback(monkeypatch, capsys):
    def boom(args):
        raise KeyError("planted")

    monkeypatch.setattr(cli.command_module("metrics"), "run", boom)
    assert cli.main(["metrics"]) == 3
    line = _one_error_line(capsys.readouterr().err, "internal error")
    assert line == ("lfverify metrics: internal error: KeyError: 'planted' (a bug; run again with --debug for the "
                    "traceback and please report it)")
    for argv in (["--debug", "metrics"], ["metrics", "--debug"]):
        with pytest.raises(KeyError, match="planted"):
            cli.main(argv)

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.command_module("metrics"), "run", interrupted)
    assert cli.main(["metrics"]) == 130
    assert "interrupted (Ctrl-C)" in _one_error_line(capsys.readouterr().err, "interrupted")
    assert cli.main(["metrics", "--alpha", "nan"]) == 130  # (the planted command ignores its options)


# ------------------------------------------------------------------------------------------ processes
needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")

#: A real ``lfverify`` command line whose uniform-convergence smoke size is TINY and whose record writes are
#: slowed to 0.3 s each, so that a signal reliably arrives mid-run.
SLOW_TINY_CLI = f"""
import sys, time
import lfverify.simulations._engine as engine
from lfverify.simulations import STUDIES
STUDIES["uniform-convergence"].modes["smoke"].update({TINY!r})
write = engine._write_record
def slow(path, text):
    write(path, text)
    time.sleep(0.3)
engine._write_record = slow
from lfverify.app._cli import main
sys.exit(main(sys.argv[1:]))
"""


def _terminal_signals():
    """In the child before exec: SIGINT back to its default, as under a terminal.  A job started in the background
    by a non-interactive shell (``cmd &``, as a CI runner may start the suite) inherits SIGINT ignored, and Python
    then never raises KeyboardInterrupt: the Ctrl-C test would see the run finish (exit 0)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(argv, code=None):
    command = [sys.executable, "-c", code, *argv] if code else [*CLI, *argv]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_terminal_signals)


def _wait_for(condition, proc, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the run ended before it could be interrupted: {proc.communicate(timeout=10)}")
        if condition():
            return
        time.sleep(0.05)
    proc.kill()
    pytest.fail("the run did not reach the point of interruption in time")


def _interrupt(proc, sig, *, group=False, workers=2, settle=1.0):
    """Wait for ``workers`` worker processes, send ``sig`` (to the process group: a terminal's Ctrl-C) and return
    (exit status, stderr, descendants seen just before the signal)."""
    _wait_for(lambda: sum(1 for _ in battery.descendants(proc.pid)) >= workers + 1, proc)
    time.sleep(settle)  # let the workers start their first tasks
    seen = battery.descendants(proc.pid)
    (os.killpg if group else os.kill)(proc.pid, sig)
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, err, seen


@needs_proc
@pytest.mark.parametrize("argv", [["simulate", "uniform-convergence", "--mode", "smoke", "--workers", "2",
                                   "--no-figures"],
                                  pytest.param(["bench", "--quick", "--workers", "2", "--no-figures"],
                                               marks=needs_data)])
def test_sigkill_of_the_parent_leaves_no_worker(argv, tmp_path):
    """The simulation is the slowed tiny run, killed after its first record (a quick run killed after a fixed 1 s
    can finish first on an idle machine); the quick benchmark takes over a minute."""
    out = tmp_path / "out"
    if argv[0] == "simulate":
        proc = _start([*argv, "--out", str(out)], SLOW_TINY_CLI)
        _wait_for(lambda: len(list((out / "records").glob("*.json"))) >= 1, proc)
        status, _, seen = _interrupt(proc, signal.SIGKILL, settle=0.2)
    else:
        proc = _start([*argv, "--out", str(out)])
        status, _, seen = _interrupt(proc, signal.SIGKILL)
    assert status == -signal.SIGKILL and len(seen) >= 3  # 2 workers and the resource tracker
    assert battery.survivors(seen, timeout=15) == []


@needs_proc
def test_sigterm_stops_the_workers_and_the_run_resumes_to_the_identical_result(reference, tmp_path):
    """SIGTERM (timeout, batch schedulers, container stops) of a real run with 2 workers and slowed record
    writes: one line, exit 143, no worker left, some records kept; resuming gives the uninterrupted result."""
    out = tmp_path / "run"
    argv = ["simulate", "uniform-convergence", "--mode", "smoke", "--workers", "2", "--no-figures", "--out", str(out)]
    proc = _start(argv, SLOW_TINY_CLI)
    _wait_for(lambda: len(list((out / "records").glob("*.json"))) >= 1, proc)
    status, err, seen = _interrupt(proc, signal.SIGTERM, settle=0.2)
    assert status == 143 and battery.survivors(seen, timeout=15) == []
    assert _one_error_line(err, "interrupted").startswith("lfverify simulate: interrupted (SIGTERM)")
    done = len(list((out / "records").glob("*.json")))
    assert 1 <= done < 6 and not (out / "summary.json").exists()
    result = _simulate(out)
    assert (result.computed, result.skipped) == (6 - done, done) and _outputs(out) == _outputs(reference)


@needs_proc
def test_ctrl_c_on_the_terminal_is_one_line_without_worker_tracebacks(tmp_path):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) mid-run: exit 130, one line, no worker
    left.  The run is the slowed tiny one and the signal waits for its first record, so it always lands mid-run
    (a quick run interrupted after a fixed 1 s had finished first on an idle machine: exit 0, session 20)."""
    out = tmp_path / "out"
    proc = _start(["simulate", "uniform-convergence", "--mode", "smoke", "--workers", "2", "--no-figures", "--out",
                   str(out)], SLOW_TINY_CLI)
    _wait_for(lambda: len(list((out / "records").glob("*.json"))) >= 1, proc)
    status, err, seen = _interrupt(proc, signal.SIGINT, group=True, settle=0.2)
    assert status == 130 and battery.survivors(seen, timeout=15) == []
    assert _one_error_line(err, "interrupted").startswith("lfverify simulate: interrupted (Ctrl-C)")
    assert not (out / "summary.json").exists()


@needs_proc
@pytest.mark.slow
@pytest.mark.parametrize("sig, group, status", [(signal.SIGKILL, False, -signal.SIGKILL),
                                                (signal.SIGTERM, False, 143), (signal.SIGINT, True, 130)])
def test_dask_local_cluster_workers_do_not_outlive_their_parent(sig, group, status, tmp_path):
    """distributed's nanny-started workers exit when their parent's pipe closes (SIGKILL); SIGTERM / Ctrl-C close
    the cluster with a timeout.  The signal comes once the run computes: a Ctrl-C while the LocalCluster starts
    may be ignored (lfverify.parallel._executors)."""
    pytest.importorskip("distributed")
    out = tmp_path / "out"
    proc = _start(["simulate", "uniform-convergence", "--quick", "--dask-local", "2", "--no-figures", "--out",
                   str(out)])
    _wait_for(lambda: any((out / "records").glob("*.json")), proc)
    code, err, seen = _interrupt(proc, sig, group=group, settle=0.2)
    assert code == status and battery.survivors(seen, timeout=20) == []
    if sig != signal.SIGKILL:
        assert "Traceback" not in err and "interrupted" in _one_error_line(err, "interrupted")


@needs_proc
@pytest.mark.slow
def test_sigkill_of_verify_leaves_no_worker(tmp_path):
    """verify reaches its worker processes only after its derivations, a minute on an idle machine and several under
    load (a fixed 60 s wait for them failed): the wait polls for two running workers for up to 15 minutes, and the
    check for survivors allows 60 s, each ending as soon as its condition holds."""
    proc = subprocess.Popen([*CLI, "verify", "--workers", "2", "--no-figures", "--out", str(tmp_path / "report")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            preexec_fn=_terminal_signals)  # not pipes: minutes of output unread would block verify
    try:
        _wait_for(lambda: len(battery._workers_of(proc)) >= 2, proc, timeout=900)
        seen = battery.descendants(proc.pid)
        proc.kill()
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL and len(seen) >= 3  # 2 workers and the resource tracker
    assert battery.survivors(seen, timeout=60) == []


@needs_proc
def test_the_orphan_check_finds_a_real_orphan():
    """The control of the kill tests: a parent that leaves a child behind is caught by the same check."""
    code = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)']); " \
           "time.sleep(30)"
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not battery.descendants(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        seen = battery.descendants(proc.pid)
        proc.kill()
        proc.wait(timeout=30)
        orphans = battery.survivors(seen, timeout=1)
        assert len(seen) == 1 and orphans == list(seen)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_worker_initializer_exits_when_the_parent_is_already_gone():
    """The race the kernel's parent-death signal cannot cover: a worker whose parent died before it asked for it
    exits at once (the check after prctl), with status 1."""
    code = textwrap.dedent("""
        from lfverify.parallel._executors import _exit_with_parent
        _exit_with_parent(parent_pid=1)  # not our parent: as if ours had died and we were re-parented
        raise SystemExit(0)
    """)
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 1


# ------------------------------------------------- unmarked folders; worker watchdog; pool stop; scheduler probe

def test_infer_owner_attributes_unmarked_folders_by_their_files(tmp_path):
    """Oracle: the documented attribution of folders written before the marker - REPORT.md (exact case) or
    report.json: ('verify', None); records/ holding only folders: ('bench', None); an empty records/ or a stray
    file: (None, None).

    Kills: output_folder.x__infer_owner__mutmut_11, output_folder.x__infer_owner__mutmut_6,
    output_folder.x__infer_owner__mutmut_51."""
    from lfverify.io._output_folder import _infer_owner

    report = tmp_path / "report"
    report.mkdir()
    (report / "REPORT.md").write_text("# report\n")
    assert _infer_owner(report) == ("verify", None)
    bench = tmp_path / "bench"
    (bench / "records" / "f1").mkdir(parents=True)
    assert _infer_owner(bench) == ("bench", None)
    empty = tmp_path / "empty-records"
    (empty / "records").mkdir(parents=True)
    assert _infer_owner(empty) == (None, None)


def _fake_worker_modules(monkeypatch, parent_pid, ppids, platform="linux"):
    """Replace the modules _exit_with_parent uses by recorders; ``ppids`` are getppid's successive answers."""
    from types import SimpleNamespace

    import lfverify.parallel._executors as executors

    seen = {"prctl": [], "threads": [], "sleeps": [], "exits": []}

    class Exited(Exception):
        pass

    def _exit(status):
        seen["exits"].append(status)
        raise Exited

    class Thread:
        def __init__(self, **kwargs):
            seen["threads"].append(kwargs)

        def start(self):
            pass

    answers = iter(ppids)
    monkeypatch.setattr(executors, "sys", SimpleNamespace(platform=platform))
    monkeypatch.setattr(executors, "ctypes", SimpleNamespace(
        CDLL=lambda name, use_errno: SimpleNamespace(
            prctl=lambda *args: seen["prctl"].append((name, use_errno, args)))))
    monkeypatch.setattr(executors, "os", SimpleNamespace(getppid=lambda: next(answers), _exit=_exit))
    monkeypatch.setattr(executors, "time", SimpleNamespace(sleep=seen["sleeps"].append))
    monkeypatch.setattr(executors, "threading", SimpleNamespace(Thread=Thread))
    return executors, seen, Exited


def test_exit_with_parent_asks_linux_for_sigkill_on_parent_death(monkeypatch):
    """Oracle: prctl(2) - PR_SET_PDEATHSIG is option 1 and the signal SIGKILL (9), the remaining three arguments 0
    - called once through the process's own libc (CDLL(None)) on linux, and not at all elsewhere (a spy CDLL).

    Kills: simulations.executors.x__exit_with_parent__mutmut_13, simulations.executors.x__exit_with_parent__mutmut_2."""
    executors, seen, _ = _fake_worker_modules(monkeypatch, 4242, [4242])
    executors._exit_with_parent(4242)
    assert seen["prctl"] == [(None, True, (1, int(signal.SIGKILL), 0, 0, 0))] and seen["exits"] == []
    executors, seen, _ = _fake_worker_modules(monkeypatch, 4242, [4242], platform="darwin")
    executors._exit_with_parent(4242)
    assert seen["prctl"] == [] and len(seen["threads"]) == 1


def test_exit_with_parent_watchdog_is_a_daemon_polling_getppid(monkeypatch):
    """Oracle: the module's contract - a daemon thread (it must not keep the worker alive) named
    lfverify-parent-watchdog polls getppid every 0.5 s while it equals the parent's pid, then calls os._exit(1);
    driven by a spy getppid answering parent, parent, parent, then 1 (re-parented).

    Kills: simulations.executors.x__exit_with_parent__mutmut_29,
    simulations.executors.x__exit_with_parent__mutmut_41."""
    executors, seen, Exited = _fake_worker_modules(monkeypatch, 4242, [4242, 4242, 4242, 1])
    executors._exit_with_parent(4242)
    (thread,) = seen["threads"]
    assert thread["daemon"] is True and thread["name"] == "lfverify-parent-watchdog"
    assert seen["exits"] == [] and seen["sleeps"] == []
    with pytest.raises(Exited):
        thread["target"]()
    assert seen["sleeps"] == [0.5, 0.5] and seen["exits"] == [1]


def test_stop_pool_survives_a_worker_that_is_already_gone(monkeypatch):
    """Oracle: the documented stop (cancel what has not started, SIGTERM, then SIGKILL after the timeout), with spy
    processes - terminate of a worker that already exited raises ProcessLookupError (an OSError), which is
    ignored; the other worker, still alive after join, is killed.

    Kills: simulations.executors.x__stop_pool__mutmut_19."""
    import lfverify.parallel._executors as executors

    calls = []

    class Process:
        def __init__(self, name, gone, alive):
            self.name, self.gone, self.alive = name, gone, alive

        def terminate(self):
            calls.append((self.name, "terminate"))
            if self.gone:
                raise ProcessLookupError(3, "No such process")

        def join(self, timeout=None):
            calls.append((self.name, "join"))

        def is_alive(self):
            return self.alive

        def kill(self):
            calls.append((self.name, "kill"))

    class Pool:
        _processes = {1: Process("a", True, False), 2: Process("b", False, True)}

        def shutdown(self, **kwargs):
            calls.append(("pool", kwargs))

    executors._stop_pool(Pool())
    assert calls == [("pool", {"wait": False, "cancel_futures": True}), ("a", "terminate"), ("b", "terminate"),
                     ("a", "join"), ("b", "join"), ("b", "kill"), ("b", "join")]


def test_check_scheduler_bounds_the_identity_exchange_by_the_timeout(monkeypatch):
    """Oracle: a spy on asyncio.wait_for records the timeout bounding the identity exchange; at the non-default
    timeout 0.2 s against a socket that accepts but never speaks Dask's protocol, it is exactly 0.2 and the
    documented ValueError follows.

    Kills: simulations.executors.x__check_scheduler__mutmut_64."""
    import asyncio

    pytest.importorskip("distributed")
    import lfverify.parallel._executors as executors

    real_wait_for, bounds = asyncio.wait_for, []

    def spy(aw, timeout, *args, **kwargs):
        if getattr(getattr(aw, "cr_code", None), "co_name", "") == "identity":
            bounds.append(timeout)
        return real_wait_for(aw, timeout, *args, **kwargs)

    monkeypatch.setattr(asyncio, "wait_for", spy)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        with pytest.raises(ValueError, match="no Dask scheduler answered within 0.2 s"):
            executors._check_scheduler(address, 0.2)
    assert bounds == [0.2]


def test_a_malformed_scheduler_address_gets_the_whole_documented_advice():
    """Oracle: _dask_advice's sentence typed here, around distributed's own reason (whatever its wording).

    Kills: simulations.executors.x__check_scheduler__lfv_args_1 (address and problem swapped)."""
    import re

    pytest.importorskip("distributed")
    import lfverify.parallel._executors as executors

    for address in ("tcp://localhost", "tcp://host:notaport"):
        with pytest.raises(ValueError) as caught:
            executors._check_scheduler(address, 0.5)
        assert re.fullmatch(re.escape(f"--dask {address}: not a scheduler address such as tcp://127.0.0.1:8786 (")
                            + r"[^;]+" + re.escape("); check the address (`dask scheduler` listens on "
                                                   "tcp://HOST:8786), "
                                                   "or run locally with --dask-local N or --workers N"),
                            str(caught.value)), str(caught.value)


@pytest.mark.parametrize("finish", ["all results", "interrupted"])
@pytest.mark.parametrize("address", [None, "tcp://scheduler.example:8786"])
def test_the_dask_executor_closes_its_client_and_local_cluster_within_the_stop_timeout(monkeypatch, finish,
                                                                                        address):
    """Oracle: a spy standing in for distributed records every call; the client and the LocalCluster it started
    are each closed once, with the executors' documented stop timeout (not distributed's defaults, which wait
    far longer for dead workers), whether the run finished or was abandoned by its consumer.

    With an address, no cluster is started and the client connects to that address within the connect timeout.

    Kills: simulations.executors.xǁDaskExecutorǁmap_unordered__lfv_dropkw_2 (``cluster.close()``), and the
    narrowed run's timeouts map_unordered__mutmut_8 (``n_workers=None``), _24 (Client without the address), _38
    (``pure=None``), _48 (``logger = None``)."""
    from types import SimpleNamespace

    import lfverify.parallel._executors as executors

    calls, submitted = [], []

    class Future:
        def __init__(self, key, value):
            self.key, self.value = key, value

        def result(self):
            return self.value

    class Client:
        def __init__(self, *args, **kwargs):
            calls.append(("client", args, kwargs))

        def run(self, function, on_error="raise"):  # the real signature: on_error="ignore" is passed
            calls.append(("run", function.__name__))

        def wait_for_workers(self, n_workers, timeout):
            calls.append(("wait_for_workers", n_workers, timeout))

        def submit(self, function, *args, pure):
            calls.append(("submit", args, pure))
            submitted.append(Future(f"key-{args}", function(*args)))
            return submitted[-1]

        def close(self, **kwargs):
            calls.append(("client.close", kwargs))

    class LocalCluster:
        def __init__(self, **kwargs):
            calls.append(("cluster", kwargs["n_workers"]))

        def close(self, **kwargs):
            calls.append(("cluster.close", kwargs))

    def wait(futures, timeout, return_when):
        assert return_when == "FIRST_COMPLETED" and timeout == executors._POLL_SECONDS
        first = min(futures, key=submitted.index)  # the first submitted finishes first
        return {first}, set(futures) - {first}

    fake = SimpleNamespace(LocalCluster=LocalCluster, Client=Client, wait=wait,
                           KilledWorker=type("KilledWorker", (Exception,), {}))
    monkeypatch.setattr(executors, "_import_distributed", lambda: fake)
    monkeypatch.setattr(DaskExecutor, "check", lambda self: calls.append(("check", self.address)))
    executor = DaskExecutor(n_workers=2) if address is None else DaskExecutor(address, connect_timeout=7.5)
    results = executor.map_unordered(abs, [(-1,), (-2,), (-3,)])
    if finish == "all results":
        assert sorted(results) == [(0, 1), (1, 2), (2, 3)]
    else:
        assert next(results) == (0, 1)
        results.close()
    stop = {"timeout": executors._STOP_TIMEOUT}
    if address is None:
        assert [c for c in calls if c[0].endswith("close")] == [("client.close", stop), ("cluster.close", stop)]
        assert calls[0] == ("cluster", 2) and calls[1][0] == "client" and isinstance(calls[1][1][0], LocalCluster)
    else:
        assert [c for c in calls if c[0].endswith("close")] == [("client.close", stop)]
        assert calls[:3] == [("check", address), ("client", (address,), {"timeout": 7.5}),
                             ("wait_for_workers", 1, 7.5)]  # a scheduler without workers is named, not waited on
        calls.remove(("wait_for_workers", 1, 7.5))
    assert calls[2] == ("run", "_single_threaded_blas")
    assert [c for c in calls if c[0] == "submit"] == [("submit", (a,), False) for a in (-1, -2, -3)]


def test_the_dask_executor_without_distributed_names_the_extra(monkeypatch):
    """Oracle: the install hint typed here; the missing module simulated by a None entry in sys.modules (which makes
    ``import distributed`` raise ImportError).

    Kills: simulations.executors.x__import_distributed__mutmut_3 (the hint's text changed)."""
    import lfverify.parallel._executors as executors

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ValueError) as caught:
        executors._import_distributed()
    assert str(caught.value) == "the Dask executor needs the 'distributed' extra: pip install \"lfverify[distributed]\""
    assert isinstance(caught.value.__cause__, ImportError)


# ------------------------------------------------------------------ a user-editable text file in another encoding
def test_a_text_file_in_another_encoding_names_the_file_the_line_and_the_column(tmp_path, capsys):
    """Oracle: the byte written by hand (Latin-1 e-acute, 0xe9, at line 8, column 22 of PROVENANCE.tsv).  The
    loader, and the command line that reaches it, say which file, which line and which column, in one line (issue
    44's fault battery: the error did not name the file)."""
    from lfverify.io import NotText, decode_text, read_text
    from lfverify.learn import load_dataset
    from shared_files import TEST_MIRROR

    root = tmp_path / "data"
    shutil.copytree(TEST_MIRROR, root)  # the tests' own small mirror (heart among its sets), on every clone
    with (root / "PROVENANCE.tsv").open("ab") as fh:
        fh.write(b"heart\theart_scale\tcaf\xe9/x\tp\tc\tc\tb\t1\tabc\n")
    lines = (root / "PROVENANCE.tsv").read_bytes().count(b"\n")
    expected = f"{root / 'PROVENANCE.tsv'}: not utf-8 text: byte 0xe9 at line {lines}, column 22"
    with pytest.raises(NotText, match=re.escape(expected)):
        read_text(root / "PROVENANCE.tsv")
    with pytest.raises(ValueError, match=re.escape(expected)):
        load_dataset("heart", root=root)
    assert decode_text(b"a\nb", "f") == "a\nb"  # companion: UTF-8 text decodes
    with pytest.raises(NotText, match=r"^f: not utf-8 text: byte 0xff at line 2, column 3 "):
        decode_text(b"ab\ncd\xff", "f")


# ------------------------------------------------------------------ memory bounded whatever a count asks
_ABSURD = 10**9
_COUNT_ARGUMENTS = [
    (["bench", "--trials", str(_ABSURD)], "trials must be at most 1,000"),
    (["bench", "--compare-trials", str(_ABSURD), "--experiments", "compare"], "compare_trials must be at most 1,000"),
    (["bench", "--size-trials", str(_ABSURD)], "size_trials must be at most 1,000"),
    (["bench", "--tau-trials", str(_ABSURD)], "tau_trials must be at most 1,000"),
    (["bench", "--convergence-trials", str(_ABSURD)], "convergence_trials must be at most 1,000"),
    (["bench", "--max-iter", str(_ABSURD)], "max_iter must be at most 100,000"),
    (["bench", "--convergence-iter", str(_ABSURD)], "convergence_iter must be at most 100,000"),
    (["bench", "--sizes", ",".join(str(n) for n in range(4, 1004))], "sizes must hold at most 100 values"),
    (["bench", "--taus", ",".join(str(i / 2000) for i in range(1, 1001))], "taus must hold at most 100 values"),
    (["bench", "--jobs", str(_ABSURD)], "jobs must be at most"),
    (["bench", "--workers", str(_ABSURD)], "jobs must be at most"),  # bench's --workers is its --jobs
    (["bench", "--dask-local", str(_ABSURD)], "dask_local must be at most"),
    (["simulate", "uniform-convergence", "--quick", "--workers", str(_ABSURD)], "--workers must be at most"),
    (["simulate", "uniform-convergence", "--quick", "--dask-local", str(_ABSURD)], "--dask-local must be at most"),
    (["verify", "--quick", "--workers", str(_ABSURD)], "--workers must be at most"),
]


def _limited_to_1_gib():
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


#: Runs each command line of a JSON list in turn through lfverify's ``main``, in one process, and prints a JSON list of
#: {status, stderr, stdout}: one process (2 s of imports) for the whole battery instead of one per count.
_BATTERY_DRIVER = textwrap.dedent("""
    import contextlib, io, json, sys
    from lfverify.app import main
    results = []
    for argv in json.loads(sys.argv[1]):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exc:
                status = exc.code
        results.append({"status": status, "stderr": err.getvalue(), "stdout": out.getvalue()})
    print(json.dumps(results))
""")


def _small_data_env() -> dict:
    return {**os.environ, "LFVERIFY_DATASETS": str(TEST_MIRROR)}


@pytest.fixture(scope="module")
def absurd_count_outcomes(tmp_path_factory):
    """Every count argument of _COUNT_ARGUMENTS run by ``main`` in one real process under a 1 GiB address-space
    limit and a 120 s timeout, each with its own ``--out``: (outcome, output folder) per argument, in order."""
    root = tmp_path_factory.mktemp("absurd")
    commands = [[*argv, "--out", str(root / f"out{k}")] for k, (argv, _) in enumerate(_COUNT_ARGUMENTS)]
    done = subprocess.run([sys.executable, "-c", _BATTERY_DRIVER, json.dumps(commands)], capture_output=True,
                          text=True, timeout=120, preexec_fn=_limited_to_1_gib, env=_small_data_env())
    assert done.returncode == 0, done.stderr[-3000:]  # a MemoryError or the kernel's kill ends the process here
    outcomes = json.loads(done.stdout.splitlines()[-1])
    return [(outcome, root / f"out{k}") for k, outcome in enumerate(outcomes)]


@pytest.mark.parametrize("index", range(len(_COUNT_ARGUMENTS)),
                         ids=[" ".join(argv)[:60] for argv, _ in _COUNT_ARGUMENTS])
def test_an_absurd_count_is_refused_before_memory_grows(index, absurd_count_outcomes):
    """Every count argument at 10^9 (or a list of 1,000 values), run in one real process under a 1 GiB address-space
    limit: one line naming the argument and its bound, exit status 2, no output folder (issue 44's battery: an
    absurd trial count grew to 2.8 GiB in 45 s and died of MemoryError; 100,000 workers took 2.5 GiB).  Oracle: the
    status ``main`` returns and its stderr; the limit makes growth a failure (MemoryError, or death by the kernel)
    instead of a slow test.  The arguments share the process (its imports once); the next test runs one of them as
    its own ``python -m lfverify`` process."""
    outcome, out = absurd_count_outcomes[index]
    message = _COUNT_ARGUMENTS[index][1]
    assert outcome["status"] == 2, outcome
    assert message in outcome["stderr"] and outcome["stderr"].count("\n") == 1, outcome
    assert outcome["stdout"] == "" and not out.exists()


def test_the_shared_process_reports_a_command_it_does_not_refuse(tmp_path):
    """Companion: the driver's outcome of a command that succeeds (``--version``: status 0, the version on stdout) fails
    the refusal's assertions, and a count below its bound is refused by its own line."""
    from lfverify import __version__

    commands = [["--version"], ["bench", "--trials", "0", "--out", str(tmp_path / "out")]]
    done = subprocess.run([sys.executable, "-c", _BATTERY_DRIVER, json.dumps(commands)], capture_output=True,
                          text=True, timeout=120, preexec_fn=_limited_to_1_gib, env=_small_data_env())
    version, zero = json.loads(done.stdout.splitlines()[-1])
    assert version["status"] == 0 and __version__ in version["stdout"] and version["stderr"] == ""
    assert zero["status"] == 2 and "trials must be an int >= 1; got 0" in zero["stderr"]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv, message", [_COUNT_ARGUMENTS[0], _COUNT_ARGUMENTS[-1]],
                         ids=["bench --trials", "verify --workers"])
def test_an_absurd_count_ends_its_own_process_with_one_line(argv, message, tmp_path):
    """The same refusal as its own ``python -m lfverify`` process under the 1 GiB limit: the process's exit status is
    2 and its stderr one line (what a user's shell sees), no output folder.  Oracle: the process's status and
    stderr."""
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "lfverify", *argv, "--out", str(out)], capture_output=True,
                          text=True, timeout=60, preexec_fn=_limited_to_1_gib, env=_small_data_env())
    assert done.returncode == 2, done.stderr[-2000:]
    assert message in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert not out.exists()


def test_the_count_bounds_accept_their_largest_values():
    """Companion: the bound itself is accepted (the refusal is of what lies beyond it), and a worker count is refused
    only beyond WORKERS_PER_CPU per usable CPU."""
    from lfverify.parallel import WORKERS_PER_CPU, ProcessExecutor, max_local_workers, usable_cpus

    assert max_local_workers() == WORKERS_PER_CPU * usable_cpus()
    assert ProcessExecutor(max_workers=max_local_workers()).max_workers == max_local_workers()
    with pytest.raises(ValueError, match=f"max_workers must be at most {max_local_workers()} "):
        ProcessExecutor(max_workers=max_local_workers() + 1)
