"""Every order-reading example the five seed documents give, read under that document's profile.

Each row's id quotes the clause it comes from ("002 FORMAT 7 I-GRE"). Where a document gives a
rule without an example (000 IV, 001 III, 004 II), the row is the smallest order the clause is
about. Rows marked "regression" are readings this audit found wrong and fixed; the id names
the conflict the profile resolves where the document contradicts itself.

Row: (id, profile, position, power, text, expected orders (any order), status of the first line
read (None: not checked), clause expected in some line's `rule`, units whose hold supports are void
(None: not checked), words the first line's message must contain, extra read_orders arguments).
"""

from __future__ import annotations

import pytest

from gmserver.rules.position import Position
from gmserver.rules.reading.reader import read_orders
from gmserver.rules.reading.sets import ordered_sets, version_marker
from tests.unit.reading.support import as_orders, geography, notation, ruleset, stored_set


def P(phase: str = "F1902M", centers: dict | None = None, dislodged: dict | None = None,
      retreats: dict | None = None, **units) -> Position:
    return Position(phase=phase, units={k.upper(): tuple(v) for k, v in units.items()},
                    centers={k.upper(): tuple(v) for k, v in (centers or {}).items()},
                    dislodged={k.upper(): tuple(v) for k, v in (dislodged or {}).items()},
                    retreats=retreats or {})


FR = P(france=("A PAR", "F BRE", "A MAR", "F MAO", "A GAS", "F POR"), germany=("A MUN", "A TYR", "A KIE"),
       england=("A LON", "F NTH", "A EDI"), italy=("F ION", "A VEN", "A ROM", "A PIE", "A TUN"),
       russia=("F STP/SC", "F SEV", "A MOS"), turkey=("F CON", "F BLA", "A BUL"))
GAS = P(france=("F GAS", "F MAO", "F POR", "A PAR", "A MAR"), germany=("A MUN",))
SPA = P(france=("F SPA/NC", "F MAO"))
ENG_BEL = P(england=("A LON", "F NTH", "F ENG"), germany=("A BEL",))
QA5 = P(england=("A LON", "F ENG"), germany=("A BEL", "F NTH"))
QA6 = P(england=("A LVP", "F LON"), germany=("A WAL", "F ENG"))
SCORPION = P(russia=("A WAR", "A MOS", "F BAR", "F STP/SC"), italy=("A ROM",), france=("A MAR",),
             germany=("A MUN",))
WINTER = P("W1901A", centers={"RUSSIA": ("STP", "SEV", "MOS", "WAR", "RUM"), "AUSTRIA": ("TRI", "BUD")},
           russia=("A MOS",), austria=("F TRI", "A VIE", "A BUD", "A SER"))
ONE_BUILD = P("W1901A", centers={"RUSSIA": ("STP", "SEV", "MOS", "WAR"), "TURKEY": ("CON", "ANK", "SMY", "BUL")},
              russia=("A MOS", "F SEV", "A UKR"), turkey=("A SMY", "F BLA", "A BUL"))
TURKEY_BUILDS = P("W1901A", centers={"TURKEY": ("CON", "ANK", "SMY", "BUL")}, turkey=("A SMY",))


def row(id_, profile, position, power, text, orders, status=None, rule=None, unsupportable=None, says=None,
        **kwargs):
    return pytest.param(profile, position, power, text, tuple(orders), status, rule, unsupportable, says, kwargs,
                        id=id_)


MAPFACTS = P(germany=("A DEN", "F SKA", "A TYR"), france=("A SPA",), russia=("A STP",))
RETREAT = Position(phase="F1901R", units={"ITALY": ("A ALB", "F ADR", "F ION"), "AUSTRIA": ("A SER",),
                                          "GERMANY": ("A BOH",)},
                   dislodged={"AUSTRIA": ("F TRI",), "GERMANY": ("A MUN",)},
                   retreats={"F TRI": ("VEN",), "A MUN": ("BUR", "KIE", "RUH")}, centers={})

