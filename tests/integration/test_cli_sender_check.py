"""`gmserver game create --sender-check` and the reply addresses `game show` gives the GM."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gmserver.cli import main
from gmserver.services.game.games import POWERS

pytestmark = pytest.mark.integration


def write_config(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "gmserver.toml"
    path.write_text(f'[database]\nurl = "sqlite:///{tmp_path / "gm.db"}"\n[gm]\naddress = "gm@gm.test"\n'
                    f'[outbound.maildir]\npath = "{tmp_path / "sent"}"\n{extra}')
    return path


def players() -> list[str]:
    return [arg for power in POWERS for arg in ("--player", f"{power}={power.lower()}@players.test")]


def test_new_games_verify_senders_and_show_each_players_reply_address(tmp_path: Path, capsys) -> None:
    config = write_config(tmp_path)
    assert main(["--config", str(config), "db", "upgrade"]) == 0
    assert main(["--config", str(config), "game", "create", "lepanto", *players()]) == 0
    created = capsys.readouterr().out
    assert "senders are verified" in created and "trusted_authserv_ids" in created
    assert main(["--config", str(config), "game", "show", "lepanto", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["sender_check"] == "verified"
    addresses = [shown["players"][power]["reply_address"] for power in POWERS]
    assert all(re.fullmatch(r"gm\+[a-z2-7]{16}@gm\.test", address) for address in addresses)
    assert len(set(addresses)) == 7  # one secret each
    passwords = [shown["players"][power]["password"] for power in POWERS]
    # the password, not a reply address (whose token changes every turn), is told at creation
    assert passwords[0] in created and not any(password in address for password in passwords
                                               for address in addresses)
    assert main(["--config", str(config), "game", "show", "lepanto"]) == 0
    text = capsys.readouterr().out
    assert "senders verified" in text and all(address in text for address in addresses)


def test_from_games_and_a_configured_authserv_id(tmp_path: Path, capsys) -> None:
    config = write_config(tmp_path, '[inbound]\ntrusted_authserv_ids = ["mx.gm.test"]\n')
    main(["--config", str(config), "db", "upgrade"])
    assert main(["--config", str(config), "game", "create", "open", "--sender-check", "from", *players()]) == 0
    assert "not verified" in capsys.readouterr().out
    assert main(["--config", str(config), "game", "create", "closed", *players()]) == 0
    assert "trusted_authserv_ids" not in capsys.readouterr().out  # configured: no note
    main(["--config", str(config), "game", "show", "open", "--json"])
    assert json.loads(capsys.readouterr().out)["sender_check"] == "from"


def test_the_help_says_what_each_choice_means(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["game", "create", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--sender-check {from,verified}" in text
    assert "which anyone can forge" in text and "Password: SECRET" in text
