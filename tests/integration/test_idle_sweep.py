"""The sweep among many games: it reads from the index the games whose reminder (the profile's
`reminders`) or Spring 1901 checkpoint (000 II(1)) time has come, and no other; each duty still
happens at the moment it did when every game was visited, and any change of a game's deadline,
phase or pause makes it work the game's times out again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import MetaData, Table, create_engine, select

from gmserver.db import queries
from gmserver.db.migrate import upgrade
from gmserver.db.models import LOOK_NOW, TIMING_COLUMNS, Game, OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.commands import gm_controls
from gmserver.services.features import nmr
from gmserver.services.turn import turns
from tests.support.world import new_game, player_address, services_for

GAMES = 200
ALL = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def many_games(services, clock, due: int, *, ruleset: str = "standard") -> tuple[list[int], list[int]]:
    """GAMES games, the first `due` of them with a 48-hour turn and the others with 96 hours: at
    24 hours the first ones' reminders (24 hours before the deadline) and Spring 1901 checkpoint
    (halfway) are due, the others' not before 48 hours (checkpoint) and 72 (reminder)."""
    ids = [new_game(services, clock(), name=f"g{n}", ruleset=ruleset, movement_hours=48 if n < due else 96)
           for n in range(GAMES)]
    return ids[:due], ids[due:]


def reminded_games(services) -> dict[int, set[str]]:
    with transaction(services.sessions) as session:
        rows = session.execute(select(OutboxMessage.game_id, OutboxMessage.recipient)
                               .where(OutboxMessage.kind == "reminder")).all()
    games: dict[int, set[str]] = {}
    for game_id, recipient in rows:
        games.setdefault(game_id, set()).add(recipient)
    return games


def looked_at(services, clock) -> tuple[list[int], list[int]]:
    with transaction(services.sessions) as session:
        return (queries.games.reminders_to_look_at(session, clock()),
                queries.games.checks_to_look_at(session, clock()))


def test_among_200_games_the_3_due_get_their_reminder_at_their_time_and_the_others_are_not_read(
        database_url, clock) -> None:
    """The profile's reminders: the three games whose reminder time has come get it at that time,
    to each of their seven players; the sweep reads those three only, and before that none."""
    services = services_for(database_url)
    due, idle = many_games(services, clock, 3)
    assert turns.queue_reminders(services, clock()) == 0  # the first sweep works out every game's time
    assert looked_at(services, clock)[0] == []  # an idle sweep now reads no game at all
    clock.advance(hours=24, seconds=-1)
    assert turns.queue_reminders(services, clock()) == 0 and looked_at(services, clock)[0] == []
    clock.advance(seconds=1)  # the moment the reminders fall due (deadline - 24 h)
    assert looked_at(services, clock)[0] == due
    assert turns.queue_reminders(services, clock()) == 3 * 7
    assert reminded_games(services) == {g: {player_address(p) for p in ALL} for g in due}
    assert looked_at(services, clock)[0] == []  # each has no other reminder in this phase
    clock.advance(hours=48)  # the others' time: 24 hours before their deadline at 96
    assert looked_at(services, clock)[0] == idle
    assert turns.queue_reminders(services, clock()) == len(idle) * 7


def test_among_200_games_the_3_at_their_spring_1901_checkpoint_are_checked_then_000_II_1(database_url, clock) -> None:
    """000 II(1) s.1: halfway to the Spring 1901 deadline the silent powers are reminded; among
    200 games the three at their checkpoint are checked at that moment, and only they are read."""
    services = services_for(database_url)
    due, idle = many_games(services, clock, 3, ruleset="mhr")
    assert nmr.check_preliminary_orders(services, clock()) == 0
    assert looked_at(services, clock)[1] == []
    clock.advance(hours=24, seconds=-1)
    assert nmr.check_preliminary_orders(services, clock()) == 0 and looked_at(services, clock)[1] == []
    clock.advance(seconds=1)
    assert looked_at(services, clock)[1] == due
    assert nmr.check_preliminary_orders(services, clock()) == 3 * (7 + 1)  # seven reminders and the GM's notice
    assert set(reminded_games(services)) == set(due)
    assert looked_at(services, clock)[1] == []
    assert nmr.check_preliminary_orders(services, clock()) == 0


