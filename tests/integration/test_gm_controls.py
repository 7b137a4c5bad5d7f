"""The GM's controls on a real database (SQLite and PostgreSQL): every action recorded
and announced, a paused game never adjudicated nor reminded, replacement with the start mail,
GM copies of reports and refusals, and GM commands by mail under `gm_command_auth`."""

from __future__ import annotations

import dataclasses
import email
import email.policy
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, GmAction, OutboxMessage, Player, PlayerHistory
from gmserver.db.session import transaction
from gmserver.rules.reading.quoting import GM_MAIL_START  # every mail opens with it
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.base.gm_mail import queue_start_mails
from gmserver.services.commands import gm_controls
from gmserver.services.features import views
from gmserver.services.game.games import POWERS, GameError, GameSpec, PlayerSpec, create_game, show_game
from gmserver.services.game.schedule import due_games
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from tests.support.intake_rows import game_row, gm_mail
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def outbox(services, kind: str | None = None) -> list[OutboxMessage]:
    with transaction(services.sessions) as session:
        rows = list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
        return [row for row in rows if kind is None or row.kind == kind]


def text(row: OutboxMessage) -> str:
    return " ".join(email.message_from_bytes(row.raw, policy=email.policy.default).get_body(("plain",)).get_content().split())


def actions(services) -> list[tuple[str, str]]:
    with transaction(services.sessions) as session:
        return [(a.action, a.by) for a in session.scalars(select(GmAction).order_by(GmAction.id))]


def test_a_deadline_is_extended_recorded_and_announced_to_every_player(world, clock) -> None:
    later = clock() + timedelta(days=5)
    done = gm_controls.act(world, "lepanto", gm_controls.set_deadline, later, now=clock())
    assert done.announced == 7 and "extended" in done.text
    assert game_row(world).deadline == later
    assert actions(world) == [("deadline", "cli")]
    sent = outbox(world, "gm-action")
    assert sorted(m.recipient for m in sent) == sorted(player_address(p) for p in POWERS)
    assert "The GM has extended the deadline of Spring 1901 Movement." in text(sent[0])


def test_a_deadline_below_the_minimum_turn_length_is_refused_and_nothing_recorded(database_url, clock) -> None:
    # standard: 48 hours per movement turn [P practice]; the turn opened at clock(). The world's game
    # has short turns (enforce_minimums off), which the minimums do not bind: this one enforces them
    services = services_for(database_url)
    new_game(services, clock(), enforce_minimums=True)
    with pytest.raises(GameError, match="must last at least 48 hours"):
        gm_controls.act(services, "lepanto", gm_controls.set_deadline, clock() + timedelta(hours=47), now=clock())
    assert actions(services) == [] and outbox(services) == []


def test_the_deadline_the_game_has_already_changes_nothing_and_tells_nobody(world, clock) -> None:
    """QA: setting the current deadline again said "brought forward ... (was the same time)" and
    mailed every player; now it is refused like pausing a paused game."""
    current = game_row(world).deadline  # clock() + 48 h, 2026-11-24 12:00 UTC
    with pytest.raises(GameError, match="is Tuesday 24 November 2026, 12:00 UTC already: nothing changed"):
        gm_controls.act(world, "lepanto", gm_controls.set_deadline, current, now=clock())
    # the same moment written in another zone is the same deadline
    with pytest.raises(GameError, match="nothing changed"):
        gm_controls.act(world, "lepanto", gm_controls.set_deadline,
                        current.astimezone(timezone(timedelta(hours=1))), now=clock())
    assert game_row(world).deadline == current
    assert actions(world) == [] and outbox(world) == []


def test_a_paused_game_is_never_adjudicated_nor_reminded(world, clock) -> None:
    gm_controls.act(world, "lepanto", gm_controls.pause, now=clock())
    clock.advance(hours=30)  # inside the reminder window
    assert turns.queue_reminders(world, clock()) == 0
    clock.advance(hours=30)  # past the deadline
    with transaction(world.sessions) as session:
        assert due_games(session, clock()) == []
    assert turns.adjudicate_due(world, clock()) == []
    assert turns.adjudicate(world, game_row(world).id, clock(), force=True) is None
    assert game_row(world).phase == "S1901M"
    assert show_game(world.sessions, "lepanto")["paused"] is True
    # the daemon keeps no deadline or reminder job for it
    [timing] = views.game_timings(world.sessions)
    assert (timing.deadline, timing.reminder_at) == (None, None)


