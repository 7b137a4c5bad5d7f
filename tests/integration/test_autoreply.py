"""Automated and hostile mail through the service layer, on SQLite and PostgreSQL: auto-replies,
messages with no orders, confirmation and refusal limits, bounces, re-sends, strangers."""

from __future__ import annotations

import email
import email.policy

import pytest
from sqlalchemy import func, select

from gmserver.db.models import InboundMessage, OrderSet, OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.reading.sets import effective_orders
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.game.ordersets import stored_sets
from gmserver.services.inbox import runner as intake
from tests.support.intake_rows import player_reply_address, without_headers
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

GERMANY = player_address("GERMANY")
SUBJECT = "lepanto Germany S1901M"
ORDERS = "A BER - KIE\nA MUN - RUH\nF KIE - DEN\n"


def send(world, clock, raw: bytes, **kwargs) -> str | None:
    intake.store(world.sessions, raw, source=kwargs.pop("source", "smtp"), now=clock(), **kwargs)
    outcomes = [outcome for _, outcome in intake.process_pending(world, clock())]
    return outcomes[-1] if outcomes else None


def outbox(world, kind: str | None = None) -> list[OutboxMessage]:
    with transaction(world.sessions) as session:
        query = select(OutboxMessage).order_by(OutboxMessage.id)
        return list(session.scalars(query.where(OutboxMessage.kind == kind) if kind else query))


def body(row: OutboxMessage) -> str:
    return " ".join(email.message_from_bytes(row.raw, policy=email.policy.default).get_body(("plain",)).get_content().split())


def germany_on_file(world) -> tuple[int, tuple[str, ...]]:
    """(how many sets Germany has, the orders they add up to)."""
    with transaction(world.sessions) as session:
        sets = stored_sets(session, 1, "S1901M").get("GERMANY", [])
        return len(sets), tuple(sorted(str(o) for o in effective_orders(sets, load_ruleset("standard"))))


def reply_to(row: OutboxMessage, subject: str, text: str) -> bytes:
    """What an autoresponder sends back to one of our messages."""
    our_id = email.message_from_bytes(row.raw, policy=email.policy.default)["Message-ID"]
    return order_mail(GERMANY, subject, text, headers={"In-Reply-To": our_id, "References": our_id})


# ---------------------------------------------------------------------------------------------
# Hole 2: a vacation reply loops for ever and wipes the orders


def test_an_out_of_office_reply_is_never_answered_and_wipes_nothing(world, clock) -> None:
    """The reproducer: "Out of Office: Re: lepanto Germany S1901M" with no Auto-Submitted, from the
    player's own address, answering each confirmation (187 confirmations in 45 s, orders v187 = [])."""
    assert send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS)) == "accepted"
    for _ in range(20):
        [last] = outbox(world)[-1:]
        outcome = send(world, clock, reply_to(last, f"Out of Office: {email.message_from_bytes(last.raw)['Subject']}",
                                              "I am out of the office until Monday.\n\nHans"))
        assert outcome == "ignored"
        clock.advance(seconds=2)
    assert len(outbox(world)) == 1
    assert germany_on_file(world) == (1, ("A BER - KIE", "A MUN - RUH", "F KIE - DEN"))


@pytest.mark.parametrize("headers", [
    {"X-Autoreply": "yes"}, {"X-Autorespond": "yes"},
    {"Precedence": "auto_reply"}, {"Return-Path": "<>"},
], ids=lambda headers: next(iter(headers)))
def test_autoresponder_headers_are_never_answered(world, clock, headers) -> None:
    assert send(world, clock, order_mail(GERMANY, SUBJECT, "Away until Monday.", headers=headers)) == "ignored"
    assert outbox(world) == []


def test_an_automatic_reply_to_our_own_message_id_is_never_answered(world, clock) -> None:
    """Outlook's "Automatic reply: <subject>", when the subject it answers had no "Re:" (a turn report)."""
    send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS))
    [confirmation] = outbox(world)
    assert send(world, clock, reply_to(confirmation, "Automatic reply: lepanto report", "Away.")) == "ignored"
    assert len(outbox(world)) == 1


