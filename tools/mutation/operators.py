"""Mutation operators that mutmut 3.8 lacks, built on Python's ``ast``: this project's own part of the tool.

mutmut has no public way to add operators (its mutators are fixed in mutmut/mutation/mutators.py), so these are
generated here and run by measure.py, each mutant in a fresh pytest process that imports the mutated module source
(import_hook.py).

mutmut changes operators, constants, comparisons and drops arguments of calls with two or more arguments.  The
plausible mistakes of a statistics pipeline are of another kind, and these operators make them:

``dist``
    swap a distribution or its tail / quantile: ``stats.X.sf <-> cdf``, ``ppf <-> isf``, ``logsf <-> logcdf``;
    ``stats.t.M(x, df) -> stats.norm.M(x)`` (the shape dropped) and ``stats.norm.M(x) -> stats.t.M(x, df=dof)``
    when a degrees-of-freedom variable (``df``, ``dof``, ``nu``) is in the function; ``scipy.special``'s
    ``ndtr``, ``log_ndtr``, ``expit``, ``log_expit`` (cdfs) at ``-x`` (the survival function) and ``ndtri``,
    ``logit`` (quantiles) at ``1 - p`` (the upper quantile).
``dropkw``
    drop one keyword argument of a call, so that the callee's default applies (one mutant per keyword).  A drop
    that mutmut already makes (a call with two or more arguments in a function mutmut mutates) is not made twice.
``subset``
    swap the data subset a call or an index receives: ``C[a] -> C[b]`` when the function indexes the same
    container ``C`` with both ``a`` and ``b`` (``X[fit_idx] -> X[val_idx]``); a call argument named after a
    subset (``X_fit``, ``split.train``) swapped for its sibling in the function (``X_val``, ``split.test``).
``start``
    swap the start or the seed a call (or an assignment) receives for another expression of the same role in the
    function: names and attributes whose last word is a start (``init``, ``start``, ``theta0``, ``x0``, ``warm``)
    or a seed (``seed``, ``rng``, ``seq``, ``random_state``, ...), or any value passed to a keyword of that role.
``args``
    swap two neighbouring positional arguments of a call (the slip one makes; all pairs of a 20-field
    constructor would be 190 mutants of one line).  Pairs with a literal are skipped (a value swapped with a
    constant is mostly a type error, and constants are mutmut's), and so are calls whose result does not depend
    on the order (``max``, ``np.maximum``, ``math.hypot``, ...) or that are not data (``isinstance``, ...).

Only function bodies are mutated (module-level code, decorators, defaults and annotations run at import time), in
every top-level function and every method of a (nested) class, decorated or not: mutmut skips decorated
functions such as properties, these operators do not.  A mutant is a list of text edits of the module source, so
the rest of the file keeps its formatting; it is kept only if the edited module parses and the function's AST
changed, and a mutant whose function AST equals an earlier one's is dropped.  Names are deterministic:
``{module}.{key}__lfv_{operator}_{index}``, ``key`` being mutmut's mangled function name (``x_f`` or
``xǁClassǁmethod``) and ``index`` counting from 1 in source order within (function, operator); so a mutant's
tests can be looked up in mutmut's per-function stats, and equivalent mutants are listed in the same file as
mutmut's, with the mutated line.
"""

from __future__ import annotations

import ast
import copy
import difflib
import re
from dataclasses import dataclass, field

OPERATORS = ("dist", "dropkw", "subset", "start", "args")
OPERATOR_TITLES = {
    "dist": "swap a distribution or its tail / quantile",
    "dropkw": "drop a keyword argument (the callee's default applies)",
    "subset": "swap the data subset a call or an index receives",
    "start": "swap the start / seed a call receives",
    "args": "swap two positional arguments",
}
NAME_MARKER = "__lfv_"
CLASS_SEPARATOR = "ǁ"  # mutmut's separator in mangled method names

