"""Write the starting seed corpus ``fuzz/corpus/<target>/`` (deterministic).

    python fuzz/make_corpus.py

Seeds are byte strings the targets decode with atheris' ``FuzzedDataProvider``: random
bytes of a few lengths (a fixed seed), and for the card parser readable card strings.
Inputs a long fuzz run found interesting can be added beside them (``-merge=1``; see
``fuzz/README.md``).
"""
from __future__ import annotations

import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
CARD_TEXTS = [
    "7S 7s bj 10H", "AS KS QS JS TS", "2H 2H 3D 3D 4C 4C", "BJ RJ BJ RJ", "♠A ♥K ♣Q ♦J",
    "", "   ", "7S,7S,7S", "1S", "10♦ 10d", "XX 7S", "rj Bj", "\u00a07S\t8H\n9C",
]
LENGTHS = (8, 32, 96, 256, 640, 1500, 40, 120, 400, 1000, 2000, 64)


def main() -> None:
    import targets

    rng = random.Random(16)
    for name in targets.TARGETS:
        folder = os.path.join(HERE, "corpus", name)
        os.makedirs(folder, exist_ok=True)
        seeds = [rng.randbytes(n) for n in LENGTHS]
        if name == "cards":
            seeds += [bytes([1, i % 2]) + text.encode() for i, text in enumerate(CARD_TEXTS)]
        for i, seed in enumerate(seeds):
            with open(os.path.join(folder, f"seed-{i:02d}"), "wb") as f:
                f.write(seed)


if __name__ == "__main__":
    main()
