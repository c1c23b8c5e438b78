"""The frame every game's benchmark runner shares (``chupai bench GAME``, ``python -m
chupai.<game>._bench``): the options, the sections and the report.

A runner supplies its generator section (and its engine section); the Python surface
section (:mod:`chupai.evaluation.speed`) and the OpenSpiel reference follow for every
game.  ``--json`` writes the whole report as one JSON object (:meth:`Report.to_json`,
the same keys for every game) instead of the table; ``--calls`` keeps every single
call of the rows timed one by one (its plays and µs: what ``bench/enumeration.py``
plots).
"""
from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from typing import TYPE_CHECKING

from chupai.cli.common import dump_json, positive_int

if TYPE_CHECKING:
    from chupai.evaluation.timing import Report

__all__ = ["NUMBERS", "SWITCHES", "add_options", "passed_on", "run"]

#: the runners' numeric options (``--surface-deals`` counts at most ``--deals``)
NUMBERS = {
    "deals": "seeded deals the generator positions come from",
    "repeat": "timed loops per figure, the median reported",
    "playouts": "deals per C playout measurement",
    "surface_deals": "seeded deals of the Python surface section, at most --deals",
}

#: the runners' switches
SWITCHES = {
    "no_engine": "skip the engine section",
    "no_surface": "skip the Python surface and OpenSpiel sections",
    "json": "write the report as one JSON object (the same keys in every game)",
    "calls": "with --json: each generator row's single calls too ([plays, µs] per position)",
}


def add_options(parser: argparse.ArgumentParser, defaults: dict[str, int] | None = None) -> None:
    """The runners' options on ``parser``, the numbers' defaults from ``defaults``; without
    them (``chupai bench``, which passes on what it is given) a number not given is None
    and the game's runner chooses."""
    for name, text in NUMBERS.items():
        default = None if defaults is None else defaults[name]
        said = "the game's" if default is None else str(default)
        parser.add_argument(f"--{name.replace('_', '-')}", type=positive_int, default=default,
                            help=f"{text} (default: {said})")
    for name, text in SWITCHES.items():
        parser.add_argument(f"--{name.replace('_', '-')}", action="store_true", help=text)


def passed_on(args: argparse.Namespace) -> list[str]:
    """The options of ``args`` (parsed by :func:`add_options` without defaults) that were
    given, as a runner's ``argv``."""
    argv = [word for name in NUMBERS if getattr(args, name) is not None
            for word in (f"--{name.replace('_', '-')}", str(getattr(args, name)))]
    return argv + [f"--{name.replace('_', '-')}" for name in SWITCHES if getattr(args, name)]


def run(
    game: str,
    argv: Sequence[str] | None,
    generator: Callable[[Report, argparse.Namespace], None],
    engine: Callable[[Report, argparse.Namespace], None],
    *,
    deals: int = 1000,
    playouts: int = 20000,
    description: str = "",
) -> int:
    """Parse ``argv``, run the sections of ``game`` into one :class:`Report`, print it;
    0, the exit status (2 for bad options, argparse's)."""
    ap = argparse.ArgumentParser(prog=f"chupai bench {game}", description=description or f"Time {game}.")
    add_options(ap, {"deals": deals, "repeat": 5, "playouts": playouts, "surface_deals": 200})
    from chupai.evaluation.speed import openspiel_report, surface_report  # (the runners' sections)
    from chupai.evaluation.timing import Report
    args = ap.parse_args(argv)
    report = Report(game, echo=not args.json, keep_calls=args.calls)
    report.info.update(deals=args.deals, repeat=args.repeat, playouts=args.playouts)
    report.section("generator")
    generator(report, args)
    if not args.no_engine:
        engine(report, args)
    if not args.no_surface:
        surface = min(args.surface_deals, args.deals)
        report.info["surface_deals"] = surface
        surface_report(report, game, surface, args.repeat)
        openspiel_report(report, surface, args.repeat)
    if args.json:
        return dump_json(report.to_json())
    return 0
