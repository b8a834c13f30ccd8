"""The pages of docs/ stay true, as README.md does (tests/test_readme.py): their examples run, the commands they
quote parse, the paths and ``lfverify`` names they mention exist, their links resolve, the module map is complete,
and the API reference documents exactly the public API.

Oracles: the real command-line parser, the file tree, ``importlib``, the wings' ``__all__``.  Each checker of
tests/doc_checks.py is fed a planted bad page below and shown to report it.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import re
import sys
import types
from pathlib import Path

import pytest

import lfverify
from doc_checks import (
    DOCS,
    README,
    REPO,
    command_problems,
    link_problems,
    module_map_problems,
    name_problems,
    path_problems,
    pending_links,
    python_block_problems,
)

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
    """Oracle: the interpreter.  README's blocks are run by tests/test_readme.py."""
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
        "required: name, --out",
        "`lfverify bench --out WHERE`: unknown placeholder WHERE",
        "`lfverify prove` (as `lfverify prove`): lfverify: error: argument COMMAND: invalid choice: 'prove' "
        "(choose from 'verify', 'proofs', 'metrics', 'bench', 'simulate')"]


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
    assert path_problems(page, repo=tmp_path, pending={"tools/x/README.md": "later"}) == [
        "`lfverify/core/_metric.py`: no such path in the repository",
        "`benchmark/x.py`: no such path in the repository",
        "`lfverify/*/_z*.py`: no such path in the repository",
        "`results/<study>/summary.json`: no such path in the repository"]


# ------------------------------------------------------------------ lfverify names
#: Private names that a page shows only because a command's ``--help`` prints them (docs/cli.md is that output,
#: generated and checked by tests/test_cli_surface.py).  Fix the help string in lfverify/app/, regenerate
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
    (tmp_path / "docs" / "d.md").write_text("# arrived\n")
    (tmp_path / "tools").mkdir()
    page = tmp_path / "docs" / "b.md"
    text = ("[ok](a.md#what-lfverify-verify-reports) [top](a.md) [web](https://example.org/x.md)\n"
            "[dead](c.md) [anchor](a.md#nowhere) [folder](../tools) [outside](../../x.md)\n"
            "[pending](../tools/x.md) [arrived](d.md) `[not a link](z.md)`\n\n```md\n[not a link](z.md)\n```\n")
    assert link_problems(page, text, repo=tmp_path, pending={"tools/x.md": "later", "docs/d.md": "later"}) == [
        "c.md: no such file",
        "a.md#nowhere: no heading #nowhere in docs/a.md",
        "../tools: a folder, not a file",
        "../../x.md: outside the repository",
        "d.md: exists now; delete its line from docs/pending_links.txt"]


def test_pending_links_are_the_one_listed_file():
    """docs/pending_links.txt is the only place a missing path is excused; each entry gives a reason."""
    for path, reason in pending_links().items():
        assert reason, f"{path}: give a reason in docs/pending_links.txt"
        assert not (REPO / path).exists(), f"{path} exists now: delete its line from docs/pending_links.txt"


# ------------------------------------------------------------------ the module map
def test_module_map_lists_every_wing_and_module():
    """Oracle: the package's file tree (every ``.py`` file, each wing's ``__init__.py`` included)."""
    text = (DOCS / "module-map.md").read_text()
    assert module_map_problems(text, Path(lfverify.__file__).parent) == []
    for wing in lfverify._WINGS:
        assert f"## lfverify.{wing}\n" in text or f"lfverify/{wing}/__init__.py" in text


def test_module_map_checker_catches_a_missing_module(tmp_path):
    package = tmp_path / "pkg"
    (package / "core").mkdir(parents=True)
    for name in ("__init__.py", "core/__init__.py", "core/_a.py", "core/_b.py"):
        (package / name).write_text("")
    text = "| `pkg/__init__.py` | x | - |\n| `pkg/core/__init__.py` | x | - |\n| `pkg/core/_a.py` | x | - |\n"
    assert module_map_problems(text, package) == ["pkg/core/_b.py: no row in the module map"]


# ------------------------------------------------------------------ the API reference
def _documented(page: str) -> set[str]:
    return set(re.findall(r"^\.\. (?:autofunction|autoclass|py:data):: (\w+)$", page, re.M)) | {
        name.rpartition(".")[2] for name in re.findall(r"^\.\. automodule:: ([\w.]+)$", page, re.M)}


def api_page_problems(wing: str, page: str) -> list[str]:
    """The page of ``wing`` documents exactly its ``__all__`` (and the public modules of lfverify.proofs), under
    the wing's name, and names no private module."""
    module = importlib.import_module(f"lfverify.{wing}")
    expected = set(module.__all__) | {wing}
    if wing == "proofs":
        expected |= set(module.MODULES)
    documented = _documented(page)
    problems = [f"lfverify.{wing}.{name}: exported, not documented" for name in sorted(expected - documented)]
    problems += [f"lfverify.{wing}.{name}: documented, not exported" for name in sorted(documented - expected)]
    private = sorted(set(re.findall(r"lfverify(?:\.[A-Za-z]\w*)*\._[A-Za-z]\w*", page)))
    problems += [f"names a private module: {name}" for name in private]
    return problems


