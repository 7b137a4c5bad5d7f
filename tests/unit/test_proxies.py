"""Proxies (proxy_policy, proxy_precedence, proxy_cancel_notifies_holder): the pure
rules (rules/proxies.py) and intake (rules/intake.py), reasoned from the seeds:
000 II(3) "Orders submitted by proxy will not be permitted EXCEPT IN EXTREME CASES. The GM has
final ruling on allowing Proxy"; 001 II(5) "Orders submitted by proxy will not be permitted";
003 [19] "Any player may at any time write a proxy ... may cancel the proxy at any time without
notifying the player concerned"."""

from __future__ import annotations
import dataclasses
from datetime import datetime, timedelta, timezone

from gmserver.rules.envelope import parse_envelope
from gmserver.rules.intake import Accept, GameView, Reject, decide
from gmserver.rules.order import Order
from gmserver.rules.position import OrderOutcome
from gmserver.rules.proxies import (
    ProxyState, covers, orders_that_count, policy_words, read_proxy_words, request_status, sets_that_count, units_after,
    until_after,
)
from gmserver.rules.reading.sets import StoredSet
from gmserver.rules.ruleset import load_ruleset
from tests.support.world import order_mail

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
PLAYERS = {"FRANCE": ("fr@players.test", None), "ENGLAND": ("en@players.test", None)}


def test_000_II_3_a_players_proxy_waits_for_the_gms_ruling() -> None:
    mhr = load_ruleset("mhr")
    assert request_status(mhr, by_gm=False) == "requested"
    assert request_status(mhr, by_gm=True) == "active"  # "The GM has final ruling"
    assert policy_words(mhr) == "orders may be sent by proxy only where the GM allows it (house rules 000 II(3))"


def test_003_19_a_players_proxy_is_in_force_at_once() -> None:
    assert request_status(load_ruleset("scorpion"), by_gm=False) == "active"


def test_001_II_5_no_proxy_where_proxies_are_forbidden() -> None:
    danivon = load_ruleset("danivon")
    assert request_status(danivon, by_gm=False) is None and request_status(danivon, by_gm=True) is None
    assert policy_words(danivon) == "orders may not be sent by proxy (house rules 001 II(5))"


OWNER = StoredSet(orders=(Order.parse("A PAR H", "M"),), received=1)
HOLDER = StoredSet(orders=(Order.parse("A PAR - BUR", "M"),), received=2, by_proxy=True)


SCORPION = load_ruleset("scorpion")  # proxy_precedence silent -> holder_then_owner [P]


def test_003_19_holder_then_owner_the_holders_set_counts_when_both_sent() -> None:
    proxy = ProxyState("en@players.test", in_force=True)
    assert sets_that_count([OWNER, HOLDER], proxy, SCORPION) == [HOLDER]
    # "if the holder sends none, the owner's order"
    assert sets_that_count([OWNER], proxy, SCORPION) == [OWNER]


def test_proxy_precedence_holder_only_never_uses_the_owners_set() -> None:
    proxy = ProxyState("en@players.test", in_force=True)
    holder_only = dataclasses.replace(SCORPION, proxy_precedence="holder_only")
    assert sets_that_count([OWNER, HOLDER], proxy, holder_only) == [HOLDER]
    assert sets_that_count([OWNER], proxy, holder_only) == []  # the owner's set is not used: hold


def test_003_19_after_a_silent_cancellation_the_holders_set_is_not_used() -> None:
    cancelled = ProxyState("en@players.test", in_force=False)
    assert sets_that_count([OWNER, HOLDER], cancelled, SCORPION) == [OWNER]
    assert sets_that_count([OWNER, HOLDER], None, SCORPION) == [OWNER]


# 003 [19] "a proxy for one or more of his units": England holds France's A PAR only
OWNER_BOTH = StoredSet(orders=(Order.parse("A PAR H", "M"), Order.parse("A MAR - PIE", "M")), received=1)
HOLDER_BOTH = StoredSet(orders=(Order.parse("A PAR - BUR", "M"), Order.parse("A MAR - SPA", "M")), received=2,
                        by_proxy=True)
PAR_ONLY = ProxyState("en@players.test", in_force=True, units=frozenset({"PAR"}))


