"""Conditions on retreat and adjustment orders (`conditional_adjustment_orders`, 003 [5 a]) and
contingent lines (`contingent_minor_orders`), as tables; each row names its clause.

`objective_only` (000 II(5); 001 III(10); 003 [5 a]): a condition tests only adjudicated facts
-- a unit dislodged, centres owned (gained, lost), builds or removals due, a province occupied;
lines top to bottom; "otherwise" applies when no earlier condition held; an unreadable or
subjective condition is false and reported. `none`: conditional lines are void.
"""

from __future__ import annotations

import pytest

from gmserver.rules.position import Position
from gmserver.rules.reading.condition_facts import TurnFacts, contingent_source, turn_facts
from gmserver.rules.reading.conditions import Check, Clause, Unreadable, parse_condition, split_conditional
from gmserver.rules.reading.reader import _context, read_contingent, read_orders
from gmserver.rules.reading.sets import StoredSet, effective_contingent
from gmserver.rules.ruleset import load_ruleset
from tests.unit.reading.support import geography, notation, ruleset

# Winter 1901: France took Spain and lost F MAO (dislodged, no retreat): two builds, Paris and
# Brest free. Germany lost Belgium: one removal.
WINTER = Position(
    phase="W1901A",
    units={"FRANCE": ("A MAR", "A SPA"), "GERMANY": ("A BUR", "A HOL", "A MUN", "A RUH"), "ENGLAND": ("F ENG",)},
    centers={"FRANCE": ("BRE", "MAR", "PAR", "SPA"), "GERMANY": ("BER", "KIE", "MUN"), "ENGLAND": ("BEL", "LON")},
    adjustments={"FRANCE": 2, "GERMANY": -1},
)
FALL_TURN = TurnFacts("F1901M", {"FRANCE": ("BRE", "MAR", "PAR"), "GERMANY": ("BEL", "BER", "KIE", "MUN"),
                                 "ENGLAND": ("LON",)},
                      {"FRANCE": ("F MAO",)})
# Fall 1901 retreats: the French army in Paris was dislodged from Burgundy.
FALL_RETREAT = Position(
    phase="F1901R",
    units={"FRANCE": ("A MAR", "F BRE"), "GERMANY": ("A PAR", "A MUN")},
    centers={"FRANCE": ("BRE", "MAR", "PAR"), "GERMANY": ("BER", "KIE", "MUN")},
    dislodged={"FRANCE": ("A PAR",)},
    retreats={"A PAR": ("GAS", "PIC")},
)
SPRING_RETREAT = Position(
    phase="S1901R", units=FALL_RETREAT.units, centers=FALL_RETREAT.centers, dislodged=FALL_RETREAT.dislodged,
    retreats=FALL_RETREAT.retreats,
)
NONE = {"conditional_adjustment_orders": "none"}

