"""The capped distance that typo tolerance (000 III(2), 002 FORMAT 5, 003 [17]) and the "did you
mean" suggestions use: its shortcuts (length, letters one word lacks, the row minimum) never
change the answer of the whole table."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gmserver.rules.reading.provinces import edit_distance


def full_table_distance(a: str, b: str) -> int:
    """Optimal string alignment computed over the whole table, with no cap and no shortcut."""
    rows = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        rows[i][0] = i
    for j in range(len(b) + 1):
        rows[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[-1][-1]


WORDS = st.text(alphabet="ABEINORSTU", max_size=9)


@given(WORDS, WORDS, st.integers(min_value=0, max_value=3))
@settings(max_examples=600)
def test_capped_distance_is_the_full_tables_capped(a: str, b: str, limit: int) -> None:
    assert edit_distance(a, b, limit) == min(full_table_distance(a, b), limit + 1)


def test_letters_one_word_lacks_settle_it() -> None:
    """"ANKRA" is one edit from ANKARA; "BURGUNDY" has four letters ANKARA lacks: over any limit of 2."""
    assert edit_distance("ANKRA", "ANKARA", 2) == 1
    assert edit_distance("TRIETS", "TRIESTE", 2) == 2  # a transposition keeps the letters
    assert edit_distance("BURGUND", "ANKARA", 2) == 3