def test_003_19_a_proxy_for_some_units_takes_the_holders_orders_for_those_only() -> None:
    # the holder's A PAR order; the owner's A MAR order; the holder's A MAR order is not used
    assert set(orders_that_count([OWNER_BOTH, HOLDER_BOTH], PAR_ONLY, SCORPION)) == {
        Order.parse("A PAR - BUR", "M"), Order.parse("A MAR - PIE", "M")}
    # holder_then_owner: the holder gave A PAR nothing, so the owner's order stands
    assert set(orders_that_count([OWNER_BOTH], PAR_ONLY, SCORPION)) == set(OWNER_BOTH.orders)


def test_proxy_precedence_holder_only_a_proxied_unit_without_the_holders_order_has_none() -> None:
    holder_only = dataclasses.replace(SCORPION, proxy_precedence="holder_only")
    assert orders_that_count([OWNER_BOTH], PAR_ONLY, holder_only) == (Order.parse("A MAR - PIE", "M"),)


def test_003_19_a_proxy_for_a_preset_number_of_turns_covers_them_with_their_retreats_and_builds() -> None:
    # Spring 1901 is turn 1 and Fall 1901 turn 2: two turns end before the Spring 1902 moves
    assert until_after("S1901M", 2) == "W1901A"
    assert covers("W1901A", "F1901R") and covers("W1901A", "W1901A") and not covers("W1901A", "S1902M")
    assert until_after("F1901R", 1) == "W1901A"  # a retreat turn: the rest of that game turn
    assert covers(None, "F1999M")  # "indefinitely"


def test_003_19_the_words_of_a_proxy_after_its_holder() -> None:
    read = read_proxy_words(["3", "turns", "PAR", "MAR"])
    assert (read.for_turn, read.turns, read.units) == (False, 3, ("PAR", "MAR"))
    assert read_proxy_words(["turn"]).for_turn and read_proxy_words([]).turns is None


def test_003_19_a_proxy_for_a_unit_follows_it_when_it_moves() -> None:
    moved = OrderOutcome("FRANCE", Order.parse("A PAR - BUR", "M"))
    bounced = OrderOutcome("FRANCE", Order.parse("A MAR - PIE", "M"), results=("bounce",))
    assert units_after(frozenset({"PAR", "MAR"}), [moved, bounced]) == {"BUR", "MAR"}


def view(proxies: dict[str, ProxyState]) -> GameView:
    return GameView(id=1, name="lepanto", ruleset=load_ruleset("scorpion"), phase="S1901M",
                    deadline=NOW + timedelta(days=1), status="active", players=PLAYERS, proxies=proxies)


def sent(sender: str, subject: str, game: GameView, **kwargs) -> Accept | Reject:
    decision = decide(parse_envelope(order_mail(sender, subject, "A PAR H")), [game], NOW, **kwargs)
    assert isinstance(decision, (Accept, Reject))
    return decision


def test_003_19_the_holders_order_mail_for_the_proxied_power_is_taken_as_the_holders() -> None:
    game = view({"FRANCE": ProxyState("en@players.test", True)})
    decision = sent("en@players.test", "lepanto France Spring 1901", game)
    assert isinstance(decision, Accept) and decision.power == "FRANCE" and decision.by_proxy
    own = sent("en@players.test", "lepanto England Spring 1901", game)
    assert isinstance(own, Accept) and own.power == "ENGLAND" and not own.by_proxy


def test_003_19_a_holder_who_plays_no_power_may_send_the_proxied_orders_only() -> None:
    game = view({"FRANCE": ProxyState("friend@elsewhere.test", True)})
    decision = sent("friend@elsewhere.test", "lepanto France Spring 1901", game)
    assert isinstance(decision, Accept) and decision.power == "FRANCE" and decision.by_proxy
    # press, requests and votes are the player's own: the holder is a stranger for them
    other = sent("friend@elsewhere.test", "lepanto France Spring 1901", game, orders=False)
    assert isinstance(other, Reject) and other.stranger


def test_003_19_a_stranger_is_still_refused_and_a_proxy_gives_no_other_power() -> None:
    game = view({"FRANCE": ProxyState("friend@elsewhere.test", True)})
    stranger = sent("stranger@evil.test", "lepanto France Spring 1901", game)
    assert isinstance(stranger, Reject) and stranger.stranger
    england = sent("friend@elsewhere.test", "lepanto England Spring 1901", game)
    assert isinstance(england, Reject) and "names England" in england.reasons[0]


def test_without_a_proxy_the_other_players_mail_for_france_is_refused() -> None:
    decision = sent("en@players.test", "lepanto France Spring 1901", view({}))
    assert isinstance(decision, Reject) and "names France" in decision.reasons[0]
