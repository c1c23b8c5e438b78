"""Coverage-guided fuzz targets (atheris) for everything Python can reach in chupai.

Each target is a function ``target(data: bytes) -> None`` in :data:`TARGETS`.  A target
turns the bytes into calls of the public API (private names too, where a caller could
reach them) and checks the documented contract:

* bad input raises ``TypeError`` or ``ValueError`` (or a subclass, such as
  ``IllegalActionError``), and ``MemoryError`` where a hand is absurd (a count no game
  can hold): these are *fine* and swallowed by :func:`documented`;
* anything else escaping (``AssertionError`` from a check here, ``IndexError``,
  ``KeyError``, a ``SystemError``...) is a finding and reaches atheris, which saves the
  input; a crash of the interpreter (a signal, a sanitizer report) is a finding too.

``fuzz/run.py`` runs one target under atheris; ``tests/test_fuzz.py`` replays every
seed of ``fuzz/corpus/`` through every target without atheris' engine.
"""
from __future__ import annotations

import contextlib
import dataclasses
import inspect
import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import atheris

from chupai import chinese_ten, doudizhu, gandengyan, guandan, zhengshangyou
from chupai import cli
from chupai.registry import GAMES
from chupai.actions import PASS
from chupai.contract import TERMINAL
from chupai.cards import RANKS, Cards, face_name, parse_face

__all__ = ["ACTION_TARGETS", "PLAY_TARGETS", "TARGETS", "documented"]

NUM_FACES = 54
#: the exceptions the API documents for bad input
DOCUMENTED = (TypeError, ValueError)
#: at most this many plays of one generated list are checked one by one (speed)
CHECKED_PLAYS = 24
#: at most this many actions in one random action sequence, of which at most
#: MAX_REFUSALS illegal ones (each compares every player's observation: keep an input fast)
MAX_ACTIONS = 300
MAX_REFUSALS = 12


@contextmanager
def documented(*, memory: bool = False) -> Iterator[None]:
    """Swallow the documented bad-input exceptions (and ``MemoryError`` if ``memory``)."""
    allowed: tuple[type[BaseException], ...] = DOCUMENTED + ((MemoryError,) if memory else ())
    try:
        yield
    except allowed:
        pass


# -- decoding helpers ---------------------------------------------------------------
#: how deep junk() nests lists (the data provider repeats itself once exhausted, and an
#: unbounded nesting ran the harness itself out of stack)
JUNK_DEPTH = 3


def junk(fdp: atheris.FuzzedDataProvider, depth: int = 0) -> Any:
    """An arbitrary value of a kind a careless caller might pass anywhere."""
    kind = fdp.ConsumeIntInRange(0, 9)
    if kind == 0:
        return None
    if kind == 1:
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 9))
    if kind == 2:
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 12))
    if kind == 3:
        return fdp.ConsumeFloat()
    if kind == 4:
        if depth >= JUNK_DEPTH:
            return []
        return [junk(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 3))]
    if kind == 5:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 8))
    if kind == 6:
        return fdp.ConsumeBool()
    if kind == 7:
        return face_name(fdp.ConsumeIntInRange(0, NUM_FACES - 1))
    if kind == 8:
        return PASS
    return object()


def faces(fdp: atheris.FuzzedDataProvider, most: int) -> list[int]:
    """Up to ``most`` face numbers (repeats allowed: the callee must refuse too many)."""
    return [fdp.ConsumeIntInRange(0, NUM_FACES - 1) for _ in range(fdp.ConsumeIntInRange(0, most))]


def hand_arg(fdp: atheris.FuzzedDataProvider, most: int, decks: int) -> Any:
    """A hand in one of the forms the generators accept (or a malformed one)."""
    names = [face_name(f) for f in faces(fdp, most)]
    form = fdp.ConsumeIntInRange(0, 5)
    if form == 0:
        return " ".join(names)
    if form == 1:
        return names
    if form == 5:
        return junk(fdp)
    return cards_of(names, decks)


