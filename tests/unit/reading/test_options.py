"""Order-reading, retreat and adjustment options: one row per option value, named by its clause.

Each row: (id naming the clause, profile, GM overrides, position, power, text,
           expected orders, expected status of the first line, clause expected in `rule`
           [, words expected in the first line's message]).
Rows for values no profile uses apply a GM override (`gm_override`, 000 I(1)) to `standard`.
"""

from __future__ import annotations

import pytest

from gmserver.rules.position import Position
from gmserver.rules.reading.reader import read_orders
from tests.unit.reading.support import geography, notation, ruleset


def P(phase="F1902M", **units) -> Position:
    return Position(phase=phase, units={k.upper(): tuple(v) for k, v in units.items()}, centers={})


FR = P(france=("A PAR", "F BRE", "A MAR", "F MAO", "A GAS", "F POR"), germany=("A MUN", "A TYR", "A KIE"),
       england=("A LON", "F NTH", "A EDI"), italy=("F ION", "A VEN", "A ROM", "A PIE", "A TUN"),
       russia=("F STP/SC", "F SEV"), turkey=("F CON", "F BLA"))
FR_GAS_FLEET = P(france=("F GAS", "F MAO", "F POR", "A PAR", "A MAR"), germany=("A MUN",))
ENG_BEL = P(england=("F NTH", "A LON"), france=("A BEL",))
GER_KIE = P(germany=("F KIE", "F NTH", "F DEN", "A MUN"))

