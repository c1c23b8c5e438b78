"""The one module of the protocol package that uses the Guan Dan state machines.

Everything the server, the records, the replay and the client need from
:class:`chupai.guandan.Match` / :class:`chupai.guandan.Deal` goes through here, so a
change of their API is adapted in this file only:

* :class:`ProtocolGame` runs one game (a :class:`~chupai.guandan.Match` under
  ``Rules.competition()``) as the sequence of protocol messages of
  ``docs/protocol.md``: a generator yielding :class:`Notify` and :class:`Ask` events,
  sent the chosen ``actIndex`` back for every :class:`Ask`;
* :func:`replay_game` loads the deals of a record back into a ``Match``;
* :func:`rebuild_deal` gives a client a ``Deal`` consistent with what it has been told,
  for chupai's bots to choose on.

Decisions the protocol has no message for are taken by the server and written in the
record: the lead after two equal tributes (``ChooseLeader``) goes by seat order, to the
payer who follows the first finisher, as the competition platform does.  Every tribute
payment is asked (``stage: tribute``), also when the payer has a single choice.
"""
from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from chupai.core.records import BITS_PER_RANK, BLACK_JOKER_BIT, NUM_FACES
from chupai.actions import PASS
from chupai.cards import RANKS, Cards, face_name, parse_face
from chupai.guandan import ChooseLeader, Deal, Match, PayTribute, Play, ReturnCard, Rules
from chupai.guandan.play import PASS_PROTOCOL, level_value, parse_protocol_card, protocol_card
from chupai.guandan.rules import parse_rank

__all__ = [
    "SEATS",
    "Ask",
    "GameOutcome",
    "Notify",
    "ProtocolGame",
    "action_key",
    "lowest_return",
    "competition_rules",
    "protocol_cards",
    "rebuild_deal",
    "replay_game",
]

SEATS = 4
#: a game is a draw after this many falls from A back to 2 (``docs/protocol.md``)
DRAW_FALLS = 50
_ALL = (0, 1, 2, 3)
_FULL_DECK = Cards.from_counts([2] * NUM_FACES)


def competition_rules() -> Rules:
    """The rules every protocol table plays (``docs/protocol.md``: the competition preset)."""
    return Rules.competition()


def protocol_cards(cards: Cards) -> list[str]:
    """Cards in the protocol's spelling, in chupai's canonical order."""
    return [protocol_card(f) for f in cards.faces()]


def _cards(tokens: Sequence[str]) -> Cards:
    counts = [0] * NUM_FACES
    for t in tokens:
        counts[parse_protocol_card(t)] += 1
    return Cards.from_counts(counts)


def _chupai_card(token: str) -> str:
    """A protocol card (``'S7'``, ``'HR'``) in chupai's notation (``'7S'``, ``'RJ'``)."""
    return face_name(parse_protocol_card(token))


def action_key(action: Sequence[Any]) -> tuple[str, str, tuple[str, ...]]:
    """An action list ``[type, rank, cards]`` as a comparable key (cards sorted)."""
    kind, rank, cards = action
    return str(kind), str(rank), tuple(sorted(cards)) if isinstance(cards, list) else (str(cards),)


def _protocol_form(action: Any) -> list[Any]:
    if action is PASS:
        return list(PASS_PROTOCOL)
    if isinstance(action, Play):
        return action.to_protocol()
    if isinstance(action, PayTribute):
        return ["tribute", "tribute", [_to_protocol_card(action.card)]]
    if isinstance(action, ReturnCard):
        return ["back", "back", [_to_protocol_card(action.card)]]
    raise TypeError(f"action {action!r} has no protocol form")


def _to_protocol_card(card: str) -> str:
    return protocol_card(parse_face(card))


# --- the events of a game -------------------------------------------------------------------
@dataclass
class Notify:
    """A notification ``message`` for the seats ``to``."""

    to: tuple[int, ...]
    message: dict[str, Any]


@dataclass
class Ask:
    """A request to act: ``message`` for ``seat``; ``actions[i]`` is the state-machine
    action of ``message["actionList"][i]`` (``None`` for a payment already forced)."""

    seat: int
    message: dict[str, Any]
    actions: list[Any]


@dataclass
class Recorded:
    """A finished deal's record line (see :mod:`chupai.guandan.protocol.records`)."""

    line: dict[str, Any]


Event = Notify | Ask | Recorded


@dataclass
class GameOutcome:
    """How a game ended: the winning team (``None``: a draw) and the deals played."""

    winner: int | None
    deals: int
    falls: int = 0


