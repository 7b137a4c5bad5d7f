"""The house rules' defaults (gmserver/rules/defaults.py, removals.py, distance.py) on hand-checked
positions: the options of docs/rulesets.md 2.6 and 2.7 (nrr_default, nbr_default,
removal_algorithm). Every expected value is worked out in the comment beside it from the clause,
never taken from the code under test."""

from __future__ import annotations

import pytest

from gmserver import engine
from gmserver.rules.defaults import complete_orders, hopeless, missing_orders, owing_orders
from gmserver.rules.distance import Distances
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset


@pytest.fixture(scope="module")
def geo():
    return engine.map_info()


def rules(profile: str, **overrides):
    ruleset = load_ruleset(profile)
    return ruleset.with_overrides(overrides) if overrides else ruleset


def winter(units: dict, centers: dict, adjustments: dict) -> Position:
    return Position(phase="W1901A", units={p: tuple(sorted(u)) for p, u in units.items()},
                    centers={p: tuple(sorted(c)) for p, c in centers.items()}, adjustments=adjustments)


def orders(*texts: str, kind: str = "M") -> list[Order]:
    return [Order.parse(t, kind) for t in texts]


def defaults_of(complete, power: str) -> list[str]:
    return [str(d.order) for d in complete.defaults.get(power, ())]


# ---------------------------------------------------------------------------------------------
# distance from home


@pytest.mark.parametrize("power, unit, distance", [
    ("RUSSIA", "A CON", 2),      # 004 III(4): "a Russian army in Constantinople ... two spaces" (CON-BLA-SEV)
    ("RUSSIA", "F BUL/SC", 3),   # 004 III(4): "... three spaces" (CON, BLA, SEV)
    ("ENGLAND", "F HEL", 2),     # 003 [8]: HEL-NTH-LON/EDI
    ("ENGLAND", "F SKA", 2),     # SKA-NTH-EDI
    ("ENGLAND", "A PIC", 2),     # an army crosses water (000 V(4)): PIC-ENG-LON
    ("ENGLAND", "F ENG", 1),     # ENG-LON
    ("ENGLAND", "F NTH", 1),     # NTH-LON
    ("ENGLAND", "A LVP", 0),     # on a home centre
    ("ENGLAND", "A NWY", 2),     # NWY-NTH-EDI: no land route exists, the sea counts (000 V(4))
])
def test_distance_from_home_centres_a1(geo, power, unit, distance) -> None:
    assert Distances(geo).from_home_centres(Unit.parse(unit), power) == distance


# ---------------------------------------------------------------------------------------------
# Movement: NMR and civil disorder


def test_unordered_units_hold_000_III5(geo) -> None:
    pos = Position("S1901M", {"FRANCE": ("A MAR", "A PAR", "F BRE")})
    done = complete_orders(pos, {"FRANCE": orders("A PAR - BUR")}, rules("mhr"), geo)
    assert [str(o) for o in done.orders["FRANCE"]] == ["A PAR - BUR", "A MAR H", "F BRE H"]
    assert defaults_of(done, "FRANCE") == ["A MAR H", "F BRE H"]
    assert missing_orders(pos, done.orders) == []


def test_power_in_civil_disorder_holds_whatever_it_sent_003_13(geo) -> None:
    """003 [13]: in anarchy "all your units will stand"; what is on file is not used."""
    pos = Position("S1902M", {"FRANCE": ("A PAR",), "ITALY": ("A VEN",)})
    done = complete_orders(pos, {"FRANCE": orders("A PAR - BUR"), "ITALY": orders("A VEN - TYR")},
                           rules("scorpion"), geo, civil_disorder=frozenset({"FRANCE"}))
    assert [str(o) for o in done.orders["FRANCE"]] == ["A PAR H"]
    assert done.defaults["FRANCE"][0].note == "France is in civil disorder"
    assert [str(o) for o in done.orders["ITALY"]] == ["A VEN - TYR"]