def cards_of(names: list[str], decks: int) -> Cards:
    """``Cards`` of ``names``, copies beyond ``decks`` dropped (always valid)."""
    counts = [0] * NUM_FACES
    kept = []
    for n in names:
        f = parse_face(n)
        if counts[f] < decks:
            counts[f] += 1
            kept.append(n)
    return Cards(kept, decks=decks)


def sample(plays: Any) -> list[Any]:
    """At most :data:`CHECKED_PLAYS` plays of a list, spread over it."""
    n = len(plays)
    step = max(1, n // CHECKED_PLAYS)
    return [plays[i] for i in range(0, n, step)][:CHECKED_PLAYS]


def option(fdp: atheris.FuzzedDataProvider, values: tuple[Any, ...]) -> Any:
    """One of ``values`` most of the time, else junk (the constructor must refuse it)."""
    if fdp.ConsumeIntInRange(0, 15) == 0:
        return junk(fdp)
    return values[fdp.ConsumeIntInRange(0, len(values) - 1)]


# -- rules of each game --------------------------------------------------------------
_RANK_OR_NONE = (None,) + tuple(RANKS)
RULE_OPTIONS: dict[str, dict[str, tuple[Any, ...]]] = {
    "guandan": {
        "promotion": ((4, 2, 1), (3, 2, 1), (1, 1, 1), (0, 0, 0)),
        "straight_flush_as_straight": (True, False),
        "joker_pair_in_full_house": (True, False),
        "return_max_rank": _RANK_OR_NONE,
        "equal_tribute": ("winners_choose", "seat_order"),
        "equal_tribute_lead": ("payers_choose", "seat_order"),
        "ace_attempts": (None, 1, 2, 3, 5),
        "ace_loss_to_aces": (True, False),
    },
    "zhengshangyou": {"joker_pair": (True, False), "target": (1, 5, 11, 30)},
    "gandengyan": {
        "decks": (1, 2),
        "triples_are_bombs": (True, False),
        "triple_sequences": (False, True),
        "max_sequence_ranks": (None, 3, 5, 12),
        "joker_as_two": (True, False),
        "joker_lead_out": (True, False),
        "follow_same_rank": (False, True),
        "min_talon_to_win": (None, 0, 5),
        "ace_multiplier": (None, 1, 3),
        "multipliers": (False, True),
        "soft_bombs": (False, True),
        "positive_only": (False, True),
        "announce_at": (None, 1, 2),
    },
    "chinese_ten": {
        "variant": ("pagat", "taiwanese", "barraco", "gob_dum_gob_dang", "main_merah"),
        "red_five_bonus": (None, True, False),
        "forced_capture": (True, False),
        "order": (None, "clockwise", "counterclockwise"),
        "match_deals": (None, 1, 3),
    },
    "doudizhu": {
        **{f.name: (True, False) for f in dataclasses.fields(doudizhu.Rules) if f.type == "bool"},
        "bidding": ("once", "rob", "none"),
        "all_pass": ("redeal", "void", "first_bidder"),
        "multiplier_cap": (None, 1, 3, 8),
    },
}
#: every registered game's package (its Deal and Match are fuzzed)
MODULES: dict[str, Any] = {name: entry.module() for name, entry in GAMES.items()}
#: the games whose plays are fuzzed: the registered ones and the rules cores not yet
#: registered (no Deal or Match to fuzz)
PLAY_MODULES: dict[str, Any] = {**MODULES, "doudizhu": doudizhu}


def rules_of(fdp: atheris.FuzzedDataProvider, game: str) -> Any:
    """A ``Rules`` of ``game`` with fuzzed options (``ValueError`` for a bad one: fine)."""
    options = {name: option(fdp, values) for name, values in RULE_OPTIONS[game].items() if fdp.ConsumeBool()}
    return PLAY_MODULES[game].Rules(**options)


# -- the card parser and constructors --------------------------------------------------
def fuzz_cards(data: bytes) -> None:
    """``Cards(text)``: parse anything; a parsed hand prints and parses back to itself."""
    fdp = atheris.FuzzedDataProvider(data)
    decks = fdp.ConsumeIntInRange(1, 2) if fdp.ConsumeIntInRange(0, 15) else junk(fdp)
    as_list = fdp.ConsumeBool()
    text = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
    with documented():
        cards = Cards(text.split(",") if as_list else text, decks=decks)
        again = Cards(str(cards), decks=decks)
        assert again == cards and hash(again) == hash(cards), (text, cards, again)
        assert len(cards) == sum(cards.counts()) == len(list(cards)), text
        assert all(n <= decks for n in cards.counts()), text
        assert Cards.from_masks(*cards.layers) == cards
        for token in set(cards):
            assert token in cards and cards.count(token) >= 1


def fuzz_cards_from(data: bytes) -> None:
    """``Cards.from_counts`` / ``from_masks`` and the multiset operations on what they build."""
    fdp = atheris.FuzzedDataProvider(data)
    with documented(memory=True):
        if fdp.ConsumeBool():
            n = NUM_FACES if fdp.ConsumeIntInRange(0, 7) else fdp.ConsumeIntInRange(0, 60)
            small = fdp.ConsumeIntInRange(0, 3)
            counts = [fdp.ConsumeIntInRange(0, small) if fdp.ConsumeIntInRange(0, 31) else junk(fdp) for _ in range(n)]
            cards = Cards.from_counts(counts)
            assert cards.counts() == list(counts), counts
        else:
            layers = [
                fdp.ConsumeIntInRange(0, (1 << NUM_FACES) - 1) if fdp.ConsumeIntInRange(0, 15) else junk(fdp)
                for _ in range(fdp.ConsumeIntInRange(0, 4))
            ]
            cards = Cards.from_masks(*layers)
        assert Cards.from_counts(cards.counts()) == cards
        assert Cards.from_masks(*cards.layers) == cards
        other = Cards(" ".join(face_name(f) for f in faces(fdp, 12)), decks=2)
        with documented():
            total = cards + other
            assert total - other == cards
        with documented():
            assert (cards - other) + other == cards
        assert (other <= cards) == all(a <= b for a, b in zip(other.counts(), cards.counts()))


# -- generators and recognition, per game ---------------------------------------------
def _previous(fdp: atheris.FuzzedDataProvider, game: str, make: Callable[[Any], list[Any]]) -> Any:
    """A play to beat: ``None``, a play of random cards (``make`` classifies them), or junk."""
    kind = fdp.ConsumeIntInRange(0, 7)
    if kind <= 1:
        return None
    if kind == 7:
        return junk(fdp)
    plays = make(cards_of([face_name(f) for f in faces(fdp, 14)], 2 if game in ("guandan", "gandengyan") else 1))
    return plays[fdp.ConsumeIntInRange(0, len(plays) - 1)] if plays else None


def _check_plays(plays: Any, hand: Any, previous: Any, classify: Callable[[Cards], list[Any]],
                 collapsed: Any, rules: Any = None) -> None:
    """What every generated list of plays must satisfy."""
    arr = plays.to_numpy()
    assert len(arr) == len(plays)
    assert len(collapsed) <= len(plays), (len(collapsed), len(plays))
    cards = hand if isinstance(hand, Cards) else None
    seen = set()
    for play in sample(plays):
        assert play not in seen, play
        seen.add(play)
        if cards is not None:
            assert play.cards <= cards, (play, cards)
        assert play in classify(play.cards), (play, classify(play.cards))
        if previous is not None:
            beats = play.beats(previous, rules=rules) if _beats_takes_rules(play) else play.beats(previous)
            assert beats, (play, previous, rules)


def _beats_takes_rules(play: Any) -> bool:
    """Whether this game's ``Play.beats`` depends on the rules (Gan Deng Yan's does)."""
    return "rules" in inspect.signature(type(play).beats).parameters


def fuzz_guandan(data: bytes) -> None:
    """``guandan.legal_plays`` / ``classify`` with arbitrary hands, levels, previous plays, rules."""
    fdp = atheris.FuzzedDataProvider(data)
    with documented(memory=True):
        rules = rules_of(fdp, "guandan") if fdp.ConsumeBool() else None
        level = RANKS[fdp.ConsumeIntInRange(0, 12)] if fdp.ConsumeIntInRange(0, 15) else junk(fdp)
        prev_level = level if fdp.ConsumeIntInRange(0, 3) else RANKS[fdp.ConsumeIntInRange(0, 12)]
        previous = _previous(fdp, "guandan", lambda c: guandan.classify(c, prev_level, rules=rules))
        hand = hand_arg(fdp, 30, 2)
        plays = guandan.legal_plays(hand, level, previous, rules=rules)
        collapsed = guandan.legal_plays(hand, level, previous, rules=rules, collapse_suits=True)
        _check_plays(plays, hand, previous, lambda c: guandan.classify(c, level, rules=rules), collapsed)


def fuzz_zhengshangyou(data: bytes) -> None:
    """``zhengshangyou.legal_plays`` / ``classify`` with arbitrary hands, previous plays, rules."""
    fdp = atheris.FuzzedDataProvider(data)
    with documented(memory=True):
        rules = rules_of(fdp, "zhengshangyou") if fdp.ConsumeBool() else None
        previous = _previous(fdp, "zhengshangyou", lambda c: zhengshangyou.classify(c, rules=rules))
        hand = hand_arg(fdp, 20, 1)
        plays = zhengshangyou.legal_plays(hand, previous, rules=rules)
        collapsed = zhengshangyou.legal_plays(hand, previous, rules=rules, collapse_suits=True)
        _check_plays(plays, hand, previous, lambda c: zhengshangyou.classify(c, rules=rules), collapsed)


def fuzz_gandengyan(data: bytes) -> None:
    """``gandengyan.legal_plays`` / ``classify`` with arbitrary hands, previous plays, rules."""
    fdp = atheris.FuzzedDataProvider(data)
    with documented(memory=True):
        rules = rules_of(fdp, "gandengyan") if fdp.ConsumeBool() else None
        decks = rules.decks if rules is not None else 1
        previous = _previous(fdp, "gandengyan", lambda c: gandengyan.classify(c, rules=rules))
        hand = hand_arg(fdp, 16, decks)
        plays = gandengyan.legal_plays(hand, previous, rules=rules)
        collapsed = gandengyan.legal_plays(hand, previous, rules=rules, collapse_suits=True)
        _check_plays(plays, hand, previous, lambda c: gandengyan.classify(c, rules=rules), collapsed, rules)


def fuzz_doudizhu(data: bytes) -> None:
    """``doudizhu.legal_plays`` / ``classify`` with arbitrary hands, previous plays, rules."""
    fdp = atheris.FuzzedDataProvider(data)
    with documented(memory=True):
        rules = rules_of(fdp, "doudizhu") if fdp.ConsumeBool() else None
        previous = _previous(fdp, "doudizhu", lambda c: doudizhu.classify(c, rules=rules))
        hand = hand_arg(fdp, 20, 1)
        plays = doudizhu.legal_plays(hand, previous, rules=rules)
        collapsed = doudizhu.legal_plays(hand, previous, rules=rules, collapse_suits=True)
        _check_plays(plays, hand, previous, lambda c: doudizhu.classify(c, rules=rules), collapsed)


def fuzz_chinese_ten(data: bytes) -> None:
    """``chinese_ten.legal_plays`` / ``captures`` / ``classify`` with arbitrary hands and layouts."""
    fdp = atheris.FuzzedDataProvider(data)
    with documented(memory=True):
        rules = rules_of(fdp, "chinese_ten") if fdp.ConsumeBool() else None
        hand = hand_arg(fdp, 12, 1)
        layout = hand_arg(fdp, 12, 1)
        plays = chinese_ten.legal_plays(hand, layout, rules=rules)
        collapsed = chinese_ten.legal_plays(hand, layout, rules=rules, collapse_suits=True)
        assert len(collapsed) <= len(plays) and len(plays.to_numpy()) == len(plays)
        for play in sample(plays):
            if isinstance(hand, Cards):
                assert play.card in hand, (play, hand)
            if play.is_capture:
                assert chinese_ten.classify(play.card, play.captured) == [play], play
                assert play.captured <= (layout if isinstance(layout, Cards) else Cards(layout, decks=1))
        card = face_name(fdp.ConsumeIntInRange(0, NUM_FACES - 1)) if fdp.ConsumeIntInRange(0, 7) else junk(fdp)
        for play in chinese_ten.captures(card, layout, rules=rules):
            assert play.card == card


def fuzz_records(data: bytes) -> None:
    """A previous play built from an arbitrary record (``Play._from_record``, private but
    reachable): the generators must refuse it or handle it, never read out of bounds."""
    fdp = atheris.FuzzedDataProvider(data)
    game = ("guandan", "zhengshangyou", "gandengyan", "doudizhu")[fdp.ConsumeIntInRange(0, 3)]
    module = PLAY_MODULES[game]
    fields = [fdp.ConsumeIntInRange(-(1 << 8), 1 << 8) if fdp.ConsumeIntInRange(0, 3) else fdp.ConsumeInt(8)
              for _ in range(6)]
    decl = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 4))
    level = fdp.ConsumeIntInRange(0, 12)
    hand = cards_of([face_name(f) for f in faces(fdp, 27)], 2 if game in ("guandan", "gandengyan") else 1)
    try:
        previous = module.Play._from_record(*fields, decl, level if game == "guandan" else None)
        if game == "guandan":
            module.legal_plays(hand, RANKS[level], previous)
        else:
            module.legal_plays(hand, previous)
    except DOCUMENTED + (MemoryError, OverflowError):
        # OverflowError: a field beyond its C type, refused by Cython's conversion
        pass


