"""The state machines' shared layer.

* :mod:`chupai.state.base`: the base every game's ``Deal`` and ``Match`` share (the
  contract of :mod:`chupai.contract` written once: terminal player, copies, pickling,
  determinization's record);
* :mod:`chupai.state.decisions`: ``CardDecision``, the base of the one-card decisions
  outside card play (a tribute, a return, an exchange);
* :mod:`chupai.state.replay`: ``CardPlayReplay``, a deal's card play so far replayed on
  other hands (how many of some seats' decisions a compiled policy would have made
  otherwise: what an inference of the hidden hands weighs a world by).

These import the card core, the engines and the compiled state surface; nothing of the
players, the evaluation or the interfaces.
"""
