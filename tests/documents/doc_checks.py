"""Checkers that keep README.md and the pages of docs/ true, shared by tests/documents/test_readme.py and
tests/documents/test_docs.py.

Each checker reads a page as a user would (Markdown text) and returns its problems, one line each, so that a test
asserts ``[]`` and its companion feeds the same checker a planted bad page and shows the problem is reported.

Private: lfverify.app._cli.build_parser, the command line's parser, used to check that the commands the documents show
parse.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import re
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
README = REPO / "README.md"
#: The one place that lists repository paths a page may name before they exist in this branch (see its header).
#: README's size limit: a newcomer reads it to the end.
README_MAX_BYTES = 8192

#: Code-span paths that name no file of the repository: outputs of a command and folders outside it.
NOT_REPOSITORY_PATHS = ("lfverify-report/", "docs/_build/", "shared/", "../shared/", "/")
#: Placeholders of a quoted command line -> a value that the parser accepts in their place.
PLACEHOLDERS = {"NAME": "all", "DIR": "out", "N": "2", "ADDR": "tcp://127.0.0.1:8786",
                "ADDRESS": "tcp://127.0.0.1:8786", "TEXT": "lemma", "B": "2", "A": "0.5", "S": "1",
                "SECONDS": "5", "COMMAND": "verify", "...": "heart"}
#: The line before a ```python block that must not run: <!-- not run: REASON -->.
NOT_RUN = re.compile(r"<!--\s*not run:(.*?)-->")

_FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
_SPAN = re.compile(r"(?<!`)`([^`]+?)`(?!`)", re.S)
_LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)\)")
_NAME = re.compile(r"(?<![\w/.\-])lfverify(?:\.[A-Za-z_]\w*)+")
#: A MyST ``{include}`` directive (fenced), its argument and its option lines.
_INCLUDE = re.compile(r"^(`{3,}|~{3,})[ \t]*\{include\}[ \t]+(\S+)[ \t]*\n((?:[ \t]*:[\w-]+:.*\n)*)", re.M)
#: Options of ``{include}`` that show a part of the file, or the file as code, not the file as a page.
_PARTIAL_INCLUDE = ("start-line", "end-line", "start-after", "end-before", "literal", "code")
#: What MyST's dollarmath reads as inline math when a dollar touches no space inside (``myst_dmath_allow_space =
#: False``): ``$x$``, ``$$x$$``; an escaped ``\$`` is a dollar.
_DOLLAR_MATH = re.compile(r"(?<![\\$])(\${1,2})(?=[^\s$])((?:\\.|[^$\\])*?)(?<=[^\s\\])\1(?!\$)", re.S)


# ------------------------------------------------------------------ reading a page
def fenced_blocks(text: str) -> list[tuple[str, str, str]]:
    """(language, body, the line before the fence) of every fenced code block."""
    blocks = []
    for match in _FENCE.finditer(text):
        before = text[:match.start()].rstrip("\n").rpartition("\n")[2]
        blocks.append((match.group(1), match.group(2), before))
    return blocks


def prose(text: str) -> str:
    """The text without its fenced code blocks (each replaced by an empty line)."""
    return _FENCE.sub("\n", text)


def code_spans(text: str) -> list[str]:
    """The inline code spans outside fenced blocks, whitespace normalised (a span may break across lines)."""
    return [" ".join(span.split()) for span in _SPAN.findall(prose(text))]


def link_targets(text: str) -> list[str]:
    """The targets of the Markdown links outside code."""
    return _LINK.findall(_SPAN.sub("", prose(text)))


def github_slug(heading: str) -> str:
    """The anchor GitHub (and MyST, ``myst_heading_anchors``) gives a heading."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The heading anchors of a page (a repeated heading gets -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", prose(text), re.M):
        slug = github_slug(heading)
        out.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return out


