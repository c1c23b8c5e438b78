"""Search for the games of this library: information-set MCTS and its bot.

* :class:`ISMCTS`: single-observer information-set Monte Carlo tree search over the
  shared state contract, with compiled playouts for the rollouts.
* :class:`ISMCTSBot`: the search as a bot (budget per move, tree reuse, root
  parallelism).
* :func:`make_bot`: a bot from a name such as ``"ismcts:20ms"`` (the names the
  command line and the ladder take).
"""
from chupai.players.search.bot import ISMCTSBot
from chupai.players.search.ismcts import ISMCTS, ActionStats, Node, SearchResult, Tree
from chupai.players.search.registry import BOT_NAMES, make_bot

__all__ = ["BOT_NAMES", "ISMCTS", "ActionStats", "ISMCTSBot", "Node", "SearchResult", "Tree", "make_bot"]
