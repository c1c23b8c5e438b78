"""Guan Dan recognition: every play that a given set of cards can be declared as.

This is the second, independent path of ``docs/design.md`` ("Move generators"): it shares no logic with the
compiled generator.  Instead of generating combinations from a hand it looks at the
counts of the given cards (per rank, per suit, jokers, wild cards) and decides which
types and keys of ``docs/rules/guandan.md`` they form, so that generator and recognizer can
check each other (the tests compare ``legal_plays`` with a brute force over
``classify``).

Wild cards are the two hearts of the level rank.  Every level heart in the cards is
treated as a wild card: a wild standing for itself is the same play as the heart played
naturally, and its declaration is then simply itself.  The plays are built with exactly
the record encoding of :mod:`chupai.guandan.play` (type codes, key encoding, bomb class,
canonical declaration: see that module's docstring).

>>> [str(p) for p in classify("8S 8C 8D 2H 2H", "2")]
['full house 8: 2H(=2H) 2H(=2H) 8S 8C 8D', 'bomb 8: 2H(=8H) 2H(=8H) 8S 8C 8D']
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chupai.core.records import (
    BITS_PER_RANK,
    BLACK_JOKER_BIT,
    NUM_FACES,
    NUM_RANKS,
    NUM_SUITS,
    RED_JOKER_BIT,
    SUITS,
)
from chupai.core.validate import check_rules
from chupai.cards import Cards
from chupai.guandan.play import (
    BOMB_CLASS,
    PROTOCOL_TYPES,
    Play,
    PlayType,
    level_value,
    make_level,
    parse_protocol_card,
    protocol_card,
    window_ranks,
)
from chupai.guandan.rules import Rules

__all__ = ["classify", "from_protocol"]

_HEART = SUITS.index("H")
_NIBBLE = (1 << BITS_PER_RANK) - 1
_POPCOUNT = tuple(bin(i).count("1") for i in range(1 << BITS_PER_RANK))
_RANK_SHIFTS = tuple(r * BITS_PER_RANK for r in range(NUM_RANKS))
#: mask of every face of one suit, by suit index
_SUIT_FACES = tuple(sum(1 << (shift + s) for shift in _RANK_SHIFTS) for s in range(NUM_SUITS))

BLACK_JOKER_VALUE = 13
RED_JOKER_VALUE = 14
LEVEL_RANK_VALUE = 12
#: the largest play: ten of a kind
MAX_PLAY_CARDS = 10

#: window shapes by number of cards: (type, ranks in the window, cards of each rank)
_WINDOW_SHAPES = {
    5: ((PlayType.STRAIGHT, 5, 1),),
    6: ((PlayType.TUBE, 3, 2), (PlayType.PLATE, 2, 3)),
}


def _windows(n: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """Every window of ``n`` consecutive ranks, ace low or high: (position, ranks, rank mask)."""
    out = []
    for position in range(NUM_RANKS + 2 - n):
        ranks = tuple(window_ranks(position, n))
        out.append((position, ranks, sum(1 << r for r in ranks)))
    return tuple(out)


_WINDOWS = {n: _windows(n) for n in (2, 3, 5)}
#: the type of a same-rank combination of ``n`` cards
_SAME_RANK_TYPE = {1: PlayType.SINGLE, 2: PlayType.PAIR, 3: PlayType.TRIPLE} | {
    n: PlayType.BOMB for n in range(4, MAX_PLAY_CARDS + 1)
}

#: the readings of some cards: (type, key) -> the faces the wild cards stand for (any order)
Readings = dict[tuple[int, int], tuple[int, ...]]


def _face(rank: int, suit: int) -> int:
    return rank * BITS_PER_RANK + suit


def _single_suit(suits: int) -> bool:
    """True if the suit bit set ``suits`` holds exactly one suit."""
    return suits != 0 and suits & (suits - 1) == 0


def _recognize(
    rank_counts: Sequence[int],
    suits: int,
    black: int,
    red: int,
    wilds: int,
    level: int,
    rules: Rules,
) -> Readings:
    """Every (type, key) that cards of this shape form, with the canonical declaration.

    ``rank_counts[r]`` natural cards of rank ``r`` whose suits are the bit set ``suits``,
    ``black`` and ``red`` jokers and ``wilds`` wild cards.  Each (type, key) is found at
    most once: a reading is fixed by its type and key (the wild cards fill exactly what
    the natural cards leave open), except for a pair made of two wild cards in a full
    house, which the canonical declaration settles.
    """
    n = sum(rank_counts) + black + red + wilds
    ranks = [r for r in range(NUM_RANKS) if rank_counts[r]]
    found: Readings = {}
    if black or red:
        _recognize_jokers(found, n, ranks, black, red, wilds, level, rules)
    elif not ranks:
        # only wild cards (one or two): played alone or as a pair they rank as level cards
        found[(_SAME_RANK_TYPE[n], LEVEL_RANK_VALUE)] = (_face(level, _HEART),) * wilds
    else:
        if len(ranks) == 1 and n in _SAME_RANK_TYPE:
            rank = ranks[0]
            found[(_SAME_RANK_TYPE[n], level_value(rank, level))] = (_face(rank, _HEART),) * wilds
        if n == 5:
            _recognize_full_houses(found, rank_counts, ranks, wilds, level)
        if n in _WINDOW_SHAPES:
            _recognize_windows(found, n, rank_counts, ranks, suits, wilds, rules)
    return found


def _recognize_jokers(
    found: Readings, n: int, ranks: list[int], black: int, red: int, wilds: int, level: int, rules: Rules
) -> None:
    """Readings of cards holding a joker: joker singles and pairs, four jokers, or a
    full house whose pair is two equal jokers (a wild never stands for a joker)."""
    if n == black + red:
        if n == 1:
            found[(PlayType.SINGLE, BLACK_JOKER_VALUE if black else RED_JOKER_VALUE)] = ()
        elif n == 2 and (black == 2 or red == 2):
            found[(PlayType.PAIR, BLACK_JOKER_VALUE if black else RED_JOKER_VALUE)] = ()
        elif black == 2 and red == 2:
            found[(PlayType.FOUR_JOKERS, 0)] = ()
    elif (
        rules.joker_pair_in_full_house
        and n == 5
        and black + red == 2
        and black != red
        and len(ranks) == 1
    ):
        # the other three cards (naturals of one rank, wilds) are the triple
        rank = ranks[0]
        found[(PlayType.FULL_HOUSE, level_value(rank, level))] = (_face(rank, _HEART),) * wilds


def _recognize_full_houses(
    found: Readings, rank_counts: Sequence[int], ranks: list[int], wilds: int, level: int
) -> None:
    """Full houses of five joker-free cards, one per possible triple rank."""
    for triple in ranks:
        need = 3 - rank_counts[triple]
        others = [r for r in ranks if r != triple]
        if not 0 <= need <= wilds or len(others) > 1:
            continue
        spare = wilds - need  # wild cards in the pair
        if others:
            pair = others[0]
        elif triple != level:
            pair = level  # the pair is both wild cards: canonically level cards
        else:
            pair = min(r for r in range(NUM_RANKS) if r != triple)
        decl = (_face(triple, _HEART),) * need + (_face(pair, _HEART),) * spare
        found[(PlayType.FULL_HOUSE, level_value(triple, level))] = decl


def _recognize_windows(
    found: Readings,
    n: int,
    rank_counts: Sequence[int],
    ranks: list[int],
    suits: int,
    wilds: int,
    rules: Rules,
) -> None:
    """Straights, straight flushes, tubes and plates: the natural cards lie in one window
    of consecutive ranks with at most the shape's count per rank; wilds fill the rest."""
    held = sum(1 << r for r in ranks)
    physical_suits = suits | ((1 << _HEART) if wilds else 0)
    for type_, width, per_rank in _WINDOW_SHAPES[n]:
        if any(rank_counts[r] > per_rank for r in ranks):
            continue
        for position, window, window_mask in _WINDOWS[width]:
            if held & ~window_mask:
                continue
            missing = [r for r in window for _ in range(per_rank - rank_counts[r])]
            if type_ == PlayType.STRAIGHT:
                if _single_suit(suits):
                    flush = suits.bit_length() - 1
                    found[(PlayType.STRAIGHT_FLUSH, position)] = tuple(_face(r, flush) for r in missing)
                if rules.straight_flush_as_straight or not _single_suit(physical_suits):
                    found[(PlayType.STRAIGHT, position)] = tuple(_face(r, _HEART) for r in missing)
            else:
                found[(type_, position)] = tuple(_face(r, _HEART) for r in missing)


