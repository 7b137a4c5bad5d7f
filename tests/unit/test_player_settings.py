"""What players write after SET ZONE, SET CONFIRM and SET PRESS (gmserver.rules.player_settings),
with the mistakes players make: any case, extra words, a colon, a full stop."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gmserver.reports.words import format_time
from gmserver.rules.player_settings import read_confirm_style, read_press_delivery, read_zone


@pytest.mark.parametrize(("text", "zone"), [
    ("Europe/Berlin", "Europe/Berlin"),
    ("europe/berlin", "Europe/Berlin"),
    ("EUROPE/BERLIN please", "Europe/Berlin"),
    (": America/New_York", "America/New_York"),
    ("america/new_york.", "America/New_York"),
    ("utc", "UTC"),
    ("game", None),
    ("Off", None),
])
def test_a_zone_is_read_in_any_case_with_extra_words(text: str, zone: str | None) -> None:
    assert read_zone(text) == zone


@pytest.mark.parametrize(("text", "said"), [
    ("", "no time zone was named"),
    ("Berlin", "'Berlin' is not a time zone name"),
    ("CET+1", "is not a time zone name"),
])
def test_a_zone_that_is_none_says_how_to_write_one(text: str, said: str) -> None:
    with pytest.raises(ValueError, match=said) as refused:
        read_zone(text)
    assert "Europe/Berlin" in str(refused.value) or "no time zone" in str(refused.value)


@pytest.mark.parametrize(("text", "style"), [("brief", "brief"), ("BRIEF please", "brief"), ("Full.", "full"),
                                             (": full", "full")])
def test_confirm_style_is_read_in_any_case(text: str, style: str) -> None:
    assert read_confirm_style(text) == style


@pytest.mark.parametrize(("text", "delivery"), [("digest", "digest"), ("Digest please", "digest"),
                                                ("EACH", "each"), ("each!", "each")])
def test_press_delivery_is_read_in_any_case(text: str, delivery: str) -> None:
    assert read_press_delivery(text) == delivery


@pytest.mark.parametrize("text", ["short", "", "daily"])
def test_a_choice_that_is_none_of_them_names_them(text: str) -> None:
    with pytest.raises(ValueError, match="one of each or digest"):
        read_press_delivery(text)
    with pytest.raises(ValueError, match="one of full or brief"):
        read_confirm_style(text)


def test_a_deadline_in_the_reader_s_zone_has_the_game_s_zone_and_utc_beside_it() -> None:
    """SET ZONE: the reader's zone first, then the game's and UTC."""
    deadline = datetime(2026, 12, 4, 18, 0, tzinfo=UTC)
    when = format_time(deadline, "America/New_York", "Europe/Berlin")
    assert when.local == "Friday 4 December 2026, 19:00 CET (Europe/Berlin)"
    assert when.utc == "Friday 4 December 2026, 13:00 EST (America/New_York) = Friday 4 December 2026, 18:00 UTC"
    in_utc_game = format_time(deadline, "UTC", "Europe/Berlin")
    assert (in_utc_game.local, in_utc_game.utc) == ("Friday 4 December 2026, 19:00 CET (Europe/Berlin)",
                                                    "Friday 4 December 2026, 18:00 UTC")
    assert format_time(deadline, "Europe/Berlin", "Europe/Berlin") == format_time(deadline, "Europe/Berlin")
    assert format_time(deadline, "Europe/Berlin", None) == format_time(deadline, "Europe/Berlin")


def test_summer_time_is_the_reader_s_own() -> None:
    """The same UTC moment in July is CEST for a Berlin reader of a New York game."""
    when = format_time(datetime(2026, 7, 3, 18, 0, tzinfo=UTC), "America/New_York", "Europe/Berlin")
    assert when.local == "Friday 3 July 2026, 20:00 CEST (Europe/Berlin)"
    assert "14:00 EDT (America/New_York)" in when.utc
