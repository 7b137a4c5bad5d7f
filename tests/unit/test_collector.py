"""The daemon process's garbage-collector settings (gmserver/collector.py)."""

from __future__ import annotations

import gc
import weakref

from gmserver import collector


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_start_up_garbage_is_collected_not_frozen(restored_collector: None) -> None:
    """A cycle left unreachable at start is freed, not frozen with what is alive."""
    first, second = _Node(), _Node()
    first.other, second.other = second, first
    gone = weakref.ref(first)
    del first, second
    collector.settle_after_start()
    assert gone() is None


def test_what_is_alive_is_frozen_and_young_collections_are_rarer(restored_collector: None) -> None:
    kept = [_Node() for _ in range(10)]
    collector.settle_after_start()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold()[0] == collector.YOUNG_THRESHOLD