CASES = [
    # interpretation_presumption
    ("001 II(1) complete_valid_set", "danivon", {}, FR, "england", "A Edi - Liv", ("A EDI - LVP",), "corrected", "001 II(1)"),
    ("000 III(1) literal", "mhr", {}, FR, "england", "A Edi - Liv", ("A EDI H",), "rejected", None),
    # 001 II(1) consistency with the player's other orders: "Hxl" is Helgoland Bight or Holland,
    # both legal for F KIE; the player's own support or move decides, two that disagree do not
    ("001 II(1) move read by own support", "danivon", {}, GER_KIE, "germany", "F Kie - Hxl\nF Nth S F Kie - Hol", ("F KIE - HOL", "F NTH S F KIE - HOL"), "corrected", "001 II(1)"),
    ("001 II(1) support read by own move", "danivon", {}, GER_KIE, "germany", "F Nth S F Kie - Hxl\nF Kie - Hel", ("F KIE - HEL", "F NTH S F KIE - HEL"), "corrected", "001 II(1)"),
    ("001 II(1) two consistent readings rejected", "danivon", {}, GER_KIE, "germany", "F Kie - Hxl\nF Nth S F Kie - Hol\nF Den S F Kie - Hel", ("F DEN S F KIE - HEL", "F KIE H", "F NTH S F KIE - HOL"), "rejected", None),
    ("001 II(1) no other order rejected", "danivon", {}, GER_KIE, "germany", "F Kie - Hxl", ("F KIE H",), "rejected", None),
    ("001 II(1) consistency 002 FORMAT 9, 10", "email_rules", {}, GER_KIE, "germany", "F Kie - Hxl\nF Nth S F Kie - Hol", ("F KIE - HOL", "F NTH S F KIE - HOL"), "corrected", "002 FORMAT 9, 10"),
    ("001 II(1) vs 000 III(1) literal unchanged", "mhr", {}, GER_KIE, "germany", "F Kie - Hxl\nF Nth S F Kie - Hol", ("F KIE H", "F NTH S F KIE - HOL"), "rejected", None),
    # abbreviation_table
    ("2.15 standard Nor ambiguous", "standard", {}, FR, "england", "F Nth - Nor", ("F NTH H",), "rejected", None),
    ("002 FORMAT 1 Nor is Norway", "email_rules", {}, FR, "england", "F Nth - Nor", ("F NTH - NWY",), "accepted", None),
    ("002 FORMAT 1 Tya", "email_rules", {}, FR, "germany", "A Mun - Tya", ("A MUN - TYR",), "accepted", None),
    ("002 FORMAT 1 Tya free", "email_rules", {}, P(germany=("A MUN",)), "germany", "A Mun - Tya", ("A MUN - TYR",), "accepted", None),
    ("002 FORMAT 1 Tyr ambiguous resolved by 002 presumption", "email_rules", {}, P(germany=("A MUN",)), "germany", "A Mun - Tyr", ("A MUN - TYR",), "corrected", "002"),
    ("003 Abbrev. Nwy", "scorpion", {}, FR, "england", "F NTH - Nwy", ("F NTH - NWY",), "accepted", None),
    ("003 Abbrev. Eng", "scorpion", {}, FR, "france", "F Bre - Eng", ("F BRE - ENG",), "accepted", None),
    # forbidden_abbreviations
    ("003 [17] Nor misorder", "scorpion", {}, FR, "england", "F NTH - Nor", ("F NTH H",), "rejected", "003 [17]"),
    ("003 [17] Liv misorder", "scorpion", {}, FR, "england", "A Edi - Liv", ("A EDI H",), "rejected", "003 [17]"),
    # abbreviation_policy
    ("000 III(2) any_unambiguous prefix", "mhr", {}, FR, "france", "A Par - Burgu", ("A PAR - BUR",), "accepted", None),
    ("abbreviation_policy table_only", "standard", {"abbreviation_policy": "table_only", "typo_tolerance": "none"}, FR, "france", "A Par - Burgu", ("A PAR H",), "rejected", None),
    # partial_names
    ("004 I(1) partial names accepted", "gwm", {}, P(france=("F WES",)), "france", "F Wes - Gulf Lyon", ("F WES - LYO",), "accepted", None),
    ("partial_names accept: Atlantic fits only MAO from Brest", "standard", {}, P(france=("F BRE",)), "france",
     "F Brest - Atlantic", ("F BRE - MAO",), "corrected", "partial_names", "Mid-Atlantic Ocean"),
    ("partial_names reject: Atlantic is no name", "standard", {"partial_names": "reject", "typo_tolerance": "none"},
     P(france=("F BRE",)), "france", "F Brest - Atlantic", ("F BRE H",), "rejected", None),
    ("partial_names accept: Atlantic from Irish Sea fits both oceans", "standard", {}, P(england=("F IRI",)),
     "england", "F Iri - Atlantic", ("F IRI H",), "rejected", None, "Mid-Atlantic Ocean or North Atlantic Ocean"),
    ("partial_names reject", "standard", {"partial_names": "reject", "typo_tolerance": "none"}, P(france=("F WES",)), "france", "F Wes - Gulf Lyon", ("F WES H",), "rejected", None),
    # unit_location_matching
    ("002 FORMAT 7 own_units I-GRE", "email_rules", {}, FR, "italy", "I-GRE", ("F ION - GRE",), "corrected", "002 FORMAT 7"),
    ("map_only I-GRE", "standard", {}, FR, "italy", "I-GRE", (), None, None),
    # typo_tolerance
    ("000 III(2) unambiguous typo", "mhr", {}, FR, "france", "A Par - Burgandyy", ("A PAR - BUR",), "corrected", "000 III(2)"),
    ("typo_tolerance unambiguous_only: Ankra is nearest Ankara", "standard", {}, P(turkey=("A ANK",)), "turkey",
     "A Ankra - Smyrna", ("A ANK - SMY",), "corrected", "typo_tolerance", "Ankara"),
    ("typo_tolerance none: Ankra is no name", "standard", {"typo_tolerance": "none"}, P(turkey=("A ANK",)),
     "turkey", "A Ankra - Smyrna", (), "rejected", None),
    ("002 FORMAT 5 only a generous reading splits f ankbla: refused with a suggestion, not a hold", "standard",
     {}, P(turkey=("F ANK",)), "turkey", "f ankbla", (), "rejected", None, "Did you mean 'F Ank - Bla'?"),
    ("002 FORMAT 5 generous: f ankbla", "email_rules", {}, P(turkey=("F ANK",)), "turkey", "f ankbla",
     ("F ANK - BLA",), "accepted", None),
    ("typo_tolerance none", "standard", {"typo_tolerance": "none"}, FR, "france", "A Par - Burgundyy", ("A PAR H",), "rejected", None),
    ("002 FORMAT 5 generous PIE-mars", "email_rules", {}, FR, "italy", "PIE-mars", ("A PIE - MAR",), "corrected", "002 FORMAT 7"),
    ("002 FORMAT 5 generous IONGRE", "email_rules", {}, FR, "italy", "F IONGRE", ("F ION - GRE",), "accepted", None),
    # valid_name_typos
    ("000 III(2) s.3 literal valid name", "mhr", {}, FR, "germany", "A Mun - Bul", ("A MUN H",), "rejected", None),
    ("valid_name_typos correct_if_illegal", "standard", {"valid_name_typos": "correct_if_illegal"}, FR, "germany", "A Mun - Bul", ("A MUN - BUR",), "corrected", None),
    # unit_type_omitted
    ("000 IV(1) type omitted accepted", "mhr", {}, FR, "france", "Par - Bur", ("A PAR - BUR",), "corrected", "000 IV(1)"),
    ("001 III(3) type omitted invalid", "danivon", {}, FR, "france", "Par - Bur", ("A PAR H",), "rejected", "001 III(3)"),
    ("003 [15] type omitted misorder", "scorpion", {}, FR, "france", "Par - Bur", ("A PAR H",), "rejected", "003 [15]"),
    # unit_type_wrong
    ("004 II(1) wrong type ignored", "gwm", {}, FR, "france", "F Par - Bur", ("A PAR - BUR",), "corrected", "004 II(1)"),
    ("000 IV(1) wrong type invalid", "mhr", {}, FR, "france", "F Par - Bur", ("A PAR H",), "rejected", "000 IV(1)"),
    ("002 ORDERS 1 wrong type fails", "email_rules", {}, FR, "italy", "A ION-GRE", ("F ION H",), "rejected", "002 ORDERS 1"),
    # nationality_omitted
    ("000 IV(2) nationality omitted accepted", "mhr", {}, FR, "france", "A Mar S A Mun - Bur", ("A MAR S A MUN - BUR",), "accepted", None),
    ("003 [21] nationality omitted in support", "scorpion", {}, FR, "france", "A Mar S A Mun - Bur", ("A MAR H",), "rejected", "003 [21]"),
    ("003 [21] nationality omitted in convoy accepted", "scorpion", {}, ENG_BEL, "england", "F NTH C A Bel - Lon", ("F NTH C A BEL - LON",), "accepted", None),
    ("nationality_omitted invalid (convoys too)", "standard", {"nationality_omitted": "invalid"}, ENG_BEL, "england", "F NTH C A Bel - Lon", ("F NTH H",), "rejected", None),
    # nationality_wrong
    ("001 III(6) wrong nationality ignored", "danivon", {}, FR, "france", "A Mar S English A Mun - Bur", ("A MAR S A MUN - BUR",), "corrected", "001 III(6)"),
    ("000 IV(2) wrong nationality invalid", "mhr", {}, FR, "france", "A Mar S English A Mun - Bur", ("A MAR H",), "rejected", "000 IV(2)"),
    # coast_omitted_move
    ("000 IV(3) coast omitted unique", "mhr", {}, FR_GAS_FLEET, "france", "F Gas - Spa", ("F GAS - SPA/NC",), "corrected", "000 IV(3)"),
    ("002 ORDERS 1 coast omitted fails", "email_rules", {}, FR_GAS_FLEET, "france", "F Gas - Spa", ("F GAS H",), "rejected", "002 ORDERS 1"),
    ("004 II(3)b F Mid-Atlantic Ocean - Spain ambiguous", "gwm", {}, FR_GAS_FLEET, "france", "F Mid-Atlantic Ocean - Spain", ("F MAO H",), "rejected", "004 II(3)b"),
    ("004 II(3)b F Portugal - Spain ambiguous", "gwm", {}, FR_GAS_FLEET, "france", "F Portugal - Spain", ("F POR H",), "rejected", "004 II(3)b"),
    ("004 II(3)b F Constantinople - Bulgaria ambiguous", "gwm", {}, FR, "turkey", "F Constantinople - Bulgaria", ("F CON H",), "rejected", "004 II(3)b"),
    # coast_wrong_destination
    ("000 IV(4) wrong coast redirected", "mhr", {}, FR_GAS_FLEET, "france", "F Gas - Spa/sc", ("F GAS - SPA/NC",), "corrected", "000 IV(4)"),
    ("003 [10 c] wrong coast misorder", "scorpion", {}, FR_GAS_FLEET, "france", "F Gas - Spa/sc", ("F GAS H",), "rejected", "003 [10 c]"),
    ("DATC 4.B.3 wrong coast invalid", "standard", {}, FR_GAS_FLEET, "france", "F Gas - Spa/sc", ("F GAS H",), "rejected", "DATC 4.B.3"),
    # coast_own_location
    ("000 IV(5) own coast ignored", "mhr", {}, FR, "russia", "F StP/nc - Bot", ("F STP/SC - BOT",), "corrected", "000 IV(5)"),
    ("003 [10 c] own coast must match", "scorpion", {}, FR, "russia", "F StP/nc - Bot", ("F STP/SC H",), "rejected", "003 [10 c]"),
    ("004 II(3)a hold coast ignored", "gwm", {}, FR, "russia", "F StP(nc) H", ("F STP/SC H",), "corrected", "004 II(3)a"),
    # coast_support_omitted
    ("DATC 4.B.4 support coast omitted accepted", "standard", {}, FR_GAS_FLEET, "france", "F Por S F MAO - Spa", ("F POR S F MAO - SPA",), "accepted", None),
    ("000 IV(6) support coast omitted, two coasts", "mhr", {}, FR_GAS_FLEET, "france", "F Por S F MAO - Spa", ("F POR H",), "rejected", "000 IV(6)"),
    ("000 IV(6) support coast omitted, unique", "mhr", {}, FR_GAS_FLEET, "france", "F MAO S F Gas - Spa", ("F MAO S F GAS - SPA/NC",), "accepted", None),
    ("004 II(3)c supports F Mid-Atlantic Ocean - Spain", "gwm", {}, FR_GAS_FLEET, "france", "F Por S F Mid-Atlantic Ocean - Spain", ("F POR H",), "rejected", "004 II(3)c"),
    ("002 ORDERS 1 support coast omitted fails", "email_rules", {}, FR_GAS_FLEET, "france", "F MAO S F Gas - Spa", ("F MAO H",), "rejected", "002 ORDERS 1"),
    # coast_support_mismatch
    ("DATC 4.B.4 support coast mismatch invalid", "standard", {}, FR_GAS_FLEET, "france", "F MAO S F Gas - Spa/sc", ("F MAO H",), "rejected", "DATC 4.B.4"),
    ("000 IV(7) support coast mismatch unique", "mhr", {}, FR_GAS_FLEET, "france", "F MAO S F Gas - Spa/sc", ("F MAO S F GAS - SPA/NC",), "corrected", "000 IV(7)"),
    ("coast_support_mismatch ignore", "standard", {"coast_support_mismatch": "ignore"}, FR_GAS_FLEET, "france", "F MAO S F Gas - Spa/sc", ("F MAO S F GAS - SPA",), "corrected", None),
    # multiple_orders_same_unit
    ("000 III(6) first order", "mhr", {}, FR, "france", "A Par - Bur\nA Par - Pic", ("A PAR - BUR",), "accepted", None),
    ("001 III(2) last order", "danivon", {}, FR, "france", "A Par - Bur\nA Par - Pic", ("A PAR - PIC",), "rejected", "001 III(2)"),
    ("004 I(5) last order", "gwm", {}, FR, "france", "A Par - Bur\nA Par - Pic", ("A PAR - PIC",), "rejected", "004 I(5)"),
    ("DATC 4.D.3 conflicting orders hold", "standard", {}, FR, "france", "A Par - Bur\nA Par - Pic", ("A PAR H",), "rejected", "DATC 4.D.3"),
    ("003 [10 a] different orders stand", "scorpion", {}, FR, "france", "A Par - Bur\nA Par - Pic", ("A PAR H",), "rejected", "003 [10 a]"),
    ("003 [10 a] identical orders count once", "scorpion", {}, FR, "france", "A Par - Bur\nA Par - Bur", ("A PAR - BUR",), "accepted", None),
    # multiple_orders_skip_illegal
    ("000 III(6) illegal first order counts", "mhr", {}, FR, "france", "A Par - Vie\nA Par - Bur", ("A PAR H",), "rejected", "000 III(5)"),
    ("multiple_orders_skip_illegal true", "mhr", {"multiple_orders_skip_illegal": True}, FR, "france", "A Par - Vie\nA Par - Bur", ("A PAR - BUR",), "rejected", None),
    # hold_plus_support
    ("002 FORMAT 8 hold plus support is support", "email_rules", {}, FR, "france", "A Par H\nA Par S A Mar - Bur", ("A PAR S A MAR - BUR", "A MAR - BUR"), "rejected", "002 FORMAT 8"),
    ("000 III(6) hold plus support by rule", "mhr", {}, FR, "france", "A Par H\nA Par S A Mar - Bur", ("A PAR H",), "accepted", None),
    # impossible_move_treatment and move_to_own_province
    ("001 III(1) impossible move hold supportable", "danivon", {}, FR, "france", "A Par - Vie", ("A PAR H",), "rejected", "001 III(1)"),
    ("000 III(5) impossible move unsupportable", "mhr", {}, FR, "france", "A Par - Vie", ("A PAR H",), "rejected", "000 III(5)"),
    ("002 FORMAT 11 A Mun -> Mun holds", "email_rules", {}, FR, "germany", "A Mun -> Mun", ("A MUN H",), "rejected", "002 FORMAT 11"),
    ("003 [10 b] move to own province unsupportable", "scorpion", {}, FR, "germany", "A Mun -> Mun", ("A MUN H",), "rejected", "003 [10 b]"),
    # DATC 6.A.5: the support of a move to the supported unit's own province is void in every profile
    # (never read as a support to hold), the supporter holds
    *[(f"DATC 6.A.5 support of a move to own province void under {profile}", profile, {}, FR, "germany",
       "A Tyr S A Mun - Mun", ("A TYR H",), "rejected", "DATC 6.A.5", "the support is void")
      for profile in ("standard", "mhr", "danivon", "email_rules", "scorpion", "gwm")],
    # convoy_possible_move_legal
    ("000 III(5) ¶2 move possible by convoy", "mhr", {}, ENG_BEL, "england", "A Lon - Hol", ("A LON - HOL VIA",), "accepted", None),
    ("convoy_possible_move_legal false", "standard", {"convoy_possible_move_legal": False}, ENG_BEL, "england", "A Lon - Hol", ("A LON H",), "rejected", None),
    # nonsense_order_treatment
    ("003 [10 b] nonsense is a hold", "scorpion", {}, FR, "italy", "Army Rome eats pasta", ("A ROM H",), "corrected", "003 [10 b]"),
    ("nonsense_order_treatment ignore_line", "standard", {"nonsense_order_treatment": "ignore_line"}, FR, "italy", "Army Rome eats pasta", (), "ignored", None),
    # parenthetical_order
    ("002 FORMAT 6 parenthetical order used", "email_rules", {}, FR, "italy", "Venice kills and maims the Trieste citizens (A Ven-Tri)", ("A VEN - TRI",), "corrected", "002 FORMAT 6"),
    ("002 FORMAT 5 (holds)", "email_rules", {}, FR, "italy", "Tunis has a wild party (holds)", ("A TUN H",), "corrected", "002 FORMAT 6"),
    ("parenthetical_order ignore", "standard", {"parenthetical_order": "ignore"}, FR, "italy", "Army Venice kills and maims the Trieste citizens (A Ven-Tri)", ("A VEN H",), "corrected", None),
    # implied_orders
    ("000 III(3) no implied order", "mhr", {}, FR, "germany", "A Mun S A Tyr - Boh", ("A MUN S A TYR - BOH",), "accepted", None),
    ("002 FORMAT 9 implied order", "email_rules", {}, FR, "germany", "A Mun S A Tya - Boh", ("A MUN S A TYR - BOH", "A TYR - BOH"), "corrected", "002 FORMAT 9"),
    ("002 FORMAT 9 explicit order wins", "email_rules", {}, FR, "germany", "A Mun S A Tya - Boh\nA Tya H", ("A MUN S A TYR - BOH", "A TYR H"), "accepted", None),
    ("implied_orders from_own_support_and_convoy", "standard", {"implied_orders": "from_own_support_and_convoy"}, ENG_BEL, "england", "F NTH C A Lon - Hol", ("A LON - HOL VIA", "F NTH C A LON - HOL"), "corrected", None),
    # combined_orders
    ("002 FORMAT 10 combined order", "email_rules", {}, FR, "france", "F MAO and A Gas S A Par -> Bre", ("F MAO S A PAR - BRE", "A GAS S A PAR - BRE", "A PAR - BRE"), "corrected", "002 FORMAT 10"),
    ("combined_orders reject", "standard", {"combined_orders": "reject"}, FR, "france", "F MAO and A Gas S A Par -> Bre", ("A GAS S A PAR - BRE",), "rejected", None),
    # orders_for_missing_units
    ("002 FORMAT 12 missing unit void", "email_rules", {}, FR, "france", "A Kie - Den", (), "rejected", "002 FORMAT 12"),
    # conditional_movement_orders
    ("000 III(7) condition stripped", "mhr", {}, FR, "france", "A Par to Gas UNLESS German A Mun -> Bur, in which case A Par -> Bur", ("A PAR - GAS",), "corrected", "000 III(7)"),
    ("conditional_movement_orders void_line", "danivon", {}, FR, "france", "A Par to Gas UNLESS German A Mun -> Bur, in which case A Par -> Bur", (), "rejected", None),
    # contingent_minor_orders
    ("000 II(5) contingent build kept", "mhr", {}, FR, "france", "Build A Par", (), "ignored", "000 II(5)", "kept for"),
    # `rejected` (a GM override of 000 II(5)) tells the player the line was not kept
    ("contingent_minor_orders rejected (a GM override of 000 II(5))", "mhr",
     {"contingent_minor_orders": "rejected"}, FR, "france", "Build A Par", (), "ignored", None,
     "sent in their own turn"),
]


