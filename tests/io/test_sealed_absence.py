"""Absence is a difference in lfverify.io's comparisons: a record's hash, an output folder's owner (issue 45, item 4).

Oracle: a sealed record is read back (the control); the same record without its ``sha256`` entry is damaged
("has no content hash") unless the caller allows unsealed records; a record whose hash entry is present but whose
content lost an entry is damaged ("does not match").  A folder claimed by (command, fingerprint) is claimed again
by the same pair (the control); a marker whose ``fingerprint`` entry is deleted is refused for any run ("holds the
results of another run"), and one whose ``command`` entry is deleted is not an ownership marker.

Companions: the checks run against one-line planted variants (tests/planted.py) that read a missing hash as
sound and a missing fingerprint as this run's, where they must raise AssertionError.

Private: lfverify.io._sealed_records and lfverify.io._output_folder (read_sealed's and _claim's comparisons are
planted with one-line variants; the public names call them through these modules).
"""

from __future__ import annotations

import json

import pytest

import lfverify.io._output_folder as output_folder
import lfverify.io._sealed_records as sealed
from lfverify.io import MARKER, DamagedRecord, claim_output_folder, seal
from planted import planted as mutant

pytestmark = pytest.mark.claims("package:files")

RECORD = {"study": "toy", "rows": [1, 2]}


def _damage(read, path) -> str:
    try:
        read(path)
    except DamagedRecord as exc:
        return str(exc)
    raise AssertionError(f"{path} was read as sound")


def check_read_sealed(read_sealed, tmp_path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(seal(RECORD)))
    assert read_sealed(path) == seal(RECORD)  # the control
    path.write_text(json.dumps(RECORD))  # the hash deleted
    assert "has no content hash" in _damage(read_sealed, path)
    assert read_sealed(path, unsealed_ok=True) == RECORD
    path.write_text(json.dumps({k: v for k, v in seal(RECORD).items() if k != "rows"}))  # an entry deleted
    assert "does not match" in _damage(read_sealed, path)


def test_a_record_missing_its_hash_or_an_entry_is_damaged(tmp_path):
    check_read_sealed(sealed.read_sealed, tmp_path)


@pytest.mark.parametrize("old, new", [
    ("raise DamagedRecord(path, f\"has no content hash ({HASH_KEY!r})\")", "return record"),
    ("if stored != content_hash(record):", "if False:"),
])
def test_companion_hash_check_fails_when_what_is_missing_is_read_as_sound(tmp_path, old, new):
    with pytest.raises(AssertionError):
        check_read_sealed(mutant(sealed.read_sealed, old, new), tmp_path)


def _refusal(claim, path, **kw) -> str:
    try:
        claim(path, **kw)
    except ValueError as exc:
        return str(exc)
    raise AssertionError(f"{path} was claimed with {kw}")


def check_claim(claim, tmp_path) -> None:
    out = tmp_path / "out"
    claim(out, command="simulate toy", fingerprint="f" * 16, settings="seed 0")
    (out / "summary.json").write_text("{}\n")
    claim(out, command="simulate toy", fingerprint="f" * 16, settings="seed 0")  # the control: the same run
    marker = json.loads((out / MARKER).read_text())
    del marker["fingerprint"]
    (out / MARKER).write_text(json.dumps(marker))
    assert "holds the results of another run" in _refusal(claim, out, command="simulate toy", fingerprint="f" * 16)
    del marker["command"]
    (out / MARKER).write_text(json.dumps(marker))
    assert "is not an lfverify ownership marker" in _refusal(claim, out, command="simulate toy",
                                                             fingerprint="f" * 16)


def test_an_owner_marker_missing_its_fingerprint_or_command_is_refused(tmp_path):
    check_claim(claim_output_folder, tmp_path)


def test_companion_owner_check_fails_when_a_missing_fingerprint_reads_as_this_runs(tmp_path, monkeypatch):
    monkeypatch.setattr(output_folder, "_claim", mutant(output_folder._claim, 'owner.get("fingerprint") != fingerprint',
                                                        'owner.get("fingerprint", fingerprint) != fingerprint'))
    with pytest.raises(AssertionError):
        check_claim(output_folder.claim_output_folder, tmp_path)