CASES = [
    # (id naming the clause, profile, overrides, position, turn facts, power, text,
    #  expected orders, status of the first line, clause expected in the first line's rule)
    # -- 000 II(5): contingent retreat, build or disband orders with objective conditions
    ("000 II(5) if dislodged: this unit", "mhr", {}, FALL_RETREAT, None, "france",
     "If dislodged: A Par R Pic", ("A PAR R PIC",), "accepted", "000 II(5)"),
    ("000 II(5) named unit dislodged, no comma", "mhr", {}, FALL_RETREAT, None, "france",
     "If A Par is dislodged A Par R Gas", ("A PAR R GAS",), "accepted", "000 II(5)"),
    ("000 II(5) unless dislodged is false", "mhr", {}, FALL_RETREAT, None, "france",
     "A Par R Gas unless dislodged", (), "ignored", "000 II(5)"),
    ("000 II(5) dislodged in the Fall, tested in the Winter", "mhr", {}, WINTER, FALL_TURN, "france",
     "If my fleet in the Mid-Atlantic was dislodged: Build F Bre", ("F BRE B",), "accepted", "000 II(5)"),
    ("000 II(5) gained a centre", "mhr", {}, WINTER, FALL_TURN, "france",
     "If I gain a centre: Build A Par", ("A PAR B",), "accepted", "000 II(5)"),
    ("000 II(5) gained a named centre", "mhr", {}, WINTER, FALL_TURN, "france",
     "If I take Spain, build A Par", ("A PAR B",), "accepted", "000 II(5)"),
    ("000 II(5) a centre owned before is not gained", "mhr", {}, WINTER, FALL_TURN, "france",
     "If I gain Marseilles: Build A Par", (), "ignored", "000 II(5)"),
    ("000 II(5) a trailing condition", "mhr", {}, WINTER, FALL_TURN, "france",
     "Build A Par if I gained a supply centre", ("A PAR B",), "accepted", "000 II(5)"),
    ("000 II(5) owns every centre named", "mhr", {}, WINTER, None, "france",
     "If I own Spain and Marseilles: Build A Par", ("A PAR B",), "accepted", "000 II(5)"),
    ("000 II(5) owns one of the centres named", "mhr", {}, WINTER, None, "france",
     "If I hold Belgium or Spain: Build A Par", ("A PAR B",), "accepted", "000 II(5)"),
    ("000 II(5) does not own", "mhr", {}, WINTER, None, "france",
     "If I control Belgium: Build A Par", (), "ignored", "000 II(5)"),
    ("000 II(5) lost a named centre", "mhr", {}, WINTER, FALL_TURN, "germany",
     "If I lose Belgium: Remove A Hol", ("A HOL D",), "accepted", "000 II(5)"),
    ("000 II(5) exactly the builds written", "mhr", {}, WINTER, None, "france",
     "If I have two builds: Build A Par\nBuild F Bre", ("A PAR B", "F BRE B"), "accepted", "000 II(5)"),
    ("000 II(5) a number of builds is exact", "mhr", {}, WINTER, None, "france",
     "If I have one build: Build A Par", (), "ignored", "000 II(5)"),
    ("000 II(5) if I have a second build (two due): kept and built", "mhr", {}, WINTER, None, "france",
     "If I have a second build: build F Brest\nBuild A Par", ("A PAR B", "F BRE B"), "accepted", "000 II(5)"),
    ("003 [5 a] if I have a second build (two due)", "scorpion", {}, WINTER, None, "france",
     "If I have a second build: build A Paris", ("A PAR B",), "accepted", "003 [5 a]"),
    ("003 [5 a] if I have a third build is false with two due", "scorpion", {}, WINTER, None, "france",
     "If I have a third build: build A Paris", (), "ignored", "003 [5 a]"),
    ("000 II(5) at least one build", "mhr", {}, WINTER, None, "france",
     "If I get at least one build: Build A Par", ("A PAR B",), "accepted", "000 II(5)"),
    ("000 II(5) no builds is false with builds due", "mhr", {}, WINTER, None, "france",
     "If I have no builds: Waive", (), "ignored", "000 II(5)"),
    ("000 II(5) removals due", "mhr", {}, WINTER, None, "germany",
     "If I must remove a unit: Remove A Hol", ("A HOL D",), "accepted", "000 II(5)"),
    ("000 II(5) occupied", "mhr", {}, WINTER, None, "france",
     "If Burgundy is occupied: Build A Par", ("A PAR B",), "accepted", "000 II(5)"),
    ("000 II(5) empty is false when occupied", "mhr", {}, WINTER, None, "france",
     "If Burgundy is empty, build A Par", (), "ignored", "000 II(5)"),
    ("000 II(5) isn't occupied", "mhr", {}, WINTER, None, "france",
     "If Burgundy isn't occupied: Build A Par", (), "ignored", "000 II(5)"),
    ("000 II(5) unless occupied", "mhr", {}, WINTER, None, "france",
     "Unless Picardy is occupied, build A Par", ("A PAR B",), "accepted", "000 II(5)"),
    ("000 II(5) otherwise when no condition held", "mhr", {}, WINTER, FALL_TURN, "france",
     "If I lose Marseilles: Build A Par\nOtherwise build F Bre", ("F BRE B",), "ignored", "000 II(5)"),
    ("000 II(5) no otherwise after a condition held", "mhr", {}, WINTER, FALL_TURN, "france",
     "If I gain a centre: Build A Par\nOtherwise: Waive", ("A PAR B",), "accepted", "000 II(5)"),
    ("000 II(5) each otherwise ends a chain", "mhr", {}, WINTER, FALL_TURN, "france",
     "If I lose Paris: Build A Mar\nOtherwise Build A Par\nIf I own Belgium: Waive\nElse build F Bre",
     ("A PAR B", "F BRE B"), "ignored", "000 II(5)"),
    ("000 II(5) if/otherwise on one line", "mhr", {}, WINTER, FALL_TURN, "france",
     "If I lose Paris then build A Mar otherwise build A Par", ("A PAR B",), "ignored", "000 II(5)"),
    ("000 II(5) Spring ownership is testable in the retreat", "mhr", {}, SPRING_RETREAT, None, "france",
     "If I own Paris: A Par R Gas", ("A PAR R GAS",), "accepted", "000 II(5)"),
    ("000 II(5) Fall ownership is not decided in the retreat", "mhr", {}, FALL_RETREAT, None, "france",
     "If I own Paris: A Par R Gas", (), "rejected", "000 II(5)"),
    ("000 II(5) Winter dislodgement unknown without the Fall facts", "mhr", {}, WINTER, None, "france",
     "If dislodged: Build F Bre", (), "rejected", "000 II(5)"),
    # -- 001 III(10): conditional sets are evaluated as written; the top-down rule applies to the rest
    ("001 III(10) false condition, the rest top down", "danivon", {}, WINTER, FALL_TURN, "france",
     "If I lose Spain: Build A Par\nBuild F Bre\nBuild A Par", ("A PAR B", "F BRE B"), "ignored", "001 III(10)"),
    ("001 III(10) excess after the conditions", "danivon", {}, WINTER, FALL_TURN, "france",
     "If I own Spain: Build A Par\nBuild F Bre\nWaive", ("A PAR B", "F BRE B"), "accepted", "001 III(10)"),
    ("001 III(10) conditional retreat", "danivon", {}, FALL_RETREAT, None, "france",
     "If A Par is dislodged: A Par R Gas", ("A PAR R GAS",), "accepted", "001 III(10)"),
    # -- 003 [5 a]: nothing may be conditional on subjective events; "otherwise build ..."
    ("003 [5 a] subjective condition is false", "scorpion", {}, WINTER, FALL_TURN, "france",
     "If Austria attacked Italy, build A Par\nOtherwise build F Bre", ("F BRE B",), "rejected", "003 [5 a]"),
    ("003 [5 a] unreadable condition is false", "scorpion", {}, WINTER, FALL_TURN, "france",
     "If it rains: build A Par", (), "rejected", "003 [5 a]"),
    ("003 [5 a] other powers' positions are not tested", "scorpion", {}, WINTER, FALL_TURN, "france",
     "If Germany holds Munich: build A Par", (), "rejected", "003 [5 a]"),
    ("003 [5 a] every eventuality: otherwise", "scorpion", {}, WINTER, FALL_TURN, "france",
     "If I gain Belgium: build A Par\nOtherwise build F Bre", ("F BRE B",), "ignored", "003 [5 a]"),
    # -- conditional_adjustment_orders = none (no document; a GM override of the default)
    ("conditional_adjustment_orders = none: a second build is no condition kept", "standard", NONE, WINTER, None,
     "france", "If I have a second build: build A Paris", (), "rejected", "conditional_adjustment_orders"),
    ("conditional_adjustment_orders = none voids the line", "standard", NONE, WINTER, FALL_TURN, "france",
     "If I gain a centre: Build A Par", (), "rejected", "conditional_adjustment_orders = none"),
    ("conditional_adjustment_orders = none voids otherwise", "standard", NONE, WINTER, FALL_TURN, "france",
     "Otherwise build F Bre\nBuild A Par", ("A PAR B",), "rejected", "conditional_adjustment_orders = none"),
    ("conditional_adjustment_orders = none voids retreats", "standard", NONE, FALL_RETREAT, None, "france",
     "If dislodged: A Par R Pic", (), "rejected", "conditional_adjustment_orders = none"),
]


