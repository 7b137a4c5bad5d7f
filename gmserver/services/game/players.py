"""The GM's hands on a game's players: replace a player (keeping the old one's record), put a
power in or out of civil disorder, and the history of who played each power when.

Each function works in the caller's transaction; the GM commands (`gmserver game replace`,
mail from the GM) call them and send whatever mail the change calls for.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db.models import Game, Player, PlayerHistory
from gmserver.db.queries import games as game_queries
from gmserver.db.queries import players as player_queries
from gmserver.rules import nmr
from gmserver.rules.envelope import is_plain_address
from gmserver.services.game import schedule
from gmserver.services.game.games import POWERS, GameError, new_secret

log = logging.getLogger(__name__)


def _player(game: Game, power: str) -> Player:
    player = next((p for p in game.players if p.power == power.upper()), None)
    if player is None:
        raise GameError(f"{game.name} has no player for {power!r} (players: "
                        f"{', '.join(p.power for p in game.players)})")
    return player


def replace_player(session: Session, game: Game, power: str, address: str, fallback: str | None,
                   now: datetime) -> Player:
    """A new player takes over `power`: the old player's record (address, when they joined and
    left, missed turns, civil disorder) goes to player_history; the new one starts with no
    missed turns, out of civil disorder, with a new secret (reply address and password) and no
    abbreviations of their own. If the game waits for this power (003 [14]) and no other, it
    gets a new deadline, one turn length from now. A power created without a player (`game
    create` names it) is given its first one: there is no record to keep."""
    seated = next((p for p in game.players if p.power == power.strip().upper()), None)
    if seated is None and power.strip().upper() not in POWERS:
        raise GameError(f"{power!r} is not a power of the game ({', '.join(p.title() for p in POWERS)})")
    address, fallback = address.strip().lower(), (fallback or "").strip().lower() or None
    problems = [f"{a!r} is not a plain email address (like anna@example.org)"
                for a in (address, fallback) if a is not None and not is_plain_address(a)]
    if problems:
        raise GameError("; ".join(problems))
    if seated is None:
        player = Player(power=power.strip().upper(), address=address, fallback_address=fallback, secret=new_secret(),
                        abbreviations={}, joined_at=now)
        game.players.append(player)
        log.info("%s: %s, which had no player, is now played by %s", game.name, player.power, address)
        _end_the_wait_for(game, player.power, now)
        return player
    player = seated
    if player.resigned_at is None:  # a player who resigned has their record kept already (RESIGN)
        session.add(PlayerHistory(
            game_id=game.id, power=player.power, address=player.address, fallback_address=player.fallback_address,
            joined_at=player.joined_at, left_at=now, left_in_phase=game.phase, missed_turns=player.missed_turns,
            missed_in_a_row=player.missed_in_a_row, civil_disorder=player.civil_disorder,
            cd_recorded=player.cd_recorded))
    log.info("%s: %s now played by %s instead of %s", game.name, player.power, address, player.address)
    player.resigned_at = None
    player.address, player.fallback_address, player.secret = address, fallback, new_secret()
    player.abbreviations = {}
    player.missed_in_a_row = player.missed_turns = 0
    # 003 [13] "permanent until replaced", 000 VII(6): civil disorder ends with a new player
    player.civil_disorder = player.cd_recorded = False
    player.joined_at = now
    player.contact_due_since = player.missed_phase = None  # 001 V(1) concerned the player who left
    player.cd_search_until = None  # 001 V(3)(ii): the search is over, a replacement was found
    player.perpetual = None  # 000 II(4): the GM kept the old player's set, not the new one's
    player.clarifications = True  # 000 III(1) (a): the GM judged the old player's sets, not the new one's
    _end_the_wait_for(game, player.power, now)
    return player


def _end_the_wait_for(game: Game, power: str, now: datetime) -> None:
    """003 [14]: a game waiting for new players in Spring 1901 gets a new deadline when the last
    silent power has one."""
    if game.waiting_for and power in game.waiting_for:
        game.waiting_for = [p for p in game.waiting_for if p != power] or None
        if game.waiting_for is None and game.deadline is None and game.status == "active":
            game.deadline = schedule.fresh_deadline(game, game_queries.ruleset_of(game), now)
            log.info("%s: every silent power of Spring 1901 has a new player; deadline %s", game.name,
                     game.deadline.isoformat() if game.deadline else "none")


def set_civil_disorder(session: Session, game: Game, power: str, on: bool, now: datetime) -> Player:
    """The GM puts a power in civil disorder (its units hold; defaults for its retreats and
    removals) or takes it out. With record_cd_on_player (000 VII(6) ¶2) putting it in marks
    the player's record too."""
    player = _player(game, power)
    player.civil_disorder = on
    if on and game_queries.ruleset_of(game).record_cd_on_player:
        player.cd_recorded = True
    if not on:
        player.missed_in_a_row = 0  # the GM has dealt with the run of missed turns
        player.cd_search_until = None
    log.info("%s: %s %s civil disorder by the GM at %s", game.name, player.power, "in" if on else "out of",
             now.isoformat())
    return player


def search_replacement(session: Session, game: Game, power: str, now: datetime) -> int:
    """001 V(3)(ii): the power is in civil disorder while a replacement is sought for the house
    rules' cd_search_years; the game year in which, with nobody found, it becomes permanent."""
    until = nmr.search_until(game.phase, game_queries.ruleset_of(game))
    if until is None:
        raise GameError(f"the house rules of {game.name} set no period for seeking a replacement: put "
                        f"{power.upper()} in civil disorder (cd ... on) or replace the player")
    player = set_civil_disorder(session, game, power, True, now)
    player.cd_search_until = until
    return until


@dataclass(frozen=True)
class Tenure:
    """Who played a power, from when to when, and their record."""

    power: str
    address: str
    joined_at: datetime | None
    left_at: datetime | None  # None: plays it now
    missed_turns: int
    civil_disorder_recorded: bool


def player_history(session: Session, game: Game) -> list[Tenure]:
    """Every player of the game, past and present, by power, earliest first."""
    rows = [Tenure(h.power, h.address, h.joined_at, h.left_at, h.missed_turns, h.cd_recorded)
            for h in player_queries.former_players(session, game.id)]
    rows += [Tenure(p.power, p.address, p.joined_at, None, p.missed_turns, p.cd_recorded) for p in game.players]
    return sorted(rows, key=lambda t: (t.power, t.left_at is None))  # stable: former players in order
