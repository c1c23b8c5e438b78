"""Perft golden counts (``tests/golden/perft_<game>.json``): the fast path (the compiled
engines) reproduces them at the depths below, and the independent slow path (the Python
state machines' ``legal_actions``/``clone``/``apply``) agrees at smaller depths, so the
golden numbers are checked, not only recorded."""
from __future__ import annotations

import json
import pathlib

import pytest

from chupai.registry import GAMES
from chupai.cli import main
from chupai.evaluation.perft import GOLDEN_SEEDS, deal_of, divide, golden, perft, perft_slow

GOLDEN = pathlib.Path(__file__).resolve().parent / "golden"
# the depths each game's golden counts are checked to are its registry entry's
# ``perft`` (chupai.registry.entry.PerftDepths): ``full`` through the compiled engines in the
# slow suite (about 20 s CPU in all), ``quick`` through them in the quick suite,
# ``slow_path`` through the Python state machines (the first seed in the quick suite,
# all in the slow one) and ``slow_path_deep`` deeper in the slow suite


def counts(name: str) -> dict[str, list[int]]:
    with open(GOLDEN / f"perft_{name}.json") as f:
        record = json.load(f)
    assert record["game"] == name
    got: dict[str, list[int]] = record["counts"]
    return got


def test_every_game_has_golden_counts() -> None:
    for name in GAMES:
        got = counts(name)
        assert sorted(got) == sorted(str(s) for s in GOLDEN_SEEDS)
        assert all(len(c) >= GAMES[name].perft.full for c in got.values())


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", GOLDEN_SEEDS)
def test_fast_path_matches_golden(name: str, seed: int) -> None:
    expected = counts(name)[str(seed)][: GAMES[name].perft.quick]
    state = deal_of(name, seed)
    assert [perft(state, d) for d in range(1, GAMES[name].perft.quick + 1)] == expected


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", GOLDEN_SEEDS)
def test_fast_path_matches_golden_at_full_depth(name: str, seed: int) -> None:
    assert perft(deal_of(name, seed), GAMES[name].perft.full) == counts(name)[str(seed)][GAMES[name].perft.full - 1]


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [pytest.param(s, marks=[pytest.mark.slow] if s != GOLDEN_SEEDS[0] else [])
                                  for s in GOLDEN_SEEDS])
def test_slow_path_confirms_golden(name: str, seed: int) -> None:
    expected = counts(name)[str(seed)]
    state = deal_of(name, seed)
    assert [perft_slow(state, d) for d in range(1, GAMES[name].perft.slow_path + 1)] == expected[: GAMES[name].perft.slow_path]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_slow_path_confirms_golden_deeper(name: str) -> None:
    depth = GAMES[name].perft.slow_path_deep
    assert perft_slow(deal_of(name, GOLDEN_SEEDS[0]), depth) == counts(name)[str(GOLDEN_SEEDS[0])][depth - 1]


def test_perft_of_a_state_leaves_it_unchanged_and_agrees_with_its_engine() -> None:
    for name in GAMES:
        state = deal_of(name, 1)
        before = state.observation(0), state.legal_actions()
        n = perft(state, 3)
        assert (state.observation(0), state.legal_actions()) == before
        if state.card_play() is not None:
            assert perft(state.card_play(), 3) == n
        else:  # a first deal that starts with decisions (Dou Dizhu's auction): the slow path
            assert perft_slow(state, 3) == n


def test_divide_splits_the_count_by_first_action() -> None:
    for name in GAMES:
        state = deal_of(name, 2)
        split = divide(state, 3)
        assert sum(split.values()) == perft(state, 3)
        assert len(split) == perft(state, 1)


class RecordingBar:
    """A progress bar that records its total and updates (chupai.engine.backends.progress_bar)."""

    made: list["RecordingBar"] = []

    def __init__(self, total: int, unit: str, progress: bool, *, leave: bool = True) -> None:
        self.total, self.shown, self.leave, self.n = total, progress, leave, 0
        RecordingBar.made.append(self)

    def __enter__(self) -> "RecordingBar":
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def update(self, n: int = 1) -> None:
        self.n += n


def test_a_deep_count_shows_its_progress_over_the_first_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """``progress=True`` (what ``chupai perft`` asks for): one bar over the first actions,
    erased at the end, filled once; the same count.  Every game, from its card play or
    from a decision before it (a Dou Dizhu deal opens with its auction); no bar unasked."""
    import chupai.evaluation.perft as module

    monkeypatch.setattr(module, "progress_bar", RecordingBar)
    for name in GAMES:
        state = deal_of(name, 2)
        RecordingBar.made.clear()
        assert perft(state, 3, progress=True) == perft(state, 3) and len(RecordingBar.made) == 1
        bar = RecordingBar.made[0]
        assert bar.shown and not bar.leave and bar.total == bar.n == perft(state, 1)
    RecordingBar.made.clear()
    perft(deal_of("guandan", 2), 3)
    assert RecordingBar.made == []


@pytest.mark.parametrize("count", [perft, divide])
def test_progress_must_be_a_bool(count) -> None:
    state = deal_of("guandan", 2)
    with pytest.raises(TypeError, match="progress must be True or False"):
        count(state, 2, progress=1)


def test_sequences_that_end_the_deal_early_are_not_counted() -> None:
    from chupai.gandengyan import Deal

    deal = Deal.from_hands(["5S", "7H 8H", "9D TD"], talon=["2S"] * 0)
    # the dealer's single goes out at once: no sequence of two actions exists
    assert perft(deal, 1) == 1 and perft(deal, 2) == 0 and perft_slow(deal, 2) == 0
    over = deal.clone()
    over.apply(over.legal_actions()[0])
    assert over.is_terminal() and perft(over, 0) == 1 and perft(over, 1) == 0


@pytest.mark.parametrize("depth, error", [(-1, ValueError), (1.5, TypeError), (True, TypeError), ("2", TypeError)])
def test_bad_depth(depth: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="depth"):
        perft(deal_of("gandengyan", 1), depth)  # type: ignore[arg-type]


def test_golden_record_matches_the_files() -> None:
    assert golden("gandengyan", 6, (1,))["counts"]["1"] == counts("gandengyan")["1"][:6]


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "chinese_ten", "--seed", "2", "--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert [int(line.split("=")[1].split()[0]) for line in out.splitlines()] == counts("chinese_ten")["2"][:3]
    assert main(["perft", "gandengyan", "--seed", "3", "--depth", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["3"] == counts("gandengyan")["3"][:4]
    assert main(["perft", "--bench", "--depth", "2"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert len(table) == 1 + len(GAMES) and all(name in "".join(table) for name in GAMES)
    assert main(["perft"]) == 2