def _ruleset(profile: str, overrides: dict):
    return load_ruleset(profile).with_overrides(overrides) if overrides else ruleset(profile)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_condition(case):
    _, profile, overrides, position, turn, power, text, orders, status, rule = case
    reading = read_orders(text, position=position, power=power.upper(), ruleset=_ruleset(profile, overrides),
                          geography=geography(), turn=turn)
    assert sorted(notation(reading.orders)) == sorted(orders), reading.lines
    first = reading.lines[0]
    assert first.status == status, reading.lines
    assert rule in (first.rule or ""), reading.lines


def test_a_reported_condition_says_why_003_5_a():
    reading = read_orders("If Austria attacked Italy, build A Par", position=WINTER, power="FRANCE",
                          ruleset=ruleset("scorpion"), geography=geography(), turn=FALL_TURN)
    [line] = reading.lines
    assert "cannot be tested" in line.message and "counts as false" in line.message


# -- contingent lines in a movement set (000 II(5), 001 II(6)) -------------------------------------------

FALL_MOVES = Position(phase="F1901M", units={"FRANCE": ("A BUR", "A MAR", "F BRE"), "GERMANY": ("A MUN",)},
                      centers={"FRANCE": ("BRE", "MAR", "PAR")})
KEPT = [
    # (id, profile, overrides, text, lines kept, words expected in the first line's message)
    ("000 II(5) a build is kept although Paris is empty", "mhr", {}, "A Bur - Bel\nBuild A Par",
     ("Build A Par",), None),
    ("000 II(5) conditions are kept with their line", "mhr", {},
     "If dislodged: A Bur R Pic\nIf I gain a centre, build A Par\nOtherwise waive",
     ("If dislodged: A Bur R Pic", "If I gain a centre, build A Par", "Otherwise waive"), "kept for the retreat"),
    ("001 II(6) retreats and removals are kept", "danivon", {}, "A Bur R Pic\nRemove A Mar\nWaive",
     ("A Bur R Pic", "Remove A Mar", "Waive"), "kept for the retreat"),
    ("003 [5 a] a subjective condition is kept and flagged", "scorpion", {},
     "If Austria attacked Italy, build A Par", ("If Austria attacked Italy, build A Par",), "count as false"),
    ("conditional_adjustment_orders = none: kept, flagged void", "standard", NONE,
     "If I gain a centre: Build A Par", ("If I gain a centre: Build A Par",), "will be void"),
    ("contingent_minor_orders = rejected: nothing kept", "mhr", {"contingent_minor_orders": "rejected"},
     "Build A Par\nIf dislodged: A Bur R Pic", (), "not used"),
    ("000 III(7) a conditional move is not contingent", "mhr", {},
     "A Bur to Mun unless German A Mun -> Bur", (), "condition"),
]


