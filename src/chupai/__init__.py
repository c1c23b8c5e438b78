"""chupai (出牌, "to play cards"): exact, fast legal-play generators for Chinese card games.

The compiled core enumerates every legal play, wild-card substitutions included;
friendly objects (``Cards``, ``Play``, ``PlayList``) are built only at the edge.

>>> from chupai import Cards, guandan
>>> len(guandan.legal_plays(Cards("2H 2H"), "2"))
2
"""
import importlib

from chupai import contract
from chupai.registry import PACKAGES
from chupai.core.records import PlayList
from chupai.actions import PASS
from chupai.cards import Cards
from chupai.contract import TERMINAL, Event
from chupai.errors import IllegalActionError
from chupai.evaluation.arena import arena

# every registered game package, as ``chupai.<name>`` (the registry lists them)
for _package in PACKAGES:
    importlib.import_module(_package)
del _package

__version__ = "0.1.0"

__all__ = [
    "PASS",
    "TERMINAL",
    "Cards",
    "Event",
    "IllegalActionError",
    "PlayList",
    "arena",
    "contract",
    "__version__",
]