@functools.cache
def _api_pages() -> dict[str, str]:
    return _apigen().api_pages()


def test_api_reference_has_one_page_per_wing():
    assert set(_api_pages()) == {"index.rst", *(f"{w}.rst" for w in lfverify._WINGS)}
    assert "".join(f"   {w}\n" for w in lfverify._WINGS) in _api_pages()["index.rst"]


@pytest.mark.parametrize("wing", lfverify._WINGS)
def test_api_reference_documents_exactly_the_public_api(wing):
    """Oracle: the wing's ``__all__``, read by importing it."""
    assert api_page_problems(wing, _api_pages()[f"{wing}.rst"]) == []


def test_api_checker_catches_a_missing_name_and_a_private_module():
    page = _apigen().wing_page("parallel")
    planted = page.replace(".. autofunction:: make_executor\n", "") + "\n.. automodule:: lfverify.parallel._executors\n"
    assert api_page_problems("parallel", planted) == [
        "lfverify.parallel.make_executor: exported, not documented",
        "lfverify.parallel._executors: documented, not exported",
        "names a private module: lfverify.parallel._executors"]


def test_api_generator_refuses_a_private_export(monkeypatch):
    apigen = _apigen()
    planted = types.ModuleType("lfverify.planted")
    planted.__all__ = ["visible", "_hidden"]
    monkeypatch.setitem(sys.modules, "lfverify.planted", planted)
    with pytest.raises(ValueError, match=r"lfverify.planted.__all__ exports private names: \['_hidden'\]"):
        apigen.public_names("planted")


def test_api_generator_reads_constant_comments():
    """Oracle: the ``#:`` comment typed above DEFAULT_SEED in its defining module, read with ``ast``."""
    source = inspect.getsource(importlib.import_module("lfverify.core._seeding"))
    tree = ast.parse(source)
    line = next(node.lineno for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                and "DEFAULT_SEED" in ast.unparse(node).split("=")[0])
    comment = []
    for text in reversed(source.splitlines()[:line - 1]):
        if not text.startswith("#:"):
            break
        comment.insert(0, text[2:].strip())
    assert comment and _apigen().data_comment("core", "DEFAULT_SEED") == comment


# ------------------------------------------------------------------ docstrings name only public things
def _public_docstrings():
    """(where, docstring) of every wing, every name of its ``__all__`` and the members lfverify defines on them,
    and the public per-claim modules of lfverify.proofs with their functions and classes."""
    apigen = _apigen()
    seen = set()

    def walk(obj, where):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if inspect.ismodule(obj) or inspect.isclass(obj) or inspect.isroutine(obj):
            if obj.__doc__:
                yield where, inspect.getdoc(obj)
        if inspect.isclass(obj):
            for name, member in vars(obj).items():
                function = getattr(member, "fget", None) or getattr(member, "__func__", None) or member
                if (not name.startswith("_") or name == "__init__") and callable(function) \
                        and getattr(function, "__module__", "").startswith("lfverify"):
                    yield from walk(function, f"{where}.{name}")
        if inspect.ismodule(obj) and obj.__name__.count(".") == 2:  # a per-claim module of lfverify.proofs
            for name, member in vars(obj).items():
                if not name.startswith("_") and getattr(member, "__module__", None) == obj.__name__:
                    yield from walk(member, f"{obj.__name__}.{name}")

    for wing in apigen.wings():
        module = importlib.import_module(f"lfverify.{wing}")
        yield from walk(module, module.__name__)
        for name in module.__all__:
            yield from walk(getattr(module, name), f"{module.__name__}.{name}")
        for qualified in apigen.public_modules(wing):
            yield from walk(importlib.import_module(qualified), qualified)


def docstring_name_problems(docstrings) -> list[str]:
    return [f"{where}: {problem}" for where, doc in docstrings for problem in name_problems(doc)]


def test_docstrings_name_only_public_importable_things():
    """Oracle: ``importlib`` (the same check as the pages'), over every docstring the API reference shows."""
    docstrings = list(_public_docstrings())
    assert len(docstrings) > 300
    assert docstring_name_problems(docstrings) == []


def test_docstring_checker_catches_a_private_name():
    planted = [("lfverify.core.f1", "Same as :func:`lfverify.core._metrics.f1`, see lfverify.core.f2.")]
    assert docstring_name_problems(planted) == ["lfverify.core.f1: lfverify.core._metrics.f1: not a public name",
                                                "lfverify.core.f1: lfverify.core.f2: not importable"]
