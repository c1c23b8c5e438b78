"""The ``chupai`` command.

    chupai plays guandan "<hand>" --level 7 [--previous "<cards>"] [--collapse] [--json]
    chupai plays chinese_ten "<hand>" --layout "<cards>" [--turned] [--free] [--collapse] [--json]
    chupai plays gandengyan "<hand>" [--previous "<cards>"] [--decks 2] [--collapse] [--json]
    chupai playout guandan --deals 100000 --seed 1 [--policy random] [--threads 1]
    chupai playout chinese_ten --deals 100000 [--players 4] [--variant pagat] [--policy random]
    chupai playout gandengyan --deals 100000 [--players 4] [--decks 1] [--policy random]
    chupai arena guandan|chinese_ten|gandengyan --bots mc,random --deals 200 [--seed 0] [--workers 1] [--players 4]
    chupai bench [--game guandan|chinese_ten|gandengyan] [--deals 1000]
"""
from __future__ import annotations

import argparse
import json
import sys

from chupai import chinese_ten, gandengyan, guandan
from chupai.cards import Cards
from chupai.chinese_ten.rules import VARIANTS

__all__ = ["main"]


def _previous_play(cards: str, level: str, rules: guandan.Rules, type_name: str | None) -> guandan.Play:
    readings = guandan.classify(cards, level, rules=rules)
    if type_name is not None:
        wanted = type_name.upper().replace("-", "_").replace(" ", "_")
        if wanted not in guandan.PlayType.__members__:
            raise ValueError(f"unknown play type {type_name!r}; one of {', '.join(guandan.PlayType.__members__).lower()}")
        readings = [p for p in readings if p.type.name == wanted]
    if not readings:
        raise ValueError(f"{cards!r} is not a play at level {level}")
    if len(readings) > 1:
        listed = "; ".join(str(p) for p in readings)
        raise ValueError(f"{cards!r} can be played {len(readings)} ways ({listed}); say which with --previous-type")
    return readings[0]


def _chinese_ten_rules(args: argparse.Namespace) -> chinese_ten.Rules:
    return chinese_ten.Rules(variant=args.variant, forced_capture=not getattr(args, "free", False))


def _cmd_plays_chinese_ten(args: argparse.Namespace) -> int:
    if args.layout is None:
        raise ValueError("chinese_ten needs --layout (the face-up cards)")
    rules = _chinese_ten_rules(args)
    if args.turned:
        plays = chinese_ten.captures(args.hand, args.layout, rules=rules, collapse_suits=args.collapse)
    else:
        plays = chinese_ten.legal_plays(args.hand, args.layout, rules=rules, collapse_suits=args.collapse)
    if args.json:
        json.dump([[p.card, list(p.captured)] for p in plays], sys.stdout)
        print()
        return 0
    what = f"for the turned {args.hand}" if args.turned else "to play"
    print(f"{len(plays)} plays {what} on the layout {Cards(args.layout, decks=1)}"
          f"{', capture optional' if args.free else ''}{', suits collapsed' if args.collapse else ''}:")
    for p in plays:
        print(f"  {p}")
    return 0


def _cmd_plays_gandengyan(args: argparse.Namespace) -> int:
    rules = gandengyan.Rules(decks=args.decks)
    previous = None
    if args.previous:
        readings = gandengyan.classify(args.previous, rules=rules)
        if args.previous_type is not None:
            wanted = args.previous_type.upper().replace("-", "_").replace(" ", "_")
            readings = [p for p in readings if p.type.name == wanted]
        if len(readings) != 1:
            listed = "; ".join(str(p) for p in readings) or "none"
            raise ValueError(f"{args.previous!r} must be one play (readings: {listed}); say which with --previous-type")
        previous = readings[0]
    plays = gandengyan.legal_plays(args.hand, previous, rules=rules, collapse_suits=args.collapse)
    if args.json:
        json.dump(plays.to_protocol(), sys.stdout)
        print()
        return 0
    what = f"that may follow {previous}" if previous else "to lead"
    print(f"{len(plays)} plays {what} ({args.decks} deck(s){', suits collapsed' if args.collapse else ''}):")
    for p in plays:
        print(f"  {p}")
    if previous:
        print("  (or pass)")
    return 0


