"""Finding sentences that state a result by hand (issue 40); not a test module.

A *result sentence* states a theorem-level result: a universal claim over the objects the paper's statements
quantify over (populations, distributions, losses, tau, rho, metrics, maximisers, every x) or a verdict on a
result (a theorem "fails" / "holds" / "is false" / "is calibrated").  In the documents a user reads, such a sentence
must be generated from a statement (a ``<!-- generated: ... -->`` block) - never typed by hand; in the strings the
code shows users (claim outcomes, errata, the registry's summaries) a universal claim must be a statement's
conclusion, quoted.

:func:`result_sentences` finds them in Markdown outside generated blocks, code and mathematics.  The patterns are
deliberately broad (a sentence quoting a measured number with "every" still counts when it claims something for
every population); a sentence that is not a result can say so by naming its instance ("on the witness",
"measured").
"""

from __future__ import annotations

import re

#: the objects the paper's statements quantify over
_DOMAIN = (r"populations?|distributions?|P|losses|loss|phi|tau|rho|maximisers?|eta(?:-continuous)?|x|"
           r"neighbourhoods?|(?:U|F_beta|Jaccard)-calibrat\w+|surrogates?")
_QUANTIFIER = r"every|all|any|no|never|always|generically|whatever|for each"
#: a quantifier followed, within a few words, by an object it ranges over
UNIVERSAL = re.compile(rf"\b(?:{_QUANTIFIER})\b(?:\W+[\w*-]+){{0,3}}?\W+(?:{_DOMAIN})\b", re.I)
#: the results a verdict is about
_RESULT = r"(?:Thms?\.|Theorems?|Lemmas?|Props?\.|Propositions?|statements?|conclusions?|claims?|weak form)"
#: a verdict on a result: its subject a theorem, lemma, ... within the sentence, and a verdict word
VERDICT = re.compile(rf"{_RESULT}[^.;]*?\b(?:fails?|(?:is|are) (?:not )?(?:false|true|valid)|holds?|"
                     rf"(?:is|are) (?:not )?\S*calibrated)\b", re.I)
#: a sentence about one named instance (a witness, a measured cell) is not a universal claim
_INSTANCE = re.compile(r"\b(?:on the witness|witness|measured|on this population)\b", re.I)

_GENERATED = re.compile(r"<!-- generated: [^>]*-->.*?<!-- end generated -->", re.S)
_CODE_BLOCK = re.compile(r"```.*?```", re.S)
_INLINE = re.compile(r"`[^`]*`")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
_LINK = re.compile(r"\]\([^)]*\)")


_TABLE_ROW = re.compile(r"^\s*\|.*$", re.M)


def _prose(text: str) -> str:
    for pattern in (_GENERATED, _CODE_BLOCK, _MATH, _INLINE, _LINK, _TABLE_ROW):
        text = pattern.sub(" ", text)
    return text


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (split at '.', ';' or ':' followed by a space and a capital, and at blank lines
    and bullets)."""
    chunks = re.split(r"\n\s*\n|\n\s*[*-] |\n#+ |(?<=[.;!?])\s+(?=[A-Z*(])", text)
    return [" ".join(c.split()) for c in chunks if c.strip()]


def result_sentences(text: str, *, markdown: bool = True) -> list[str]:
    """The result sentences of ``text`` outside generated blocks, code and mathematics (``markdown``) or of a plain
    string."""
    body = _prose(text) if markdown else text
    return [s for s in sentences(body) if (UNIVERSAL.search(s) or VERDICT.search(s)) and not _INSTANCE.search(s)]