def fuzz_protocol(data: bytes) -> None:
    """Every game's ``from_protocol``: any entry is refused or read as a
    play whose protocol form names it; every legal play's form reads back to itself."""
    fdp = atheris.FuzzedDataProvider(data)
    games = list(MODULES)
    game = games[fdp.ConsumeIntInRange(0, len(games) - 1)]
    from_protocol = MODULES[game].from_protocol
    takes_level = "level" in inspect.signature(from_protocol).parameters
    level = RANKS[fdp.ConsumeIntInRange(0, 12)]

    def read(obj: Any) -> Any:
        return from_protocol(obj, level) if takes_level else from_protocol(obj)

    with documented(memory=True):
        if fdp.ConsumeBool():
            hand = cards_of([face_name(f) for f in faces(fdp, 27)], 2)
            plays = MODULES[game].legal_plays(hand, level) if takes_level else MODULES[game].legal_plays(hand)
            for play in sample(plays):
                assert read(play.to_protocol()) == play, play
        else:
            entry = [junk(fdp) if fdp.ConsumeIntInRange(0, 3) == 0 else fdp.ConsumeUnicode(8) for _ in range(2)]
            cards = [face_name(f) if fdp.ConsumeIntInRange(0, 7) else junk(fdp) for f in faces(fdp, 10)]
            obj = entry + [cards] if fdp.ConsumeIntInRange(0, 7) else junk(fdp)
            play = read(obj)
            assert read(play.to_protocol()) == play


