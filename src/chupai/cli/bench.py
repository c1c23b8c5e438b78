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

from chupai.evaluation.speed import openspiel_report, surface_report
from chupai.cli.common import dump_json, positive_int
from chupai.evaluation.timing import Report

__all__ = ["run"]


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
    ap.add_argument("--deals", type=positive_int, default=deals, help="seeded deals the generator positions come from")
    ap.add_argument("--repeat", type=positive_int, default=5, help="timed loops per figure (the median is reported)")
    ap.add_argument("--playouts", type=positive_int, default=playouts, help="deals per C playout measurement")
    ap.add_argument("--surface-deals", type=positive_int, default=200,
                    help="seeded deals of the Python surface section (at most --deals)")
    ap.add_argument("--no-engine", action="store_true", help="skip the engine section")
    ap.add_argument("--no-surface", action="store_true", help="skip the Python surface and OpenSpiel sections")
    ap.add_argument("--json", action="store_true", help="write the report as one JSON object")
    ap.add_argument("--calls", action="store_true",
                    help="with --json: each generator row's single calls too ([plays, µs] per position)")
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
