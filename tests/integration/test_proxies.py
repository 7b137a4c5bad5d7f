"""Proxies on both databases (proxy_policy, proxy_precedence,
proxy_cancel_notifies_holder): a player's PROXY request by mail, the GM's ruling, the holder's
order mail, whose set is adjudicated and who is told. Expectations from the seeds: 000 II(3)
(the GM has final ruling), 001 II(5) (not permitted), 003 [19] (in force at once; "Only the GM
and the player concerned will be informed"; cancelled "without notifying the player concerned")."""

from __future__ import annotations

import itertools

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, GmAction, OutboxMessage
from gmserver.db.queries.games import ruleset_of
from gmserver.db.session import transaction
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.commands import gm_controls
from gmserver.services.game.games import GameError, show_game
from gmserver.services.game.ordersets import orders_on_file
from gmserver.services.turn import turns
from tests.support.intake_rows import deliver_queued, game_row, gm_mail
from tests.support.outgoing import body_words
from tests.support.world import new_game, order_mail, player_address, services_for


def words_of(row: OutboxMessage) -> str:
    return body_words(row.raw)


pytestmark = pytest.mark.integration
_n = itertools.count()


def world(database_url, clock, profile: str):
    services = services_for(database_url)
    new_game(services, clock(), ruleset=profile)
    return services


def send(services, sender: str, subject: str, body: str, now) -> tuple[str | None, list[OutboxMessage]]:
    """Store and process one message: its outcome and every mail queued since it arrived."""
    row, queued = deliver_queued(services, order_mail(sender, subject, body, message_id=f"<proxy-{next(_n)}@players.test>"),
                                 now)
    return row.outcome, queued


def orders_subject(profile: str, power: str) -> str:
    return format_subject(template=load_ruleset(profile).subject_template, game_name="lepanto", power=power,
                          phase="S1901M", purpose="orders")


def france_on_file(services, profile: str) -> list[str]:
    """France's orders as adjudication would take them, under the game's own ruleset (`profile`)."""
    with transaction(services.sessions) as session:
        game = session.scalar(select(Game).where(Game.name == "lepanto"))
        assert game.ruleset_name == profile
        return [str(o) for o in orders_on_file(session, game.id, game.phase, ruleset_of(game)).orders["FRANCE"]]


FR, EN = player_address("FRANCE"), player_address("ENGLAND")


def test_003_19_a_proxy_by_mail_is_in_force_at_once_and_only_the_gm_and_holder_told(database_url, clock) -> None:
    services = world(database_url, clock, "scorpion")
    outcome, queued = send(services, FR, "lepanto", "PROXY England", clock())
    assert outcome == "proxy-given"
    # 003 [19]: "Only the GM and the player concerned will be informed" (and the asker's answer)
    assert sorted(m.recipient for m in queued) == sorted([EN, FR, services.composer.gm_address])
    answer = next(m for m in queued if m.recipient == FR)
    assert "(house rules 003 [19])" in words_of(answer) and "proxy_policy" not in words_of(answer)
    with transaction(services.sessions) as session:
        assert [(a.action, a.by) for a in session.scalars(select(GmAction))] == [("proxy", FR)]
    outcome, queued = send(services, FR, "lepanto", "PROXY Germany", clock())  # one proxy at a time
    assert outcome == "proxy-refused" and "has a proxy already" in words_of(queued[0])
    # the holder's set counts over the owner's, whichever came last (holder_then_owner [P])
    assert send(services, EN, orders_subject("scorpion", "FRANCE"), "A PAR - BUR", clock())[0] == "accepted"
    assert send(services, FR, orders_subject("scorpion", "FRANCE"), "A PAR H", clock())[0] == "accepted"
    assert france_on_file(services, "scorpion") == ["A PAR - BUR"]


def test_003_19_a_silent_cancellation_keeps_taking_the_holders_sets_and_uses_the_owners(database_url, clock) -> None:
    services = world(database_url, clock, "scorpion")
    send(services, FR, "lepanto", "PROXY England", clock())
    send(services, FR, orders_subject("scorpion", "FRANCE"), "A PAR H", clock())
    outcome, queued = send(services, FR, "lepanto", "PROXY cancel", clock())
    assert outcome == "proxy-cancelled"
    # "without notifying the player concerned. (Of course, the GM must be informed)"
    assert sorted(m.recipient for m in queued) == sorted([FR, services.composer.gm_address])
    outcome, queued = send(services, EN, orders_subject("scorpion", "FRANCE"), "A PAR - PIC", clock())
    assert outcome == "accepted" and [m.kind for m in queued] == ["confirmation"]  # confirmed as before
    assert france_on_file(services, "scorpion") == ["A PAR H"]  # and simply not used
    # the GM sees it: the holder's mail is still taken, the proxy no longer in force
    assert show_game(services.sessions, "lepanto")["players"]["FRANCE"]["proxy"] == {"holder": EN, "in_force": False}


