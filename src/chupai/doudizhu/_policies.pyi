"""Dou Dizhu's playout policy (compiled; no Python names)."""