# ------------------------------------------------------------------ the checkers
def python_block_problems(text: str, name: str) -> list[str]:
    """Run the page's ```python blocks in order, in one namespace (later blocks continue earlier ones).  A block
    after an HTML comment ``not run: REASON`` is skipped; the reason must be given."""
    problems, source = [], []
    for language, body, before in fenced_blocks(text):
        if language != "python":
            continue
        marker = NOT_RUN.search(before)
        if marker and not marker.group(1).strip():
            problems.append(f"{name}: a block is marked 'not run' without a reason")
        if not marker:
            source.append(body)
    if source:
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile("".join(source), name, "exec"), {"__name__": "__doc_example__"})
        except BaseException as exc:  # noqa: BLE001 - every failure of an example is a problem of the page
            last = traceback.extract_tb(exc.__traceback__)[-1]
            problems.append(f"{name}: its Python blocks raise {type(exc).__name__}: {exc} (line {last.lineno})")
    return problems


def quoted_commands(text: str) -> list[str]:
    """Every ``lfverify ...`` command the page quotes: code spans and lines of shell blocks (after ``&&``)."""
    commands = [span for span in code_spans(text) if re.match(r"lfverify(\s|$)", span)]
    for language, body, _ in fenced_blocks(text):
        if language in ("sh", "bash", "shell", "console"):
            for line in body.splitlines():
                line = re.sub(r"\s#.*$", "", line.strip().removeprefix("$ "))
                commands += [part.strip() for part in re.split(r"&&|;", line)
                             if re.match(r"lfverify(\s|$)", part.strip())]
    return commands


def _command_variants(command: str) -> list[list[str]]:
    """argv tuples for a synopsis: bracketed groups left out, then each alternative of each group on its own, then
    the first alternative of every group together; placeholders replaced by a value."""
    tokens = re.findall(r"\[|\]|\||[^\s\[\]|]+", command.replace("\\|", "|"))[1:]  # drop "lfverify"
    items, group, alternative = [], None, None
    for token in tokens:
        if token == "[":
            if group is not None:
                raise ValueError("nested brackets")
            group, alternative = [], []
        elif token == "]":
            if group is None:
                raise ValueError("unbalanced ]")
            group.append(alternative)
            items.append(group)
            group = None
        elif token == "|":
            if group is None:
                raise ValueError("an alternative '|' outside brackets")
            group.append(alternative)
            alternative = []
        elif group is not None:
            alternative.append(token)
        else:
            items.append(token)
    if group is not None:
        raise ValueError("unbalanced [")

    def value(token):
        if re.fullmatch(r"[A-Z][A-Z_]*|\.\.\.", token):
            if token not in PLACEHOLDERS:
                raise ValueError(f"unknown placeholder {token}")
            return PLACEHOLDERS[token]
        return token

    def argv(chosen):
        out = []
        for index, item in enumerate(items):
            if isinstance(item, str):
                out.append(value(item))
            elif index in chosen:
                out += [value(t) for t in chosen[index]]
        return out

    groups = [i for i, item in enumerate(items) if isinstance(item, list)]
    variants = [argv({})]
    variants += [argv({i: alt}) for i in groups for alt in items[i]]
    variants.append(argv({i: items[i][0] for i in groups}))
    return list(dict.fromkeys(map(tuple, variants)))


def command_problems(text: str) -> list[str]:
    """Every quoted ``lfverify`` command (each variant of its synopsis) parses with the real parser."""
    from lfverify.app._cli import build_parser  # the parser itself; pages never name this private module

    problems = []
    for command in quoted_commands(text):
        try:
            variants = _command_variants(command)
        except ValueError as exc:
            problems.append(f"`{command}`: {exc}")
            continue
        for argv in variants:
            err = io.StringIO()
            try:
                with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                    build_parser().parse_args(list(argv))
            except SystemExit as exc:
                if exc.code not in (0, None):
                    message = (err.getvalue().strip().splitlines() or ["?"])[-1]
                    problems.append(f"`{command}` (as `lfverify {' '.join(argv)}`): {message}")
    return problems


def _is_path_candidate(span: str) -> bool:
    if re.search(r"\s|://", span) or span.startswith("-") or "/" not in span:
        return False
    if not re.fullmatch(r"[\w.\-/<>*]+", span):
        return False
    first = span.lstrip("./").split("/")[0]
    last = span.rstrip("/").split("/")[-1]
    return span.endswith("/") or bool(re.search(r"\.\w+$", last)) or (REPO / first).exists()