def test_000_II_3_a_proxy_request_waits_for_the_gms_final_ruling(database_url, clock) -> None:
    services = world(database_url, clock, "mhr")
    outcome, queued = send(services, FR, "lepanto", "PROXY England", clock())
    assert outcome == "proxy-requested"
    assert "(house rules 000 II(3))" in words_of(next(m for m in queued if m.recipient == FR))
    assert any(m.recipient == services.composer.gm_address and m.kind == "alert" for m in queued)
    refused, _ = send(services, EN, orders_subject("mhr", "FRANCE"), "A PAR - BUR", clock())
    assert refused != "accepted"  # not in force before the GM's ruling
    done = gm_controls.act(services, "lepanto", gm_controls.proxy_approve, "FRANCE", now=clock())
    assert done.announced == 2  # the owner and the holder
    assert send(services, EN, orders_subject("mhr", "FRANCE"), "A PAR - BUR", clock())[0] == "accepted"
    assert france_on_file(services, "mhr") == ["A PAR - BUR"]


def test_001_II_5_a_proxy_is_refused_by_mail_and_by_the_gm_where_forbidden(database_url, clock) -> None:
    services = world(database_url, clock, "danivon")
    outcome, queued = send(services, FR, "lepanto", "PROXY England", clock())
    assert outcome == "proxy-refused" and "(house rules 001 II(5))" in words_of(queued[0])
    with pytest.raises(GameError, match="may not be sent by proxy"):
        gm_controls.act(services, "lepanto", gm_controls.proxy_give, "FRANCE", "ENGLAND", now=clock())


def test_a_proxy_given_by_the_gm_for_one_turn_lets_an_outside_address_order(database_url, clock) -> None:
    services = world(database_url, clock, "mhr")
    friend = "friend@elsewhere.test"
    assert send(services, friend, orders_subject("mhr", "FRANCE"), "A PAR - BUR", clock())[0] != "accepted"
    gm_controls.act(services, "lepanto", gm_controls.proxy_give, "FRANCE", friend, True, now=clock())
    assert send(services, friend, orders_subject("mhr", "FRANCE"), "A PAR - BUR", clock())[0] == "accepted"
    gm_controls.act(services, "lepanto", gm_controls.proxy_cancel, "FRANCE", now=clock())
    with transaction(services.sessions) as session:
        assert [a.action for a in session.scalars(select(GmAction))] == ["proxy", "proxy"]


def override(services, **values) -> None:
    """The game's own ruleset with `values` changed, as a GM's override would leave it."""
    with transaction(services.sessions) as session:
        game = session.scalar(select(Game).where(Game.name == "lepanto"))
        game.ruleset = {**game.ruleset, **values}


def test_proxy_cancel_notifies_holder_true_tells_the_holder_and_refuses_their_mail_again(database_url, clock) -> None:
    services = world(database_url, clock, "scorpion")
    override(services, proxy_cancel_notifies_holder=True)  # 003 [19] says false; the GM changed it
    send(services, FR, "lepanto", "PROXY England", clock())
    outcome, queued = send(services, FR, "lepanto", "PROXY cancel", clock())
    assert outcome == "proxy-cancelled"
    assert sorted(m.recipient for m in queued) == sorted([EN, FR, services.composer.gm_address])
    assert "cancelled" in words_of(next(m for m in queued if m.recipient == EN))
    assert send(services, EN, orders_subject("scorpion", "FRANCE"), "A PAR - PIC", clock())[0] != "accepted"


def test_proxy_precedence_holder_only_the_owners_set_is_not_used(database_url, clock) -> None:
    services = world(database_url, clock, "scorpion")
    override(services, proxy_precedence="holder_only")
    send(services, FR, "lepanto", "PROXY England", clock())
    assert send(services, FR, orders_subject("scorpion", "FRANCE"), "A PAR - BUR", clock())[0] == "accepted"
    with transaction(services.sessions) as session:
        game = session.scalar(select(Game).where(Game.name == "lepanto"))
        # the holder sent nothing: France has no set that counts (its units hold)
        assert "FRANCE" not in orders_on_file(session, game.id, game.phase, ruleset_of(game)).orders


