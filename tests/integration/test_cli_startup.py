"""`gmserver game show` and `game list` read the database without the daemon's module (the mail
listener, the scheduler, the IMAP client): they need the database, not the services it builds, and
read it through the driver alone (gmserver.db.plain; tests/integration/test_plain_reads.py lists
what else they leave unloaded)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import modules_among, modules_loaded_by, player_args, run, write_config

pytestmark = pytest.mark.integration


def test_game_show_and_list_do_not_load_the_daemon(tmp_path: Path, capsys) -> None:
    config = write_config(tmp_path)
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", "--ruleset", "mhr", *player_args()) == 0
    for command in (["game", "show", "lepanto"], ["game", "list"]):
        loaded = modules_loaded_by(["--config", str(config), *command], tmp_path / "cache")
        assert "gmserver.db.plain" in loaded and "gmserver.db.session" not in loaded
        assert modules_among(loaded, ("gmserver.daemon", "aiosmtpd", "apscheduler", "imapclient", "diplomacy")) == []
