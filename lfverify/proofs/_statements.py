"""Corrected results as structured objects: hypotheses, the objects they name (and whether each is unique), the
conclusions, and the summaries that other documents quote - one source for every sentence about a result.

* :class:`Statement` - a result: its hypotheses (:class:`Hypothesis`, keyed), the objects it names
  (:class:`Named`, with ``unique`` and, when not unique, which one a conclusion means), its conclusions
  (:class:`Conclusion`, each with the extra condition it needs and a one-sentence ``summary`` that states that
  condition).  :meth:`Statement.render` is the statement shown in ``proofs/``; :meth:`Statement.summary` is every
  shorter sentence about it (ERRATA.md's table, FINDINGS.md, README's findings): it is assembled from the
  conclusions' summaries, so it cannot drop a condition the statement has.
* The hypothesis ledger: every proof step records the hypotheses it uses (``Step.uses``) and the earlier results it
  cites (``Step.cites``); a cited result's hypotheses must be hypotheses of the citing statement or be discharged by
  a step (``Step.discharges``).  :func:`ledger_problems` lists a step that uses a hypothesis the statement does not
  state, and a stated hypothesis that no step uses (then the statement could be strengthened).
* :func:`render_generated_blocks` rewrites the marked blocks of a document
  (``<!-- generated: summary KEY -->`` ... ``<!-- end generated -->``) from the statements; a test fails when a
  committed block is not what its statement generates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Hypothesis", "Necessity", "SUFFICIENT", "Named", "Conclusion", "Statement", "ledger_problems",
           "render_generated_blocks", "generated_blocks"]


@dataclass(frozen=True)
class Hypothesis:
    """One hypothesis of a statement."""

    key: str  #: e.g. "positive_u_star"
    text: str  #: Markdown with inline LaTeX, e.g. "$U_\\phi^* > 0$"
    note: str = ""  #: why it is there (e.g. "Lemma 1's hypothesis, which the printed proof uses but omits")
    plain: str = ""  #: plain text for summaries, e.g. "U_phi* > 0" (the lead lists added hypotheses by it)


#: the words a statement uses for a hypothesis that no recorded instance shows to be needed
SUFFICIENT = "sufficient; not known to be necessary"


@dataclass(frozen=True)
class Necessity:
    """Why a hypothesis is in a statement (issue 40): ``witness`` names an instance of the project's corpus
    (tests/proofs/statement_instances.py) that satisfies every other hypothesis, violates this one and on which the
    conclusion ``breaks`` fails - then the hypothesis is needed - or, with no witness, the statement says
    :data:`SUFFICIENT` and ``reason`` says what the proof uses it for (and, where a weaker condition is all it uses,
    which one and what implies it).  A witness's ``reason``, where given, says what the need is tied to."""

    witness: str = ""
    breaks: str = ""  #: the key of the conclusion that fails on the witness
    reason: str = ""

    def __post_init__(self):
        if bool(self.witness) != bool(self.breaks):
            raise ValueError("a necessity witness names the instance and the conclusion it breaks")
        if not self.witness and not self.reason:
            raise ValueError(f"a hypothesis without a necessity witness must say why it is there ({SUFFICIENT})")

    @property
    def needed(self) -> bool:
        return bool(self.witness)


@dataclass(frozen=True)
class Named:
    """An object a statement names, e.g. the surrogate maximiser."""

    symbol: str  #: LaTeX, e.g. "f^*"
    meaning: str  #: what it is
    unique: bool  #: whether the hypotheses make it unique
    which: str = ""  #: when not unique: which one the conclusions mean (or that they hold for every one)

    def __post_init__(self):
        if not self.unique and not self.which:
            raise ValueError(f"{self.symbol}: a non-unique object must say which one the statement means")


@dataclass(frozen=True)
class Conclusion:
    """One numbered conclusion."""

    key: str
    title: str  #: e.g. "Weak form"
    text: str  #: Markdown/LaTeX; may hold <<PLACEHOLDERS>> filled by :meth:`Statement.render`
    summary: str  #: one plain-text sentence that states the conclusion *with* its condition
    condition: str = ""  #: the extra condition of this conclusion in words ("" = none beyond the hypotheses)
    condition_tex: str = ""  #: the same condition as the rendered text words it (Markdown/LaTeX)

    def __post_init__(self):
        if bool(self.condition) != bool(self.condition_tex):
            raise ValueError(f"conclusion {self.key}: a condition is given in words and as the text words it")
        if self.condition and self.condition not in self.summary:
            raise ValueError(f"conclusion {self.key}: its summary must state its condition {self.condition!r}")
        if self.condition_tex and self.condition_tex not in self.text:
            raise ValueError(f"conclusion {self.key}: its text must state its condition {self.condition_tex!r}")