@dataclass
class _Trick:
    """The protocol's view of the current trick."""

    area: list[list[Any] | None] = field(default_factory=lambda: [None] * SEATS)
    cur: tuple[int, list[Any] | None] = (-1, None)
    greater: tuple[int, list[Any] | None] = (-1, None)

    def reset(self) -> None:
        self.area = [None] * SEATS
        self.cur = (-1, None)
        self.greater = (-1, None)


class ProtocolGame:
    """One game of a table as protocol events.

    Args:
        seed: the match seed (one seed, one game for one sequence of answers).
        game: this game's number, 1-based (``gameOver.curTimes``).
        games: the number of games set (``settingTimes``).
        table: the table number (written in the record lines).
        rules: the rules (default and protocol: ``Rules.competition()``).

    :meth:`events` is the generator; :attr:`match` is the state, and the attributes
    ``stage``, ``current`` and :meth:`snapshot` describe it for the table view.
    """

    def __init__(self, seed: int, *, game: int = 1, games: int = 1, table: int = 0,
                 rules: Rules | None = None) -> None:
        self.seed = int(seed)
        self.game = game
        self.games = games
        self.table = table
        self.match = Match(seed=self.seed, rules=rules or competition_rules(), max_deals=None)
        self.falls = 0
        self.stage = "beginning"
        self.current = -1
        self.trick = _Trick()
        #: the deal the events are about (the match moves on to the next one at its end)
        self.deal = self.match.deal
        self._dealt: list[Cards] = []
        self._last: list[Any] = [None] * SEATS  # last play (not pass) of each seat in the deal
        self._actions: list[list[Any]] = []

    def deal_actions(self) -> list[list[Any]]:
        """The decisions of the deal in progress so far (``[seat, stage, action]``, as
        a record's ``actions``)."""
        return [list(a) for a in self._actions]

    # -- messages ----------------------------------------------------------------------------
    def _act(self, deal: Deal, seat: int, stage: str, actions: list[Any], hand: Cards | None = None,
             forms: list[list[Any]] | None = None) -> Ask:
        """The request for ``seat``: ``actions`` (state-machine actions) listed in the
        protocol form (``forms`` if given); ``hand`` instead of the seat's hand now."""
        levels = deal.levels
        action_list = forms if forms is not None else [_protocol_form(a) for a in actions]
        trick = self.trick
        message = {
            "type": "act",
            "stage": stage,
            "handCards": protocol_cards(deal.hand(seat) if hand is None else hand),
            "publicInfo": [{"rest": n, "playArea": trick.area[s]} for s, n in enumerate(self._sizes(deal))],
            "selfRank": levels[seat % 2],
            "oppoRank": levels[1 - seat % 2],
            "curRank": deal.level,
            "curPos": trick.cur[0],
            "curAction": trick.cur[1],
            "greaterPos": trick.greater[0],
            "greaterAction": trick.greater[1],
            "actionList": action_list,
            "indexRange": len(action_list) - 1,
        }
        return Ask(seat, message, actions)

    def _sizes(self, deal: Deal) -> list[int]:
        if self.stage == "tribute":
            return [len(h) for h in self._dealt]
        return list(deal.hand_sizes())

    # -- the game ------------------------------------------------------------------------------
    def events(self) -> Generator[Event, int | None, GameOutcome]:
        """The events of the whole game; send the chosen index after each :class:`Ask`."""
        match = self.match
        while not match.is_terminal():
            yield from self._deal_events(match.deal)
            summary = match.deals[-1]
            for team in (0, 1):
                if summary["levels_before"][team] == "A" and summary["levels_after"][team] == "2":
                    self.falls += 1
            if self.falls >= DRAW_FALLS:
                break
        self.stage = "gameOver"
        self.current = -1
        yield Notify(_ALL, {"type": "notify", "stage": "gameOver", "curTimes": self.game, "settingTimes": self.games})
        return GameOutcome(match.winner, match.deals_played, self.falls)

    def _ask(self, ask: Ask) -> Generator[Event, int | None, int]:
        self.current = ask.seat
        index = yield ask
        if index is None or not 0 <= index < len(ask.message["actionList"]):
            raise ValueError(f"index {index!r} is not in 0..{ask.message['indexRange']}")
        return index

    def _deal_events(self, deal: Deal) -> Generator[Event, int | None, None]:
        match = self.match
        tribute = deal.tribute
        self._dealt = _dealt_hands(deal)
        self._last = [None] * SEATS
        self._actions = []
        self.trick.reset()
        self.stage = "beginning"
        self.current = -1
        self.deal = deal
        levels_before = list(deal.levels)
        for s in _ALL:
            yield Notify((s,), {"type": "notify", "stage": "beginning",
                                "handCards": protocol_cards(self._dealt[s]), "myPos": s})
        anti: list[int] | None = None
        if deal.previous is not None:
            if tribute["resisted"]:
                anti = [p for p in tribute["payers"] if "RJ" in self._dealt[p]]
                yield Notify(_ALL, {"type": "notify", "stage": "anti-tribute", "antiNums": len(anti), "antiPos": anti})
            else:
                yield from self._tribute_events(deal)
        self.stage = "play"
        hands_after = [deal.hand(s) for s in _ALL]
        while not deal.is_terminal():
            actions = list(deal.legal_actions())
            if isinstance(actions[0], ChooseLeader):
                # no protocol message: the payer who follows the first finisher leads
                lead = (deal.previous[0] + 1) % SEATS if deal.previous else actions[0].seat
                choice = next(a for a in actions if a.seat == lead)
                self._actions.append([deal.current_player, "lead", choice.seat])
                match.apply(choice)
                hands_after = [deal.hand(s) for s in _ALL]
                continue
            yield from self._play_event(deal, actions)
        order = _full_order(deal)
        rest = [[s, protocol_cards(deal.hand(s))] for s in _ALL if len(deal.hand(s))]
        self.stage = "episodeOver"
        self.current = -1
        yield Notify(_ALL, {"type": "notify", "stage": "episodeOver", "order": order,
                            "curRank": deal.level, "restCards": rest})
        summary = match.deals[-1]
        t = deal.tribute
        yield Recorded({
            "type": "deal",
            "table": self.table,
            "game": self.game,
            "deal": summary["deal"],
            "matchSeed": self.seed,
            "seed": deal.seed,
            "levels": levels_before,
            "declarers": deal.declarers,
            "level": deal.level,
            "previous": list(deal.previous) if deal.previous is not None else None,
            "hands": [protocol_cards(h) for h in self._dealt],
            "handsAfterTribute": [protocol_cards(h) for h in hands_after],
            "tribute": [[p, r, _to_protocol_card(c)] for p, r, c in t["received"]],
            "back": [[r, p, _to_protocol_card(c)] for r, p, c in t["returned"]],
            "antiTribute": anti,
            "leader": deal.leader,
            "actions": self._actions,
            "order": order,
            "result": deal.result,
            "levelsAfter": list(summary["levels_after"]),
            "restCards": rest,
        })

    def _tribute_events(self, deal: Deal) -> Generator[Event, int | None, None]:
        match = self.match
        self.stage = "tribute"
        for payer in deal.tribute["payers"]:
            forced = [card for p, card in deal.tribute["paid"] if p == payer]
            if forced:
                # paid already by the state machine (a single choice): asked all the same
                form = _protocol_form(PayTribute(forced[0]))
                yield from self._ask(self._act(deal, payer, "tribute", [None], hand=self._dealt[payer], forms=[form]))
                self._actions.append([payer, "tribute", _protocol_form(PayTribute(forced[0]))])
            else:
                actions = list(deal.legal_actions())
                index = yield from self._ask(self._act(deal, payer, "tribute", actions, hand=self._dealt[payer]))
                self._actions.append([payer, "tribute", _protocol_form(actions[index])])
                match.apply(actions[index])
        received = [[p, r, _to_protocol_card(c)] for p, r, c in deal.tribute["received"]]
        yield Notify(_ALL, {"type": "notify", "stage": "tribute", "result": received})
        self.stage = "back"
        while deal.legal_actions() and isinstance(deal.legal_actions()[0], ReturnCard):
            actions = list(deal.legal_actions())
            seat = deal.current_player
            index = yield from self._ask(self._act(deal, seat, "back", actions))
            self._actions.append([seat, "back", _protocol_form(actions[index])])
            match.apply(actions[index])
        returned = [[r, p, _to_protocol_card(c)] for r, p, c in deal.tribute["returned"]]
        yield Notify(_ALL, {"type": "notify", "stage": "back", "result": returned})

    def _play_event(self, deal: Deal, actions: list[Any]) -> Generator[Event, int | None, None]:
        seat = deal.current_player
        if actions[-1] is PASS:  # the protocol lists PASS first
            actions = [PASS] + actions[:-1]
        index = yield from self._ask(self._act(deal, seat, "play", actions))
        action = actions[index]
        form = _protocol_form(action)
        trick = self.trick
        if action is not PASS:
            trick.greater = (seat, form)
        trick.cur = (seat, form)
        trick.area[seat] = form
        if action is not PASS:
            self._last[seat] = form
        self._actions.append([seat, "play", form])
        self.match.apply(action)
        greater = trick.greater
        yield Notify(_ALL, {"type": "notify", "stage": "play", "curPos": seat, "curAction": form,
                            "greaterPos": greater[0], "greaterAction": greater[1]})
        if not deal.is_terminal() and deal.trick[1] < 0:
            trick.reset()

    # -- the table view ----------------------------------------------------------------------
    def snapshot(self, names: Sequence[str], hands: bool = False) -> dict[str, Any]:
        """The table as the web view shows it (JSON-ready): seats, levels, cards left,
        the current trick, the last play of every seat, every hand if ``hands``."""
        match = self.match
        deal = self.deal
        sizes = self._sizes(deal)
        order = [s for s in deal.finishing_order if s >= 0]
        return {
            "table": self.table,
            "game": self.game,
            "games": self.games,
            # the deal's number in its game, from 0 as the record's ``deal`` lines
            "deal": match.deals_played - (1 if deal.is_terminal() else 0),
            "stage": self.stage,
            "levels": list(deal.levels),
            "curRank": deal.level,
            "declarers": deal.declarers,
            "current": self.current,
            "greaterPos": self.trick.greater[0],
            "greaterAction": self.trick.greater[1],
            "winner": match.winner,
            "seats": [{
                "name": names[s],
                "team": s % 2,
                "rest": sizes[s],
                "playArea": self.trick.area[s],
                "lastAction": self._last[s],
                "out": order.index(s) + 1 if s in order else None,
                "hand": protocol_cards(deal.hand(s)) if hands else None,
            } for s in _ALL],
        }