# ---------------------------------------------------------------------------------------------
# Retreats: nrr_default


def retreat_phase(dislodged: dict, retreats: dict) -> Position:
    return Position("F1901R", {}, dislodged={p: tuple(sorted(u)) for p, u in dislodged.items()},
                    retreats={u: tuple(d) for u, d in retreats.items()})


def test_nrr_disbands_by_default_rb2000(geo) -> None:
    pos = retreat_phase({"GERMANY": ["A MUN"]}, {"A MUN": ("BOH", "KIE")})
    done = complete_orders(pos, {}, rules("standard"), geo)
    assert defaults_of(done, "GERMANY") == ["A MUN D"]


def test_nrr_danivon_auto_retreat_001_V4(geo) -> None:
    """001 V(4): units taken in alphabetical order of their province (Burgundy, then Munich).
    A BUR: options Belgium (SC, not German), Ruhr (non-SC, German) -> class (ii) Ruhr.
    A MUN: Ruhr already taken by A BUR [P]; Berlin and Kiel are German SCs, class (i): Berlin
    comes first alphabetically. F NTH: no option at all: disbanded (002 ORDERS 4, nothing to order)."""
    pos = retreat_phase({"GERMANY": ["A BUR", "A MUN", "F NTH"]},
                        {"A BUR": ("BEL", "RUH"), "A MUN": ("BER", "BOH", "KIE", "RUH"), "F NTH": ()})
    done = complete_orders(pos, {}, rules("danivon"), geo)
    assert defaults_of(done, "GERMANY") == ["A BUR R RUH", "A MUN R BER", "F NTH D"]
    # forced to the default (disband), every one of them would disband
    assert defaults_of(complete_orders(pos, {}, rules("danivon", nrr_default="disband"), geo), "GERMANY") == [
        "A BUR D", "A MUN D", "F NTH D"]


def test_danivon_auto_retreat_avoids_the_players_own_retreat(geo) -> None:
    """A6 [P]: the player's own retreat to Berlin is not bounced by an automatic one: A MUN goes
    to Kiel, the next German SC alphabetically; classes (iii) and (iv) come after the home country:
    A BOH (Austrian territory) picks Silesia (German, non-SC) over Vienna (SC, not German)."""
    pos = retreat_phase({"GERMANY": ["A BOH", "A MUN", "A TYR"]},
                        {"A BOH": ("SIL", "VIE"), "A MUN": ("BER", "KIE"), "A TYR": ("BER", "VEN")})
    done = complete_orders(pos, {"GERMANY": orders("A TYR R BER", kind="R")}, rules("danivon"), geo)
    assert defaults_of(done, "GERMANY") == ["A BOH R SIL", "A MUN R KIE"]


def test_danivon_auto_retreat_north_coast_before_south(geo) -> None:
    """001 V(4) [P]: of a two-coast province the north coast comes first. French F MAO may retreat to
    either coast of Spain (an SC, not French: class iii)."""
    pos = retreat_phase({"FRANCE": ["F MAO"]}, {"F MAO": ("SPA/SC", "SPA/NC")})
    assert defaults_of(complete_orders(pos, {}, rules("danivon"), geo), "FRANCE") == ["F MAO R SPA/NC"]


# ---------------------------------------------------------------------------------------------
# Builds: nbr_default


def test_nbr_waives_by_default(geo) -> None:
    pos = winter({"GERMANY": ["A MUN"]}, {"GERMANY": ["BER", "KIE", "MUN", "DEN"]}, {"GERMANY": 3})
    done = complete_orders(pos, {"GERMANY": orders("A BER B", kind="A")}, rules("standard"), geo)
    # one build ordered, two due more: waived (RB2000, DATC 4.D.7)
    assert [str(o) for o in done.orders["GERMANY"]] == ["A BER B", "WAIVE", "WAIVE"]


