"""The schedule wired in, on both databases ("A schedule, not a stopwatch"): the next
deadline follows the previous deadline whenever the turn is processed, the profile's minimum
turn lengths are enforced, the grace period and the trigger decide when a turn is due, minor
turns are adjudicated early when the profile says so (000 VII(2)), and every reminder the
profile lists is sent once per phase and power. The maths has its tables in
tests/unit/test_schedule.py; here each option is set to a value other than its default."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, time, timedelta
from email.utils import format_datetime

import pytest
from sqlalchemy import select

from gmserver.config import Config, SmtpRelayConfig
from gmserver.daemon import Daemon
from gmserver.db.models import Game, InboundMessage, OutboxMessage, PhaseRecord
from gmserver.db.session import transaction
from gmserver.mail.outbound import SmtpTransport
from gmserver.rules.position import Position
from gmserver.rules.ruleset import Ruleset, load_ruleset
from gmserver.rules.ruleset_options import Reminder
from gmserver.rules.subject import format_subject
from gmserver.services.base.outbox import message_bytes
from gmserver.services.features import corrections, held, views
from gmserver.services.game import schedule
from gmserver.services.game.games import POWERS, GameError, GameSpec, PlayerSpec, create_game
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from tests.support.dovecot import free_port
from tests.support.intake_rows import send_orders
from tests.support.world import order_mail, player_address, services_for

pytestmark = pytest.mark.integration

UTC = UTC
H = timedelta(hours=1)
STANDARD = load_ruleset("standard")
# France takes Spain in the Fall: France and Germany each owe builds in the Winter.
FALL = Position.from_json({
    "phase": "F1901M",
    "units": {"FRANCE": ["A GAS", "A MAR", "F MAO"], "GERMANY": ["A MUN"]},
    "centers": {"FRANCE": ["BRE", "MAR", "PAR"], "GERMANY": ["BER", "KIE", "MUN"]},
})


def make_game(services, now: datetime, ruleset: Ruleset, **spec) -> int:
    with transaction(services.sessions) as session:
        game = create_game(session, GameSpec(
            name="lepanto", ruleset=ruleset, players=[PlayerSpec(p, player_address(p)) for p in POWERS],
            sender_check="from", **spec), now)
        return game.id


def send(services, now: datetime, power: str, body: str, phase: str, template: str = "standard") -> None:
    send_orders(services, now, power, body, phase, template=template)


def game_row(services, game_id: int) -> Game:
    with transaction(services.sessions) as session:
        return session.get(Game, game_id)


def outbox(services, kind: str) -> list[OutboxMessage]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == kind)))


# -- the schedule ----------------------------------------------------------------------------------

def test_gm_adjudicating_early_or_the_daemon_late_keeps_the_deadlines_issue_8(database_url, clock) -> None:
    """The issue's drift: an 18:00 deadline became 13:33:34 after `gmserver adjudicate`. Now the
    deadline after a forced (early) turn and after a turn 40 minutes late is the scheduled one."""
    services = services_for(database_url)
    clock.now = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    game_id = make_game(services, clock(), STANDARD, first_deadline=datetime(2026, 11, 22, 18, 0, tzinfo=UTC))
    assert game_row(services, game_id).deadline_time == "18:00:00"
    clock.now = datetime(2026, 11, 21, 13, 33, 34, 354602, tzinfo=UTC)  # the GM runs `gmserver adjudicate`
    done = turns.adjudicate(services, game_id, clock(), force=True, wait=True)
    assert done.deadline == datetime(2026, 11, 24, 18, 0, tzinfo=UTC)  # 22nd 18:00 + 2 days
    clock.now = datetime(2026, 11, 24, 18, 40, tzinfo=UTC)  # the daemon was down for 40 minutes
    [done] = turns.adjudicate_due(services, clock())
    assert (done.phase, done.deadline) == ("F1901M", datetime(2026, 11, 26, 18, 0, tzinfo=UTC))


def test_a_london_game_keeps_18_00_across_the_end_of_summer_time(database_url, clock) -> None:
    """Europe/London leaves BST on 25 October 2026: 18:00 BST (17:00 UTC) on the 23rd, then
    18:00 GMT (18:00 UTC) on the 25th; the turn processed 3 hours late moves a whole day."""
    services = services_for(database_url)
    clock.now = datetime(2026, 10, 20, 9, 0, tzinfo=UTC)
    make_game(services, clock(), STANDARD, timezone="Europe/London",
                        first_deadline=datetime(2026, 10, 23, 17, 0, tzinfo=UTC))
    clock.now = datetime(2026, 10, 23, 17, 0, 2, tzinfo=UTC)
    [done] = turns.adjudicate_due(services, clock())
    assert done.deadline == datetime(2026, 10, 25, 18, 0, tzinfo=UTC)
    clock.now = datetime(2026, 10, 25, 21, 0, tzinfo=UTC)
    [done] = turns.adjudicate_due(services, clock())
    assert done.deadline == datetime(2026, 10, 28, 18, 0, tzinfo=UTC)  # 27th 18:00 would leave 45 h


def test_the_gm_s_time_of_day_is_kept(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = make_game(services, clock(), STANDARD, deadline_time=time(20, 30), timezone="Europe/Paris")
    # created 22 November 12:00 UTC: the first 20:30 Paris (19:30 UTC) at least 48 hours away
    assert game_row(services, game_id).deadline == datetime(2026, 11, 24, 19, 30, tzinfo=UTC)


# -- minimums, enforced (min_hours_*) ---------------------------------------------------------------

def test_a_turn_shorter_than_the_profile_s_minimum_is_refused_001_IV_4(database_url, clock) -> None:
    """001 IV(4): at least 72 hours for a movement turn (min_hours_movement = 72)."""
    services = services_for(database_url)
    with pytest.raises(GameError, match=r"a movement turn must last at least 72 hours \(house rules 001 IV\(4\)\)"):
        make_game(services, clock(), load_ruleset("danivon"), movement=48 * H)
    game_id = make_game(services, clock(), load_ruleset("danivon"), movement=72 * H)
    assert game_row(services, game_id).deadline == clock() + 72 * H


def test_open_turn_lengths_make_a_week_a_turn_001_IV_4(database_url, clock) -> None:
    """001 IV(4) "the guide will be that each Turn takes a week" (target_days_per_game_turn = 7):
    with no lengths given, retreat and adjustment turns get their 24 h minimum and the movement
    turn the rest of the week, 7 - 1 - 1 = 5 days; the first deadline is 5 days away."""
    services = services_for(database_url)
    game_id = make_game(services, clock(), load_ruleset("danivon"))
    game = game_row(services, game_id)
    assert (game.movement_seconds, game.retreat_seconds, game.adjustment_seconds) == (120 * 3600, 24 * 3600, 24 * 3600)
    assert game.deadline == clock() + 120 * H


def test_minimum_retreat_and_adjustment_lengths_are_enforced(database_url, clock) -> None:
    services = services_for(database_url)
    longer = dataclasses.replace(STANDARD, min_hours_retreat=36, min_hours_adjustment=30)
    with pytest.raises(GameError) as refused:
        make_game(services, clock(), longer, retreat=24 * H, adjustment=24 * H)
    assert "a retreat turn must last at least 36 hours" in str(refused.value)
    assert "an adjustment turn must last at least 30 hours" in str(refused.value)


def test_a_first_deadline_too_soon_is_refused_000_VII_4(database_url, clock) -> None:
    services = services_for(database_url)
    with pytest.raises(GameError, match=r"at least 48 hours \(house rules 000 VII\(4\)\)"):
        make_game(services, clock(), load_ruleset("mhr"), first_deadline=clock() + 47 * H)


def test_the_gm_s_new_deadline_is_checked_against_the_minimum(database_url, clock) -> None:
    """`game deadline NAME ISO-TIME` calls schedule.new_deadline_problems (000 VII(4))."""
    services = services_for(database_url)
    game_id = make_game(services, clock(), load_ruleset("mhr"))
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        assert schedule.new_deadline_problems(session, game, clock() + 72 * H, clock() + H) == []
        [problem] = schedule.new_deadline_problems(session, game, clock() + 30 * H, clock() + H)
    assert "at least 48 hours (house rules 000 VII(4))" in problem


# -- grace period and trigger ----------------------------------------------------------------------

def test_orders_in_the_grace_period_are_used_000_VII_3(database_url, clock) -> None:
    """processing_grace_minutes = 30 under 000 VII(3) (orders accepted until adjudication
    starts): adjudication runs half an hour after the deadline, with the orders sent meanwhile."""
    services = services_for(database_url)
    graced = dataclasses.replace(load_ruleset("mhr"), processing_grace_minutes=30)
    game_id = make_game(services, clock(), graced)
    deadline = game_row(services, game_id).deadline
    assert views.game_timings(services.sessions, [game_id])[0].deadline == deadline + 30 * timedelta(minutes=1)
    clock.now = deadline + 10 * timedelta(minutes=1)
    send(services, clock(), "FRANCE", "A PAR - BUR", "S1901M", template="mhr")
    assert turns.adjudicate_due(services, clock()) == []
    clock.now = deadline + 30 * timedelta(minutes=1)
    [done] = turns.adjudicate_due(services, clock())
    assert done.deadline == deadline + 48 * H  # the grace period does not shift the schedule
    with transaction(services.sessions) as session:
        spring = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == "S1901M"))
        assert spring.orders["FRANCE"] == ["A PAR - BUR"]


def test_a_gm_run_game_waits_for_the_gm(database_url, clock) -> None:
    """adjudication_trigger = gm_command: the deadline passes and nothing happens until the GM
    runs `gmserver adjudicate NAME`; the reminder still goes out."""
    services = services_for(database_url)
    game_id = make_game(services, clock(), dataclasses.replace(STANDARD, adjudication_trigger="gm_command"))
    deadline = game_row(services, game_id).deadline
    [timing] = views.game_timings(services.sessions, [game_id])
    assert (timing.deadline, timing.reminder_at) == (None, deadline - 24 * H)
    clock.now = deadline + 30 * H
    assert turns.adjudicate_due(services, clock()) == []
    assert turns.adjudicate(services, game_id, clock()) is None
    done = turns.adjudicate(services, game_id, clock(), force=True, wait=True)
    assert done.phase == "S1901M"


# -- early adjudication (000 VII(2)) ---------------------------------------------------------------

def test_winter_is_adjudicated_as_soon_as_every_build_is_final_000_VII_2(database_url, clock) -> None:
    """early_processing = minor_when_all_final: the Winter turn runs once France and Germany,
    the two powers owing builds, have final sets on file; the Spring deadline still follows the
    Winter deadline."""
    services = services_for(database_url)
    early = dataclasses.replace(STANDARD, early_processing="minor_when_all_final")
    game_id = make_game(services, clock(), early, position=FALL)
    send(services, clock(), "FRANCE", "A GAS - SPA", "F1901M")
    clock.now = game_row(services, game_id).deadline
    [fall] = turns.adjudicate_due(services, clock())
    assert fall.next_phase == "W1901A"
    winter_deadline = fall.deadline
    clock.advance(hours=2)
    send(services, clock(), "FRANCE", "Build A PAR", "W1901A")
    assert turns.adjudicate_due(services, clock()) == []  # Germany has not ordered
    send(services, clock(), "GERMANY", "Build A BER\nBuild F KIE", "W1901A")
    [winter] = turns.adjudicate_due(services, clock())
    assert (winter.phase, winter.next_phase) == ("W1901A", "S1902M")
    assert winter.deadline == winter_deadline + 48 * H
    assert turns.adjudicate_due(services, clock()) == []


def test_the_gm_is_told_when_a_minor_turn_could_run_early_000_VII_2(database_url, clock) -> None:
    """early_processing = minor_gm_discretion (000 VII(2) "at GM discretion"): the GM is told
    once that Winter is complete; nothing is adjudicated until the GM says so."""
    services = services_for(database_url)
    gm_decides = dataclasses.replace(STANDARD, early_processing="minor_gm_discretion")
    game_id = make_game(services, clock(), gm_decides, position=FALL)
    send(services, clock(), "FRANCE", "A GAS - SPA", "F1901M")
    clock.now = game_row(services, game_id).deadline
    turns.adjudicate_due(services, clock())
    send(services, clock(), "FRANCE", "Build A PAR", "W1901A")
    assert schedule.queue_early_notices(services, clock(), to="gm@gm.test") == 0
    send(services, clock(), "GERMANY", "Build A BER\nBuild F KIE", "W1901A")
    assert schedule.queue_early_notices(services, clock(), to="gm@gm.test") == 1
    assert schedule.queue_early_notices(services, clock(), to="gm@gm.test") == 0
    assert turns.adjudicate_due(services, clock()) == []
    [notice] = outbox(services, "alert")
    assert notice.recipient == "gm@gm.test" and b"gmserver adjudicate lepanto" in notice.raw


def test_a_movement_turn_is_never_adjudicated_early_000_VII_2(database_url, clock) -> None:
    services = services_for(database_url)
    early = dataclasses.replace(STANDARD, early_processing="minor_when_all_final")
    make_game(services, clock(), early, position=FALL)
    send(services, clock(), "FRANCE", "A GAS - SPA", "F1901M")
    send(services, clock(), "GERMANY", "A MUN H", "F1901M")
    assert turns.adjudicate_due(services, clock()) == []


# -- reminders ---------------------------------------------------------------------------------------

def test_every_reminder_of_the_list_is_sent_once(database_url, clock) -> None:
    """reminders = 24 hours before to powers without orders, and 2 hours before to all powers."""
    services = services_for(database_url)
    two = dataclasses.replace(STANDARD, reminders=(Reminder("powers_without_set", 24), Reminder("all_powers", 2)))
    game_id = make_game(services, clock(), two)
    deadline = game_row(services, game_id).deadline
    send(services, clock(), "ENGLAND", "F LON - NTH", "S1901M")
    clock.now = deadline - 24 * H
    assert turns.queue_reminders(services, clock()) == 6
    assert [t.reminder_at for t in views.game_timings(services.sessions, [game_id], clock())] == [deadline - 2 * H]
    clock.now = deadline - 2 * H
    assert turns.queue_reminders(services, clock()) == 7
    assert turns.queue_reminders(services, clock()) == 0
    england = [m for m in outbox(services, "reminder") if m.recipient == player_address("ENGLAND")]
    assert len(england) == 1 and b"are on file" in england[0].raw


def test_the_report_asks_for_orders_at_once_003_11(database_url, clock) -> None:
    """003 [11]: "send provisional orders as soon as the adjudication arrives" (a reminder
    with_report = true)."""
    services = services_for(database_url)
    # scorpion's list (the Spring 1901 wait of 003 [14] aside, which would hold this turn up)
    with_report = dataclasses.replace(STANDARD, reminders=load_ruleset("scorpion").reminders)
    game_id = make_game(services, clock(), with_report)
    clock.now = game_row(services, game_id).deadline
    turns.adjudicate_due(services, clock())
    [report, *_] = outbox(services, "report")
    assert b"Please send your orders now, provisional ones if need be" in message_bytes(report)


# -- late orders with proof of sending (000 VII(1)) --------------------------------------------------

def late_mail(power: str, phase: str, sent: datetime, reached_first_server: datetime) -> bytes:
    subject = format_subject(template="mhr", game_name="lepanto", power=power, phase=phase, purpose="orders")
    return order_mail(player_address(power), subject, "A PAR - BUR", date=sent, headers={
        "Received": f"from pc.players.test by smtp.players.test; {format_datetime(reached_first_server)}"})


def inbound_row(services, number: int) -> InboundMessage:
    with transaction(services.sessions) as session:
        return session.scalars(select(InboundMessage).order_by(InboundMessage.id)).all()[number]


def spring_adjudicated_then_late_sets(database_url, clock, late: dict[str, timedelta]):
    """An mhr game whose Spring 1901 was adjudicated at its deadline, then, 20 minutes later, a
    Spring set from each power in `late`, dated 5 minutes before the deadline and first received
    at the deadline plus the given offset. (services, game id)."""
    services = services_for(database_url)
    game_id = make_game(services, clock(), load_ruleset("mhr"))
    deadline = game_row(services, game_id).deadline
    clock.now = deadline
    turns.adjudicate_due(services, clock())
    clock.advance(minutes=20)
    before = deadline - timedelta(minutes=5)
    for power, received in late.items():
        intake.store(services.sessions, late_mail(power, "S1901M", before, deadline + received), source="smtp",
                     now=clock())
    intake.process_pending(services, clock())
    return services, game_id


def test_a_late_set_proven_sent_in_time_is_held_for_the_gm_000_VII_1(database_url, clock) -> None:
    """late_with_proof = gm_discretion (000 VII(1)): France's Spring set reaches the GM after
    Spring was adjudicated, but its Date and first Received headers precede the deadline: held for
    the GM with the evidence; the GM rolls the turn back and releases it, and it is used. A late
    set without that proof is refused as an ordinary wrong turn."""
    services, game_id = spring_adjudicated_then_late_sets(
        database_url, clock, {"FRANCE": timedelta(minutes=-5), "ITALY": timedelta(minutes=1)})
    france, italy = inbound_row(services, 0), inbound_row(services, 1)
    assert (france.status, italy.outcome) == ("held", "rejected")
    [notice] = outbox(services, "held")
    assert b"000 VII(1)" in notice.raw and b"both before the deadline" in notice.raw

    corrections.rollback(services, "lepanto", clock())
    held.release(services, france.id, clock())
    done = turns.adjudicate(services, game_id, clock(), force=True, wait=True)
    assert done.phase == "S1901M"
    with transaction(services.sessions) as session:
        spring = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == "S1901M"))
        assert spring.orders["FRANCE"] == ["A PAR - BUR"]


def test_the_gm_is_told_to_roll_back_before_releasing_a_late_set_000_VII_1(database_url, clock) -> None:
    """000 VII(1): a late set proven sent in time is for a turn already adjudicated, so `inbox
    release` alone cannot use it: the GM's notice and the refused release both say to roll the
    turn back first (they said only "release" and "refuse it instead")."""
    services, _ = spring_adjudicated_then_late_sets(database_url, clock, {"FRANCE": timedelta(minutes=-5)})
    france = inbound_row(services, 0)
    [alert] = [m for m in outbox(services, "alert") if b"wait for you" in m.raw]
    told = " ".join(alert.raw.decode().split())
    assert ("Spring 1901 Movement is already adjudicated: to use it, roll that turn back first "
            "(`gmserver game rollback lepanto`), then release it") in told
    with pytest.raises(held.HeldError) as refused:
        held.release(services, france.id, clock())
    assert "roll that turn back first (gmserver game rollback lepanto), then release it" in str(refused.value)


# -- the daemon: early turns right after the set that completes them ---------------------------------

def test_the_daemon_adjudicates_a_complete_winter_right_after_the_last_set_000_VII_2(database_url, clock) -> None:
    """minor_when_all_final: the inbound job that files the last build adjudicates the Winter
    turn at once, without waiting for the sweep."""
    services = services_for(database_url)
    relay = SmtpRelayConfig(host="127.0.0.1", port=free_port(), timeout=5)  # never reached: nothing is sent
    config = Config(database_url=database_url, gm_address="gm@gm.test", alert_address="referee@home.test",
                    outbound_mode="smtp", smtp=relay)
    daemon = Daemon(config, services=services, transport=SmtpTransport(relay), clock=clock)
    early = dataclasses.replace(STANDARD, early_processing="minor_when_all_final")
    game_id = make_game(services, clock(), early, position=FALL)
    send(services, clock(), "FRANCE", "A GAS - SPA", "F1901M")
    clock.now = game_row(services, game_id).deadline
    turns.adjudicate_due(services, clock())
    for power, body in (("FRANCE", "Build A PAR"), ("GERMANY", "Build A BER\nBuild F KIE")):
        subject = format_subject(template="standard", game_name="lepanto", power=power, phase="W1901A",
                                 purpose="orders")
        intake.store(services.sessions, order_mail(player_address(power), subject, body), source="smtp", now=clock())
    daemon._process_inbound()
    assert game_row(services, game_id).phase == "S1902M"
