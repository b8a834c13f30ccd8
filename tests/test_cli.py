"""The command line: --version, verify (exit status follows the verdicts), metrics, and error reporting."""

import json
import subprocess
import sys

import pytest

from lfverify import __version__, cli, verification


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
    out = subprocess.run([sys.executable, "-m", "lfverify.cli", "--version"], capture_output=True, text=True, check=True)
    assert __version__ in out.stdout


def test_atomic_write_leaves_the_old_file_on_failure(tmp_path):
    from lfverify.atomic_write import write_text_atomically

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
    from lfverify.atomic_write import atomic_path, write_bytes_atomically

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

    from lfverify import atomic_write

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
