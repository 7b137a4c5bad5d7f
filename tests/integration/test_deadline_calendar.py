"""Deadline changes players can trust (QA walkthrough), on SQLite and PostgreSQL: `game deadline`,
`game pause` and `game resume` attach a `deadline.ics` that updates the event of the last report
(same UID, higher SEQUENCE; a pause withdraws it), the pause mail says there is no deadline
while paused, a game created with short turns lets its GM set a short deadline, and the .ics
alarm comes at the game's reminder lead. Expectations are worked out by hand from the world
game: created 2026-11-22 12:00 UTC, 48-hour movement turns, reminders 24 hours before."""

from __future__ import annotations

import email
import email.policy
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

import icalendar
import pytest
from sqlalchemy import select

from gmserver.db.models import Game, OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.commands import gm_controls
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from gmserver.services.game.games import GameError
from gmserver.services.base.outbox import message_bytes
from tests.support.cli import player_args, run, write_config
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

UTC = timezone.utc


def mails(services, kind: str) -> list[EmailMessage]:
    """The outbox's messages of `kind`, oldest first, as sent."""
    with transaction(services.sessions) as session:
        rows = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == kind).order_by(OutboxMessage.id))
        return [email.message_from_bytes(message_bytes(row), policy=email.policy.default) for row in rows]


def event_of(message: EmailMessage) -> icalendar.Event:
    """The one VEVENT of the message's deadline.ics."""
    [part] = [p for p in message.walk() if p.get_content_type() == "text/calendar"]
    assert part.get_filename() == "deadline.ics"
    [event] = icalendar.Calendar.from_ical(part.get_content()).walk("VEVENT")
    return event


def body(message: EmailMessage) -> str:
    return " ".join(message.get_body(("plain",)).get_content().split())


def alarm_trigger(event: icalendar.Event) -> timedelta:
    [alarm] = event.walk("VALARM")
    return alarm.decoded("trigger")


def test_deadline_pause_and_resume_mails_update_the_reports_calendar_event(database_url, clock) -> None:
    """The report after Spring 1901 puts "lepanto-F1901M@gm.test" at 2026-11-26 12:00 (48 hours
    after the Spring deadline of 2026-11-24 12:00) in the calendar; each later GM action sends that
    UID again with a higher SEQUENCE: moved, withdrawn on pause, back on resume."""
    services = services_for(database_url)
    new_game(services, clock())
    turns.adjudicate_due(services, clock.advance(hours=48))
    reported = event_of(mails(services, "report")[0])
    assert str(reported["uid"]) == "lepanto-F1901M@gm.test"
    assert reported.decoded("dtstart") == datetime(2026, 11, 26, 12, 0, tzinfo=UTC)

    later = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    gm_controls.act(services, "lepanto", gm_controls.set_deadline, later, now=clock.advance(hours=1))
    moved = mails(services, "gm-action")
    assert len(moved) == 7 and all(str(event_of(m)["uid"]) == "lepanto-F1901M@gm.test" for m in moved)
    event = event_of(moved[0])
    assert event.decoded("dtstart") == later and str(event["status"]) == "CONFIRMED"
    assert event.decoded("sequence") > reported.decoded("sequence")

    gm_controls.act(services, "lepanto", gm_controls.pause, now=clock.advance(hours=1))
    paused = mails(services, "gm-action")[7]
    withdrawn = event_of(paused)
    assert str(withdrawn["uid"]) == "lepanto-F1901M@gm.test" and str(withdrawn["status"]) == "CANCELLED"
    assert withdrawn.decoded("sequence") > event.decoded("sequence")
    assert withdrawn.walk("VALARM") == []  # no client reminds anyone of a deadline not kept
    assert str(withdrawn["summary"]).startswith("PAUSED lepanto")

    gm_controls.act(services, "lepanto", gm_controls.resume, now=clock.advance(hours=1))
    back = event_of(mails(services, "gm-action")[14])
    assert back.decoded("dtstart") == later and str(back["status"]) == "CONFIRMED"
    assert back.decoded("sequence") > withdrawn.decoded("sequence")


