"""The package's floor plan: each subpackage ("wing") imports only the wings below it, with no cycles and no
function-level imports between wings, and enters another wing by its front door only: its ``__init__`` and its public
names (no private module, private name or private attribute of another wing).

Oracle: the import statements of every module, read with :mod:`ast` (nothing is imported), against the order of
:data:`WINGS`, which is also the order the package docstring of ``lfverify/__init__.py`` gives.  The checker is
shown to fail on a planted package with an upward import, a function-level import and a cycle.  The rooms' sizes too:
no function over 80 lines and no module over 800 (read with :mod:`ast`; a planted long function and module fail).
The tests enter by the same front doors: a test module that imports a private module or name says why, in a
"Private:" paragraph of its docstring naming each one (read with :mod:`ast`; planted test modules fail).
And the calls: no call of a function or class of the same module passes more than four arguments by position
(data-table rows excepted; a planted call with five fails).
"""

from __future__ import annotations

import ast
import graphlib
import re
from pathlib import Path

import pytest

import lfverify

pytestmark = pytest.mark.claims("package:documentation")

PACKAGE = Path(lfverify.__file__).parent

#: Bottom to top: a wing may import itself and the wings before it.
WINGS = ("paper", "io", "core", "parallel", "learn", "proofs", "simulations", "testing", "experiments", "app")
#: Modules of the package root: the version (a leaf every wing may import), the lazy public façade and ``-m``.
ROOT_MODULES = {"lfverify", "lfverify._version", "lfverify.__main__"}


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, module: str):
    """(imported module, line, function-level?) for every import of the package in ``path``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    top = module.split(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nested = {id(node) for scope in ast.walk(tree) if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                           ast.ClassDef, ast.Lambda))
              for node in ast.walk(scope) if node is not scope}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names, bound = [alias.name for alias in node.names], ()
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names = [".".join(base + ([node.module] if node.module else []))]
            else:
                names = [node.module]
            bound = tuple((alias.name, alias.asname or alias.name) for alias in node.names)
        else:
            continue
        for name in names:
            if name == top or name.startswith(top + "."):
                yield name, node.lineno, id(node) in nested, bound


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_attributes(path: Path, bound: set) -> list[tuple[int, str, str]]:
    """(line, name, attribute) of every ``name._private`` in ``path`` where ``name`` was imported from another
    wing (a private method or attribute reached through another wing's public class)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.lineno, node.value.id, node.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound
            and _private(node.attr)]


def _wing(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in WINGS else None


def floor_plan_violations(root: Path, wings=WINGS, root_modules=ROOT_MODULES) -> list[str]:
    """Every breach of the floor plan in the package at ``root``, one line each."""
    problems, graph = [], {}
    for path in sorted(root.rglob("*.py")):
        module = _module_name(path, root)
        wing = _wing(module)
        if wing is None and module not in root_modules:
            problems.append(f"{module}: belongs to no wing")
            continue
        graph.setdefault(module, set())
        from_other_wings = set()
        for target, line, nested, bound in _imports(path, module):
            where = f"{path.relative_to(root.parent)}:{line}"
            target_wing = _wing(target)
            if wing is not None and target_wing is not None and target_wing != wing:
                # the front door: another wing is entered through its __init__, and only for its public names
                if any(_private(part) for part in target.split(".")[2:]):
                    problems.append(f"{where}: {module} imports {target}, a private module of {target_wing} "
                                    f"(import from {root.name}.{target_wing})")
                for name, local in bound:
                    if _private(name):
                        problems.append(f"{where}: {module} imports the private name {name} from {target}")
                    from_other_wings.add(local)
            if module in root_modules:
                if target not in (f"{root.name}._version", f"{root.name}.app"):
                    problems.append(f"{where}: the package root imports {target} (only the version and, for "
                                    "`python -m`, the app)")
                continue
            if target_wing is None:
                if target != f"{root.name}._version":
                    problems.append(f"{where}: {module} imports {target}, which is in no wing")
                continue
            if wings.index(target_wing) > wings.index(wing):
                problems.append(f"{where}: {wing} imports {target}, a wing above it")
            if nested and target_wing != wing:
                problems.append(f"{where}: function-level import of {target} (another wing) in {module}")
            if not nested and target != module:  # a package importing its own submodules is not a cycle
                graph[module].add(target)
        for line, name, attribute in _private_attributes(path, from_other_wings):
            problems.append(f"{path.relative_to(root.parent)}:{line}: {module} uses {name}.{attribute}, a private "
                            "attribute of another wing's object")
    modules = set(graph)
    try:
        tuple(graphlib.TopologicalSorter({m: {t for t in ts if t in modules} for m, ts in graph.items()})
              .static_order())
    except graphlib.CycleError as exc:
        problems.append(f"import cycle: {' -> '.join(exc.args[1])}")
    return problems


def test_the_package_keeps_its_floor_plan():
    assert floor_plan_violations(PACKAGE) == []


def test_the_package_docstring_lists_the_wings_in_their_order():
    listed = [line.split("`")[1].split(".")[1] for line in lfverify.__doc__.splitlines()
              if line.startswith(":mod:`lfverify.")]
    assert tuple(listed) == WINGS
    assert sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()) == sorted(WINGS)