def _ruleset(profile, overrides):
    base = ruleset(profile)
    return base.with_overrides(overrides) if overrides else base


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_option(case):
    _, profile, overrides, position, power, text, orders, status, rule, *words = case
    reading = read_orders(text, position=position, power=power.upper(), ruleset=_ruleset(profile, overrides),
                          geography=geography())
    assert tuple(sorted(notation(reading.orders))) == tuple(sorted(orders)), reading.lines
    if status is not None:
        assert reading.lines[0].status == status, reading.lines
    if rule is not None:
        assert any(rule in (r.rule or "") for r in reading.lines), reading.lines
    for expected in words:
        assert expected in (reading.lines[0].message or ""), reading.lines


UNSUPPORTABLE = [
    ("000 III(5) moved unit unsupportable", "mhr", "A Par - Vie", ("A PAR",)),
    ("001 III(1) illegal move supportable", "danivon", "A Par - Vie", ()),
    ("003 [10 a] A11 stand unsupportable after a move", "scorpion", "A Par - Bur\nA Par - Pic", ("A PAR",)),
    ("003 [10 a] hold and support orders supportable", "scorpion", "A Par H\nA Par S A Mar - Bur", ()),
    ("DATC 4.D.3 conflict holds supportable", "standard", "A Par - Bur\nA Par - Pic", ()),
]


