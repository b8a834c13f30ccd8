"""lfverify.io._sealed_records: every way a record read back can be damaged, named exactly (issue 17).

Oracles: SHA-256 of the canonical JSON text computed here with hashlib (sorted keys, no whitespace, the hash
left out, as the module docstring specifies); the exact reason of each damaged case written by hand from the
docstring's list; the file system for set_aside.
"""

import hashlib
import json

import pytest

from lfverify.io import DamagedRecord, content_hash, read_sealed, report_damaged, seal, set_aside

pytestmark = pytest.mark.claims("package:files")

RECORD = {"task": 3, "rows": [[1, 0.5], [2, -0.25]], "name": "ä"}


def _canonical_hash(record):
    body = {k: v for k, v in record.items() if k != "sha256"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
                          .encode("ascii")).hexdigest()


def test_seal_adds_the_sha256_of_the_canonical_text_and_read_sealed_returns_the_record(tmp_path):
    sealed = seal(dict(RECORD))
    assert sealed["sha256"] == _canonical_hash(RECORD) == content_hash(sealed) == content_hash(RECORD)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(sealed, indent=3), encoding="utf-8")  # layout does not matter, content does
    assert read_sealed(path) == sealed


@pytest.mark.parametrize("content, reason", [
    (b"\xff\xfe{}", "is not UTF-8 text (byte 0)"),
    (b'{"a": 1', "is not valid JSON (Expecting ',' delimiter at line 1)"),
    (b"[1, 2]", "holds a JSON list, not an object"),
    (b'"text"', "holds a JSON str, not an object"),
    (b'{"task": 3}', "has no content hash ('sha256')"),
    (b'{"task": 3, "sha256": "0000"}', "its content does not match its sha256 (truncated or edited)"),
    (b"[" * 100000 + b"]" * 100000, "is nested too deeply to be a record"),
])
def test_each_kind_of_damage_is_named_with_the_file(tmp_path, content, reason):
    path = tmp_path / "r.json"
    path.write_bytes(content)
    with pytest.raises(DamagedRecord) as caught:
        read_sealed(path)
    assert (caught.value.path, caught.value.reason) == (path, reason)
    assert str(caught.value) == f"record {path} is damaged: {reason}"
    assert isinstance(caught.value, ValueError)


def test_an_unreadable_record_names_the_file_and_the_operating_systems_reason(tmp_path):
    """Kills: sealed_records.x_read_sealed__lfv_args_1 (``DamagedRecord(reason, path)``)."""
    folder = tmp_path / "r.json"
    folder.mkdir()  # reading a folder as a file: IsADirectoryError
    with pytest.raises(DamagedRecord) as caught:
        read_sealed(folder)
    assert caught.value.path == folder
    assert caught.value.reason == "cannot be read (Is a directory)"
    missing = tmp_path / "missing.json"
    with pytest.raises(DamagedRecord) as caught:
        read_sealed(str(missing))
    assert (caught.value.path, caught.value.reason) == (missing, "cannot be read (No such file or directory)")


def test_an_unsealed_record_is_accepted_only_when_asked(tmp_path):
    path = tmp_path / "r.json"
    path.write_text('{"task": 3}')
    assert read_sealed(path, unsealed_ok=True) == {"task": 3}
    edited = seal({"task": 3})
    edited["task"] = 4
    path.write_text(json.dumps(edited))
    with pytest.raises(DamagedRecord, match="does not match its sha256"):
        read_sealed(path, unsealed_ok=True)  # a sealed record is always checked


def test_a_damaged_record_is_set_aside_replacing_an_older_one_and_reported_in_one_line(tmp_path, capsys):
    path = tmp_path / "task-3.json"
    (tmp_path / "task-3.json.damaged").write_text("older")
    path.write_text("[1]")
    assert set_aside(path) == tmp_path / "task-3.json.damaged"
    assert not path.exists() and (tmp_path / "task-3.json.damaged").read_text() == "[1]"
    path.write_text('{"x": 1}')
    with pytest.raises(DamagedRecord) as caught:
        read_sealed(path)
    report_damaged(caught.value, "task 3")
    assert capsys.readouterr().err == (f"lfverify: record {path} is damaged: has no content hash ('sha256'); moved "
                                       "to task-3.json.damaged and recomputing task 3\n")
    assert (tmp_path / "task-3.json.damaged").read_text() == '{"x": 1}'