# -- hostile peers: records and server messages ----------------------------------------
def fuzz_record_readers(data: bytes) -> None:
    """The record readers on arbitrary text, and :meth:`Record.open` on the raw bytes as a
    file: every malformed record is a ``ValueError``."""
    import tempfile

    from chupai.guandan.protocol.records import Record, load_match, parse_record, print_record, replay_frames

    with tempfile.NamedTemporaryFile(suffix=".jsonl") as f:
        f.write(data)
        f.flush()
        with documented():
            record = Record.open(f.name)
            with open(os.devnull, "w") as sink:
                print_record(record, sink, hands=True)
            for t, g in record.games():
                load_match(record, t, g)
    with documented():
        lines = parse_record(data.decode("utf-8", "replace"))
        with open(os.devnull, "w") as sink:
            print_record(lines, sink, hands=True)
        replay_frames(lines)
        load_match(lines)


# -- the command line ----------------------------------------------------------------
#: words the command-line target builds argument lists of: every subcommand, the options
#: of each, and values good and bad (numbers out of range, paths that cannot be written)
CLI_WORDS = (
    "plays", "playout", "arena", "ladder", "perft", "generate", "bench", "serve", "join", "replay",
    *(game for game in GAMES), "--level", "--rules", "--previous", "--previous-type", "--previous-index", "--layout", "--turned",
    "--free", "--variant", "--decks", "--no-joker-pair", "--players", "--deals", "--seed", "--policy",
    "--threads", "--workers", "--bots", "--json", "--save-json", "--png", "--depth", "--divide", "--bench", "--episodes",
    "--out", "--backend", "--address", "--chunk-size", "--playouts", "--quiet", "--collapse", "--matches",
    "--version", "--help", "--port", "--host", "--games", "--seats", "--record", "--table", "--hands",
    "--protocol", "--room", "--seat", "--bot", "--strict", "--repeat", "--no-engine",
    "0", "-1", "1", "2", "7", "A", "x", "1e3", "1000000000000", "18446744073709551616", "", " ", "3S 4S 5S", "7S 7S 2H BJ", "8S 8D", "QD 3S",
    "random,greedy", "mc", "alpha", "net:/nonexistent.onnx", "pagat", "competition", "ray", "local",
    "/nonexistent/dir/x", "/", "256.1.1.1",
)
#: subcommands the target runs to the end (cheap on any arguments); the others it
#: parses and checks only, the stage that must refuse bad input before any work
CLI_RUN = ("plays", "--version", "--help")