def _dealt_hands(deal: Deal) -> list[Cards]:
    """The hands as dealt: undo the payments (and receipts) already made automatically."""
    t = deal.tribute
    counts = [deal.hand(s).counts() for s in _ALL]
    for payer, card in t["paid"]:
        counts[payer][parse_face(card)] += 1
    for _payer, receiver, card in t["received"]:
        counts[receiver][parse_face(card)] -= 1
    return [Cards.from_counts(c) for c in counts]


def _full_order(deal: Deal) -> list[int]:
    """The finishing order as four seats; after a 1-2 the two seats still holding cards
    follow in turn order from the second finisher."""
    order = [s for s in deal.finishing_order if s >= 0]
    start = order[-1]
    for k in range(1, SEATS):
        s = (start + k) % SEATS
        if s not in order:
            order.append(s)
    return order


# --- records back into a Match -----------------------------------------------------------------
def replay_game(deals: Sequence[dict[str, Any]], rules: Rules | None = None) -> Match:
    """The ``Match`` of one recorded game, every recorded action applied.

    ``deals`` are the game's deal lines in order.  The match is dealt from the record's
    ``matchSeed`` (the dealt hands are checked against the record) or, without a seed,
    from the recorded hands.  ``ValueError`` if the record does not replay: an action
    not legal, hands or a result that differ.
    """
    if not deals:
        raise ValueError("a game record needs at least one deal line")
    seed = deals[0].get("matchSeed")
    rules = rules or competition_rules()
    if seed is None:
        hands = [[_cards(h) for h in d["hands"]] for d in deals]

        def hands_of(i: int) -> Any:
            if i >= len(hands):
                raise ValueError(f"the record has {len(hands)} deals; deal {i} is not in it")
            return (hands[i], int(deals[0]["leader"])) if i == 0 else hands[i]

        match = Match(rules=rules, max_deals=None, hands=hands_of)
    else:
        match = Match(seed=int(seed), rules=rules, max_deals=None)
    for d in deals:
        apply_deal(match, d)
    return match