def test_a_message_with_no_orders_leaves_the_set_on_file_and_says_so(world, clock) -> None:
    """An auto-reply that marks itself nowhere still must not replace a set with orders (the
    safety net): nothing is stored, the player is told the set on file stands."""
    send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS))
    clock.advance(minutes=5)
    assert send(world, clock, order_mail(GERMANY, SUBJECT, "I am away until Monday.\n\nHans\n")) == "unchanged"
    assert germany_on_file(world) == (1, ("A BER - KIE", "A MUN - RUH", "F KIE - DEN"))
    [reply] = outbox(world, "orders-unchanged")
    text = body(reply)
    assert "Your message had no orders in it, so the orders you sent before stand: set version 1" in text
    assert "A Berlin -> Kiel (A BER - KIE)" in text
    assert ("reply to this mail with this line alone: no orders and at the deadline, units without an order hold"
            in text)
    with transaction(world.sessions) as session:
        row = session.scalar(select(InboundMessage).order_by(InboundMessage.id.desc()))
        assert (row.status, row.outcome, row.power) == ("done", "unchanged", "GERMANY")


def test_an_empty_message_does_not_replace_the_set_either(world, clock) -> None:
    send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS))
    assert send(world, clock, order_mail(GERMANY, SUBJECT, "")) == "unchanged"
    assert germany_on_file(world)[1] == ("A BER - KIE", "A MUN - RUH", "F KIE - DEN")


@pytest.mark.parametrize("line", ["No orders.", "all units hold", "Cancel my orders"])
def test_an_explicit_withdrawal_still_empties_the_set(world, clock, line) -> None:
    send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS))
    assert send(world, clock, order_mail(GERMANY, SUBJECT, f"Dear GM,\n\n{line}\n\nHans\n")) == "accepted"
    assert germany_on_file(world) == (2, ())
    text = body(outbox(world, "confirmation")[-1])
    assert "You withdrew your orders: none are on file now." in text
    assert "some lines could not be used" not in text


def test_a_real_replacement_with_orders_still_replaces(world, clock) -> None:
    send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS))
    assert send(world, clock, order_mail(GERMANY, SUBJECT, "A BER H\n")) == "accepted"
    assert germany_on_file(world) == (2, ("A BER H",))


def test_a_first_message_with_no_orders_is_filed_as_before(world, clock) -> None:
    """Nothing on file to protect: the empty set is stored and confirmed as it always was."""
    assert send(world, clock, order_mail(GERMANY, SUBJECT, "Hello GM")) == "accepted"
    assert germany_on_file(world) == (1, ())


def test_under_merge_per_unit_a_withdrawal_says_the_orders_stand(database_url, clock) -> None:
    """000 III(4) (merge_per_unit): a set changes only the units it orders; the reply says so."""
    world = services_for(database_url)
    new_game(world, clock(), ruleset="mhr")
    from gmserver.rules.subject import format_subject

    subject = format_subject(template="mhr", game_name="lepanto", power="GERMANY", phase="S1901M", purpose="orders")
    send(world, clock, order_mail(GERMANY, subject + " [1]", ORDERS))
    assert send(world, clock, order_mail(GERMANY, subject + " [2]", "no orders")) == "accepted"
    assert "the orders below stand" in body(outbox(world, "confirmation")[-1])


def test_confirmations_are_rate_limited_but_every_set_is_filed(world, clock) -> None:
    total = intake.CONFIRMATIONS_PER_HOUR + 3
    for n in range(total):
        send(world, clock, order_mail(GERMANY, SUBJECT, "A BER H\n" if n % 2 else ORDERS))
        clock.advance(minutes=1)
    assert len(outbox(world, "confirmation")) == intake.CONFIRMATIONS_PER_HOUR
    assert germany_on_file(world)[0] == total
    clock.advance(hours=1)
    assert send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS)) == "accepted"
    assert len(outbox(world, "confirmation")) == intake.CONFIRMATIONS_PER_HOUR + 1


def test_a_new_phase_starts_a_new_count_of_confirmations(world, clock) -> None:
    """Short turns (the demo adjudicates every 15 s) confirm a set or two per phase: the limit,
    meant for loops within a phase, must not silence them."""
    from gmserver.services.turn import turns

    for _ in range(intake.CONFIRMATIONS_PER_HOUR):
        send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS))
    assert send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS)) == "accepted"
    assert len(outbox(world, "confirmation")) == intake.CONFIRMATIONS_PER_HOUR
    clock.advance(seconds=1)
    assert turns.adjudicate(world, 1, clock(), force=True, expected_phase="S1901M") is not None
    clock.advance(seconds=1)
    assert send(world, clock, order_mail(GERMANY, "lepanto Germany F1901M", ORDERS)) == "accepted"
    assert len(outbox(world, "confirmation")) == intake.CONFIRMATIONS_PER_HOUR + 1


