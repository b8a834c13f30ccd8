"""README.md stays true: its Python examples run as written, its set-up lines are what CI runs, it stays short
enough to be read to the end, and it links every page of docs/ (where its other sections moved).  The commands,
paths, names and links README quotes are checked with the pages' in tests/documents/test_docs.py.

Each checker (tests/documents/doc_checks.py) is also fed a planted bad README and shown to report it.
"""

import re

import pytest
from doc_checks import DOCS, README, README_MAX_BYTES, readme_problems, unlinked_pages

pytestmark = pytest.mark.claims("package:documentation")

TEXT = README.read_text()


def test_python_examples_run_in_order(tmp_path, monkeypatch):
    """Every ```python block, concatenated in order (later blocks continue earlier ones), runs without error."""
    blocks = re.findall(r"```python\n(.*?)```", TEXT, re.S)
    assert len(blocks) >= 1
    monkeypatch.chdir(tmp_path)
    exec(compile("\n".join(blocks), "README.md", "exec"), {})


def test_readme_is_short_and_its_first_block_is_what_ci_runs():
    """.ci/run reads the first block's two lines; they must install, verify, and run pytest."""
    assert readme_problems(TEXT) == []


def test_readme_checker_catches_a_long_readme_and_a_changed_first_block():
    planted = "# x\n\n```sh\npip install . && lfverify verify\npython -m pytest\necho extra\n```\n"
    assert readme_problems(planted) == ["the first ```sh block has 3 lines; CI runs exactly two"]
    planted = "```sh\npip install .\npip install .[test] && python -m pytest\n```\n" + "x" * README_MAX_BYTES
    assert readme_problems(planted) == [
        f"README.md is {len(planted)} bytes; at most {README_MAX_BYTES}",
        "line 1 must install and run `lfverify verify`: pip install ."]


def test_readme_links_every_page():
    """Each section moved out of README is one click away: README links every page of docs/ (the site's front
    page aside)."""
    assert unlinked_pages(TEXT, sorted(DOCS.glob("*.md"))) == []


def test_unlinked_page_checker_catches_a_missing_link():
    pages = sorted(DOCS.glob("*.md"))
    planted = TEXT.replace("(docs/reliability.md)", "(docs/reliability.md#nowhere)").replace(
        "[performance](docs/performance.md)", "performance")
    assert unlinked_pages(planted, pages) == ["performance.md"]