def path_problems(text: str, repo: Path = REPO) -> list[str]:
    """Every repository path named in a code span (from the repository's root) exists; a path with ``*`` or a
    ``<placeholder>`` must match at least one file.  Outputs of commands (:data:`NOT_REPOSITORY_PATHS`) are
    exempt."""
    problems = []
    for span in code_spans(text):
        if not _is_path_candidate(span) or span.startswith(NOT_REPOSITORY_PATHS):
            continue
        pattern = re.sub(r"<[^>]*>", "*", span).rstrip("/")
        found = list(repo.glob(pattern)) if "*" in pattern else [repo / pattern] if (repo / pattern).exists() else []
        if not found:
            problems.append(f"`{span}`: no such path in the repository")
    return problems


def _resolve_name(name: str):
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            obj = getattr(obj, attribute)
        return obj
    raise ImportError(name)


def name_problems(text: str) -> list[str]:
    """Every ``lfverify.<name>`` the page mentions is importable and public (no ``_private`` part)."""
    problems = []
    for name in sorted(set(_NAME.findall(text))):
        if any(part.startswith("_") and not (part.startswith("__") and part.endswith("__"))
               for part in name.split(".")):
            problems.append(f"{name}: not a public name")
            continue
        try:
            _resolve_name(name)
        except (ImportError, AttributeError):
            problems.append(f"{name}: not importable")
    return problems


