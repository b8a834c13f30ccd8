"""pytest plugin that imports one module from a mutant's source: how measure.py runs the custom operators' mutants.

mutmut 3.8 can only run its own mutants (behind its trampolines), so an operator mutant runs in a fresh pytest
process with this plugin (``-p import_hook``, this folder on ``PYTHONPATH``) and the environment variable
:data:`ENV` naming a JSON file ``{"module": dotted name, "source": the mutated source of the whole module}``.  The
plugin puts a finder first on ``sys.meta_path`` before any test module is imported; when the module is imported,
its code is compiled from that source (with the real file name, so tracebacks point at the module).  Nothing is
written to disk, so several mutants of one module can run at once.

Exit status: pytest's own, except :data:`NOT_APPLIED` when the module was never imported by the session (the
mutant never ran, so the run says nothing about it) or was imported before the plugin could install its finder.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import os
import sys

ENV = "LFVERIFY_MUTANT_SOURCE"
#: exit status of a run whose mutant was not applied
NOT_APPLIED = 97


class MutatedSourceLoader(importlib.machinery.SourceFileLoader):
    """A source loader whose module code is compiled from a given source instead of the file's."""

    def __init__(self, fullname: str, path: str, source: str, applied: list):
        super().__init__(fullname, path)
        self._source, self._applied = source, applied

    def get_code(self, fullname):
        self._applied.append(fullname)
        return compile(self._source, self.path, "exec", dont_inherit=True)


class MutatedModuleFinder(importlib.abc.MetaPathFinder):
    """Finds ``module`` where the path finder would, and loads it with :class:`MutatedSourceLoader`."""

    def __init__(self, module: str, source: str):
        self.module, self.source, self.applied = module, source, []

    def find_spec(self, fullname, path, target=None):
        if fullname != self.module:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        spec.loader = MutatedSourceLoader(fullname, spec.origin, self.source, self.applied)
        return spec


def _install() -> MutatedModuleFinder | None:
    path = os.environ.get(ENV)
    if not path:
        return None
    with open(path, encoding="utf-8") as f:
        job = json.load(f)
    finder = MutatedModuleFinder(job["module"], job["source"])
    if job["module"] not in sys.modules:  # else it would never be loaded again: NOT_APPLIED at the end
        sys.meta_path.insert(0, finder)
    return finder


_FINDER = _install()


def pytest_sessionfinish(session, exitstatus):
    if _FINDER is not None and not _FINDER.applied:
        session.exitstatus = NOT_APPLIED
