"""A player's reply address (gm+SECRET@...) names the game and power that an empty subject does
not, where the profile's subject rule allows it (QA walkthrough, danivon), on both databases."""

from __future__ import annotations

import email
import email.policy

import pytest
from sqlalchemy import select

from gmserver.db.models import InboundMessage, OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.features.held import HELD
from gmserver.services.inbox import runner as intake
from tests.support.intake_rows import player_reply_address
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

GERMANY = player_address("GERMANY")
ORDERS = "A BER - KIE\nA MUN - RUH\nF KIE - DEN\n"


def play(database_url, clock, ruleset: str, subject: str = "", *, to_reply_address: bool = True):
    """(outcome, the body of the one answer) for Germany's orders under `subject`."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset=ruleset)
    to = player_reply_address(services, "GERMANY") if to_reply_address else services.composer.gm_address
    intake.store(services.sessions, order_mail(GERMANY, subject, ORDERS, to=to), source="smtp", now=clock())
    [(_, outcome)] = intake.process_pending(services, clock())
    with transaction(services.sessions) as session:
        answers = [row for row in session.scalars(select(OutboxMessage).order_by(OutboxMessage.id))
                   if row.recipient == GERMANY]
        power = session.scalar(select(InboundMessage.power))
    text = " ".join(email.message_from_bytes(answers[0].raw, policy=email.policy.default)
                    .get_body(("plain",)).get_content().split()) if answers else ""
    return outcome, power, text


def test_an_empty_subject_to_the_reply_address_is_the_players_set_where_the_body_may_name_the_game(
        database_url, clock) -> None:
    """email_rules (002, silent: subject_or_body, game alone required): the address names lepanto
    and Germany, so the set is filed as Germany's."""
    outcome, power, text = play(database_url, clock, "email_rules")
    assert (outcome, power) == ("accepted", "GERMANY")
    assert "does not name your game" not in text


def test_danivon_001_II_4_an_empty_subject_to_the_reply_address_is_held_for_the_gm_not_refused(
        database_url, clock) -> None:
    """001 II(4): the subject must follow the template, but the GM may accept other sets
    (hold_for_gm). The address names the game and power, so the set is held for the GM, and the
    player is told the subject is asked for whatever the address."""
    outcome, power, text = play(database_url, clock, "danivon")
    assert (outcome, power) == (HELD, "GERMANY")
    assert "does not name your game" not in text
    assert "went to your own reply address for lepanto (Germany)" in text
    assert "in the Subject line itself, whatever the address" in text


def test_mhr_000_II_2_b_an_empty_subject_to_the_reply_address_is_refused_saying_why(database_url, clock) -> None:
    """000 II(2) b: "in the Subject line", and II(2) c: nonconforming sets are refused. The refusal
    no longer says the subject does not name the game as if the game were unknown: it says the
    address was understood, and that the rule asks for the subject anyway."""
    outcome, power, text = play(database_url, clock, "mhr")
    assert (outcome, power) == ("rejected", "GERMANY")
    assert "does not name your game" not in text
    assert "went to your own reply address for lepanto (Germany)" in text
    assert "house rules 000 II(2) b" in text


def test_an_empty_subject_to_the_gm_address_itself_is_still_refused(database_url, clock) -> None:
    outcome, _, text = play(database_url, clock, "email_rules", to_reply_address=False)
    assert outcome == "rejected"
    assert "does not name your game, lepanto" in text