def _plant(tmp_path, files: dict) -> Path:
    root = tmp_path / "lfverify"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.mark.parametrize("files, expected", [
    ({"core/__init__.py": "", "core/_a.py": "from lfverify.learn._b import x\n", "learn/__init__.py": "",
      "learn/_b.py": "x = 1\n"},
     "lfverify/core/_a.py:1: core imports lfverify.learn._b, a wing above it"),
    ({"core/__init__.py": "", "core/_a.py": "x = 1\n", "learn/__init__.py": "",
      "learn/_b.py": "def f():\n    from lfverify.core._a import x\n    return x\n"},
     "lfverify/learn/_b.py:2: function-level import of lfverify.core._a (another wing) in lfverify.learn._b"),
    ({"core/__init__.py": "", "core/_a.py": "from lfverify.core._b import y\nx = 1\n",
      "core/_b.py": "from lfverify.core._a import x\ny = 1\n"},
     "import cycle: "),
    ({"core/__init__.py": "", "utils.py": "x = 1\n"}, "lfverify.utils: belongs to no wing"),
    ({"__init__.py": "from lfverify.core import x\n", "core/__init__.py": "x = 1\n"},
     "lfverify/__init__.py:1: the package root imports lfverify.core"),
    ({"core/__init__.py": "from lfverify.core._a import x\n", "core/_a.py": "x = 1\n", "learn/__init__.py": "",
      "learn/_b.py": "from lfverify.core._a import x\n"},
     "lfverify/learn/_b.py:1: lfverify.learn._b imports lfverify.core._a, a private module of core"),
    ({"core/__init__.py": "_y = 1\n", "learn/__init__.py": "", "learn/_b.py": "from lfverify.core import _y\n"},
     "lfverify/learn/_b.py:1: lfverify.learn._b imports the private name _y from lfverify.core"),
    ({"core/__init__.py": "class C:\n    def _f(self):\n        pass\n", "learn/__init__.py": "",
      "learn/_b.py": "from lfverify.core import C\nC._f(None)\n"},
     "lfverify/learn/_b.py:2: lfverify.learn._b uses C._f, a private attribute of another wing's object"),
])
def test_the_checker_finds_each_kind_of_breach(tmp_path, files, expected):
    """Companion: a planted package with one breach each is reported (the real package passing is not vacuous)."""
    problems = floor_plan_violations(_plant(tmp_path, files))
    assert any(p.startswith(expected) for p in problems), problems


def test_the_checker_accepts_a_clean_planted_package(tmp_path):
    root = _plant(tmp_path, {"__init__.py": "from lfverify._version import v\n", "_version.py": "v = 1\n",
                             "core/__init__.py": "from lfverify.core._a import x\n", "core/_a.py": "x = 1\n",
                             "learn/__init__.py": "", "learn/_b.py": "from lfverify.core import x\n"
                             "def f():\n    from lfverify.learn import g\n"})
    assert floor_plan_violations(root) == []


#: Issue 43's rooms a reader can hold: the longest function and module of the package (docstrings included).
MAX_FUNCTION_LINES, MAX_MODULE_LINES = 80, 800


