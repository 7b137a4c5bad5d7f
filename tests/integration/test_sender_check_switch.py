"""Games created before sender proof keep `sender_check = from`, where a forged From line moves a
power or changes its player's address (ADDRESS). The GM switches such a game to verified (`game
set NAME sender-check verified`, or the mail command), `game show` says which check a game uses,
and the daemon tells the GM once of each game still on from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, Player
from gmserver.db.session import transaction
from gmserver.services.commands import gm_controls
from gmserver.services.features.senders import tell_gm_of_from_games
from gmserver.services.game.games import GameError, show_game
from tests.support.cli import player_args, run, write_config
from tests.support.intake_rows import deliver, outbox_rows, plain_text
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

FRANCE = player_address("FRANCE")


def forged_address_change(services, now) -> str:
    """A stranger writes France's address in From and asks for France's mail to go elsewhere."""
    raw = order_mail(FRANCE, "lepanto", "ADDRESS evil@attacker.test", headers={"Return-Path": "<evil@attacker.test>"})
    return deliver(services, raw, now).outcome


def france_address(services) -> str:
    with transaction(services.sessions) as session:
        return session.scalar(select(Player.address).where(Player.power == "FRANCE"))


def test_an_old_game_switched_to_verified_refuses_a_forged_address_change(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), sender_check="from")
    assert show_game(services.sessions, "lepanto", GM)["sender_check"] == "from"
    done = gm_controls.act(services, "lepanto", gm_controls.set_setting, "sender-check", "verified", now=clock())
    assert "sender-check is verified in lepanto" in done.text and done.announced == 7
    [told] = [m for m in outbox_rows(services, "gm-action") if m.recipient == FRANCE]
    words = " ".join(told.raw.decode(errors="replace").split())
    assert "Reply to this mail" in words and "always accepted" in words
    assert show_game(services.sessions, "lepanto", GM)["sender_check"] == "verified"

    assert forged_address_change(services, clock()) == "unverified"
    assert france_address(services) == FRANCE
    with pytest.raises(GameError, match="already uses sender-check verified"):
        gm_controls.act(services, "lepanto", gm_controls.set_setting, "sender-check", "verified", now=clock())
    with pytest.raises(GameError, match="sender-check is from or verified, not 'maybe'"):
        gm_controls.act(services, "lepanto", gm_controls.set_setting, "sender-check", "maybe", now=clock())


def test_the_same_forgery_in_a_game_left_on_from_starts_an_address_change(database_url, clock) -> None:
    """The hole the switch closes: where any From line is believed, the forger's ADDRESS is taken
    as France's request (the new address must still confirm it, and France is told and may cancel)."""
    services = services_for(database_url)
    new_game(services, clock(), sender_check="from")
    assert forged_address_change(services, clock()) == "address-pending"
    assert france_address(services) == FRANCE


def test_the_gm_is_told_once_of_each_game_still_on_from(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), sender_check="from")
    new_game(services, clock(), name="actium", sender_check="verified")
    assert tell_gm_of_from_games(services, clock()) == 1
    clock.advance(hours=1)
    assert tell_gm_of_from_games(services, clock()) == 0
    [alert] = outbox_rows(services, "alert")
    words = " ".join(alert.raw.decode(errors="replace").split())
    assert alert.recipient == GM and "lepanto: players' mail is not verified" in words
    assert "gmserver game set lepanto sender-check verified" in words


def test_game_set_sender_check_from_the_command_line(tmp_path: Path, capsys) -> None:
    config = write_config(tmp_path)
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", *player_args(), "--deadline", "2030-01-10T18:00+00:00",
               "--sender-check", "from") == 0
    capsys.readouterr()
    assert run(config, "game", "show", "lepanto") == 0
    assert "`gmserver game set lepanto sender-check verified` checks them" in capsys.readouterr().out
    assert run(config, "game", "set", "lepanto", "sender-check", "verified") == 0
    assert "sender-check is verified in lepanto" in capsys.readouterr().out
    assert run(config, "game", "show", "lepanto", "--json") == 0
    assert json.loads(capsys.readouterr().out)["sender_check"] == "verified"


def test_the_gm_switches_a_game_by_mail_too(database_url, clock) -> None:
    """The mail twin of `game set`: `set GAME sender-check verified`, with the game's GM secret."""
    services = services_for(database_url)
    new_game(services, clock(), sender_check="from")
    with transaction(services.sessions) as session:
        secret = session.scalar(select(Game.gm_secret).where(Game.name == "lepanto"))
    row = deliver(services, order_mail(GM, "lepanto", f"Password: {secret}\nset lepanto sender-check verified\n",
                                       date=clock()), clock())
    assert row.outcome == "command-done"
    [answer] = [m for m in outbox_rows(services, "notice") if m.recipient == GM]
    assert "Done: sender-check is verified in lepanto" in " ".join(plain_text(answer).split())
    assert show_game(services.sessions, "lepanto", GM)["sender_check"] == "verified"
