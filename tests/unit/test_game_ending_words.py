"""The end of a game in words and its centre history as text (reports/ending.py). Values by hand."""

from __future__ import annotations

from gmserver.reports.ending import history_lines, solo_words


def test_a_solo_in_words_with_its_count_and_clause() -> None:
    assert solo_words("FRANCE", phase_name="Fall 1905 Movement", owned=18, occupied=0, solo_centres=18,
                      clause="000 IX(1)") == ("France has won the game: it owns 18 supply centres after Fall 1905 "
                                              "Movement, the 18 a solo needs (house rules 000 IX(1)).")


def test_a_spring_solo_counts_the_centres_occupied_003_23() -> None:
    """003 [23] "conquers the 18th supply centre (Spring or Autumn)": owned plus occupied."""
    assert solo_words("FRANCE", phase_name="Spring 1906 Movement", owned=17, occupied=1, solo_centres=18,
                      clause="003 [23]") == ("France has won the game: after Spring 1906 Movement it owns 17 supply "
                                             "centres and occupies 1 more, 18 in all, the 18 a solo needs (house "
                                             "rules 003 [23]).")


def test_history_lines_one_row_per_power_under_the_years() -> None:
    # the counts at the start of 1901 (before any Fall), after the Falls of 1901 and 1902, and the end
    points = [("S1901M", {"FRANCE": 3, "ITALY": 3}), ("S1902M", {"FRANCE": 5, "ITALY": 4}),
              ("S1903M", {"FRANCE": 6, "ITALY": 2}), ("COMPLETED", {"FRANCE": 7})]
    assert history_lines(points) == (
        "            start  1901  1902   end",
        "France          3     5     6     7",
        "Italy           3     4     2     0",
    )
    assert history_lines(points[:1]) == ()


def test_a_long_game_s_history_is_cut_in_blocks_under_78_characters() -> None:
    points = [(f"S{1901 + n}M", {"FRANCE": n}) for n in range(15)]
    lines = history_lines(points)
    assert all(len(line) < 76 for line in lines)  # the report indents them by two
    assert lines[0].split()[:2] == ["start", "1901"] and "" in lines  # two blocks
