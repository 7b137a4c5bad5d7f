"""Stage 1: the usual forms, read against the position, under the `standard` profile."""

from __future__ import annotations

import pytest

from gmserver import engine
from gmserver.rules.position import Position
from tests.unit.reading.support import notation, one, opening, read

MID = Position(
    phase="F1902M",
    units={
        "FRANCE": ("A PAR", "F BRE", "A MAR", "F MAO", "A GAS", "F POR"),
        "ENGLAND": ("A LON", "F NTH", "F ENG", "F LVP"),
        "GERMANY": ("A MUN", "F KIE", "A BER", "A TYR"),
        "ITALY": ("F ION", "A VEN", "F NAP", "F TYS"),
        "RUSSIA": ("F STP/SC", "F SEV", "A WAR"),
        "TURKEY": ("F CON", "A BUL", "F BLA"),
        "AUSTRIA": ("A VIE", "F TRI", "A BUD"),
    },
    centers={},
)

MOVEMENT = [
    # (id, power, text, status, order)
    ("engine-notation", "FRANCE", "A PAR - BUR", "accepted", "A PAR - BUR"),
    ("abbrev-dash", "FRANCE", "A Par-Bur", "accepted", "A PAR - BUR"),
    ("arrow", "ENGLAND", "F Lon -> NTH", "rejected", "A LON H"),  # an army cannot go to sea
    ("arrow-fleet", "ENGLAND", "F NTH -> Bel", "accepted", "F NTH - BEL"),
    ("unicode-arrow", "FRANCE", "A Par → Bur", "accepted", "A PAR - BUR"),
    ("full-names", "FRANCE", "F Brest -> English Channel", "accepted", "F BRE - ENG"),
    ("prose", "FRANCE", "army paris moves to burgundy", "accepted", "A PAR - BUR"),
    ("holds-word", "FRANCE", "A Mar holds", "accepted", "A MAR H"),
    ("h", "FRANCE", "A Mar H", "accepted", "A MAR H"),
    ("support-move", "GERMANY", "A Mun S A Ber - Kie", "accepted", "A MUN S A BER - KIE"),
    ("support-hold", "FRANCE", "F Bre S F ENG", "accepted", "F BRE S F ENG"),
    ("support-foreign-nationality", "FRANCE", "A Mar S German A Mun - Bur", "accepted", "A MAR S A MUN - BUR"),
    ("convoy", "ENGLAND", "F NTH C A Lon - Bel", "accepted", "F NTH C A LON - BEL"),
    ("convoyed-move-via", "ENGLAND", "A Lon - Bel", "accepted", "A LON - BEL VIA"),
    ("via-convoy-words", "FRANCE", "A Gas - Bre via convoy", "accepted", "A GAS - BRE VIA"),
    ("coast-parens", "FRANCE", "F Mid-Atlantic Ocean - Spain (north coast)", "accepted", "F MAO - SPA/NC"),
    ("coast-slash", "FRANCE", "F MAO - Spa/sc", "accepted", "F MAO - SPA/SC"),
    ("two-orders-one-line", "FRANCE", "A Par - Bur, A Mar - Pie", None, None),
    ("numbered", "FRANCE", "1. A Par-Bur", "accepted", "A PAR - BUR"),
    ("bullet", "FRANCE", "• A Par - Bur", "accepted", "A PAR - BUR"),
    ("not-my-unit", "FRANCE", "A Mun - Ruh", "rejected", None),
    ("no-unit-there", "FRANCE", "A Pic - Bel", "rejected", None),
    ("chatter", "FRANCE", "Hi all, hope you are well!", "ignored", None),
    ("greeting", "FRANCE", "Dear GM,", "ignored", None),
    ("impossible-move", "FRANCE", "A Par - Vie", "rejected", "A PAR H"),
    ("wrong-coast-named-stp", "RUSSIA", "F StP(sc) - Bot", "accepted", "F STP/SC - BOT"),
    ("bul-ec", "TURKEY", "F Bla - Bul EC", "accepted", "F BLA - BUL/EC"),
]


@pytest.mark.parametrize("case", MOVEMENT, ids=[c[0] for c in MOVEMENT])
def test_movement_forms(case):
    _, power, text, status, order = case
    reading = read(text, MID, power)
    if status is None:
        assert [r.status for r in reading.lines] == ["accepted", "accepted"]
        return
    line = reading.lines[0]
    assert (line.status, notation(line.order)) == (status, order), line
    if status in ("rejected", "ignored"):
        assert line.message


