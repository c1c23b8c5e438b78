"""Type stubs for Zheng Shangyou's playout policies: no Python names (the engine calls them in C)."""
