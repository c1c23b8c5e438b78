"""The compiled ``Cards``: the parser against an independent token-by-token reading, the
argument types (TypeError) and values (ValueError naming the card), and the bound on
copies (no game holds a card more than twice)."""
import copy
import pickle
import random

import pytest

from chupai.core import cardset
from chupai.cards import RANKS, SUITS, Cards, face_name, parse_face

_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def reference_face(token: str) -> int:
    """The face of a token read the slow, obvious way (``docs/rules/cards.md``)."""
    t = token.strip().upper()
    if t in ("BJ", "RJ"):
        return 52 if t == "BJ" else 53
    rank, suit = t[:-1], {v: k for k, v in _SYMBOLS.items()}.get(t[-1], t[-1])
    rank = "T" if rank == "10" else rank
    assert len(rank) == 1 and rank in RANKS and suit in SUITS, token
    return RANKS.index(rank) * 4 + SUITS.index(suit)


def spellings(face: int, rng: random.Random) -> str:
    """One of the accepted spellings of a face."""
    if face >= 52:
        name = "BJ" if face == 52 else "RJ"
        return rng.choice([name, name.lower(), name.capitalize()])
    rank, suit = RANKS[face // 4], SUITS[face % 4]
    rank = rng.choice([rank, rank.lower()] + (["10"] if rank == "T" else []))
    suit = rng.choice([suit, suit.lower(), _SYMBOLS[suit]])
    return rank + suit


def test_cards_is_compiled():
    assert Cards is cardset.Cards and type(Cards.__init__).__name__ != "function"


def test_parser_matches_the_reference_on_random_hands():
    rng = random.Random(1)
    for _ in range(500):
        faces = [rng.randrange(54) for _ in range(rng.randrange(0, 28))]
        counts = [0] * 54
        kept = []
        for f in faces:
            if counts[f] < 2:
                counts[f] += 1
                kept.append(f)
        tokens = [spellings(f, rng) for f in kept]
        text = rng.choice([" ", "  ", "\t", "\n", " \u3000"]).join(tokens)
        assert [reference_face(t) for t in tokens] == kept
        assert Cards(text) == Cards(tokens) == Cards.from_counts(counts)
        assert Cards(text).counts() == counts


def test_27_card_hand_round_trip():
    hand = Cards.from_counts([1] * 27 + [0] * 27)
    assert Cards(str(hand)) == hand and len(hand) == 27


@pytest.mark.parametrize("token", ["XX", "1S", "11S", "7", "S7", "7SS", "BJJ", "J", "10", "7♤"])
def test_unknown_tokens_are_named(token):
    with pytest.raises(ValueError, match=f"unknown card '{token}'"):
        Cards(f"7S {token} 8S")
    with pytest.raises(ValueError, match=f"unknown card '{token}'"):
        Cards(["7S", token])
    with pytest.raises(ValueError, match=f"unknown card '{token}'"):
        parse_face(token)


@pytest.mark.parametrize(("token", "meant"), [("C2", "2C"), ("HT", "TH"), ("S7", "7S"), ("D10", "10D")])
def test_a_protocol_card_is_told_its_notation(token, meant):
    """The Guan Dan protocol writes the suit first (``C2``); the error says the card's
    rank-first form."""
    for call in (lambda: Cards(f"7S {token}"), lambda: Cards([token]), lambda: parse_face(token)):
        with pytest.raises(ValueError, match=f"did you mean '{meant}'"):
            call()
    with pytest.raises(ValueError) as info:
        Cards("XX")
    assert "did you mean" not in str(info.value)


@pytest.mark.parametrize("bad", [None, 5, 3.5, b"3D", bytearray(b"3D"), object()])
def test_wrong_types_are_type_errors(bad):
    with pytest.raises(TypeError, match="cards must be"):
        Cards(bad)


def test_bytes_is_not_read_as_card_codes():
    """``Cards(b"3D")`` is refused as bytes, naming the type."""
    with pytest.raises(TypeError, match=r"not b'3D'"):
        Cards(b"3D")


@pytest.mark.parametrize("token", [5, None, b"3D", ("3D",)])
def test_a_token_that_is_not_a_string_is_a_type_error(token):
    with pytest.raises(TypeError, match="is not a string"):
        Cards(["7S", token])
    with pytest.raises(TypeError, match="is not a string"):
        parse_face(token)


def test_too_many_copies_name_the_card():
    with pytest.raises(ValueError, match=r"card 7S \(token '7♠'\)"):
        Cards("7S 7s 7♠")
    with pytest.raises(ValueError, match="card 7S.*one deck"):
        Cards("7S 7S", decks=1)
    with pytest.raises(ValueError, match="card 7S.*one deck"):
        Cards(Cards("7S 7S"), decks=1)


@pytest.mark.parametrize("decks", [0, 3, -1])
def test_decks_out_of_range(decks):
    with pytest.raises(ValueError, match="decks"):
        Cards("7S", decks=decks)


@pytest.mark.parametrize("decks", ["2", 2.0, True, None])
def test_decks_of_the_wrong_type(decks):
    with pytest.raises(TypeError, match="decks"):
        Cards("7S", decks=decks)


def test_from_counts_refuses_more_copies_than_a_game_holds():
    """A count of 10**7 copies is refused before any layer is built."""
    with pytest.raises(ValueError, match="count of 2S is 10000000"):
        Cards.from_counts([10**7] * 54)
    counts = [0] * 54
    counts[parse_face("QH")] = 3
    with pytest.raises(ValueError, match="count of QH is 3"):
        Cards.from_counts(counts)
    with pytest.raises(ValueError, match="count of 2S is -1"):
        Cards.from_counts([-1] + [0] * 53)
    with pytest.raises(ValueError, match="54 counts"):
        Cards.from_counts([1] * 53)
    with pytest.raises(TypeError, match="count of 2S"):
        Cards.from_counts(["1"] + [0] * 53)
    with pytest.raises(TypeError, match="counts"):
        Cards.from_counts(None)


def test_from_masks_refuses_a_third_layer():
    qh = 1 << parse_face("QH")
    assert Cards.from_masks(qh, qh) == Cards("QH QH")
    assert Cards.from_masks(qh, qh, 0, 0) == Cards("QH QH")
    with pytest.raises(ValueError, match="card QH held 3 times"):
        Cards.from_masks(qh, qh, qh)
    with pytest.raises(ValueError, match="not nested"):
        Cards.from_masks(0, qh)
    with pytest.raises(ValueError, match="faces"):
        Cards.from_masks(1 << 60)
    with pytest.raises(ValueError, match="faces"):
        Cards.from_masks(-1)
    with pytest.raises(TypeError, match="ints"):
        Cards.from_masks("7")


def test_multiset_operations():
    a, b = Cards("7S 7S 8H BJ"), Cards("7S 8H")
    assert a - b == Cards("7S BJ") and b + Cards("9D") == Cards("7S 8H 9D")
    assert b <= a and b < a and a >= b and a > b and not a <= b
    assert a.layers == (a.lo, a.hi) and Cards("7S").layers == (Cards("7S").lo,) and Cards().layers == ()
    assert list(a.faces()) == [parse_face(c) for c in a] and a.count("7s") == 2 and "BJ" in a
    assert hash(a) == hash(Cards("BJ 8H 7S 7S")) and a != b and not Cards()
    with pytest.raises(ValueError, match="7S would appear 3 times"):
        a + Cards("7S")
    with pytest.raises(ValueError, match="cannot remove 1 x 9D: only 0 held"):
        a - Cards("9D")


def test_immutable_pickle_and_copy():
    hand = Cards("7S 7S 8H BJ")
    with pytest.raises(AttributeError):
        hand.lo = 0
    assert pickle.loads(pickle.dumps(hand)) == hand
    assert copy.deepcopy(hand) == hand and copy.copy(hand) == hand


def test_face_name_types():
    assert face_name(20) == "7S"
    with pytest.raises(TypeError, match="face"):
        face_name("7S")
    with pytest.raises(ValueError, match="face 54"):
        face_name(54)
