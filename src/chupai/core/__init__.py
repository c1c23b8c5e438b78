"""The card core's Python helpers, the bottom layer with the compiled card core.

* :mod:`chupai.core.validate`: the argument checks every layer shares (types, ranges,
  seeds, player counts), each error naming the argument;
* :mod:`chupai.core.seeds`: how seeds derive the seeds of deals, matches and tables;
* :mod:`chupai.core.interchange`: reading the interchange form of a play (``[type,
  rank, cards]``) back into a game's play.

These import only ``chupai.cards``, ``chupai.errors`` and the compiled card core.
"""