def test_resume_after_the_deadline_passed_sets_a_full_turn_from_now(world, clock) -> None:
    gm_controls.act(world, "lepanto", gm_controls.pause, now=clock())
    now = clock.advance(hours=60)
    done = gm_controls.act(world, "lepanto", gm_controls.resume, now=now)
    # the game's deadlines fall at 12:00 UTC (its first one, 48 h after creation at 2026-11-22 12:00);
    # resumed at 2026-11-25 00:00, a full turn of 48 h ends 2026-11-27 00:00: the next 12:00 after it
    assert now == datetime(2026, 11, 25, 0, 0, tzinfo=UTC)
    assert game_row(world).deadline == datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    assert "the deadline passed during the pause" in done.text
    assert show_game(world.sessions, "lepanto")["paused"] is False
    assert turns.adjudicate_due(world, datetime(2026, 11, 27, 12, 1, tzinfo=UTC))[0].phase == "S1901M"


def test_resume_before_the_deadline_keeps_it(world, clock) -> None:
    deadline = game_row(world).deadline
    gm_controls.act(world, "lepanto", gm_controls.pause, now=clock())
    done = gm_controls.act(world, "lepanto", gm_controls.resume, now=clock.advance(hours=1))
    assert game_row(world).deadline == deadline and "the deadline stays" in done.text


def test_a_replacement_gets_the_start_mail_and_the_old_player_is_on_record(world, clock) -> None:
    done = gm_controls.act(world, "lepanto", gm_controls.replace, "france", "new@players.test,alt@players.test",
                           now=clock())
    assert done.announced == 7  # the other players and the former one; the new one gets the start mail
    [start] = outbox(world, "start")
    assert start.recipient == "new@players.test"
    body = text(start)
    assert "You take over France from its previous player" in body
    assert "england@players.test" in body and "england.backup" not in body  # fallbacks never published
    with transaction(world.sessions) as session:
        france = session.scalar(select(Player).where(Player.power == "FRANCE"))
        [action] = session.scalars(select(GmAction))
        assert (france.address, france.fallback_address) == ("new@players.test", "alt@players.test")
        assert action.arguments["previous"]["address"] == player_address("FRANCE")
    # the new player's orders are taken, the old player's are not
    subject = "lepanto France S1901M"
    assert intake.process_one(world, intake.store(world.sessions, order_mail("new@players.test", subject, "A PAR H"),
                                                  source="smtp", now=clock()).id, clock()) == "accepted"
    assert intake.process_one(world, intake.store(world.sessions, order_mail(player_address("FRANCE"), subject,
                                                  "A PAR H"), source="smtp", now=clock()).id, clock()) != "accepted"


def test_a_power_created_without_a_player_is_given_one_by_replace(database_url, clock) -> None:
    """`game create` says of a power with units and no player: "their units hold every turn until
    you give them one with `gmserver game replace NAME POWER ADDRESS`"; replace refused it ("has
    no player for 'GERMANY'"), so such a power could never be played. It now seats the player, who
    gets the start mail; nobody's record is moved to the history (there was nobody)."""
    services = services_for(database_url)
    with transaction(services.sessions) as session:
        create_game(session, GameSpec(name="lepanto", ruleset=load_ruleset("standard"),
                                      players=[PlayerSpec("FRANCE", player_address("FRANCE"))]), clock())
    done = gm_controls.act(services, "lepanto", gm_controls.replace, "germany", "gerda@players.test", now=clock())
    assert done.announced == 1  # France; Germany's new player gets the start mail
    [start] = outbox(services, "start")
    assert start.recipient == "gerda@players.test" and "You play Germany" in text(start)
    with transaction(services.sessions) as session:
        germany = session.scalar(select(Player).where(Player.power == "GERMANY"))
        assert (germany.address, germany.missed_turns, germany.civil_disorder) == ("gerda@players.test", 0, False)
        assert session.scalars(select(PlayerHistory)).all() == []
    with pytest.raises(GameError, match="not a power"):
        gm_controls.act(services, "lepanto", gm_controls.replace, "atlantis", "x@players.test", now=clock())