def fuzz_cli(data: bytes) -> None:
    """``chupai`` argument lists of the vocabulary above: every failure is a return of
    status 2 with one line ``chupai: error: ...`` (or argparse's exit for ``--help`` and
    ``--version``), never a traceback."""
    fdp = atheris.FuzzedDataProvider(data)
    argv = [CLI_WORDS[fdp.ConsumeIntInRange(0, len(CLI_WORDS) - 1)] for _ in range(fdp.ConsumeIntInRange(0, 8))]
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        if argv and argv[0] in CLI_RUN:
            status = cli.main(argv)
        else:
            status = cli.check_arguments(argv)
    assert status in (0, 2), (argv, status)
    if status == 2:
        lines = err.getvalue().splitlines()
        assert len(lines) == 1 and lines[0].startswith("chupai: error: "), (argv, err.getvalue())


_CLIENT: list[Any] = []


def fuzz_client_messages(data: bytes) -> None:
    """A client's handling of arbitrary server messages (one per line): each is taken,
    answered or refused with a ``ValueError``; an answer is an index of the request."""
    from chupai.guandan.protocol.client import Client, ClientState, parse_message

    if not _CLIENT:
        _CLIENT.append(Client("ws://127.0.0.1:1/game/fuzz", bot="random"))
    client = _CLIENT[0]
    client.state = ClientState()
    for raw in data.split(b"\n")[:20]:
        with documented():
            msg = parse_message(raw)
            if msg is None:
                continue
            client.state.update(msg)
            if msg["type"] == "act":
                index = client.choose(msg)
                assert 0 <= index <= msg["indexRange"], index


