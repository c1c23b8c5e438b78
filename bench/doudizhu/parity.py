"""chupai's Dou Dizhu legal plays against OpenSpiel's, RLCard's and DouZero's.

    python bench/doudizhu/parity.py [--engines openspiel,rlcard,douzero] [--positions 2000]
                                    [--seed 1] [--rules preset|default] [--show 5]

Each engine plays random games of its own (its deal, its auction, uniformly random
legal moves); at every card-play decision the position (the hand of the player to move
and the play it must beat, taken from the engine's own game) is given to
``chupai.doudizhu.legal_plays`` under that engine's preset (``--rules preset``, the
default) or under ``Rules()`` (``--rules default``), and the two lists are compared as
sets of rank multisets (suits never matter; an engine lists a set of cards once however
many readings it has).  The play to beat is read with ``classify`` under the same rules;
a set of cards with several readings is tried under each (the position counts as equal
if one reading gives the engine's list).

Prints, per engine, the positions compared, how many lists are equal, and for the
others the cards only one side lists, with up to ``--show`` positions.  The engines come
from the package index (the ``parity`` extra: ``open_spiel``, ``rlcard``, ``douzero``;
measured with open_spiel 2.0.2, rlcard 1.2.0 and douzero 1.1.0).  A benchmark, not a
test.
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from chupai.cards import Cards
from chupai.doudizhu import Play, Rules, classify, legal_plays
from chupai.doudizhu.classify import value_counts

#: the ranks in the game's order (a value's index)
RANKS = "3456789TJQKA2"
VALUES = 15
#: suits given to the n-th card of a rank (the engines have no suits that matter)
SUITS = "SHCD"

Counts = tuple[int, ...]  # cards of each value 0..14


@dataclass
class Position:
    """A decision of an engine's game: the hand, the play to beat (``None``: a lead)
    and the engine's legal plays (passing left out)."""

    hand: Counts
    previous: Counts | None
    legal: set[Counts]


def cards_of(counts: Counts) -> Cards:
    """A one-deck hand with these cards of each value."""
    names = []
    for v, n in enumerate(counts):
        if v < 13:
            names += [RANKS[v] + SUITS[i] for i in range(n)]
        elif n:
            names.append("BJ" if v == 13 else "RJ")
    return Cards(" ".join(names))


def chupai_plays(hand: Counts, previous: Play | None, rules: Rules) -> set[Counts]:
    return {tuple(value_counts(p.cards.lo)) for p in legal_plays(cards_of(hand), previous, rules=rules,
                                                                  collapse_suits=True)}


def readings(previous: Counts, rules: Rules) -> list[Play]:
    return classify(cards_of(previous), rules=rules)


# -- the engines' games -----------------------------------------------------------------------
def _counts(values: Iterator[int] | list[int]) -> Counts:
    c = [0] * VALUES
    for v in values:
        c[v] += 1
    return tuple(c)


#: called with the engine's own objects at each position (for bench/doudizhu/plays.py's timing)
Keep = Callable[..., None] | None


def openspiel_positions(n: int, seed: int, keep: Keep = None) -> Iterator[Position]:
    """Positions of random OpenSpiel ``dou_dizhu`` games (pyspiel, its C++);
    ``keep(state)`` sees each decision's state."""
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(seed)
    made = 0

    def parse(text: str) -> Counts:
        text = text.replace("-", "").replace("(BWJ)", "b").replace("(CJ)", "r")
        return _counts([13 if ch == "b" else 14 if ch == "r" else RANKS.index(ch) for ch in text])

    def hand_of(state: object, player: int) -> Counts:
        seen = state.observation_string(player)  # type: ignore[attr-defined]
        return parse(seen.split("My hand ", 1)[1].split("\n", 1)[0].strip())

    while made < n:
        state = game.new_initial_state()
        played: list[str] = []  # the card play's actions so far
        while not state.is_terminal() and made < n:
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            player = state.current_player()
            actions = state.legal_actions()
            names = [state.action_to_string(player, a) for a in actions]
            choice = rng.randrange(len(actions))
            if not any(x.startswith("Bid") for x in names):  # the card play
                previous = None
                if played[-2:] != ["Pass", "Pass"]:
                    previous = next((x for x in reversed(played) if x != "Pass"), None)
                if keep is not None:
                    keep(state.clone())
                yield Position(hand_of(state, player), parse(previous) if previous else None,
                               {parse(x) for x in names if x != "Pass"})
                made += 1
                played.append(names[choice])
            state.apply_action(actions[choice])


def rlcard_positions(n: int, seed: int, keep: Keep = None) -> Iterator[Position]:
    """Positions of random RLCard ``doudizhu`` games; ``keep(game, player_id)`` sees
    each decision."""
    import rlcard  # type: ignore[import-not-found]

    def parse(text: str) -> Counts:
        return _counts([13 if ch == "B" else 14 if ch == "R" else RANKS.index(ch) for ch in text])

    rng = random.Random(seed)
    made, game = 0, 0
    while made < n:
        env = rlcard.make("doudizhu", config={"seed": seed + game})
        game += 1
        state, pid = env.reset()
        while not env.is_over() and made < n:
            if keep is not None:
                keep(env.game, pid)
            raw = state["raw_obs"]
            trace = [a for _, a in raw["trace"]]
            previous = None
            if trace and trace[-2:] != ["pass", "pass"]:
                previous = next((a for a in reversed(trace) if a != "pass"), None)
            yield Position(parse(raw["current_hand"]), parse(previous) if previous else None,
                           {parse(a) for a in state["raw_legal_actions"] if a != "pass"})
            made += 1
            state, pid = env.step(rng.choice(list(state["legal_actions"].keys())))


