"""Chinese Ten rule options (``docs/rules/chinese_ten.md``): variants, deal sizes, scoring.

The card points of a deal depend on the variant and the number of players; every
total is the sum of the 52 card points and par is ``total / players`` (the rules page's
"par" of 105 / 80 / 70 for pagat, 60 for taiwanese, 110 / 55 for barraco, and the
"score - total / n" of gob_dum_gob_dang and main_merah).

>>> Rules().total(4), Rules().par(4)
(280, 70.0)
>>> Rules.barraco().red_five_bonus, Rules.barraco().par(2)
(True, 110.0)
>>> Rules.main_merah().deal_sizes(3)
(7, 10, 21)
>>> Rules(variant="poker")
Traceback (most recent call last):
...
ValueError: unknown variant 'poker'; expected one of ['barraco', 'gob_dum_gob_dang', 'main_merah', 'pagat', 'taiwanese']
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from chupai.core.records import BITS_PER_RANK, NUM_RANKS, NUM_SUITS, RANKS, SUITS
from chupai.core.validate import check_bool, check_choice, check_int, check_optional_int, players_error, set_flags
from chupai.chinese_ten._entry import VARIANTS
from chupai.chinese_ten._movegen import FLAG_FORCED_CAPTURE, FLAG_REDEAL, FLAG_REDEAL_CROWDED, FLAG_RED_FIVE_BONUS

__all__ = ["Rules", "VARIANTS", "ORDERS", "DECK_SIZE"]

#: ``after_dealer``: the player after the dealer starts; ``dealer_first``: the dealer does
ORDERS = ("after_dealer", "dealer_first")
DECK_SIZE = NUM_RANKS * NUM_SUITS

# the players each variant is played by
_PLAYERS = {
    "pagat": (2, 3, 4),
    "taiwanese": (4,),
    "barraco": (2, 4),
    "gob_dum_gob_dang": (2, 3, 4),
    "main_merah": (2, 3),
}
# (cards per player, layout, stock) where they differ from 24 / n, 4, 24
_MAIN_MERAH_SIZES = {2: (10, 12, 20), 3: (7, 10, 21)}
# the pagat deal: 24 / n cards per player, 4 face up, 24 in the stock
_DEALT = 24
_LAYOUT = 4


#: what each other player pays the red-five capturer (``red_five_bonus``)
RED_FIVE_BONUS = 10
_RED = (SUITS.index("H"), SUITS.index("D"))
_ACE = RANKS.index("A")
_NINE = RANKS.index("9")
_TEN = RANKS.index("T")
_SPADE = SUITS.index("S")
_CLUB = SUITS.index("C")


def _pip(rank: int) -> int:
    """Face value of a rank index for scoring: 2..9 their pips, T..K 10, A 1."""
    if rank == _ACE:
        return 1
    return rank + 2 if rank < _TEN else 10


@dataclass(frozen=True)
class Rules:
    """Every option of ``docs/rules/chinese_ten.md``, validated; ``Rules()`` is the pagat game.

    Attributes:
        variant: one of :data:`VARIANTS` (scoring, players, deal sizes, redeals).
        red_five_bonus: a player who captures a red 5 with the other red 5 receives
            10 points from each other player; ``None`` means the variant's default
            (on for ``taiwanese`` and ``barraco``, off otherwise) and is resolved on
            construction.
        forced_capture: a card that can capture must (``False``: it may also be left
            on the layout); applies to the played and to the turned card.
        order: who starts a deal, one of :data:`ORDERS`; ``None`` means the variant's
            default (``dealer_first`` for ``taiwanese`` and ``main_merah``), resolved on
            construction.
        match_deals: deals in a ``Match``; ``None``: one per player.
        cut_card_seen: the cutter, the player after the dealer in seat order (the
            dealer's right-hand neighbour: seats follow the anticlockwise play), saw
            the cut card, which is the bottom stock card: it is in their observation
            (``cut_card``) and their determinizations keep it there; ``None`` means the
            variant's default (on for ``taiwanese``, off otherwise), resolved on
            construction.
        redeal_crowded_groups: ``main_merah`` also redeals an opening layout with five
            or more cards of one capture group (the source: "players may redeal in
            these cases too"); False: only three or four of K/Q/J/T/5 are redealt.
            No effect in the other variants.

    Resolved defaults stay as they are under :meth:`replace`.
    """

    variant: str = "pagat"
    red_five_bonus: bool | None = None
    forced_capture: bool = True
    order: str | None = None
    match_deals: int | None = None
    cut_card_seen: bool | None = None
    redeal_crowded_groups: bool = True

    def __post_init__(self) -> None:
        check_choice(self.variant, "variant", VARIANTS)
        for name in ("red_five_bonus", "cut_card_seen", "order"):
            if getattr(self, name) is None:
                object.__setattr__(self, name, self._variant_default(name))
        for name in ("red_five_bonus", "forced_capture", "cut_card_seen", "redeal_crowded_groups"):
            object.__setattr__(self, name, check_bool(getattr(self, name), name))
        check_choice(self.order, "order", ORDERS)
        object.__setattr__(self, "match_deals", check_optional_int(self.match_deals, "match_deals", 1))
        set_flags(self, {
            FLAG_FORCED_CAPTURE: self.forced_capture,
            FLAG_RED_FIVE_BONUS: self.red_five_bonus,
            FLAG_REDEAL: self.variant == "main_merah",
            FLAG_REDEAL_CROWDED: self.variant == "main_merah" and self.redeal_crowded_groups,
        })

    def _variant_default(self, name: str) -> Any:
        """The value an option left ``None`` takes in this variant."""
        if name == "red_five_bonus":
            return self.variant in ("taiwanese", "barraco")
        if name == "cut_card_seen":
            return self.variant == "taiwanese"
        return "dealer_first" if self.variant in ("taiwanese", "main_merah") else "after_dealer"

    # -- presets ------------------------------------------------------------------------
    @classmethod
    def pagat(cls, **overrides: Any) -> Rules:
        """The pagat.com rules (the default)."""
        return cls(**overrides)

    @classmethod
    def taiwanese(cls, **overrides: Any) -> Rules:
        """4 players, the dealer starts, AS 0 and AC 30 (total 240, par 60), the red five
        bonus, the cut card seen by the cutter."""
        return cls(**{"variant": "taiwanese", **overrides})

    @classmethod
    def barraco(cls, **overrides: Any) -> Rules:
        """2 or 4 players, red aces 10, AC 30 (total 220), with the red five bonus."""
        return cls(**{"variant": "barraco", **overrides})

    @classmethod
    def gob_dum_gob_dang(cls, **overrides: Any) -> Rules:
        """The Thai "red frog black frog": black cards score, AS 50 (total 218)."""
        return cls(**{"variant": "gob_dum_gob_dang", **overrides})

    @classmethod
    def main_merah(cls, **overrides: Any) -> Rules:
        """2 or 3 players with a large layout, redeals, the dealer (later the worst scorer) first."""
        return cls(**{"variant": "main_merah", **overrides})

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        return replace(self, **changes)

    # -- what the options mean for n players -------------------------------------------------
    def check_players(self, players: Any) -> int:
        """``players`` if this variant is played by that many, else ``ValueError``
        (``TypeError`` for a non-int)."""
        allowed = _PLAYERS[self.variant]
        n = check_int(players, "players")
        if n not in allowed:
            raise players_error(f"the {self.variant} variant", allowed, n)
        return n

    def deal_sizes(self, players: int) -> tuple[int, int, int]:
        """(cards per player, layout cards, stock cards) for ``players`` players."""
        n = self.check_players(players)
        if self.variant == "main_merah":
            return _MAIN_MERAH_SIZES[n]
        return (_DEALT // n, _LAYOUT, DECK_SIZE - _DEALT - _LAYOUT)

    def points(self, players: int) -> tuple[int, ...]:
        """The points of each card face 0..51 (``rank * 4 + suit``) for ``players`` players."""
        n = self.check_players(players)
        out = []
        for face in range(DECK_SIZE):
            rank, suit = divmod(face, BITS_PER_RANK)
            out.append(self._card_points(rank, suit, n))
        return tuple(out)

    def _card_points(self, rank: int, suit: int, n: int) -> int:
        v = self.variant
        red = suit in _RED
        if v == "gob_dum_gob_dang":
            if red:
                return 0
            if rank == _ACE:
                return 50 if suit == _SPADE else 0
            return _pip(rank)
        if red:
            if rank == _ACE:
                return 10 if v == "barraco" else 20
            return 10 if rank >= _NINE else _pip(rank)
        if rank != _ACE or v == "main_merah":
            return 0
        if v == "pagat":
            if suit == _SPADE:
                return 30 if n >= 3 else 0
            return 40 if n == 4 else 0
        # taiwanese and barraco: AC 30, AS 0
        return 30 if suit == _CLUB else 0

    def total(self, players: int) -> int:
        """The points of the whole deck."""
        return sum(self.points(players))

    def par(self, players: int) -> float:
        """Each player's result is ``score - par`` (plus red five bonuses)."""
        return self.total(players) / players

    def cutter(self, players: int, dealer: int) -> int | None:
        """The seat that cut and saw the bottom stock card (``cut_card_seen``), or None.

        >>> Rules.taiwanese().cutter(4, 3), Rules().cutter(4, 3)
        (0, None)
        """
        return (dealer + 1) % self.check_players(players) if self.cut_card_seen else None

    def deals_in_match(self, players: int) -> int:
        """The number of deals in a ``Match`` of ``players`` players."""
        return self.check_players(players) if self.match_deals is None else self.match_deals

    def __repr__(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"Rules({args})"


PAGAT = Rules()