@pytest.mark.parametrize("case", UNSUPPORTABLE, ids=[c[0] for c in UNSUPPORTABLE])
def test_hold_support_voided_for(case):
    _, profile, text, units = case
    reading = read_orders(text, position=FR, power="FRANCE", ruleset=ruleset(profile), geography=geography())
    assert notation(reading.unsupportable) == units


def test_a_gm_override_is_not_cited_as_the_documents_clause():
    # 000 IV(1) invalidates a wrong unit type; a game whose GM overrides that (000 I(1) gm_override) must not
    # tell players that 000 IV(1) let their order through
    reading = read_orders("F Par - Bur", position=FR, power="FRANCE",
                          ruleset=_ruleset("mhr", {"unit_type_wrong": "ignore"}), geography=geography())
    assert notation(reading.orders) == ("A PAR - BUR",)
    assert reading.lines[0].rule == "DATC 4.C.2"
    reading = read_orders("A Par - Bur\nA Par - Pic", position=FR, power="FRANCE",
                          ruleset=_ruleset("mhr", {"multiple_orders_same_unit": "last"}), geography=geography())
    assert notation(reading.orders) == ("A PAR - PIC",)
    assert reading.lines[0].rule == "multiple_orders_same_unit = last"


def test_001_II_1_note_names_the_deciding_order():
    reading = read_orders("F Nth S F Kie - Hxl\nF Kie - Hel", position=GER_KIE, power="GERMANY",
                          ruleset=ruleset("danivon"), geography=geography())
    line = reading.lines[0]
    assert line.rule == "001 II(1)"
    assert "F KIE - HEL" in line.message and "Helgoland Bight" in line.message
