"""The pages of docs/ stay true, as README.md does (tests/documents/test_readme.py): their examples run, the commands
they quote parse, the paths and ``lfverify`` names they mention exist, their links resolve, the module map is
complete, and the API reference documents exactly the public API.  The site shows the statements (README, ERRATA,
FINDINGS and every document of proofs/) as pages, each included from its source by one page, with their mathematics.

Oracles: the real command-line parser, the file tree, ``importlib``, the wings' ``__all__``.  Each checker of
tests/documents/doc_checks.py is fed a planted bad page below and shown to report it.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from pathlib import Path

import pytest
from doc_checks import (
    DOCS,
    README,
    REPO,
    command_problems,
    dollar_math,
    inclusion_problems,
    link_problems,
    math_settings_problems,
    name_problems,
    path_problems,
    python_block_problems,
    site_pages,
    statement_files,
)

pytestmark = pytest.mark.claims("package:documentation")

PAGES = sorted(DOCS.glob("*.md"))
#: Every page a user reads: README and the pages of docs/ (docs/cli.md included: it is generated, and checked too).
ALL_PAGES = [README, *PAGES]


def _id(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


@functools.cache
def _apigen():
    """docs/apigen.py, the API reference's generator (a script of docs/, not a module of the package)."""
    spec = importlib.util.spec_from_file_location("apigen", DOCS / "apigen.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pages_exist():
    assert {p.name for p in PAGES} >= {"index.md", "cli.md", "commands.md", "estimators.md", "usage.md",
                                        "module-map.md", "reliability.md", "performance.md", "testing.md"}


# ------------------------------------------------------------------ python blocks
@pytest.mark.parametrize("page", PAGES, ids=_id)
def test_python_blocks_run(page, tmp_path, monkeypatch):
    """Oracle: the interpreter.  README's blocks are run by tests/documents/test_readme.py."""
    monkeypatch.chdir(tmp_path)
    assert python_block_problems(page.read_text(), _id(page)) == []


def test_python_checker_catches_a_failing_block_and_a_marker_without_reason():
    page = ("```python\nx = 1\n```\n\ntext\n\n```python\nassert x == 2, 'x is 1'\n```\n\n<!-- not run: -->\n"
            "```python\nraise SystemExit(1)\n```\n")
    assert python_block_problems(page, "planted.md") == [
        "planted.md: a block is marked 'not run' without a reason",
        "planted.md: its Python blocks raise AssertionError: x is 1 (line 2)"]
    skipped = "<!-- not run: it needs a Dask cluster -->\n```python\nraise SystemExit(1)\n```\n"
    assert python_block_problems(skipped, "planted.md") == []


# ------------------------------------------------------------------ quoted commands
@pytest.mark.parametrize("page", ALL_PAGES, ids=_id)
def test_quoted_commands_parse(page):
    """Oracle: ``lfverify``'s own argument parser."""
    assert command_problems(page.read_text()) == []


def test_command_checker_catches_unknown_options_commands_and_placeholders():
    page = ("Run `lfverify verify --fast`, then `lfverify simulate NAME [--quick|--slow] --out DIR`,\n"
            "`lfverify simulate` and `lfverify bench --out WHERE`; `lfverify metrics [--beta B --alpha A]`,\n"
            "`lfverify COMMAND --help` and `lfverify` are fine.\n\n"
            "```sh\npip install . && lfverify prove   # a typo\n```\n")
    assert command_problems(page) == [
        "`lfverify verify --fast` (as `lfverify verify --fast`): lfverify: error: unrecognized arguments: --fast",
        "`lfverify simulate NAME [--quick|--slow] --out DIR` (as `lfverify simulate all --slow --out out`): "
        "lfverify: error: unrecognized arguments: --slow",
        "`lfverify simulate` (as `lfverify simulate`): lfverify simulate: error: the following arguments are "
        "required: --out",
        "`lfverify bench --out WHERE`: unknown placeholder WHERE",
        "`lfverify prove` (as `lfverify prove`): lfverify: error: argument COMMAND: invalid choice: 'prove' "
        "(choose from 'verify', 'proofs', 'metrics', 'bench', 'simulate', 'data')"]


# ------------------------------------------------------------------ repository paths
@pytest.mark.parametrize("page", ALL_PAGES, ids=_id)
def test_named_paths_exist(page):
    """Oracle: the file tree."""
    assert path_problems(page.read_text()) == []


def test_path_checker_catches_missing_paths(tmp_path):
    (tmp_path / "lfverify" / "core").mkdir(parents=True)
    (tmp_path / "lfverify" / "core" / "_metrics.py").write_text("")
    page = ("`lfverify/core/_metrics.py`, `lfverify/core/_metric.py`, `benchmark/x.py`, `lfverify/*/_m*.py`,\n"
            "`lfverify/*/_z*.py`, `results/<study>/summary.json`, `tools/x/README.md`, `lfverify-report/REPORT.md`,\n"
            "`n^-1/2`, `--render proofs/`\n")
    assert path_problems(page, repo=tmp_path) == [
        "`lfverify/core/_metric.py`: no such path in the repository",
        "`benchmark/x.py`: no such path in the repository",
        "`lfverify/*/_z*.py`: no such path in the repository",
        "`results/<study>/summary.json`: no such path in the repository",
        "`tools/x/README.md`: no such path in the repository"]


# ------------------------------------------------------------------ lfverify names
#: Private names that a page shows only because a command's ``--help`` prints them (docs/cli.md is that output,
#: generated and checked by tests/app/test_cli_surface.py).  Fix the help string in lfverify/app/, regenerate
#: docs/cli.md and delete the entry: an entry no longer needed fails the test below.
HELP_TEXT_PRIVATE_NAMES: dict = {}


@pytest.mark.parametrize("page", ALL_PAGES, ids=_id)
def test_mentioned_names_are_public_and_importable(page):
    """Oracle: ``importlib``; a name with a ``_private`` part is refused (but the known help texts above)."""
    excused = {f"{name}: not a public name" for (where, name) in HELP_TEXT_PRIVATE_NAMES if where == _id(page)}
    problems = set(name_problems(page.read_text()))
    assert sorted(problems - excused) == []
    assert sorted(excused - problems) == [], "no longer printed: delete the entry of HELP_TEXT_PRIVATE_NAMES"


def test_name_checker_catches_private_and_unknown_names():
    page = ("`lfverify.core.f1`, lfverify.core._metrics.f1, `lfverify.learn.fit_everything` and\n"
            "```python\nfrom lfverify.app._cli import build_parser\nlfverify.proofs.table1\n```\n")
    assert name_problems(page) == ["lfverify.app._cli: not a public name",
                                   "lfverify.core._metrics.f1: not a public name",
                                   "lfverify.learn.fit_everything: not importable"]


# ------------------------------------------------------------------ links
@pytest.mark.parametrize("page", ALL_PAGES, ids=_id)
def test_links_resolve(page):
    """Oracle: the file tree and the headings of the linked pages (GitHub's anchors)."""
    assert link_problems(page) == []


def test_link_checker_catches_dead_links_and_anchors(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A page\n\n## What `lfverify verify` reports\n")
    (tmp_path / "tools").mkdir()
    page = tmp_path / "docs" / "b.md"
    text = ("[ok](a.md#what-lfverify-verify-reports) [top](a.md) [web](https://example.org/x.md)\n"
            "[dead](c.md) [anchor](a.md#nowhere) [folder](../tools) [outside](../../x.md)\n"
            "[missing](../tools/x.md) `[not a link](z.md)`\n\n```md\n[not a link](z.md)\n```\n")
    assert link_problems(page, text, repo=tmp_path) == [
        "c.md: no such file",
        "a.md#nowhere: no heading #nowhere in docs/a.md",
        "../tools: a folder, not a file",
        "../../x.md: outside the repository",
        "../tools/x.md: no such file"]


# ------------------------------------------------------------------ the statements as pages of the site
def test_every_statement_is_a_page_of_the_site():
    """Oracle: the file tree (README.md, ERRATA.md, FINDINGS.md and every proofs/*.md, listed afresh, so a new
    claim's file counts at once) and the ``{include}`` directives of the site's pages: each statement is included
    whole by exactly one page, from its source."""
    pages = {page: page.read_text() for page in site_pages()}
    assert inclusion_problems(statement_files(), pages) == []


def test_inclusion_checker_catches_a_forgotten_a_doubled_and_a_partial_statement(tmp_path):
    (tmp_path / "proofs").mkdir()
    for name in ("README.md", "ERRATA.md", "FINDINGS.md", "proofs/README.md", "proofs/lemma-1.md",
                 "proofs/theorem-9.md"):
        (tmp_path / name).write_text("# x\n")
    files = statement_files(tmp_path)
    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "README.md", "ERRATA.md", "FINDINGS.md", "proofs/README.md", "proofs/lemma-1.md", "proofs/theorem-9.md"]
    docs = tmp_path / "docs"

    def include(target, *options):
        return "\n".join(["% a wrapper", "", f"```{{include}} {target}", *options, "```", ""])

    pages = {docs / "project" / "readme.md": include("../../README.md"),
             docs / "project" / "errata.md": include("../../ERRATA.md", ":heading-offset: 1"),
             docs / "project" / "findings.md": include("../../FINDINGS.md", ":start-after: <!-- site -->"),
             docs / "proofs" / "index.md": include("../../proofs/README.md") + "\n```{toctree}\n:glob:\n\n*\n```\n",
             docs / "proofs" / "lemma-1.md": include("../../proofs/lemma-1.md"),
             docs / "proofs" / "lemma-one.md": include("../../proofs/lemma-1.md"),
             docs / "proofs" / "theorem-8.md": "~~~{include} ../../proofs/theorem-8.md\n~~~\n"}
    assert inclusion_problems(files, pages, repo=tmp_path) == [
        "docs/project/findings.md: includes FINDINGS.md with start-after, not whole",
        "docs/proofs/theorem-8.md: includes proofs/theorem-8.md, no such file",
        "proofs/lemma-1.md: included by 2 pages of the site (docs/proofs/lemma-1.md, docs/proofs/lemma-one.md)",
        "proofs/theorem-9.md: included by 0 pages of the site"]
    # the site as it is, one claim's page deleted
    pages = {page: page.read_text() for page in site_pages() if page != DOCS / "proofs" / "theorem-1.md"}
    assert inclusion_problems(statement_files(), pages) == ["proofs/theorem-1.md: included by 0 pages of the site"]


def test_the_site_renders_the_statements_mathematics():
    """Oracle: docs/conf.py's settings, read with ``ast`` (Sphinx is not needed): MyST's dollarmath and amsmath,
    ``$$...$$`` inside a paragraph read as math, a dollar next to a space not, MathJax as the renderer."""
    assert math_settings_problems((DOCS / "conf.py").read_text()) == []


def test_math_settings_checker_catches_math_turned_off():
    conf = ('extensions = ["myst_parser", "sphinx.ext.imgmath"]\nmyst_enable_extensions = ["amsmath"]\n'
            "myst_dmath_allow_space = True\n")
    assert math_settings_problems(conf) == [
        "myst_enable_extensions: no dollarmath",
        "myst_dmath_double_inline is not True: $$...$$ inside a paragraph is not math",
        "myst_dmath_allow_space is not False: '$ ... $' around spaces is read as math",
        "the math renderer is not MathJax"]
    assert math_settings_problems('extensions = []\nmyst_enable_extensions = ["dollarmath", "amsmath"]\n'
                                  "myst_dmath_double_inline = True\nmyst_dmath_allow_space = False\n") == [
        "extensions: no myst_parser"]


#: The pages written without mathematics: a dollar there is a dollar (``$LFVERIFY_DATASETS``), never math.
PAGES_WITHOUT_MATH = [README, REPO / "ERRATA.md", REPO / "FINDINGS.md", *PAGES]


@pytest.mark.parametrize("page", PAGES_WITHOUT_MATH, ids=_id)
def test_dollars_outside_the_proofs_are_not_read_as_math(page):
    """Oracle: MyST's dollarmath rule with the site's settings (``$x$``: no space inside either dollar), applied
    to the page's prose; its code is never math.  Write a dollar meant as text in code, or escape it (``\\$``)."""
    assert dollar_math(page.read_text()) == []


def test_dollar_math_checker_catches_math_in_prose_and_not_shell_variables():
    page = ("Set `$LFVERIFY_DATASETS`, or $LFVERIFY_DATASETS, else $HOME; costs $ 3 $, or \\$5 and \\$6.\n\n"
            "```sh\necho $A$B\n```\n\nBut $x_1$ and $$y$$ are math, and so is $PATH/$\n")
    assert dollar_math(page) == ["$x_1$", "$$y$$", "$PATH/$"]


def _quoted_versions(text: str) -> list[str]:
    import re

    return re.findall(r"\(lfverify (\d+\.\d+\.\d+)\b", text)


def test_a_quoted_report_names_the_current_version():
    """docs/commands.md quotes a real REPORT.md; its header names the version that wrote it, which must be this one
    (issue 44: the excerpt said 0.1.0 after the version moved on)."""
    import lfverify

    versions = _quoted_versions((REPO / "docs" / "commands.md").read_text(encoding="utf-8"))
    assert versions and set(versions) == {lfverify.__version__}


def test_version_checker_catches_an_old_version():
    assert _quoted_versions("Generated by `lfverify verify --quick` (lfverify 0.1.0, Python 3.11.7)") == ["0.1.0"]
