"""The Python-surface figures of ``chupai bench`` for any registered game.

What a bot or a search written in Python pays, each in CPU time, the median of
``repeat`` timed loops:

- a random deal driven through ``legal_actions()`` + ``apply()`` (µs per action, the
  deal's creation excluded; the choice by ``random.Random``, as in the OpenSpiel loop),
  and the same deals through ``apply_index()``, the search code's path;
- ``determinize(player, rng)`` and ``observation(player)`` at decisions sampled from
  random matches (every ``STRIDE``-th decision of their first ``MATCH_ACTIONS`` actions,
  so later deals, with tribute or exchange, are in): median and largest position;
- ``MonteCarloBot(200)`` decisions and the share of them spent in ``determinize``;
- ``Cards(text)`` parsing of the dealt hands;
- ``list(legal_plays(...))`` per Play, and the first read of ``.type``, ``.cards``,
  ``str()`` and ``to_protocol()`` of fresh Plays (a game whose Play has no
  ``to_protocol`` gets a row without figure);
- OpenSpiel's Dou Dizhu through the same loop, where ``open_spiel`` is installed
  (``pip install "chupai[bench]"``).
"""
from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from chupai.registry import game
from chupai.evaluation.timing import CLOCK, Report
from chupai.cards import Cards

__all__ = ["DeterminizeTimer", "Surface", "openspiel_loop", "surface_report"]

#: every STRIDE-th decision of a match is a determinize / observation position
STRIDE = 7
#: the first MATCH_ACTIONS actions of each match are sampled
MATCH_ACTIONS = 400
#: MonteCarloBot decisions timed per run
MC_DECISIONS = 12


class DeterminizeTimer:
    """While active (a context manager), the CPU seconds spent in ``determinize`` (and
    ``determinize_card_play``, the world's engine alone) of the states of ``cls`` are
    counted in :attr:`seconds` (and the calls in :attr:`calls`): the bot sees the real
    state, only the class's methods are wrapped for the measurement."""

    METHODS = ("determinize", "determinize_card_play")

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.seconds = 0.0
        self.calls = 0

    def _timed(self, inner: Callable[..., Any]) -> Callable[..., Any]:
        def timed(state: Any, player: int, rng: Any = None) -> Any:
            t0 = CLOCK()
            world = inner(state, player, rng)
            self.seconds += CLOCK() - t0
            self.calls += 1
            return world

        return timed

    def __enter__(self) -> DeterminizeTimer:
        self._saved = {name: self.cls.__dict__.get(name) for name in self.METHODS}
        for name in self.METHODS:
            setattr(self.cls, name, self._timed(getattr(self.cls, name)))
        return self

    def __exit__(self, *exc: object) -> None:
        for name, own in self._saved.items():
            if own is None:
                delattr(self.cls, name)
            else:
                setattr(self.cls, name, own)


class Surface:
    """The seeded positions of one game for the surface figures."""

    def __init__(self, name: str, deals: int) -> None:
        module = game(name).module()
        self.name = name
        self.deal: Callable[..., Any] = module.Deal
        self.match: Callable[..., Any] = module.Match
        self.deals = deals

    def random_deal(self, seed: int, by_index: bool = False) -> tuple[float, int, int]:
        """Play ``Deal(seed)`` to the end through ``legal_actions()`` + ``apply()`` (or
        ``apply_index()``); (CPU seconds of the actions, the dealing excluded; actions;
        legal actions offered)."""
        choice = random.Random(seed).randrange
        state = self.deal(seed=seed)
        actions = offered = 0
        t0 = CLOCK()
        if by_index:
            while not state.is_terminal():
                n = len(state.legal_actions())
                state.apply_index(choice(n))
                actions += 1
                offered += n
        else:
            while not state.is_terminal():
                legal = state.legal_actions()
                n = len(legal)
                state.apply(legal[choice(n)])
                actions += 1
                offered += n
        return CLOCK() - t0, actions, offered

    def decision_states(self, matches: int) -> list[Any]:
        """Clones of the states at every ``STRIDE``-th decision of the first
        ``MATCH_ACTIONS`` actions of ``matches`` seeded random matches."""
        out = []
        for seed in range(matches):
            choice = random.Random(seed).randrange
            state = self.match(seed=seed)
            for step in range(MATCH_ACTIONS):
                if state.is_terminal():
                    break
                if step % STRIDE == 0:
                    out.append(state.clone())
                legal = state.legal_actions()
                state.apply(legal[choice(len(legal))])
        return out

    def hand_texts(self) -> list[str]:
        """The hands of the first ``deals`` deals, as card strings."""
        texts: list[str] = []
        for seed in range(self.deals):
            state = self.deal(seed=seed)
            texts.extend(str(state.hand(s)) for s in range(len(state.hand_sizes())))
        return texts

    def play_lists(self) -> Iterator[Callable[[], Any]]:
        """For each seeded deal, brought to its card play (each decision before it, such
        as a bid, its last option): a function returning a fresh ``PlayList`` of the
        first player's legal plays."""
        for seed in range(self.deals):
            state = self.deal(seed=seed)
            while state.card_play() is None and not state.is_terminal():
                state.apply_index(len(state.legal_actions()) - 1)
            engine = state.card_play()
            if engine is not None:
                yield engine.legal_plays


