"""One source for every corrected statement, and the hypothesis ledger (issue 30; lfverify/proofs/_statements.py).

Oracles: the committed documents themselves (each generated block must be byte-for-byte what its statement
generates), the registry (no corrected claim carries hand-typed text) and the proofs' own step records (the ledger
must match the statement; a statement with a hypothesis removed must be refused; every step that uses a hypothesis
records that its check fails without it, every discharge that its check evaluated it).  Run as a script
(``python tests/proofs/test_statements.py``) to rewrite the generated blocks of README.md and FINDINGS.md after a
statement changes.

Private: lfverify.proofs._statements (the statement types and the ledger), _corrected_statements (FBETA, summary_block
and its line wrapping, _wrap) and _drops (rerun, weakened, weaker), the ledger's parts, which no face exports.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import sympy as sp

from claim_results import CLAIM_RESULTS
from lfverify.paper import CORRECTED_CLAIMS
from lfverify.proofs import STATEMENTS, Step, Steps, statement_of, with_statement_texts
from lfverify.proofs import corrected_calibration as calibration
from lfverify.proofs import corrected_rademacher as rademacher
from lfverify.proofs._corrected_statements import FBETA
from lfverify.proofs._corrected_statements import summary_block as _summary_block
from lfverify.proofs._drops import rerun, weakened, weaker
from lfverify.proofs._statements import (
    Conclusion,
    Hypothesis,
    Named,
    Statement,
    generated_blocks,
    ledger_problems,
    render_generated_blocks,
)

ROOT = Path(__file__).resolve().parents[2]
#: The tests whose oracle is the statements' machinery (the ledger on toy proofs, the registry's rendered text, the
#: statement objects' own rules) keep the registry; those that read a document keep the documentation; those whose
#: oracle is a corrected proof's steps or its mathematics name the corrected statement they check.
pytestmark = pytest.mark.claims("package:registry")
#: documents with generated summary blocks, and how many each must carry (a block deleted by hand is a failure too)
DOCUMENTS = {"README.md": 8, "FINDINGS.md": 10}


def summary_block(kind, key):
    """The generated blocks' bodies, with the files they count read from this repository."""
    return _summary_block(kind, key, root=ROOT)


@pytest.mark.claims("package:documentation")
@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_committed_summaries_are_generated_from_their_statements(name):
    text = (ROOT / name).read_text()
    blocks = generated_blocks(text)
    assert len(blocks) == DOCUMENTS[name]
    for kind, key, body in blocks:
        assert body == summary_block(kind, key), f"{name}: block {key} differs from its statement's summary"
    assert render_generated_blocks(text, summary_block) == text


@pytest.mark.claims("package:documentation")
def test_a_hand_edited_summary_is_detected():
    """Companion: dropping the condition from a committed summary (the gap-3 edit) breaks the equality above."""
    text = (ROOT / "README.md").read_text()
    kind, key, body = next(b for b in generated_blocks(text) if "rho <= tau_F" in b[2])
    edited = text.replace(body, body.replace("if rho <= tau_F", "always", 1))
    assert edited != text
    assert any(b != summary_block(k, key_) for k, key_, b in generated_blocks(edited))
    assert render_generated_blocks(edited, summary_block) == text


def test_corrected_claims_in_the_registry_carry_no_hand_typed_text():
    """Every corrected claim names its statement(s) and has no statement or summary of its own; what the report and
    ERRATA print is rendered from the statements."""
    assert CORRECTED_CLAIMS
    for claim in CORRECTED_CLAIMS:
        assert claim.statement_key, claim.key
        assert (claim.statement, claim.summary) == ("", ""), claim.key
        statements = [statement_of(k) for k in claim.statement_key.split("+")]
        rendered = with_statement_texts(claim)
        assert rendered.summary == " ".join(s.summary() for s in statements)
        assert all(s.headline() in rendered.statement for s in statements)


def test_an_unknown_statement_key_is_refused_with_the_known_keys():
    with pytest.raises(KeyError, match="corrected_calibration.fbeta"):
        statement_of("corrected_calibration.fbta")


