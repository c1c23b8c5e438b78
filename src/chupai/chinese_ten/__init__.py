"""Chinese Ten (拣红点, Jian Hong Dian): the capture generator, the game and its variants.

>>> from chupai.chinese_ten import legal_plays
>>> [str(p) for p in legal_plays("7S AS", "QD 3S 3H 6C")]
['7S takes 3S', '7S takes 3H', 'AS to the layout']
"""
from chupai.core.records import PlayList
from chupai.chinese_ten._entry import GAME
from chupai.chinese_ten._movegen import captures, legal_plays
from chupai.chinese_ten.classify import classify, from_protocol
from chupai.chinese_ten.game import Deal, Event, IllegalActionError, Match
from chupai.chinese_ten.phase import Phase
from chupai.chinese_ten.play import Play, PlayType
from chupai.chinese_ten.playouts import PlayoutResult, PlayoutResults, playout, playouts
from chupai.chinese_ten.rules import Rules

__all__ = [
    "GAME",
    "Deal",
    "Event",
    "IllegalActionError",
    "Match",
    "Phase",
    "Play",
    "PlayList",
    "PlayType",
    "PlayoutResult",
    "PlayoutResults",
    "Rules",
    "captures",
    "classify",
    "from_protocol",
    "legal_plays",
    "playout",
    "playouts",
]