def _shape_of_masks(lo: int, hi: int, wild: int) -> tuple[list[int], int, int, int, int]:
    """(rank counts, suits, black jokers, red jokers, wilds) of two-deck masks; the
    face ``wild`` (or none if negative) is counted apart as the wild card."""
    wilds = 0
    if wild >= 0:
        wilds = (lo >> wild & 1) + (hi >> wild & 1)
        lo &= ~(1 << wild)
        hi &= ~(1 << wild)
    counts = [_POPCOUNT[lo >> s & _NIBBLE] + _POPCOUNT[hi >> s & _NIBBLE] for s in _RANK_SHIFTS]
    suits = sum(1 << s for s in range(NUM_SUITS) if lo & _SUIT_FACES[s])
    black = (lo >> BLACK_JOKER_BIT & 1) + (hi >> BLACK_JOKER_BIT & 1)
    red = (lo >> RED_JOKER_BIT & 1) + (hi >> RED_JOKER_BIT & 1)
    return counts, suits, black, red, wilds


def _plays_of_masks(lo: int, hi: int, level: int, rules: Rules) -> list[Play]:
    """:func:`classify` on the core's two-deck masks (no checks; level is a rank index)."""
    n = lo.bit_count() + hi.bit_count()
    if not 0 < n <= MAX_PLAY_CARDS:
        return []
    shape = _shape_of_masks(lo, hi, _face(level, _HEART))
    found = _recognize(*shape, level, rules)
    return [
        Play._from_record(lo, hi, int(type_), key, n, BOMB_CLASS.get((type_, n), 0), bytes(sorted(decl)), level)
        for (type_, key), decl in sorted(found.items())
    ]


