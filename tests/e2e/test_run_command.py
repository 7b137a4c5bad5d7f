"""`gmserver run` as a GM starts it: SMTP listener in, Maildir out, stopped by a signal."""

from __future__ import annotations

import mailbox
import signal
import smtplib
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gmserver.cli import main
from gmserver.db.revisions import head_revision
from tests.support.dovecot import free_port
from tests.support.world import order_mail

pytestmark = pytest.mark.e2e


def plain_text(message) -> str:
    """A mail's text part, decoded (a confirmation carries its orders map beside it)."""
    part = next(part for part in message.walk() if part.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode()


def test_run_answers_mail_and_stops_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    config = tmp_path / "gm.toml"
    config.write_text(f'[database]\nurl = "sqlite:///{tmp_path / "gm.db"}"\n[gm]\naddress = "gm@gm.test"\n'
                      f'[inbound.smtp]\nport = {port}\n[outbound]\ninterval_seconds = 1\n'
                      f'[outbound.maildir]\npath = "{tmp_path / "sent"}"\n[daemon]\nsweep_interval_seconds = 1\n')
    assert main(["--config", str(config), "db", "upgrade"]) == 0
    assert main(["--config", str(config), "game", "create", "lepanto", "--player", "FRANCE=fr@players.test",
                 "--sender-check", "from"]) == 0  # test_verified_senders.py runs a verified game
    process = subprocess.Popen([sys.executable, "-m", "gmserver", "--config", str(config), "run"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with smtplib.SMTP("127.0.0.1", port, timeout=5) as client:
                    client.sendmail("fr@players.test", ["gm@gm.test"],
                                    order_mail("fr@players.test", "lepanto France S1901M", "A Par-Bur"))
                break
            except OSError:
                time.sleep(0.2)
        sent = tmp_path / "sent"
        # the start mail and the confirmation, to the player (the GM is told of a game whose senders are
        # not verified, too)
        while time.monotonic() < deadline and not (sent.exists() and len(to_player(sent)) >= 2):
            time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0, err
    [start, reply] = sorted(to_player(tmp_path / "sent"), key=lambda m: "you play" not in str(m["Subject"]))
    assert str(start["Subject"]) == "lepanto: you play France"
    assert str(reply["To"]) == "fr@players.test" and "A PAR - BUR" in plain_text(reply)
    assert "stopped" in err and "Traceback" not in err
    # the outbox and sweep jobs ran every second: no line for each run
    assert "apscheduler" not in err, err


def test_db_upgrade_says_one_plain_line(tmp_path: Path) -> None:
    """Alembic's INFO lines ("Context impl SQLiteImpl.", one per migration) are not shown: the
    command says in one line where the schema is, on a new database and on one already current."""
    config = tmp_path / "gm.toml"
    config.write_text(f'[database]\nurl = "sqlite:///{tmp_path / "gm.db"}"\n[gm]\naddress = "gm@gm.test"\n')
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "gmserver", "--config", str(config), "db", "upgrade"],
                              capture_output=True, text=True, timeout=60, check=True)
        assert done.stderr == ""
        assert done.stdout.splitlines() == [f"database sqlite:///{tmp_path / 'gm.db'} is at revision {head_revision()}"]


def to_player(maildir) -> list:
    return [m for m in mailbox.Maildir(maildir) if str(m["To"]) == "fr@players.test"]