def douzero_positions(n: int, seed: int, keep: Keep = None) -> Iterator[Position]:
    """Positions of random DouZero games (``douzero.env.game.GameEnv``);
    ``keep(env, infoset)`` sees each decision."""
    from douzero.env.game import GameEnv  # type: ignore[import-not-found]

    value = {v: i for i, v in enumerate([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30])}
    rng = random.Random(seed)
    found: list[Position] = []

    class Random:
        def act(self, infoset: object) -> list[int]:
            seq = env.card_play_action_seq
            rival: list[int] = []
            if seq:
                rival = seq[-1] if seq[-1] else seq[-2] if len(seq) > 1 else []
            legal = infoset.legal_actions  # type: ignore[attr-defined]
            if keep is not None:
                keep(env, infoset)
            found.append(Position(_counts(value[c] for c in infoset.player_hand_cards),  # type: ignore[attr-defined]
                                  _counts(value[c] for c in rival) if rival else None,
                                  {_counts(value[c] for c in m) for m in legal if m}))
            return list(rng.choice(legal))

    deck = [v for v in value if v < 20 for _ in range(4)] + [20, 30]
    made = 0
    while made < n:
        env = GameEnv({p: Random() for p in ("landlord", "landlord_up", "landlord_down")})
        rng.shuffle(deck)
        env.card_play_init({"landlord": sorted(deck[:20]), "landlord_up": sorted(deck[20:37]),
                            "landlord_down": sorted(deck[37:54]), "three_landlord_cards": sorted(deck[17:20])})
        while not env.game_over and made < n:
            found.clear()
            env.step()
            for p in found:
                if made < n:
                    made += 1
                    yield p


ENGINES: dict[str, tuple[Callable[[int, int], Iterator[Position]], Callable[[], Rules]]] = {
    "openspiel": (openspiel_positions, Rules.openspiel),
    "rlcard": (rlcard_positions, Rules.rlcard),
    "douzero": (douzero_positions, Rules.douzero),
}


@dataclass
class Tally:
    positions: int = 0
    equal: int = 0
    leads: int = 0
    ambiguous: int = 0
    unreadable: int = 0
    only_engine: Counter[str] = field(default_factory=Counter)
    only_chupai: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)


def name(counts: Counts) -> str:
    return "".join(("BJ" if v == 13 else "RJ" if v == 14 else RANKS[v]) * n for v, n in enumerate(counts))


def compare(positions: Iterator[Position], rules: Rules, show: int) -> Tally:
    t = Tally()
    for pos in positions:
        t.positions += 1
        t.leads += pos.previous is None
        if pos.previous is None:
            options: list[Play | None] = [None]
        else:
            options = list(readings(pos.previous, rules))
            if not options:
                t.unreadable += 1
                continue
            t.ambiguous += len(options) > 1
        lists = [chupai_plays(pos.hand, p, rules) for p in options]
        if pos.legal in lists:
            t.equal += 1
            continue
        ours = lists[0]
        for c in pos.legal - ours:
            t.only_engine[name(c)] += 1
        for c in ours - pos.legal:
            t.only_chupai[name(c)] += 1
        if len(t.examples) < show:
            t.examples.append(f"hand {name(pos.hand)}, to beat {name(pos.previous) if pos.previous else '-'}: "
                              f"only the engine {sorted(name(c) for c in pos.legal - ours)[:6]}, "
                              f"only chupai {sorted(name(c) for c in ours - pos.legal)[:6]}")
    return t


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engines", default=",".join(ENGINES))
    p.add_argument("--positions", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", choices=("preset", "default"), default="preset")
    p.add_argument("--show", type=int, default=5)
    args = p.parse_args(argv)
    ok = True
    for engine in args.engines.split(","):
        if engine not in ENGINES:
            p.error(f"--engines: unknown engine {engine!r} (one of {', '.join(ENGINES)})")
        make, preset = ENGINES[engine]
        rules = preset() if args.rules == "preset" else Rules()
        t = compare(make(args.positions, args.seed), rules, args.show)
        ok &= t.equal == t.positions
        print(f"{engine}: {t.positions} positions ({t.leads} leads), {t.equal} equal lists under {rules!r}; "
              f"{t.ambiguous} plays to beat with several readings, {t.unreadable} unreadable")
        for label, counter in (("only the engine", t.only_engine), ("only chupai", t.only_chupai)):
            if counter:
                print(f"  {label} lists: " + ", ".join(f"{k} x{v}" for k, v in counter.most_common(12)))
        for e in t.examples:
            print("   ", e)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
