"""The package's one seeding rule (lfverify.core._seeding) and the streams of its callers.

Oracles: numpy's own SeedSequence / Generator constructed by hand from the documented rule, hashlib and zlib for
the text keys, and pinned literals (recipe beside each) for the derived words.

Private: lfverify.experiments._protocol.trial_seed_sequence, the benchmark's per-trial seed derivation, checked against
the seeding rule.
"""

import hashlib
import zlib

import numpy as np
import pytest

from lfverify.core import DEFAULT_SEED, as_generator, as_seed_sequence, check_seed, child, int_seed, text_key

pytestmark = pytest.mark.claims("package:numerics")


def _state(seq):
    return seq.generate_state(4).tolist()


@pytest.mark.parametrize("seed", [0, 7, np.int64(7), 2**70])
def test_an_int_is_the_seed_sequence_of_that_int(seed):
    assert _state(as_seed_sequence(seed)) == _state(np.random.SeedSequence(int(seed)))
    assert as_generator(seed).random() == np.random.default_rng(int(seed)).random()


def test_a_seed_sequence_passes_through_and_a_generator_is_drawn_from_once():
    seq = np.random.SeedSequence(3, spawn_key=(1,))
    assert as_seed_sequence(seq) is seq
    mine, twin = np.random.default_rng(11), np.random.default_rng(11)
    expected = np.random.SeedSequence(int(twin.integers(2 ** 63)))
    assert _state(as_seed_sequence(mine)) == _state(expected)
    assert mine.random() == twin.random()  # advanced by exactly one draw
    assert as_generator(mine) is mine  # a Generator's stream continues


def test_none_is_fresh_entropy():
    # two 128-bit draws of OS entropy coincide with probability 2^-128
    assert _state(as_seed_sequence(None)) != _state(as_seed_sequence(None))


@pytest.mark.parametrize("seed, error, message", [
    (-1, ValueError, "random_state must be None, an int >= 0, a numpy SeedSequence or a numpy Generator; got the "
                     "negative int -1"),
    (True, TypeError, "random_state must be None, an int >= 0, a numpy SeedSequence or a numpy Generator; got True "
                      "(bool)"),
    (1.5, TypeError, "random_state must be None, an int >= 0, a numpy SeedSequence or a numpy Generator; got 1.5 "
                     "(float)"),
    ("7", TypeError, "random_state must be None, an int >= 0, a numpy SeedSequence or a numpy Generator; got '7' "
                     "(str)"),
    (np.random.RandomState(0), TypeError, "got RandomState"),
])
def test_one_error_message_names_the_argument_the_rule_and_the_value(seed, error, message):
    for convert in (as_seed_sequence, as_generator, check_seed):
        with pytest.raises(error) as caught:
            convert(seed)
        assert message in str(caught.value)
    with pytest.raises(error, match="^seed must be"):
        as_seed_sequence(seed, "seed")


def test_check_seed_draws_nothing():
    generator, twin = np.random.default_rng(5), np.random.default_rng(5)
    assert check_seed(generator) is generator and generator.random() == twin.random()


def test_children_extend_the_spawn_key_and_never_advance_the_parent():
    parent = np.random.SeedSequence(5, spawn_key=(9,))
    kid = child(parent, 1, 2)
    assert (kid.entropy, kid.spawn_key) == (5, (9, 1, 2))
    assert _state(child(parent, 1, 2)) == _state(kid)
    assert parent.n_children_spawned == 0
    assert _state(child(parent, 1)) != _state(child(parent, 2))
    with pytest.raises(ValueError, match="key items must be ints >= 0; got -1"):
        child(parent, -1)
    with pytest.raises(TypeError, match="seq must be a numpy SeedSequence; got int"):
        child(5, 1)


def test_text_key_is_four_little_endian_words_of_blake2b():
    text = "population=finite,n=1000,replication=3"
    digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
    words = tuple(int.from_bytes(digest[i:i + 4], "little") for i in (0, 4, 8, 12))
    assert text_key(text) == words == (2989301828, 2190000924, 614553084, 902429608)  # pinned: hashlib, 2026-11-28


def test_int_seed_is_the_first_word_modulo_2_31_minus_1():
    # pinned: int(np.random.SeedSequence(0).generate_state(1)[0] % (2**31 - 1)), numpy 2.4
    assert int_seed(np.random.SeedSequence(0)) == 821328063
    assert int_seed(np.random.SeedSequence(2020, spawn_key=(2,))) == 1880187657


def test_the_callers_streams_are_the_documented_ones():
    """The engine's task streams and the protocol's trial streams, rebuilt from their documented recipes (the same
    numbers as before the seeding module existed)."""
    from lfverify.experiments._protocol import trial_seed_sequence
    from lfverify.simulations import seed_sequence

    key = (("population", "finite"), ("n", 1000), ("replication", 3))
    expected = np.random.SeedSequence(entropy=42, spawn_key=text_key("population=finite,n=1000,replication=3"))
    assert _state(seed_sequence(42, key)) == _state(expected)
    expected = np.random.SeedSequence(0, spawn_key=(zlib.crc32(b"heart"), 3))
    assert _state(trial_seed_sequence(0, "heart", 3)) == _state(expected)
    assert DEFAULT_SEED == 20200826


def test_the_baselines_accept_every_seed_the_estimator_accepts():
    """A Generator was refused by the baselines before the one rule; now it is taken (and two fits from equal
    Generators agree)."""
    from sklearn.datasets import make_classification

    from lfverify.learn import make_baseline

    X, y = make_classification(n_samples=120, n_features=4, random_state=0)
    fits = [make_baseline("plug-in", "f1", seed=np.random.default_rng(4)).fit(X, y).predict(X) for _ in range(2)]
    np.testing.assert_array_equal(*fits)
    with pytest.raises(TypeError, match="^seed must be None, an int >= 0"):
        make_baseline("plug-in", "f1", seed="4")
