"""Hostile mail over IMAP, with a real Dovecot: `poll --once` crashed 3 times
of 3 under a memory cap on an encoded-word bomb and marked nothing \\Seen, so every later
message waited behind it. Now the bomb is answered, the mail after it is read, all are \\Seen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from gmserver.db.models import InboundMessage, OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.subject import format_subject
from gmserver.services.game.games import POWERS
from gmserver.services.inbox.polling import poll_once
from tests.support.dovecot import append_all, seen
from tests.support.hostile import encoded_word_bomb, nested_multipart
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def orders(power: str) -> bytes:
    subject = format_subject(template="standard", game_name="lepanto", power=power, phase="S1901M", purpose="orders")
    return order_mail(player_address(power), subject, "A PAR - BUR\n", message_id=f"<{power}@players.test>")




def test_bombs_are_refused_and_the_order_after_them_accepted_all_marked_seen(
    dovecot, mail_user, mailbox, database_url, clock
) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    uids = append_all(dovecot, mail_user, [encoded_word_bomb(280_000), nested_multipart(1000), orders("FRANCE")])

    report = poll_once(services, mailbox, clock)

    assert (report.fetched, report.new, report.processed) == (3, 3, 3)
    with transaction(services.sessions) as session:
        outcomes = {row.uid: (row.status, row.outcome) for row in session.scalars(select(InboundMessage))}
        recipients = sorted(session.scalars(select(OutboxMessage.recipient)))
    assert outcomes == {uids[0]: ("done", "refused"), uids[1]: ("done", "refused"), uids[2]: ("done", "accepted")}
    assert recipients == ["france@players.test", "germany@players.test", "stranger@elsewhere.test"]
    assert seen(dovecot, mail_user) == {uid: True for uid in uids}


CAPPED_CLI = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (300 * 1024 * 1024, 300 * 1024 * 1024))
from gmserver.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_poll_once_under_a_300_mb_cap_answers_the_bomb_and_reads_the_next_order(
    dovecot, mail_user, tmp_path: Path
) -> None:
    """The issue's reproduction: `gmserver poll --once` in a process capped at 300 MB."""
    config = tmp_path / "gmserver.toml"
    config.write_text(
        f'[database]\nurl = "sqlite:///{tmp_path / "gm.db"}"\n[gm]\naddress = "gm@gm.test"\n'
        f'[outbound.maildir]\npath = "{tmp_path / "sent"}"\n[inbound]\nmode = "imap"\n'
        f'[inbound.imap]\nhost = "{dovecot.host}"\nport = {dovecot.imap_port}\ntls = "none"\n'
        f'user = "{mail_user.address}"\npassword = "{mail_user.password}"\n')

    def gmserver(*args: str, capped: bool = False) -> subprocess.CompletedProcess:
        command = ["-c", CAPPED_CLI] if capped else ["-m", "gmserver"]
        return subprocess.run([sys.executable, *command, "--config", str(config), *args], cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "HOME": "/tmp"},
                              capture_output=True, text=True, timeout=120)

    assert gmserver("db", "upgrade").returncode == 0
    players = [arg for power in POWERS for arg in ("--player", f"{power}={player_address(power)}")]
    assert gmserver("game", "create", "lepanto", "--sender-check", "from", *players).returncode == 0
    uids = append_all(dovecot, mail_user, [encoded_word_bomb(140_000), orders("FRANCE")])

    polled = gmserver("poll", "--once", capped=True)

    assert polled.returncode == 0, polled.stderr
    assert "fetched 2 message(s), 2 new, 2 processed" in polled.stdout
    assert seen(dovecot, mail_user) == {uid: True for uid in uids}
    listed = gmserver("inbox", "list").stdout.splitlines()
    assert [line.split()[1:3] for line in listed] == [["done", "refused"], ["done", "accepted"]]