def test_nbr_danivon_auto_build_armies_001_V5(geo) -> None:
    """001 V(5) ¶1: Munich is inland, so not all German SCs are coastal: armies; build sites
    Berlin and Kiel (Munich is occupied), alphabetically; the third build has no site: waived."""
    pos = winter({"GERMANY": ["A MUN"]}, {"GERMANY": ["BER", "DEN", "KIE", "MUN"]}, {"GERMANY": 3})
    done = complete_orders(pos, {}, rules("danivon"), geo)
    assert defaults_of(done, "GERMANY") == ["A BER B", "A KIE B", "WAIVE"]


def test_nbr_danivon_auto_build_fleets_north_coast_001_V5(geo) -> None:
    """All Russian SCs owned are coastal (St Petersburg, Sevastopol, Rumania): fleets. Sevastopol
    is occupied, so the site is St Petersburg, and a fleet goes to its north coast [P]."""
    pos = winter({"RUSSIA": ["A SEV"]}, {"RUSSIA": ["RUM", "SEV", "STP"]}, {"RUSSIA": 1})
    assert defaults_of(complete_orders(pos, {}, rules("danivon"), geo), "RUSSIA") == ["F STP/NC B"]


def test_danivon_auto_build_only_when_nothing_was_sent(geo) -> None:
    """001 V(5) ¶1: a player who ordered one of two builds has the other waived, not built."""
    pos = winter({"GERMANY": []}, {"GERMANY": ["BER", "KIE", "MUN", "DEN", "HOL"]}, {"GERMANY": 2})
    done = complete_orders(pos, {"GERMANY": orders("F KIE B", kind="A")}, rules("danivon"), geo)
    assert [str(o) for o in done.orders["GERMANY"]] == ["F KIE B", "WAIVE"]


def test_no_build_and_removal_in_one_winter_002_QA8(geo) -> None:
    """002 Q&A 8: a power with builds due does not remove, one with removals due does not build."""
    pos = winter({"GERMANY": ["A MUN"], "FRANCE": ["A PAR", "A MAR"]},
                 {"GERMANY": ["BER", "MUN"], "FRANCE": ["PAR"]}, {"GERMANY": 1, "FRANCE": -1})
    done = complete_orders(pos, {"GERMANY": orders("A MUN D", "A BER B", kind="A"),
                                 "FRANCE": orders("A BRE B", "A MAR D", kind="A")}, rules("email_rules"), geo)
    assert [str(o) for o in done.orders["GERMANY"]] == ["A BER B"]
    assert [str(o) for o in done.orders["FRANCE"]] == ["A MAR D"]


# ---------------------------------------------------------------------------------------------
# Removals: removal_algorithm


def removals(geo, profile: str, units: dict, due: int, on_file=(), **overrides) -> list[str]:
    power = next(iter(units))
    pos = winter(units, {power: ["MOS"]}, {power: -due})
    on_file = {power: orders(*on_file, kind="A")} if on_file else {}
    done = complete_orders(pos, on_file, rules(profile, **overrides), geo)
    return defaults_of(done, power)


@pytest.mark.parametrize("due, expected", [
    # F BUL/SC is 3 from home, A CON 2, F BLA and A RUM 1 (SEV), A MOS 0
    (1, ["F BUL/SC D"]),
    (2, ["F BUL/SC D", "A CON D"]),
    # BLA and RUM tie at 1: the fleet goes first (RB2000, DATC 4.D.8)
    (3, ["F BUL/SC D", "A CON D", "F BLA D"]),
])
def test_rb2000_removals_distance_then_fleets_first(geo, due, expected) -> None:
    units = {"RUSSIA": ["A CON", "A MOS", "A RUM", "F BLA", "F BUL/SC"]}
    assert removals(geo, "email_rules", units, due) == expected


def test_removals_complete_too_few_orders(geo) -> None:
    """A shortfall is completed by the algorithm: Russia ordered F BUL/SC removed of two due; the
    next farthest, A CON, is removed by the rules."""
    units = {"RUSSIA": ["A CON", "A MOS", "F BUL/SC"]}
    assert removals(geo, "email_rules", units, 2, on_file=["F BUL/SC D"]) == ["A CON D"]


