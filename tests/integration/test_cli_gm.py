"""The GM's corrections from the command line, on SQLite and PostgreSQL: `gmserver game orders |
preview | rollback` and `gmserver inbox release | refuse` (the names the README gives the GM)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from gmserver.services.inbox import runner as intake
from tests.support.cli import player_args, run, write_config
from tests.support.world import order_mail, player_address, services_for

pytestmark = pytest.mark.integration


@pytest.fixture
def config(tmp_path: Path, database_url: str) -> Path:
    return write_config(tmp_path, database_url)


def create(config: Path, ruleset: str) -> None:
    players = player_args(player_address)
    assert run(config, "game", "create", "lepanto", "--ruleset", ruleset, *players, "--sender-check", "from") == 0


def test_correct_preview_and_roll_back_from_the_command_line(config: Path, capsys) -> None:
    create(config, "standard")
    assert run(config, "game", "orders", "lepanto", "FRANCE", "--set", "A Par-Bur", "--set", "A Mar H") == 0
    out = capsys.readouterr().out
    assert "v1 filed for FRANCE" in out and "A PAR - BUR" in out and "told by mail" in out
    assert run(config, "game", "preview", "lepanto") == 0
    out = capsys.readouterr().out
    assert "PREVIEW" in out and "nothing stored" in out and "Burgundy" in out
    assert run(config, "game", "rollback", "lepanto") == 2  # nothing adjudicated yet
    assert "Nothing has been adjudicated" in capsys.readouterr().err
    assert run(config, "adjudicate", "lepanto") == 0
    assert run(config, "game", "rollback", "lepanto", "--replay") == 2
    assert "never replayed" in capsys.readouterr().err
    assert run(config, "game", "rollback", "lepanto") == 0
    out = capsys.readouterr().out
    assert "rolled back" in out and "7 correction notice(s)" in out and "gmserver adjudicate lepanto" in out
    assert run(config, "game", "show", "lepanto", "--json") == 0
    shown = capsys.readouterr().out
    assert '"phase": "S1901M"' in shown and '"corrected": {' in shown
    assert run(config, "game", "show", "lepanto") == 0
    assert "S1901M was rolled back for a correction" in capsys.readouterr().out
    assert run(config, "game", "orders", "lepanto", "FRANCE", "--set", "A Par-Xyz") == 2
    assert "not filed" in capsys.readouterr().err


def test_release_and_refuse_held_mail_from_the_command_line(config: Path, database_url: str, capsys) -> None:
    create(config, "danivon")
    services = services_for(database_url)
    now = datetime.now(UTC)
    ids = [intake.store(services.sessions, order_mail(player_address(power), f"lepanto {power.title()}", body),
                        source="smtp", now=now).id for power, body in (("FRANCE", "A Par-Bur"), ("ITALY", "A Ven H"))]
    intake.process_pending(services, now)
    capsys.readouterr()
    assert run(config, "game", "show", "lepanto") == 0
    assert f"held for you: message {ids[0]} from FRANCE for S1901M" in capsys.readouterr().out
    assert run(config, "inbox", "list", "--status", "held") == 0
    listed = capsys.readouterr().out.splitlines()
    assert [int(line.split()[0]) for line in listed] == ids and all("held" in line for line in listed)
    assert run(config, "inbox", "release", str(ids[0])) == 0
    assert "filed as FRANCE's orders" in capsys.readouterr().out
    assert run(config, "inbox", "refuse", str(ids[1]), "--reason", "no subject") == 0
    assert run(config, "inbox", "release", str(ids[0])) == 2
    assert run(config, "inbox", "refuse", str(ids[1])) == 2
    assert "not held" in capsys.readouterr().err
    assert run(config, "inbox", "list", "--status", "held") == 0
    assert capsys.readouterr().out == "no stored inbound mail with status held\n"


def test_repair_a_surplus_unit_from_the_command_line_000_VIII_2(config: Path, capsys) -> None:
    """000 VIII(2) (extra_unit_repair = mhr): the proposal first, then --confirm does it."""
    create(config, "mhr")
    capsys.readouterr()
    assert run(config, "game", "repair", "lepanto", "FRANCE", "A MAR") == 0
    assert "proposed, not done" in capsys.readouterr().out
    assert run(config, "game", "repair", "lepanto", "FRANCE", "A MAR", "--confirm") == 0
    out = capsys.readouterr().out
    assert "A MAR removed" in out and "7 notice(s)" in out
    assert run(config, "game", "repair", "lepanto", "FRANCE", "A MAR", "--confirm") == 2  # gone already
    assert "has no A MAR" in capsys.readouterr().err


def test_audit_from_the_command_line_000_VIII_2(config: Path, capsys) -> None:
    """`gmserver game audit`: a clean year exits 0; the board the GM repaired differs from what
    the orders give, and the recorded repair explains it (nothing more proposed), exit 1."""
    create(config, "mhr")
    assert run(config, "adjudicate", "lepanto", "--force") == 0  # 000 VII(2): before its deadline, so forced
    capsys.readouterr()
    assert run(config, "game", "audit", "lepanto", "--no-mail") == 0
    assert "replayed S1901M" in capsys.readouterr().out
    assert run(config, "game", "repair", "lepanto", "FRANCE", "A MAR", "--confirm") == 0
    capsys.readouterr()
    assert run(config, "game", "audit", "lepanto", "--no-mail") == 1
    out = capsys.readouterr().out
    assert "France lacks A MAR, which those orders give it (the GM's repair: A MAR removed)" in out
    assert "  repair: gmserver" not in out and "no mail sent" in out