_STATS_METHOD_SWAPS = {"sf": "cdf", "cdf": "sf", "ppf": "isf", "isf": "ppf", "logsf": "logcdf", "logcdf": "logsf"}
_SPECIAL_CDFS = ("ndtr", "log_ndtr", "expit", "log_expit")
_SPECIAL_QUANTILES = ("ndtri", "logit")
_DOF_NAMES = re.compile(r"^(df|dof|nu|degrees_of_freedom)$")
_SUBSET_WORDS = ("train", "test", "fit", "val", "valid", "validation", "holdout", "eval", "tune", "calib")
_START_WORDS = frozenset({"start", "init", "initial", "theta0", "x0", "warm"})
_SEED_WORDS = frozenset({"seed", "seeds", "rng", "seq", "entropy", "generator"})
_NO_SWAP_CALLS = frozenset({"isinstance", "issubclass", "getattr", "setattr", "hasattr", "delattr", "super",
                            "print", "len"})
#: calls whose result does not depend on the order of their arguments (a swap there is equivalent by definition)
_SYMMETRIC_CALLS = frozenset({"max", "min", "math.hypot", "math.isclose", "math.gcd", "numpy.hypot", "numpy.maximum",
                              "numpy.minimum", "numpy.fmax", "numpy.fmin", "numpy.add", "numpy.multiply",
                              "numpy.logical_and", "numpy.logical_or", "numpy.logical_xor", "numpy.array_equal",
                              "numpy.array_equiv", "operator.add", "operator.mul"})
#: calls symmetric in two neighbouring arguments (index of the first): np.clip(a, lo, hi) = min(max(a, lo), hi)
_SYMMETRIC_PAIRS = {"numpy.clip": {0}}
# mutmut 3.8 (file_mutation.py): what it never mutates, so that a keyword drop there is not mutmut's
_MUTMUT_SKIPPED_CALLS = frozenset({"len", "isinstance"})
_MUTMUT_SKIPPED_FUNCTIONS = frozenset({"__getattribute__", "__setattr__", "__new__"})


@dataclass(frozen=True)
class Edit:
    """Replace ``source[start:end]`` (character offsets of the module source) by ``text``."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Mutant:
    """One mutant of one function: its deterministic name, where it is and the edits that make it."""

    name: str
    module: str  #: dotted module, e.g. lfverify.experiments._statistics
    path: str  #: source path relative to the repository, e.g. lfverify/experiments/_statistics.py
    function: str  #: qualified name, e.g. one_sided_p_value or Class.method
    key: str  #: mutmut's mangled function name (x_f or xǁClassǁmethod), the key of its per-function stats
    operator: str
    index: int
    firstlineno: int  #: first line of the function's code object (its first decorator, else its def)
    edits: tuple[Edit, ...]
    description: str
    diff: str = field(default="", compare=False)  #: unified diff of the function, like ``mutmut show``

    def apply(self, source: str) -> str:
        """The module source with this mutant's edits."""
        return apply_edits(source, self.edits)


def operator_of(name: str) -> str | None:
    """The operator of a mutant name made here (``...__lfv_subset_3`` -> ``subset``); None for mutmut's names."""
    _, marker, rest = name.rpartition(NAME_MARKER)
    return rest.rsplit("_", 1)[0] if marker else None


def function_key_of(name: str) -> str:
    """``lfverify.m.x_f__lfv_args_2`` -> ``lfverify.m.x_f``: the key of mutmut's per-function test stats."""
    if NAME_MARKER in name:
        return name.rpartition(NAME_MARKER)[0]
    return name.partition("__mutmut_")[0]


def apply_edits(source: str, edits) -> str:
    """Apply non-overlapping edits (character offsets into ``source``)."""
    out, position = [], 0
    for edit in sorted(edits, key=lambda e: e.start):
        if edit.start < position:
            raise ValueError(f"overlapping edits at offset {edit.start}")
        out += [source[position:edit.start], edit.text]
        position = edit.end
    out.append(source[position:])
    return "".join(out)


