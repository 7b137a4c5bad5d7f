"""OutageTracker: when an outage has lasted long enough to mail the GM (once), and when it ends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gmserver.services.features.alerts import OUTAGE_ALERT_AFTER, Outage, OutageTracker

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)

# (component, ok, minutes after T0) -> "alert" (the GM is told now), "ended", or "" (nothing)
CASES = {
    "a short outage is never alerted": [
        ("relay", False, 0, ""), ("relay", False, 14, ""), ("relay", True, 15, "ended")],
    "alerted once when it has lasted the threshold": [
        ("relay", False, 0, ""), ("relay", False, 10, ""), ("relay", False, 15, "alert"),
        ("relay", False, 20, ""), ("relay", False, 600, ""), ("relay", True, 601, "ended")],
    "the first failure seen long after the start still waits for the threshold": [
        ("imap", False, 30, ""), ("imap", False, 44, ""), ("imap", False, 45, "alert")],
    "a success in between starts a new outage, alerted again": [
        ("imap", False, 0, ""), ("imap", False, 16, "alert"), ("imap", True, 17, "ended"),
        ("imap", False, 18, ""), ("imap", False, 32, ""), ("imap", False, 33, "alert")],
    "components are independent": [
        ("relay", False, 0, ""), ("database", False, 5, ""), ("relay", False, 15, "alert"),
        ("database", True, 16, "ended"), ("relay", False, 30, ""), ("database", False, 31, ""),
        ("database", False, 46, "alert")],
    "success without an outage says nothing": [
        ("relay", True, 0, ""), ("relay", True, 60, "")],
}


@pytest.mark.parametrize("steps", CASES.values(), ids=CASES.keys())
def test_outage_tracker(steps) -> None:
    tracker = OutageTracker()
    for component, ok, minutes, expected in steps:
        now = T0 + timedelta(minutes=minutes)
        tracker, alert, ended = tracker.observe(component, ok, now, error="" if ok else f"down at {minutes}")
        said = "alert" if alert else "ended" if ended else ""
        assert said == expected, (component, ok, minutes)
        if alert:
            assert alert.component == component and alert.noticed == now
            assert now - alert.since >= OUTAGE_ALERT_AFTER
            assert alert.error == f"down at {minutes}"


def test_one_outage_keeps_its_start_and_so_its_dedupe_key() -> None:
    tracker = OutageTracker(threshold=timedelta(minutes=5))
    tracker, _, _ = tracker.observe("relay", False, T0, "refused")
    tracker, alert, _ = tracker.observe("relay", False, T0 + timedelta(minutes=5), "refused again")
    assert alert == Outage("relay", T0, "refused again", T0 + timedelta(minutes=5))
    assert alert.dedupe_key == "alert:outage:relay:2026-11-22T12:00:00+0000"
    tracker, _, ended = tracker.observe("relay", True, T0 + timedelta(minutes=9))
    assert ended is not None and ended.since == T0 and tracker.down == {}
