"""The defaults through the engine (services/turn/adjudication.py): what reaches the board, and how
the outcome marks what the server supplied. Hand-made positions; expected values from the clauses."""

from __future__ import annotations

from gmserver import engine
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.turn.adjudication import adjudicate_with_defaults


def test_two_retreats_to_one_province_both_disband_003_7() -> None:
    """003 [7] (and RB2000 in every profile): German A MUN and Austrian A VIE both retreat to
    Bohemia: they bounce and both are disbanded; nobody stands in Bohemia afterwards."""
    pos = Position("F1901R", {"FRANCE": ("A MUN",), "RUSSIA": ("A VIE",)},
                   dislodged={"GERMANY": ("A MUN",), "AUSTRIA": ("A VIE",)},
                   retreats={"A MUN": ("BOH", "SIL"), "A VIE": ("BOH", "TRI")})
    retreats = {"GERMANY": ["A MUN R BOH"], "AUSTRIA": ["A VIE R BOH"]}
    outcome = adjudicate_with_defaults(engine.state_from_position(pos), retreats, load_ruleset("scorpion"))
    assert "GERMANY" not in outcome.after.units and "AUSTRIA" not in outcome.after.units
    assert all(not o.succeeded and not o.defaulted for o in outcome.orders)


def test_civil_disorder_units_hold_and_may_be_supported_datc_4D9() -> None:
    """cd_units_receive_hold_support (DATC 4.D.9, 003 [12], [13]): French A BUR, its power in civil
    disorder, holds (its order to move is not used) and an Italian support to hold counts: the German
    attack with one support (2) meets 2 and fails."""
    pos = Position("S1902M", {"FRANCE": ("A BUR",), "ITALY": ("A MAR",), "GERMANY": ("A MUN", "A RUH")})
    outcome = adjudicate_with_defaults(
        engine.state_from_position(pos),
        {"FRANCE": ["A BUR - PAR"], "ITALY": ["A MAR S A BUR"], "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]},
        load_ruleset("scorpion"), civil_disorder=frozenset({"FRANCE"}))
    assert outcome.after.units["FRANCE"] == ("A BUR",)
    french = outcome.orders_of("FRANCE")
    assert [(str(o.order), o.defaulted, o.note) for o in french] == [("A BUR H", True, "France is in civil disorder")]


def test_removal_by_the_rules_is_marked_and_listed_000_V4() -> None:
    """000 V(4) under mhr: England must remove one of A BUR (3 from home), A NWY (2), F LON (0)
    and sent nothing: A BUR is removed, marked as a default and listed among the removals by the rules."""
    pos = Position("W1901A", {"ENGLAND": ("A BUR", "A NWY", "F LON")}, centers={"ENGLAND": ("LON", "NWY")})
    outcome = adjudicate_with_defaults(engine.state_from_position(pos), {}, load_ruleset("mhr"))
    assert outcome.after.units["ENGLAND"] == ("A NWY", "F LON")
    (removal,) = outcome.orders_of("ENGLAND")
    assert removal.defaulted and "000 V(4)" in removal.note
    assert outcome.engine_removals == ("A BUR",)