def test_a_replacement_in_a_paused_game_is_told_the_game_is_paused(world, clock) -> None:
    """QA: the start mail of a player who joined a paused game gave the deadline (Tuesday 24
    November 2026, 12:00 UTC) as if the game were running; it says what the pause mail says."""
    gm_controls.act(world, "lepanto", gm_controls.pause, now=clock())
    gm_controls.act(world, "lepanto", gm_controls.replace, "france", "new@players.test", now=clock())
    [start] = outbox(world, "start")
    body = text(start)
    assert "24 November" not in body
    assert "Deadline: none while the game is paused; the GM announces the deadline when the game is resumed" in body


def test_end_civil_disorder_and_address_change_are_recorded(world, clock) -> None:
    gm_controls.act(world, "lepanto", gm_controls.civil_disorder, "ITALY", True, now=clock())
    assert show_game(world.sessions, "lepanto")["civil_disorder"] == ["ITALY"]
    gm_controls.act(world, "lepanto", gm_controls.change_address, "TURKEY", "sultan@players.test", now=clock())
    [told] = [m for m in outbox(world, "gm-action") if m.recipient == "sultan@players.test"]
    assert "Mail for Turkey now goes to sultan@players.test" in text(told)
    done = gm_controls.act(world, "lepanto", gm_controls.end_game, now=clock())
    assert game_row(world).status == "finished" and done.announced == 7
    assert "Supply centres at the end: Russia 4," in text(outbox(world, "gm-action")[-1])
    assert actions(world) == [("cd", "cli"), ("address", "cli"), ("end", "cli")]
    with pytest.raises(GameError, match="finished"):
        gm_controls.act(world, "lepanto", gm_controls.pause, now=clock())


def test_the_gm_ending_a_game_sends_its_record_map_and_centre_chart(world, clock) -> None:
    """No report follows the GM's `game end`: its mail is the game's last, and carries what a final
    report does: each power's centres year by year (the start of 1901, after Fall 1901, the end),
    the final map and the centre chart."""
    game_id = game_row(world).id
    turns.adjudicate(world, game_id, clock(), force=True)  # Spring 1901: every unit holds
    turns.adjudicate(world, game_id, clock(), force=True)  # Fall 1901: no centre changes hands
    gm_controls.act(world, "lepanto", gm_controls.end_game, now=clock())
    last = outbox(world, "gm-action")[-1]
    words = " ".join(text(last).split())
    assert ("Supply centres, game year by game year: The final map and the centre chart are attached. "
            "start 1901 end Austria 3 3 3 England 3 3 3") in words
    assert "Russia 4 4 4" in words
    parsed = email.message_from_bytes(last.raw, policy=email.policy.default)
    pictures = {part.get_filename(): part.get_content_type() for part in parsed.iter_attachments()}
    assert pictures == {"lepanto-final-map.png": "image/png", "lepanto-centres.png": "image/png"}


def test_gm_copies_of_reports_and_refusals(world, clock) -> None:
    gm_controls.act(world, "lepanto", gm_controls.set_setting, "gm_copies", "on", now=clock())
    # a refusal: France writes about a turn that is not open
    raw = order_mail(player_address("FRANCE"), "lepanto France F1905M", "A PAR - BUR")
    intake.process_one(world, intake.store(world.sessions, raw, source="smtp", now=clock()).id, clock())
    turns.adjudicate(world, game_row(world).id, clock(), force=True)
    copies = outbox(world, "gm-copy")
    assert [m.recipient for m in copies] == [GM, GM]
    assert text(copies[0]).startswith(f"Copy of the refusal sent to {player_address('FRANCE')}")
    assert text(copies[1]).removeprefix(GM_MAIL_START + " ").startswith("Copy of the report sent to")


def test_gm_copies_go_to_the_alert_address_when_there_is_one(world, clock) -> None:
    """[gm] alert_address, when set, receives the copies (the GM's own mailbox, not the server's)."""
    services = dataclasses.replace(world, alerts_to="garry@home.test")
    gm_controls.act(services, "lepanto", gm_controls.set_setting, "gm_copies", "on", now=clock())
    raw = order_mail(player_address("FRANCE"), "lepanto France F1905M", "A PAR - BUR")
    intake.process_one(services, intake.store(services.sessions, raw, source="smtp", now=clock()).id, clock())
    assert [m.recipient for m in outbox(services, "gm-copy")] == ["garry@home.test"]