def test_the_pause_mail_says_there_is_no_deadline_until_the_game_is_resumed(database_url, clock) -> None:
    """QA: the pause mail showed "Deadline: Tuesday 24 November 2026, 12:00 UTC" for a game that
    would not be adjudicated then."""
    services = services_for(database_url)
    new_game(services, clock())  # deadline 2026-11-24 12:00 UTC, a Tuesday
    gm_controls.act(services, "lepanto", gm_controls.pause, now=clock())
    text = body(mails(services, "gm-action")[0])
    assert "Tuesday 24 November" not in text
    assert "Deadline: none while the game is paused; the GM announces the deadline when the game is resumed" in text
    gm_controls.act(services, "lepanto", gm_controls.resume, now=clock.advance(hours=1))
    assert "Deadline: Tuesday 24 November 2026, 12:00 UTC" in body(mails(services, "gm-action")[7])


def test_a_game_with_short_turns_lets_its_gm_set_a_short_deadline(database_url, clock) -> None:
    """min_hours_movement (48 hours in the standard profile) binds a game that enforces
    the minimums, not one created with short turns (enforce_minimums off, the demo's)."""
    services = services_for(database_url)
    new_game(services, clock(), name="quick", movement_hours=0.1, enforce_minimums=False)
    new_game(services, clock(), name="slow", enforce_minimums=True)
    soon = clock() + timedelta(minutes=3)
    done = gm_controls.act(services, "quick", gm_controls.set_deadline, soon, now=clock())
    assert "brought forward" in done.text
    with pytest.raises(GameError, match="a movement turn must last at least 48 hours"):
        gm_controls.act(services, "slow", gm_controls.set_deadline, soon, now=clock())
    with pytest.raises(GameError, match="has already passed"):  # the past is refused all the same
        gm_controls.act(services, "quick", gm_controls.set_deadline, clock() - timedelta(minutes=1), now=clock())


def test_game_deadline_on_the_command_line_follows_short_turns_for_testing(database_url, tmp_path: Path,
                                                                          capsys) -> None:
    """The walkthrough's case: `game create --short-turns-for-testing`, then `game deadline` a few
    minutes ahead (real time: the command line reads the clock)."""
    config = write_config(tmp_path, database_url)
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "quick", *player_args(), "--movement-hours", "0.1",
               "--short-turns-for-testing") == 0
    soon = (datetime.now(UTC) + timedelta(minutes=4)).replace(microsecond=0)
    capsys.readouterr()
    assert run(config, "game", "deadline", "quick", soon.isoformat()) == 0, capsys.readouterr().err
    assert run(config, "game", "create", "slow", *player_args()) == 0
    assert run(config, "game", "deadline", "slow", soon.isoformat()) == 2
    assert "a movement turn must last at least 48 hours" in capsys.readouterr().err


@pytest.mark.parametrize(("reminder_hours", "lead"), [(24, timedelta(hours=24)), (6, timedelta(hours=6)),
                                                      (0, timedelta(hours=1))])
def test_the_calendar_alarm_comes_at_the_games_reminder_lead(database_url, clock, reminder_hours, lead) -> None:
    """The alarm was always an hour before; now it is the game's reminder lead (`--reminder-hours`),
    an hour when the game has no reminders (0). In the report and in a GM's deadline mail."""
    services = services_for(database_url)
    new_game(services, clock(), reminder_hours=reminder_hours)
    turns.adjudicate_due(services, clock.advance(hours=48))
    assert alarm_trigger(event_of(mails(services, "report")[0])) == -lead
    gm_controls.act(services, "lepanto", gm_controls.set_deadline, clock() + timedelta(days=3), now=clock())
    assert alarm_trigger(event_of(mails(services, "gm-action")[0])) == -lead


