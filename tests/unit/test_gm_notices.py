"""The GM's notices about a game, as `gmserver outbox list` names them."""

from __future__ import annotations

import pytest

from gmserver.services.features.alerts import describe


@pytest.mark.parametrize(("key", "words"), [
    ("gm:nmr:12:F1901M:RUSSIA:tell_gm_cd", "game 12: missed orders (F1901M RUSSIA tell_gm_cd)"),
    ("gm:stalemate:4:1906", "game 4: no supply centre changed hands (stalemate) (1906)"),
    ("gm:preliminary:7", "game 7: no orders yet for Spring 1901 (000 II(1))"),
    ("gm:unknown:1", "gm:unknown:1"),  # not a notice gmserver makes: shown as it is
    ("alert:parked:5", "inbound message 5 parked"),
])
def test_outbox_list_names_each_notice(key: str, words: str) -> None:
    assert describe(key) == words