# ---------------------------------------------------------------------------------------------
# Hole 5: a corrected re-send with the same Message-ID and body


def test_a_corrected_resend_with_the_same_message_id_and_body_is_a_new_message(world, clock) -> None:
    wrong = order_mail(GERMANY, "lepanto Germany F1901M", ORDERS, message_id="<same@players.test>")
    fixed = order_mail(GERMANY, SUBJECT, ORDERS, message_id="<same@players.test>")
    assert send(world, clock, wrong) == "rejected"  # the wrong season
    stored = intake.store(world.sessions, fixed, source="smtp", now=clock())
    assert not stored.duplicate
    assert [outcome for _, outcome in intake.process_pending(world, clock())] == ["accepted"]
    assert germany_on_file(world)[0] == 1


def test_the_same_message_along_two_paths_is_stored_once(world, clock) -> None:
    raw = order_mail(GERMANY, SUBJECT, ORDERS, message_id="<paths@players.test>")
    transported = (b"Return-Path: <germany@players.test>\r\nDelivered-To: gm@gm.test\r\n"
                   b"Received: from mx2.gm.test by imap.gm.test; Mon, 23 Nov 2026 12:00:00 +0000\r\n"
                   b"X-Original-To: gm@gm.test\r\n" + raw.replace(b"\n", b"\r\n"))
    first = intake.store(world.sessions, raw, source="imap", now=clock())
    again = intake.store(world.sessions, transported, source="smtp", now=clock())
    assert again.duplicate and again.id == first.id


# ---------------------------------------------------------------------------------------------
# Hole 6: a stranger learns the names of other games


def test_a_stranger_naming_several_games_learns_none_of_their_names(database_url, clock) -> None:
    world = services_for(database_url)
    for name in ("lepanto", "secretgame", "hidden-alpha"):
        new_game(world, clock(), name=name)
    assert send(world, clock, order_mail("stranger@evil.test", "lepanto secretgame hidden-alpha orders",
                                         ORDERS)) == "rejected"
    [refusal] = outbox(world)
    raw = refusal.raw.decode("utf-8", "replace").lower()
    assert not any(name in raw.replace("lepanto secretgame hidden-alpha orders", "") for name in
                   ("lepanto", "secretgame", "hidden-alpha"))
    assert "not registered as a player in any game run here" in body(refusal)


def test_a_refusal_to_a_stranger_reads_the_same_whether_the_game_exists(database_url, clock) -> None:
    world = services_for(database_url)
    new_game(world, clock(), name="hidden-alpha")
    send(world, clock, order_mail("one@evil.test", "hidden-alpha Germany S1901M", ORDERS))
    send(world, clock, order_mail("two@evil.test", "made-up Germany S1901M", ORDERS))
    first, second = (body(row).replace("one@evil.test", "X").replace("hidden-alpha", "NAME")
                     for row in outbox(world))
    assert first == second.replace("two@evil.test", "X").replace("made-up", "NAME")


# ---------------------------------------------------------------------------------------------
# Hole 7: refusals per address only; a bounce answered


def test_forged_strangers_share_one_cap_on_refusals(world, clock) -> None:
    """12 forged senders got 12 refusals: now all strangers together get STRANGER_REFUSALS_PER_HOUR."""
    cap = intake.STRANGER_REFUSALS_PER_HOUR
    outcomes = [send(world, clock, order_mail(f"forged{n}@victim{n}.test", SUBJECT, ORDERS)) for n in range(cap + 4)]
    assert outcomes == ["rejected"] * cap + ["ignored"] * 4
    assert len(outbox(world, "stranger-refusal")) == cap
    # players are not held back by strangers
    assert send(world, clock, order_mail(GERMANY, "my orders", ORDERS)) == "rejected"
    clock.advance(hours=1, minutes=1)
    assert send(world, clock, order_mail("forged-later@victim.test", SUBJECT, ORDERS)) == "rejected"


