"""chupai (出牌, "to play cards"): exact, fast legal-play generators for Chinese card games.

The compiled core enumerates every legal play, wild-card substitutions included;
friendly objects (``Cards``, ``Play``, ``PlayList``) are built only at the edge.

>>> from chupai import Cards, guandan
>>> len(guandan.legal_plays(Cards("2H 2H"), "2"))
2
"""
from chupai import bots, chinese_ten, contract, gandengyan, guandan, zhengshangyou
from chupai._core import PlayList
from chupai.actions import PASS
from chupai.cards import Cards
from chupai.contract import TERMINAL, Event
from chupai.errors import IllegalActionError
from chupai.tournament import arena

__version__ = "0.1.0"

__all__ = [
    "PASS",
    "TERMINAL",
    "Cards",
    "Event",
    "IllegalActionError",
    "PlayList",
    "arena",
    "bots",
    "chinese_ten",
    "contract",
    "gandengyan",
    "guandan",
    "zhengshangyou",
    "__version__",
]