def link_problems(page: Path, text: str | None = None, repo: Path = REPO) -> list[str]:
    """Every relative link of ``page`` names a file of the repository (not a folder: the site needs a file), and
    every ``#anchor`` a heading of the page it names; external links are not followed."""
    text = page.read_text() if text is None else text
    problems = []
    for target in link_targets(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue
        path_part, _, anchor = target.partition("#")
        path = (page.parent / path_part).resolve() if path_part else page.resolve()
        try:
            relative = path.relative_to(repo.resolve()).as_posix()
        except ValueError:
            problems.append(f"{target}: outside the repository")
            continue
        if not path.is_file():
            problems.append(f"{target}: {'a folder, not a file' if path.is_dir() else 'no such file'}")
            continue
        if anchor and path.suffix == ".md" and anchor not in anchors(path.read_text()):
            problems.append(f"{target}: no heading #{anchor} in {relative}")
    return problems


def statement_files(repo: Path = REPO) -> list[Path]:
    """The repository's statements, which the site shows as pages: README, the errata, the findings, and every
    document of proofs/ (its index and one file per claim)."""
    return [repo / "README.md", repo / "ERRATA.md", repo / "FINDINGS.md", *sorted((repo / "proofs").glob("*.md"))]


def site_pages(docs: Path = DOCS) -> list[Path]:
    """The Markdown pages of the site: docs/ and its folders, but the build output and the generated API reference."""
    return sorted(p for p in docs.rglob("*.md") if p.relative_to(docs).parts[0] not in ("_build", "api"))


def included_files(page: Path, text: str | None = None) -> list[tuple[Path, list[str]]]:
    """The files a page includes with MyST's ``{include}`` (resolved from the page's folder) and the options of each
    directive."""
    text = page.read_text() if text is None else text
    return [((page.parent / target).resolve(), re.findall(r":([\w-]+):", options))
            for _, target, options in _INCLUDE.findall(text)]


def inclusion_problems(files: list[Path], pages: dict[Path, str], repo: Path = REPO) -> list[str]:
    """Each file is shown by exactly one page of the site (``pages``: a page -> its text), included whole (no option
    that takes a part of it or shows it as code), so that the site has one page per statement and one source; an
    ``{include}`` of a missing file is reported too."""
    shown: dict[Path, list[str]] = {}
    problems = []
    def name(path):
        return Path(os.path.relpath(Path(path).resolve(), repo.resolve())).as_posix()

    for page, text in pages.items():
        for path, options in included_files(page, text):
            if not path.is_file():
                problems.append(f"{name(page)}: includes {name(path)}, no such file")
            partial = sorted(set(options) & set(_PARTIAL_INCLUDE))
            if partial:
                problems.append(f"{name(page)}: includes {name(path)} with {', '.join(partial)}, not whole")
            shown.setdefault(path, []).append(name(page))
    for path in files:
        by = shown.get(path.resolve(), [])
        if len(by) != 1:
            problems.append(f"{name(path)}: included by {len(by)} pages of the site"
                            + (f" ({', '.join(by)})" if by else ""))
    return problems


def dollar_math(text: str) -> list[str]:
    """The inline math that MyST's dollarmath would read in the prose of a page (outside code): a page whose dollars
    are meant as dollars (``$LFVERIFY_DATASETS``) must have none."""
    return [match.group(0) for match in _DOLLAR_MATH.finditer(_SPAN.sub("", prose(text)))]


def math_settings_problems(conf: str) -> list[str]:
    """The site's configuration (docs/conf.py, read without running it) renders the statements' mathematics:
    MyST with dollarmath and amsmath, ``$$...$$`` inside a paragraph read as math (the proofs write it so), a dollar
    next to a space not read as math (shell variables stay text), and MathJax, Sphinx's default, as the renderer."""
    import ast

    values = {}
    for statement in ast.parse(conf).body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                try:
                    values[target.id] = ast.literal_eval(statement.value)
                except ValueError:
                    values[target.id] = statement.value
    problems = []
    if "myst_parser" not in values.get("extensions", ()):
        problems.append("extensions: no myst_parser")
    for extension in ("dollarmath", "amsmath"):
        if extension not in values.get("myst_enable_extensions", ()):
            problems.append(f"myst_enable_extensions: no {extension}")
    if values.get("myst_dmath_double_inline") is not True:
        problems.append("myst_dmath_double_inline is not True: $$...$$ inside a paragraph is not math")
    if values.get("myst_dmath_allow_space", True) is not False:
        problems.append("myst_dmath_allow_space is not False: '$ ... $' around spaces is read as math")
    if values.get("html_math_renderer", "mathjax") != "mathjax" or "sphinx.ext.imgmath" in values.get(
            "extensions", ()):
        problems.append("the math renderer is not MathJax")
    return problems


def module_map_problems(text: str, package: Path) -> list[str]:
    """The module map has a row for every module file of the package (every wing's ``__init__.py`` included)."""
    listed = set(re.findall(r"^\| `([^`]+)` \|", text, re.M))
    root = package.parent
    files = sorted(p.relative_to(root).as_posix() for p in package.rglob("*.py") if "__pycache__" not in p.parts)
    return [f"{path}: no row in the module map" for path in files if path not in listed]


def readme_problems(text: str) -> list[str]:
    """README stays short, and its first block is the two lines CI runs (``.ci/run`` reads them)."""
    problems = []
    size = len(text.encode())
    if size > README_MAX_BYTES:
        problems.append(f"README.md is {size} bytes; at most {README_MAX_BYTES}")
    first = re.search(r"```sh\n(.*?)```", text, re.S)
    lines = first.group(1).strip().splitlines() if first else []
    if len(lines) != 2:
        problems.append(f"the first ```sh block has {len(lines)} lines; CI runs exactly two")
    else:
        if not (lines[0].startswith("pip install") and "lfverify verify" in lines[0]):
            problems.append(f"line 1 must install and run `lfverify verify`: {lines[0]}")
        if not (lines[1].startswith("pip install") and "pytest" in lines[1]):
            problems.append(f"line 2 must install and run pytest: {lines[1]}")
    return problems


def unlinked_pages(readme: str, pages: list[Path], readme_path: Path = README) -> list[str]:
    """The pages of docs/ (but its index, the site's front page) that README does not link: each moved section is
    one click away."""
    linked = {(readme_path.parent / t.partition("#")[0]).resolve() for t in link_targets(readme)}
    return [p.name for p in pages if p.name != "index.md" and p.resolve() not in linked]
