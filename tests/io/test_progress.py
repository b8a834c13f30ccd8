"""lfverify.io.Progress on its own: the lines it prints, when, and the bar's count.

Oracle: the class docstring's rules, typed out - a line every ``every`` units and at the last one (``None``: every
unit up to 20 units, else every tenth of the units left), ``"DESCRIPTION: K of N UNITs done (LABEL)"``, resumed units
counted but not announced, nothing in mode "off" - and tqdm's own rendering of a count for the bar, which must show
the same count as the lines.  Found by the fresh-seed mutation run of 2026-12-07 (the bar given the caller's
``initial`` instead of the count the lines use survived: nothing read the bar).
"""

from __future__ import annotations

import io
import re

import pytest

from lfverify.io import Progress

pytestmark = pytest.mark.claims("package:files")


def _lines(stream) -> list[str]:
    return [re.sub(r"^\[\s*[\d.]+ s\] ", "", line) for line in stream.getvalue().splitlines()]


def test_lines_every_unit_for_a_short_step_with_the_label():
    stream = io.StringIO()
    with Progress(3, "calibration", "task", mode="lines", stream=stream) as bar:
        for label in ("a", "b", "c"):
            bar.advance(label)
    assert _lines(stream) == ["calibration: 1 of 3 tasks done (a)", "calibration: 2 of 3 tasks done (b)",
                              "calibration: 3 of 3 tasks done (c)"]


def test_lines_every_tenth_of_what_is_left_and_at_the_last_unit_resumed_units_unannounced():
    """45 units, 5 done before: 40 left, a line every 4 units and at the 45th; 'trial' becomes 'trials'."""
    stream = io.StringIO()
    with Progress(45, "benchmark", "trial", mode="lines", initial=5, stream=stream) as bar:
        for _ in range(40):
            bar.advance()
    assert _lines(stream) == [f"benchmark: {k} of 45 trials done" for k in (8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 45)]


def test_a_tenth_is_a_tenth_where_other_divisors_round_to_it_too():
    """200 units: a line every 20 and no other (the 40 units above give every 4 for any divisor from 9 to 13; here
    an eleventh, 19, would print at 19, 38, ...: found by the seed-2027 mutation run)."""
    stream = io.StringIO()
    with Progress(200, "consistency", "task", mode="lines", stream=stream) as bar:
        for _ in range(200):
            bar.advance()
    assert _lines(stream) == [f"consistency: {k} of 200 tasks done" for k in range(20, 201, 20)]


@pytest.mark.parametrize("setting, mode", [("auto", "lines"), (None, "off")])
def test_a_closed_stream_is_not_a_terminal(setting, mode):
    """Oracle: the module docstring (a bar only on a terminal); a closed stream's isatty raises ValueError, which
    means "not a terminal" (found by the seed-2027 mutation run).  Companion: a stream that says it is a terminal
    gets the bar."""
    from lfverify.io import progress_mode

    closed = io.StringIO()
    closed.close()
    with pytest.raises(ValueError):
        closed.isatty()
    assert progress_mode(setting, stream=closed) == mode
    terminal = io.StringIO()
    terminal.isatty = lambda: True
    assert progress_mode(setting, stream=terminal) == "bar"


def test_off_prints_nothing_and_every_is_the_callers():
    stream = io.StringIO()
    with Progress(5, "x", "claims", mode="off", stream=stream) as bar:
        bar.advance("a", n=5)
    assert stream.getvalue() == ""
    with Progress(5, "x", "claims", mode="lines", every=2, stream=stream) as bar:
        for _ in range(5):
            bar.advance()
    assert _lines(stream) == ["x: 2 of 5 claims done", "x: 4 of 5 claims done", "x: 5 of 5 claims done"]


def test_the_bar_shows_the_count_the_lines_count():
    """A count given as 2.0 is the 2 units the lines would count; tqdm shows "2/10", not "2.0/10"."""
    stream = io.StringIO()
    with Progress(10, "x", "task", mode="bar", initial=2.0, stream=stream) as bar:
        bar.advance()
    text = stream.getvalue()
    assert "3/10" in text and "2/10" in text and "2.0/10" not in text and "3.0/10" not in text