def test_without_gm_copies_the_gm_gets_none(world, clock) -> None:
    turns.adjudicate(world, game_row(world).id, clock(), force=True)
    assert outbox(world, "gm-copy") == []


def test_every_player_gets_a_start_mail(database_url, clock) -> None:
    services = services_for(database_url)
    with transaction(services.sessions) as session:
        game = create_game(session, GameSpec(
            name="lepanto", ruleset=load_ruleset("scorpion"), sender_check="verified",
            first_deadline=datetime(2026, 12, 1, 18, 0, tzinfo=UTC),
            players=[PlayerSpec(p, player_address(p), f"{p.lower()}.backup@players.test") for p in POWERS]), clock())
        assert queue_start_mails(session, services, game, clock()) == 7
    france = next(m for m in outbox(services, "start") if m.recipient == player_address("FRANCE"))
    body = text(france)
    for words in ("You play France.", "Deadline: Tuesday 1 December 2026, 18:00 UTC",
                  "LEPANTO - FRANCE - s1901", "A MAR -", "A PAR H", "F BRE H", "Password:",
                  "(003 [23])", "never published (003 [4])", "Austria austria@players.test"):
        assert words in body, words
    assert "backup" not in body.replace("france.backup", "")  # only France's own fallback is shown to France


def test_a_gm_command_by_mail_needs_the_games_secret_matrix_2_2(world, clock) -> None:
    """gm_command_auth = gm_address_and_secret: the From line alone no longer makes the server act."""
    row, answer = gm_mail(world, "pause", clock())
    assert (row.kind, row.outcome) == ("command", "command-refused")
    assert "Nothing was done: a GM command must carry the game's GM secret" in answer
    assert game_row(world).paused is False and actions(world) == []
    secret = game_row(world).gm_secret
    row, answer = gm_mail(world, f"pause\nPassword: {secret}", clock())
    assert (row.kind, row.outcome) == ("command", "command-done")
    assert "Done: lepanto is paused (7 players told)" in answer
    assert game_row(world).paused is True and actions(world) == [("pause", GM)]


def test_gm_command_auth_gm_address_only_acts_on_the_address_alone(database_url, clock) -> None:
    """gm_command_auth = gm_address_only (not any profile's value: set for this game)."""
    services = services_for(database_url)
    with transaction(services.sessions) as session:
        create_game(session, GameSpec(
            name="lepanto", sender_check="from",
            ruleset=dataclasses.replace(load_ruleset("standard"), gm_command_auth="gm_address_only"),
            players=[PlayerSpec(p, player_address(p)) for p in POWERS]), clock())
    row, answer = gm_mail(services, "pause", clock())
    assert (row.kind, row.outcome) == ("command", "command-done")
    assert game_row(services).paused is True


def test_several_commands_in_one_mail_each_answered(world, clock) -> None:
    secret = game_row(world).gm_secret
    later = (clock() + timedelta(days=4)).isoformat()
    row, answer = gm_mail(world, f"Password: {secret}\ndeadline {later}\ncd ATLANTIS\nset gm_copies on\nhello",
                          clock())
    assert row.outcome == "command-done"
    assert "> deadline" in answer and "Done: the deadline of Spring 1901 Movement is extended" in answer
    assert "> cd ATLANTIS Not done: lepanto has no player for 'ATLANTIS'" in answer
    assert "Done: gm_copies is on" in answer
    assert "IGNORED (not commands) > hello" in answer
    # the word that is no command is answered with the commands there are (QA walkthrough)
    assert "IGNORED (not commands) > hello The commands are: actions, address, audit, cd," in answer
    assert game_row(world).gm_copies is True


def test_a_gm_deadline_mail_with_the_current_deadline_is_not_done(world, clock) -> None:
    """The mail path shares set_deadline: the GM is answered "Not done", no player is told."""
    game = game_row(world)
    row, answer = gm_mail(world, f"Password: {game.gm_secret}\ndeadline {game.deadline.isoformat()}", clock())
    assert "Not done: the deadline of lepanto is Tuesday 24 November 2026, 12:00 UTC already" in answer
    assert actions(world) == [] and outbox(world, "gm-action") == []