EXAMPLES = [
    # ---------------------------------------------------------------- 002, profile email_rules
    row("002 FORMAT 1 ENG = English Channel", "email_rules", P(france=("F BRE",)), "france", "F Bre - ENG", ["F BRE - ENG"], "accepted"),
    row("002 FORMAT 1 EMS = Eastern Mediterranean", "email_rules", P(turkey=("F AEG",)), "turkey", "F Aeg - EMS", ["F AEG - EAS"], "accepted"),
    row("002 FORMAT 1 GoB = Gulf of Bothnia", "email_rules", P(russia=("F SWE",)), "russia", "F Swe - GoB", ["F SWE - BOT"], "accepted"),
    row("002 FORMAT 1 GoL = Gulf of Lyon", "email_rules", P(france=("F MAR",)), "france", "F Mar - GoL", ["F MAR - LYO"], "accepted"),
    row("002 FORMAT 1 Lpl = Liverpool", "email_rules", P(england=("A EDI",)), "england", "A Edi - Lpl", ["A EDI - LVP"], "accepted"),
    row("002 FORMAT 1 Lvn = Livona", "email_rules", P(russia=("A MOS",)), "russia", "A Mos - Lvn", ["A MOS - LVN"], "accepted"),
    row("002 FORMAT 1 NAf = North Africa", "email_rules", P(italy=("A TUN",)), "italy", "A Tun - NAf", ["A TUN - NAF"], "accepted"),
    row("002 FORMAT 1 NAO = North Atlantic Ocean", "email_rules", P(england=("F CLY",)), "england", "F Cly - NAO", ["F CLY - NAO"], "accepted"),
    row("002 FORMAT 1 NWG = Norwegian Sea", "email_rules", P(england=("F EDI",)), "england", "F Edi - NWG", ["F EDI - NWG"], "accepted"),
    row("002 FORMAT 1 NTH = North Sea", "email_rules", P(england=("F LON",)), "england", "F Lon - NTH", ["F LON - NTH"], "accepted"),
    row("002 FORMAT 1 MAO = Mid-Atlantic Ocean", "email_rules", P(france=("F BRE",)), "france", "F Bre - MAO", ["F BRE - MAO"], "accepted"),
    row("002 FORMAT 1 Tya = Tyrolia", "email_rules", P(germany=("A MUN",)), "germany", "A Mun - Tya", ["A MUN - TYR"], "accepted"),
    row("002 FORMAT 1 TYS = Tyrrhenian Sea", "email_rules", P(italy=("F NAP",)), "italy", "F Nap - TYS", ["F NAP - TYS"], "accepted"),
    row("002 FORMAT 1 WMS = Western Mediterranean Sea", "email_rules", P(france=("F LYO",)), "france", "F GoL - WMS", ["F LYO - WES"], "accepted"),
    row("002 FORMAT 1 first three letters: Nor is Norway", "email_rules", P(england=("F NTH",)), "england", "F NTH - Nor", ["F NTH - NWY"], "accepted"),
    row("002 FORMAT 1 first three letters: Bel", "email_rules", P(england=("F NTH",)), "england", "F NTH - Bel", ["F NTH - BEL"], "accepted"),
    row("002 FORMAT 2 F ENG S GERMAN F NTH -> Bel", "email_rules", P(france=("F ENG",), germany=("F NTH",)), "france",
        "F ENG S GERMAN F NTH -> Bel", ["F ENG S F NTH - BEL"], "accepted"),
    row("002 FORMAT 2 all lowercase is still read", "email_rules", P(france=("F ENG",), germany=("F NTH",)), "france",
        "f eng s german f nth -> bel", ["F ENG S F NTH - BEL"], "accepted"),
    row("002 FORMAT 3 A Mar -> Bur, A Pie -> Mar", "email_rules", P(france=("A MAR", "A PIE")), "france",
        "A Mar -> Bur, A Pie -> Mar", ["A MAR - BUR", "A PIE - MAR"], "accepted"),
    row("002 FORMAT 4 two builds where one is due: the first", "email_rules", ONE_BUILD, "russia",
        "Build A War\nBuild F StP/nc", ["A WAR B"], "accepted", "002 FORMAT 4"),
    row("002 FORMAT 4 the same with retreats", "email_rules", RETREAT, "germany", "A Mun R Bur\nA Mun R Kie",
        ["A MUN R BUR"], "accepted", "002 FORMAT 4"),
    row("002 FORMAT 4 the same with disbands", "email_rules", WINTER, "austria", "Remove F Tri\nRemove A Ser\nRemove A Vie",
        ["F TRI D", "A SER D"], "accepted", "002 FORMAT 4"),
    row("002 FORMAT 5 move Tunis to the North Pole", "email_rules", FR, "italy", "move Tunis to the North Pole",
        ["A TUN H"], "rejected", "002 FORMAT 5", (), "North Pole"),
    row("002 FORMAT 5 Tunis to the North Pole (holds)", "email_rules", FR, "italy", "Tunis to the North Pole (holds)",
        ["A TUN H"], "corrected", "002 FORMAT 6", ()),
    row("002 FORMAT 5 PIE-mars", "email_rules", FR, "italy", "PIE-mars", ["A PIE - MAR"], "corrected"),
    # 002 FORMAT 5 splits run-together codes ("IONGRE"), but a province written in full is one name:
    # "Sweden" is not SWE + DEN (regression: was read as a move to Denmark and refused)
    row("002 FORMAT 5 Army Finland to Sweden (regression: was SWE - DEN)", "email_rules", P(russia=("A FIN",)),
        "russia", "Army Finland to Sweden", ["A FIN - SWE"], "accepted"),
    row("002 FORMAT 5 Fleet Sweden to Denmark (regression)", "email_rules", P(russia=("F SWE",)),
        "russia", "Fleet Sweden to Denmark", ["F SWE - DEN"], "accepted"),
    row("002 FORMAT 5 A Sweden - Norway (regression)", "email_rules", P(russia=("A SWE",)),
        "russia", "A Sweden - Norway", ["A SWE - NWY"], "accepted"),
    row("002 FORMAT 6 Tunis has a wild party (holds)", "email_rules", FR, "italy", "Tunis has a wild party (holds)",
        ["A TUN H"], "corrected", "002 FORMAT 6"),
    row("002 FORMAT 6 Venice kills and maims the Trieste citizens (A Ven-Tri)", "email_rules", FR, "italy",
        "Venice kills and maims the Trieste citizens (A Ven-Tri)", ["A VEN - TRI"], "corrected", "002 FORMAT 6"),
    row("002 FORMAT 7 A ION-GRE (ORDERS 1 prevails over FORMAT 7)", "email_rules", FR, "italy", "A ION-GRE",
        ["F ION H"], "rejected", "002 ORDERS 1", (), "Did you mean F ION - GRE?"),
    row("002 FORMAT 7 I-GRE", "email_rules", FR, "italy", "I-GRE", ["F ION - GRE"], "corrected", "002 FORMAT 7"),
    row("002 FORMAT 7 F Ionian Sea-Greece", "email_rules", FR, "italy", "F Ionian Sea-Greece", ["F ION - GRE"], "accepted"),
    row("002 FORMAT 8 hold and support: just the support", "email_rules", FR, "france", "A Par H\nA Par S A Mar - Bur",
        ["A PAR S A MAR - BUR", "A MAR - BUR"], "rejected", "002 FORMAT 8"),
    row("002 FORMAT 9 A Mun S A Tya -> Boh implies A Tya -> Boh", "email_rules", FR, "germany", "A Mun S A Tya -> Boh",
        ["A MUN S A TYR - BOH", "A TYR - BOH"], "corrected", "002 FORMAT 9"),
    row("002 FORMAT 10 F MAO and A Gas S A Par -> Bre", "email_rules", FR, "france", "F MAO and A Gas S A Par -> Bre",
        ["F MAO S A PAR - BRE", "A GAS S A PAR - BRE", "A PAR - BRE"], "corrected", "002 FORMAT 10"),
    row("002 FORMAT 11 A Mun -> Mun is A Mun HOLDS", "email_rules", FR, "germany", "A Mun -> Mun", ["A MUN H"],
        "rejected", "002 FORMAT 11", ()),
    row("002 FORMAT 12 orders for more units than you have", "email_rules", FR, "germany", "A Kie - Den\nF Hol - Nth",
        ["A KIE - DEN"], "accepted", "002 FORMAT 12"),
    row("002 ORDERS 1 a fleet called an army", "email_rules", FR, "france", "A Bre - MAO", ["F BRE H"], "rejected",
        "002 ORDERS 1", (), "Did you mean F BRE - MAO?"),
    row("002 ORDERS 1 coast not specified in a move", "email_rules", GAS, "france", "F Gas - Spa", ["F GAS H"], "rejected",
        "002 ORDERS 1", (), "Did you mean F GAS - SPA/NC?"),
    row("002 ORDERS 1 coast not specified in a support", "email_rules", GAS, "france", "F MAO S F Gas - Spa", ["F MAO H"],
        "rejected", "002 ORDERS 1", (), "Did you mean F MAO S F GAS - SPA/NC?"),
    row("002 Q&A 5 A LON-H (regression: was a move without destination)", "email_rules", QA5, "england",
        "A LON-H\nF ECH CA GERMAN BEL-LON", ["A LON H", "F ENG C A BEL - LON"], "accepted"),
    row("002 Q&A 5 A BEL-LON, F NTS SA BEL-LON", "email_rules", QA5, "germany", "A BEL-LON\nF NTS SA BEL-LON",
        ["A BEL - LON VIA", "F NTH S A BEL - LON"], "accepted"),
    row("002 Q&A 6 A LVP-WAL, F LON SA LVP-WAL (read as meant: the printed F LON SA LON-WAL is a misprint)",
        "email_rules", QA6, "england",
        "A LVP-WAL\nF LON SA LVP-WAL", ["A LVP - WAL", "F LON S A LVP - WAL"], "accepted"),
    row("002 Q&A 6 F LON SA LON-WAL as printed", "email_rules", QA6, "england", "F LON SA LON-WAL", ["F LON H"],
        "rejected", "002 FORMAT 5", None, "cannot support itself"),
    row("002 Q&A 6 A WAL-LON, F ECH CA WAL-LON", "email_rules", QA6, "germany", "A WAL-LON\nF ECH CA WAL-LON",
        ["A WAL - LON", "F ENG C A WAL - LON"], "accepted"),
    # ---------------------------------------------------------------- 000, profile mhr
    row("000 III(1) no presumption of a valid set: A Edi - Liv stays ambiguous", "mhr", FR, "england", "A Edi - Liv",
        ["A EDI H"], "rejected", "000 III(2)", None, "Did you mean Liverpool?"),
    row("000 III(2) an unambiguous abbreviation", "mhr", FR, "france", "A Par - Burgu", ["A PAR - BUR"], "accepted"),
    row("000 III(2) an understandable typo", "mhr", FR, "france", "A Par - Burgandyy", ["A PAR - BUR"], "corrected",
        "000 III(2)"),
    row("000 III(2) a typo giving another province's name is that province", "mhr", FR, "germany", "A Mun - Bul",
        ["A MUN H"], "rejected", "000 III(5)", ("A MUN",)),
    row("000 III(3) no order inferred for an unordered unit", "mhr", FR, "germany", "A Mun S A Tyr - Boh",
        ["A MUN S A TYR - BOH"], "accepted"),
    row("000 III(5) ¶1 a unit ordered to move cannot be supported to hold", "mhr", FR, "france", "A Par - Vie",
        ["A PAR H"], "rejected", "000 III(5)", ("A PAR",)),
    row("000 III(5) ¶1 a misorder not implying movement is a hold", "mhr", FR, "italy", "Army Rome eats pasta",
        ["A ROM H"], "corrected", "000 III(5)", ()),
    row("000 III(5) ¶1 a move void for its unit type is still a move (regression)", "mhr", FR, "france", "F Par - Bur",
        ["A PAR H"], "rejected", "000 IV(1)", ("A PAR",), "Did you mean A PAR - BUR?"),
    row("000 III(5) ¶2 a move possible with a convoy is legal", "mhr", ENG_BEL, "england", "A Lon - Hol",
        ["A LON - HOL VIA"], "accepted"),
    row("000 III(6) the first order is used", "mhr", FR, "france", "A Par - Bur\nA Par - Pic", ["A PAR - BUR"],
        "accepted", "000 III(6)"),
    row("000 III(7) A Par to Gas UNLESS German A Mun -> Bur, in which case A Par -> Bur", "mhr", FR, "france",
        "A Par to Gas UNLESS German A Mun -> Bur, in which case A Par -> Bur", ["A PAR - GAS"], "corrected", "000 III(7)",
        None, "('a par - bur') were dropped"),
    row("000 III(7) the same order written with if/otherwise (regression)", "mhr", FR, "france",
        "If German A Mun -> Bur, A Par -> Bur, otherwise A Par -> Gas", ["A PAR - GAS"], "corrected", "000 III(7)"),
    row("000 IV(1) an omitted unit type does not invalidate", "mhr", FR, "france", "Par - Bur", ["A PAR - BUR"],
        "corrected", "000 IV(1)"),
    row("000 IV(1) an inaccurate unit type invalidates", "mhr", FR, "france", "A Bre - MAO", ["F BRE H"], "rejected",
        "000 IV(1)", ("F BRE",), "Did you mean F BRE - MAO?"),
    row("000 IV(2) an omitted nationality does not invalidate", "mhr", FR, "france", "A Mar S A Mun - Bur",
        ["A MAR S A MUN - BUR"], "accepted"),
    row("000 IV(2) an inaccurate nationality invalidates", "mhr", FR, "france", "A Mar S English A Mun - Bur",
        ["A MAR H"], "rejected", "000 IV(2)", (), "Did you mean A MAR S GERMAN A MUN - BUR?"),
    row("000 IV(3) an omitted coast, one coast reachable", "mhr", GAS, "france", "F Gas - Spa", ["F GAS - SPA/NC"],
        "corrected", "000 IV(3)"),
    row("000 IV(3) the fleet's own coast omitted", "mhr", FR, "russia", "F StP - Bot", ["F STP/SC - BOT"], "accepted"),
    row("000 IV(4) an inaccurate destination coast, one coast reachable", "mhr", GAS, "france", "F Gas - Spa/sc",
        ["F GAS - SPA/NC"], "corrected", "000 IV(4)"),
    row("000 IV(4) an inaccurate coast for a fleet holding in the province", "mhr", SPA, "france", "F Spa/sc H",
        ["F SPA/NC H"], "corrected"),
    row("000 IV(4) a move reaching both coasts with none given", "mhr", FR, "france", "F MAO - Spa", ["F MAO H"],
        "rejected", "000 IV(3)", ("F MAO",), "Did you mean F MAO - SPA/NC or F MAO - SPA/SC?"),
    row("000 IV(5) an inaccurate coast of the supporting fleet", "mhr", FR, "russia", "F StP/nc S A Mos - Lvn",
        ["F STP/SC S A MOS - LVN"], "corrected", "000 IV(5)"),
    row("000 IV(6) a support without coast, one coast reachable", "mhr", GAS, "france", "F MAO S F Gas - Spa",
        ["F MAO S F GAS - SPA/NC"], "accepted"),
    row("000 IV(6) a support without coast, both coasts reachable", "mhr", GAS, "france", "F Por S F MAO - Spa",
        ["F POR H"], "rejected", "000 IV(6)", (), "Did you mean F POR S F MAO - SPA/NC or F POR S F MAO - SPA/SC?"),
    row("000 IV(6) a support to hold a fleet located in the province", "mhr", SPA, "france", "F MAO S F Spa",
        ["F MAO S F SPA/NC"], "accepted"),
    row("000 IV(7) a support coast not matching, one coast reachable", "mhr", GAS, "france", "F MAO S F Gas - Spa/sc",
        ["F MAO S F GAS - SPA/NC"], "corrected", "000 IV(7)"),
    row("000 IV(7) a support of a fleet holding in the province, coast not corresponding (regression: cited IV(5))",
        "mhr", SPA, "france", "F MAO S F Spa/sc", ["F MAO S F SPA/NC"], "corrected", "000 IV(7)"),
    row("000 VI(3) a convoy route may be specified: the order keeps it (datc_4a6 = allowed_not_required)", "mhr",
        ENG_BEL, "england", "A Lon - Nwy via Nth", ["A LON - NTH - NWY"], "corrected", "000 VI(3)"),
    row("000 V(1) a build without unit type builds nothing", "mhr", WINTER, "russia", "Build War", [], "rejected",
        "000 V(1)", None, "Did you mean A WAR B?"),
    row("000 V(2) excess builds: top to bottom", "mhr", ONE_BUILD, "turkey", "Build A Con\nBuild A Ank", ["A CON B"],
        "accepted", "000 V(2)"),
    row("000 V(3) several builds in one centre: the first", "mhr", TURKEY_BUILDS, "turkey", "build f con, build a con",
        ["F CON B"], "accepted", "000 V(3)"),
    row("000 V(5) a fleet in an inland centre builds nothing", "mhr", WINTER, "russia", "Build F War", [], "rejected",
        "000 V(5)"),
    # ---------------------------------------------------------------- 001, profile danivon
    row("001 II(1) a complete set of valid orders: A Edi - Liv", "danivon", FR, "england", "A Edi - Liv",
        ["A EDI - LVP"], "corrected", "001 II(1)"),
    row("001 II(2) an unambiguously understandable typo", "danivon", FR, "france", "A Par - Brugundy", ["A PAR - BUR"],
        "corrected", "001 II(2)"),
    row("001 III(1) an illegal order is a hold that may be supported", "danivon", FR, "france", "A Par - Vie",
        ["A PAR H"], "rejected", "001 III(1)", ()),
    row("001 III(2) the last order is used", "danivon", FR, "france", "A Par - Bur\nA Par - Pic", ["A PAR - PIC"],
        "rejected", "001 III(2)"),
    row("001 III(3) an omitted unit type invalidates", "danivon", FR, "france", "Par - Bur", ["A PAR H"], "rejected",
        "001 III(3)", (), "Did you mean A PAR - BUR?"),
    row("001 III(4) an inaccurate unit type invalidates", "danivon", FR, "france", "F Par - Bur", ["A PAR H"],
        "rejected", "001 III(4)", ()),
    row("001 III(5) an omitted nationality does not invalidate", "danivon", FR, "france", "A Mar S A Mun - Bur",
        ["A MAR S A MUN - BUR"], "accepted"),
    row("001 III(6) an inaccurate nationality does not invalidate", "danivon", FR, "france",
        "A Mar S English A Mun - Bur", ["A MAR S A MUN - BUR"], "corrected", "001 III(6)"),
    row("001 III(7) an omitted coast, one coast possible", "danivon", GAS, "france", "F Gas - Spa", ["F GAS - SPA/NC"],
        "corrected", "001 III(7)"),
    row("001 III(8) a support without coast, one coast possible", "danivon", GAS, "france", "A Mar S F Gas - Spa",
        ["A MAR S F GAS - SPA/NC"], "accepted"),
    row("001 III(9) a support coast not corresponding, one coast possible", "danivon", GAS, "france",
        "A Mar S F Gas - Spa/sc", ["A MAR S F GAS - SPA/NC"], "corrected", "001 III(9)"),
    row("001 III(10) excess builds: top to bottom", "danivon", ONE_BUILD, "turkey", "Build A Con\nBuild A Ank",
        ["A CON B"], "accepted", "001 III(10)"),
    row("001 III(11) several builds in one centre: the first", "danivon", TURKEY_BUILDS, "turkey",
        "build f con\nbuild a con", ["F CON B"], "accepted", "001 III(11)"),
    # ---------------------------------------------------------------- 003, profile scorpion
    row("003 [10 a] identical orders count as one", "scorpion", SCORPION, "russia", "A War - Lvn\nA War - Lvn",
        ["A WAR - LVN"], "accepted", None, ()),
    row("003 [10 a] A War - Lvn and A War - Ukr: the unit stands, unsupportable", "scorpion", SCORPION, "russia",
        "A War - Lvn\nA War - Ukr", ["A WAR H"], "rejected", "003 [10 a]", ("A WAR",)),
    row("003 [10 a] a hold and a move are different orders (regression)", "scorpion", FR, "france",
        "A Par H\nA Par - Vie", ["A PAR H"], "rejected", "003 [10 a]", ("A PAR",)),
    row("003 [10 a] hold and support orders only: supportable", "scorpion", FR, "france", "A Par H\nA Par S A Mar - Bur",
        ["A PAR H"], "rejected", "003 [10 a]", ()),
    row("003 [10 b] an army in Rome ordered to move to Vienna", "scorpion", SCORPION, "italy", "Army Rome - Vienna",
        ["A ROM H"], "rejected", "003 [10 b]", ("A ROM",)),
    row("003 [10 b] a Fleet Barents Sea ordered to move to Tahiti", "scorpion", SCORPION, "russia",
        "Fleet Barents Sea ordered to move to Tahiti", ["F BAR H"], "rejected", "003 [10 b]", ("F BAR",)),
    row("003 [10 b] Army Rome eats pasta", "scorpion", SCORPION, "italy", "Army Rome eats pasta", ["A ROM H"],
        "corrected", "003 [10 b]", ()),
    row("003 [10 b] Fleet Barents Sea goes fishing (regression: was a move)", "scorpion", SCORPION, "russia",
        "Fleet Barents Sea goes fishing", ["F BAR H"], "corrected", "003 [10 b]", ()),
    row("003 [10 c] an omitted coast with one coast possible", "scorpion", SCORPION, "russia", "F Bar - StP",
        ["F BAR - STP/NC"], "corrected", "003 [10 c]"),
    row("003 [10 c] the wrong coast is a misorder", "scorpion", SCORPION, "russia", "F Bar - StP/sc", ["F BAR H"],
        "rejected", "003 [10 c]", ("F BAR",), "Did you mean F BAR - STP/NC?"),
    row("003 [10 c] an omitted coast in a support with one coast possible", "scorpion", SCORPION, "russia",
        "A Mos S F Bar - StP", ["A MOS S F BAR - STP/NC"], "accepted"),
    row("003 [10 c] the wrong own coast in a move is a misorder, still a move (regression)", "scorpion", SCORPION,
        "russia", "F StP/nc - Bot", ["F STP/SC H"], "rejected", "003 [10 c]", ("F STP/SC",),
        "Did you mean F STP/SC - BOT?"),
    row("003 [10 c] a wrong coast for the supported fleet is a misorder (regression: was ignored)", "scorpion", SPA,
        "france", "F MAO S F Spa/sc", ["F MAO H"], "rejected", "003 [10 c]", (), "Did you mean F MAO S F SPA/NC?"),
    row("003 [10 d] build f con, build a con: the first", "scorpion", TURKEY_BUILDS, "turkey", "build f con, build a con",
        ["F CON B"], "accepted", "003 [10 d]"),
    row("003 [5 a] conditional builds finished with \"otherwise build...\"", "scorpion", WINTER, "russia",
        "If I own Rumania, build A War\nOtherwise build A Sev", ["A WAR B"], "accepted", "003 [5 a]"),
    row("003 [8] units written F(HEL), F(SKA)", "scorpion",
        P("W1901A", centers={"ENGLAND": ("LON", "EDI", "LVP", "BEL")},
          england=("F HEL", "F SKA", "A PIC", "F ENG", "F NTH", "A BEL")),
        "england", "Remove F(HEL)\nRemove F(SKA)", ["F HEL D", "F SKA D"], "accepted"),
    row("003 [15] an omitted unit type is a misorder, still a move (regression)", "scorpion", FR, "france", "Par - Bur",
        ["A PAR H"], "rejected", "003 [15]", ("A PAR",), "Did you mean A PAR - BUR?"),
    row("003 [15] the wrong unit type is a misorder", "scorpion", FR, "france", "F Par - Bur", ["A PAR H"], "rejected",
        "003 [15]", ("A PAR",)),
    row("003 [15] a build without unit type", "scorpion", WINTER, "russia", "Build War", [], "rejected", "003 [15]"),
    row("003 [17] an incorrect abbreviation leaving no doubt", "scorpion", SCORPION, "russia", "A War - Ukra",
        ["A WAR - UKR"], "accepted"),
    row("003 [17] Nor is always a misorder", "scorpion", FR, "england", "F NTH - Nor", ["F NTH H"], "rejected",
        "003 [17]", ("F NTH",), "Norway (Nwy)"),
    row("003 [17] Liv is always a misorder", "scorpion", FR, "russia", "A Mos - Liv", ["A MOS H"], "rejected",
        "003 [17]", ("A MOS",), "Livonia (Lvn)"),
    row("003 [21] a support of a foreign unit must name its nationality", "scorpion", SCORPION, "france",
        "A Mar S A Mun - Bur", ["A MAR H"], "rejected", "003 [21]", (), "Did you mean A MAR S GERMAN A MUN - BUR?"),
    row("003 [21] with the nationality named", "scorpion", SCORPION, "france", "A Mar S German A Mun - Bur",
        ["A MAR S A MUN - BUR"], "accepted"),
    row("003 [5] retreats in the order of relevance", "scorpion", RETREAT, "germany", "A Mun R Boh\nA Mun R Kie",
        ["A MUN R KIE"], "rejected", "003 [5]"),
    row("003 Abbrev. Lpl = Liverpool", "scorpion", P(england=("A EDI",)), "england", "A Edi - Lpl", ["A EDI - LVP"], "accepted"),
    row("003 Abbrev. Lvn = Livonia", "scorpion", P(russia=("A MOS",)), "russia", "A Mos - Lvn", ["A MOS - LVN"], "accepted"),
    row("003 Abbrev. NAf = North Africa", "scorpion", P(italy=("A TUN",)), "italy", "A Tun - NAf", ["A TUN - NAF"], "accepted"),
    row("003 Abbrev. Nwy = Norway", "scorpion", P(england=("F NTH",)), "england", "F NTH - Nwy", ["F NTH - NWY"], "accepted"),
    row("003 Abbrev. GoB = Gulf of Bothnia", "scorpion", P(russia=("F SWE",)), "russia", "F Swe - GoB", ["F SWE - BOT"], "accepted"),
    row("003 Abbrev. GoL = Gulf of Lyons", "scorpion", P(france=("F MAR",)), "france", "F Mar - GoL", ["F MAR - LYO"], "accepted"),
    row("003 Abbrev. MAO = Mid Atlantic Ocean", "scorpion", P(france=("F BRE",)), "france", "F Bre - MAO", ["F BRE - MAO"], "accepted"),
    row("003 Abbrev. NAO = North Atlantic Ocean", "scorpion", P(england=("F CLY",)), "england", "F Cly - NAO", ["F CLY - NAO"], "accepted"),
    row("003 Abbrev. NTH = North Sea", "scorpion", P(england=("F LON",)), "england", "F Lon - NTH", ["F LON - NTH"], "accepted"),
    row("003 Abbrev. NWG = Norwegian Sea", "scorpion", P(england=("F EDI",)), "england", "F Edi - NWG", ["F EDI - NWG"], "accepted"),
    row("003 Abbrev. TYS = Tyrrhenian Sea", "scorpion", P(italy=("F NAP",)), "italy", "F Nap - TYS", ["F NAP - TYS"], "accepted"),
    row("003 Abbrev. first three letters: Eng", "scorpion", P(france=("F BRE",)), "france", "F Bre - Eng", ["F BRE - ENG"], "accepted"),
    row("003 Abbrev. first three letters: Tyr is Tyrolia", "scorpion", P(germany=("A MUN",)), "germany", "A Mun - Tyr", ["A MUN - TYR"], "accepted"),
    row("003 Notes an army in Denmark can march to Sweden", "scorpion", MAPFACTS, "germany", "A Den - Swe", ["A DEN - SWE"], "accepted"),
    row("003 Notes Spain does not border North Africa", "scorpion", MAPFACTS, "france", "A Spa - NAf", ["A SPA H"], "rejected", "003 [10 b]", ("A SPA",)),
    row("003 Notes St Petersburg borders Norway", "scorpion", MAPFACTS, "russia", "A StP - Nwy", ["A STP - NWY"], "accepted"),
    row("003 Notes Tyrol borders Piedmont", "scorpion", MAPFACTS, "germany", "A Tyr - Pie", ["A TYR - PIE"], "accepted"),
    row("003 Notes the Skagerrak does not border the Baltic Sea", "scorpion", MAPFACTS, "germany", "F Ska - Bal", ["F SKA H"], "rejected", "003 [10 b]", ("F SKA",)),
    # ---------------------------------------------------------------- 004, profile gwm
    row("004 I(1) a significant part of the name: West Med", "gwm", FR, "france", "F MAO - West Med", ["F MAO - WES"], "accepted"),
    row("004 I(1) ¶2 A. Mun - Ber", "gwm", FR, "germany", "A. Mun - Ber", ["A MUN - BER"], "accepted"),
    row("004 I(1) ¶2 A. Mun - Bur", "gwm", FR, "germany", "A. Mun - Bur", ["A MUN - BUR"], "accepted"),
    row("004 I(1) ¶2 an entry of the player's list is never ambiguous", "gwm", FR, "england", "F Nth - Nor",
        ["F NTH - NWY"], "accepted", player_abbreviations={"Nor": "NWY"}),
    row("004 I(3) an illegal order is presumed a hold", "gwm", FR, "france", "A Par - Vie", ["A PAR H"], "rejected",
        "004 I(3)", ()),
    row("004 I(3) a move possible with other units' aid is legal", "gwm", ENG_BEL, "england", "A Lon - Hol",
        ["A LON - HOL VIA"], "accepted"),
    row("004 I(4) an illegal retreat retreats off the board", "gwm", RETREAT, "austria", "F Tri R Alb", ["F TRI D"],
        "rejected", "004 I(4)"),
    row("004 I(5) the last order, left to right", "gwm", FR, "france", "A Par - Bur, A Par - Pic", ["A PAR - PIC"],
        "rejected", "004 I(5)"),
    row("004 I(5) the last order, top to bottom, the same order twice (regression)", "gwm", FR, "france",
        "A Par - Vie\nA Par - Bur\nA Par - Vie", ["A PAR H"], "ignored", "004 I(5)"),
    row("004 II(1) an omitted unit type never invalidates", "gwm", FR, "france", "Par - Bur", ["A PAR - BUR"], "corrected",
        "004 II(1)"),
    row("004 II(1) an inaccurate unit type never invalidates", "gwm", FR, "france", "F Par - Bur", ["A PAR - BUR"],
        "corrected", "004 II(1)"),
    row("004 II(2) an inaccurate nationality never invalidates", "gwm", FR, "france", "A Mar S English A Mun - Bur",
        ["A MAR S A MUN - BUR"], "corrected", "004 II(2)"),
    row("004 II(3)a an inaccurate coast never invalidates a hold", "gwm", FR, "russia", "F StP(nc) H", ["F STP/SC H"],
        "corrected", "004 II(3)a"),
    row("004 II(3)b a missing coast in a move", "gwm", GAS, "france", "F Gas - Spa", ["F GAS - SPA/NC"], "corrected",
        "004 II(3)b"),
    row("004 II(3)b an inaccurate coast in a move", "gwm", GAS, "france", "F Gas - Spa/sc", ["F GAS - SPA/NC"],
        "corrected", "004 II(3)b"),
    row("004 II(3)b F Mid-Atlantic Ocean - Spain", "gwm", FR, "france", "F Mid-Atlantic Ocean - Spain", ["F MAO H"],
        "rejected", "004 II(3)b", ()),
    row("004 II(3)b F Portugal - Spain", "gwm", FR, "france", "F Portugal - Spain", ["F POR H"], "rejected",
        "004 II(3)b", ()),
    row("004 II(3)b F Constantinople - Bulgaria", "gwm", FR, "turkey", "F Constantinople - Bulgaria", ["F CON H"],
        "rejected", "004 II(3)b", ()),
    row("004 II(3)b an unknown coast in an ambiguous move", "gwm", FR, "france", "F MAO - Spa(ec)",
        ["F MAO H"], "rejected", "004 II(3)b", ()),
    row("004 II(3)c (Whatever unit) Supports F Mid-Atlantic Ocean - Spain", "gwm", FR, "france",
        "A Gas Supports F Mid-Atlantic Ocean - Spain", ["A GAS H"], "rejected", "004 II(3)c", ()),
    row("004 II(3)c (Whatever unit) Supports F Portugal - Spain", "gwm", FR, "france",
        "F MAO Supports F Portugal - Spain", ["F MAO H"], "rejected", "004 II(3)c", ()),
    row("004 II(3)c (Whatever unit) Supports F Constantinople - Bulgaria", "gwm", FR, "turkey",
        "F Bla Supports F Constantinople - Bulgaria", ["F BLA H"], "rejected", "004 II(3)c", ()),
    row("004 II(3)c a conflicting coast never invalidates a support", "gwm", GAS, "france", "F MAO S F Gas - Spa/sc",
        ["F MAO S F GAS - SPA/NC"], "corrected", "004 II(3)c"),
    row("004 III(1) a build without type in a coastal centre: nothing", "gwm", WINTER, "russia", "Build Sev", [],
        "rejected", "004 III(1)", None, "Did you mean A SEV B or F SEV B?"),
    row("004 III(1) a build without type in an inland centre: an army", "gwm", WINTER, "russia", "Build War",
        ["A WAR B"], "corrected", "004 III(1)"),
    row("004 III(1) a build without type with a legal coast: a fleet", "gwm", WINTER, "russia", "Build StP/nc",
        ["F STP/NC B"], "corrected", "004 III(1)"),
    row("004 III(2) excess builds: bottom to top", "gwm", ONE_BUILD, "turkey", "Build A Con\nBuild A Ank",
        ["A ANK B"], "rejected", "004 III(2)"),
    row("004 III(3) several builds in one centre: the last written", "gwm", TURKEY_BUILDS, "turkey",
        "build f con, build a con", ["A CON B"], "rejected", "004 III(3)"),
    row("004 III(5) ¶1 a fleet in an inland centre: nothing", "gwm", WINTER, "russia", "Build F War", [], "rejected",
        "004 III(5)"),
    row("004 III(5) ¶2 an army on a coast where a fleet could be built: nothing", "gwm", WINTER, "russia",
        "Build A StP/nc", [], "rejected", "004 III(5)"),
]


