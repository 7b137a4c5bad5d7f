"""Spring 1901 to Spring 1902 by mail, over a real Dovecot (IMAP in, LMTP for the players'
inboxes) and a real aiosmtpd relay, on SQLite and PostgreSQL.

The first test drives the one-shot paths step by step with a test clock (`poll --once`,
the deadline, `outbox send --once`); the second runs the daemon in real time and restarts it
between the orders and the deadline.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select

from gmserver.cli import main
from gmserver.config import Config, SmtpRelayConfig
from gmserver.daemon import Daemon, imap_settings
from gmserver.db.models import (
    Game,
    InboundMessage,
    OrderSet,
    OutboxMessage,
    PhaseRecord,
)
from gmserver.db.session import transaction
from gmserver.engine import position_from_state
from gmserver.mail.imap import ImapMailbox
from gmserver.mail.outbound import SmtpTransport
from gmserver.services.base import outbox
from gmserver.services.turn import turns
from gmserver.services.game.games import POWERS
from gmserver.services.inbox.polling import poll_once
from tests.support.mailboxes import Table, imap_config
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.e2e

SPRING = {
    "AUSTRIA": "A Vie-Gal\nA Bud-Ser\nF Tri-Alb",
    "ENGLAND": "F Lon -> NTH\nF Edi-NWG\nA Lvp-Yor",
    "FRANCE": "A Par-Bur\nA Mar-Spa\nF Bre-MAO",
    "GERMANY": "A Mun-Bur\nA Ber-Kie\nF Kie-Den",
    "ITALY": "A Ven H\nA Rom-Apu\nF Nap-ION",
    "RUSSIA": "A War-Gal\nA Mos-Ukr\nF Sev-Bla\nF StP/SC-Bot",
    "TURKEY": "F Ank-Bla\nA Con-Bul\nA Smy-Arm",
}
SPRING_RESULTS = {
    "A VIE - GAL": "bounced", "A WAR - GAL": "bounced", "A PAR - BUR": "bounced", "A MUN - BUR": "bounced",
    "F SEV - BLA": "bounced", "F ANK - BLA": "bounced", "A BUD - SER": "moved", "F TRI - ALB": "moved",
    "F LON - NTH": "moved", "F EDI - NWG": "moved", "A LVP - YOR": "moved", "A MAR - SPA": "moved",
    "F BRE - MAO": "moved", "A BER - KIE": "moved", "F KIE - DEN": "moved", "A VEN H": "holds",
    "A ROM - APU": "moved", "F NAP - ION": "moved", "A MOS - UKR": "moved",
    "F STP/SC - BOT": "moved", "A CON - BUL": "moved", "A SMY - ARM": "moved",
}
FALL = {
    "AUSTRIA": "F Alb-Gre\nA Ser S F Alb-Gre\nA Vie H",
    "ENGLAND": "F NTH C A Yor-Nwy\nA Yor-Nwy\nF NWG H",
    "FRANCE": "A Par-Pic\nA Spa H\nF MAO-Por",
    "GERMANY": "F Den H\nA Kie-Hol\nA Mun H",
    "ITALY": "F ION-Tun\nA Apu H\nA Ven H",
    "RUSSIA": "F Bot-Swe\nA Ukr-Rum\nF Sev S A Ukr-Rum\nA War H",
    "TURKEY": "A Bul H\nF Ank H\nA Arm H",
}
FALL_RESULTS = {"F ALB - GRE": "moved", "A YOR - NWY": "moved", "F MAO - POR": "moved",
                "A KIE - HOL": "moved", "F ION - TUN": "moved", "F BOT - SWE": "moved",
                "A UKR - RUM": "moved", "A PAR - PIC": "moved"}
WINTER = {
    "AUSTRIA": "Build A Bud\nBuild A Tri",
    "ENGLAND": "Build F Lon",
    "FRANCE": "Build A Par\nBuild A Mar",
    "GERMANY": "Build A Ber\nBuild F Kie",
    "ITALY": "Build F Nap",
    "RUSSIA": "Build A Mos\nBuild F StP/NC",
    "TURKEY": "Build A Con",
}
NEW_UNITS = {"AUSTRIA": {"A BUD", "A TRI"}, "ENGLAND": {"F LON"}, "FRANCE": {"A PAR", "A MAR"},
             "GERMANY": {"A BER", "F KIE"}, "ITALY": {"F NAP"}, "RUSSIA": {"A MOS", "F STP/NC"},
             "TURKEY": {"A CON"}}


def count(services, model, *where) -> int:
    with transaction(services.sessions) as session:
        return session.scalar(select(func.count()).select_from(model).where(*where))


def check_results(text: str, expected: dict[str, str]) -> None:
    for order, result in expected.items():
        assert f"({order}" in text, f"{order} missing from the report"
        if " - " in order and order.startswith("A YOR"):
            continue  # the convoyed move's canonical form may carry VIA
        assert f"({order}): {result}" in text, f"{order} should have {result}"


def test_spring_1901_to_spring_1902_step_by_step(database_url, dovecot, smtp_relay, clock, tmp_path) -> None:
    table = Table(dovecot)
    clock.now = datetime.now(timezone.utc)  # `gmserver poll --once` below runs on the real clock
    services = services_for(database_url, gm_address=table.gm)
    game_id = new_game(services, clock(), name="lepanto")
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        for player in game.players:
            player.address, player.fallback_address = table.players[player.power], None
    transport = SmtpTransport(SmtpRelayConfig(host=smtp_relay.host, port=smtp_relay.port))
    config_file = tmp_path / "gm.toml"
    config_file.write_text(
        f'[database]\nurl = "{database_url}"\n[gm]\naddress = "{table.gm}"\n[inbound]\nmode = "imap"\n'
        f'[inbound.imap]\nhost = "{dovecot.host}"\nport = {dovecot.imap_port}\ntls = "none"\n'
        f'user = "{table.gm}"\npassword = "secret"\n')

    previous = None
    for phase, orders, hours in (("S1901M", SPRING, 48), ("F1901M", FALL, 48), ("W1901A", WINTER, 24)):
        table.mail_orders("lepanto", phase, orders)
        # gmserver poll --once, twice: the second run finds nothing new
        assert main(["--config", str(config_file), "poll", "--once"]) == 0
        assert main(["--config", str(config_file), "poll", "--once"]) == 0
        clock.now = max(clock.now, datetime.now(timezone.utc))  # the command ran on the real clock
        assert count(services, OrderSet, OrderSet.phase == phase) == 7
        # a crash after processing but before \Seen: the server shows the mail again; nothing doubles
        table.mark_all_unseen()
        with ImapMailbox(imap_settings(Config(imap=imap_config(table, dovecot)))) as mailbox:
            again = poll_once(services, mailbox, clock)
        assert again.new == 0 and again.fetched >= 7
        assert count(services, OrderSet, OrderSet.phase == phase) == 7
        assert count(services, OutboxMessage, OutboxMessage.kind == "confirmation") == 7 * (
            1 + ["S1901M", "F1901M", "W1901A"].index(phase))
        assert outbox.deliver_due(services.sessions, transport, clock()).sent == 7
        for power in POWERS:
            confirmation = [m for m in table.inbox(power) if phase in str(m["Subject"]) and "results" not in
                            str(m["Subject"])][-1]
            body = " ".join(confirmation.get_body(("plain",)).get_content().split())
            assert "rejected" not in body and "NOT USED" not in body, body
            assert confirmation["Auto-Submitted"] == "auto-replied"
        with transaction(services.sessions) as session:
            deadline = session.get(Game, game_id).deadline
        if previous is not None:
            # each deadline follows the one before by the turn's length, never the
            # moment of processing (F1901M 48 h after S1901M's, W1901A 24 h after F1901M's)
            assert deadline - previous == timedelta(hours=hours)
        previous = deadline
        clock.now = max(clock.now, deadline)
        [done] = turns.adjudicate_due(services, clock())
        assert done.phase == phase
        assert outbox.deliver_due(services.sessions, transport, clock()).sent == 7

    for power in POWERS:
        check_results(table.reports(power, "S1901M")[0], SPRING_RESULTS)
        check_results(table.reports(power, "F1901M")[0], FALL_RESULTS)
        assert table.reports(power, "W1901A")
    # each report arrives over IMAP as text + HTML with the map inline + the next deadline
    # as .ics, the same parts for every power (nothing in a report is private)
    structures = set()
    for power in POWERS:
        [report] = [m for m in table.inbox(power) if "results" in str(m["Subject"]) and "F1901M" in str(m["Subject"])]
        parts = tuple(part.get_content_type() for part in report.walk())
        assert "image/png" in parts and "text/html" in parts and "text/calendar" in parts
        html = report.get_body(("html",)).get_content()
        cid = next(p for p in report.walk() if p.get_content_type() == "image/png")["Content-ID"].strip("<>")
        assert f'src="cid:{cid}"' in html and all(order in html for order in FALL_RESULTS)
        text = report.get_body(("plain",)).get_content()
        assert text.startswith(":: Game: ") and ":: Phase: F1901M" in text
        structures.add((parts, text.split("\n", 3)[0]))
    assert len(structures) == 1
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        assert game.phase == "S1902M"
        state = session.scalar(select(PhaseRecord.state).where(PhaseRecord.game_id == game_id,
                                                               PhaseRecord.phase == "S1902M"))
    units = position_from_state(state).units
    for power, new in NEW_UNITS.items():
        assert new <= set(units[power]), power


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_daemon_restart_between_orders_and_deadline_loses_nothing(database_url, dovecot, smtp_relay) -> None:
    table = Table(dovecot)
    config = Config(database_url=database_url, gm_address=table.gm, gm_name="Test GM", inbound_mode="imap",
                    imap=imap_config(table, dovecot), outbound_mode="smtp",
                    smtp=SmtpRelayConfig(host=smtp_relay.host, port=smtp_relay.port),
                    outbox_interval_seconds=1, sweep_interval_seconds=1)
    first = Daemon(config)
    services = first.services
    now = datetime.now(timezone.utc)
    game_id = new_game(services, now, name="restart")
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        game.deadline = now + timedelta(hours=1)  # brought forward once the orders are in, below
        for player in game.players:
            player.address, player.fallback_address = table.players[player.power], None

    first.start()
    try:
        table.mail_orders("restart", "S1901M", SPRING)
        wait_until(lambda: count(services, OrderSet) == 7, 15, "seven order sets")
    finally:
        first.stop()
    assert count(services, PhaseRecord) == 1  # not yet adjudicated
    # the deadline falls while the second daemon runs: its job is rebuilt from the table at start
    # (a fixed deadline had to allow for slow processing under load: 12 s per run, mostly waiting)
    with transaction(services.sessions) as session:
        session.get(Game, game_id).deadline = datetime.now(timezone.utc) + timedelta(seconds=2)

    second = Daemon(config)
    second.start()
    try:
        wait_until(lambda: count(services, OutboxMessage, OutboxMessage.kind == "report",
                                 OutboxMessage.status == "sent") == 7, 30, "seven reports sent")
    finally:
        second.stop()
    assert count(services, PhaseRecord) == 2
    # the GM's notice that this game's senders are not verified comes back to the GM's mailbox, ignored
    assert count(services, InboundMessage, InboundMessage.outcome != "ignored") == 7
    assert count(services, OutboxMessage, OutboxMessage.kind == "confirmation") == 7
    for power in POWERS:
        [report] = table.reports(power, "S1901M")
        check_results(report, SPRING_RESULTS)
