"""Gan Deng Yan (干瞪眼): the legal-play generator, recognition, rule options and the game.

``legal_plays`` / ``classify`` / ``Play`` / ``Rules`` follow ``docs/rules/gandengyan.md``;
``Deal`` and ``Match`` are the state machines (``chupai.gandengyan.game``); ``playouts``
and ``playout`` play deals to the end in C (``chupai.gandengyan.playouts``).

>>> from chupai.gandengyan import legal_plays, classify
>>> four = classify("4S")[0]
>>> [str(p) for p in legal_plays("5D 7S 2H 9C 9D BJ", four)]
['single 5: 5D', 'single 2: 2H', 'three bomb 9: 9C 9D BJ(=9)']
"""
from chupai.core.records import PlayList
from chupai.gandengyan._entry import GAME
from chupai.gandengyan._movegen import legal_plays
from chupai.gandengyan.classify import classify, from_protocol
from chupai.gandengyan.game import PASS, Deal, IllegalActionError, Match
from chupai.gandengyan.phase import Phase
from chupai.gandengyan.play import BOMB_CLASS, Play, PlayType
from chupai.gandengyan.playouts import PlayoutResult, PlayoutResults, playout, playouts
from chupai.gandengyan.rules import Rules

__all__ = [
    "GAME",
    "BOMB_CLASS",
    "PASS",
    "Deal",
    "IllegalActionError",
    "Match",
    "Phase",
    "Play",
    "PlayList",
    "PlayType",
    "PlayoutResult",
    "PlayoutResults",
    "Rules",
    "classify",
    "from_protocol",
    "legal_plays",
    "playout",
    "playouts",
]