#: Every corrected proof whose steps carry a ledger: its statement's key and its check.
PROOFS = {
    "corrected_calibration.sign_pattern": calibration.check_sign_pattern,
    "corrected_calibration.criterion": calibration.check_criterion,
    "corrected_calibration.fbeta": calibration.check_fbeta,
    "corrected_calibration.jaccard": calibration.check_jaccard,
    "corrected_calibration.general": calibration.check_general,
    "corrected_rademacher.lemma": rademacher.check_lemma,
    "corrected_rademacher.rate": rademacher.check_rate,
}
#: The (proof, step, hypothesis) whose run without the hypothesis is recorded as impossible, with a reason: steps that
#: are an argument or a citation and compute nothing with the hypothesis.  A new reason must be added here on purpose.
REASONS = {
    ("corrected_calibration.criterion", 4, "phi_convex"),
    ("corrected_calibration.criterion", 9, "definition1"),
    ("corrected_rademacher.lemma", 5, "phi_pieces"),
    ("corrected_rademacher.rate", 1, "lemma4_setting"),
    ("corrected_rademacher.rate", 1, "bounded_scores"),
    ("corrected_rademacher.rate", 2, "lemma4_setting"),
}


#: The corrected statements whose proof each key's steps record (the Proposition and the criterion are the steps
#: Theorems 1, 2 and 7 (corrected) cite).
_CLAIMS_OF_PROOF = {
    "corrected_calibration.sign_pattern": ("Theorem 1 (corrected)", "Theorem 2 (corrected)", "Theorem 7 (corrected)"),
    "corrected_calibration.criterion": ("Theorem 1 (corrected)", "Theorem 2 (corrected)", "Theorem 7 (corrected)"),
    "corrected_calibration.fbeta": ("Theorem 1 (corrected)",),
    "corrected_calibration.jaccard": ("Theorem 2 (corrected)",),
    "corrected_calibration.general": ("Theorem 7 (corrected)",),
    "corrected_rademacher.lemma": ("Lemma (App. C) (corrected)",),
    "corrected_rademacher.rate": ("Lemma 4 (corrected)",),
}
PROOF_KEYS = [pytest.param(key, id=key, marks=pytest.mark.claims(*_CLAIMS_OF_PROOF[key])) for key in sorted(PROOFS)]


def _steps(key):
    """The steps the proof ``key`` records, from the derivations' per-process cache (tests/claim_results.py): the
    registry's claim of that key runs the check PROOFS names, once per process, however many tests read it."""
    result = CLAIM_RESULTS[key]
    assert result.claim.check is PROOFS[key], key
    assert result.outcome.status == "verified", result.outcome.summary
    return result.outcome.steps


@pytest.mark.parametrize("key", PROOF_KEYS)
def test_the_proofs_ledger_matches_its_statement(key):
    """The steps of the proof record exactly the statement's hypotheses: none missing, none unused, and each use and
    discharge backed by its content check."""
    assert STATEMENTS.keys() == PROOFS.keys()
    assert ledger_problems(STATEMENTS[key], _steps(key), STATEMENTS) == []


@pytest.mark.parametrize("key", PROOF_KEYS)
def test_every_use_fails_without_its_hypothesis_and_every_discharge_is_evaluated(key):
    """Oracle: the recorded steps.  Each hypothesis a step uses has a run of the step's check without it, which failed,
    or a reason (only those of REASONS); each hypothesis a step discharges was evaluated by its check and holds."""
    reasons, uses, discharges = set(), 0, 0
    for number, step in enumerate(_steps(key), 1):
        without, proves = dict(step.without), dict(step.proves)
        assert set(without) == set(step.uses), (number, step.text)
        assert set(proves) == set(step.discharges), (number, step.text)
        for hypothesis, verdict in without.items():
            uses += 1
            if verdict.startswith("not checkable: "):
                assert verdict.removeprefix("not checkable: ").strip(), (number, hypothesis)
                reasons.add((key, number, hypothesis))
            else:
                assert verdict == "fails without it", (number, hypothesis, verdict)
        for hypothesis, verdict in proves.items():
            discharges += 1
            assert verdict == "checked", (number, hypothesis, verdict)
    assert reasons == {r for r in REASONS if r[0] == key}
    assert uses > len(reasons)  # every proof exercises some hypothesis by a run
    assert discharges == {"corrected_calibration.fbeta": 4, "corrected_calibration.jaccard": 4,
                          "corrected_calibration.general": 1}.get(key, 0)


