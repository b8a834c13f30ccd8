"""Sphinx configuration of the lfverify documentation site.

The pages are the Markdown files of ``docs/`` (MyST), readable on their own as well; the API reference is written
from the wings' ``__all__`` by ``docs/apigen.py`` before each build, and rendered from the numpydoc docstrings.  The
statements - README.md, ERRATA.md, FINDINGS.md and every document of ``proofs/`` - are pages too, with their
mathematics (dollarmath, rendered by MathJax in the browser): each is included from its source by a page of
``docs/project/`` or ``docs/proofs/`` (MyST's ``{include}``), and the transforms below make their links and anchors
work in the site.
CI builds it with warnings as errors, in nitpicky mode, so a broken cross-reference fails the build::

    pip install ".[docs]" && sphinx-build -W --keep-going -n -b html docs docs/_build/html

No network is used: there is no intersphinx, so references to numpy, scipy or scikit-learn are written as
literals, not roles.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS))

import apigen  # noqa: E402  (docs/apigen.py, found through the path above)
from docutils import nodes  # noqa: E402
from sphinx import addnodes  # noqa: E402
from sphinx.ext import autosummary  # noqa: E402
from sphinx.transforms import SphinxTransform  # noqa: E402

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
myst_dmath_allow_space = False

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
#: wide tables wrap their cells and scroll inside their column (issue 44: the checks table overflowed at 1280 px)
html_static_path = ["_static"]
html_css_files = ["tables.css"]


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


#: A page of the site that shows a repository file includes it whole, from where it is written (one source, no copy):
#: a fenced ``{include}`` directive naming the file relative to the page (docs/project/*.md, docs/proofs/*.md).
_INCLUDE = re.compile(r"^(?:`{3,}|~{3,})[ \t]*\{include\}[ \t]+(\S+)[ \t]*$", re.M)
#: An HTML anchor on a line of its own, as the statements write theirs: ``<a id="e10"></a>``.
_HTML_ANCHOR = re.compile(r'\s*<a id="([^"<>\s]+)"></a>\s*')


def included_files(docs: Path = DOCS) -> dict[Path, str]:
    """The repository files shown by a page of the site -> that page's docname (the first, if several include it;
    tests/documents/test_docs.py requires exactly one)."""
    shown: dict[Path, str] = {}
    for page in sorted(docs.rglob("*.md")):
        relative = page.relative_to(docs)
        if relative.parts[0] in exclude_patterns:
            continue
        for target in _INCLUDE.findall(page.read_text(encoding="utf-8")):
            shown.setdefault((page.parent / target).resolve(), relative.with_suffix("").as_posix())
    return shown


_SHOWN: dict[Path, str] = {}


def _find_shown_files(app):
    _SHOWN.clear()
    _SHOWN.update(included_files())


class _HtmlAnchors(SphinxTransform):
    """``<a id="e10"></a>`` (the statements' anchors of their errata and corrected statements) becomes a target of
    the page with that id, and a link ``[E10](#e10)`` of the page points to it: MyST knows only the anchors of
    headings.  The target has no name, so the same erratum anchored in two statements is not a duplicate label of
    the site.  An anchor that the heading below it already has as its id is dropped (one id in the HTML)."""

    default_priority = 690  # at reading time, before MyST adds the headings' slugs (700) and resolves #links (879)

    def apply(self, **kwargs):
        created = set()
        # Markdown reads the line as a paragraph of two raw HTML pieces, <a id="e10"> and </a>.
        for paragraph in list(self.document.findall(nodes.paragraph)):
            pieces = paragraph.children
            if not pieces or not all(isinstance(piece, nodes.raw) and piece.get("format") == "html"
                                     for piece in pieces):
                continue
            match = _HTML_ANCHOR.fullmatch("".join(piece.astext() for piece in pieces))
            if not match:
                continue
            anchor = match.group(1)
            if anchor in self.document.ids:
                paragraph.parent.remove(paragraph)
                continue
            target = nodes.target("", "", ids=[anchor])
            self.document.ids[anchor] = target
            paragraph.replace_self(target)
            created.add(anchor)
        for reference in self.document.findall(nodes.reference):
            if reference.get("id_link") and reference.get("refuri", "")[1:] in created:
                reference["refid"] = reference["refuri"][1:]
                del reference["refuri"], reference["id_link"]


class _RepositoryFiles(SphinxTransform):
    """Markdown links to repository files work in the site as on GitHub, in the pages of docs/ and in the files the
    pages include.  A link is taken relative to the file it is written in (MyST takes it relative to the page, which
    for an included file - ``proofs/theorem-1.md`` shown by ``docs/proofs/theorem-1.md`` - is another folder), then:

    * a file a page shows (README.md, ERRATA.md, FINDINGS.md, proofs/*.md) links that page; its ``#anchor`` is one
      of the page's (the included text's heading anchors are the page's, checked by MyST as for any page);
    * a page of docs/ links that page;
    * any other file (benchmarks/results/..., simulations/README.md, ...) is not a page of the site: the link
      becomes a download link to the file, as MyST already does for files of other types;
    * a missing file is left to MyST, which fails the build (nitpicky) - except in an included file a "link" to a
      bare word, which names no file: ERRATA.md's ``E[W_0,phi](c)`` (the expectation of W_0,phi at c) is Markdown
      for a link to ``c``; it is shown as written.
    """

    default_priority = 800  # at reading time, before the download collector sees the document

    def apply(self, **kwargs):
        page = Path(self.env.doc2path(self.env.docname)).parent
        for node in list(self.document.findall(addnodes.pending_xref, addnodes.download_reference)):
            if node.get("reftype") != "myst" or node.get("refdomain") not in ("doc", None):
                continue
            written_in = Path(node.source).parent if node.source else page
            if node.get("refdomain") == "doc":
                if written_in == page and node["reftarget"] in self.env.found_docs:
                    continue  # a page of the site, linked from a page of docs/: MyST's own case
                path, anchor = self._source_file(node["reftarget"]), node.get("reftargetid")
            else:
                written, _, anchor = node["reftarget"].partition("#")
                path = (page / written).resolve()
            if path is None:
                continue
            path = (written_in / os.path.relpath(path, page)).resolve()  # as written, from where it is written
            docname = _SHOWN.get(path) or (self.env.path2doc(str(path)) if DOCS in path.parents else None)
            if docname in self.env.found_docs:
                xref = addnodes.pending_xref(refdomain="doc", reftarget=docname, reftargetid=anchor or None,
                                             refdoc=self.env.docname, reftype="myst",
                                             refexplicit=node.get("refexplicit", False))
                xref.source, xref.line = node.source, node.line
                if "reftitle" in node:
                    xref["reftitle"] = node["reftitle"]
                xref += node.children
                node.replace_self(xref)
            elif path.is_file():
                download = addnodes.download_reference(
                    refdoc=self.env.docname, reftarget=os.path.relpath(path, page), refexplicit=True,
                    reftype="download", refdomain=None)
                download.source, download.line = node.source, node.line
                download += node.children
                node.replace_self(download)
            elif written_in != page and re.fullmatch(r"\w+", os.path.relpath(path, written_in)):
                text = node[0].deepcopy().children if len(node) else []
                node.replace_self(nodes.inline("", "", nodes.Text("["), *text,
                                               nodes.Text(f"]({os.path.relpath(path, written_in)})")))
            elif written_in != page:
                node["reftarget"] = os.path.relpath(path, written_in) + (f"#{anchor}" if anchor else "")

    def _source_file(self, docname):
        """The file MyST resolved a link to (a docname outside docs/, such as ``../README``, is not a page)."""
        if docname in self.env.found_docs:
            return Path(self.env.doc2path(docname)).resolve()
        return next((Path(self.env.srcdir, docname + suffix).resolve() for suffix in source_suffix
                     if Path(self.env.srcdir, docname + suffix).is_file()), None)


def setup(app):
    app.connect("builder-inited", _write_api_pages)
    app.connect("builder-inited", _find_shown_files)
    app.connect("autodoc-skip-member", _skip_foreign_members)
    app.add_transform(_HtmlAnchors)
    app.add_transform(_RepositoryFiles)
