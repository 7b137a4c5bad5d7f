"""`gmserver outbox list` says what each alert for the GM is about."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import update

from gmserver.cli import main
from gmserver.db.models import InboundMessage
from gmserver.db.session import transaction
from gmserver.services.features import alerts
from gmserver.services.inbox import runner as intake
from tests.support.world import order_mail, services_for

pytestmark = pytest.mark.integration


def test_outbox_list_shows_what_an_alert_is_about(tmp_path: Path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'gm.db'}"
    config = tmp_path / "gmserver.toml"
    config.write_text(f'[database]\nurl = "{url}"\n[gm]\naddress = "gm@gm.test"\nalert_address = "me@home.test"\n'
                      f'[outbound.maildir]\npath = "{tmp_path / "sent"}"\n')
    assert main(["--config", str(config), "db", "upgrade"]) == 0
    services = services_for(url)
    now = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    stored = intake.store(services.sessions, order_mail("x@players.test", "hi", "hi"), source="smtp", now=now)
    with transaction(services.sessions) as session:
        session.execute(update(InboundMessage).values(status="failed", error="ValueError: boom", processed_at=now))
    alerts.queue_alerts(services, now, to="me@home.test")
    capsys.readouterr()
    assert main(["--config", str(config), "outbox", "list"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    assert "pending" in line and "alert" in line and "to me@home.test" in line
    assert line.endswith(f"about: inbound message {stored.id} parked")