@pytest.mark.claims("Theorem 1 (corrected)")
def test_the_ledger_refuses_theorem_1_without_u_star_positive():
    """Gap 1 seen by the ledger: Theorem 1 (corrected) with U_phi* > 0 removed - the form it had before the review -
    is refused, naming the hypothesis its cited Proposition uses (the adversary's witness is in
    tests/proofs/test_adversary.py::test_gap_missing_hypothesis_u_star_positive)."""
    steps = _steps("corrected_calibration.fbeta")
    weaker = dataclasses.replace(FBETA, hypotheses=tuple(h for h in FBETA.hypotheses if h.key != "u_star_positive"))
    problems = ledger_problems(weaker, steps, STATEMENTS)
    assert problems and all("u_star_positive" in p for p in problems)


def _toy(*keys):
    return Statement("toy.key", "Toy", tuple(Hypothesis(k, k) for k in keys), (),
                     (Conclusion("c", "C", "text", "a summary"),))


def _fails(*keys):
    """A step's record that its check failed without each of ``keys``."""
    return tuple((k, "fails without it") for k in keys)


def test_the_ledger_reports_an_unstated_use_an_unused_hypothesis_and_an_undischarged_citation():
    cited = {"toy.cited": dataclasses.replace(_toy("h1", "h9"), key="toy.cited", title="Cited")}
    steps = [Step("a", uses=("h1",), without=_fails("h1")), Step("b", uses=("h3",), without=_fails("h3")),
             Step("c", cites=("toy.cited",))]
    problems = ledger_problems(_toy("h1", "h2"), steps, cited)
    assert problems == [
        "step 2 uses 'h3', which Toy does not state",
        "step 3 cites Cited, whose hypothesis 'h9' is neither stated by Toy nor discharged by a step",
        "hypothesis 'h2' (h2) is never used: Toy holds without it"]
    discharged = steps + [Step("d", uses=("h2",), discharges=("h9",), without=_fails("h2"),
                               proves=(("h9", "checked"),))]
    assert ledger_problems(_toy("h1", "h2", "h3"), discharged, cited) == []


def _toy_ledger(**add):
    """ledger_problems of a one-step toy proof of Toy (h1), the step recorded by Steps.add(**add); it may cite Cited
    (h1, h9)."""
    cited = {"toy.cited": dataclasses.replace(_toy("h1", "h9"), key="toy.cited", title="Cited")}
    st = Steps()
    assert st.add("a toy step", **add)
    return ledger_problems(_toy("h1"), st.as_tuple(), cited)


def test_the_ledger_accepts_a_check_that_fails_without_its_hypothesis_and_an_evaluated_discharge():
    assert _toy_ledger(uses=("h1",), without={"h1": lambda: False}, cites=("toy.cited",), discharges=("h9",),
                       proves={"h9": lambda: True}) == []
    assert _toy_ledger(uses=("h1",), without={"h1": "a cited theorem; nothing to re-run"}) == []


def test_the_ledger_reports_a_check_that_still_holds_without_its_hypothesis():
    """Companion: a ``without`` run that still holds is a step that does not exercise the hypothesis."""
    assert _toy_ledger(uses=("h1",), without={"h1": lambda: True}) == [
        "step 1's check still holds without 'h1': it does not exercise that hypothesis"]


def test_the_ledger_reports_a_use_without_a_run_and_a_run_without_a_use():
    """Companions: a use with no ``without`` entry, and an entry for a hypothesis the step does not use."""
    assert _toy_ledger(uses=("h1",)) == ["step 1 uses 'h1' but records no run of its check without it"]
    assert _toy_ledger(uses=("h1",), without={"h1": lambda: False, "h9": lambda: False}) == [
        "step 1 records a run without 'h9', which it does not use"]
    with pytest.raises(ValueError, match="must not be empty"):
        _toy_ledger(uses=("h1",), without={"h1": "  "})