def _median_us(loop: Callable[[], tuple[float, int]], repeat: int) -> float:
    """The median over ``repeat`` runs of ``loop()`` -> (seconds, items), in µs per item."""
    runs = []
    for _ in range(repeat):
        seconds, items = loop()
        runs.append(seconds / max(items, 1) * 1e6)
    return statistics.median(runs)


def _per_position(fn: Callable[[Any], Any], states: list[Any], repeat: int) -> tuple[float, float, float]:
    """(median, 90th percentile, largest) over ``states`` of the median CPU µs of ``fn(state)``."""
    costs = []
    for state in states:
        runs = []
        for _ in range(repeat):
            t0 = CLOCK()
            fn(state)
            runs.append(CLOCK() - t0)
        costs.append(statistics.median(runs) * 1e6)
    costs.sort()
    return statistics.median(costs), costs[int(0.9 * (len(costs) - 1))], costs[-1]


def _random_deals(surface: Surface, by_index: bool = False) -> tuple[float, int]:
    runs = [surface.random_deal(seed, by_index) for seed in range(surface.deals)]
    return sum(r[0] for r in runs), sum(r[1] for r in runs)


def _first_reads(lists: list[Callable[[], Any]], read: Callable[[Any], Any], repeat: int) -> float:
    """Median µs of ``read(play)`` on Plays never read before (fresh lists each run)."""

    def loop() -> tuple[float, int]:
        plays = [p for make in lists for p in make()]
        t0 = CLOCK()
        for p in plays:
            read(p)
        return CLOCK() - t0, len(plays)

    return _median_us(loop, repeat)


