"""Open sign-up by mail through intake: JOIN, STANDBY and OBSERVE from people who play nothing,
each answered with a Reply-To of their own at the GM; a reply to it (any words) confirms it; the
seventh confirmation starts the game; a power in civil disorder is offered to the standby player,
who takes it over by replying TAKEOVER; the observer gets the report and nothing private."""

from __future__ import annotations

import email
import email.policy

import pytest

from gmserver.db.session import transaction
from gmserver.services.features import signup
from gmserver.services.game.games import show_game
from gmserver.services.turn import turns
from tests.support.intake_rows import deliver_queued, game_row, outbox_rows, plain_text
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

PREFERENCES = ["France, England", "England", "Germany, France", "Italy", "Russia, Turkey", "France, Austria",
               "Turkey, Russia"]
SEATED = ["FRANCE", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "AUSTRIA", "TURKEY"]


def _address(index: int) -> str:
    return f"p{index + 1}@players.test"


def _ask(services, clock, sender: str, line: str, subject: str = "lepanto"):
    """The request's answer (the only mail queued) and its Reply-To."""
    clock.advance(minutes=1)
    row, queued = deliver_queued(services, order_mail(sender, subject, line), clock())
    [answer] = queued
    message = email.message_from_bytes(answer.raw, policy=email.policy.default)
    return row, answer, message["Reply-To"].addresses[0].addr_spec if message["Reply-To"] else None


def _reply(services, clock, sender: str, to: str, body: str = "yes please"):
    clock.advance(minutes=1)
    return deliver_queued(services, order_mail(sender, "Re: lepanto", body, to=to), clock())


@pytest.fixture
def announced(database_url, clock):
    services = services_for(database_url)
    with transaction(services.sessions) as session:
        signup.announce(session, signup.AnnounceSpec("lepanto"), clock())
    return services


def test_a_join_is_answered_with_the_sender_s_own_reply_address_and_confirmed_by_a_reply(announced, clock) -> None:
    row, answer, reply_to = _ask(announced, clock, _address(0), "join lepanto France, England")
    assert row.outcome == "join-asked" and answer.recipient == _address(0)
    assert reply_to.startswith("gm+") and reply_to.endswith("@gm.test")
    text = " ".join(plain_text(answer).split())
    assert "You asked to join lepanto, wanting France, then England." in text
    assert "Reply to this mail to confirm" in text
    # a reply from someone else to that address confirms nothing: it is read as any other mail
    stranger, _ = _reply(announced, clock, "mallory@players.test", reply_to)
    assert stranger.outcome != "join-confirmed"
    confirmed, [told] = _reply(announced, clock, _address(0), reply_to)
    assert confirmed.outcome == "join-confirmed"
    assert "you are number 1 in the queue of 7" in " ".join(plain_text(told).split())


def test_a_join_that_names_no_power_or_no_open_game_says_what_would_be_read(announced, clock) -> None:
    row, answer, _ = _ask(announced, clock, _address(0), "join lepanto Spain")
    text = " ".join(plain_text(answer).split())
    assert row.outcome == "signup-refused"
    assert "'Spain' is not a power" in text and "join GAME England, France, Austria" in text
    row, answer, _ = _ask(announced, clock, _address(1), "join zara any")
    assert "no game called 'zara' is open for sign-up (open: lepanto)" in " ".join(plain_text(answer).split())