@pytest.mark.parametrize("profile, position, power, text, orders, status, rule, unsupportable, says, kwargs", EXAMPLES)
def test_seed_example(profile, position, power, text, orders, status, rule, unsupportable, says, kwargs):
    reading = read_orders(text, position=position, power=power.upper(), ruleset=ruleset(profile),
                          geography=geography(), **kwargs)
    assert sorted(notation(reading.orders)) == sorted(orders), reading.lines
    if status is not None:
        assert reading.lines[0].status == status, reading.lines
    if rule is not None:
        assert any(rule in (r.rule or "") for r in reading.lines), reading.lines
    if unsupportable is not None:
        assert notation(reading.unsupportable) == tuple(sorted(unsupportable)), reading
    if says is not None:
        assert says in (reading.lines[0].message or ""), reading.lines[0]


def test_002_format_3_orders_are_reported_in_canonical_sequence():
    # 002 FORMAT 3: "A Mar -> Bur, A Pie -> Mar" may be reported in either sequence; the server
    # always uses the canonical one (report_order_sequence = canonical), whatever was written
    one = read_orders("A Pie -> Mar\nA Mar -> Bur", position=P(france=("A MAR", "A PIE")), power="FRANCE",
                      ruleset=ruleset("email_rules"), geography=geography())
    other = read_orders("A Mar -> Bur, A Pie -> Mar", position=P(france=("A MAR", "A PIE")), power="FRANCE",
                        ruleset=ruleset("email_rules"), geography=geography())
    assert notation(one.orders) == notation(other.orders) == ("A MAR - BUR", "A PIE - MAR")


