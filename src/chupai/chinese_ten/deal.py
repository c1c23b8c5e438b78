"""Chinese Ten's deal, :class:`Deal` (the module doc of :mod:`chupai.chinese_ten.game` gives
its actions and what is public)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from chupai.state.base import DealSurface, check_rules, check_seat, check_seed, foreign_action, shallow_clone
from chupai.core.validate import check_int
from chupai.cards import Cards
from chupai.chinese_ten._engine import PHASES as ENGINE_PHASE_NAMES
from chupai.chinese_ten._engine import DealEngine, redeal_needed
from chupai.chinese_ten._engine import first_player as engine_first_player
from chupai.chinese_ten.play import Play
from chupai.chinese_ten.rules import Rules
from chupai.chinese_ten.phase import Phase

__all__ = ["Deal", "first_player"]


#: the phases by name (the engine's ``phase``)
_PHASES = {p.value: p for p in Phase}
#: the phases by the engine's phase index: the compiled surface follows the engine's
#: phase after each action and records each stock card resolved at once (one outcome)
#: as an automatic TURN event
_ENGINE_PHASES = tuple(_PHASES[name] for name in ENGINE_PHASE_NAMES)


def _check_rules(rules: Any) -> Rules:
    return check_rules(rules, Rules, "chinese_ten")


def first_player(rules: Rules, players: int, dealer: int) -> int:
    """The player who starts a deal: the dealer or the next seat (``Rules.order``).

    >>> first_player(Rules.pagat(), 4, 3)
    0
    """
    rules = _check_rules(rules)
    n = rules.check_players(check_int(players, "players"))
    return int(engine_first_player(rules, n, check_seat(dealer, n, "dealer")))


# --- one deal -------------------------------------------------------------------------------
class Deal(DealSurface):
    """One Chinese Ten deal for 2-4 players (``docs/rules/chinese_ten.md``).

    ``Deal(seed, rules=..., players=..., dealer=...)`` shuffles and deals (the same seed
    gives the same deal as the first of ``playouts``, dealer 0); :meth:`from_hands`
    deals given cards, :meth:`from_position` sets up a deal in progress.  See the
    module docstring for the turn.

    Attributes (read-only): ``phase`` (a :class:`Phase`),
    ``current_player``, ``players``, ``dealer``, ``first_player``, ``layout``,
    ``stock_size``, ``turned``, ``opening``, ``redeals``, ``history``, ``rules``, ``seed``.
    ``history`` is every public event (an :class:`~chupai.contract.Event`) in order:
    each card played (``Phase.PLAY``) and each stock card turned (``Phase.TURN``,
    ``automatic`` when it had a single outcome).
    """

    game: ClassVar[str] = "chinese_ten"

    # (the engine, the cached legal actions, the phase and the history are the compiled
    # base's: chupai.state.compiled.CompiledState)
    __slots__ = ("_rules", "_seed", "_opening", "_first")

    _engine: DealEngine

    def __init__(self, seed: int | None = None, *, rules: Rules | None = None, players: int = 4,
                 dealer: int = 0) -> None:
        seed = check_seed(seed)
        rules = _check_rules(rules)
        n = rules.check_players(check_int(players, "players"))
        engine = DealEngine.random(seed, players=n, rules=rules, dealer=check_seat(dealer, n, "dealer"))
        self._setup(engine, rules, seed)
        self._made("new", seed, rules=rules, players=n, dealer=int(dealer))

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Cards | str | Iterable[str]],
        *,
        layout: Cards | str | Iterable[str],
        stock: str | Iterable[str],
        rules: Rules | None = None,
        dealer: int = 0,
    ) -> Deal:
        """A fresh deal of these cards: one hand per player, the opening layout, the stock
        in turning order (top card first).

        The sizes must be the rules' (:meth:`Rules.deal_sizes`) and the 52 cards all
        there; the opening rule applies (the dealer takes four of a kind); in
        ``main_merah`` a layout that would be thrown in is a ``ValueError``.
        """
        rules = _check_rules(rules)
        if isinstance(hands, (str, Cards)) or not isinstance(hands, Sequence):
            raise TypeError(f"hands must be a sequence of hands, not {hands!r}")
        players = rules.check_players(len(hands))
        dealer = check_seat(dealer, players, "dealer")
        hand_size, layout_size, stock_size = rules.deal_sizes(players)
        cards = [h if isinstance(h, Cards) else Cards(h, decks=1) for h in hands]
        layout = layout if isinstance(layout, Cards) else Cards(layout, decks=1)
        stock = stock.split() if isinstance(stock, str) else list(stock)
        for s, h in enumerate(cards):
            if len(h) != hand_size:
                raise ValueError(f"hand {s} has {len(h)} cards; {rules.variant} with {players} players deals {hand_size}")
        if len(layout) != layout_size:
            raise ValueError(f"the layout has {len(layout)} cards; {rules.variant} with {players} players "
                             f"lays out {layout_size}")
        if len(stock) != stock_size:
            raise ValueError(f"the stock has {len(stock)} cards; {rules.variant} with {players} players "
                             f"leaves {stock_size}")
        if rules.variant == "main_merah" and redeal_needed(layout, rules.redeal_crowded_groups):
            raise ValueError(f"the layout {layout} would be thrown in and redealt in main_merah")
        self = cls.__new__(cls)
        engine = DealEngine.from_hands(cards, layout=layout, stock=stock, current=first_player(rules, players, dealer),
                                   rules=rules, dealer=dealer, opening=True)
        self._setup(engine, rules, None)
        self._made("from_hands", tuple(cards), layout=layout, stock=tuple(stock), rules=rules, dealer=dealer)
        return self

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Cards | str | Iterable[str]],
        *,
        layout: Cards | str | Iterable[str],
        stock: str | Iterable[str],
        current: int,
        rules: Rules | None = None,
        dealer: int = 0,
        piles: Sequence[Cards | str | Iterable[str]] | None = None,
        turned: str | None = None,
        bonus: int | None = None,
    ) -> Deal:
        """A deal in progress (for analysis and tests): see ``DealEngine.from_hands`` for the
        arguments and what they must satisfy.  No opening rule is applied; ``history``
        starts empty and ``opening`` is empty."""
        rules = _check_rules(rules)
        self = cls.__new__(cls)
        engine = DealEngine.from_hands(hands, layout=layout, stock=stock, current=current, rules=rules, dealer=dealer,
                                   piles=piles, turned=turned, bonus=bonus)
        self._setup(engine, rules, None)
        self._opening = Cards()
        self._made("from_position", tuple(hands), layout=layout, stock=stock if isinstance(stock, str) else tuple(stock),
                   current=current, rules=rules, dealer=dealer,
                   piles=None if piles is None else tuple(piles), turned=turned, bonus=bonus)
        return self

    def _setup(self, engine: DealEngine, rules: Rules, seed: int | None) -> None:
        self._rules = rules
        self._engine = engine
        self._history = []
        self._seed = seed
        self._opening = engine.pile(engine.dealer)
        self._first = engine.current
        self._phase = _PHASES[engine.phase]
        self._engine_phases = _ENGINE_PHASES

    # -- state -------------------------------------------------------------------------------
    @property
    def dealer(self) -> int:
        """The seat that dealt."""
        return self._engine.dealer

    @property
    def first_player(self) -> int:
        """The seat that played first (``Rules.order``)."""
        return self._first

    @property
    def phase(self) -> Phase:
        """A :class:`Phase`: ``PLAY`` (a card from the hand), ``TURN`` (the turned card's
        capture), ``OVER``."""
        return _PHASES[self._engine.phase]

    @property
    def layout(self) -> Cards:
        return self._engine.layout

    @property
    def stock_size(self) -> int:
        return self._engine.stock_size

    @property
    def turned(self) -> str | None:
        """The turned stock card whose capture the current player chooses (phase ``"turn"``)."""
        return self._engine.turned

    @property
    def opening(self) -> Cards:
        """The four of a kind the dealer captured from the opening layout (usually none)."""
        return self._opening

    @property
    def redeals(self) -> int:
        """Layouts thrown in before this deal (main_merah)."""
        return self._engine.redeals

    @property
    def bonus_player(self) -> int | None:
        """Who captured a red 5 with the other red 5 (counted in returns only with
        ``red_five_bonus``)."""
        return self._engine.bonus_player

    def hand(self, seat: int) -> Cards:
        """The cards ``seat`` holds now (full information; see :meth:`observation`)."""
        return self._engine.hand(self._seat(seat))

    @property
    def hands(self) -> tuple[Cards, ...]:
        return tuple(self._engine.hand(s) for s in range(self.players))

    def pile(self, seat: int) -> Cards:
        """The cards ``seat`` has captured."""
        return self._engine.pile(self._seat(seat))

    @property
    def piles(self) -> tuple[Cards, ...]:
        return tuple(self._engine.pile(s) for s in range(self.players))

    def scores(self) -> tuple[int, ...]:
        """The points of each player's captured cards so far."""
        return self._engine.scores()

    def returns(self) -> list[float]:
        """Once over, each player's result: score - par (par = total / players), plus the
        red five bonus when on; zeros while the deal is not over."""
        if not self.is_terminal():
            return [0.0] * self.players
        return self._engine.returns()

    def card_play(self) -> DealEngine | None:
        """A copy of the compiled engine of this deal (for bots and playouts; playing on it
        leaves the deal alone), ``None`` once over."""
        return None if self.is_terminal() else self._engine.clone()

    # -- actions -----------------------------------------------------------------------------
    # legal_actions(), apply(), apply_index() and is_terminal() are the compiled base's
    # (chupai.state.compiled.CompiledState): the current player's choices in the current step
    # (every target a separate play); none once over.
    def _apply_checked(self, action: Any) -> None:
        """Make ``action`` (not an item of the current ``legal_actions()``) for the current
        player; ``IllegalActionError`` (state unchanged) if it is not legal now."""
        if not isinstance(action, Play):
            raise foreign_action(action, "chinese_ten", "a chupai.chinese_ten.Play (no passing in Chinese Ten)")
        self._commit(action)  # checks legality, raises IllegalActionError with the state unchanged

    # -- copies, views -----------------------------------------------------------------------
    def clone(self) -> Deal:
        """An independent copy (the engine is copied in C; plays are immutable and shared)."""
        return shallow_clone(self)

    def unseen(self, player: int) -> Cards:
        """The cards ``player`` cannot see: the other hands and the stock."""
        p = self._seat(player)
        faces = [c for s in range(self.players) if s != p for c in self._engine.hand(s)]
        return Cards(faces + self._engine.stock(), decks=1)

    def observation(self, player: int) -> dict[str, Any]:
        """What seat ``player`` knows: their hand and everything public (every capture is
        made face up), nothing hidden.

        Keys: those of every game (:data:`chupai.contract.OBSERVATION_KEYS`) and
        ``dealer``, ``first_player``, ``layout``, ``turned``, ``piles`` (cards captured
        per seat), ``scores``, ``stock_size``, ``unseen`` (the cards in the other hands
        and the stock, as a set, the cut card included), ``opening``, ``bonus_player``,
        ``cut_card`` (with ``cut_card_seen``, for the cutter: the bottom stock card while
        it is in the stock; ``None`` otherwise), ``returns`` (``None`` until over).
        """
        p = self._seat(player)
        return {
            "player": p,
            "players": self.players,
            "dealer": self.dealer,
            "first_player": self._first,
            "phase": self.phase,
            "current_player": self.current_player,
            "hand": self.hand(p),
            "layout": self.layout,
            "turned": self.turned,
            "piles": self.piles,
            "scores": self.scores(),
            "hand_sizes": self.hand_sizes(),
            "stock_size": self.stock_size,
            "unseen": self.unseen(p),
            "opening": self._opening,
            "bonus_player": self.bonus_player,
            "cut_card": self._cut_card(p),
            "history": tuple(self._history),
            "returns": self.returns() if self.is_terminal() else None,
            "over": self.is_terminal(),
        }

    def _determinize(self, player: int, seed: int) -> Deal:
        """The other hands and the stock re-dealt uniformly from the cards ``player``
        cannot see, with their sizes (nothing public constrains them: any card may be
        played whatever else is held); the cutter's seen cut card stays at the bottom
        of the stock (``cut_card_seen``)."""
        world = self._world_card_play(player, seed)
        if world is None:  # over
            return self.clone()
        new = shallow_clone(self)
        new._engine = world  # (the cached legal actions are dropped with the old engine)
        return new

    def _world_card_play(self, player: int, seed: int) -> DealEngine | None:
        engine = self._engine
        # the engine checks the seat and keeps the bottom card only while there is a stock
        # (what _cut_card says, without listing the stock: this is MonteCarloBot's hot path)
        cutter = self._rules.cut_card_seen and player == (engine.dealer + 1) % engine.players
        world = engine.determinize(player, seed, cutter)
        return None if self.is_terminal() else world

    def _cut_card(self, player: int) -> str | None:
        """The bottom stock card if ``player`` is the cutter who saw it (and it is still
        in the stock), else None."""
        if player != self._rules.cutter(self.players, self.dealer):
            return None
        stock = self._engine.stock()
        return stock[-1] if stock else None

    def _seat(self, player: Any) -> int:
        return check_seat(player, self._engine.players)

    def __str__(self) -> str:
        r = self._rules
        bonus = ", red five bonus" if r.red_five_bonus else ""
        lines = [f"Chinese Ten deal, {self.players} players ({r.variant}{bonus}), dealer {self.dealer}, phase {self.phase}"]
        if self._opening:
            lines.append(f"  opening: the dealer took {self._opening}")
        cur = self.current_player
        scores = self.scores()
        for s in range(self.players):
            mark = ">" if s == cur else " "
            lines.append(f" {mark}seat {s} [{len(self.hand(s)):2d}]: {self.hand(s)}  | "
                         f"captured {scores[s]} pts: {self.pile(s)}")
        lines.append(f"  layout: {self.layout}; stock: {self.stock_size} cards")
        if self.phase == "over":
            lines.append(f"  over: returns {self.returns()}")
        elif self.phase == "turn":
            lines.append(f"  seat {cur} turned {self.turned}: choose its capture")
        else:
            lines.append(f"  seat {cur} to play")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<chinese_ten.Deal {self.players} players phase {self.phase} sizes {self.hand_sizes()}>"
