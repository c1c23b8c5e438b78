"""Type stubs for Gan Deng Yan's playout policies: no Python names (the engine calls them in C)."""
