"""Requests by mail: STATUS, HISTORY, MAP, RULES and ORDERS answered from the game's
records, by reply (threaded), to the asking player only, through the outbox, under the notice
limit; on SQLite and PostgreSQL. Expected words are the seeds' and the standard opening's."""

from __future__ import annotations

import email
import email.policy
import io
import itertools
import re

import pytest
from PIL import Image
from sqlalchemy import select, update

from gmserver import mapboard, mapimage
from gmserver.db.models import Game, InboundMessage, OutboxMessage, Player
from gmserver.db.session import transaction
from gmserver.engine import initial_state, position_from_state
from gmserver.rules.subject import format_subject
from gmserver.services.inbox.handlers import notice
from gmserver.services.turn import turns
from tests.support.intake_rows import deliver, outbox_rows, player_reply_address
from tests.support.outgoing import body_words
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

# A section number of the option catalogue ("2.5", "2.10") standing alone; a version ("v2.1") or a
# DATC case ("6.B.9") is not one.
BARE_SECTION_NUMBER = re.compile(r"(?<![\w.])\d+\.\d+(?!\w|\.\w)")


def orders_subject(power: str, phase: str = "S1901M", game: str = "lepanto") -> str:
    return format_subject(template="standard", game_name=game, power=power, phase=phase, purpose="orders")


def send(services, raw: bytes, now) -> tuple[InboundMessage, list[OutboxMessage]]:
    """Store and process one message; its row and the mail it queued."""
    row = deliver(services, raw, now)
    return row, [m for m in outbox_rows(services) if m.dedupe_key == f"notice:{row.id}"]


def parsed(row: OutboxMessage) -> email.message.EmailMessage:
    return email.message_from_bytes(row.raw, policy=email.policy.default)


def text(row: OutboxMessage) -> str:
    """The answer's words, whatever the line breaks."""
    return body_words(row.raw)


_asked = itertools.count()


def ask(services, power: str, body: str, now, subject: str = "lepanto") -> tuple[InboundMessage, OutboxMessage]:
    message_id = f"<ask-{body.split()[0]}-{next(_asked)}@players.test>"
    row, sent = send(services, order_mail(player_address(power), subject, body, message_id=message_id), now)
    assert len(sent) == 1, "one answer per request"
    return row, sent[0]


def test_status_names_who_has_ordered_never_what_and_the_askers_own_standing(world, clock) -> None:
    now = clock()
    send(world, order_mail(player_address("FRANCE"), orders_subject("FRANCE"), "A PAR - BUR"), now)
    with transaction(world.sessions) as session:
        session.execute(update(Game).values(timezone="Australia/Sydney"))
        session.execute(update(Player).where(Player.power == "ITALY").values(missed_in_a_row=1, missed_turns=2))
    row, answer = ask(world, "ITALY", "STATUS", now)
    assert (row.kind, row.outcome) == ("request", "status-sent")
    body = text(answer)
    assert "Phase: Spring 1901 Movement (S1901M)" in body
    # 48 hours after 22 November 2026 12:00 UTC, shown in the game's zone first (AEDT is UTC+11)
    assert "Deadline: Tuesday 24 November 2026, 23:00 AEDT (Australia/Sydney) = Tuesday 24 November 2026, 12:00 UTC" \
        in body
    assert "Orders received from: France." in body
    assert "Orders awaited from: Austria, England, Germany, Italy, Russia, Turkey." in body
    assert "BUR" not in body and "Burgundy" not in body  # who, never what
    assert "You missed the last 1 turn in a row." in body and "Turns missed in all: 2." in body


def test_every_answer_is_a_threaded_reply_to_the_player_only(world, clock) -> None:
    row, answer = ask(world, "ENGLAND", "MAP", clock())
    message = parsed(answer)
    assert answer.recipient == player_address("ENGLAND") and message["To"] == player_address("ENGLAND")
    assert message["In-Reply-To"] == row.message_id and row.message_id in message["References"]
    assert message["Subject"] == "Re: lepanto" and answer.kind == notice.KIND


