"""Zheng Shangyou (争上游): the legal-play generator, recognition, rule options, the game
state machines (``Deal``, ``Match``) and C playouts.

>>> from chupai.zhengshangyou import legal_plays
>>> [str(p) for p in legal_plays("5S 6D BJ") if p.type == PlayType.SEQUENCE]
['sequence 4-6 mixed impure: 5S 6D BJ(=4S)', 'sequence 5-7 mixed impure: 5S 6D BJ(=7S)']
"""
from chupai.core.records import PlayList
from chupai.zhengshangyou._entry import GAME
from chupai.zhengshangyou._movegen import legal_plays
from chupai.zhengshangyou.classify import classify, from_protocol
from chupai.zhengshangyou.game import PASS, Deal, GiveCard, Match, PayCard, TakeCard
from chupai.zhengshangyou.phase import Phase
from chupai.zhengshangyou.play import Play, PlayType
from chupai.zhengshangyou.playouts import playout, playouts
from chupai.zhengshangyou.rules import Rules

__all__ = [
    "GAME",
    "PASS",
    "Deal",
    "GiveCard",
    "Match",
    "PayCard",
    "Phase",
    "Play",
    "PlayList",
    "PlayType",
    "Rules",
    "TakeCard",
    "classify",
    "from_protocol",
    "legal_plays",
    "playout",
    "playouts",
]
