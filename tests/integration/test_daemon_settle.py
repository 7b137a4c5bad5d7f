"""`Daemon.settle`: what `gmserver run` and the demo do once the daemon has started."""

from __future__ import annotations

import gc

import pytest

from gmserver import collector, mapboard
from gmserver.config import Config, ListenerConfig
from gmserver.daemon import Daemon
from tests.support.dovecot import free_port
from tests.support.world import GM, services_for

pytestmark = pytest.mark.integration


def test_a_settled_daemon_has_drawn_the_board_before_the_first_confirmation_needs_it(
        database_url, tmp_path, restored_collector: None) -> None:
    """The board's raster (every confirmation's map is drawn on it) is built by `settle`, not by
    `start` (tests start daemons by the hundred) and not inside the first burst of mail."""
    config = Config(database_url=database_url, gm_address=GM, listener=ListenerConfig(port=free_port()),
                    maildir_path=str(tmp_path / "maildir"), sweep_interval_seconds=3600)
    daemon = Daemon(config, services=services_for(database_url))
    mapboard.board.cache_clear()
    daemon.start()
    try:
        assert mapboard.board.cache_info().currsize == 0
        daemon.settle()
        assert mapboard.board.cache_info().currsize == 1
        assert gc.get_threshold()[0] == collector.YOUNG_THRESHOLD
    finally:
        daemon.stop()