@dataclass(frozen=True)
class Statement:
    """A corrected result (see the module docstring)."""

    key: str  #: the claim key of its proof, e.g. "corrected_calibration.fbeta"
    title: str  #: e.g. "Theorem 1 (corrected)"
    hypotheses: tuple
    objects: tuple
    conclusions: tuple
    setting: str = ""  #: definitions after the hypotheses (Markdown/LaTeX, may hold placeholders)
    lead: str = ""  #: the summary's opening when it is not generated from ``printed_hypotheses``
    hypotheses_from: str = ""  #: title of a statement whose hypotheses these repeat (rendered as a reference)
    #: the keys of the hypotheses the printed result has (and ``printed_replaced``: what takes the place of the printed
    #: ones this statement does not keep, in words): the summary's lead then lists every added hypothesis, generated,
    #: never typed
    printed_hypotheses: frozenset = None
    printed_replaced: str = ""
    #: (hypothesis key, :class:`Necessity`) for every hypothesis: a witness that it is needed, or why it is there
    necessity: tuple = ()

    def __post_init__(self):
        keys = [h.key for h in self.hypotheses]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.key}: duplicate hypothesis keys {keys}")
        if self.printed_hypotheses is not None and self.lead:
            raise ValueError(f"{self.key}: the lead is generated from printed_hypotheses; do not type it")

    @property
    def added_hypotheses(self) -> tuple:
        """The hypotheses this statement has and the printed result does not (empty when not compared)."""
        if self.printed_hypotheses is None:
            return ()
        return tuple(h for h in self.hypotheses if h.key not in self.printed_hypotheses)

    @property
    def opening(self) -> str:
        """The summary's lead: generated from the added hypotheses where the printed ones are known."""
        if self.printed_hypotheses is None:
            if self.lead:
                return self.lead
            plain = [h.plain or h.key for h in self.hypotheses]
            return "under " + ", ".join(plain[:-1]) + (" and " if len(plain) > 1 else "") + plain[-1]
        added = [h.plain or h.key for h in self.added_hypotheses]
        words = ", ".join(added[:-1]) + (" and " if len(added) > 1 else "") + added[-1] if added else ""
        lead = f"with {words} added to the hypotheses" if words else "with the printed hypotheses"
        return f"{lead}, and {self.printed_replaced}" if self.printed_replaced else lead

    @property
    def hypothesis_keys(self) -> frozenset:
        return frozenset(h.key for h in self.hypotheses)

    def necessity_of(self, key: str):
        """The :class:`Necessity` record of hypothesis ``key`` (None when the statement has none)."""
        return dict(self.necessity).get(key)

    def conclusion(self, key: str) -> Conclusion:
        for c in self.conclusions:
            if c.key == key:
                return c
        raise KeyError(f"{self.key} has no conclusion {key!r}; known: {[c.key for c in self.conclusions]}")

    @property
    def anchor(self) -> str:
        """The id of the statement's anchor in ``proofs/`` and the documentation site."""
        return "statement-" + re.sub(r"[^a-z0-9]+", "-", self.key.lower()).strip("-")

    def conclusion_anchor(self, key: str) -> str:
        """The id of conclusion ``key``'s anchor."""
        return f"{self.anchor}-{re.sub(r'[^a-z0-9]+', '-', self.conclusion(key).key.lower()).strip('-')}"

    def render(self, **values) -> str:
        """The statement in Markdown: hypotheses (numbered H1, H2, ...), named objects, setting, conclusions; between
        ``<!-- generated: statement KEY -->`` markers (the statement is the source of every sentence about it), with
        an anchor for the statement and one for each conclusion."""
        return (f'<a id="{self.anchor}"></a>\n\n<!-- generated: statement {self.key} -->\n' + self._render(values)
                + "\n<!-- end generated -->")

    def _render(self, values) -> str:
        lines = [f"**{self.title}.**  *Hypotheses*"
                 + (f" (those of {self.hypotheses_from}, repeated)" if self.hypotheses_from else "") + ":"]
        for i, h in enumerate(self.hypotheses, 1):
            lines.append(f"(H{i}) {h.text}" + (f" ({h.note})" if h.note else "") + self._necessity_text(h.key) + ";")
        lines[-1] = lines[-1][:-1] + "."
        text = "\n".join(lines)
        if self.objects:
            text += "\n\n*Named objects*: " + "; ".join(
                f"${o.symbol}$ {o.meaning}" + ("" if o.unique else f" - not unique in general: {o.which}")
                for o in self.objects) + "."
        if self.setting:
            text += "\n\n" + self.setting
        for i, c in enumerate(self.conclusions, 1):
            text += f'\n\n<a id="{self.conclusion_anchor(c.key)}"></a>\n\n{i}. **{c.title}.** {c.text}'
        return _fill(text, values)

    def _necessity_text(self, key: str) -> str:
        record = self.necessity_of(key)
        if record is None:
            return ""
        if record.needed:
            number = [c.key for c in self.conclusions].index(record.breaks) + 1
            return (f" - needed: without it conclusion {number} fails on the instance \"{record.witness}\""
                    + (f" ({record.reason})" if record.reason else ""))
        return f" - {SUFFICIENT}: {record.reason}"

    def summary(self, keys=None) -> str:
        """One paragraph: the lead, then the chosen conclusions' summaries (each with its condition)."""
        chosen = self.conclusions if keys is None else tuple(self.conclusion(k) for k in keys)
        body = "; ".join(c.summary for c in chosen)
        return f"{self.title}: " + (f"{self.opening}, " if self.opening else "") + body + "."

    def headline(self) -> str:
        """One line: the lead and the first conclusion's summary (with its condition)."""
        first = self.conclusions[0].summary
        return f"{self.opening}: {first}" if self.opening else first

    def hypothesis_number(self, key: str) -> str:
        for i, h in enumerate(self.hypotheses, 1):
            if h.key == key:
                return f"H{i}"
        raise KeyError(key)