def test_000_II_3_the_gm_approves_a_proxy_request_by_mail_with_the_games_secret(database_url, clock) -> None:
    services = world(database_url, clock, "mhr")
    send(services, FR, "lepanto", "PROXY England", clock())
    row, answer = gm_mail(services, f"proxy FRANCE approve\nPassword: {game_row(services).gm_secret}", clock())
    assert row.outcome == "command-done" and "Done: england@players.test may send the orders of France" in answer
    assert send(services, EN, orders_subject("mhr", "FRANCE"), "A PAR - BUR", clock())[0] == "accepted"
    row, answer = gm_mail(services, f"proxy FRANCE nobody\nPassword: {game_row(services).gm_secret}", clock())
    assert "neither a power of lepanto nor a plain email address" in answer


def test_003_19_a_proxy_for_one_unit_by_mail_uses_the_holders_order_for_that_unit_only(database_url, clock) -> None:
    services = world(database_url, clock, "scorpion")
    outcome, queued = send(services, FR, "lepanto", "PROXY England PAR", clock())
    assert outcome == "proxy-given" and "for the units in PAR" in words_of(next(m for m in queued if m.recipient == EN))
    send(services, EN, orders_subject("scorpion", "FRANCE"), "A PAR - BUR\nA MAR - SPA", clock())
    send(services, FR, orders_subject("scorpion", "FRANCE"), "A PAR H\nA MAR - PIE\nF BRE - MAO", clock())
    assert sorted(france_on_file(services, "scorpion")) == ["A MAR - PIE", "A PAR - BUR", "F BRE - MAO"]
    outcome, queued = send(services, FR, "lepanto", "PROXY cancel", clock())
    outcome, queued = send(services, FR, "lepanto", "PROXY England KIE", clock())
    assert outcome == "proxy-refused" and "FRANCE has no unit in KIE" in words_of(queued[0])


def test_003_19_a_proxy_for_a_preset_period_lapses_when_it_ends(database_url, clock) -> None:
    services = world(database_url, clock, "scorpion")
    outcome, queued = send(services, FR, "lepanto", "PROXY England 1 turn", clock())
    assert outcome == "proxy-given" and "until the end of Spring 1901" in words_of(next(m for m in queued if m.recipient == EN))
    assert send(services, EN, orders_subject("scorpion", "FRANCE"), "A PAR - BUR", clock())[0] == "accepted"
    assert turns.adjudicate(services, 1, clock(), force=True).next_phase == "F1901M"
    fall = format_subject(template="scorpion", game_name="lepanto", power="FRANCE", phase="F1901M", purpose="orders")
    assert send(services, EN, fall, "A BUR - MUN", clock())[0] != "accepted"  # the proxy has lapsed


def test_003_19_a_proxy_for_one_unit_follows_it_to_its_new_province(database_url, clock) -> None:
    services = world(database_url, clock, "scorpion")
    send(services, FR, "lepanto", "PROXY England PAR", clock())
    send(services, EN, orders_subject("scorpion", "FRANCE"), "A PAR - BUR", clock())
    assert turns.adjudicate(services, 1, clock(), force=True).next_phase == "F1901M"
    fall = format_subject(template="scorpion", game_name="lepanto", power="FRANCE", phase="F1901M", purpose="orders")
    assert send(services, EN, fall, "A BUR - MUN\nA MAR - PIE", clock())[0] == "accepted"
    assert france_on_file(services, "scorpion") == ["A BUR - MUN"]  # the unit in BUR only, not A MAR


def test_003_19_in_an_anonymous_game_a_proxy_held_by_another_player_names_their_power_not_their_address(
        database_url, clock) -> None:
    """An anonymous game (`game create --anonymous`): France asks for England's player as its proxy
    (003 [19], in force at once); France's answer and England's notice say "England's player", and
    no mail to either carries the other's address. The GM's notice keeps the address."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="scorpion", anonymous=True)
    outcome, queued = send(services, FR, "lepanto", "PROXY England", clock())
    assert outcome == "proxy-given"
    told = {m.recipient: words_of(m) for m in queued}
    assert "England's player may send the orders of France" in told[FR]
    assert "England's player may send the orders of France" in told[EN]
    assert EN not in told[FR] and FR not in told[EN]
    assert f"{EN} may send the orders of France" in told[services.composer.gm_address]
    assert send(services, EN, orders_subject("scorpion", "FRANCE"), "A PAR - BUR", clock())[0] == "accepted"
    outcome, queued = send(services, FR, "lepanto", "PROXY cancel", clock())
    assert outcome == "proxy-cancelled" and EN not in " ".join(words_of(m) for m in queued if m.recipient == FR)