def _cmd_plays(args: argparse.Namespace) -> int:
    if args.game == "chinese_ten":
        return _cmd_plays_chinese_ten(args)
    if args.game == "gandengyan":
        return _cmd_plays_gandengyan(args)
    if args.level is None:
        raise ValueError("guandan needs --level (the level rank, 2..A)")
    rules = guandan.Rules.competition() if args.rules == "competition" else guandan.Rules.pagat()
    previous = None
    if args.previous:
        previous = _previous_play(args.previous, args.level, rules, args.previous_type)
    plays = guandan.legal_plays(args.hand, args.level, previous, rules=rules, collapse_suits=args.collapse)
    if args.json:
        json.dump(plays.to_protocol(), sys.stdout)
        print()
        return 0
    what = f"that beat {previous}" if previous else "to lead"
    print(f"{len(plays)} plays {what} (level {args.level}, {args.rules} rules{', suits collapsed' if args.collapse else ''}):")
    for p in plays:
        print(f"  {p}")
    if previous:
        print("  (or pass)")
    return 0


def _cmd_playout_chinese_ten(args: argparse.Namespace) -> int:
    import time

    from chupai.chinese_ten.playouts import playouts

    rules = _chinese_ten_rules(args)
    players = 4 if args.players is None else args.players
    t0 = time.perf_counter()
    r = playouts(args.deals, seed=args.seed, policy=args.policy, threads=args.threads, rules=rules,
                 players=players, progress=not args.quiet)
    dt = time.perf_counter() - t0
    print(f"{args.deals} deals ({rules.variant}, {players} players), {args.policy} policy, {args.threads} "
          f"thread(s): {dt:.2f} s, {args.deals / dt:,.0f} deals/s")
    if args.deals:
        for s in range(players):
            print(f"  seat {s}: mean score {r.scores[:, s].mean():6.1f}, mean result {r.returns[:, s].mean():+6.2f}")
        print(f"  a red 5 took the other in {(r.bonus >= 0).mean():.1%} of the deals")
    return 0


def _cmd_playout_gandengyan(args: argparse.Namespace) -> int:
    import time

    import numpy as np

    rules = gandengyan.Rules(decks=args.decks)
    players = 4 if args.players is None else args.players
    t0 = time.perf_counter()
    r = gandengyan.playouts(args.deals, seed=args.seed, policy=args.policy, threads=args.threads, rules=rules,
                            players=players, progress=not args.quiet)
    dt = time.perf_counter() - t0
    print(f"{args.deals} deals ({players} players, {args.decks} deck(s)), {args.policy} policy, {args.threads} "
          f"thread(s): {dt:.2f} s, {args.deals / dt:,.0f} deals/s")
    if args.deals:
        wins = np.bincount(r.winner + 1, minlength=players + 1)
        for s in range(players):
            print(f"  seat {s}: won {wins[s + 1]} ({wins[s + 1] / args.deals:.1%}), mean score {r.returns[:, s].mean():+6.2f}")
        print(f"  mean tricks {r.tricks.mean():.1f}; no winner in {wins[0]} deal(s)")
    return 0


def _cmd_playout(args: argparse.Namespace) -> int:
    import time

    import numpy as np

    if args.game == "chinese_ten":
        return _cmd_playout_chinese_ten(args)
    if args.game == "gandengyan":
        return _cmd_playout_gandengyan(args)
    if args.players not in (None, 4):
        raise ValueError("guandan is played by 4 players")

    from chupai.guandan.playouts import playouts

    t0 = time.perf_counter()
    r = playouts(args.deals, seed=args.seed, policy=args.policy, threads=args.threads, progress=not args.quiet)
    dt = time.perf_counter() - t0
    print(f"{args.deals} deals, {args.policy} policy, {args.threads} thread(s): {dt:.2f} s, {args.deals / dt:,.0f} deals/s")
    counts = np.bincount(r.result, minlength=4)[1:]
    for name, n in zip(("1-2", "1-3", "1-4"), counts):
        print(f"  {name}: {n:>8} ({n / max(args.deals, 1):.1%})")
    wins = np.bincount(r.winner, minlength=2)
    print(f"  team 0 (seats 0, 2) won {wins[0]}, team 1 (seats 1, 3) won {wins[1]}")
    return 0


_BOTS = {"random": "RandomBot", "greedy": "GreedyBot", "mc": "MonteCarloBot"}


def _make_bot(name: str, playouts: int) -> object:
    from chupai import bots

    if name not in _BOTS:
        raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(_BOTS)}")
    if name == "mc":
        return bots.MonteCarloBot(playouts)
    return getattr(bots, _BOTS[name])()


