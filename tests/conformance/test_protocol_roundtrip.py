"""Every game's plays survive ``to_protocol()`` / ``from_protocol()`` exactly.

For seeded hands of each game (leads and follows), each play's entry is JSON, reads back
to an equal play of the same class with the same hash, and ``PlayList.to_protocol()``
lists the plays' entries.  Guan Dan's entries are the competition protocol's
(``docs/protocol.md``); the other games use card names.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

from chupai import chinese_ten, doudizhu, gandengyan, guandan, zhengshangyou
from chupai.cards import Cards
from chupai.registry import GAMES as REGISTRY

#: every registered game (its positions below: a game without them fails, never skips)
GAMES: list[ModuleType] = [entry.module() for entry in REGISTRY.values()]

Position = tuple[Any, Callable[[list[Any]], Any]]  # (a PlayList, entry -> Play)


def _hand(rng: random.Random, decks: int, size: int) -> Cards:
    deck = [f for f in range(54) for _ in range(decks)]
    counts = [0] * 54
    for f in rng.sample(deck, size):
        counts[f] += 1
    return Cards.from_counts(counts)


def _guandan(rng: random.Random) -> Iterator[Position]:
    level = rng.choice("23456789TJQKA")
    rules = rng.choice([guandan.Rules(), guandan.Rules.competition()])
    lead = guandan.legal_plays(_hand(rng, 2, 27), level, rules=rules)
    yield lead, lambda e: guandan.from_protocol(e, level, rules)
    follow = guandan.legal_plays(_hand(rng, 2, 27), level, lead[rng.randrange(len(lead))], rules=rules)
    yield follow, lambda e: guandan.from_protocol(e, level, rules)


def _zhengshangyou(rng: random.Random) -> Iterator[Position]:
    lead = zhengshangyou.legal_plays(_hand(rng, 1, rng.randrange(8, 19)))
    yield lead, zhengshangyou.from_protocol
    yield zhengshangyou.legal_plays(_hand(rng, 1, 18), lead[rng.randrange(len(lead))]), zhengshangyou.from_protocol


def _gandengyan(rng: random.Random) -> Iterator[Position]:
    rules = rng.choice([gandengyan.Rules(), gandengyan.Rules(decks=2, triples_are_bombs=False, triple_sequences=True)])
    lead = gandengyan.legal_plays(_hand(rng, rules.decks, rng.randrange(5, 13)), rules=rules)
    yield lead, lambda e: gandengyan.from_protocol(e, rules=rules)
    follow = gandengyan.legal_plays(_hand(rng, rules.decks, 12), lead[rng.randrange(len(lead))], rules=rules)
    yield follow, lambda e: gandengyan.from_protocol(e, rules=rules)


def _chinese_ten(rng: random.Random) -> Iterator[Position]:
    faces = rng.sample(range(52), 20)
    hand = Cards.from_counts([int(f in faces[:12]) for f in range(54)])
    layout = Cards.from_counts([int(f in faces[12:]) for f in range(54)])
    yield chinese_ten.legal_plays(hand, layout), chinese_ten.from_protocol
    yield chinese_ten.captures(Cards.from_counts([int(f == faces[0]) for f in range(54)]), layout), chinese_ten.from_protocol


def _doudizhu(rng: random.Random) -> Iterator[Position]:
    rules = rng.choice([doudizhu.Rules(), doudizhu.Rules.openspiel(), doudizhu.Rules.douzero()])
    lead = doudizhu.legal_plays(_hand(rng, 1, rng.randrange(8, 21)), rules=rules)
    yield lead, lambda e: doudizhu.from_protocol(e, rules=rules)
    follow = doudizhu.legal_plays(_hand(rng, 1, 20), lead[rng.randrange(len(lead))], rules=rules)
    yield follow, lambda e: doudizhu.from_protocol(e, rules=rules)


_POSITIONS: dict[str, Callable[[random.Random], Iterator[Position]]] = {
    "chupai.guandan": _guandan,
    "chupai.zhengshangyou": _zhengshangyou,
    "chupai.gandengyan": _gandengyan,
    "chupai.chinese_ten": _chinese_ten,
    "chupai.doudizhu": _doudizhu,
}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.__name__.split(".")[-1])
def test_protocol_round_trip_is_exact(game: ModuleType) -> None:
    rng = random.Random(20261201)
    checked = 0
    for _ in range(12):
        for plays, from_protocol in _POSITIONS[game.__name__](rng):
            entries = plays.to_protocol()
            assert entries == [p.to_protocol() for p in plays]
            assert json.loads(json.dumps(entries)) == entries
            for play, entry in zip(plays, entries):
                back = from_protocol(entry)
                assert type(back) is type(play) is game.Play
                assert back == play and hash(back) == hash(play), (str(play), entry)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.__name__.split(".")[-1])
def test_from_protocol_refuses_malformed_entries(game: ModuleType) -> None:
    rng = random.Random(3)
    plays, from_protocol = next(_POSITIONS[game.__name__](rng))
    entry = plays[0].to_protocol()
    # entries are data from messages: a malformed one is a ValueError in every game
    with pytest.raises(ValueError):
        from_protocol("not a list")
    with pytest.raises(ValueError):
        from_protocol([entry[0], entry[1], [5]])
    with pytest.raises(ValueError):
        from_protocol(entry[:2])
    with pytest.raises(ValueError):
        from_protocol([entry[0], entry[1], ["ZZ"]])
    with pytest.raises(ValueError):
        from_protocol(["NO_SUCH_TYPE", entry[1], entry[2]])