def test_the_ledger_reports_a_discharge_found_false_or_not_evaluated():
    """Companions: a ``proves`` that returns False, and a discharge with no ``proves`` entry."""
    base = dict(uses=("h1",), without={"h1": lambda: False}, cites=("toy.cited",), discharges=("h9",))
    assert _toy_ledger(**base, proves={"h9": lambda: False}) == ["step 1 discharges 'h9', which its check finds false"]
    assert _toy_ledger(**base) == ["step 1 discharges 'h9' but its check does not evaluate it"]


def test_a_real_step_whose_check_holds_without_its_hypothesis_is_refused():
    """Companion on a real proof: the Proposition's step 7 recorded as holding without convexity is refused."""
    steps = list(_steps("corrected_calibration.sign_pattern"))
    step = steps[6]
    assert step.uses == ("phi_convex", "phi_nonincreasing", "phi_left_slope")
    steps[6] = dataclasses.replace(step, without=(("phi_convex", "holds without it"),) + step.without[1:])
    assert ledger_problems(STATEMENTS["corrected_calibration.sign_pattern"], steps, STATEMENTS) == [
        "step 7's check still holds without 'phi_convex': it does not exercise that hypothesis"]


@pytest.mark.claims("Theorem 1 (corrected)", "Theorem 2 (corrected)", "Theorem 7 (corrected)")
def test_the_rho_range_check_depends_on_each_loss_hypothesis():
    """The Proposition's step 7 (rho = d_+/d_- in [0, 1]): its check holds with the symbols' assumptions and fails
    with each hypothesis's removed - and a loss violating each has rho outside [0, 1] (independent numbers: the
    check's own expression for 1 - rho, and d_+/d_-, at d_- = -1 and d_+ = -2 (a concave kink) or +1 (increasing))."""
    d = calibration.derived()
    gap = sp.Symbol("e", nonnegative=True)
    width = sp.factor(sp.together(d.eta_hi - d.eta_lo))
    args = (calibration.DM, calibration.DP, gap, width)
    assert calibration._rho_range_holds(*args)
    assert rerun(calibration._rho_range_holds, *args, replace={})()
    for replace in (weakened(gap), calibration.NO_NONINCREASING, calibration.NO_LEFT_SLOPE):
        assert not rerun(calibration._rho_range_holds, *args, replace=replace)()
    one_minus_rho = (calibration.DM - calibration.DP) / calibration.DM
    assert one_minus_rho.subs({calibration.DM: -1, calibration.DP: -2}) == -1  # not convex: rho = 2 > 1
    assert (calibration.DP / calibration.DM).subs({calibration.DM: -1, calibration.DP: 1}) == -1  # increasing: rho < 0
    step = next(s for s in _steps("corrected_calibration.sign_pattern") if s.text.startswith("Convexity gives"))
    assert step.check.startswith("SymPy: rho = d_+/d_- >= 0")
    assert step.without == _fails("phi_convex", "phi_nonincreasing", "phi_left_slope")


@pytest.mark.claims("Theorem 1 (corrected)")
def test_theorem_1s_lower_side_depends_on_lemma_1():
    """Theorem 1 (corrected), the step eta_lo <= delta: with Lemma 1's U* = U-dagger/(1 + z) its check holds, without
    it (U* any positive number) it fails - and rightly: at beta = 1, U-dagger = 1/2, U* = 10 > U-dagger, rho = 1,
    gamma a - rho c alpha = 1/2 * 12 - 10 * 3/2 = -9 < 0 (exact, from the derived coefficients)."""
    a_v, c_v, al, ga = calibration._specialise(calibration._table1("F_beta"))[:4]
    assert calibration._lower_side_holds(a_v, c_v, al, ga, calibration.ORDERED)
    assert not calibration._lower_side_holds(a_v, c_v, al, ga, {})
    value = (ga * a_v - c_v * al).subs({calibration.BETA: 1, calibration.UDAG: sp.Rational(1, 2),
                                        calibration.USTAR: 10})
    assert value == -9
    steps = _steps("corrected_calibration.fbeta")
    lower = next(s for s in steps if s.text.startswith("The other side, $\\eta_{lo} \\le \\delta$"))
    assert lower.without == (("u_star_at_most_u_dagger", "fails without it"),)