# -- random action sequences on every state ------------------------------------------
def _state(fdp: atheris.FuzzedDataProvider, game: str) -> Any:
    module = MODULES[game]
    rules = rules_of(fdp, game) if fdp.ConsumeBool() else None
    seed = fdp.ConsumeIntInRange(0, 1 << 20)
    cls = module.Match if fdp.ConsumeIntInRange(0, 3) == 0 else module.Deal
    entry = GAMES[game]
    if entry.fixed_players:
        return cls(seed, rules=rules)
    low, high = entry.players
    return cls(seed, rules=rules, players=fdp.ConsumeIntInRange(low, high))


def _snapshot(state: Any) -> tuple[Any, ...]:
    """Everything a refused action must leave unchanged."""
    players = getattr(state, "players", 4)
    return (
        state.current_player,
        state.is_terminal(),
        tuple(state.legal_actions()),
        tuple(state.history),
        tuple(state.observation(p) for p in range(players)),
    )


def _illegal_candidate(fdp: atheris.FuzzedDataProvider, pool: list[Any]) -> Any:
    """An action likely to be illegal now: a stale one of an earlier turn or junk."""
    if pool and fdp.ConsumeIntInRange(0, 3):
        return pool[fdp.ConsumeIntInRange(0, len(pool) - 1)]
    return junk(fdp)


