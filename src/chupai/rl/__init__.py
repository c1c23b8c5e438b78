"""Reinforcement learning on chupai: tensors, fixed action ids, environments, adapters.

* Encodings (every game): :func:`observation_tensor`, :func:`legal_actions_mask`,
  :func:`action_to_id`, :func:`id_to_action`, :func:`legal_action_features`,
  :func:`num_distinct_actions`, :func:`observation_size` (functions of a state,
  written in :mod:`chupai.encoding`, the layer below the players, so the network bot
  reads them too; this package is their public name, and the state classes do not know
  either).
* A game's own layouts (its registry entry's ``observations``, such as Guan Dan's
  :mod:`chupai.guandan.danzero`: DanZero's 513 + 54 values).
* :class:`VectorEnv`: many tables stepped per call (Gymnasium vector conventions);
  :class:`TablePool`: its tables in batches stepped while the caller works (``send``,
  ``recv``).
* :mod:`chupai.rl.gymnasium` (one game for one agent against bots, registered with
  Gymnasium), :mod:`chupai.rl.pettingzoo` and :mod:`chupai.rl.openspiel`: adapters
  (optional extras ``chupai[gymnasium]``, ``chupai[pettingzoo]``, ``chupai[openspiel]``).

The layouts and id spaces are documented field by field in ``docs/rl.md``.

>>> from chupai.guandan import Deal
>>> deal = Deal(seed=1)
>>> obs = observation_tensor(deal, deal.current_player)
>>> obs.shape, obs.dtype.name
((616,), 'float32')
>>> mask = legal_actions_mask(deal)
>>> action = id_to_action(deal, int(mask.nonzero()[0][0]))
>>> action_to_id(deal, action) == int(mask.nonzero()[0][0])
True
"""
from chupai.encoding.tensors import (
    action_space,
    action_to_id,
    game_name,
    id_to_action,
    legal_action_features,
    legal_action_ids,
    legal_actions_mask,
    num_distinct_actions,
    observation_layout,
    observation_size,
    observation_tensor,
)
from chupai.rl.pool import TablePool
from chupai.rl.vector import VectorEnv

__all__ = [
    "TablePool",
    "VectorEnv",
    "action_space",
    "action_to_id",
    "game_name",
    "id_to_action",
    "legal_action_features",
    "legal_action_ids",
    "legal_actions_mask",
    "num_distinct_actions",
    "observation_layout",
    "observation_size",
    "observation_tensor",
]
