"""A house-rule change voted by mail (000 IX(3)) over a real IMAP inbox (Dovecot) and a
real SMTP relay, on SQLite and PostgreSQL.

One `mhr` game from the standard opening (000 IX(3): "The GM and all players remaining in the
game must agree to any rule change unanimously, other than players who specifically advise the
GM that they wish to abstain"; IX(4): nothing revealed):
- Spring 1901: Austria proposes a change in words; every power is mailed the proposal with the
  line to vote by; England, France, Germany, Italy and Russia vote Yes by its number, Turkey
  abstains (left out of the count), and the GM votes Yes by mail with the game's GM password.
- At the deadline the change passes with the adjudication (never instead of it): the report says
  so and that the GM applies it, and the GM is told to apply it. No mail but Turkey's own answer
  says Turkey abstained.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from gmserver.config import ImapConfig, SmtpRelayConfig
from gmserver.mail.outbound import SmtpTransport
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.base import outbox
from gmserver.services.game.games import POWERS, GameSpec, PlayerSpec, open_game
from tests.support.mail_game import Run, Table
from tests.support.outgoing import ADJECTIVES, plain
from tests.support.world import services_for

pytestmark = pytest.mark.e2e

GAME = "lepanto"
CHANGE = "press may be sent in retreat seasons"
PASSED = (f'A change of the house rules: "{CHANGE}" passed. The GM will now apply the change (house rules '
          "000 IX(3)): the server cannot change a rule written in words by itself")


def test_rule_change_000_ix_3_by_mail_with_the_gms_vote(database_url, dovecot, smtp_relay, clock) -> None:
    table = Table(dovecot)
    clock.now = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)
    services = dataclasses.replace(services_for(database_url, gm_address=table.server),
                                   gm_addresses=(table.gm,), alerts_to=table.gm)
    run = Run(table, services, clock, SmtpTransport(SmtpRelayConfig(host=smtp_relay.host, port=smtp_relay.port)),
              ImapConfig(host=dovecot.host, port=dovecot.imap_port, tls="none", user=table.server,
                         password="secret", idle=False, poll_seconds=2), "mhr", GAME)
    run.game_id, _ = open_game(services.sessions, GameSpec(
        name=GAME, ruleset=load_ruleset("mhr"), players=[PlayerSpec(p, table.players[p]) for p in POWERS],
        movement=timedelta(hours=72), retreat=timedelta(hours=24), adjustment=timedelta(hours=24),
        reminder=timedelta(0), sender_check="from"), clock(), services=services)
    outbox.deliver_due(services.sessions, run.transport, clock())

    table.send(table.players["AUSTRIA"], GAME, f"RULE CHANGE: {CHANGE}")
    run.poll()
    proposals = {power: [m for m in table.inbox(address) if str(m["Subject"]) == f"[{GAME}] S01: proposal"]
                 for power, address in table.players.items()}
    assert all(len(found) == 1 and "RULE CHANGE 1" in plain(found[0]) for found in proposals.values())
    assert "it passes only if the GM agrees as well (house rules 000 IX(3))" in plain(proposals["ITALY"][0])
    for power in ("ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"):
        table.send(table.players[power], GAME, "RULE CHANGE 1 YES")
    table.send(table.players["TURKEY"], GAME, "RULE CHANGE 1 ABSTAIN")
    run.gm_mail(f"vote {GAME} 1 yes")
    run.poll()
    assert run.to_deadline() == "F1901M"  # a rule change never replaces the adjudication

    for power, address in table.players.items():
        mails = table.inbox(address)
        [report] = [m for m in mails if str(m["Subject"]) == f"[{GAME}] S01: {ADJECTIVES[power]} results"]
        assert PASSED in plain(report), power
        abstained = [m for m in mails if "abstention" in plain(m) and "recorded" in plain(m)]
        assert len(abstained) == (1 if power == "TURKEY" else 0), power  # nobody's vote is revealed
    gm_subjects = [str(m["Subject"]) for m in table.inbox(table.gm)]
    assert f"gmserver: {GAME}: proposal 1: a change of the house rules: \"{CHANGE}\"" in gm_subjects
    assert f"gmserver: {GAME}: rule change 1 passed: apply it" in gm_subjects