def _fill(template: str, values: dict) -> str:
    for name, value in values.items():
        template = template.replace(f"<<{name}>>", str(value))
    if "<<" in template:
        raise ValueError(f"unfilled placeholder in {template[template.index('<<'):][:40]!r}")
    return template


def ledger_problems(statement: Statement, steps, cited: dict) -> list[str]:
    """What the proof's ledger says about the statement's hypotheses.

    Parameters
    ----------
    statement : Statement
    steps : sequence of Step
        Each with ``uses`` (hypothesis keys), ``cites`` (keys of earlier statements) and ``discharges``
        (hypothesis keys of cited statements that the step proves for this setting).
    cited : mapping of statement key to Statement
        The statements the steps may cite.

    Returns
    -------
    list of str
        A step using a hypothesis the statement does not list; a cited result whose hypothesis is neither the
        statement's nor discharged by a step; a listed hypothesis no step uses.  And the content checks: a step that
        uses a hypothesis must record (``Step.without``) that its check fails without it, or why that cannot be
        run; a step whose check still holds without the hypothesis does not exercise it.  A step that discharges a
        hypothesis must record (``Step.proves``) that its check evaluated it, or why that cannot be done.
    """
    problems, used = [], set()
    own = statement.hypothesis_keys
    discharged = {k for s in steps for k in getattr(s, "discharges", ())}
    for i, s in enumerate(steps, 1):
        without = dict(getattr(s, "without", ()))
        proves = dict(getattr(s, "proves", ()))
        for key in getattr(s, "uses", ()):
            if key not in own:
                problems.append(f"step {i} uses {key!r}, which {statement.title} does not state")
            used.add(key)
            verdict = without.get(key)
            if verdict is None:
                problems.append(f"step {i} uses {key!r} but records no run of its check without it")
            elif verdict == "holds without it":
                problems.append(f"step {i}'s check still holds without {key!r}: it does not exercise that hypothesis")
        for key in set(without) - set(getattr(s, "uses", ())):
            problems.append(f"step {i} records a run without {key!r}, which it does not use")
        for key in getattr(s, "discharges", ()):
            verdict = proves.get(key)
            if verdict is None:
                problems.append(f"step {i} discharges {key!r} but its check does not evaluate it")
            elif verdict == "false":
                problems.append(f"step {i} discharges {key!r}, which its check finds false")
        for ref in getattr(s, "cites", ()):
            if ref not in cited:
                problems.append(f"step {i} cites {ref!r}, which is not a known result")
                continue
            for key in cited[ref].hypothesis_keys:
                if key in own:
                    used.add(key)
                elif key not in discharged:
                    problems.append(f"step {i} cites {cited[ref].title}, whose hypothesis {key!r} is neither "
                                    f"stated by {statement.title} nor discharged by a step")
    for h in statement.hypotheses:
        if h.key not in used:
            problems.append(f"hypothesis {h.key!r} ({h.text}) is never used: {statement.title} holds without it")
    return problems


_BLOCK = re.compile(r"(<!-- generated: (?P<kind>[\w-]+) (?P<key>[\w.:+-]+) -->\n)(?P<body>.*?)(<!-- end generated -->)",
                    re.S)


def generated_blocks(text: str) -> list[tuple[str, str, str]]:
    """(kind, key, body) of every generated block of a document."""
    return [(m["kind"], m["key"], m["body"]) for m in _BLOCK.finditer(text)]


def render_generated_blocks(text: str, render) -> str:
    """``text`` with every generated block's body replaced by ``render(kind, key)`` (a str ending in a newline)."""
    return _BLOCK.sub(lambda m: m.group(1) + render(m["kind"], m["key"]) + m.group(5), text)