def test_a_delay_granted_at_once_moves_the_calendar_event_too_000_VII_5(database_url, clock) -> None:
    """000 VII(5) (mhr: a delay of 48 hours granted at once): the six others' notice of the new
    deadline carries the event at it, Tuesday 24th 12:00 + 48 hours = Thursday 26th 12:00 UTC."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="mhr")
    raw = order_mail(player_address("ITALY"), "lepanto", "DELAY: travelling until Friday")
    intake.process_one(services, intake.store(services.sessions, raw, source="smtp", now=clock()).id, clock())
    told = mails(services, "gm-action")
    assert len(told) == 6
    moved = event_of(told[0])
    assert str(moved["uid"]) == "lepanto-S1901M@gm.test"
    assert moved.decoded("dtstart") == datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    # QA: the answer to Italy, who asked, carried no event; it moves the same one
    [answer] = mails(services, "notice")
    assert answer["To"] == player_address("ITALY")
    asked = event_of(answer)
    assert str(asked["uid"]) == "lepanto-S1901M@gm.test" and str(asked["status"]) == "CONFIRMED"
    assert asked.decoded("dtstart") == datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def test_a_delay_the_gm_decides_moves_no_event_003_10(database_url, clock) -> None:
    """003 [10] (scorpion: every delay request goes to the GM): the deadline stays, and the answer
    carries no calendar."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="scorpion")
    raw = order_mail(player_address("ITALY"), "lepanto", "DELAY: travelling until Friday")
    intake.process_one(services, intake.store(services.sessions, raw, source="smtp", now=clock()).id, clock())
    [answer] = mails(services, "notice")
    assert [p for p in answer.walk() if p.get_content_type() == "text/calendar"] == []


def test_a_rollback_withdraws_the_event_of_the_turn_its_report_opened_000_VIII_1(database_url, clock) -> None:
    """The Spring 1901 report put "lepanto-F1901M@gm.test" at Thursday 26th 12:00 (48 hours after
    the Spring deadline); the GM rolls Spring back an hour later: every correction notice
    withdraws that event (same UID, higher SEQUENCE, cancelled, no alarm), as a pause does, and the
    corrected report brings it back with a higher SEQUENCE again."""
    from gmserver.services.features import corrections

    services = services_for(database_url)
    game_id = new_game(services, clock())
    turns.adjudicate_due(services, clock.advance(hours=48))
    reported = event_of(mails(services, "report")[0])
    corrections.rollback(services, "lepanto", clock.advance(hours=1))
    notices = mails(services, "correction")
    assert len(notices) == 7
    withdrawn = event_of(notices[0])
    assert str(withdrawn["uid"]) == "lepanto-F1901M@gm.test" and str(withdrawn["status"]) == "CANCELLED"
    assert withdrawn.decoded("dtstart") == datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    assert withdrawn.decoded("sequence") > reported.decoded("sequence")
    assert withdrawn.walk("VALARM") == []
    assert str(withdrawn["summary"]) == ("CORRECTION lepanto: Fall 1901 Movement (F1901M) waits for the corrected "
                                         "results of Spring 1901 Movement")
    turns.adjudicate(services, game_id, clock.advance(hours=1), force=True)
    corrected = event_of(mails(services, "report")[-1])
    assert str(corrected["uid"]) == "lepanto-F1901M@gm.test" and str(corrected["status"]) == "CONFIRMED"
    assert corrected.decoded("sequence") > withdrawn.decoded("sequence")


def test_gm_commands_by_mail_attach_the_calendar_too(database_url, clock) -> None:
    """The mail commands share the controls: `deadline` by mail moves the event (Tuesday 24th
    12:00 to Friday 27th 12:00), `pause` withdraws it."""
    services = services_for(database_url)
    new_game(services, clock())
    with transaction(services.sessions) as session:
        secret = session.scalar(select(Game.gm_secret).where(Game.name == "lepanto"))
    later = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    for command in (f"deadline {later.isoformat()}", "pause"):
        raw = order_mail(GM, "lepanto", f"Password: {secret}\n{command}", date=clock())
        intake.process_one(services, intake.store(services.sessions, raw, source="smtp", now=clock()).id,
                           clock.advance(minutes=1))
    moved, withdrawn = (event_of(m) for m in mails(services, "gm-action")[::7])
    assert moved.decoded("dtstart") == later and str(moved["status"]) == "CONFIRMED"
    assert str(withdrawn["status"]) == "CANCELLED" and withdrawn.decoded("sequence") > moved.decoded("sequence")
