"""Sphinx configuration of the lfverify documentation site.

The pages are the Markdown files of ``docs/`` (MyST), readable on their own as well; the API reference is written
from the wings' ``__all__`` by ``docs/apigen.py`` before each build, and rendered from the numpydoc docstrings.
CI builds it with warnings as errors, in nitpicky mode, so a broken cross-reference fails the build::

    pip install ".[docs]" && sphinx-build -W --keep-going -n -b html docs docs/_build/html

No network is used: there is no intersphinx, so references to numpy, scipy or scikit-learn are written as
literals, not roles.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS))

from sphinx import addnodes  # noqa: E402
from sphinx.ext import autosummary  # noqa: E402
from sphinx.transforms import SphinxTransform  # noqa: E402

import apigen  # noqa: E402  (docs/apigen.py, found through the path above)
import lfverify  # noqa: E402  (the installed package: the reference documents what pip installed)

project = "lfverify"
author = "lfverify developers"
copyright = "lfverify developers"
release = version = lfverify.__version__

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
nitpicky = True

# MyST: GitHub-style anchors for headings down to ###, so that links such as ``testing.md#mutation-testing`` work
# in the site as on GitHub.
myst_heading_anchors = 3
# The statements (proofs/*.md) write their mathematics as GitHub does: $...$ inline, $$...$$ displayed (also inside
# a paragraph).  MathJax renders it in the browser; nothing is fetched at build time.  A dollar followed or preceded
# by a space is not math (MyST's rule), so shell variables such as $LFVERIFY_DATASETS stay text.
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_dmath_double_inline = True

# autodoc / numpydoc: signatures without type hints (the numpydoc "Parameters" sections carry the types, and the
# hints would be cross-references to numpy and the standard library that no inventory resolves offline).
autodoc_typehints = "none"
autodoc_member_order = "bysource"
autosummary_generate = False
numpydoc_show_class_members = False
numpydoc_xref_param_type = False

# autosummary ends a summary at the first ". "; the paper's abbreviations (Eq. (6), App. C.2, Thm. 1, ...) do not end
# a sentence.
autosummary.WELL_KNOWN_ABBREVIATIONS = (*autosummary.WELL_KNOWN_ABBREVIATIONS, "App.", "Thm.", "Thms.", "Eq.",
                                        "Eqs.", "Prop.", "Sec.", "Fig.", "Figs.", "Alg.", "Algs.", "Tab.", "Def.")

html_theme = "furo"
html_title = f"lfverify {release}"


def _write_api_pages(app):
    apigen.write_api_pages()


def _skip_foreign_members(app, what, name, obj, skip, options):
    """Document the members lfverify defines (inherited ones included), not those it inherits from scikit-learn,
    numpy or the standard library (``get_params``, ``set_score_request``, ``tuple.count``, ...)."""
    function = getattr(obj, "fget", None) or getattr(obj, "__func__", None) or obj
    if callable(function) or isinstance(obj, property):
        module = getattr(function, "__module__", None) or ""
        if not module.startswith("lfverify"):
            return True
    return None


class _RepositoryFiles(SphinxTransform):
    """A Markdown link to a repository file outside ``docs/`` (README.md, FINDINGS.md, ``proofs/``, ...) is not a
    page of the site: it becomes a download link to the file, as MyST already does for files of other types."""

    default_priority = 800  # at reading time, before the download collector sees the document

    def apply(self, **kwargs):
        source = Path(self.env.doc2path(self.env.docname)).parent
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get("reftype") != "myst" or node.get("refdomain") != "doc":
                continue
            docname = node["reftarget"]
            if docname in self.env.found_docs:
                continue
            path = Path(self.env.srcdir, docname + ".md").resolve()
            if path.is_file() and DOCS not in path.parents:
                download = addnodes.download_reference(
                    refdoc=self.env.docname, reftarget=os.path.relpath(path, source), refexplicit=True,
                    reftype="download", refdomain=None)
                download += node.children
                node.replace_self(download)


def setup(app):
    app.connect("builder-inited", _write_api_pages)
    app.connect("autodoc-skip-member", _skip_foreign_members)
    app.add_transform(_RepositoryFiles)
