"""The engine layer's Python helpers, beside the compiled engine base.

* :mod:`chupai.engine.batch`: the argument checks and the threaded runner of every
  game's batch ``playouts`` (process workers and Ray through
  :mod:`chupai.evaluation.backends`, imported when asked for);
* :mod:`chupai.engine.sampling`: dealing hidden cards uniformly under constraints, the
  Python reference of every game's ``determinize``.

These import the card core and nothing above the engines but that one worker pool.
"""