def _read(text, profile, subject="", position=FR, power="FRANCE", previous=()):
    return read_orders(text, position=position, power=power, ruleset=ruleset(profile), geography=geography(),
                       subject=subject, previous=as_orders(previous))


def test_000_ii_1_preliminary_unless_marked_final():
    assert _read("A Par - Bur", "mhr").set_status == "preliminary"
    assert _read("A Par - Bur\nFinal", "mhr").set_status == "final"


def test_000_ii_2_b_subject_dc179_blackmarch_version_1():
    reading = _read("A Par - Bur", "mhr", subject="Dc179 [BlackMarch] S01: English Orders [1]")
    assert reading.version == "1"


def test_000_iii_4_partial_revised_set_takes_earlier_orders_per_unit():
    reading = _read("A Mar - Spa", "mhr", previous=("A PAR - BUR", "A MAR H"))
    assert notation(reading.orders) == ("A MAR - SPA", "A PAR - BUR")
    assert "000 III(4)" in reading.notes[0]


def test_001_ii_3_final_unless_marked_preliminary():
    assert _read("A Par - Bur", "danivon").set_status == "final"
    assert _read("Preliminary\nA Par - Bur", "danivon").set_status == "preliminary"


def test_001_ii_7_sequence_v1_0_v2_0_v2_1_decides():
    assert [version_marker(s) for s in ("v1.0", "v2.0", "v2.1")] == ["1.0", "2.0", "2.1"]
    # received out of order: the sequence, not the arrival, decides which set is the latest
    sets = [stored_set(("A PAR - BUR",), 1, "2.1"), stored_set(("A PAR - PIC",), 2, "2.0"),
            stored_set(("A PAR H",), 3, "1.0")]
    assert [s.version for s in ordered_sets(sets, ruleset("danivon"))] == ["1.0", "2.0", "2.1"]