# ---------------------------------------------------------------------- source positions
class _Source:
    """Character offsets of ast positions (``col_offset`` counts UTF-8 bytes)."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, lineno: int, col_bytes: int) -> int:
        line = self.lines[lineno - 1]
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col_bytes].decode("utf-8"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)

    def segment(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.text[start:end]

    def replace(self, node: ast.AST, text: str) -> Edit:
        return Edit(*self.span(node), text)


# ---------------------------------------------------------------------- functions and their names
@dataclass
class _Function:
    node: ast.FunctionDef | ast.AsyncFunctionDef
    qualname: str
    key: str
    top_level_class: bool  #: a top-level function or a method of a top-level class (what mutmut can trampoline)

    @property
    def firstlineno(self) -> int:
        return min([self.node.lineno] + [d.lineno for d in self.node.decorator_list])

    @property
    def mutmut_mutates(self) -> bool:
        """Whether mutmut 3.8 mutates this function's body (file_mutation.py: no decorators but a lone
        staticmethod / classmethod, not __new__ & co., only top-level functions and methods of top-level classes)."""
        decorators = self.node.decorator_list
        plain = not decorators or (len(decorators) == 1 and isinstance(decorators[0], ast.Name)
                                   and decorators[0].id in ("staticmethod", "classmethod"))
        return self.top_level_class and plain and self.node.name not in _MUTMUT_SKIPPED_FUNCTIONS


def functions_of(tree: ast.Module) -> list[_Function]:
    """Every top-level function and every method of a class (nested classes too), in source order."""
    found = []

    def visit(body, classes: tuple[str, ...]):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qualname = ".".join(classes + (node.name,))
                key = (f"x{CLASS_SEPARATOR}{'.'.join(classes)}{CLASS_SEPARATOR}{node.name}" if classes
                       else f"x_{node.name}")
                found.append(_Function(node, qualname, key, len(classes) <= 1))
            elif isinstance(node, ast.ClassDef):
                visit(node.body, classes + (node.name,))

    visit(tree.body, ())
    return found


def _body_nodes(function: ast.AST):
    """Every node of a function's body (not its decorators, defaults or annotations, which run at import)."""
    for statement in function.body:
        yield from ast.walk(statement)


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a Name or a chain of attributes of a Name; None otherwise."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id] + parts[::-1])


def _words(dotted: str) -> list[str]:
    return dotted.rpartition(".")[2].lower().split("_")


def role_of(identifier: str) -> str | None:
    """``"seed"``, ``"start"`` or None: the role the last word of a (dotted) name gives it."""
    last = identifier.rpartition(".")[2].lower()
    words = set(last.split("_"))
    if words & _SEED_WORDS or "random_state" in last or "seed_sequence" in last:
        return "seed"
    if words & _START_WORDS:
        return "start"
    return None


# ---------------------------------------------------------------------- imports
def import_aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> dotted path, from every import of the module (function-level ones too)."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    aliases[alias.name.partition(".")[0]] = alias.name.partition(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def _resolve(node: ast.AST, aliases: dict[str, str]) -> str | None:
    dotted = _dotted(node)
    if dotted is None:
        return None
    head, _, rest = dotted.partition(".")
    if head not in aliases:
        return None
    return aliases[head] + ("." + rest if rest else "")


# ---------------------------------------------------------------------- the operators
@dataclass(frozen=True)
class _Candidate:
    position: tuple[int, int]
    edits: tuple[Edit, ...]
    description: str


def _unparse_call_edit(src: _Source, call: ast.Call, new_call: ast.Call) -> tuple[Edit, ...]:
    return (src.replace(call, ast.unparse(new_call)),)