def surface_report(report: Report, name: str, deals: int, repeat: int) -> None:
    """Add the surface rows of game ``name`` to ``report`` (positions from ``deals``
    seeded deals; ``repeat`` timed loops per figure)."""
    from chupai.players.bots import MonteCarloBot

    surface = Surface(name, deals)
    report.section("surface", f"Python surface ({deals} seeded deals)")
    counts = [surface.random_deal(seed) for seed in range(deals)]
    actions = sum(c[1] for c in counts)
    per_decision = sum(c[2] for c in counts) / actions
    us = _median_us(lambda: _random_deals(surface), repeat)
    report.add("random deal, legal_actions() + apply()", us, unit="actions",
               note=f"{actions / deals:.1f} actions a deal, {per_decision:.1f} legal actions a decision; "
               "dealing excluded")
    report.info["actions_per_decision"] = per_decision
    report.info["actions_per_deal"] = actions / deals
    us = _median_us(lambda: _random_deals(surface, by_index=True), repeat)
    report.add("random deal, apply_index()", us, unit="actions", note="the same deals, by index (no Play objects)")
    us = _median_us(lambda: _loop(lambda seed: surface.deal(seed=seed), list(range(deals))), repeat)
    report.add("Deal(seed=...), the dealing", us, unit="deals")

    states = surface.decision_states(max(1, deals // 10))
    rng = np.random.default_rng(1)
    med, p90, top = _per_position(lambda s: s.determinize(s.current_player, rng), states, repeat)
    report.add("determinize(player, rng)", med, note=f"90% {p90:.1f} µs, largest {top:.1f} µs, "
               f"{len(states)} positions of random matches")
    med, p90, top = _per_position(lambda s: s.observation(s.current_player), states, repeat)
    report.add("observation(player)", med, note=f"90% {p90:.1f} µs, largest {top:.1f} µs")

    bot, spent, total, decisions = MonteCarloBot(200), 0.0, 0.0, 0
    for seed in range(MC_DECISIONS):
        state = surface.deal(seed=seed)
        for _ in range(seed % 5):  # not always the first decision
            legal = state.legal_actions()
            state.apply(legal[0])
        with DeterminizeTimer(type(state)) as timed:
            t0 = CLOCK()
            bot.choose(state, rng)
            total += CLOCK() - t0
        spent += timed.seconds
        decisions += 1
    report.add("MonteCarloBot(200) decision", total / decisions * 1e6, unit="decisions",
               note=f"{spent / total:.0%} of it in determinize" if total else "")

    texts = surface.hand_texts()
    size = statistics.mean(len(t.split()) for t in texts)
    us = _median_us(lambda: _loop(Cards, texts), repeat)
    report.add(f"Cards(text), {size:.0f}-card hands", us, items=size, unit="cards")

    lists = list(surface.play_lists())
    if not lists:
        return
    plays = sum(len(make()) for make in lists)
    us_list = _median_us(lambda: _loop(lambda make: list(make()), lists), repeat)
    us_len = _median_us(lambda: _loop(lambda make: len(make()), lists), repeat)
    per_play = (us_list - us_len) * len(lists) / plays
    report.add("list(legal_plays()), per Play", per_play, unit="plays",
               note=f"{plays / len(lists):.0f} plays a call; {us_list:.1f} µs a call, {us_len:.1f} without Plays")
    for label, read in (("Play.type, first read", lambda p: p.type), ("Play.cards, first read", lambda p: p.cards),
                        ("str(Play)", str)):
        report.add(label, _first_reads(lists, read, repeat))
    report.add("Play.to_protocol()", _first_reads(lists, lambda p: p.to_protocol(), repeat))


def _loop(fn: Callable[[Any], Any], items: list[Any]) -> tuple[float, int]:
    t0 = CLOCK()
    for it in items:
        fn(it)
    return CLOCK() - t0, len(items)


def openspiel_loop(deals: int) -> tuple[float, int, int] | None:
    """OpenSpiel's Dou Dizhu played at random through ``legal_actions()`` +
    ``apply_action()``: (CPU seconds of the player actions, the dealing chance nodes
    at the start excluded as chupai's dealing is; player actions; legal actions
    offered), ``None`` without ``open_spiel``."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    g = pyspiel.load_game("dou_dizhu")
    actions = offered = 0
    seconds = 0.0
    for seed in range(deals):
        choice = random.Random(seed).randrange
        state = g.new_initial_state()
        while state.is_chance_node():  # the deal
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[choice(len(outcomes))][0])
        t0 = CLOCK()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[choice(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                n = len(legal)
                state.apply_action(legal[choice(n)])
                actions += 1
                offered += n
        seconds += CLOCK() - t0
    return seconds, actions, offered


def openspiel_report(report: Report, deals: int, repeat: int) -> None:
    """The OpenSpiel Dou Dizhu row (a row without figure where it is not installed)."""
    report.section("reference", "reference: OpenSpiel")
    first = openspiel_loop(1)
    if first is None:
        report.add("OpenSpiel dou_dizhu, legal_actions() + apply_action()", None,
                   note='open_spiel is not installed (pip install "chupai[bench]")')
        return
    runs, actions, offered = [], 0, 0
    for _ in range(repeat):
        result = openspiel_loop(deals)
        assert result is not None
        seconds, actions, offered = result
        runs.append(seconds / actions * 1e6)
    report.add("OpenSpiel dou_dizhu, legal_actions() + apply_action()", statistics.median(runs), unit="actions",
               note=f"{actions / deals:.1f} actions a deal, {offered / actions:.1f} legal actions a decision; "
               "dealing excluded")
