"""What the player reads in the confirmation for the new readings -- a fragment of a
name for one of the player's units, and a support of another power's unit -- rendered from the
real template: the rule in words, clause after, never an option key; no "received" when nothing
was read. Expectations written by hand from the seeds (see tests/unit/reading/test_unit_fragments.py
and test_foreign_supports.py for the clauses)."""

from __future__ import annotations

import re

import pytest

from gmserver import engine
from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports.replies import build_confirmation
from tests.unit.reading.support import opening, position, read


@pytest.fixture(scope="module")
def composer() -> Composer:
    return Composer(TEMPLATES_DIR, gm_name="Test GM", gm_address="gm@gm.test")


def _reply(text: str, pos, power: str, profile: str, composer: Composer) -> str:
    reading = read(text, pos, power, profile)
    confirmation = build_confirmation(
        game_name="lepanto", power=power.upper(), phase=pos.phase, deadline=None, readings=reading.lines,
        orders_on_file=reading.orders, version=1, geography=engine.map_info(),
        units=pos.units.get(power.upper(), ()))
    return " ".join(composer.render(confirmation.template, confirmation).split())


KIEL = position("S1902M", germany=["F KIE", "A MUN"])


def test_fragment_read_under_002_format_7(composer):
    body = _reply("F Ki - Den", KIEL, "germany", "email_rules", composer)
    assert body.count("Your orders were received") == 1
    assert "Read 'Ki' as your fleet in Kiel, the only one of your units it fits. (house rules 002 FORMAT 7)" in body


@pytest.mark.parametrize("profile", ["scorpion", "gwm"])
def test_fragment_not_read_says_what_would_have_been_accepted(profile, composer):
    """map_only: nothing was read, so the reply says that first, why, and the order it could be."""
    body = _reply("F Ki - Den", KIEL, "germany", profile, composer)
    assert "Your orders were received" not in body
    assert body.index("No order could be read from your message") < body.index("Did you mean F KIE - DEN?")
    assert "(a unit is found by the province written, a rule of this game)" in body
    assert not re.search(r"\b[a-z]+_[a-z_]+ = ", body)  # no option key


def test_hold_support_of_a_foreign_unit_under_000_iii_5(composer):
    body = _reply("A Ven S Austrian F Tri", opening(), "italy", "mhr", composer)
    assert ("If Austria orders F TRI to move, even where it cannot go, this support will be void. "
            "(house rules 000 III(5))") in body


@pytest.mark.parametrize("profile, cited", [
    ("mhr", "house rules 000 III(5)"), ("scorpion", "house rules 003 [10 b]"),
    ("email_rules", "house rules 002 Q&A 4"),
    ("standard", "the 2000 rulebook"), ("danivon", "the 2000 rulebook"), ("gwm", "the 2000 rulebook"),
])
def test_hold_support_of_own_moving_unit_said_void_at_once(profile, cited, composer):
    """A unit ordered to move cannot receive support to hold (000 III(5), 003 [10 b], 002 Q&A 4;
    elsewhere RB2000): the reply says so in words on the support's line, the clause after, and
    offers the support of the move; the move itself is read."""
    body = _reply("A Vie S A Bud\nA Bud - Gal", opening(), "austria", profile, composer)
    assert ("line 1: A Vie S A Bud NOT USED: A BUD cannot receive support to hold: it is ordered to move "
            "(A BUD - GAL). The support is void; A VIE holds. Did you mean A VIE S A BUD - GAL? "
            f"({cited})") in body
    assert "ORDERS ON FILE FOR AUSTRIA (version 1) A Budapest -> Galicia (A BUD - GAL)" in body
    assert not re.search(r"\b[a-z]+_[a-z_]+ = ", body)  # no option key