def _dist_candidates(fn: _Function, src: _Source, aliases, visible):
    for node in _body_nodes(fn.node):
        if not isinstance(node, ast.Call):
            continue
        path = _resolve(node.func, aliases)
        if path is None:
            continue
        position = (node.lineno, node.col_offset)
        parts = path.split(".")
        if path.startswith("scipy.stats.") and len(parts) == 4 and isinstance(node.func, ast.Attribute):
            dist, method = parts[2], parts[3]
            swapped = _STATS_METHOD_SWAPS.get(method)
            if swapped:
                text = f"{src.segment(node.func.value)}.{swapped}"
                yield _Candidate(position, (src.replace(node.func, text),), f"{dist}.{method} -> {dist}.{swapped}")
            if not isinstance(node.func.value, ast.Attribute):
                continue  # the distribution was imported by name: no module to take the other one from
            if dist == "t":
                new = copy.deepcopy(node)
                new.func.value.attr = "norm"
                if len(new.args) >= 2:
                    del new.args[1]
                elif any(k.arg == "df" for k in new.keywords):
                    new.keywords = [k for k in new.keywords if k.arg != "df"]
                else:
                    continue
                yield _Candidate(position, _unparse_call_edit(src, node, new), f"t.{method} -> norm.{method}")
            elif dist == "norm":
                for dof in sorted(n for n in visible.get(id(node), ()) if _DOF_NAMES.match(n)):
                    new = copy.deepcopy(node)
                    new.func.value.attr = "t"
                    new.keywords.append(ast.keyword(arg="df", value=ast.Name(dof)))
                    yield _Candidate(position, _unparse_call_edit(src, node, new),
                                     f"norm.{method} -> t.{method}(df={dof})")
        elif path.startswith("scipy.special.") and node.args and not isinstance(node.args[0], ast.Starred):
            name = parts[-1]
            arg = src.segment(node.args[0])
            if name in _SPECIAL_CDFS:
                yield _Candidate(position, (src.replace(node.args[0], f"-({arg})"),), f"{name}(x) -> {name}(-x)")
            elif name in _SPECIAL_QUANTILES:
                yield _Candidate(position, (src.replace(node.args[0], f"1 - ({arg})"),),
                                 f"{name}(p) -> {name}(1 - p)")


def _mutmut_skipped_calls(fn: _Function) -> set[int]:
    """ids of the calls mutmut does not mutate: inside ``len(...)`` / ``isinstance(...)``."""
    skipped = set()
    for node in _body_nodes(fn.node):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _MUTMUT_SKIPPED_CALLS:
            skipped.update(id(n) for n in ast.walk(node))
    return skipped


def _dropkw_candidates(fn: _Function, src: _Source, aliases, visible):
    skipped = _mutmut_skipped_calls(fn)
    for node in _body_nodes(fn.node):
        if not isinstance(node, ast.Call):
            continue
        mutmut_drops = fn.mutmut_mutates and id(node) not in skipped and len(node.args) + len(node.keywords) > 1
        if mutmut_drops:
            continue
        for i, keyword in enumerate(node.keywords):
            if keyword.arg is None:
                continue
            new = copy.deepcopy(node)
            del new.keywords[i]
            yield _Candidate((keyword.lineno, keyword.col_offset), _unparse_call_edit(src, node, new),
                             f"drop {keyword.arg}=")


_NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                  ast.GeneratorExp)


