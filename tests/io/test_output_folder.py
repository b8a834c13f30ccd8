"""lfverify.io._output_folder: the run fingerprint and the owner marker, against their documented formats (issue 17).

Oracles: the canonical JSON text of a settings dict typed by hand and hashed with hashlib (the docstring's rule:
SHA-256 of the JSON with sorted keys, other values by repr, first 16 hex digits); the marker file's text typed by
hand (one-space indented JSON, a final newline); the file system for what counts as results.

Private: lfverify.io._output_folder._holds_results, the rule that decides whether a folder holds results, pinned on its
own by a mutation-testing kill.
"""

import hashlib
import json
from pathlib import Path

import pytest

from lfverify import __version__
from lfverify.io import MARKER, claim_output_folder, owner_of, settings_fingerprint

pytestmark = pytest.mark.claims("package:files")


def test_fingerprint_is_the_sha256_of_the_canonical_text_with_other_values_by_repr():
    """Kills: output_folder.x_settings_fingerprint__mutmut_7 (``default=repr`` dropped: a Path raises)."""
    settings = {"seed": 7, "out": Path("/x"), "mode": "quick", "sizes": [100, 200]}
    text = '{"mode": "quick", "out": "PosixPath(\'/x\')", "seed": 7, "sizes": [100, 200]}'
    assert settings_fingerprint(settings) == hashlib.sha256(text.encode()).hexdigest()[:16]
    assert settings_fingerprint(dict(reversed(settings.items()))) == settings_fingerprint(settings)
    assert settings_fingerprint({**settings, "seed": 8}) != settings_fingerprint(settings)


def test_the_marker_file_is_the_documented_json(tmp_path):
    """Kills: output_folder.x__write_marker__mutmut_3 ("NOTE") and _23 (``indent=1`` dropped)."""
    out = tmp_path / "run"
    claim_output_folder(out, command="simulate calibration", fingerprint="0123456789abcdef",
                        settings="mode smoke, seed 3")
    expected = {"note": "this folder is written by `lfverify simulate calibration`; other commands and other "
                        "settings refuse it",
                "command": "simulate calibration", "fingerprint": "0123456789abcdef",
                "settings": "mode smoke, seed 3", "lfverify_version": __version__}
    text = (out / MARKER).read_text()
    assert text == "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in expected.items()) + "\n}\n"
    assert owner_of(out) == expected
    assert [p.name for p in out.iterdir() if not p.name.startswith(".")] == [MARKER]  # and the hidden lock file


@pytest.mark.parametrize("layout, holds", [
    ({}, False),
    ({".hidden": "x"}, False),
    ({".cache/records.json": "x"}, False),  # a hidden folder's files are not results
    ({"records.csv": "x"}, True),
    ({"sub/" + MARKER: "{}"}, True),  # a marker's name deeper down is a result file like any other
    ({"sub/.hidden": "x", "sub/a.json": "x"}, True),
])
def test_what_counts_as_results_in_a_folder(tmp_path, layout, holds):
    """Oracle: the rule 'a file other than the marker (and hidden files), at any depth', one case per clause.

    Kills: output_folder.x__holds_results__mutmut_14 (``Path(None) == path``: the top-level marker counted)."""
    from lfverify.io._output_folder import _holds_results

    out = tmp_path / "run"
    out.mkdir()
    (out / MARKER).write_text("{}")
    for name, text in layout.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    assert _holds_results(out) is holds


@pytest.mark.parametrize("study", [7, ["consistency"], {"name": "x"}, True])
def test_a_manifest_whose_study_is_not_a_name_is_not_lfverifys(tmp_path, study):
    """An unmarked folder is taken as a study's only when its run.json names the study by a non-empty str (found by
    the seed-2027 mutation run: `and` read as `or` took any truthy value for a name).  Companion: the same folder with
    the study named by the str "7" is claimed by `simulate 7`."""
    folder = tmp_path / "run"
    folder.mkdir()
    fingerprint = settings_fingerprint({"a": 1})
    (folder / "run.json").write_text(json.dumps({"study": study, "fingerprint": fingerprint}))
    with pytest.raises(ValueError, match="was not written by lfverify"):
        claim_output_folder(folder, command=f"simulate {study}", fingerprint=fingerprint)
    (folder / "run.json").write_text(json.dumps({"study": "7", "fingerprint": fingerprint}))
    assert claim_output_folder(folder, command="simulate 7", fingerprint=fingerprint) == folder