def _sequence(game: str) -> Callable[[bytes], None]:
    def target(data: bytes) -> None:
        fdp = atheris.FuzzedDataProvider(data)
        try:
            state = _state(fdp, game)
        except DOCUMENTED:
            return
        pool: list[Any] = []
        refusals = 0
        for _ in range(MAX_ACTIONS):
            if state.is_terminal():
                assert state.legal_actions() == [] and state.current_player == TERMINAL
                state.returns()
                break
            legal = state.legal_actions()
            assert legal, "a state that is not over has legal actions"
            if refusals >= MAX_REFUSALS or fdp.remaining_bytes() == 0 or fdp.ConsumeIntInRange(0, 2):
                action = legal[fdp.ConsumeIntInRange(0, len(legal) - 1)] if fdp.remaining_bytes() else legal[0]
                pool.extend(legal[:8])
                state.apply(action)
                continue
            action = _illegal_candidate(fdp, pool)
            refusals += 1
            is_legal = any(action is a or (type(action) is type(a) and action == a) for a in legal)
            before = _snapshot(state)
            copy = state.clone()
            try:
                state.apply(action)
            except DOCUMENTED as e:
                assert not is_legal, f"a legal action {action!r} was refused: {e!r}"
                after = _snapshot(state)
                assert after == before, f"refused {action!r} changed the state"
                assert _snapshot(copy) == before
                continue
            # accepted: it must have been one of the legal actions, in another form
            if not is_legal:
                assert any(_applied(copy, a) == _snapshot(state) for a in legal), (
                    f"{action!r} was accepted but is none of the legal actions {legal!r}")
    target.__name__ = f"fuzz_{game}_actions"
    target.__doc__ = f"Random {game} Deal/Match action sequences, legal and illegal interleaved."
    return target


def _applied(state: Any, action: Any) -> tuple[Any, ...]:
    other = state.clone()
    other.apply(action)
    return _snapshot(other)


def _by_game(targets: dict[str, Callable[[bytes], None]], what: str) -> Callable[[bytes], None]:
    """One target over every game: the first byte picks the game, the rest is its input."""
    games = list(targets)

    def target(data: bytes) -> None:
        if data:
            targets[games[data[0] % len(games)]](data[1:])

    target.__doc__ = f"{what} of every game ({', '.join(games)}; the first byte picks one)."
    return target


PLAY_TARGETS: dict[str, Callable[[bytes], None]] = {
    "guandan": fuzz_guandan,
    "zhengshangyou": fuzz_zhengshangyou,
    "gandengyan": fuzz_gandengyan,
    "chinese_ten": fuzz_chinese_ten,
    "doudizhu": fuzz_doudizhu,
}
ACTION_TARGETS: dict[str, Callable[[bytes], None]] = {g: _sequence(g) for g in MODULES}

TARGETS: dict[str, Callable[[bytes], None]] = {
    "cards": fuzz_cards,
    "cards_from": fuzz_cards_from,
    "plays": _by_game(PLAY_TARGETS, "legal_plays / classify with arbitrary hands, levels, previous plays and rules"),
    "play_records": fuzz_records,
    "protocol": fuzz_protocol,
    "records": fuzz_record_readers,
    "client_messages": fuzz_client_messages,
    "actions": _by_game(ACTION_TARGETS, "Random Deal/Match action sequences, legal and illegal interleaved,"),
    "cli": fuzz_cli,
}