def test_seven_confirmed_joins_start_the_game_a_standby_takes_over_a_power_in_civil_disorder(announced,
                                                                                           clock) -> None:
    replies = [_ask(announced, clock, _address(i), f"join lepanto {PREFERENCES[i]}")[2] for i in range(7)]
    _, _, standby_to = _ask(announced, clock, "stand@players.test", "standby lepanto")
    _, _, observe_to = _ask(announced, clock, "watch@players.test", "observe lepanto")
    _reply(announced, clock, "stand@players.test", standby_to)
    _reply(announced, clock, "watch@players.test", observe_to)
    for index, to in enumerate(replies):
        _reply(announced, clock, _address(index), to)
    summary = show_game(announced.sessions, "lepanto")
    assert {power: p["address"] for power, p in summary["players"].items()} == {
        power: _address(i) for i, power in enumerate(SEATED)}
    assert summary["standby"] == ["stand@players.test"] and summary["observers"] == ["watch@players.test"]
    assert sorted(m.recipient for m in outbox_rows(announced, "start")) == sorted(_address(i) for i in range(7))

    # nobody orders for two movement turns: under the standard profile every power is in civil
    # disorder (nmr_limit_to_cd = 2); the first to fall is offered to the player standing by
    turns.adjudicate(announced, _game_id(announced), clock(), force=True)
    clock.advance(hours=1)
    turns.adjudicate(announced, _game_id(announced), clock(), force=True)
    [offer] = outbox_rows(announced, "standby-offer")
    assert offer.recipient == "stand@players.test"
    offered = " ".join(plain_text(offer).split())
    assert "needs a new player" in offered and "reply to this mail with the word TAKEOVER" in offered
    row, queued = _reply(announced, clock, "stand@players.test", standby_to, "TAKEOVER")
    assert row.outcome == "takeover"
    power = offered.split(" needs a new player")[0].split()[-1].upper()
    assert show_game(announced.sessions, "lepanto")["players"][power]["address"] == "stand@players.test"
    assert [m.recipient for m in queued if m.kind == "start"] == ["stand@players.test"]
    # the observer got every report, and no mail that is a player's own
    observed = [m for m in outbox_rows(announced) if m.recipient == "watch@players.test"]
    assert [m.kind for m in observed] == ["signup", "signup", "report", "report"]


def _game_id(services) -> int:
    return game_row(services).id


def test_list_open_and_record_answer_anyone(announced, clock) -> None:
    row, answer, _ = _ask(announced, clock, "new@players.test", "list open", subject="games?")
    assert row.outcome == "list-open-sent"
    assert "lepanto: standard rules, 0 of 7 joined" in " ".join(plain_text(answer).split())
    row, answer, _ = _ask(announced, clock, "new@players.test", "record", subject="me")
    assert row.outcome == "record-sent" and "games played: 0" in plain_text(answer)


def test_leave_and_unobserve_are_confirmed_by_a_reply_too(announced, clock) -> None:
    _, _, join_to = _ask(announced, clock, _address(0), "join lepanto any")
    _reply(announced, clock, _address(0), join_to)
    _, _, watch_to = _ask(announced, clock, _address(1), "observe lepanto")
    _reply(announced, clock, _address(1), watch_to)
    row, answer, leave_to = _ask(announced, clock, _address(0), "leave lepanto")
    assert row.outcome == "leave-asked" and "You asked to leave lepanto." in " ".join(plain_text(answer).split())
    assert signup.list_open(announced)[0].joined == 1  # nothing changes before the reply
    _reply(announced, clock, _address(0), leave_to)
    assert signup.list_open(announced)[0].joined == 0
    _, _, stop_to = _ask(announced, clock, _address(1), "unobserve lepanto")
    row, [told] = _reply(announced, clock, _address(1), stop_to)
    assert row.outcome == "unobserve-confirmed" and "You no longer observe lepanto." in plain_text(told)
    row, answer, _ = _ask(announced, clock, _address(2), "leave lepanto")
    assert row.outcome == "signup-refused"
    assert "you have no join or standby request for lepanto to take back" in " ".join(plain_text(answer).split())


def test_a_game_that_asks_a_record_refuses_a_player_whose_record_is_below_it(database_url, clock) -> None:
    """--min-reliability 0.8: England's player of an earlier game missed its only turn (0% on
    time): the join is refused when confirmed, saying why and what they may do instead."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="zara")
    turns.adjudicate(services, game_id, clock(), force=True)
    with transaction(services.sessions) as session:
        signup.announce(session, signup.AnnounceSpec("lepanto", min_reliability=0.8, approval=True), clock())
    _, _, to = _ask(services, clock, player_address("ENGLAND"), "join lepanto any")
    row, [told] = _reply(services, clock, player_address("ENGLAND"), to)
    assert row.outcome == "join-refused"
    text = " ".join(plain_text(told).split())
    assert "lepanto asks for 80% of turns ordered on time in your games on this server; your record has 0%" in text
    assert "standby lepanto" in text
    # a player with no record is let in, and the GM is asked to approve
    _, _, to = _ask(services, clock, _address(0), "join lepanto any")
    _reply(services, clock, _address(0), to)
    notice = outbox_rows(services, "alert")[-1]
    assert f"gmserver game approve lepanto {_address(0)}" in plain_text(notice)