def _parameters(node: ast.AST) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        args = node.args
        names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        return names | {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    return set()


def _shallow(nodes):
    """The nodes below ``nodes`` that are not inside a nested function, lambda or comprehension."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _NESTED_SCOPES):
            stack.extend(ast.iter_child_nodes(node))


def _scope_body(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return list(node.body)
    if isinstance(node, ast.Lambda):
        return [node.body]
    if isinstance(node, ast.DictComp):
        return [node.key, node.value] + node.generators
    return [node.elt] + node.generators  # ListComp, SetComp, GeneratorExp


def visible_names(fn: _Function, excluded_heads: set[str]) -> dict[int, frozenset[str]]:
    """id(node) -> the dotted names a mutant may put at that node: the parameters of the function and of every
    enclosing lambda / nested function / comprehension, and every name or attribute chain mentioned in those
    scopes (so the replacement is defined where the node is evaluated).  Callables (what the function calls) and
    names whose head is an import or a module-level definition are not data, so they are left out."""
    called = {_dotted(n.func) for n in _body_nodes(fn.node) if isinstance(n, ast.Call)}

    def mentions(scope: ast.AST) -> set[str]:
        names = set(_parameters(scope))
        if isinstance(scope, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            for generator in scope.generators:
                names |= {d for d in map(_dotted, ast.walk(generator.target)) if d}
        for node in _shallow(_scope_body(scope)):
            dotted = _dotted(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
            if dotted is not None:
                names.add(dotted)
        return {n for n in names if n not in called and n.partition(".")[0] not in excluded_heads}

    visible: dict[int, frozenset[str]] = {}

    def assign(scope: ast.AST, inherited: frozenset[str]):
        names = inherited | mentions(scope)
        for node in _shallow(_scope_body(scope)):
            visible[id(node)] = names
            if isinstance(node, _NESTED_SCOPES):
                assign(node, names)

    assign(fn.node, frozenset())
    return visible


def module_level_names(tree: ast.Module) -> set[str]:
    """Names bound by the module's imports and by its top-level function and class definitions."""
    names = set(import_aliases(tree))
    names |= {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    return names


def _call_arguments(fn: _Function):
    """(call, argument node, keyword name or None) for every argument of every call in the body."""
    for node in _body_nodes(fn.node):
        if isinstance(node, ast.Call):
            for arg in node.args:
                if not isinstance(arg, ast.Starred):
                    yield node, arg, None
            for keyword in node.keywords:
                if keyword.arg is not None:
                    yield node, keyword.value, keyword.arg


def _call_site(src: _Source, call: ast.Call, keyword: str | None) -> str:
    return f"{src.segment(call.func)}({keyword + '=' if keyword else ''}...)"


def _sibling(dotted: str, word: str, other: str) -> str:
    head, dot, last = dotted.rpartition(".")
    words = last.split("_")
    return head + dot + "_".join(other if w.lower() == word else w for w in words)


def _subset_candidates(fn: _Function, src: _Source, aliases, visible):
    containers: dict[str, set[str]] = {}
    subscripts = []
    for node in _body_nodes(fn.node):
        if isinstance(node, ast.Subscript):
            container, index = _dotted(node.value), _dotted(node.slice)
            if container is not None and index is not None:
                containers.setdefault(container, set()).add(index)
                subscripts.append((node, container, index))
    for node, container, index in subscripts:
        for other in sorted((containers[container] - {index}) & visible.get(id(node.slice), frozenset())):
            yield _Candidate((node.slice.lineno, node.slice.col_offset), (src.replace(node.slice, other),),
                             f"{container}[{index}] -> {container}[{other}]")
    for call, arg, keyword in _call_arguments(fn):
        dotted = _dotted(arg)
        if dotted is None:
            continue
        for word in dict.fromkeys(w for w in _words(dotted) if w in _SUBSET_WORDS):
            for other in _SUBSET_WORDS:
                sibling = _sibling(dotted, word, other)
                if other != word and sibling in visible.get(id(arg), ()):
                    yield _Candidate((arg.lineno, arg.col_offset), (src.replace(arg, sibling),),
                                     f"{_call_site(src, call, keyword)}: {dotted} -> {sibling}")


def _start_candidates(fn: _Function, src: _Source, aliases, visible):
    sites = [(arg, keyword, (), _call_site(src, call, keyword)) for call, arg, keyword in _call_arguments(fn)]
    for node in _body_nodes(fn.node):
        if isinstance(node, ast.Assign):
            targets = {_dotted(t) for t in node.targets}
            sites.append((node.value, None, targets, " = ".join(src.segment(t) for t in node.targets) + " = ..."))
    for value, keyword, targets, where in sites:
        dotted = _dotted(value)
        if dotted is None:
            continue
        role = (role_of(keyword) if keyword else None) or role_of(dotted)
        if role is None:
            continue
        for other in sorted(visible.get(id(value), ())):
            if role_of(other) != role or other == dotted or other in targets or dotted.startswith(other + ".") \
                    or other.startswith(dotted + "."):
                continue
            yield _Candidate((value.lineno, value.col_offset), (src.replace(value, other),),
                             f"{role} {where}: {dotted} -> {other}")


def _is_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) or (isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant))