def test_mhr_000_V4_armies_count_sea_provinces(geo) -> None:
    """000 V(4): "each sea province ... will count as one move for any unit": English A NWY is 2
    from home (NWY-NTH-EDI) and A BUR 3 (BUR-PIC-ENG-LON), so A BUR goes first. (Were armies
    confined to land, A NWY could not reach home at all and would go first.)"""
    units = {"ENGLAND": ["A BUR", "A NWY", "F LON"]}
    assert removals(geo, "mhr", units, 1) == ["A BUR D"]


def test_gwm_004_III4_alphabetical_by_system_codes(geo) -> None:
    """004 III(4) ¶3: ties among units of one kind go by the system's three-letter names: LON
    before LVP. Under English names (the default key) Liverpool comes before London."""
    units = {"ENGLAND": ["A LON", "A LVP"]}
    assert removals(geo, "gwm", units, 1) == ["A LON D"]
    assert removals(geo, "gwm", units, 1, alphabetical_key="english_names") == ["A LVP D"]


def test_gwm_004_III4_fleet_measure(geo) -> None:
    """004 III(4): the fleet on Bulgaria's south coast (3) before the army in Constantinople (2)."""
    assert removals(geo, "gwm", {"RUSSIA": ["A CON", "F BUL/SC", "A MOS"]}, 1) == ["F BUL/SC D"]


def test_scorpion_003_8_example(geo) -> None:
    """003 [8]'s own example: England removes F HEL and F SKA (2 from home, at sea) before A PIC
    (2, on land), and A PIC before F ENG or F NTH (1); HEL before SKA alphabetically (Helgoland
    Bight, Skagerrak); A BEL, F HOL and even A ANK stand on supply centres and are never removed."""
    units = {"ENGLAND": ["A ANK", "A BEL", "A PIC", "F ENG", "F HEL", "F HOL", "F NTH", "F SKA"]}
    assert removals(geo, "scorpion", units, 3) == ["F HEL D", "F SKA D", "A PIC D"]
    assert removals(geo, "scorpion", units, 5) == ["F HEL D", "F SKA D", "A PIC D", "F ENG D", "F NTH D"]


def test_scorpion_003_8_sea_spaces_first(geo) -> None:
    """003 [8]: at equal distance "units in sea spaces are removed first": English F SKA
    (SKA-NTH-EDI, 2) goes before F PIC (PIC-ENG-LON, 2), though Picardy comes first
    alphabetically; A LON stands on a centre."""
    assert removals(geo, "scorpion", {"ENGLAND": ["A LON", "F PIC", "F SKA"]}, 1) == ["F SKA D"]
    assert removals(geo, "standard", {"ENGLAND": ["A LON", "F PIC", "F SKA"]}, 1) == ["F PIC D"]


@pytest.mark.parametrize("within, due, expected", [
    # Class (i), non-SC outside Germany: A PIC (2 from the German border: PIC-BEL-RUH) and A BUR
    # (1: BUR-RUH); class (ii): A BEL; class (iii): A RUH; class (iv): A MUN.
    ("distance_then_alphabetical", 1, ["A PIC D"]),
    ("alphabetical_only", 1, ["A BUR D"]),  # Burgundy before Picardy
    ("distance_then_alphabetical", 3, ["A PIC D", "A BUR D", "A BEL D"]),
    ("distance_then_alphabetical", 4, ["A PIC D", "A BUR D", "A BEL D", "A RUH D"]),
])
def test_danivon_001_V5_classes(geo, within, due, expected) -> None:
    units = {"GERMANY": ["A BEL", "A BUR", "A MUN", "A PIC", "A RUH"]}
    assert removals(geo, "danivon", units, due, danivon_within_class=within) == expected


