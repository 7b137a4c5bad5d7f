"""`actions [GAME]` by mail: the GM actions recorded for a game, as `gmserver game actions` lists
them (a command added as one module of gmserver/commands/)."""

from __future__ import annotations

import pytest

from tests.support.intake_rows import game_row, gm_mail
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.integration


def test_the_gm_reads_the_games_recorded_actions_by_mail(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    secret = game_row(services).gm_secret
    row, answer = gm_mail(services, f"actions\nPassword: {secret}", clock())
    assert (row.kind, row.outcome) == ("command", "command-done")
    assert "> actions Done: no GM actions recorded for lepanto" in answer
    gm_mail(services, f"pause\nPassword: {secret}", clock())
    row, answer = gm_mail(services, f"actions lepanto\nPassword: {secret}", clock())
    assert "Done: 1 of the 1 GM actions recorded for lepanto, the newest last:" in answer
    assert "by gm@gm.test, pause: lepanto is paused" in answer
