"""A player's record across the server's games (gmserver.rules.record derives it): the stored
facts gathered for one address, its main address and fallback alike. Read only."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, Player, PlayerHistory
from gmserver.db.session import transaction
from gmserver.rules.game_end import solo_winner
from gmserver.rules.record import Ending, PlayerRecord, Seat, Turn, player_record
from gmserver.rules.ruleset import Ruleset
from gmserver.services.base.context import Services
from gmserver.services.features.nmr import hopeless
from gmserver.services.game.ordersets import counted_sets

RESIGN_ACTION = "resign"  # the gm_actions row a player's RESIGN leaves


def record_of(session: Session, services: Services, address: str) -> PlayerRecord:
    """The record of `address` from what is stored now."""
    address = address.strip().lower()
    current, former = queries.players.seats_of_address(session, address)
    games: dict[int, Game] = {}
    for row in (*current, *former):
        games.setdefault(row.game_id, row.game if isinstance(row, Player) else session.get(Game, row.game_id))
    seats = [*(_seat(games[row.game_id], row) for row in current),
             *(_former_seat(session, games[row.game_id], row) for row in former)]
    rulesets = {game.name: queries.games.ruleset_of(game) for game in games.values()}
    turns = [turn for game in games.values() for turn in _turns(session, services, game, rulesets[game.name])]
    endings = [ending for game in games.values() if (ending := _ending(session, game, rulesets[game.name]))]
    return player_record(address, seats, turns, endings, rulesets)


def player_record_of(services: Services, address: str) -> PlayerRecord:
    """`gmserver player show ADDR`: the record in its own transaction."""
    with transaction(services.sessions) as session:
        return record_of(session, services, address)


def _came(joined_at: datetime | None) -> str:
    """A player of the game's start has no joined_at; one who came later (a replacement, or the
    first player of a power the game began without) has."""
    return "start" if joined_at is None else "takeover"


def _seat(game: Game, player: Player) -> Seat:
    return Seat(game.name, player.power, player.address.lower(), (player.fallback_address or "").lower() or None,
                player.joined_at, None, _came(player.joined_at), None)


def _former_seat(session: Session, game: Game, row: PlayerHistory) -> Seat:
    resigned = any(action.action == RESIGN_ACTION and action.arguments.get("power") == row.power
                   and action.at == row.left_at for action in queries.gm_actions.actions_of(session, game.id))
    return Seat(game.name, row.power, row.address.lower(), (row.fallback_address or "").lower() or None,
                row.joined_at, row.left_at, _came(row.joined_at), "resigned" if resigned else "replaced")


def _turns(session: Session, services: Services, game: Game, ruleset: Ruleset) -> list[Turn]:
    """The game's turns as their current adjudication left them (a rolled-back turn is not one
    until it is adjudicated again; the sets counted are those on file now, released ones too)."""
    turns = []
    for record in queries.phases.adjudicated_records(session, game.id):
        assert record.adjudicated_at is not None
        position = engine.position_from_state(record.state)
        ordered = set(counted_sets(session, game.id, record.phase, ruleset))
        turns.append(Turn(game.name, record.phase, position.phase_type, record.adjudicated_at,
                          frozenset(position.powers_to_order()), frozenset(ordered), hopeless(position, services)))
    return turns


def _ending(session: Session, game: Game, ruleset: Ruleset) -> Ending | None:
    if game.status != "finished":
        return None
    last = queries.phases.current_record(session, game)
    solo = solo_winner(engine.position_from_state(last.state).centers, ruleset)
    draws = queries.votes.passed_draws(session, game.id)
    return Ending(game.name, solo, frozenset(draws[-1].members.split()) if draws and solo is None else frozenset())