def test_map_is_the_position_in_text_with_the_board_as_a_png(world, clock) -> None:
    row, answer = ask(world, "ENGLAND", "MAP", clock())
    assert row.outcome == "map-sent"
    body = text(answer)
    assert "The position in lepanto, Spring 1901 Movement: the map is attached." in body
    # the standard opening: England's three units and home centres
    assert "Units (3): F Edinburgh (EDI), F London (LON), A Liverpool (LVP)" in body
    assert "Centres (3): Edinburgh (EDI), London (LON), Liverpool (LVP)" in body
    assert "Units (4): A Moscow (MOS), F Sevastopol (SEV), F St Petersburg (south coast, STP/SC), A Warsaw (WAR)" \
        in body
    # the standard map's 34 centres less the 22 home centres
    assert "Neutral centres (12) Belgium (BEL), Bulgaria (BUL), Denmark (DEN), Greece (GRE), Holland (HOL)" in body


def test_history_gives_each_adjudicated_phase_with_orders_and_results_or_the_one_named(world, clock) -> None:
    now = clock()
    row, answer = ask(world, "GERMANY", "HISTORY", now)
    assert row.outcome == "history-sent" and "lepanto has no adjudicated phase yet." in text(answer)
    send(world, order_mail(player_address("FRANCE"), orders_subject("FRANCE"), "A PAR - BUR\nA MAR - BUR"), now)
    turns.adjudicate(world, 1, now, force=True)
    _, answer = ask(world, "GERMANY", "HISTORY", now.replace(minute=5))
    body = text(answer)
    assert "The history of lepanto: 1 adjudicated phase, with every order and its result." in body
    assert "Spring 1901 Movement (S1901M)" in body
    # France's two moves to Burgundy bounce; a unit without an order holds
    assert "A Paris -> Burgundy (A PAR - BUR): bounced" in body
    assert "A Marseilles -> Burgundy (A MAR - BUR): bounced" in body
    assert "A Berlin holds (A BER H): no order received" in body
    _, answer = ask(world, "GERMANY", "HISTORY F1901", now.replace(minute=10))
    assert "lepanto has no adjudicated phase 'F1901'." in text(answer)


def test_rules_are_the_house_rules_in_words_never_option_keys(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), name="vienna", ruleset="scorpion")
    row, answer = ask(services, "AUSTRIA", "RULES", clock(), subject="vienna")
    assert row.outcome == "rules-sent"
    body = text(answer)
    assert "The house rules of vienna" in body
    # 003's subject template: the game in capitals, the power, the turn
    assert "Your subject line for orders this turn VIENNA - AUSTRIA - s1901" in body
    # 003 [4]: the fallback address (briefing's key point, clause after)
    assert "the fallback address is never published (003 [4])" in body
    for key in ("sender_policy", "nmr_movement", "delay_policy", "subject_location", "_"):
        assert key not in body.replace("Test GM", "")


def test_rules_say_where_the_server_departs_in_a_player_s_words(database_url, clock) -> None:
    """001 I(2) names Gibson's 1989 rulebook, which gmserver does not follow: a danivon player's
    RULES answer says so in plain words, without the catalogue's "this option" or a bare section
    number such as "2.5" that means nothing to a player."""
    services = services_for(database_url)
    new_game(services, clock(), name="armada", ruleset="danivon")
    _, answer = ask(services, "ITALY", "RULES", clock(), subject="armada")
    body = text(answer)
    assert ("Where this server departs from them - Orders are adjudicated by the 2000 rulebook, whichever "
            "rulebook the house rules name") in body
    assert not BARE_SECTION_NUMBER.search(body) and "this option" not in body


def test_orders_shows_the_askers_own_set_on_file_and_nobody_elses(world, clock) -> None:
    now = clock()
    send(world, order_mail(player_address("FRANCE"), orders_subject("FRANCE"), "A PAR - BUR\nF BRE - MAO"), now)
    send(world, order_mail(player_address("GERMANY"), orders_subject("GERMANY"), "A MUN - RUH"), now)
    row, answer = ask(world, "FRANCE", "ORDERS", now)
    assert row.outcome == "orders-sent"
    body = text(answer)
    assert "A Paris -> Burgundy (A PAR - BUR)" in body and "F Brest -> Mid-Atlantic Ocean (F BRE - MAO)" in body
    assert "A Marseilles (MAR)" in body  # still without an order
    assert "MUN" not in body and "Munich" not in body
    _, answer = ask(world, "ITALY", "ORDERS", now)
    assert "No orders of Italy are on file for Spring 1901 Movement in lepanto" in text(answer)


