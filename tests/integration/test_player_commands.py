"""The players' commands in the message's transaction, on SQLite and PostgreSQL: the start mail
lists them, HELP answers a mail that asks for nothing, a command the profile does not permit or a
line that does not fit is answered with what would have been accepted, RESIGN keeps the record
through a replacement, and a player's zone reaches their reminders."""

from __future__ import annotations

from sqlalchemy import select

from gmserver.commands.player_command import permitted
from gmserver.commands.registry import PLAYER_COMMANDS
from gmserver.db.models import Game, Player, PlayerHistory
from gmserver.db.session import transaction
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.base.gm_mail import queue_start_mails
from gmserver.services.game.games import show_game
from gmserver.services.game.players import replace_player
from gmserver.services.turn import turns
from tests.support.intake_rows import deliver, deliver_queued, outbox_rows, plain_text
from tests.support.world import order_mail, player_address


def words(text: str) -> str:
    return " ".join(text.split())


def test_the_start_mail_lists_the_commands_the_profile_permits(world, clock) -> None:
    with transaction(world.sessions) as session:
        game = session.scalar(select(Game))
        queue_start_mails(session, world, game, clock())
    start = plain_text(next(row for row in outbox_rows(world, "start") if row.recipient == player_address("FRANCE")))
    assert "COMMANDS BY MAIL" in start and "Reply to this mail" in words(start)
    for command in permitted(PLAYER_COMMANDS, load_ruleset("standard")):
        assert command.example in start and command.summary in words(start), command.name


def test_a_mail_naming_no_game_and_no_command_is_answered_with_help(world, clock) -> None:
    """The player's one game's commands, its subject line and how to reply; nothing is used."""
    row, queued = deliver_queued(world, order_mail(player_address("FRANCE"), "hello", "What do I do now?"), clock())
    assert row.outcome == "help-sent"
    [answer] = queued
    text = words(plain_text(answer))
    assert answer.recipient == player_address("FRANCE") and answer.kind == "rejection"
    assert ("Your message named no game and no command, so nothing in it was used. The commands "
            "you may use in lepanto as France.") in text
    assert "set zone Europe/Berlin" in text and "lepanto France S1901M" in text
    # orders without the game in the subject are refused as before, saying what the subject must name
    row = deliver(world, order_mail(player_address("FRANCE"), "hello", "A PAR - BUR"), clock())
    assert row.outcome == "rejected" and "does not name your game" in plain_text(outbox_rows(world)[-1])


def test_a_command_line_that_does_not_fit_says_what_would_be_read(world, clock) -> None:
    row, [answer] = deliver_queued(world, order_mail(player_address("ITALY"), "lepanto", "set confirm sometimes"),
                                   clock())
    assert row.outcome == "command-not-understood"
    text = words(plain_text(answer))
    assert "Your SET CONFIRM line was not understood: 'sometimes' is not one of full or brief." in text
    assert "Write it as: set confirm brief|full" in text and "For example: set confirm brief" in text
    with transaction(world.sessions) as session:
        assert session.scalar(select(Player.confirm_style).where(Player.power == "ITALY")) == "full"


def test_a_resigned_player_s_record_is_kept_once_when_a_new_player_takes_over(make_world, clock) -> None:
    """000 VII(6) under mhr: the power stays in civil disorder until the GM gives it to a new
    player; the record is kept at the resignation and the replacement adds no second row for it."""
    services = make_world(ruleset="mhr")
    row, queued = deliver_queued(services, order_mail(player_address("FRANCE"), "lepanto", "resign"), clock())
    assert row.outcome == "resigned"
    [notice] = [r for r in queued if r.kind == "alert"]
    assert "gmserver game replace lepanto FRANCE ADDRESS" in words(plain_text(notice))
    assert "(house rules 000 VII(6))" in words(plain_text(next(r for r in queued if r.kind == "notice")))
    with transaction(services.sessions) as session:
        game = session.scalar(select(Game))
        replace_player(session, game, "FRANCE", "new@players.test", None, clock())
    with transaction(services.sessions) as session:
        assert [h.address for h in session.scalars(select(PlayerHistory))] == [player_address("FRANCE")]
        france = session.scalar(select(Player).where(Player.power == "FRANCE"))
        assert (france.address, france.resigned_at, france.civil_disorder) == ("new@players.test", None, False)
    assert "resigned" not in show_game(services.sessions, "lepanto")["players"]["FRANCE"]
    # a second RESIGN from the address that left is no player's mail any more
    assert deliver(services, order_mail(player_address("FRANCE"), "lepanto", "resign"), clock()).outcome == "rejected"


def test_resign_in_the_first_year_under_001_V_3_suspends_the_game(make_world, clock) -> None:
    """001 V(3) ¶1: "In the first Game Year, a replacement for an abandoned position will always be
    sought, and in the meantime the game will be suspended"."""
    services = make_world(ruleset="danivon")
    row, queued = deliver_queued(services, order_mail(player_address("FRANCE"), "lepanto", "resign"), clock())
    assert "(house rules 001 V(3))" in words(plain_text(next(r for r in queued if r.kind == "notice")))
    assert "The game now waits, with no deadline" in words(plain_text(next(r for r in queued if r.kind == "alert")))
    shown = show_game(services.sessions, "lepanto")
    assert shown["deadline"] is None and "FRANCE" in shown["civil_disorder"]
    with transaction(services.sessions) as session:
        assert session.scalar(select(Game.waiting_for)) == ["FRANCE"]


def test_a_player_s_zone_reaches_their_reminder_and_no_one_else_s(world, clock) -> None:
    deliver(world, order_mail(player_address("FRANCE"), "lepanto", "set zone Asia/Tokyo"), clock())
    clock.advance(hours=24, minutes=1)
    assert turns.queue_reminders(world, clock()) > 0
    reminders = {row.recipient: plain_text(row) for row in outbox_rows(world, "reminder")}
    assert "JST (Asia/Tokyo)" in reminders[player_address("FRANCE")]
    assert "Asia/Tokyo" not in reminders[player_address("ENGLAND")]
    assert show_game(world.sessions, "lepanto")["players"]["FRANCE"]["zone"] == "Asia/Tokyo"