@pytest.mark.parametrize("case", KEPT, ids=[c[0] for c in KEPT])
def test_contingent_lines_of_a_movement_set(case):
    _, profile, overrides, text, kept, words = case
    reading = read_orders(text, position=FALL_MOVES, power="FRANCE", ruleset=_ruleset(profile, overrides),
                          geography=geography())
    assert reading.contingent == kept
    if words:
        assert words in reading.lines[0].message, reading.lines


def test_contingent_lines_are_read_in_their_own_turn_000_II_5():
    lines = ("If dislodged: A Par R Pic", "A Mar R Spa", "If I gain a centre: Build A Par", "Remove A Mar")
    retreat = read_contingent(lines, position=FALL_RETREAT, power="FRANCE", ruleset=ruleset("mhr"),
                              geography=geography())
    assert notation(retreat.orders) == ("A PAR R PIC",)
    assert [line.status for line in retreat.lines] == ["accepted", "ignored", "ignored", "ignored"]
    assert "not dislodged" in retreat.lines[1].message and "adjustment turn" in retreat.lines[3].message
    winter = read_contingent(lines, position=WINTER, power="FRANCE", ruleset=ruleset("mhr"), geography=geography(),
                             turn=FALL_TURN)
    assert notation(winter.orders) == ("A PAR B",)  # "Remove A Mar" is rejected: France has builds, not removals
    assert "retreat turn" in winter.lines[0].message