def test_removals_of_a_power_in_civil_disorder_000_V4(geo) -> None:
    """000 V(4) names a power in civil disorder: its own removal order is not used, the rule picks."""
    pos = winter({"ENGLAND": ["A BUR", "A NWY", "F LON"]}, {"ENGLAND": ["LON"]}, {"ENGLAND": -2})
    done = complete_orders(pos, {"ENGLAND": orders("F LON D", kind="A")}, rules("mhr"), geo,
                           civil_disorder=frozenset({"ENGLAND"}))
    assert defaults_of(done, "ENGLAND") == ["A BUR D", "A NWY D"]


# ---------------------------------------------------------------------------------------------
# Hopeless retreats and removals (002 ORDERS 4)


def fall_retreat(units: dict, centers: dict, dislodged: dict, retreats: dict) -> Position:
    return Position("F1901R", units, centers=centers, dislodged=dislodged, retreats=retreats)


@pytest.mark.parametrize("why, italy_centres, tunis_options, expected", [
    # France took Tuscany, Germany Marseilles.
    # Italy's last unit, A TUS, was dislodged from a non-centre and Italy owns nothing: it may only
    # retreat to Piedmont (no centre) where no other dislodged unit may go: hopeless
    ("nothing to save", (), ("PIE",), True),
    # Italy still owns Rome (nobody else stands there): its retreat is not hopeless
    ("a centre is left", ("ROM",), ("PIE",), False),
    # a retreat onto a centre (Rome) might still save a centre
    ("a retreat onto a centre", (), ("PIE", "ROM"), False),
    # Piedmont is also open to the dislodged French A MAR: Italy could bounce it there
    ("could bounce another retreat", (), ("PIE", "TYR"), False),
])
def test_hopeless_fall_retreat_002_ORDERS_4(geo, why, italy_centres, tunis_options, expected) -> None:
    options = {"A TUS": tunis_options, "A MAR": ("BUR", "PIE") if "TYR" in tunis_options else ("BUR",)}
    pos = fall_retreat({"FRANCE": ("A TUS",), "GERMANY": ("A MAR",)}, {"ITALY": italy_centres} if italy_centres else {},
                       {"ITALY": ("A TUS",), "FRANCE": ("A MAR",)}, options)
    assert hopeless(pos, "ITALY", geo) is expected, why


def test_hopeless_removal_and_who_owes_orders_002_ORDERS_4(geo) -> None:
    """A winter removal is hopeless when the power owns no centre: not owed under email_rules
    (002 ORDERS 4, hopeless_orders_exempt = true), owed when the GM turns the exemption off."""
    pos = winter({"ITALY": ["A TUS"], "FRANCE": ["A PAR", "A MAR"]}, {"FRANCE": ["PAR"]},
                 {"ITALY": -1, "FRANCE": -1})
    assert owing_orders(pos, rules("email_rules"), geo) == ("FRANCE",)
    assert owing_orders(pos, rules("email_rules", hopeless_orders_exempt=False), geo) == ("FRANCE", "ITALY")


def test_missing_orders_names_what_the_engine_would_decide(geo) -> None:
    """What engine.adjudicate refuses: a dislodged unit, a build or a removal left without order."""
    retreat = retreat_phase({"GERMANY": ["A MUN"]}, {"A MUN": ("BOH",)})
    assert missing_orders(retreat, {}) == ["GERMANY A MUN"]
    assert missing_orders(retreat, {"GERMANY": orders("A MUN R BOH", kind="R")}) == []
    adjust = winter({"RUSSIA": ["A MOS", "A WAR"], "FRANCE": []}, {"RUSSIA": ["MOS"], "FRANCE": ["PAR"]},
                    {"RUSSIA": -1, "FRANCE": 1})
    assert missing_orders(adjust, {}) == ["FRANCE: 1 builds (or waivers)", "RUSSIA: 1 removals"]
    # a removal of a unit the power does not have is no removal
    assert missing_orders(adjust, {"FRANCE": orders("WAIVE", kind="A"), "RUSSIA": orders("A SEV D", kind="A")}) == [
        "RUSSIA: 1 removals"]