def apply_deal(match: Match, line: dict[str, Any]) -> None:
    """Apply one recorded deal's actions to ``match`` (its current deal must be that
    deal), checking the dealt hands, the order and the levels after it."""
    deal = match.deal
    n = line.get("deal")
    dealt = [protocol_cards(h) for h in _dealt_hands(deal)]
    if [sorted(h) for h in dealt] != [sorted(h) for h in line["hands"]]:
        raise ValueError(f"deal {n}: the record's hands are not the hands this match deals")
    for seat, stage, action in line["actions"]:
        if deal.is_terminal():
            raise ValueError(f"deal {n}: an action after the end of the deal")
        if stage == "tribute":
            forced = [card for p, card in deal.tribute["paid"] if p == seat]
            if forced:
                if _protocol_form(PayTribute(forced[0])) != action:
                    raise ValueError(f"deal {n}: seat {seat} paid {forced[0]}, not {action!r}")
                continue
            chosen: Any = PayTribute(_chupai_card(action[2][0]))
        elif stage == "back":
            chosen = ReturnCard(_chupai_card(action[2][0]))
        elif stage == "lead":
            chosen = ChooseLeader(int(action))
        elif stage == "play":
            chosen = PASS if list(action) == PASS_PROTOCOL else action
        else:
            raise ValueError(f"deal {n}: unknown stage {stage!r}")
        if deal.current_player != seat:
            raise ValueError(f"deal {n}: seat {seat} acts but seat {deal.current_player} is to decide")
        match.apply(chosen)
    if not deal.is_terminal():
        raise ValueError(f"deal {n}: the record ends before the deal does")
    if _full_order(deal) != list(line["order"]) or list(match.deals[-1]["levels_after"]) != list(line["levelsAfter"]):
        raise ValueError(f"deal {n}: the replayed order or levels differ from the record")