def _args_candidates(fn: _Function, src: _Source, aliases, visible):
    for node in _body_nodes(fn.node):
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
            continue
        callee = _resolve(node.func, aliases) or _dotted(node.func)
        if callee in _NO_SWAP_CALLS or callee in _SYMMETRIC_CALLS:
            continue
        for i in range(len(node.args) - 1):
            a, b = node.args[i], node.args[i + 1]
            text_a, text_b = src.segment(a), src.segment(b)
            if text_a == text_b or _is_literal(a) or _is_literal(b) or i in _SYMMETRIC_PAIRS.get(callee, ()):
                continue
            yield _Candidate((a.lineno, a.col_offset), (src.replace(a, text_b), src.replace(b, text_a)),
                             f"swap arguments {i + 1} and {i + 2} of {src.segment(node.func)}(...)")


_GENERATORS = {"dist": _dist_candidates, "dropkw": _dropkw_candidates, "subset": _subset_candidates,
               "start": _start_candidates, "args": _args_candidates}


# ---------------------------------------------------------------------- mutants of a module
def _find_function(tree: ast.Module, qualname: str, firstlineno: int):
    for fn in functions_of(tree):
        if fn.qualname == qualname and fn.firstlineno == firstlineno:
            return fn
    return None


def _mutated_function_dump(source: str, mutated: str, fn: _Function) -> str | None:
    """ast.dump of the function in the mutated module, or None if the mutated module does not parse.

    Only the function's own lines are parsed (dedented, as a module of their own) when that is possible: the edits
    lie inside its body, so the rest of the module is unchanged; the whole module is parsed otherwise."""
    shift = len(mutated.splitlines()) - len(source.splitlines())
    lines = mutated.splitlines(keepends=True)[fn.firstlineno - 1:fn.node.end_lineno + shift]
    indent = len(lines[0]) - len(lines[0].lstrip())
    if all(not line.strip() or line[:indent].isspace() or indent == 0 for line in lines):
        try:
            tree = ast.parse("".join(line[indent:] if line.strip() else line for line in lines))
        except SyntaxError:
            return None
        if len(tree.body) == 1 and isinstance(tree.body[0], type(fn.node)):
            return ast.dump(tree.body[0])
    try:
        mutated_fn = _find_function(ast.parse(mutated), fn.qualname, fn.firstlineno)
    except SyntaxError:
        return None
    return ast.dump(mutated_fn.node) if mutated_fn is not None else None


def function_diff(source: str, mutated: str, fn: _Function, path: str) -> str:
    """Unified diff of the function's lines before and after (3 lines of context), like ``mutmut show``."""
    original_lines = source.splitlines()
    mutated_lines = mutated.splitlines()
    first, last = fn.firstlineno, fn.node.end_lineno
    shift = len(mutated_lines) - len(original_lines)
    before = original_lines[first - 1:last]
    after = mutated_lines[first - 1:last + shift]
    return "\n".join(difflib.unified_diff(before, after, fromfile=path, tofile=path, lineterm=""))


def generate_mutants(source: str, module: str, path: str, *, operators=OPERATORS) -> list[Mutant]:
    """Every mutant of the operators in one module's source, in source order, with deterministic names.

    Raises
    ------
    ValueError
        If an operator is unknown.
    """
    unknown = set(operators) - set(OPERATORS)
    if unknown:
        raise ValueError(f"operators must be among {OPERATORS}; got {sorted(unknown)}")
    tree = ast.parse(source)
    src = _Source(source)
    aliases = import_aliases(tree)
    excluded = module_level_names(tree)
    mutants = []
    for fn in functions_of(tree):
        visible = visible_names(fn, excluded)
        original_dump = _mutated_function_dump(source, source, fn)
        seen = set()
        for operator in OPERATORS:
            if operator not in operators:
                continue
            candidates = sorted(_GENERATORS[operator](fn, src, aliases, visible), key=lambda c: c.position)
            index = 0
            for candidate in candidates:
                mutated = apply_edits(source, candidate.edits)
                dump = _mutated_function_dump(source, mutated, fn)
                if dump is None or dump == original_dump or dump in seen:
                    continue
                seen.add(dump)
                index += 1
                mutants.append(Mutant(f"{module}.{fn.key}{NAME_MARKER}{operator}_{index}", module, path,
                                      fn.qualname, fn.key, operator, index, fn.firstlineno, candidate.edits,
                                      candidate.description, function_diff(source, mutated, fn, path)))
    return mutants
