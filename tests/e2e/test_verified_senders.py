"""`gmserver run` with a game created as a GM would (senders verified by default): a forged
message in France's name is not used and France is warned; France's reply to the GM's
Reply-To is taken. Real daemon process, real SMTP listener, Maildir out."""

from __future__ import annotations

import json
import mailbox
import signal
import smtplib
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from gmserver.cli import main
from tests.support.dovecot import free_port
from tests.support.world import order_mail

pytestmark = pytest.mark.e2e


def plain_text(message) -> str:
    """A mail's text part, decoded (a confirmation carries its orders map beside it)."""
    part = next(part for part in message.walk() if part.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode()


def wait_for(condition, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def send(port: int, sender: str, recipient: str, raw: bytes) -> None:
    def sent() -> bool:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=5) as client:
                client.sendmail(sender, [recipient], raw)
            return True
        except OSError:
            return False
    assert wait_for(sent)


def test_a_spoof_is_refused_to_the_real_player_and_a_reply_is_taken(tmp_path: Path, capsys) -> None:
    port = free_port()
    config = tmp_path / "gm.toml"
    config.write_text(f'[database]\nurl = "sqlite:///{tmp_path / "gm.db"}"\n[gm]\naddress = "gm@gm.test"\n'
                      f'[inbound.smtp]\nport = {port}\n[outbound]\ninterval_seconds = 1\n'
                      f'[outbound.maildir]\npath = "{tmp_path / "sent"}"\n[daemon]\nsweep_interval_seconds = 1\n')
    assert main(["--config", str(config), "db", "upgrade"]) == 0
    assert main(["--config", str(config), "game", "create", "lepanto", "--player", "FRANCE=fr@players.test"]) == 0
    capsys.readouterr()
    main(["--config", str(config), "game", "show", "lepanto", "--json"])
    reply_address = json.loads(capsys.readouterr().out)["players"]["FRANCE"]["reply_address"]
    sent = mailbox.Maildir(tmp_path / "sent", create=True)
    process = subprocess.Popen([sys.executable, "-m", "gmserver", "--config", str(config), "run"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        spoof = order_mail("fr@players.test", "lepanto France S1901M", "A Par-Pic",
                           headers={"Return-Path": "<evil@attacker.test>"})
        send(port, "evil@attacker.test", "gm@gm.test", spoof)
        assert wait_for(lambda: len(sent) == 2)  # the start mail and the warning
        [warning] = [m for m in sent if "you play" not in str(m["Subject"])]
        assert str(warning["To"]) == "fr@players.test"
        assert "was not accepted" in warning.get_payload(decode=True).decode()
        # France answers the warning with a plain Reply: to its Reply-To, the reply address
        assert reply_address in str(warning["Reply-To"])
        answer = EmailMessage()
        answer["From"], answer["To"] = "fr@players.test", str(warning["Reply-To"])
        answer["Subject"] = "lepanto France S1901M"
        answer.set_content("A Par-Bur\n")
        send(port, "fr@players.test", reply_address, answer.as_bytes())
        assert wait_for(lambda: len(sent) == 3)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0, err
    confirmation = next(m for m in sent if "A PAR - BUR" in plain_text(m))
    assert str(confirmation["To"]) == "fr@players.test"
    assert "A PAR - PIC" not in plain_text(confirmation)