def test_001_ii_7_partial_revised_set_replaces_the_earlier_one():
    assert notation(_read("A Mar - Spa", "danivon", previous=("A PAR - BUR", "A MAR H")).orders) == ("A MAR - SPA",)


def test_002_orders_2_numbered_and_change_sets():
    assert _read("A Par - Bur", "email_rules", subject="Lepanto orders #2").version == "2"
    change = _read("A Mar - Spa", "email_rules", subject="change to #1", previous=("A PAR - BUR", "A MAR H"))
    assert change.is_change and notation(change.orders) == ("A MAR - SPA", "A PAR - BUR")
    whole = _read("A Mar - Spa", "email_rules", subject="orders #2", previous=("A PAR - BUR", "A MAR H"))
    assert not whole.is_change and notation(whole.orders) == ("A MAR - SPA",)


def test_003_10_only_the_last_set_is_used():
    assert notation(_read("A Mar - Spa", "scorpion", previous=("A PAR - BUR", "A MAR H")).orders) == ("A MAR - SPA",)


@pytest.mark.parametrize("profile, clause, text", [
    ("mhr", "000 III(5)", "F Bre - Par\nA Gas S F Bre"),
    ("mhr", "000 III(5)", "F Bre - Bre\nA Gas S F Bre"),
    ("scorpion", "003 [10 b]", "F Bre - Par\nA Gas S F Bre"),
    ("scorpion", "003 [10 b]", "F Bre - Bre\nA Gas S F Bre"),
])
def test_000_iii_5_and_003_10_b_support_of_an_unsupportable_unit_is_void_at_once(profile, clause, text):
    # 000 III(5) / 003 [10 b]: a void move (impossible, or to its own province) leaves the unit unable
    # to receive support to hold, so a support of it is confirmed void when read, with why
    reading = _read(text, profile, position=P(france=("F BRE", "A GAS")))
    assert sorted(notation(reading.orders)) == ["A GAS H", "F BRE H"]
    assert notation(reading.unsupportable) == ("F BRE",)
    support = reading.lines[1]
    assert support.status == "rejected" and clause in (support.rule or "")
    assert "F BRE cannot receive support to hold" in support.message


