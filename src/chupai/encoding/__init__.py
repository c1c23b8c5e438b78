"""The encodings: a state as fixed-size tensors and its actions as fixed ids.

* :mod:`chupai.encoding.tensors`: the functions of a state every game answers through
  its registry entry's encoder (``observation_tensor``, ``legal_actions_mask``,
  ``action_to_id``, ``id_to_action``, ``legal_action_features``, ...); their public
  home is :mod:`chupai.rl`, which exports them;
* :mod:`chupai.encoding.climbing`: ``ClimbingGame``, the encoder every climbing game's
  ``_rl.py`` subclasses;
* :mod:`chupai.encoding.layout`: the observation layout, field by field;
* :mod:`chupai.encoding.spaces`: the fixed action spaces (pattern ids);
* ``_pack`` and ``_ids`` (compiled): the card-count writers and the ids read from a
  play list's records.

This layer reads the state machines (through the contract and the registry) and sits
below the players, so the network bot (:mod:`chupai.players.network`) and the RL
interfaces (:mod:`chupai.rl`) read one encoding; it imports neither.
"""