def test_a_deadline_brought_forward_brings_the_reminder_with_it(database_url, clock) -> None:
    """The profile's reminders: the GM moves the deadline from 96 to 30 hours: the reminder,
    24 hours before it, goes at 6 hours, not at 72."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), movement_hours=96)
    assert turns.queue_reminders(services, clock()) == 0
    with transaction(services.sessions) as session:
        gm_controls.set_deadline(session, services, session.get(Game, game_id), clock() + timedelta(hours=30),
                                 by="cli", now=clock())
    clock.advance(hours=6)
    assert turns.queue_reminders(services, clock()) == 7


def test_a_paused_game_is_not_read_and_resumed_gets_its_reminders(database_url, clock) -> None:
    """A paused game gets no reminders (the GM's pause), and is not even read; resumed, its
    reminders come again."""
    services = services_for(database_url)
    game_id = new_game(services, clock())
    with transaction(services.sessions) as session:
        gm_controls.pause(session, services, session.get(Game, game_id), by="cli", now=clock())
    clock.advance(hours=25)
    assert looked_at(services, clock) == ([], [])
    assert turns.queue_reminders(services, clock()) == 0
    with transaction(services.sessions) as session:
        gm_controls.resume(session, services, session.get(Game, game_id), by="cli", now=clock())
    assert turns.queue_reminders(services, clock()) == 7


def test_the_next_phase_gets_its_own_reminders_after_the_adjudication(database_url, clock) -> None:
    """The profile's reminders: once a phase is adjudicated the new phase's reminders are due at
    their own time (the phase change sets the game to be worked out again)."""
    services = services_for(database_url)
    game_id = new_game(services, clock())
    clock.advance(hours=24)
    assert turns.queue_reminders(services, clock()) == 7
    clock.advance(hours=24)
    [done] = turns.adjudicate_due(services, clock())
    assert done.next_phase == "F1901M"
    assert turns.queue_reminders(services, clock()) == 0
    clock.advance(hours=24)
    assert turns.queue_reminders(services, clock()) == 7
    with transaction(services.sessions) as session:
        assert session.get(Game, game_id).next_reminder_at is None  # none left in F1901M


@pytest.mark.parametrize("column", TIMING_COLUMNS)
def test_every_change_of_what_the_times_follow_from_has_them_worked_out_again(database_url, clock, column) -> None:
    """Whatever path changes a game's status, phase, deadline, pause, reminder offset or ruleset,
    its times are worked out again at the next sweep (a finished or paused game: never)."""
    services = services_for(database_url)
    game_id = new_game(services, clock())
    turns.queue_reminders(services, clock())
    nmr.check_preliminary_orders(services, clock())
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        assert game.next_reminder_at is not None and game.next_reminder_at > clock() and game.next_check_at is None
        value = {"status": "finished", "phase": "F1901M", "deadline": clock() + timedelta(hours=5), "paused": True,
                 "reminder_seconds": 3600, "ruleset": dict(game.ruleset)}[column]
        setattr(game, column, value)
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        expected = None if column in ("status", "paused") else LOOK_NOW
        assert (game.next_reminder_at, game.next_check_at) == (expected, expected)


@pytest.mark.parametrize("column", TIMING_COLUMNS)
def test_a_change_written_at_once_has_the_times_worked_out_again_too(database_url, clock, column) -> None:
    """The deadline writes the game's new phase and deadline with one UPDATE of its own
    (`queries.games.advance`), past the attribute events: the times are worked out again all the same."""
    services = services_for(database_url)
    game_id = new_game(services, clock())
    turns.queue_reminders(services, clock())
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        assert game.next_reminder_at is not None and game.next_reminder_at > clock()
        value = {"status": "finished", "phase": "F1901M", "deadline": clock() + timedelta(hours=5), "paused": True,
                 "reminder_seconds": 3600, "ruleset": {**game.ruleset, "changed": True}}[column]
        queries.games.advance(session, game, {column: value})
        assert not session.dirty  # written, not left for the flush
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        expected = None if column in ("status", "paused") else LOOK_NOW
        assert (getattr(game, column), game.next_reminder_at, game.next_check_at) == (value, expected, expected)


def test_the_upgrade_has_every_active_game_looked_at_by_the_first_sweep(empty_database_url, clock) -> None:
    """Games from before the stored times: an active one is looked at by the first sweep after
    the upgrade (its creation time is in the past), a paused or finished one never."""
    upgrade(empty_database_url, "0021")
    engine = create_engine(empty_database_url)
    games = Table("games", MetaData(), autoload_with=engine)
    created = datetime(2026, 11, 1, 12, 0)
    with engine.begin() as connection:
        for name, status, paused in (("running", "active", False), ("paused", "active", True),
                                     ("over", "finished", False)):
            connection.execute(games.insert().values(
                name=name, ruleset_name="standard", ruleset={}, status=status, phase="S1901M", timezone="UTC",
                movement_seconds=172800, retreat_seconds=86400, adjustment_seconds=86400, reminder_seconds=86400,
                created_at=created, paused=paused))
    engine.dispose()
    upgrade(empty_database_url)
    services = services_for(empty_database_url)
    with transaction(services.sessions) as session:
        times = {g.name: (g.next_reminder_at, g.next_check_at) for g in session.scalars(select(Game))}
    at = created.replace(tzinfo=UTC)
    assert times == {"running": (at, at), "paused": (None, None), "over": (None, None)}
    with transaction(services.sessions) as session:
        assert queries.games.reminders_to_look_at(session, clock()) == [
            session.scalar(select(Game.id).where(Game.name == "running"))]
