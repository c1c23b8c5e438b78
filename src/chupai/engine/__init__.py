"""The engine layer's Python helpers, beside the compiled engine base.

* :mod:`chupai.engine.batch`: the argument checks, the threaded runner and the row
  split of every game's batch ``playouts``;
* :mod:`chupai.engine.backends`: where batches run: in this process, local worker
  processes or Ray (the playouts' ``workers``/``backend``, and the arena's);
* :mod:`chupai.engine.sampling`: dealing hidden cards uniformly under constraints, the
  Python reference of every game's ``determinize``.

These import the card core and nothing above the engines.
"""
