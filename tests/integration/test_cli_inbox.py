"""`gmserver inbox list` shows every stored message, whatever its bytes (it
crashed on the first parked hostile message and printed nothing)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import update

from gmserver.cli import main
from gmserver.db.models import InboundMessage
from gmserver.db.session import transaction
from gmserver.services.inbox import runner as intake
from tests.support.hostile import encoded_word_bomb, nested_multipart
from tests.support.world import order_mail, services_for

pytestmark = pytest.mark.integration

# Messages an earlier gmserver parked, each with the first line of its error.
PARKED = {
    b"From: Germany <\r\nSubject: lepanto Germany S1901M\r\n\r\nA BER H\r\n": "IndexError: string index out of range",
    b"From: =?utf-8?q?Evil=0D=0ABcc:_x@y?= <germany@players.test>\r\nSubject: lepanto\r\n\r\nA BER H\r\n":
        "ValueError: invalid arguments; address parts cannot contain CR or LF",
    nested_multipart(1000): "RecursionError: maximum recursion depth exceeded",
    encoded_word_bomb(140_000): "MemoryError",
    bytes(range(256)) * 8: "UnicodeDecodeError: junk",
    b"": "Processing this message stopped the processor 3 times",
}


def test_inbox_list_prints_every_parked_message_with_its_error(tmp_path: Path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'gm.db'}"
    config = tmp_path / "gmserver.toml"
    config.write_text(f'[database]\nurl = "{url}"\n[gm]\naddress = "gm@gm.test"\n')
    assert main(["--config", str(config), "db", "upgrade"]) == 0
    services = services_for(url)
    now = datetime(2026, 11, 22, 12, tzinfo=UTC)
    ids = {}
    for raw, error in PARKED.items():
        row_id = intake.store(services.sessions, raw, source="smtp", now=now).id
        ids[row_id] = error
        with transaction(services.sessions) as session:
            session.execute(update(InboundMessage).where(InboundMessage.id == row_id)
                            .values(status="failed", error=error + "\n\nTraceback (most recent call last):\n  ..."))
    done = intake.store(services.sessions, order_mail("anna@example.org", "hello", "hi"), source="smtp", now=now).id
    intake.process_one(services, done, now)
    capsys.readouterr()

    assert main(["--config", str(config), "inbox", "list", "--status", "failed"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [int(line.split()[0]) for line in lines[0::2]] == sorted(ids)
    assert [line.strip() for line in lines[1::2]] == [ids[row_id] for row_id in sorted(ids)]
    assert "from germany@players.test: lepanto" in lines[2]
    assert "from stranger@elsewhere.test: AAAA" in lines[6] and len(lines[6]) < 200

    assert main(["--config", str(config), "inbox", "list"]) == 0
    everything = capsys.readouterr().out.splitlines()
    assert len(everything) == 2 * len(ids) + 1
    assert f"{done:>6} done     rejected" in everything[-1] and "from anna@example.org: hello" in everything[-1]
