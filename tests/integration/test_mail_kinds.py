"""Each kind of mail reaches its own handler and gets its plain answer (gmserver.services.inbox.handlers),
on a real database (SQLite and PostgreSQL): the row records the kind, nothing is dropped, and the
limits on replies still hold."""

from __future__ import annotations

import dataclasses
import email
import email.policy
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from gmserver.rules.reading.quoting import GM_MAIL_START  # every mail opens with it
from gmserver.db.models import Game, InboundMessage, OrderSet, OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.subject import format_subject
from gmserver.services.inbox import runner as intake
from gmserver.services.inbox.handlers import notice
from tests.support.intake_rows import deliver, outbox_rows
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def subject(power: str, game: str = "lepanto") -> str:
    return format_subject(template="standard", game_name=game, power=power, phase="S1901M", purpose="orders")


def send(services, raw: bytes, now) -> tuple[InboundMessage, list[OutboxMessage]]:
    """Store and process one message; its row and every outgoing mail."""
    return deliver(services, raw, now), outbox_rows(services)


def body(row: OutboxMessage) -> str:
    message = email.message_from_bytes(row.raw, policy=email.policy.default)
    return " ".join(message.get_body(("plain",)).get_content().split())


def sets(services) -> list[OrderSet]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(OrderSet)))


def test_press_is_queued_for_the_report_and_its_author_told(world, clock) -> None:
    raw = order_mail(player_address("ENGLAND"), "lepanto", "PRESS\nFrance is not to be trusted.\nEND PRESS")
    row, sent = send(world, raw, clock())
    assert (row.kind, row.outcome) == ("press", "press-filed")
    assert [(m.kind, m.recipient) for m in sent] == [("notice", player_address("ENGLAND"))]
    assert "White press will be published signed England with the turn report, to every power." in body(sent[0])
    assert sets(world) == []  # press replaces no orders


def test_orders_with_press_file_the_orders_and_send_the_press(world, clock) -> None:
    raw = order_mail(player_address("ENGLAND"), subject("ENGLAND"), "F LON - NTH\n\nPRESS\nHello all.\nEND PRESS")
    row, sent = send(world, raw, clock())
    assert (row.kind, row.outcome) == ("orders+press", "accepted")
    assert [s.orders for s in sets(world)] == [["F LON - NTH"]]
    assert [m.kind for m in sent] == ["confirmation"]
    assert "White press will be published signed England with the turn report" in body(sent[0])
    assert "North Sea" in body(sent[0])


def test_orders_are_filed_as_before(world, clock) -> None:
    row, sent = send(world, order_mail(player_address("FRANCE"), subject("FRANCE"), "A PAR - BUR"), clock())
    assert (row.kind, row.outcome) == ("orders", "accepted")
    assert [m.kind for m in sent] == ["confirmation"] and "press" not in body(sent[0]).lower()


def test_a_status_request_is_answered_with_the_turn_and_needs_only_the_game_in_the_subject(world, clock) -> None:
    # "lepanto" alone would be refused as an order set's subject (no season, year or power)
    row, sent = send(world, order_mail(player_address("ITALY"), "lepanto", "STATUS"), clock())
    assert (row.kind, row.outcome, row.power) == ("request", "status-sent", "ITALY")
    text = body(sent[0])
    assert "The status of lepanto." in text
    assert "lepanto, Spring 1901 Movement, deadline" in text
    assert sets(world) == []


def test_a_delay_request_says_the_rest_was_not_read_as_orders(world, clock) -> None:
    raw = order_mail(player_address("ITALY"), "lepanto", "DELAY: travelling\nA VEN H")
    row, sent = send(world, raw, clock())
    # standard: delay_policy = gm_decides, the request goes to the GM (tests/integration/test_delays.py)
    assert (row.kind, row.outcome) == ("request", "delay-to-gm")
    answer = next(m for m in sent if m.kind == "notice")
    assert "Your request was passed on to the GM" in body(answer)
    assert "the rest of the message was not read as orders" in body(answer)
    assert sets(world) == []


