"""The report says what was ordered and why it was not used, where a line of the set could not be
used and the server put something else in its place (QA walkthrough, mhr), on both databases."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.position import Position
from gmserver.rules.subject import format_subject
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from gmserver.services.base.outbox import message_bytes
from tests.support.outgoing import body_words as body_of
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def _play(database_url, clock, position: Position, body: str) -> str:
    """France's `body` for the phase of `position` under mhr, adjudicated: France's report."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="mhr", position=position)
    subject = format_subject(template="mhr", game_name="lepanto", power="FRANCE", phase=position.phase,
                             purpose="orders")
    intake.store(services.sessions, order_mail(player_address("FRANCE"), subject, body), source="smtp", now=clock())
    assert intake.process_pending(services, clock())[-1][1] == "accepted"
    clock.advance(hours=49)
    [done] = turns.adjudicate_due(services, clock())
    assert done.phase == position.phase
    with transaction(services.sessions) as session:
        row = session.scalar(select(OutboxMessage).where(OutboxMessage.kind == "report",
                                                         OutboxMessage.recipient == player_address("FRANCE")))
        return body_of(message_bytes(row))


def test_an_impossible_support_is_reported_as_ordered_and_why_it_was_not_used(database_url, clock) -> None:
    """A fleet cannot support into inland Burgundy: the reader put a hold in its place, and the
    report says so beside the hold rather than only "holds: succeeded"."""
    position = Position.from_json({"phase": "F1901M", "units": {"FRANCE": ["F BEL", "A BUR"]},
                                   "centers": {"FRANCE": ["BRE", "MAR", "PAR"]}})
    text = _play(database_url, clock, position, "F BEL S A BUR\nA BUR H\n")
    assert ("(ordered: F BEL S A BUR; not possible: F BEL cannot support A BUR: it could not move to "
            "Burgundy itself") in text


def test_builds_that_cannot_be_made_are_named_with_the_reason(database_url, clock) -> None:
    """Belgium is no French home centre, and Paris is inland: neither build is made, and the
    report's "2 builds not used" says what was ordered and why."""
    position = Position.from_json({"phase": "W1901A", "units": {"FRANCE": ["A BUR", "A GAS"]},
                                   "centers": {"FRANCE": ["BEL", "BRE", "MAR", "PAR"]}})
    text = _play(database_url, clock, position, "BUILD A BEL\nBUILD F PAR\n")
    assert ("France: 2 builds not used (ordered: BUILD A BEL; not possible: Belgium is not one of your home "
            "supply centres; ordered: BUILD F PAR; not possible: A fleet cannot be built in inland Paris") in text
