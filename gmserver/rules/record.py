"""A player's record across the games of this server, derived from stored facts only (pure): the
seats they held (a power of a game, from when to when, how they came and went), the turns each
power owed and whether a set was on file, and how each game ended. Nothing is counted twice and
nothing is kept apart from the facts: a rollback reopens a turn and it stops counting until it is
adjudicated again; a late set the GM releases into a turn makes it a turn ordered.

Civil disorder is the house rules' own count (rules.nmr.after_turn, replayed over the seat's
turns in order: `nmr_limit_to_cd`, 000 VII(6), 002 ORDERS 0), so the record says what the game
said at each deadline.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from gmserver.rules import nmr
from gmserver.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Seat:
    """One player's hold on one power of one game."""

    game: str
    power: str
    address: str
    fallback: str | None
    joined_at: datetime | None  # None: from the game's start
    left_at: datetime | None  # None: still plays it
    came: str  # "start" | "takeover" (a replacement, or a power given its first player later)
    went: str | None  # None (still there, or the game ended) | "replaced" | "resigned"

    def holds_at(self, moment: datetime) -> bool:
        return ((self.joined_at is None or self.joined_at <= moment)
                and (self.left_at is None or moment < self.left_at))


@dataclass(frozen=True)
class Turn:
    """A turn of a game as its current adjudication left it: who owed orders and who had a set."""

    game: str
    phase: str
    phase_type: str  # "M" | "R" | "A"
    adjudicated_at: datetime
    owing: frozenset[str]
    ordered: frozenset[str]
    hopeless: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Ending:
    game: str
    solo: str | None  # the winner's power
    draw: frozenset[str] = frozenset()  # the powers of a passed draw


@dataclass(frozen=True)
class PlayerRecord:
    address: str
    games: int = 0
    turns_on_time: int = 0
    missed: int = 0
    civil_disorders: int = 0
    resignations: int = 0
    replaced: int = 0
    takeovers: int = 0
    solos: int = 0
    draws: int = 0

    @property
    def reliability(self) -> float | None:
        """Turns ordered on time among the turns owed (None before any): what a game's
        `--min-reliability` asks of those who join."""
        owed = self.turns_on_time + self.missed
        return self.turns_on_time / owed if owed else None


def is_theirs(seat: Seat, address: str) -> bool:
    """Their seat: played from the address, or with it as the fallback."""
    return address in (seat.address, seat.fallback)


def player_record(address: str, seats: Iterable[Seat], turns: Iterable[Turn], endings: Iterable[Ending],
                  rulesets: Mapping[str, Ruleset]) -> PlayerRecord:
    """The record of `address` (lower case) over every seat it held, as its main or fallback address."""
    address = address.strip().lower()
    mine = [seat for seat in seats if is_theirs(seat, address)]
    by_game: dict[str, list[Turn]] = {}
    for turn in sorted(turns, key=lambda t: t.adjudicated_at):
        by_game.setdefault(turn.game, []).append(turn)
    ended = {ending.game: ending for ending in endings}
    on_time = missed = disorders = 0
    for seat in mine:
        ruleset = rulesets[seat.game]
        state = nmr.NmrState(0, 0, False)
        in_disorder = False
        for turn in by_game.get(seat.game, ()):
            if not seat.holds_at(turn.adjudicated_at):
                continue
            verdict = nmr.missed_turn(owes=seat.power in turn.owing, ordered=seat.power in turn.ordered,
                                      phase_type=turn.phase_type, hopeless=seat.power in turn.hopeless,
                                      ruleset=ruleset)
            on_time += verdict is False
            missed += verdict is True
            step = nmr.after_turn(state, verdict, ruleset)
            state = step.state
            if state.civil_disorder and not in_disorder:
                disorders += 1  # one civil disorder until the player is out of it
            in_disorder = state.civil_disorder
    games = {seat.game for seat in mine}
    final = [seat for seat in mine if seat.went is None]
    return PlayerRecord(
        address=address, games=len(games), turns_on_time=on_time, missed=missed, civil_disorders=disorders,
        resignations=sum(seat.went == "resigned" for seat in mine),
        replaced=sum(seat.went == "replaced" for seat in mine),
        takeovers=sum(seat.came == "takeover" for seat in mine),
        solos=sum(1 for seat in final if (e := ended.get(seat.game)) is not None and e.solo == seat.power),
        draws=sum(1 for seat in final if (e := ended.get(seat.game)) is not None and seat.power in e.draw),
    )


def record_lines(record: PlayerRecord) -> Sequence[str]:
    """The record in words, one fact a line (for the GM's `player show` and the player's RECORD)."""
    share = record.reliability
    return (
        f"games played: {record.games}",
        f"turns ordered on time: {record.turns_on_time}",
        f"turns missed: {record.missed}" + (f" ({share:.0%} on time)" if share is not None else ""),
        f"civil disorders: {record.civil_disorders}",
        f"resignations: {record.resignations}",
        f"replaced by the GM: {record.replaced}",
        f"powers taken over: {record.takeovers}",
        f"solo victories: {record.solos}",
        f"draws: {record.draws}",
    )