def test_a_draw_vote_is_recorded_and_a_vote_the_rules_do_not_have_is_answered_so(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    new_game(services, clock(), name="vienna", ruleset="email_rules")  # 002 DRAWS: draws only
    row, sent = send(services, order_mail(player_address("AUSTRIA"), "lepanto", "DRAW Austria Russia"), clock())
    assert (row.kind, row.outcome) == ("vote", "vote-recorded")
    answer = next(m for m in sent if m.kind == "notice")
    assert "You have proposed a draw between Austria and Russia, and your vote for it is" in body(answer)
    row, sent = send(services, order_mail(player_address("AUSTRIA"), "vienna", "Concede to Russia"), clock())
    assert (row.kind, row.outcome) == ("vote", "vote-refused")
    assert "This game's house rules have no concession votes (they have: draw)" in body(sent[-1])


def test_mail_from_the_gm_is_a_command_never_orders_nor_a_strangers_mail(world, clock) -> None:
    row, sent = send(world, order_mail(GM, "lepanto", "PROCESS"), clock())
    assert (row.kind, row.outcome, row.power) == ("command", "command-held", None)
    assert [(m.kind, m.recipient, m.game_id) for m in sent] == [("notice", GM, 1)]
    text = body(sent[0])
    assert "Not done: not carried out by mail yet; the command line does it: gmserver adjudicate lepanto" in text
    # order lines from the GM are a command too: before kinds they were a stranger's orders
    row, sent = send(world, order_mail(GM, subject("FRANCE"), "A PAR - BUR"), clock())
    assert (row.kind, row.outcome) == ("command", "command-held") and sets(world) == []
    assert "IGNORED (not commands) > A PAR - BUR" in body(sent[-1])
    assert "No command was found. The first word of a line names the command: actions, address, audit, cd, clarify, convoy, correct, deadline" in body(sent[-1])


def test_the_gms_other_addresses_send_commands(database_url, clock) -> None:
    services = dataclasses.replace(services_for(database_url), gm_addresses=("Garry@Home.test",))
    new_game(services, clock())
    row, sent = send(services, order_mail("garry@home.test", "lepanto", "extend lepanto 24"), clock())
    assert (row.kind, row.outcome) == ("command", "command-refused")  # no GM secret
    assert [m.recipient for m in sent] == ["garry@home.test"]
    with transaction(services.sessions) as session:
        game = session.scalar(select(Game))
        secret, deadline = game.gm_secret, game.deadline
    row, sent = send(services, order_mail("garry@home.test", "lepanto", f"extend lepanto 24\nPassword: {secret}",
                                                date=clock()),
                     clock())
    assert (row.kind, row.outcome) == ("command", "command-done")
    with transaction(services.sessions) as session:
        assert session.scalar(select(Game.deadline)) == deadline + timedelta(hours=24)


def test_two_things_in_one_message_are_not_understood(world, clock) -> None:
    row, sent = send(world, order_mail(player_address("TURKEY"), "lepanto status", "DRAW"), clock())
    assert (row.kind, row.outcome) == ("unknown", "not-understood")
    assert "Your message was not understood, so nothing in it was used" in body(sent[0])
    assert "asks for more than one thing (draw, status)" in body(sent[0])


def test_answers_are_limited_and_every_message_is_kept(world, clock) -> None:
    now = clock()
    for number in range(notice.NOTICES_PER_HOUR + 2):
        row, sent = send(world, order_mail(player_address("RUSSIA"), "lepanto", f"STATUS {number}"), now)
        assert (row.kind, row.outcome) == ("request", "status-sent")
    assert len(sent) == notice.NOTICES_PER_HOUR
    with transaction(world.sessions) as session:
        kinds = list(session.scalars(select(InboundMessage.kind)))
    assert kinds == ["request"] * (notice.NOTICES_PER_HOUR + 2)


def test_automated_mail_and_strangers_get_no_kind_and_the_usual_answer(world, clock) -> None:
    raw = order_mail(player_address("RUSSIA"), "lepanto", "STATUS", headers={"Auto-Submitted": "auto-replied"})
    row, sent = send(world, raw, clock())
    assert (row.kind, row.outcome, sent) == (None, "ignored", [])
    row, sent = send(world, order_mail("someone@elsewhere.test", "lepanto", "PRESS\nhello"), clock())
    assert (row.kind, row.outcome) == (None, "rejected")
    assert [m.kind for m in sent] == ["stranger-refusal"]


def test_a_game_name_with_an_accent_is_found_from_a_subject_without_it(database_url, clock) -> None:
    """services.inbox.runner._game_views looked for the subject's words in the game's name without
    dropping accents, so "Zurich" never found "Zürich" (and a finished game's player was answered
    as a stranger); subject.name_words is now the one word function of both matchers."""
    services = services_for(database_url)
    new_game(services, clock(), name="Zürich")
    with transaction(services.sessions) as session:
        session.execute(update(Game).values(status="finished"))
    row, sent = send(services, order_mail(player_address("FRANCE"), "Zurich France S1901M", "A PAR H"), clock())
    assert row.outcome == "rejected"
    assert [m.kind for m in sent] == ["rejection"] and "Zürich is over" in body(sent[0])


def test_the_gm_lists_mail_by_kind(tmp_path, capsys, clock) -> None:
    from gmserver.cli import main

    url = f"sqlite:///{tmp_path / 'gm.db'}"
    config = tmp_path / "gmserver.toml"
    config.write_text(f'[database]\nurl = "{url}"\n[gm]\naddress = "{GM}"\ncommand_addresses = ["garry@home.test"]\n')
    assert main(["--config", str(config), "db", "upgrade"]) == 0
    services = services_for(url)
    new_game(services, clock())
    send(services, order_mail(player_address("ENGLAND"), "lepanto", "PRESS\nhello"), clock())
    send(services, order_mail(player_address("FRANCE"), subject("FRANCE"), "A PAR - BUR"), clock())
    capsys.readouterr()

    assert main(["--config", str(config), "inbox", "list", "--kind", "press"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and "press-filed" in lines[0] and " press " in lines[0]
    assert "from england@players.test: lepanto" in lines[0]
    assert main(["--config", str(config), "inbox", "list"]) == 0
    assert [line.split()[2:4] for line in capsys.readouterr().out.splitlines()] == [
        ["press-filed", "press"], ["accepted", "orders"]]
    # the GM reads the press that was kept
    assert main(["--config", str(config), "inbox", "show", "1"]) == 0
    shown = capsys.readouterr().out
    assert "message 1: done, press-filed, kind press" in shown and "PRESS\nhello" in shown
    assert main(["--config", str(config), "inbox", "show", "99"]) != 0


def test_press_with_a_note_but_no_orders_keeps_the_set_on_file_and_says_the_press_was_kept(world, clock) -> None:
    send(world, order_mail(player_address("ENGLAND"), subject("ENGLAND"), "F LON - NTH"), clock())
    raw = order_mail(player_address("ENGLAND"), subject("ENGLAND"), "Hello all,\n\nPRESS\nPeace in our time.")
    row, sent = send(world, raw, clock())
    assert (row.kind, row.outcome) == ("orders+press", "unchanged")
    assert [s.version for s in sets(world)] == [1]
    assert sent[-1].kind == "orders-unchanged"
    assert body(sent[-1]).removeprefix(GM_MAIL_START + " ").startswith("White press will be published signed England with the turn report")