def test_hold_supportable_profile_keeps_the_support_of_a_unit_whose_move_is_void():
    # standard (DATC 4.E.1): the unit whose move is void holds and may receive support to hold
    reading = _read("F Bre - Par\nA Gas S F Bre", "standard", position=P(france=("F BRE", "A GAS")))
    assert sorted(notation(reading.orders)) == ["A GAS S F BRE", "F BRE H"]
    assert reading.lines[1].status == "accepted"


@pytest.mark.parametrize("profile, clause, orders, status", [
    ("scorpion", "003 [10 c]", ["F MAO - SPA/NC", "F POR H"], "rejected"),
    ("mhr", "000 IV(7)", ["F MAO - SPA/NC", "F POR S F MAO - SPA/SC"], "corrected"),
])
def test_support_naming_the_other_coast_of_the_players_own_move_is_confirmed(profile, clause, orders, status):
    # 003 [10 c]: a support naming another coast than the fleet's move is void, said when read;
    # 000 IV(7): the fleet's own coast is what counts, and the confirmation says so
    reading = _read("F Mao - Spa/nc\nF Por S F Mao - Spa/sc", profile, position=P(france=("F MAO", "F POR")))
    assert sorted(notation(reading.orders)) == orders
    support = reading.lines[1]
    assert support.status == status and clause in (support.rule or "")
    assert "Spain (north coast)" in support.message