def test_line_numbers_and_text_are_as_written():
    text = "Hello GM\n\nA Par - Bur\n  F Bre - MAO  \nthanks"
    reading = read(text, MID, "FRANCE")
    assert [(r.line, r.status) for r in reading.lines] == [
        (1, "ignored"), (3, "accepted"), (4, "accepted"), (5, "ignored")]
    assert reading.lines[2].text == "  F Bre - MAO  "
    assert notation(reading.orders) == ("F BRE - MAO", "A PAR - BUR")
    assert reading.phase == "F1902M" and reading.power == "FRANCE"


RETREAT = Position(
    phase="F1901R",
    units={"ITALY": ("A ALB", "F ADR", "F ION"), "AUSTRIA": ("A SER",), "GERMANY": ("A BOH",)},
    dislodged={"AUSTRIA": ("F TRI", "A VIE"), "GERMANY": ("A MUN",)},
    retreats={"F TRI": ("VEN",), "A VIE": ("BUD", "GAL", "TYR"), "A MUN": ("BUR", "KIE", "RUH")},
    centers={},
)


@pytest.mark.parametrize("power, text, status, order", [
    ("GERMANY", "A Mun R Bur", "accepted", "A MUN R BUR"),
    ("GERMANY", "A Mun - Ruh", "accepted", "A MUN R RUH"),
    ("GERMANY", "A Mun retreats to Kiel", "accepted", "A MUN R KIE"),
    ("AUSTRIA", "F Tri disband", "accepted", "F TRI D"),
    ("AUSTRIA", "Disband F Tri", "accepted", "F TRI D"),
    ("AUSTRIA", "F Tri R Alb", "rejected", "F TRI D"),  # illegal retreat disbands (004 I(4))
    ("AUSTRIA", "A Ser - Bud", "rejected", None),  # not dislodged
], ids=["R", "dash", "words", "disband", "disband-prefix", "illegal", "not-dislodged"])
def test_retreat_forms(power, text, status, order):
    line = one(text, RETREAT, power)
    assert (line.status, notation(line.order)) == (status, order), line


ADJUST = Position(
    phase="W1901A",
    units={"RUSSIA": ("A MOS",), "AUSTRIA": ("F TRI", "A VIE", "A BUD", "A SER")},
    centers={"RUSSIA": ("STP", "SEV", "MOS", "WAR", "RUM"), "AUSTRIA": ("TRI", "BUD")},
)


@pytest.mark.parametrize("power, text, status, order", [
    ("RUSSIA", "Build A War", "accepted", "A WAR B"),
    ("RUSSIA", "Build F StP/NC", "accepted", "F STP/NC B"),
    ("RUSSIA", "build fleet st petersburg (south coast)", "accepted", "F STP/SC B"),
    ("RUSSIA", "A War B", "accepted", "A WAR B"),
    ("RUSSIA", "Waive", "accepted", "WAIVE"),
    ("RUSSIA", "Build A Mos", "rejected", None),  # occupied
    ("RUSSIA", "Build F War", "rejected", None),  # inland fleet
    ("AUSTRIA", "Remove F Tri", "accepted", "F TRI D"),
    ("AUSTRIA", "Disband A Ser", "accepted", "A SER D"),
    ("AUSTRIA", "A Vie D", "accepted", "A VIE D"),
    ("AUSTRIA", "Build A Vie", "rejected", None),
], ids=["build-army", "build-fleet-coast", "build-words", "engine-form", "waive", "occupied",
        "inland-fleet", "remove", "disband", "D", "build-when-removing"])
def test_adjustment_forms(power, text, status, order):
    line = one(text, ADJUST, power)
    assert (line.status, notation(line.order)) == (status, order), line


def test_every_accepted_order_is_engine_legal_here():
    state = engine.state_from_position(MID)
    legal = {o for orders in engine.legal_orders(state).values() for o in orders}
    for _, power, text, _, _ in MOVEMENT:
        for order in notation(read(text, MID, power).orders):
            assert order in legal, (text, order)


def test_opening_full_set():
    text = "A Par - Bur\nA Mar - Spa\nF Bre - MAO\n"
    reading = read(text, opening(), "FRANCE")
    assert notation(reading.orders) == ("F BRE - MAO", "A MAR - SPA", "A PAR - BUR")