def classify(cards: Cards | str, level: str | int, *, rules: Rules | None = None) -> list[Play]:
    """Every play these exact cards can be declared as (``docs/rules/guandan.md``), ``[]`` if none.

    ``cards`` is a :class:`~chupai.cards.Cards` or a card string, ``level`` the level rank
    (``'7'``, ``'T'`` or ``'10'``, ``'A'``).  The plays are distinct (by the identity of
    ``docs/rules/cards.md``) and sorted by type, then key.  ``ValueError`` names a bad card
    token, a card held more than twice, or a bad level.

    >>> [str(p) for p in classify("8S 8D 2H KS KD", "2")]
    ['full house 8: 2H(=8H) 8S 8D KS KD', 'full house K: 2H(=KH) 8S 8D KS KD']
    >>> classify("2H BJ", "2")
    []
    """
    rules = check_rules(rules, Rules, "guandan")
    level_index = make_level(level)
    cards = Cards(cards)
    return _plays_of_masks(cards.lo, cards.hi, level_index, rules)


def _classify_natural(
    counts: Sequence[int], level: str | int, rules: Rules | None = None
) -> list[tuple[PlayType, int]]:
    """The (type, key) pairs that cards form when every card is taken as what it is.

    ``counts[f]`` copies of face ``f`` (54 counts, any number of copies, so that the
    *declared* cards of a play, which may hold a face up to four times, can be read):
    no card is wild.  Every play of :func:`classify` must have declared cards whose
    natural reading contains its own type and key.
    """
    if rules is None:
        rules = Rules()
    if len(counts) != NUM_FACES or any(c < 0 for c in counts):
        raise ValueError(f"expected {NUM_FACES} non-negative face counts")
    level_index = make_level(level)
    if not 0 < sum(counts) <= MAX_PLAY_CARDS:
        return []
    rank_counts = [sum(counts[_face(r, s)] for s in range(NUM_SUITS)) for r in range(NUM_RANKS)]
    suits = sum(1 << s for s in range(NUM_SUITS) if any(counts[_face(r, s)] for r in range(NUM_RANKS)))
    found = _recognize(
        rank_counts, suits, counts[BLACK_JOKER_BIT], counts[RED_JOKER_BIT], 0, level_index, rules
    )
    return [(PlayType(t), k) for t, k in sorted(found)]


def from_protocol(obj: Sequence[Any], level: str | int, rules: Rules | None = None) -> Play:
    """The play an interchange entry ``[type, rank, cards]`` names.

    ``ValueError`` if the entry is malformed or its cards cannot be that play.
    ``PASS`` entries are not plays: use the game state's pass action.
    """

    if not isinstance(obj, (list, tuple)) or len(obj) != 3:
        raise ValueError(f"protocol play must be [type, rank, cards], not {obj!r}")
    ptype, prank, pcards = obj
    if ptype == "PASS":
        raise ValueError("['PASS', 'PASS', 'PASS'] is a pass, not a play")
    if not isinstance(ptype, str) or ptype not in PROTOCOL_TYPES:
        raise ValueError(f"unknown protocol type {ptype!r}; expected one of {sorted(PROTOCOL_TYPES)}")
    if not isinstance(pcards, (list, tuple)):
        raise ValueError(f"protocol cards must be a list, not {pcards!r}")
    cards = Cards.from_counts(_count_faces(parse_protocol_card(c) for c in pcards))
    for play in classify(cards, level, rules=rules):
        proto = play.to_protocol()
        if ptype == "FourKings" and play.type == PlayType.FOUR_JOKERS:
            return play
        if proto[0] == ptype and proto[1] == prank:
            return play
    raise ValueError(f"{list(obj)!r} is not a legal play at level {level!r}")


def _count_faces(faces: Any) -> list[int]:
    counts = [0] * NUM_FACES
    for f in faces:
        counts[f] += 1
        if counts[f] > 2:
            raise ValueError(f"card {protocol_card(f)} appears more than twice")
    return counts
