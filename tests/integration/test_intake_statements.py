"""What a proven order mail costs the database, counted (a figure the host does not move): the SQL
statements intake runs for it on each database (docs/performance.md, "Intake's CPU a mail"). A
change that adds one to every order mail shows here first."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event, select

from gmserver.db.models import Game, Proxy
from gmserver.db.session import transaction
from gmserver.rules.subject import format_subject
from gmserver.services.base.context import Services
from gmserver.services.inbox import runner as intake
from tests.support.intake_rows import player_reply_address
from tests.support.world import OPENINGS, order_mail, player_address

pytestmark = pytest.mark.integration

# BEGIN IMMEDIATE is a statement of its own on SQLite (db/session.make_engine); the claim and the
# work each begin one. Counted for the second mail, the first having warmed the caches.
STATEMENTS_A_PROVEN_MAIL = {"sqlite": 16, "postgresql": 14}


@contextmanager
def statements(services: Services) -> Iterator[list[str]]:
    """The SQL text of each statement the services' engine runs meanwhile."""
    run: list[str] = []
    engine = services.sessions.kw["bind"]

    def note(_connection, _cursor, statement, *_args) -> None:
        run.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield run
    finally:
        event.remove(engine, "before_cursor_execute", note)


def proven_orders(services: Services, power: str, now) -> int:
    """A stored order mail from `power`, sent to its reply address in the verified game lepanto."""
    subject = format_subject(template="standard", game_name="lepanto", power=power, phase="S1901M", purpose="orders")
    raw = order_mail(player_address(power), subject, OPENINGS[power], to=player_reply_address(services, power))
    return intake.store(services.sessions, raw, source="smtp", now=now).id


def test_a_proven_order_mail_runs_its_statements_and_reads_no_proxies_where_the_game_has_none(
        make_world, clock) -> None:
    services = make_world(sender_check="verified")
    dialect = services.sessions.kw["bind"].dialect.name
    assert intake.process_one(services, proven_orders(services, "ENGLAND", clock()), clock()) == "accepted"
    second = proven_orders(services, "FRANCE", clock())
    with statements(services) as run:
        assert intake.process_one(services, second, clock()) == "accepted"
    assert not [statement for statement in run if statement.startswith("SELECT proxies.")]
    assert len(run) == STATEMENTS_A_PROVEN_MAIL[dialect], "\n".join(run)


def test_a_game_with_a_proxy_row_has_its_proxies_read_for_each_mail(make_world, clock) -> None:
    services = make_world(sender_check="verified")
    with transaction(services.sessions) as session:
        session.add(Proxy(game_id=session.scalar(select(Game.id).where(Game.name == "lepanto")), power="ITALY", holder="someone@else.test", status="refused",
                          requested_by="italy@players.test", requested_at=clock()))
    with statements(services) as run:
        assert intake.process_one(services, proven_orders(services, "FRANCE", clock()), clock()) == "accepted"
    assert len([statement for statement in run if statement.startswith("SELECT proxies.")]) == 1