@pytest.mark.claims("Theorem 1 (corrected)", "Theorem 2 (corrected)")
def test_the_discharged_metric_hypotheses_can_be_found_false():
    """Companion of the discharges of Theorems 1 and 2: the evaluations are not constant - printed accuracy
    coefficients (b_1 = 0: the denominator vanishes) fail Definition 1 and b_1 > 0, a metric with
    a_{0,-1} = a_{1,-1} = 0 fails condition (3), and Da0 - Da1 U-dagger = 1 - 2 U-dagger is not positive for every
    U-dagger in (0, 1]."""
    printed = calibration._metric_hypotheses(calibration.prop5.PRINTED_ACCURACY_COEFFICIENTS)
    assert not printed["definition1"]() and not printed["b1_positive"]()
    one = sp.Integer(1)
    no_negatives = calibration.prop5.Coefficients(a0p=one, a0n=0 * one, b0=0 * one, a1p=2 * one, a1n=0 * one,
                                                  b1=calibration.prop5.PI)
    evaluated = calibration._metric_hypotheses(no_negatives)
    assert not evaluated["condition3"]() and not evaluated["u_dagger_attained"]()
    assert all(check() for check in calibration._metric_hypotheses(calibration.TABLE1["F_beta"]).values())


def test_a_statement_cannot_name_an_object_ambiguously_or_drop_a_condition():
    with pytest.raises(ValueError, match="non-unique object must say which"):
        Named("f^*", "a maximiser", unique=False)
    with pytest.raises(ValueError, match="summary must state its condition"):
        Conclusion("k", "K", "If $\\rho \\le \\tau_F$, calibrated", summary="calibrated iff no mass",
                   condition="if rho <= tau_F", condition_tex="If $\\rho \\le \\tau_F$")
    with pytest.raises(ValueError, match="text must state its condition"):  # review 1 of issue 40: the text too
        Conclusion("k", "K", "calibrated iff no mass", summary="if rho <= tau_F, calibrated iff no mass",
                   condition="if rho <= tau_F", condition_tex="If $\\rho \\le \\tau_F$")
    with pytest.raises(ValueError, match="given in words and as the text words it"):
        Conclusion("k", "K", "text", summary="if rho <= tau_F, calibrated", condition="if rho <= tau_F")
    with pytest.raises(ValueError, match="duplicate hypothesis keys"):
        _toy("h1", "h1")


def test_every_non_unique_object_says_which_one_is_meant():
    for statement in STATEMENTS.values():
        for named in statement.objects:
            assert named.unique or named.which, (statement.key, named.symbol)


if __name__ == "__main__":
    for name in sys.argv[1:] or DOCUMENTS:
        path = ROOT / name
        path.write_text(render_generated_blocks(path.read_text(), summary_block))
        print(f"regenerated the summary blocks of {name}")


_LINK = __import__("re").compile(r"<\.\./proofs/([\w-]+)\.html#([\w-]+)>`__")


def _statement_links(module) -> dict:
    """{anchor: page} of the links to rendered statements in ``module``'s docstring (the API reference)."""
    return {anchor: page for page, anchor in _LINK.findall(module.__doc__ or "")}


@pytest.mark.claims("package:documentation")
def test_the_api_reference_links_every_statement_to_its_rendered_anchor():
    """Oracle: the rendered proofs/ documents.  Each statement is linked from the docstring of the module whose
    checks prove it (shown in the site's API reference), to a page that carries its anchor."""
    links = {**_statement_links(calibration), **_statement_links(rademacher)}
    for statement in STATEMENTS.values():
        module = calibration if statement.key.startswith("corrected_calibration.") else rademacher
        assert statement.anchor in _statement_links(module), statement.key
        page = ROOT / "proofs" / f"{links[statement.anchor]}.md"
        assert f'<a id="{statement.anchor}"></a>' in page.read_text(), (statement.key, page.name)
        for c in statement.conclusions:
            assert f'<a id="{statement.conclusion_anchor(c.key)}"></a>' in page.read_text(), (statement.key, c.key)


