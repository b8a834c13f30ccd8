"""Exact numbers for the proofs' witnesses: rationals drawn on a grid, and their passage into mpmath.

The witnesses are Fractions (or ints, or 'p/q' strings) so that the paper's populations are exact; random ones are
drawn on a grid of denominator 997 (a prime: the draws rarely share a denominator) from a seeded
``random.Random``; they enter mpmath through :func:`exact_mpf`, rounded once, at the caller's precision.  A float
is taken at its exact binary value (not its shortest decimal), so a witness computed in float64 is checked as the
number it is.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath as mp

__all__ = ["exact_mpf", "random_fraction"]


def exact_mpf(value) -> mp.mpf:
    """``value`` (an int, Fraction, float, decimal or 'p/q' string, or an mpf) as an mpf at the current precision:
    p/q rounded once (an mpf is rounded to the current precision)."""
    if isinstance(value, mp.mpf):
        return mp.mpf(value)
    exact = Fraction(value)
    return mp.mpf(exact.numerator) / exact.denominator


def random_fraction(rng: random.Random, low: Fraction, high: Fraction, den: int = 997) -> Fraction:
    """low + (high - low) k/den with k uniform on {0, ..., den}: a rational in [low, high], both ends included."""
    return low + (high - low) * Fraction(rng.randint(0, den), den)
