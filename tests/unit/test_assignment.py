"""The powers of an open sign-up, assigned by preferences (gmserver.rules.assignment): each table
below was worked out by hand from the method's three steps (rank-maximal score vector, the best
assignments in a fixed order, index SHA-256(seed) mod count); the expected values are not
produced by the code under test."""

from __future__ import annotations

import hashlib

import pytest

from gmserver.rules.assignment import PreferenceError, assign, draw_index, preference_words, read_preferences

AUS, ENG, FRA, GER, ITA, RUS, TUR = "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"


@pytest.mark.parametrize("text, powers", [
    ("England, France, Austria", (ENG, FRA, AUS)),
    ("england,france", (ENG, FRA)),
    ("Eng Fra Aus", (ENG, FRA, AUS)),
    ("France > Germany > Italy.", (FRA, GER, ITA)),
    ("UK; Turkey / Russia", (ENG, TUR, RUS)),
    ("France, France, Italy", (FRA, ITA)),  # a power named twice counts at its first place
    ("any", ()),
    ("Any.", ()),
    ("", ()),
])
def test_preferences_are_read_as_players_write_them(text: str, powers: tuple[str, ...]) -> None:
    assert read_preferences(text) == powers


def test_a_word_that_is_no_power_is_refused_with_the_powers_named() -> None:
    with pytest.raises(PreferenceError, match=r"'Spain' is not a power: write powers .*Austria, England.*'any'"):
        read_preferences("England, Spain")


def test_preferences_are_said_in_words() -> None:
    assert preference_words((ENG, FRA)) == "England, then France"
    assert preference_words(()) == "any power"


def test_the_draw_is_sha256_of_the_seed_modulo_the_count() -> None:
    digest = int(hashlib.sha256(b"lepanto-1").hexdigest(), 16)
    assert draw_index("lepanto-1", 5040) == digest % 5040


def test_seven_different_first_choices_are_all_granted() -> None:
    table = [(FRA,), (ENG,), (GER,), (ITA,), (AUS,), (RUS,), (TUR,)]
    result = assign(table, "lepanto-1")
    assert result.powers == (FRA, ENG, GER, ITA, AUS, RUS, TUR)
    assert result.score == (7, 0, 0, 0, 0, 0, 0) and result.best_count == 1


def test_a_later_player_s_only_wish_beats_an_earlier_player_s_first_when_both_are_then_granted() -> None:
    """Queue order decides nothing: P1 (France, England) and P2 (France only). Giving P1 France
    leaves P2 an unlisted power, score (1,0); giving P2 France and P1 England scores (1,1)."""
    result = assign([(FRA, ENG), (FRA,)], "seed-a")
    assert result.powers == (ENG, FRA)
    assert result.score[:2] == (1, 1) and result.best_count == 1


def test_more_first_choices_beat_more_second_choices() -> None:
    """P1 (Russia, Italy), P2 (Italy, Russia), P3 (Italy, Turkey). Best is two firsts: P1 Russia,
    P2 Italy, P3 Turkey scores (2,1); P1 Italy, P2 Russia, P3 Turkey would be (0,3) only."""
    result = assign([(RUS, ITA), (ITA, RUS), (ITA, TUR)], "seed-a")
    assert result.powers == (RUS, ITA, TUR)
    assert result.score[:2] == (2, 1)


def test_everyone_wanting_france_one_gets_it_and_the_seconds_decide_who() -> None:
    """All seven want France first; second choices England, Germany, Italy, Russia, Turkey,
    Austria, England. One France at most (n1 = 1). If P1 or P7 gets France, the other of the two
    gets England and all six others their second choice: (1,6). If anyone else gets France, P1 and
    P7 both want England and one misses: (1,5). So two best assignments, ordered by P1's power:
    [P1 England, P7 France], [P1 France, P7 England]; SHA-256("lepanto-1") is odd: index 1."""
    table = [(FRA, ENG), (FRA, GER), (FRA, ITA), (FRA, RUS), (FRA, TUR), (FRA, AUS), (FRA, ENG)]
    result = assign(table, "lepanto-1")
    assert result.best_count == 2 and result.score[:2] == (1, 6)
    assert result.chosen == 1
    assert result.powers == (FRA, GER, ITA, RUS, TUR, AUS, ENG)
    # the other seed parity takes the other one
    assert assign(table, "seed-a").powers == (ENG, GER, ITA, RUS, TUR, AUS, FRA)


def test_everyone_wanting_only_france_is_a_draw_among_every_assignment() -> None:
    """Seven players who list France alone: every assignment gives exactly one of them France,
    so all 7! = 5040 tie; the draw decides, and the same seed always gives the same powers."""
    table = [(FRA,)] * 7
    result = assign(table, "lepanto-2")
    assert result.best_count == 5040 and result.score[0] == 1
    assert sorted(result.powers) == sorted([AUS, ENG, FRA, GER, ITA, RUS, TUR])
    assert assign(table, "lepanto-2") == result


def test_any_decides_nothing_and_takes_what_the_draw_leaves() -> None:
    """P1 (England, France), P2 (England), P3 any. P2 England and P1 France score (1,1); P1
    England scores (1,0). P3 may then have any of the five powers left: five best assignments,
    in P3's alphabetical order Austria, Germany, Italy, Russia, Turkey; SHA-256("seed-b") mod 5 = 2:
    Italy."""
    result = assign([(ENG, FRA), (ENG,), ()], "seed-b")
    assert result.best_count == 5 and result.chosen == 2
    assert result.powers == (FRA, ENG, ITA)


def test_seven_players_saying_any_are_assigned_by_the_draw_alone() -> None:
    """Nobody prefers anything: 5040 best assignments, score all zeros; index SHA-256("lepanto-3")
    mod 5040 of the permutations in lexicographic order."""
    result = assign([()] * 7, "lepanto-3")
    assert result.best_count == 5040 and result.score == (0,) * 7
    assert result.chosen == draw_index("lepanto-3", 5040)


def test_a_tie_between_two_players_wanting_the_same_power() -> None:
    """P1 and P2 both want France alone: one of them has it (score (1,...)); the other may have
    any of the six others: 2 x 6 = 12 best assignments. In order: P1 Austria and P1 England (P2
    France) are 0 and 1; P1 France with P2 Austria, England, Germany, Italy, Russia, Turkey are 2-7;
    P1 Germany, Italy, Russia, Turkey (P2 France) 8-11. SHA-256("seed-a") mod 12 = 6: P1 France,
    P2 Russia."""
    result = assign([(FRA,), (FRA,)], "seed-a")
    assert result.best_count == 12 and result.chosen == 6
    assert result.powers == (FRA, RUS)


def test_more_players_than_powers_is_an_error_of_the_caller() -> None:
    with pytest.raises(ValueError, match="8 players for 7 powers"):
        assign([()] * 8, "x")
