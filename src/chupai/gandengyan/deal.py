"""Gan Deng Yan's deal, :class:`Deal` (the module doc of :mod:`chupai.gandengyan.game` gives
its actions and what is public)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from chupai.state.base import (
    DealSurface,
    check_players,
    check_rules,
    check_seat,
    check_seed,
    foreign_action,
    shallow_clone,
)
from chupai.actions import PASS
from chupai.cards import Cards
from chupai.state.compiled import WATCH_BOMB_PLAYS, WATCH_PASSES_ON_LEAD
from chupai.errors import IllegalActionError
from chupai.gandengyan._engine import MAX_PLAYERS, MIN_PLAYERS, DealEngine
from chupai.gandengyan._world import world
from chupai.gandengyan.play import Play
from chupai.gandengyan.rules import Rules
from chupai.gandengyan.scoring import deal_returns, general_multiplier
from chupai.gandengyan.phase import Phase

__all__ = ["Deal"]


# module constants: looking an enum member up on its class costs ~0.1 us, and the
# states test the phase at every step
_PLAY, _OVER = Phase.PLAY, Phase.OVER


def _minus(cards: Cards, taken: Cards) -> Cards:
    """``cards`` less whatever of ``taken`` it holds."""
    counts = cards.counts()
    for f, n in enumerate(taken.counts()):
        counts[f] -= min(n, counts[f])
    return Cards.from_counts(counts)


class Deal(DealSurface):
    """One Gan Deng Yan deal (``docs/rules/gandengyan.md``).

    ``Deal(seed, players=n)`` shuffles and deals: starting with the dealer (random, or
    ``dealer``) and going round, each player takes a card until the dealer has six and
    the others five; the rest is the face-down talon; the dealer leads.  After each
    trick, starting with the player who played last and going round, each player
    draws a card while the talon lasts, and that player leads.  The deal ends the
    moment a player plays their last card (``min_talon_to_win``: once the talon is
    short enough).  :meth:`from_hands` builds any deal.

    Attributes (read-only): ``players``, ``dealer``, ``current_player``, ``rules``,
    ``seed``, ``history``, ``talon_size``, ``winner``, ``trick``, ``known_cards``.
    ``history`` is every play and pass as an :class:`~chupai.contract.Event`
    (``Phase.PLAY``), in order.
    """

    game: ClassVar[str] = "gandengyan"

    # (the engine, the cached legal actions, the history and the trick's start are the
    # compiled base's: chupai.state.compiled.CompiledState)
    __slots__ = ("_bombs", "_known", "_rules", "_seed")

    _engine: DealEngine

    def __init__(
        self, seed: int | None = None, *, rules: Rules | None = None, players: int = 4, dealer: int | None = None
    ) -> None:
        seed = check_seed(seed)
        rules = check_rules(rules, Rules, "gandengyan")
        players = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
        if dealer is not None:
            dealer = check_seat(dealer, players, "dealer")
        self._setup(DealEngine.random(seed, players=players, dealer=dealer, rules=rules), rules)
        self._seed = seed
        self._made("new", seed, rules=rules, players=players, dealer=dealer)

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Cards | str | Iterable[str]],
        *,
        talon: str | Sequence[str] = (),
        dealer: int = 0,
        rules: Rules | None = None,
    ) -> Deal:
        """An explicit deal: 2-6 hands (any non-empty sizes, for tests and analysis), the
        talon (card tokens in drawing order: the first is drawn first) and the dealer,
        who leads."""
        rules = check_rules(rules, Rules, "gandengyan")
        if isinstance(hands, (str, Cards)) or not isinstance(hands, Sequence):
            raise TypeError(f"hands must be a sequence of hands, not {hands!r}")
        dealer = check_seat(dealer, len(hands), "dealer")
        self = cls.__new__(cls)
        self._setup(DealEngine.from_hands(hands, current=dealer, talon=talon, rules=rules), rules)
        self._seed = None
        self._made("from_hands", tuple(hands), talon=talon if isinstance(talon, str) else tuple(talon),
                   dealer=dealer, rules=rules)
        return self

    def _setup(self, engine: DealEngine, rules: Rules) -> None:
        self._engine = engine
        self._rules = rules
        self._history = []
        self._phase = _PLAY
        self._trick_start = 0
        self._known: tuple[Cards, ...] = (Cards(),) * engine.players
        self._bombs: tuple[Play, ...] = ()
        self._watch = WATCH_BOMB_PLAYS | WATCH_PASSES_ON_LEAD

    # -- state ---------------------------------------------------------------------------
    @property
    def dealer(self) -> int:
        """The seat that dealt."""
        return self._engine.dealer

    @property
    def phase(self) -> Phase:
        return _OVER if self._engine.over else _PLAY

    @property
    def winner(self) -> int | None:
        """The seat that went out; ``None`` while playing or for a deal nobody could finish."""
        w = self._engine.winner
        return None if w < 0 else w

    def hand(self, seat: int) -> Cards:
        """The cards ``seat`` holds now (full information; see :meth:`observation`)."""
        return self._engine.hand(self._seat(seat))

    @property
    def hands(self) -> tuple[Cards, ...]:
        return tuple(self._engine.hand(s) for s in range(self.players))

    @property
    def talon_size(self) -> int:
        return self._engine.talon_size

    @property
    def talon(self) -> list[str]:
        """The talon in drawing order (full information: hidden from every player)."""
        return self._engine.talon

    @property
    def tricks(self) -> int:
        """Tricks completed."""
        return self._engine.tricks

    @property
    def trick(self) -> tuple[Play | None, int, int]:
        """``(last play, who made it, passes since)``; ``(None, -1, 0)`` when leading."""
        engine = self._engine
        if engine.last_player < 0:
            return None, -1, 0
        return self._last_play, engine.last_player, engine.passes

    @property
    def known_cards(self) -> tuple[Cards, ...]:
        """Per seat, the cards publicly known to be in that hand (shown by passing the lead)."""
        return self._known

    @property
    def bombs_played(self) -> tuple[Play, ...]:
        """The bombs played so far, in order."""
        return self._bombs

    @property
    def general_multiplier(self) -> int:
        """The product of the factors of the bombs played (1 without ``multipliers``)."""
        return general_multiplier(self._bombs, self._rules)

    @property
    def announced(self) -> tuple[int, ...] | None:
        """Seats holding at most ``rules.announce_at`` cards (``None`` when the option is off)."""
        limit = self._rules.announce_at
        if limit is None:
            return None
        return tuple(s for s, n in enumerate(self.hand_sizes()) if n <= limit)

    def scores(self) -> tuple[int, ...]:
        """Each seat's exact score (integers); zeros until a player goes out."""
        return deal_returns(self.hands, self.winner, self.general_multiplier, self._rules)

    def returns(self) -> list[float]:
        """Each seat's score (``chupai.gandengyan.scoring``); zeros until a player goes out."""
        return [float(x) for x in self.scores()]

    def played_cards(self) -> tuple[Cards, ...]:
        """The cards each seat has played so far."""
        return self._played_cards(self.players)

    # -- actions -------------------------------------------------------------------------
    # legal_actions(), apply(), apply_index() and is_terminal() are the compiled base's
    # (chupai.state.compiled.CompiledState): the actions of the current player are every legal
    # play, and PASS when allowed; none once over.
    def _apply_checked(self, action: Any) -> None:
        """Make ``action`` (not an item of the current ``legal_actions()``) for the current
        player; ``IllegalActionError`` (state unchanged) if it is not legal now."""
        if self._engine.over:
            raise IllegalActionError(f"{action!r}: the deal is over")
        if action is not PASS and not isinstance(action, Play):
            raise foreign_action(action, "gandengyan", "a chupai.gandengyan.Play or PASS")
        self._commit(action)  # IllegalActionError, state unchanged, if not legal

    def _after_action(self, seat: int, action: Any, leading: bool) -> None:
        """Bookkeeping of the actions the base reports (``_watch``): a bomb, a pass on lead
        (it shows a hand of jokers only), a play by a seat with shown cards."""
        if action is PASS:
            if leading:
                known = list(self._known)
                known[seat] = self._engine.hand(seat)
                self._known = tuple(known)
        else:
            if action.is_bomb:
                self._bombs = self._bombs + (action,)
            if self._known[seat]:
                known = list(self._known)
                known[seat] = _minus(known[seat], action.cards)
                self._known = tuple(known)
        self._watch = (WATCH_BOMB_PLAYS | WATCH_PASSES_ON_LEAD
                       | sum(1 << s for s, k in enumerate(self._known) if k))

    def _ended(self) -> None:
        self._phase = _OVER

    def card_play(self) -> DealEngine | None:
        """A copy of the compiled engine of this deal (for bots and playouts), or ``None``
        once over."""
        return None if self._engine.over else self._engine.clone()

    # -- copies, views -------------------------------------------------------------------
    def clone(self) -> Deal:
        """An independent copy (the engine is copied in C; plays are shared, being immutable)."""
        return shallow_clone(self)

    def observation(self, player: int) -> dict[str, Any]:
        """What seat ``player`` knows: their hand and everything public, nothing hidden.

        Keys: those of every game (:data:`chupai.contract.OBSERVATION_KEYS`) and
        ``dealer``, ``talon_size``, ``trick`` (``last_play``, ``last_player``,
        ``passes``, ``plays``: the trick's events), ``history``, ``played`` (cards played
        per seat), ``known`` (:attr:`known_cards`), ``bombs`` (the bombs played),
        ``general_multiplier``, ``announced`` (seats at or below ``announce_at`` cards,
        ``None`` when off), ``tricks``, ``winner``, ``over``.
        """
        p = self._seat(player)
        last, last_player, passes = self.trick
        return {
            "player": p,
            "players": self.players,
            "phase": self.phase,
            "dealer": self.dealer,
            "hand": self.hand(p),
            "hand_sizes": self.hand_sizes(),
            "talon_size": self.talon_size,
            "current_player": self.current_player,
            "trick": {
                "last_play": last,
                "last_player": last_player,
                "passes": passes,
                "plays": tuple(self._history[self._trick_start :]),
            },
            "history": tuple(self._history),
            "played": self.played_cards(),
            "known": self._known,
            "bombs": self._bombs,
            "general_multiplier": self.general_multiplier,
            "announced": self.announced,
            "tricks": self.tricks,
            "winner": self.winner,
            "over": self.is_terminal(),
        }

    def _determinize(self, player: int, seed: int) -> Deal:
        """The cards hidden from ``player`` (the other hands but their publicly known
        cards, and the talon) dealt again uniformly, each hand keeping its size, the
        talon in a random order; compiled (:mod:`chupai.engine.determinize`): the engine is
        copied and its hidden cards dealt again.

        Nothing else in a Gan Deng Yan history constrains where a hidden card is
        (passing is free; a leader who passes shows a hand of jokers only, which
        becomes publicly known; draws are private), so this is uniform over the
        consistent deals.
        """
        other = shallow_clone(self)
        other._engine = world(self._engine, player, self._known, seed)  # checks player
        return other

    def _world_card_play(self, player: int, seed: int) -> DealEngine | None:
        engine = world(self._engine, player, self._known, seed)
        return None if self._engine.over else engine

    def _seat(self, player: Any) -> int:
        return check_seat(player, self._engine.players)

    # -- printing ------------------------------------------------------------------------
    def __str__(self) -> str:
        head = f"Gan Deng Yan deal, {self.players} players, dealer {self.dealer}, talon {self.talon_size}, "
        lines = [head + f"{self.tricks} trick(s)"]
        cur = self.current_player
        for s in range(self.players):
            h = self.hand(s)
            mark = ">" if s == cur else " "
            lines.append(f" {mark}seat {s} [{len(h):2d}]: {h}")
        last, last_player, passes = self.trick
        if self.is_terminal():
            w = self.winner
            lines.append(f"  over: {'no winner' if w is None else f'seat {w} went out'}, scores {self.scores()}")
        elif last is None:
            lines.append(f"  seat {cur} leads")
        else:
            lines.append(f"  trick: seat {last_player} played {last} ({passes} pass(es)); seat {cur} to act")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<gandengyan.Deal {self.players} players sizes {self.hand_sizes()} talon {self.talon_size}>"

