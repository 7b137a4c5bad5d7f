"""Press under 002 (email_rules) on a real database (SQLite and PostgreSQL): press from non-players
(002 PRESS 2), the GM's spelling edits (002 PRESS 1, 3), press conditional on other press
(002 PRESS 4) and the retreat season held for press (002 PRESS 7)."""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from gmserver.db.models import Game, InboundMessage, OrderSet, OutboxMessage, Press
from gmserver.db.session import transaction
from gmserver.services import intake, turns
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

OUTSIDER = "kibitzer@elsewhere.test"


def send(services, raw: bytes, now) -> InboundMessage:
    row_id = intake.store(services.sessions, raw, source="smtp", now=now).id
    intake.process_one(services, row_id, now)
    with transaction(services.sessions) as session:
        row = session.get(InboundMessage, row_id)
        session.expunge(row)
        return row


def outbox(services, kind: str | None = None) -> list[OutboxMessage]:
    with transaction(services.sessions) as session:
        rows = list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
        for row in rows:
            session.expunge(row)
    return [row for row in rows if kind is None or row.kind == kind]


def text(row: OutboxMessage) -> str:
    body = email.message_from_bytes(row.raw, policy=email.policy.default).get_body(("plain",))
    return body.get_content().replace("\r\n", "\n")


def words(row: OutboxMessage) -> str:
    return " ".join(text(row).split())


def press_rows(services) -> list[tuple[str, str, str]]:
    with transaction(services.sessions) as session:
        return [(p.author, p.kind, p.status) for p in session.scalars(select(Press).order_by(Press.id))]


def set_options(services, game_id: int, **values) -> None:
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        session.execute(update(Game).where(Game.id == game_id).values(ruleset={**game.ruleset, **values}))


# --- 002 PRESS 2: press from non-players ----------------------------------------------------------

def test_002_press_2_a_non_player_sends_press_published_without_a_name(database_url, clock) -> None:
    """002 PRESS 2 "Anyone (including non-players) may send press from other sources": a stranger's
    unsigned press is grey press, kept for the report and published as anonymous; the stranger is
    answered once (the limits on answering strangers)."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    row = send(services, order_mail(OUTSIDER, "lepanto", "PRESS\nThe gnomes are watching.\nEND PRESS"), clock())
    assert row.outcome == "press-filed"
    assert press_rows(services) == [("NON-PLAYER", "grey", "report")]
    [answer] = outbox(services, "stranger-notice")
    assert answer.recipient == OUTSIDER
    assert "You play no power in this game" in words(answer) and "(house rules 002 PRESS 2)" in words(answer)
    turns.adjudicate(services, game_id, clock(), force=True)
    report = text(outbox(services, "report")[0])
    assert report.index("Anonymous") < report.index("The gnomes are watching.")
    assert "kibitzer" not in report and "NON-PLAYER" not in report


def test_002_press_2_a_non_player_may_not_sign_as_a_power_nor_as_zurich(database_url, clock) -> None:
    """002 PRESS 2: only current and eliminated players may sign as one of the seven powers, and
    nobody but the GM as "Zurich" (002 PRESS 6); a free label ("The Oracle") is taken."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    body = ("PRESS FROM England\nI am England.\nEND PRESS\n\nPRESS FROM Zurich\nI am the GM.\nEND PRESS\n\n"
            "PRESS FROM The Oracle\nBeware the ides.\nEND PRESS")
    send(services, order_mail(OUTSIDER, "lepanto", body), clock())
    assert press_rows(services) == [("NON-PLAYER", "black", "refused"), ("NON-PLAYER", "grey", "refused"),
                                    ("NON-PLAYER", "grey", "report")]
    told = words(outbox(services, "stranger-notice")[0])
    assert ("the signature \"England\" is reserved for the game's current and eliminated players "
            "(house rules 002 PRESS 2)") in told
    assert "the signature \"Zurich\" is reserved for the GM (house rules 002 PRESS 6)" in told