@pytest.mark.parametrize("clause, profile, sets, kept", [
    ("DATC 4.D.1 replace: the latest set's lines, even none", "standard",
     [StoredSet((), 1, contingent=("Build A Par",)), StoredSet((), 2)], ()),
    ("000 III(4) merge: a set without lines keeps the earlier ones", "mhr",
     [StoredSet((), 1, contingent=("Build A Par",)), StoredSet((), 2)], ("Build A Par",)),
    ("000 III(4) merge: a set with lines replaces them all (merge by unit is undefined for builds [P])", "mhr",
     [StoredSet((), 1, contingent=("Build A Par", "Waive")), StoredSet((), 2, contingent=("Build F Bre",))],
     ("Build F Bre",)),
    ("002 ORDERS 2 a marked change keeps them", "email_rules",
     [StoredSet((), 1, contingent=("Build A Par",)), StoredSet((), 2, is_change=True)], ("Build A Par",)),
])
def test_effective_contingent(clause, profile, sets, kept):
    assert effective_contingent(sets, ruleset(profile)) == kept


@pytest.mark.parametrize("phase, source", [
    ("S1901R", "S1901M"), ("F1901R", "F1901M"), ("W1901A", "F1901M"), ("F1902M", None),
])
def test_contingent_source_000_II_5(phase, source):
    assert contingent_source(phase) == source


def test_turn_facts_from_a_movement_record():
    results = [{"power": "FRANCE", "order": "F MAO H", "results": ["dislodged"], "defaulted": True},
               {"power": "FRANCE", "order": "A GAS - SPA", "results": [], "defaulted": False}]
    facts = turn_facts(Position("F1901M", {"FRANCE": ("F MAO", "A GAS")}, {"FRANCE": ("PAR",)}), results)
    assert facts == TurnFacts("F1901M", {"FRANCE": ("PAR",)}, {"FRANCE": ("F MAO",)})


# -- the pieces ---------------------------------------------------------------------------------------------

def _starts(tokens) -> bool:
    return tokens[:1] in (["BUILD"], ["A"], ["WAIVE"])


@pytest.mark.parametrize("words, clauses", [
    (["IF", "DISLODGED", ":", "A", "MUN", "R", "BOH"],
     [Clause("if", ("DISLODGED",), False, ("A", "MUN", "R", "BOH"))]),
    (["OTHERWISE", ",", "WAIVE"], [Clause("otherwise", (), False, ("WAIVE",))]),
    (["IF", "NOT", ":", "WAIVE"], [Clause("otherwise", (), False, ("WAIVE",))]),
    (["BUILD", "A", "PAR", "UNLESS", "PAR", "OCCUPIED"],
     [Clause("if", ("PAR", "OCCUPIED"), True, ("BUILD", "A", "PAR"))]),
    (["IF", "I", "GAIN", "BUILD", "A", "PAR", "ELSE", "WAIVE"],
     [Clause("if", ("I", "GAIN"), False, ("BUILD", "A", "PAR")), Clause("otherwise", (), False, ("WAIVE",))]),
])
def test_split_conditional(words, clauses):
    assert split_conditional(words, _starts) == clauses


@pytest.mark.parametrize("text, expected", [
    ("I GAIN A CENTRE", Check("gained")),
    ("I HAVE TWO BUILDS", Check("builds", count=2, at_least=False)),
    ("I HAVE MORE THAN ONE BUILD", Check("builds", count=2, at_least=True)),
    ("BEL OR HOL IS EMPTY", Check("occupied", ("BEL", "HOL"), any_of=True, negated=True)),
    ("MY A MUN IS NOT DISLODGED", Check("dislodged", ("MUN",), negated=True)),
    ("THERE IS A UNIT IN BURGUNDY", Check("occupied", ("BUR",))),
    ("I LOSE BELGIUM", Check("loses", ("BEL",))),
    ("AUSTRIA ATTACKED ITALY", Unreadable),
    ("I OWN BEL AND LOSE HOL", Unreadable),
    ("I CAN BUILD IN PARIS", Unreadable),
])
def test_parse_condition(text, expected):
    ctx = _context(WINTER, "FRANCE", ruleset("mhr"), geography(), None)
    test = parse_condition(text.split(), table=ctx.table, policy=ctx.policy, powers=ctx.powers, power="FRANCE")
    if expected is Unreadable:
        assert isinstance(test, Unreadable)
    else:
        assert test == expected