def _cmd_arena(args: argparse.Namespace) -> int:
    from chupai.tournament import arena

    names = args.bots.split(",")
    if len(names) != 2:
        raise ValueError(f"--bots takes two bots separated by a comma, not {args.bots!r}")
    pair = [_make_bot(n.strip(), args.playouts) for n in names]
    rules = None
    if args.game == "chinese_ten":
        rules = _chinese_ten_rules(args)
    elif args.game == "gandengyan":
        rules = gandengyan.Rules(decks=args.decks)
    result = arena(args.game, pair, args.deals, args.seed, args.workers, matches=args.matches, rules=rules,
                   players=args.players)
    print(result)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.game == "gandengyan":
        from chupai.gandengyan import bench as gdy_bench

        return gdy_bench.main(["--repeat", str(args.repeat), "--playouts", str(args.playouts)])
    if args.game == "chinese_ten":
        from chupai.chinese_ten import _bench as ct_bench

        return ct_bench.main(["--deals", str(args.deals), "--repeat", str(args.repeat), "--playouts", str(args.playouts)])
    from chupai import _bench

    return _bench.main(["--deals", str(args.deals), "--repeat", str(args.repeat), "--playouts", str(args.playouts)])


def main(argv: list[str] | None = None) -> int:
    """Run the ``chupai`` command; returns the exit status."""
    ap = argparse.ArgumentParser(prog="chupai", description="Legal plays of Chinese card games.")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plays", help="list the legal plays of a hand")
    p.add_argument("game", choices=["guandan", "chinese_ten", "gandengyan"])
    p.add_argument("--decks", type=int, choices=[1, 2], default=1, help="gandengyan: one or two decks")
    p.add_argument("hand", help='cards, e.g. "7S 7S 2H BJ" (chinese_ten with --turned: the turned card)')
    p.add_argument("--level", help="guandan: the level rank, 2..A")
    p.add_argument("--layout", help='chinese_ten: the face-up cards, e.g. "QD 3S 3H 6C"')
    p.add_argument("--turned", action="store_true", help="chinese_ten: the hand is the turned stock card")
    p.add_argument("--free", action="store_true", help="chinese_ten: capturing is optional (forced_capture off)")
    p.add_argument("--variant", choices=VARIANTS, default="pagat", help="chinese_ten variant")
    p.add_argument("--previous", help="the cards of the play to beat (default: leading)")
    p.add_argument("--previous-type", help="the type of the play to beat, if its cards can be read several ways")
    p.add_argument("--rules", choices=["pagat", "competition"], default="pagat")
    p.add_argument("--collapse", action="store_true", help="one play per suit-collapsed group")
    p.add_argument("--json", action="store_true", help="print the competition protocol form")
    p.set_defaults(run=_cmd_plays)
    po = sub.add_parser("playout", help="play random deals to the end in C")
    po.add_argument("game", choices=["guandan", "chinese_ten", "gandengyan"])
    po.add_argument("--players", type=int, help="chinese_ten: 2-4 players, gandengyan: 2-6 (default 4)")
    po.add_argument("--decks", type=int, choices=[1, 2], default=1, help="gandengyan: one or two decks")
    po.add_argument("--variant", choices=VARIANTS, default="pagat", help="chinese_ten variant")
    po.add_argument("--deals", type=int, default=100000)
    po.add_argument("--seed", type=int, default=1)
    po.add_argument("--policy", choices=["random", "greedy"], default="random")
    po.add_argument("--threads", type=int, default=1)
    po.add_argument("--quiet", action="store_true", help="no progress bar")
    po.set_defaults(run=_cmd_playout)
    ar = sub.add_parser("arena", help="play deals between two bots")
    ar.add_argument("game", choices=["guandan", "chinese_ten", "gandengyan"])
    ar.add_argument("--players", type=int,
                    help="chinese_ten: 2-4 players, gandengyan: 2-6 (default 4); bots alternate seats")
    ar.add_argument("--decks", type=int, choices=[1, 2], default=1, help="gandengyan: one or two decks")
    ar.add_argument("--variant", choices=VARIANTS, default="pagat", help="chinese_ten variant")
    ar.add_argument("--bots", default="mc,random", help="two of random, greedy, mc (first,second)")
    ar.add_argument("--deals", type=int, default=200)
    ar.add_argument("--seed", type=int, default=0)
    ar.add_argument("--workers", type=int, default=1)
    ar.add_argument("--playouts", type=int, default=200, help="playouts per decision of an mc bot")
    ar.add_argument("--matches", action="store_true", help="play whole matches instead of deals")
    ar.set_defaults(run=_cmd_arena)
    b = sub.add_parser("bench", help="time the generators on seeded deals")
    b.add_argument("--game", choices=["guandan", "chinese_ten", "gandengyan"], default="guandan")
    b.add_argument("--deals", type=int, default=1000)
    b.add_argument("--repeat", type=int, default=5)
    b.add_argument("--playouts", type=int, default=20000, help="deals per C playout measurement")
    b.set_defaults(run=_cmd_bench)
    args = ap.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as e:
        print(f"chupai: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