def test_a_bounce_with_the_null_envelope_sender_is_never_answered(world, clock) -> None:
    """MAIL FROM:<> (kept by the listener as envelope_from ""), even when the headers name a sender."""
    raw = order_mail("stranger@elsewhere.test", "Undelivered: lepanto", "The message could not be delivered.")
    assert send(world, clock, raw, envelope_from="", envelope_to=["gm@gm.test"]) == "ignored"
    assert send(world, clock, order_mail(GERMANY, SUBJECT, "I am away", message_id="<b2@players.test>"),
                envelope_from="") == "ignored"
    assert outbox(world) == []
    with transaction(world.sessions) as session:
        assert session.scalar(select(func.count(OrderSet.id))) == 0
        row = session.scalar(select(InboundMessage).order_by(InboundMessage.id))
        assert (row.envelope_from, row.envelope_to) == ("", ["gm@gm.test"])


def test_a_message_with_no_orders_keeps_the_contingent_lines_of_the_moves(database_url, clock) -> None:
    """contingent_minor_orders (000 II(5)): the build sent with the Fall moves is used in the
    Winter unless a Winter set replaces it; a Winter message with no orders is no such set."""
    from gmserver import engine
    from gmserver.db.models import PhaseRecord
    from gmserver.rules.position import Position
    from gmserver.rules.subject import format_subject
    from gmserver.services.turn import turns

    world = services_for(database_url)
    new_game(world, clock(), name="contingent", ruleset="mhr", position=Position.from_json({
        "phase": "F1901M", "units": {"FRANCE": ["A GAS", "A MAR", "F MAO"], "GERMANY": ["A MUN"]},
        "centers": {"FRANCE": ["BRE", "MAR", "PAR"], "GERMANY": ["BER", "KIE", "MUN"]}}))
    france = player_address("FRANCE")

    def subject(phase: str) -> str:
        return format_subject(template="mhr", game_name="contingent", power="FRANCE", phase=phase, purpose="orders")

    assert send(world, clock, order_mail(france, subject("F1901M"), "A Gas - Spa\nIf I gain a centre: Build A Par")) \
        == "accepted"
    clock.advance(hours=48)
    assert [done.next_phase for done in turns.adjudicate_due(world, clock())] == ["W1901A"]
    assert send(world, clock, order_mail(france, subject("W1901A"), "I am away until Monday.")) == "unchanged"
    assert "If I gain a centre: Build A Par" in " ".join(body(outbox(world, "orders-unchanged")[-1]).split())
    clock.advance(hours=24)
    assert [done.next_phase for done in turns.adjudicate_due(world, clock())] == ["S1902M"]
    with transaction(world.sessions) as session:
        spring = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == "S1902M"))
        assert "A PAR" in engine.position_from_state(spring.state).units["FRANCE"]


def germany_reply_address(world) -> str:
    return player_reply_address(world, "GERMANY")


@pytest.mark.parametrize("subject", [
    "Out of Office: lepanto Germany S1901M", "Automatic reply: lepanto report", "Abwesenheitsnotiz: Urlaub",
    "Autoreply", "Abwesenheitsnotiz", "Réponse automatique : absent",
])
def test_an_auto_reply_subject_sent_to_a_players_reply_address_is_never_answered(world, clock, subject) -> None:
    """Mail to gm+SECRET@... answers the GM's mail by construction, with or without In-Reply-To:
    an auto-reply subject there is an autoresponder (RFC 3834 section 2), and it neither gets a
    refusal (a mail loop) nor touches the orders on file."""
    send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS))
    before = len(outbox(world))
    to = germany_reply_address(world)
    assert send(world, clock, order_mail(GERMANY, subject, "I am out of the office until Monday.", to=to)) == "ignored"
    assert len(outbox(world)) == before
    assert germany_on_file(world) == (1, ("A BER - KIE", "A MUN - RUH", "F KIE - DEN"))


