"""What the command line, the daemon and the demo see (services/features/views.py) and the shared queries
(gmserver/db/queries), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.db.session import transaction
from gmserver.rules.deadlines import GameTiming
from gmserver.rules.ruleset import Ruleset, load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.base.outbox import queue
from gmserver.services.features import views
from gmserver.services.game import games
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


@pytest.fixture
def services(database_url):
    return services_for(database_url)


def test_game_timings_are_those_of_active_games_with_their_reminders(services, clock) -> None:
    first = new_game(services, clock(), name="first", movement_hours=48, reminder_hours=24)
    quiet = new_game(services, clock(), name="quiet", movement_hours=48, reminder_hours=0)
    over = new_game(services, clock(), name="over")
    with transaction(services.sessions) as session:
        session.get(Game, over).status = "finished"
    deadline = clock() + timedelta(hours=48)
    assert sorted(views.game_timings(services.sessions), key=lambda t: t.game_id) == [
        GameTiming(first, "S1901M", deadline, deadline - timedelta(hours=24)),
        GameTiming(quiet, "S1901M", deadline, None),
    ]
    assert views.game_timings(services.sessions, [quiet]) == [GameTiming(quiet, "S1901M", deadline, None)]
    assert views.game_timings(services.sessions, [over]) == []


def test_game_progress_follows_orders_and_adjudication(services, clock) -> None:
    game_id = new_game(services, clock())
    progress = views.game_progress(services.sessions, game_id)
    assert (progress.name, progress.status, progress.phase, progress.adjudicated, progress.ordered) == (
        "lepanto", "active", "S1901M", (), frozenset())
    assert progress.state["name"] == "S1901M"
    subject = format_subject(template="standard", game_name="lepanto", power="FRANCE", phase="S1901M",
                             purpose="orders")
    intake.store(services.sessions, order_mail(player_address("FRANCE"), subject, "A PAR - BUR"), source="smtp",
                 now=clock())
    intake.process_pending(services, clock())
    assert views.game_progress(services.sessions, game_id).ordered == frozenset({"FRANCE"})
    turns.adjudicate(services, game_id, clock.advance(hours=49))
    progress = views.game_progress(services.sessions, game_id)
    assert (progress.phase, progress.adjudicated, progress.ordered) == ("F1901M", ("S1901M",), frozenset())
    assert "A BUR" in progress.state["units"]["FRANCE"]
    assert views.game_progress(services.sessions, game_id + 100) is None


def test_games_named_like_takes_the_prefix_literally(services, clock) -> None:
    ids = [new_game(services, clock(), name=name) for name in ("demo", "demo2", "dem_o", "a-demo")]
    assert [(g.id, g.name) for g in views.games_named_like(services.sessions, "demo")] == [
        (ids[0], "demo"), (ids[1], "demo2")]
    assert [g.name for g in views.games_named_like(services.sessions, "dem_")] == ["dem_o"]


def test_postpone_deadline_moves_only_that_game(services, clock) -> None:
    moved = new_game(services, clock(), name="moved")
    new_game(services, clock(), name="kept")
    later = clock() + timedelta(days=5)
    games.postpone_deadline(services.sessions, moved, later)
    assert {g.name: g.deadline for g in views.games_named_like(services.sessions, "")} == {
        "moved": later, "kept": clock() + timedelta(hours=48)}


def test_player_abbreviations_added_cleared_and_whether_applied(services, clock) -> None:
    new_game(services, clock(), name="plain")
    listed = games.player_abbreviations(services.sessions, "plain", "france", add={"Mar": "Marseilles"},
                                        clear=False, geography=services.geography)
    assert listed.entries == {"Mar": "MAR"} and listed.applied is load_ruleset("standard").player_abbreviation_lists
    listed = games.player_abbreviations(services.sessions, "plain", "FRANCE", add={}, clear=False,
                                        geography=services.geography)
    assert listed.entries == {"Mar": "MAR"}
    listed = games.player_abbreviations(services.sessions, "plain", "FRANCE", add={}, clear=True,
                                        geography=services.geography)
    assert listed.entries == {}
    with pytest.raises(games.GameError, match="no game called 'nothing'"):
        games.player_abbreviations(services.sessions, "nothing", "FRANCE", add={}, clear=False,
                                   geography=services.geography)


def test_ruleset_of_a_game_is_its_snapshot_read_once(services, clock) -> None:
    game_id = new_game(services, clock(), ruleset="scorpion")
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        first, again = queries.games.ruleset_of(game), queries.games.ruleset_of(game)
        assert first == Ruleset.from_snapshot(game.ruleset) == load_ruleset("scorpion")
        assert first is again


def test_queued_since_counts_by_each_filter(services, clock) -> None:
    game_id = new_game(services, clock())
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        for n, (kind, to, key) in enumerate([("rejection", "a@x.test", "warn:1"), ("rejection", "b@x.test", "warn:2"),
                                             ("report", "a@x.test", "report:1")]):
            message = services.composer.compose(to=to, subject=f"s{n}", body="b", date=clock(),
                                                auto_submitted="auto-replied")
            queue(session, message, kind=kind, dedupe_key=key, now=clock(), game_id=game.id if n else None)
        # seen within the transaction that queued them (the rows are inserted at once, never pending)
        assert queries.outbox.dedupe_key_taken(session, "warn:2")
        assert queries.outbox.queued_since(session, clock() - timedelta(seconds=1)) == 3
        assert not queue(session, message, kind="report", dedupe_key="report:1", now=clock())
    with transaction(services.sessions) as session:
        before = clock() - timedelta(seconds=1)
        assert queries.outbox.queued_since(session, before) == 3
        assert queries.outbox.queued_since(session, clock()) == 0
        assert queries.outbox.queued_since(session, before, kinds=("rejection",)) == 2
        assert queries.outbox.queued_since(session, before, recipient="a@x.test") == 2
        assert queries.outbox.queued_since(session, before, game_id=game_id) == 2
        assert queries.outbox.queued_since(session, before, key_prefix="warn:") == 2
        assert queries.outbox.queued_since(session, before, kinds=("rejection",), recipient="a@x.test",
                                           key_prefix="warn:") == 1
        assert queries.outbox.dedupe_key_taken(session, "report:1")
        assert not queries.outbox.dedupe_key_taken(session, "report:2")
