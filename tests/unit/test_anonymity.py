"""reports.anonymity: every builder that would name a player to another one, in an anonymous
(gunboat) game and in an ordinary one."""

from __future__ import annotations

from gmserver.reports.anonymity import (
    HIDDEN,
    NOT_SHOWN,
    Seat,
    holder_words,
    new_player_words,
    players_listed,
    reveal_lines,
    without_addresses,
)

SEATS = [Seat("ENGLAND", "anna@example.org"), Seat("FRANCE", "bob@example.org"), Seat("TURKEY", "cem@example.org")]


def test_the_start_mail_lists_the_other_players_addresses_in_an_ordinary_game() -> None:
    assert players_listed(SEATS, "FRANCE", anonymous=False) == [
        ("England", "anna@example.org"), ("Turkey", "cem@example.org")]


def test_the_start_mail_of_an_anonymous_game_lists_the_powers_and_no_address() -> None:
    listed = players_listed(SEATS, "france", anonymous=True)
    assert listed == [("England", HIDDEN), ("Turkey", HIDDEN)]
    assert not any("@" in shown for _, shown in listed)


def test_a_new_player_is_named_to_the_others_only_in_an_ordinary_game() -> None:
    assert new_player_words("TURKEY", "dora@example.org", anonymous=False) == "Turkey is now played by dora@example.org."
    words = new_player_words("TURKEY", "dora@example.org", anonymous=True)
    assert "dora" not in words and words.startswith("Turkey has a new player")


def test_a_proxy_holder_who_plays_here_is_their_power_in_an_anonymous_game() -> None:
    assert holder_words("anna@example.org", SEATS, anonymous=True) == "England's player"
    assert holder_words("anna@example.org", SEATS, anonymous=False) == "anna@example.org"
    # someone from outside the game: the owner named them, so their address is no secret to them
    assert holder_words("friend@example.org", SEATS, anonymous=True) == "friend@example.org"


def test_the_reveal_names_every_power_s_player_and_those_before_them() -> None:
    former = [(Seat("TURKEY", "old@example.org"), "Fall 1901 Movement"),
              (Seat("ITALY", "gone@example.org"), "Spring 1902 Movement")]
    assert reveal_lines(SEATS, former) == [
        "England: anna@example.org",
        "France: bob@example.org",
        "Turkey: cem@example.org (before: old@example.org until Fall 1901 Movement)",
        "Italy: no player at the end (before: gone@example.org until Spring 1902 Movement)",
    ]


def test_a_gm_action_s_record_read_by_a_player_of_an_anonymous_game_shows_no_address() -> None:
    record = "TURKEY is now played by Dora@Example.org (was cem@example.org.uk); the start mail is queued"
    assert without_addresses(record, ["dora@example.org", "cem@example.org", "cem@example.org.uk"]) == (
        f"TURKEY is now played by {NOT_SHOWN} (was {NOT_SHOWN}); the start mail is queued")
    assert without_addresses(record, []) == record
