"""The integration tests' game: services on the test database with the standard game "lepanto".
The mail servers' fixtures are in tests/support/mail_servers.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gmserver.services.base.context import SenderChecks, Services
from tests.support.clock import Clock
from tests.support.world import new_game, services_for


@pytest.fixture
def make_world(database_url: str, clock: Clock) -> Callable[..., Services]:
    """`make_world(**game_options)`: services on this test's database with the game "lepanto"
    created now, `game_options` passed to `new_game` (ruleset, timezone, sender_check, ...);
    `sender_checks` (for the services) is the one option that is not the game's."""
    def make(*, sender_checks: SenderChecks | None = None, **game_options: Any) -> Services:
        services = services_for(database_url, sender_checks=sender_checks)
        new_game(services, clock(), **game_options)
        return services
    return make


@pytest.fixture
def world(make_world: Callable[..., Services]) -> Services:
    """Services on this test's database with the standard game "lepanto" (deadline: now + 48 h,
    reminders 24 h before)."""
    return make_world()
