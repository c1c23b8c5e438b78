"""Type stubs for Chinese Ten's playout policies: no Python names (the engine calls them in C)."""