@pytest.mark.claims("package:documentation")
def test_a_link_to_a_missing_anchor_is_found():
    """Companion: a docstring link to an anchor its page lacks."""
    planted = type("M", (), {"__doc__": "`x <../proofs/theorem-1.html#statement-nowhere>`__"})
    assert _statement_links(planted) == {"statement-nowhere": "theorem-1"}
    assert '<a id="statement-nowhere"></a>' not in (ROOT / "proofs" / "theorem-1.md").read_text()


def test_the_ledger_reads_a_step_without_optional_fields_and_names_an_unknown_citation():
    """Oracle: ledger_problems' docstring - a step has ``uses``, ``cites`` and ``discharges`` (each may be absent:
    nothing), and a cited key that is not among ``cited`` is named, typed out."""
    statement = next(iter(STATEMENTS.values()))
    step = SimpleNamespace(cites=("no-such-result",))  # no uses, discharges, without or proves
    problems = ledger_problems(statement, [step], cited={})
    assert "step 1 cites 'no-such-result', which is not a known result" in problems
    assert all(isinstance(p, str) for p in problems)


def test_a_weakened_symbol_keeps_its_name_and_is_merely_real():
    """Oracle: weaker's docstring - the symbol's name with the given assumptions, none given: merely real."""
    positive = sp.Symbol("b_1", positive=True)
    loose = weaker(positive)
    assert loose.name == "b_1" and loose.is_real is True and loose.is_positive is None
    assert weaker(positive, integer=True).is_integer is True and weaker(positive, integer=True).is_positive is None


def test_a_generated_bullet_never_breaks_a_word_longer_than_its_line():
    """A generated README bullet wraps at spaces only: a word longer than the line (a URL, a long formula) stays whole
    on a line of its own, where breaking it would leave a dead link (two words of 130 and 5 characters)."""
    from lfverify.proofs._corrected_statements import _wrap

    link = "https://example.org/" + "x" * 110
    assert _wrap(f"see {link} there", "* ", "  ") == f"* see\n  {link}\n  there\n"


def test_a_generated_errata_count_reads_its_file_as_utf_8_whatever_the_locale(tmp_path, ascii_locale):
    """The errata count reads ERRATA.md as UTF-8 under an ASCII locale too (a minimal container's LC_ALL=C without
    Python's UTF-8 mode): a planted two-entry file with non-ASCII characters is counted while every read that names
    no encoding decodes as ASCII (the ascii_locale fixture)."""
    (tmp_path / "ERRATA.md").write_text("# Errata\n\n### E1. Lemma 1 \u2264 Lemma 2\n\n### E2. \u03b7 = 1/2\n",
                                        encoding="utf-8")
    assert _summary_block("errata-count", "ERRATA.md", root=tmp_path).startswith("* **2 errata** in the printed")


def test_an_unconfirmed_derivation_keeps_its_steps():
    """A derivation with a step whose check failed is "undecided" naming that step, and its outcome keeps every step
    (the report and proofs/ show what was derived and where it stopped)."""
    st = Steps()
    st.add("a step that holds", "x = x", check="planted")
    st.add("a step that fails", "x = y", check="planted", holds=False)
    outcome = st.outcome("the summary", method="symbolic")
    assert (outcome.status, outcome.summary) == ("undecided", "steps not confirmed: ['a step that fails']")
    assert outcome.steps == st.as_tuple() and [s.text for s in outcome.steps] == ["a step that holds",
                                                                                  "a step that fails"]
    # every step holds but the ledger does not match Toy (h1, h2): h2 is never used; the steps are kept there too
    st = Steps()
    st.add("a step that uses h1", uses=("h1",), without={"h1": lambda: False})
    outcome = st.outcome("the summary", method="symbolic", ledger=(_toy("h1", "h2"), {}))
    assert (outcome.status, outcome.summary) == ("undecided", "the hypothesis ledger does not match the statement: "
                                                 "[\"hypothesis 'h2' (h2) is never used: Toy holds without it\"]")
    assert outcome.steps == st.as_tuple() and len(outcome.steps) == 1