def test_orders_heading_an_order_set_is_still_an_order_set(world, clock) -> None:
    row, _ = send(world, order_mail(player_address("FRANCE"), orders_subject("FRANCE"), "Orders:\nA PAR - BUR"),
                  clock())
    assert (row.kind, row.outcome) == ("orders", "accepted")


def test_a_player_in_two_games_naming_neither_is_told_each_subject_line(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    new_game(services, clock(), name="vienna")
    row, answer = ask(services, "TURKEY", "STATUS", clock(), subject="what is going on")
    assert (row.kind, row.outcome) == ("request", "request-which-game")
    body = text(answer)
    assert f"lepanto: {orders_subject('TURKEY')}" in body and f"vienna: {orders_subject('TURKEY', game='vienna')}" \
        in body
    assert answer.recipient == player_address("TURKEY")


def test_a_request_to_a_game_s_reply_address_is_answered_for_that_game(database_url, clock) -> None:
    """A player in two games replies STATUS to the GM's mail of one of them: the message goes to
    that game's reply address (gm+TOKEN@...), which names the game and power as a subject does. It
    was answered as naming no game; it is answered for the game the address names, under any
    subject and whatever that game's house rules ask of an order set's subject (mhr: 000 II(2) b)."""
    services = services_for(database_url)
    new_game(services, clock())
    new_game(services, clock(), name="vienna", ruleset="mhr")
    for game, subject in (("vienna", "Re: what is going on"), ("lepanto", "status")):
        row, sent = send(services, order_mail(player_address("TURKEY"), subject, "STATUS",
                                              to=player_reply_address(services, "TURKEY", game=game)), clock())
        assert (row.kind, row.outcome) == ("request", "status-sent") and len(sent) == 1
        assert f"The status of {game}." in text(sent[0])


def test_request_answers_are_rate_limited_like_every_reply(world, clock) -> None:
    now = clock()
    for _number in range(notice.NOTICES_PER_HOUR + 1):
        row, sent = send(world, order_mail(player_address("RUSSIA"), "lepanto", "HISTORY"), now)
        assert row.outcome == "history-sent"
    assert sent == []  # past the limit: kept, not answered


def test_map_attaches_the_board_as_it_stands(world, clock) -> None:
    """The MAP answer's PNG is the report map's board (gmserver/mapimage.py) with the units where
    they stand: England's fleet in London is drawn in England's colour."""
    _, answer = ask(world, "ENGLAND", "MAP", clock())
    message = parsed(answer)
    parts = [(part.get_content_type(), part.get_filename()) for part in message.iter_attachments()]
    assert parts == [("image/png", "lepanto-S1901M.png")]
    image = Image.open(io.BytesIO(next(message.iter_attachments()).get_content()))
    image.load()
    assert image.size == mapboard.board().image.size
    [london] = [point for power, unit, point in mapimage.unit_points(opening()) if unit == "F LON"]
    blank = mapboard.board().image.convert("RGB").getpixel((round(london[0]), round(london[1])))
    assert image.convert("RGB").getpixel((round(london[0]), round(london[1]))) != blank


def opening():
    return position_from_state(initial_state())


def test_history_and_status_are_answered_after_the_game_has_ended_and_orders_are_refused(world, clock) -> None:
    """a finished game's history is still asked for; what would change the game (orders,
    a delay) is refused with the reason: the game has ended."""
    now = clock()
    send(world, order_mail(player_address("FRANCE"), orders_subject("FRANCE"), "A PAR - BUR"), now)
    with transaction(world.sessions) as session:
        game_id = session.scalar(select(Game.id))
    turns.adjudicate(world, game_id, now, force=True)
    with transaction(world.sessions) as session:
        session.execute(update(Game).values(status="finished"))
    row, answer = ask(world, "ITALY", "HISTORY", now)
    assert (row.kind, row.outcome) == ("request", "history-sent")
    assert "A Paris -> Burgundy" in text(answer)
    row, answer = ask(world, "ITALY", "STATUS", now)
    assert row.outcome == "status-sent"
    for sender, subject, body in (("ITALY", "lepanto", "DELAY 24"),
                                  ("FRANCE", orders_subject("FRANCE", "F1901M"), "A BUR H")):
        row, _ = send(world, order_mail(player_address(sender), subject, body), now)
        assert row.outcome == "rejected"
        with transaction(world.sessions) as session:
            reply = session.scalar(select(OutboxMessage).where(OutboxMessage.dedupe_key == f"reject:{row.id}"))
            assert "the game has ended" in text(reply)
