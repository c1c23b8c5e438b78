"""Guan Dan (掼蛋): the legal-play generator, recognition, rule options, the deal and
match state machines, and C playouts (``docs/rules/guandan.md``).

>>> from chupai.guandan import legal_plays
>>> plays = legal_plays("8S 8D 2H KS KD", "2")
>>> sorted(str(p) for p in plays if p.type == PlayType.FULL_HOUSE)
['full house 8: 2H(=8H) 8S 8D KS KD', 'full house K: 2H(=KH) 8S 8D KS KD']
"""
from chupai.core.records import PlayList
from chupai.guandan._entry import GAME
from chupai.guandan._movegen import legal_plays
from chupai.guandan.classify import classify, from_protocol
from chupai.guandan.game import (
    PASS,
    ChooseLeader,
    Deal,
    IllegalActionError,
    Match,
    PayTribute,
    ReturnCard,
    TakeTribute,
)
from chupai.guandan.phase import Phase
from chupai.guandan.play import BOMB_CLASS, Play, PlayType
from chupai.guandan.playouts import PlayoutResult, PlayoutResults, playout, playouts
from chupai.guandan.rules import Rules

__all__ = [
    "GAME",
    "BOMB_CLASS",
    "PASS",
    "ChooseLeader",
    "Deal",
    "IllegalActionError",
    "Match",
    "PayTribute",
    "Phase",
    "Play",
    "PlayList",
    "PlayType",
    "PlayoutResult",
    "PlayoutResults",
    "ReturnCard",
    "Rules",
    "TakeTribute",
    "classify",
    "from_protocol",
    "legal_plays",
    "playout",
    "playouts",
]