def oversized(root: Path) -> list[str]:
    """Every function longer than :data:`MAX_FUNCTION_LINES` and module longer than :data:`MAX_MODULE_LINES` under
    ``root``, one line each."""
    problems = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_MODULE_LINES:
            problems.append(f"{path.relative_to(root.parent)}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    problems.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name}: {length} lines")
    return problems


def test_no_function_or_module_is_too_long_to_hold():
    assert oversized(PACKAGE) == []


def test_the_length_rule_names_a_planted_long_function_and_module(tmp_path):
    package = tmp_path / "planted"
    package.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    (package / "long.py").write_text(f"def long():\n{body}\n", encoding="utf-8")
    (package / "big.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1), encoding="utf-8")
    (package / "fine.py").write_text("def short():\n    return 1\n", encoding="utf-8")
    assert oversized(package) == [f"planted/big.py: {MAX_MODULE_LINES + 1} lines",
                                  f"planted/long.py:1 long: {MAX_FUNCTION_LINES + 1} lines"]


#: The test suite, which enters the package through the same faces (issue 43 item 3).
TESTS = Path(__file__).parent


def private_imports(path: Path, top: str = "lfverify") -> set[str]:
    """The private modules and names of the package ``top`` that the module at ``path`` imports, dotted: a module with
    a private component (``lfverify.core._metrics``, also when only public names are taken from it) or a private name
    taken from a public module (``lfverify.proofs.counterexamples._signs``; a private module imported by name, as
    ``from lfverify.core import _metric_registry``, is this case too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules, names = [alias.name for alias in node.names], ()
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            modules, names = [node.module], [alias.name for alias in node.names]
        else:
            continue
        for module in modules:
            if module != top and not module.startswith(top + "."):
                continue
            if any(_private(part) for part in module.split(".")):
                found.add(module)
            else:
                found.update(f"{module}.{name}" for name in names if _private(name))
    return found


def _private_paragraph(docstring: str | None) -> str | None:
    paragraphs = [" ".join(p.split()) for p in (docstring or "").split("\n\n")]
    return next((p for p in paragraphs if p.startswith("Private:")), None)


def unexplained_private_imports(tests: Path, top: str = "lfverify") -> list[str]:
    """Every module under ``tests`` that imports a private module or name of ``top`` its docstring does not explain:
    the docstring needs a paragraph starting "Private:" that names each one, by its dotted name or its last
    component (``lfverify.core._metrics`` or ``_metrics``), one line per omission."""
    problems = []
    for path in sorted(tests.rglob("*.py")):
        private = private_imports(path, top)
        if not private:
            continue
        where = path.relative_to(tests.parent)
        paragraph = _private_paragraph(ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))))
        if paragraph is None:
            problems.append(f"{where}: imports {', '.join(sorted(private))} and has no 'Private:' paragraph")
            continue
        for dotted in sorted(private):
            last = dotted.rpartition(".")[2]
            if dotted not in paragraph and re.search(rf"(?<![\w]){re.escape(last)}(?![\w])", paragraph) is None:
                problems.append(f"{where}: imports {dotted}, which its 'Private:' paragraph does not name")
    return problems


def test_every_test_says_why_it_imports_something_private():
    assert unexplained_private_imports(TESTS) == []


@pytest.mark.parametrize("text, expected", [
    ('"""A test."""\nfrom lfverify.core._metrics import f1\n',
     ["tests/test_a.py: imports lfverify.core._metrics and has no 'Private:' paragraph"]),
    ('"""A test.\n\nPrivate: lfverify.core._metrics, its helpers.\n"""\nimport lfverify.core._metrics as m\n'
     "from lfverify.app._cli import main\n",
     ["tests/test_a.py: imports lfverify.app._cli, which its 'Private:' paragraph does not name"]),
    ('"""A test.\n\nPrivate: the _metrics_table helper.\n"""\nfrom lfverify.core import _metrics\n',
     ["tests/test_a.py: imports lfverify.core._metrics, which its 'Private:' paragraph does not name"]),
    ('"""A test.\n\nPrivate: lfverify.proofs.counterexamples, its witnesses.\n"""\n'
     "def f():\n    from lfverify.proofs.counterexamples import _signs\n",
     ["tests/test_a.py: imports lfverify.proofs.counterexamples._signs, which its 'Private:' paragraph does not "
      "name"]),
    ('"""A test."""\nfrom lfverify.core import f1\nfrom lfverify import __version__\nfrom other._x import y\n', []),
    ('"""A test.\n\nPrivate: _cli.main, the entry point, and lfverify.core._metrics\'s table, both pinned here.\n'
     '"""\nfrom lfverify.app._cli import main\nfrom lfverify.core import _metrics\n', []),
])
def test_the_private_import_rule_reads_a_planted_test(tmp_path, text, expected):
    """Companion: a planted test module that imports something private without naming it in a "Private:"
    paragraph is reported; one that names it, or imports only public names, is not."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text(text, encoding="utf-8")
    assert unexplained_private_imports(tmp_path / "tests") == expected
#: Issue 43's calls a reader can follow: a call of a function or class of its own module passes at most this many
#: arguments by position, the rest by keyword.
MAX_POSITIONAL = 4
#: Data tables written as constructor rows, exempt from :data:`MAX_POSITIONAL` at module level (the table, not a
#: call in a function): every row has the same shape and a comment above the table names the columns.
#: (module under the package, callee) -> reason.
TABLE_ROWS = {
    ("paper/_tables.py", "_row"): "Tables 4 and 5 as printed: five cells per data set, one per method column",
    ("paper/_registry.py", "PaperClaim"): "the claims registry: label, number, statement, expected, evidence",
    ("learn/_datasets.py", "DatasetSpec"): "MANIFEST.md's and Table 3's figures of each data set, nine columns",
    ("app/_self_checks.py", "Check"): "the self-checks: name, label, method, expected, run",
}


def positional_overloads(root: Path, exempt=TABLE_ROWS) -> list[str]:
    """Every call under ``root`` of a function or class defined in the same module (by name, as ``f(...)`` or
    ``x.f(...)``) with more than :data:`MAX_POSITIONAL` positional arguments, one line each; the module-level rows
    of the tables in ``exempt`` excepted."""
    problems = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {node.name for node in ast.walk(tree)
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        in_function = {id(node) for scope in ast.walk(tree)
                       if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                       for node in ast.walk(scope)}
        module = path.relative_to(root).as_posix()
        for node in sorted((node for node in ast.walk(tree) if isinstance(node, ast.Call)),
                           key=lambda node: (node.lineno, node.col_offset)):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            positional = sum(not isinstance(arg, ast.Starred) for arg in node.args)
            if name not in defined or positional <= MAX_POSITIONAL:
                continue
            if (module, name) in exempt and id(node) not in in_function:
                continue
            problems.append(f"{path.relative_to(root.parent)}:{node.lineno} {name}: {positional} positional arguments")
    return problems


def test_no_internal_call_passes_more_than_four_arguments_by_position():
    assert positional_overloads(PACKAGE) == []


def test_the_keyword_rule_names_a_planted_positional_call(tmp_path):
    """Companion: five positional arguments to a function or class of the same module are named, four plus a
    keyword are not, and an exempt table's row passes at module level but not inside a function."""
    package = tmp_path / "planted"
    package.mkdir()
    (package / "calls.py").write_text(
        "class Box:\n    def __init__(self, a, b, c, d, e):\n        pass\n"
        "    def again(self):\n        return self.f(1, 2, 3, 4, 5)\n"
        "    def f(self, a, b, c, d, e):\n        return a\n"
        "def g(a, b, c, d, e):\n    return Box(a, b, c, d, e=e)\n"
        "x = g(1, 2, 3, 4, 5)\ny = g(1, 2, 3, 4, e=5)\nz = max(1, 2, 3, 4, 5)\n", encoding="utf-8")
    (package / "rows.py").write_text(
        "def row(*cells):\n    return cells\n"
        "TABLE = (row(1, 2, 3, 4, 5), row(6, 7, 8, 9, 10))\n"
        "def f():\n    return row(1, 2, 3, 4, 5)\n", encoding="utf-8")
    assert positional_overloads(package, exempt={("rows.py", "row"): "a planted table"}) == [
        "planted/calls.py:5 f: 5 positional arguments",
        "planted/calls.py:10 g: 5 positional arguments",
        "planted/rows.py:5 row: 5 positional arguments",
    ]
    assert len(positional_overloads(package, exempt={})) == 5