def player_mail(services, sender: str, body: str, now) -> tuple[str, list[OutboxMessage]]:
    row_id = intake.store(services.sessions, order_mail(sender, "lepanto", body), source="smtp", now=now).id
    outcome = intake.process_one(services, row_id, now)
    return outcome, outbox(services)


def test_a_player_changes_address_from_the_known_address_003_4(world, clock) -> None:
    """address_change = from_known_address (every profile; 003 [4]): the player's
    mail from the registered address changes it once the new address confirms it (a reply to
    the mail carrying a one-time token); the old and the new address are told."""
    outcome, sent = player_mail(world, player_address("FRANCE"), "ADDRESS marianne@players.test", clock())
    assert outcome == "address-pending"
    [answer] = [m for m in sent if m.kind == "notice"]
    assert "Nothing has changed yet: a mail went to marianne@players.test" in " ".join(text(answer).split())
    [check] = [m for m in sent if m.kind == "address-check" and m.recipient == "marianne@players.test"]
    token_address = email.message_from_bytes(check.raw, policy=email.policy.default)["Reply-To"].addresses[0]
    raw = order_mail("marianne@players.test", "Re: lepanto", "yes", to=token_address.addr_spec)
    assert intake.process_one(world, intake.store(world.sessions, raw, source="smtp", now=clock()).id,
                              clock()) == "address-changed"
    assert sorted(m.recipient for m in outbox(world, "gm-action")) == ["france@players.test",
                                                                      "marianne@players.test"]
    with transaction(world.sessions) as session:
        france = session.scalar(select(Player).where(Player.power == "FRANCE"))
        assert (france.address, france.fallback_address) == ("marianne@players.test", None)
    assert actions(world) == [("address", "marianne@players.test")]


def test_address_change_gm_only_refers_the_player_to_the_gm(database_url, clock) -> None:
    """address_change = gm_only (no profile's value: set for this game)."""
    services = services_for(database_url)
    with transaction(services.sessions) as session:
        create_game(session, GameSpec(
            name="lepanto", sender_check="from",
            ruleset=dataclasses.replace(load_ruleset("scorpion"), address_change="gm_only"),
            players=[PlayerSpec(p, player_address(p)) for p in POWERS]), clock())
    outcome, sent = player_mail(services, player_address("FRANCE"), "Address: marianne@players.test", clock())
    assert outcome == "address-refused"
    assert "In this game only the GM changes a player's address: please ask the GM." in text(sent[-1])
    with transaction(services.sessions) as session:
        assert session.scalar(select(Player.address).where(Player.power == "FRANCE")) == player_address("FRANCE")


def test_the_other_gm_actions_are_recorded_in_gm_actions_too(world, clock) -> None:
    """queries.gm_actions.record_action (release, refuse, correct, rollback, convoy rulings) writes the same table."""
    from gmserver.db.queries.gm_actions import record_action

    with transaction(world.sessions) as session:
        game_id = session.scalar(select(Game.id))
        record_action(session, game_id, "rollback", {}, "cli", clock(), "S1901M reopened")
    with transaction(world.sessions) as session:
        assert [(a.action, a.by, a.result) for a in session.scalars(select(GmAction))] == [
            ("rollback", "cli", "S1901M reopened")]


def test_an_early_adjudication_forced_by_the_gm_is_a_gm_action(database_url, clock) -> None:
    """`gmserver adjudicate` before the deadline (force) is the GM's doing: `game actions` lists
    it, once, with the turn and how long before the deadline it came (QA walkthrough)."""
    from gmserver.services.commands import gm_controls
    from gmserver.services.turn import turns

    services = services_for(database_url)
    game_id = new_game(services, clock(), movement_hours=48)
    clock.advance(hours=6)
    done = turns.adjudicate(services, game_id, clock(), expected_phase="S1901M", force=True, wait=True,
                            by="cli")
    assert done is not None and done.phase == "S1901M"
    [action] = [a for a in gm_controls.action_log(services, "lepanto") if a["action"] == "adjudicate"]
    assert action["arguments"] == {"phase": "S1901M"}
    assert action["result"] == "Spring 1901 Movement adjudicated by the GM, 1 day 18 hours before its deadline"
    # the sweep's adjudication at a deadline is no GM action
    clock.advance(hours=30)
    turns.adjudicate_due(services, clock())
    assert [a["action"] for a in gm_controls.action_log(services, "lepanto")].count("adjudicate") == 1