def test_without_a_message_id_the_same_body_to_two_reply_addresses_is_two_messages(world, clock) -> None:
    """Nothing lost (QA): a player's mail program that writes no Message-ID sent the same empty-
    subject body to two games' reply addresses; the second was taken for the first arriving again
    and vanished. Without a Message-ID the addressees tell two messages apart; the same message
    arriving twice is still stored once."""
    def without_message_id(to: str) -> bytes:
        return without_headers(order_mail(GERMANY, "", ORDERS, to=to), b"Message-ID:")

    first = intake.store(world.sessions, without_message_id("gm+alpha1@gm.test"), source="smtp", now=clock())
    second = intake.store(world.sessions, without_message_id("gm+beta22@gm.test"), source="smtp", now=clock())
    again = intake.store(world.sessions, without_message_id("gm+beta22@gm.test"), source="imap", now=clock())
    assert not first.duplicate and not second.duplicate and second.id != first.id
    assert again.duplicate and again.id == second.id


@pytest.mark.parametrize(("subject", "headers"), [
    (SUBJECT, {"X-Auto-Response-Suppress": "All"}),
    (SUBJECT, {"X-Auto-Response-Suppress": "DR, RN, NRN, OOF, AutoReply"}),
    (SUBJECT, {"X-MS-Exchange-Inbox-Rules-Loop": GERMANY}),
    ("Absence: lepanto Germany S1901M", {}),
    ("Auto: lepanto Germany S1901M", {}),
], ids=["suppress all", "suppress list", "inbox rules loop", "absence", "auto"])
def test_outlook_headers_or_a_personal_subject_do_not_drop_a_players_orders(world, clock, subject, headers) -> None:
    """Outlook and Exchange put X-Auto-Response-Suppress (and, through an inbox rule,
    X-MS-Exchange-Inbox-Rules-Loop) on ordinary mail: they ask others not to auto-reply, they do
    not make the mail automated. The player's orders to the reply address, with such a header or a
    subject "Absence: ..." or "Auto: ...", are filed and confirmed, not ignored in silence."""
    to = germany_reply_address(world)
    assert send(world, clock, order_mail(GERMANY, subject, ORDERS, headers=headers, to=to)) == "accepted"
    assert germany_on_file(world) == (1, ("A BER - KIE", "A MUN - RUH", "F KIE - DEN"))
    assert [row.recipient for row in outbox(world, "confirmation")] == [GERMANY]


@pytest.mark.parametrize("headers", [{"X-Auto-Response-Suppress": "All"},
                                     {"X-MS-Exchange-Inbox-Rules-Loop": GERMANY}], ids=["suppress", "rules loop"])
def test_outlook_headers_on_mail_to_the_gm_address_do_not_drop_a_players_orders(world, clock, headers) -> None:
    """The same headers on orders sent to the GM's own address (a game whose senders are checked by
    From): filed and confirmed, never ignored in silence."""
    assert send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS, headers=headers)) == "accepted"
    assert germany_on_file(world) == (1, ("A BER - KIE", "A MUN - RUH", "F KIE - DEN"))
    assert [row.recipient for row in outbox(world, "confirmation")] == [GERMANY]


def test_an_out_of_office_with_outlook_headers_to_the_reply_address_is_still_never_answered(world, clock) -> None:
    """What still marks it: Outlook's own automatic reply says so in its subject (or Auto-Submitted)."""
    send(world, clock, order_mail(GERMANY, SUBJECT, ORDERS))
    before = len(outbox(world))
    to = germany_reply_address(world)
    for subject, headers in (("Automatic reply: lepanto report", {"X-Auto-Response-Suppress": "All"}),
                             ("Auto: Re: lepanto Germany S1901M", {"X-Auto-Response-Suppress": "All"}),
                             (SUBJECT, {"Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All"})):
        assert send(world, clock, order_mail(GERMANY, subject, "A BER H\nAway until Monday.", headers=headers,
                                             to=to)) == "ignored"
    assert len(outbox(world)) == before
    assert germany_on_file(world) == (1, ("A BER - KIE", "A MUN - RUH", "F KIE - DEN"))


def test_a_player_writing_absence_to_the_reply_address_is_answered(world, clock) -> None:
    """"Absence" alone is a subject a person writes (a player announcing a holiday): to the reply
    address it is answered like any mail of the player's, not taken for an autoresponder; its
    first line "Away from 3 to 10 May" is the ABSENCE command, so the days are registered."""
    to = germany_reply_address(world)
    assert send(world, clock, order_mail(GERMANY, "Absence", "Away from 3 to 10 May.", to=to)) == "absence-registered"
    assert [row.recipient for row in outbox(world, "notice")] == [GERMANY]
