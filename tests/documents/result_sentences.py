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
_DOMAIN = (r"populations?|distributions?|(?-i:P)|losses|loss|phi|tau|rho|maximisers?|eta(?:-continuous)?|(?-i:x)|"
           r"atoms?|neighbourhoods?|(?:U|F_beta|Jaccard)-calibrat\w+|surrogates?")
_QUANTIFIER = r"every|all|any|no|never|always|generically|whatever|for each"
#: a quantifier followed, within a few words, by an object it ranges over
UNIVERSAL = re.compile(rf"\b(?:{_QUANTIFIER})\b(?:\W+[\w*-]+){{0,2}}?\W+(?:{_DOMAIN})\b", re.I)
#: the results a verdict is about
_RESULT = r"(?:Thms?\.|Theorems?|Lemmas?|Props?\.|Propositions?|statements?|conclusions?|claims?|weak form)"
#: a verdict on a result: its subject a theorem, lemma, ... within the sentence, and a verdict word
VERDICT = re.compile(rf"{_RESULT}[^.;]*?\b(?:fails?|(?:is|are) (?:not )?(?:false|true|valid)|holds?|"
                     rf"(?:is|are) (?:not )?\S*calibrated)\b", re.I)
#: a sentence about named instances (a witness, a pinned population, a measured cell) is not a universal claim
_INSTANCE = re.compile(r"\b(?:on the witness|witness|measured|on this population|pinned)\b", re.I)

_GENERATED = re.compile(r"<!-- generated: [^>]*-->.*?<!-- end generated -->", re.S)
_CODE_BLOCK = re.compile(r"```.*?```", re.S)
_INLINE = re.compile(r"`[^`]*`")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
_LINK = re.compile(r"\]\([^)]*\)")


_TABLE_ROW = re.compile(r"^\s*\|.*$", re.M)
#: words quoted, not asserted: 'for all x', "on every population" and ERRATA's Printed: field
_QUOTED = re.compile(r"(?<![\w])'[^'\n]{1,200}'(?![\w])|\"[^\"\n]{1,200}\"|"
                     r"^\s*[-*]?\s*(?:\*\*)?Printed:(?:\*\*)?.*$", re.M)


def _prose(text: str) -> str:
    for pattern in (_GENERATED, _CODE_BLOCK, _MATH, _INLINE, _LINK, _TABLE_ROW, _QUOTED):
        text = pattern.sub(" ", text)
    return text


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (split at '.', ';' or ':' followed by a space and a capital, and at blank lines
    and bullets)."""
    chunks = re.split(r"\n\s*\n|\n\s*[*-] |\n#+ |(?<=[.;!?])\s+(?=[A-Z*(])", text)
    return [" ".join(c.split()) for c in chunks if c.strip()]


def result_sentences(text: str, *, verdicts: bool = True, statements=()) -> list[str]:
    """The result sentences of the Markdown ``text`` outside generated blocks, code, mathematics and quotations of
    the paper: universal claims, and (``verdicts``) verdicts on results.  A sentence that quotes a statement's
    summary (it holds "TITLE: " for a title of ``statements``) is the statement's, not typed.  The generated
    documents (ERRATA.md, proofs/) are scanned without ``verdicts``: each erratum's verdict is its own checked
    finding, with a witness."""
    quoting = tuple(f"{title}: " for title in statements)
    return [s for s in sentences(_prose(text))
            if (UNIVERSAL.search(s) or (verdicts and VERDICT.search(s))) and not _INSTANCE.search(s)
            and not any(q in s for q in quoting)]
