"""Dou Dizhu (斗地主): the legal-play generator, recognition, rule options, the auction
and the scoring.

``legal_plays`` (``legal_plays_batch`` for many positions at once) / ``classify`` /
``Play`` / ``Rules`` / ``Auction`` and ``Bid`` / ``stake`` and ``payments`` / ``Deal``
(the auction, the card play, the scoring) and ``Match`` follow
``docs/rules/doudizhu.md``; ``playouts`` and ``playout`` play deals to the end in C
(``chupai.doudizhu.playouts``).

>>> from chupai.doudizhu import legal_plays, classify
>>> pair = classify("5S 5H")[0]
>>> [str(p) for p in legal_plays("6D 6C 7S BJ RJ", pair)]
['pair 6: 6C 6D', 'rocket: BJ RJ']
"""
from chupai.actions import PASS
from chupai.core.records import PlayList
from chupai.doudizhu._entry import GAME
from chupai.doudizhu.auction import Auction, Bid
from chupai.doudizhu._movegen import legal_plays, legal_plays_batch
from chupai.doudizhu.classify import classify, from_protocol
from chupai.doudizhu.game import Deal, Match
from chupai.doudizhu.phase import Phase
from chupai.doudizhu.play import BOMB_CLASS, ROCKET_CLASS, Play, PlayType
from chupai.doudizhu.playouts import PlayoutResult, PlayoutResults, playout, playouts
from chupai.doudizhu.rules import Rules
from chupai.doudizhu.scoring import multiplier, payments, stake

__all__ = [
    "GAME",
    "PASS",
    "Auction",
    "BOMB_CLASS",
    "Bid",
    "Deal",
    "Match",
    "ROCKET_CLASS",
    "Play",
    "Phase",
    "PlayList",
    "PlayType",
    "PlayoutResult",
    "PlayoutResults",
    "Rules",
    "classify",
    "from_protocol",
    "legal_plays",
    "legal_plays_batch",
    "multiplier",
    "payments",
    "playout",
    "playouts",
    "stake",
]