def test_002_press_2_orders_from_a_non_player_are_refused_and_its_press_kept(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(OUTSIDER, "lepanto", "A PAR - BUR\n\nPRESS\nOn to Burgundy!\nEND PRESS"), clock())
    with transaction(services.sessions) as session:
        assert list(session.scalars(select(OrderSet))) == []
    assert press_rows(services) == [("NON-PLAYER", "grey", "report")]
    assert "The orders in your message were not used: you play no power in this game." in words(
        outbox(services, "stranger-notice")[0])


def test_002_press_2_non_player_press_is_answered_once_a_day_and_capped_per_turn(database_url, clock) -> None:
    """The intake's protections stand: a stranger is answered once a day, and a flood (forged
    senders) publishes at most NON_PLAYER_PRESS_PER_TURN (5) items a turn."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    for n in range(4):
        send(services, order_mail(OUTSIDER, "lepanto", f"PRESS\nSpam {n}.\nEND PRESS"), clock())
    for n in range(3):
        send(services, order_mail(f"forged{n}@elsewhere.test", "lepanto", f"PRESS\nMore {n}.\nEND PRESS"), clock())
    statuses = [status for _, _, status in press_rows(services)]
    assert statuses == ["report"] * 5 + ["refused"] * 2
    assert [m.recipient for m in outbox(services, "stranger-notice")] == [
        OUTSIDER, "forged0@elsewhere.test", "forged1@elsewhere.test", "forged2@elsewhere.test"]


def test_002_press_2_a_player_of_the_game_still_signs_as_a_power(database_url, clock) -> None:
    """002 PRESS 2: a current player may send black press signed as another power."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(player_address("GERMANY"), "lepanto", "PRESS FROM France\nVive moi.\nEND PRESS"),
         clock())
    assert press_rows(services) == [("GERMANY", "black", "report")]


def test_without_press_from_non_players_a_stranger_is_refused(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    set_options(services, game_id, press_from_non_players=False)
    row = send(services, order_mail(OUTSIDER, "lepanto", "PRESS\nHello.\nEND PRESS"), clock())
    assert row.outcome == "rejected"
    assert press_rows(services) == [] and len(outbox(services, "stranger-refusal")) == 1


# --- 002 PRESS 7: the retreat season is held even with nothing to retreat -----------------------

def game_row(services, game_id: int) -> tuple[str, object]:
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        return game.phase, game.deadline


def test_002_press_7_a_retreat_season_with_nothing_to_retreat_is_held_for_press(database_url, clock) -> None:
    """002 PRESS 7 "Press will be allowed for the retreat season, even if there are no retreats that
    season": the opening moves dislodge nobody, yet Spring 1901 Retreats is a turn of its own, with
    the retreat turn's length (24 hours in new_game) and its own report, which publishes the press
    sent in it; then the game goes on to Fall 1901."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    now = clock()
    spring_deadline = game_row(services, game_id)[1]
    turns.adjudicate(services, game_id, now, force=True)  # every unit holds: nobody is dislodged
    phase, deadline = game_row(services, game_id)
    assert phase == "S1901R"
    # the schedule runs from the spring deadline (issue 8), the retreat turn's 24 hours after it
    assert deadline is not None and deadline - spring_deadline == timedelta(hours=24)
    first_report = words(outbox(services, "report")[0])
    assert "Spring 1901 Retreat" in first_report
    send(services, order_mail(player_address("ITALY"), "lepanto", "PRESS\nA quiet spring.\nEND PRESS"), now)
    turns.adjudicate(services, game_id, now, force=True)
    assert game_row(services, game_id)[0] == "F1901M"
    reports = outbox(services, "report")
    assert len(reports) == 14  # seven players, two turns
    assert "A quiet spring." in text(reports[-1]) and "A quiet spring." not in text(reports[0])


def test_without_report_empty_retreat_season_the_empty_retreat_turn_is_skipped(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    set_options(services, game_id, report_empty_retreat_season=False)
    turns.adjudicate(services, game_id, clock(), force=True)
    assert game_row(services, game_id)[0] == "F1901M"
