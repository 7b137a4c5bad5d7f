"""What the reply says when a numbered set arrives out of order (001 II(7), 000 III(4)): it names the
set that is really on file, from the same combination the adjudication uses."""

from __future__ import annotations

import pytest

from gmserver.db.session import transaction
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.game import ordersets
from tests.support.intake_rows import france_confirmations
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.integration


def _on_file_section(body: str) -> str:
    """From the orders on file on: their heading, or a clean set's "On file (set version N):"."""
    return body[min(body.index(mark) for mark in ("ORDERS ON FILE", "On file (set version") if mark in body):]


def test_a_lower_numbered_later_set_is_told_the_higher_one_stands_001_II_7(database_url, clock) -> None:
    """001 II(7) ¶1 (set_ordering = version_then_receipt): a "#1" set received after a "#2" set
    counts as the earlier one. Its reply must not say it replaced the set on file, and must list
    the "#2" orders, which are the orders the adjudication will use."""
    services = services_for(database_url)
    new_game(services, clock(), name="dan", ruleset="danivon")
    _, late = france_confirmations(services, clock, "danivon", "dan", (("#2", "A Par-Pic"), ("#1", "A Par-Bur")))
    assert "replaces the set on file" not in late
    assert "numbered 1, below the set numbered 2" in late and "001 II(7)" in late, late
    assert "A PAR - PIC" in _on_file_section(late) and "A PAR - BUR" not in _on_file_section(late)
    with transaction(services.sessions) as session:
        on_file = ordersets.orders_on_file(session, 1, "S1901M", load_ruleset("danivon"))
    assert [str(o) for o in on_file.orders["FRANCE"]] == ["A PAR - PIC"]


def test_a_higher_numbered_later_set_replaces_the_one_on_file_001_II_7(database_url, clock) -> None:
    """001 II(7) ¶2 (set_combination = replace): in sequence, the later set replaces the earlier."""
    services = services_for(database_url)
    new_game(services, clock(), name="dan", ruleset="danivon")
    _, late = france_confirmations(services, clock, "danivon", "dan", (("#1", "A Par-Pic"), ("#2", "A Par-Bur")))
    assert "replaces the set on file (house rules 001 II(7))" in late
    assert "A PAR - BUR" in _on_file_section(late) and "A PAR - PIC" not in _on_file_section(late)


def test_a_reply_still_marked_1_is_not_silently_filed_as_set_2(database_url, clock) -> None:
    """000 II(2)b markers, 000 III(4): a second mail whose subject still carries "[1]"
    (a reply quoting the first) is filed as set 2, and the reply says so first."""
    services = services_for(database_url)
    new_game(services, clock(), name="mh", ruleset="mhr")
    first, second = france_confirmations(services, clock, "mhr", "mh", (("[1]", "A Par-Pic"), ("[1]", "A Par-Bur")))
    assert "is marked [1]" not in first
    flat = " ".join(second.split())
    assert "Your message is marked [1], but it is set 2 received from you this turn" in flat, second
    # said once (QA walkthrough), with the rule that makes this set count
    assert ("it is filed as set 2. Under this game's rules (house rules 000 III(4)) the set received last counts, "
            "so this one does.") in flat
    assert "you already sent a set numbered 1" not in flat