# --- a client's own state ------------------------------------------------------------------------
def rebuild_deal(
    my_pos: int,
    hand_at_play: Sequence[str],
    plays: Sequence[tuple[int, Sequence[Any]]],
    leader: int,
    levels: tuple[str, str],
    level: str,
    known: Sequence[Sequence[str]] = ((), (), (), ()),
    rng: np.random.Generator | None = None,
) -> Deal:
    """A ``Deal`` in the card play that gives ``my_pos`` what the messages told it.

    Args:
        my_pos: the client's seat.
        hand_at_play: its hand when the card play started (after tribute and return).
        plays: every ``(seat, action list)`` of the card play so far, in order.
        leader: the seat that led the first trick.
        levels: the levels of team 0 and team 1; ``level``: the level played.
        known: per seat, protocol cards publicly known to be in that hand at the start
            of the play (tribute and return cards received).
        rng: draws the other hands' unseen cards (uniformly, sizes exact).

    The deal starts from the hands at the start of the play (other hands: the cards
    they played, their known cards, and unseen cards at random) and replays ``plays``;
    its ``determinize`` re-deals the hidden cards as usual.
    """
    g = rng if rng is not None else np.random.default_rng(0)
    start = [[0] * NUM_FACES for _ in _ALL]
    mine = _cards(hand_at_play)
    start[my_pos] = mine.counts()
    pool = _FULL_DECK.counts()
    for f, c in enumerate(start[my_pos]):
        pool[f] -= c
    for seat, action in plays:
        if seat != my_pos and list(action) != PASS_PROTOCOL:
            for t in action[2]:
                start[seat][parse_protocol_card(t)] += 1
                pool[parse_protocol_card(t)] -= 1
    for seat in _ALL:
        if seat == my_pos:
            continue
        played = list(start[seat])
        for t in known[seat]:
            f = parse_protocol_card(t)
            if played[f]:
                played[f] -= 1  # the known card was played: counted already
            elif pool[f]:
                start[seat][f] += 1
                pool[f] -= 1
    unseen = [f for f, c in enumerate(pool) for _ in range(c)]
    g.shuffle(unseen)
    at = 0
    for seat in _ALL:
        if seat == my_pos:
            continue
        need = len(mine) - sum(start[seat])
        if need < 0 or at + need > len(unseen):
            raise ValueError(f"seat {seat} played more cards than a hand holds")
        for f in unseen[at:at + need]:
            start[seat][f] += 1
        at += need
    team = 0 if levels[0] == level else 1
    first = levels[0] == levels[1]
    deal = Deal.from_hands([Cards.from_counts(c) for c in start], leader=leader, levels=levels,
                           declarers=None if first else team, rules=competition_rules())
    if deal.level != RANKS[parse_rank(level, "level")]:
        raise ValueError(f"level {level!r} is neither team's level {levels!r}")
    for seat, action in plays:
        deal.apply(PASS if list(action) == PASS_PROTOCOL else list(action))
    return deal


def lowest_return(action_list: Sequence[Sequence[Any]], level: str) -> int:
    """The index of the lowest card (level order) of a ``back`` action list."""
    lv = parse_rank(level, "level")

    def value(entry: Sequence[Any]) -> int:
        face = parse_protocol_card(entry[2][0])
        return face if face >= BLACK_JOKER_BIT else level_value(face // BITS_PER_RANK, lv)

    return min(range(len(action_list)), key=lambda i: value(action_list[i]))
