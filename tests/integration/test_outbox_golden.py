"""Every mail a short game sends, byte for byte: two confirmations, the refusal of a stranger,
the reminders and each player's copy of the first turn's report are compared with
tests/data/outbox/golden.txt, written from the code that sent them before the services were
regrouped. A move of code that changes one byte of what a player receives fails here.

The only randomness in these bytes is the players' secrets and the Message-IDs (both from the OS's
randomness): the test fixes both (`secrets.token_bytes` and `uuid.uuid4` count up from zero). The
one thing normalised is where the checkout is (with_boundaries_numbered). Set
GMSERVER_WRITE_GOLDEN=1 to write the file again (after a deliberate change of what is sent: say so
in the commit)."""

from __future__ import annotations

import itertools
import os
import re
import secrets
import uuid
from pathlib import Path

import pytest

from gmserver.rules.subject import format_subject
from gmserver.services.turn import turns
from gmserver.services.game.games import POWERS
from gmserver.services.base.outbox import deliver_due
from tests.support.intake_rows import deliver, outbox_rows, player_reply_address
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "outbox" / "golden.txt"


class Recording:
    def __init__(self) -> None:
        self.handed: list[tuple[str, bytes]] = []

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        self.handed.append((recipient, raw))
        return "ok"

    def close(self) -> None:
        pass


@pytest.fixture()
def fixed_randomness(monkeypatch):
    counter = itertools.count(1)
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=next(counter)))
    secret_counter = itertools.count(1)
    monkeypatch.setattr(secrets, "token_bytes", lambda n=32: next(secret_counter).to_bytes(n, "big"))


def sent_mail(database_url: str, clock) -> bytes:
    services = services_for(database_url)
    new_game(services, clock(), sender_check="verified")
    transport = Recording()
    deliver_due(services.sessions, transport, clock())
    subject = format_subject(template="standard", game_name="lepanto", power="FRANCE", phase="S1901M", purpose="orders")
    to = player_reply_address(services, "FRANCE")
    body = "A PAR-BUR\nF BRE-MAO\nA MAR-SPA\n"
    clock.advance(minutes=10)
    deliver(services, order_mail(player_address("FRANCE"), subject, body, message_id="<one@players.test>", to=to,
                                 headers={"References": "<zero@players.test>"}), clock())
    clock.advance(minutes=10)
    deliver(services, order_mail(player_address("FRANCE"), f"Re: {subject}", body,
                                 message_id="<two@players.test>", to=to), clock())
    clock.advance(minutes=10)
    deliver(services, order_mail("stranger@elsewhere.test", "orders", "A PAR-BUR\n",
                                 message_id="<three@elsewhere.test>"), clock())
    deliver_due(services.sessions, transport, clock())
    clock.advance(hours=30)  # past the reminder
    assert turns.queue_reminders(services, clock()) > 0
    deliver_due(services.sessions, transport, clock())
    clock.advance(hours=18)  # the deadline
    turns.adjudicate_due(services, clock())
    deliver_due(services.sessions, transport, clock())
    assert len(outbox_rows(services)) == len(transport.handed)
    kinds = [row.kind for row in outbox_rows(services)]
    assert {"confirmation", "stranger-refusal", "reminder"} <= set(kinds), kinds
    assert kinds.count("confirmation") == 2
    assert sum(1 for row in outbox_rows(services) if row.kind == "report") == len(POWERS)
    return b"".join(b"==== %s\n%s\n" % (recipient.encode(), raw) for recipient, raw in transport.handed)


def test_every_mail_a_short_game_sends_is_byte_identical_to_the_golden_copy(
        database_url, clock, fixed_randomness) -> None:
    written = sent_mail(database_url, clock)
    if os.environ.get("GMSERVER_WRITE_GOLDEN"):
        GOLDEN.write_bytes(written)
    assert with_boundaries_numbered(written) == with_boundaries_numbered(GOLDEN.read_bytes())


def with_boundaries_numbered(raw: bytes) -> bytes:
    """A report's MIME boundaries are derived from its stored payload, which names the templates
    directory of the checkout the test runs in (/work/main, a worktree, an installed package):
    each distinct digest becomes its number, so that the same bytes from another checkout compare
    equal. Nothing else is normalised."""
    digests: dict[bytes, int] = {}
    return re.sub(rb"=_gm(\d+)_([0-9a-f]{16,})", lambda m: b"=_gm%s_%d" % (
        m.group(1), digests.setdefault(m.group(2), len(digests))), raw)
