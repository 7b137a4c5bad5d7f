"""Writes the order-reading corpus: lines.json (order lines) and emails/*.eml with emails.json.

A regression snapshot, not acceptance: the expected readings are the reader's own output when this
script last ran, reviewed, so the corpus catches a change in how the reader reads, not a reading
that was wrong from the start. Acceptance is the seed documents' examples
(tests/unit/reading/test_seed_examples.py) and the option tables (test_options.py,
test_sets_and_adjustments.py, test_conditions.py), each row named by the clause it checks.

The inputs are written here by hand (HAND) and by style variations of every unit's orders in a few
positions (the ways players write: abbreviations, full names, prose, arrows, lists, typos, wrong or
missing unit types, coasts). The expected readings (orders; each line's status, order and, where
the reading cites one, the clause applied; the units that may not be supported to hold) are
recorded under all six profiles; `tests/unit/reading/test_corpus.py` checks the reader still gives
them. After a deliberate change in reading, run this script and review the diff line by line.

    PYTHONPATH=. .venv/bin/python tests/data/orders/make_corpus.py
"""

from __future__ import annotations

import json
import random
from email.message import EmailMessage
from pathlib import Path

from gmserver.rules.position import Position
from gmserver.rules.reading.message import extract_order_text
from gmserver.rules.reading.model import LineReading
from gmserver.rules.reading.reader import read_orders
from gmserver.rules.ruleset import load_ruleset
from gmserver import engine

HERE = Path(__file__).parent
PROFILES = ("standard", "mhr", "danivon", "email_rules", "scorpion", "gwm")

POSITIONS = {
    "opening": engine.position_from_state(engine.initial_state()),
    "mid": Position(
        phase="F1902M",
        units={
            "FRANCE": ("A PAR", "F BRE", "A MAR", "F MAO", "A GAS", "F POR"),
            "ENGLAND": ("A LON", "F NTH", "F ENG", "A EDI"),
            "GERMANY": ("A MUN", "F KIE", "A BER", "A TYR"),
            "ITALY": ("F ION", "A VEN", "F NAP", "A ROM", "A TUN"),
            "RUSSIA": ("F STP/SC", "F SEV", "A WAR", "A MOS"),
            "TURKEY": ("F CON", "A BUL", "F BLA", "A SMY"),
            "AUSTRIA": ("A VIE", "F TRI", "A BUD", "A SER"),
        },
        centers={},
    ),
    "retreat": Position(
        phase="F1901R", units={"ITALY": ("A ALB", "F ADR", "F ION"), "AUSTRIA": ("A SER",), "GERMANY": ("A BOH",)},
        dislodged={"AUSTRIA": ("F TRI", "A VIE"), "GERMANY": ("A MUN",)},
        retreats={"F TRI": ("VEN",), "A VIE": ("BUD", "GAL", "TYR"), "A MUN": ("BUR", "KIE", "RUH")}, centers={},
    ),
    "winter": Position(
        phase="W1901A", units={"RUSSIA": ("A MOS",), "AUSTRIA": ("F TRI", "A VIE", "A BUD", "A SER")},
        centers={"RUSSIA": ("STP", "SEV", "MOS", "WAR", "RUM"), "AUSTRIA": ("TRI", "BUD")},
    ),
}

# (position, power, line) written the way players write
HAND = [
    ("opening", "FRANCE", "A Par-Bur"), ("opening", "FRANCE", "A Par - Bur"), ("opening", "FRANCE", "a par-bur"),
    ("opening", "FRANCE", "A PAR -> BUR"), ("opening", "FRANCE", "Army Paris -> Burgundy"),
    ("opening", "FRANCE", "army paris moves to burgundy"), ("opening", "FRANCE", "A Paris to Picardy"),
    ("opening", "FRANCE", "1. A Par-Bur"), ("opening", "FRANCE", "2) A Mar - Spa"), ("opening", "FRANCE", "- F Bre - MAO"),
    ("opening", "FRANCE", "* F Brest -> Mid-Atlantic Ocean"), ("opening", "FRANCE", "• F Bre → Eng"),
    ("opening", "FRANCE", "F Bre => English Channel"), ("opening", "FRANCE", "A Mar S A Par - Bur"),
    ("opening", "FRANCE", "A Marseilles supports A Paris to Burgundy"), ("opening", "FRANCE", "A Par H"),
    ("opening", "FRANCE", "A Paris holds"), ("opening", "FRANCE", "A Par stands"), ("opening", "FRANCE", "Par-Bur"),
    ("opening", "FRANCE", "F Par - Bur"), ("opening", "FRANCE", "A Bre - Pic"), ("opening", "FRANCE", "A Mun - Bur"),
    ("opening", "FRANCE", "A Par - Bur, A Mar - Spa"), ("opening", "FRANCE", "A Par-Bur; F Bre-MAO; A Mar-Spa"),
    ("opening", "FRANCE", "A Par - Bur and A Mar S A Par - Bur"), ("opening", "FRANCE", "A Mar - Spain"),
    ("opening", "FRANCE", "A Mar - Spa/sc"), ("opening", "FRANCE", "A Mar - Burgandy"), ("opening", "FRANCE", "A Par - Brugundy"),
    ("opening", "FRANCE", "A Par - Gas please"), ("opening", "FRANCE", "A Par - Gascony."), ("opening", "FRANCE", "A Par - Mun"),
    ("opening", "FRANCE", "A Par - Par"), ("opening", "FRANCE", "A Par - Nor"), ("opening", "FRANCE", "F Bre - Liv"),
    ("opening", "FRANCE", "Hi Garry,"), ("opening", "FRANCE", "Here are my orders for Spring 1901:"),
    ("opening", "FRANCE", "Thanks, and good luck to all"), ("opening", "FRANCE", "Cheers"), ("opening", "FRANCE", "Pierre"),
    ("opening", "FRANCE", "FRANCE"), ("opening", "FRANCE", "France orders S1901M"), ("opening", "FRANCE", "Final"),
    ("opening", "FRANCE", "Army Paris eats croissants (A Par - Bur)"), ("opening", "FRANCE", "A Paris has a wild party (holds)"),
    ("opening", "FRANCE", "A Par to Bur unless German A Mun -> Bur, in which case A Par -> Pic"),
    ("opening", "FRANCE", "If Germany moves to Burgundy, A Par - Pic"), ("opening", "FRANCE", "Build A Par"),
    ("opening", "ENGLAND", "F Lon - Nth"), ("opening", "ENGLAND", "F London -> North Sea"), ("opening", "ENGLAND", "F Edi - Nwg"),
    ("opening", "ENGLAND", "F Edi - Norwegian Sea"), ("opening", "ENGLAND", "A Lvp - Yor"), ("opening", "ENGLAND", "A Lpl - Yor"),
    ("opening", "ENGLAND", "A Liverpool - Edinburgh"), ("opening", "ENGLAND", "A Lvp - Wal"), ("opening", "ENGLAND", "F Lon - ENG"),
    ("opening", "ENGLAND", "F Lon - Eng"), ("opening", "ENGLAND", "F Edi - Nth"), ("opening", "ENGLAND", "F Edi S F Lon - Nth"),
    ("opening", "GERMANY", "A Mun - Ruh"), ("opening", "GERMANY", "A Ber - Kie"), ("opening", "GERMANY", "F Kie - Den"),
    ("opening", "GERMANY", "F Kie - Hol"), ("opening", "GERMANY", "A Mun - Bur"), ("opening", "GERMANY", "A Munich-Tyrolia"),
    ("opening", "GERMANY", "A Mun - Tyr"), ("opening", "GERMANY", "A Mun - Tya"), ("opening", "GERMANY", "A Mun S A Ber - Kie"),
    ("opening", "GERMANY", "F Kie S A Ber"), ("opening", "GERMANY", "A Ber - Sil"), ("opening", "GERMANY", "A Berlin -> Prussia"),
    ("opening", "ITALY", "A Ven - Tyr"), ("opening", "ITALY", "A Rom - Apu"), ("opening", "ITALY", "F Nap - Ion"),
    ("opening", "ITALY", "F Naples to Ionian Sea"), ("opening", "ITALY", "F Nap - Ionian"), ("opening", "ITALY", "A Ven H"),
    ("opening", "ITALY", "A Venice kills and maims the Trieste citizens (A Ven-Tri)"), ("opening", "ITALY", "A Rom - Ven"),
    ("opening", "AUSTRIA", "A Vie - Gal"), ("opening", "AUSTRIA", "A Bud - Ser"), ("opening", "AUSTRIA", "F Tri - Alb"),
    ("opening", "AUSTRIA", "F Trieste -> Albania"), ("opening", "AUSTRIA", "A Vie - Tri"), ("opening", "AUSTRIA", "A Bud - Rum"),
    ("opening", "RUSSIA", "F StP(sc) - Bot"), ("opening", "RUSSIA", "F StP/sc - GoB"), ("opening", "RUSSIA", "F Stp.sc - Bothnia"),
    ("opening", "RUSSIA", "F St Petersburg (south coast) -> Gulf of Bothnia"), ("opening", "RUSSIA", "F StP - Bot"),
    ("opening", "RUSSIA", "F StP/nc - Bot"), ("opening", "RUSSIA", "A War - Ukr"), ("opening", "RUSSIA", "A Mos - Sev"),
    ("opening", "RUSSIA", "F Sev - Bla"), ("opening", "RUSSIA", "F Sev - Black Sea"), ("opening", "RUSSIA", "F Sev - Rum"),
    ("opening", "RUSSIA", "A Mos - Liv"), ("opening", "RUSSIA", "A Mos - Lvn"), ("opening", "RUSSIA", "A Mos - Livonia"),
    ("opening", "TURKEY", "F Ank - Bla"), ("opening", "TURKEY", "A Con - Bul"), ("opening", "TURKEY", "A Smy - Arm"),
    # fragments for the player's own unit (002 FORMAT 7), supports of another power's unit,
    # "Sea" misspelt
    ("opening", "AUSTRIA", "A Bu - Ser"), ("opening", "GERMANY", "F Ki - Den"), ("opening", "GERMANY", "Ki - Den"),
    ("opening", "ITALY", "A Ven S Austrian F Tri"), ("opening", "ITALY", "A Ven S Austrian A Vie - Pie"),
    ("opening", "TURKEY", "F Ank - Black See"),
    # a name of several words misspelt, a fragment before a hold or a support,
    # a support whose own unit cannot be read (never the supported unit's move)
    ("opening", "ENGLAND", "F Lon - North See"), ("opening", "AUSTRIA", "A Bu H"),
    ("opening", "AUSTRIA", "A Bu S A Vie - Gal"), ("opening", "AUSTRIA", "A Zzzz S A Bud - Ser"),
    ("opening", "AUSTRIA", "Please support A Bud - Ser"),
    ("opening", "TURKEY", "F Ankara -> Black Sea"), ("opening", "TURKEY", "A Con S A Smy - Ank"), ("opening", "TURKEY", "F Ank - Con"),
    ("mid", "FRANCE", "F MAO - Spa"), ("mid", "FRANCE", "F MAO - Spa(nc)"), ("mid", "FRANCE", "F MAO - Spain (north coast)"),
    ("mid", "FRANCE", "F Mid-Atlantic Ocean - Spa/sc"), ("mid", "FRANCE", "F Por - Spa"), ("mid", "FRANCE", "F Por - Spa NC"),
    ("mid", "FRANCE", "F MAO S F Por - Spa"), ("mid", "FRANCE", "F MAO S F Por - Spa/nc"), ("mid", "FRANCE", "A Gas S A Mar - Spa"),
    ("mid", "FRANCE", "A Mar S German A Mun - Bur"), ("mid", "FRANCE", "A Mar S A Mun - Bur"), ("mid", "FRANCE", "A Mar S English A Mun - Bur"),
    ("mid", "FRANCE", "F Bre S F ENG"), ("mid", "FRANCE", "F Bre S English F Eng"), ("mid", "FRANCE", "A Gas - Bre via convoy"),
    ("mid", "FRANCE", "A Gas - Lon"), ("mid", "FRANCE", "F MAO C A Gas - Lon"), ("mid", "FRANCE", "F MAO convoys A Gas to London"),
    ("mid", "FRANCE", "F MAO and A Gas S A Par -> Bre"), ("mid", "FRANCE", "A Par - Bur\tA Mar - Pie"),
    ("mid", "ENGLAND", "F NTH C A Lon - Bel"), ("mid", "ENGLAND", "A Lon - Bel"), ("mid", "ENGLAND", "A Lon - Nwy via Nth"),
    ("mid", "ENGLAND", "A Lon - NTH - Nwy"), ("mid", "ENGLAND", "F ENG S GERMAN F KIE -> Hol"), ("mid", "ENGLAND", "F ENG S F NTH -> Bel"),
    ("mid", "ENGLAND", "A Edi - Lvp"), ("mid", "ENGLAND", "A Edi - Liv"), ("mid", "ENGLAND", "F Nth - Nor"),
    ("mid", "ENGLAND", "F Nth - Nwy"), ("mid", "ENGLAND", "F North Sea - Norway"), ("mid", "ENGLAND", "F Lon - Nth"),
    ("mid", "GERMANY", "A Mun -> Mun"), ("mid", "GERMANY", "A Mun S A Tyr - Boh"), ("mid", "GERMANY", "A Mun S A Tya - Boh"),
    ("mid", "GERMANY", "A Tyr - Ven"), ("mid", "GERMANY", "A Tyrolia attacks Venice"), ("mid", "GERMANY", "F Kie - Hel"),
    ("mid", "GERMANY", "F Kie - Helgoland Bight"), ("mid", "GERMANY", "F Kie - Heligoland"), ("mid", "GERMANY", "A Ber - Bul"),
    ("mid", "ITALY", "A ION-GRE"), ("mid", "ITALY", "I-GRE"), ("mid", "ITALY", "F Ionian Sea-Greece"), ("mid", "ITALY", "F ION - Gre"),
    ("mid", "ITALY", "Tunis has a wild party (holds)"), ("mid", "ITALY", "Army Rome eats pasta"), ("mid", "ITALY", "move Tunis to the North Pole"),
    ("mid", "ITALY", "A Tun - NAf"), ("mid", "ITALY", "A Tun - North Africa"), ("mid", "ITALY", "F Nap - Tys"),
    ("mid", "ITALY", "F Nap - Tyrrhenian Sea"), ("mid", "ITALY", "F Nap - Tyr"), ("mid", "ITALY", "A Rom - Tus"),
    ("mid", "ITALY", "F ION C A Tun - Gre"), ("mid", "ITALY", "A Tun - Gre"), ("mid", "ITALY", "F Ion - West Med"),
    ("mid", "RUSSIA", "F StP/nc - Bot"), ("mid", "RUSSIA", "F StP - Fin"), ("mid", "RUSSIA", "A War S A Mos - Ukr"),
    ("mid", "RUSSIA", "F Sev S A Bul"), ("mid", "RUSSIA", "F Sev S Turkish A Bul"), ("mid", "TURKEY", "F Con - Bul"),
    ("mid", "TURKEY", "F Con - Bul/ec"), ("mid", "TURKEY", "F Con - Bulgaria (south coast)"), ("mid", "TURKEY", "F Bla - Bul EC"),
    ("mid", "TURKEY", "F Bla S A Bul - Rum"), ("mid", "TURKEY", "A Bul - Gre"), ("mid", "TURKEY", "A Smy - Syr"),
    ("mid", "AUSTRIA", "A Vie - Tyr"), ("mid", "AUSTRIA", "A Ser S A Bud - Rum"), ("mid", "AUSTRIA", "F Tri - Adr"),
    ("mid", "AUSTRIA", "F Tri - Adriatic"), ("mid", "AUSTRIA", "A Bud - Gal"), ("mid", "AUSTRIA", "A Ser - Gre"),
    ("retreat", "GERMANY", "A Mun R Bur"), ("retreat", "GERMANY", "A Mun - Ruh"), ("retreat", "GERMANY", "A Mun retreats to Kiel"),
    ("retreat", "GERMANY", "A Munich -> Bohemia"), ("retreat", "GERMANY", "A Mun disband"), ("retreat", "AUSTRIA", "F Tri disband"),
    ("retreat", "AUSTRIA", "Disband F Tri"), ("retreat", "AUSTRIA", "F Tri R Ven"), ("retreat", "AUSTRIA", "F Tri R Alb"),
    ("retreat", "AUSTRIA", "A Vie - Gal"), ("retreat", "AUSTRIA", "A Vienna retreats to Budapest"), ("retreat", "AUSTRIA", "A Ser - Bud"),
    ("winter", "RUSSIA", "Build A War"), ("winter", "RUSSIA", "Build F StP/NC"), ("winter", "RUSSIA", "build fleet st petersburg (south coast)"),
    ("winter", "RUSSIA", "A War B"), ("winter", "RUSSIA", "F Sev B"), ("winter", "RUSSIA", "Build F StP"), ("winter", "RUSSIA", "Build War"),
    ("winter", "RUSSIA", "Build Sev"), ("winter", "RUSSIA", "Build F War"), ("winter", "RUSSIA", "Build A Mos"),
    ("winter", "RUSSIA", "Waive"), ("winter", "RUSSIA", "waive 2"), ("winter", "RUSSIA", "No build"), ("winter", "RUSSIA", "Build a fleet in Sevastopol"),
    ("winter", "RUSSIA", "Build A Rum"), ("winter", "AUSTRIA", "Remove F Tri"), ("winter", "AUSTRIA", "Disband A Ser"),
    ("winter", "AUSTRIA", "A Vie D"), ("winter", "AUSTRIA", "remove army budapest"), ("winter", "AUSTRIA", "Build A Vie"),
    ("winter", "AUSTRIA", "Remove F Vie"),
    # found in the audit against the seed documents (tests/unit/reading/test_seed_examples.py)
    ("opening", "FRANCE", "If German A Mun -> Bur, A Par -> Bur, otherwise A Par -> Gas"),
    ("opening", "FRANCE", "A Par - Bur if German A Mun - Bur, otherwise A Par - Gas"),
    ("mid", "GERMANY", "Fleet Kiel goes fishing"), ("mid", "ENGLAND", "A LON-H"),
    ("mid", "FRANCE", "A Par H\nA Par - Vie"), ("mid", "FRANCE", "A Par - Vie\nA Par - Bur\nA Par - Vie"),
    ("mid", "RUSSIA", "F StP/nc - Fin"), ("mid", "RUSSIA", "A Mos S F StP/nc"),
]


def _styles(unit: str, order: str, geo, rng: random.Random) -> list[str]:
    """The same engine order written in several player styles."""
    words = order.split()
    names = {loc: geo.provinces[loc.split("/")[0]].name for loc in words if loc.split("/")[0] in geo.provinces}

    def name(loc: str) -> str:
        base = names.get(loc, loc)
        return base + (f" ({loc.split('/')[1].lower()})" if "/" in loc else "")

    styles = [order.title().replace(" Via", " via convoy")]
    if " - " in order and " S " not in order and " C " not in order:
        src, dest = words[1], words[3]
        kind = "army" if unit[0] == "A" else "fleet"
        styles.append(f"{kind} {name(src).lower()} moves to {name(dest).lower()}")
        styles.append(f"{unit[0]} {src.title()} -> {dest.title()}")
        typo = name(dest)
        if len(typo) > 6:
            i = rng.randrange(1, len(typo) - 2)
            typo = typo[:i] + typo[i + 1] + typo[i] + typo[i + 2:]
            styles.append(f"{unit[0]} {name(src)} - {typo}")
        styles.append(f"{src.title()}-{dest.title()}")
    elif " S " in order:
        styles.append(order.replace(" S ", " supports ").title())
    return styles


def generated_lines() -> list[tuple[str, str, str]]:
    rng = random.Random(3)
    geo = engine.map_info()
    out = []
    for key in ("opening", "mid"):
        position = POSITIONS[key]
        legal = engine.legal_orders(engine.state_from_position(position))
        for power in sorted(position.units):
            for unit in position.units[power]:
                options = sorted(legal.get(unit.split()[1], ()))
                for order in rng.sample(options, min(2, len(options))):
                    for line in _styles(unit, order, geo, rng)[:3]:
                        out.append((key, power, line))
    return out


def expected_line(r: LineReading) -> list:
    """[line number, status, order] and, where the reading cites one, the clause it applied
    (e.g. "000 III(2)", "DATC 4.B.1"): the reason a reviewer checks the line against."""
    return [r.line, r.status, None if r.order is None else str(r.order)] + ([r.rule] if r.rule else [])


def _expected(text: str, position: Position, power: str) -> dict:
    result = {}
    for profile in PROFILES:
        reading = read_orders(text, position=position, power=power, ruleset=load_ruleset(profile),
                              geography=engine.map_info())
        result[profile] = {
            "orders": [str(o) for o in reading.orders],
            "lines": [expected_line(r) for r in reading.lines],
        }
        if reading.unsupportable:
            # 000 III(5), 003 [10 a, b]: units left unable to receive support to hold
            result[profile]["unsupportable"] = [str(u) for u in reading.unsupportable]
    return result


EMAILS = [
    ("plain", "lepanto France S1901M", "Hi Garry,\n\nA Par - Bur\nA Mar S A Par - Bur\nF Bre - MAO\n\nCheers,\nPierre\n", "opening", "FRANCE"),
    ("numbered", "Dc179 [BlackMarch] S01: French Orders [1]", "1. A Par-Bur\n2. A Mar-Spa\n3. F Bre-MAO\n", "opening", "FRANCE"),
    ("bullets-unicode", "orders", "• A Par → Bur\n• A Mar → Spa\n• F Bre → Mid-Atlantic Ocean\n", "opening", "FRANCE"),
    ("signature", "orders", "A Mun - Ruh\nA Ber - Kie\nF Kie - Den\n-- \nHans\nA Mun - Bur (old)\n", "opening", "GERMANY"),
    ("quoted-reply", "Re: Spring 1901 results", "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor\n\nOn Sun, 2 Mar 2025 at 18:00, GM <gm@example.test> wrote:\n> Please send orders.\n> A Lvp - Edi\n", "opening", "ENGLAND"),
    ("orders-under-quote", "Re: orders", "> Last turn: F Lon - Nth succeeded\n> F Edi - Nwg succeeded\n\nF Nth C A Lon - Bel\nA Lon - Bel\nF Eng S F Nth - Bel\nA Edi - Lvp\n", "mid", "ENGLAND"),
    ("forwarded", "Fwd: orders", "A Vie - Gal\nA Bud - Ser\nF Tri - Alb\n\n---------- Forwarded message ---------\nFrom: Austria\nA Vie - Tri\n", "opening", "AUSTRIA"),
    ("outlook", "RE: Spring", "A Ven - Tyr\nA Rom - Apu\nF Nap - Ion\n\n-----Original Message-----\nFrom: GM\nSent: Monday\nA Ven H\n", "opening", "ITALY"),
    ("two-per-line", "orders v2", "A War - Ukr, A Mos - Sev\nF Sev - Bla; F StP/sc - Bot\n", "opening", "RUSSIA"),
    ("chatter-mixed", "Turkey orders", "Hello everyone! Big turn for me.\nF Ank - Bla\nI think Russia will go to the Black Sea too.\nA Con - Bul\nA Smy - Arm\nwish me luck\n", "opening", "TURKEY"),
    ("press-section", "orders + press", "A Par - Pic\nA Mar - Bur\nF Bre - Eng\nPRESS:\nFrance to England: nothing personal.\nEND PRESS\n", "opening", "FRANCE"),
    ("multiple-orders", "orders", "A Par - Bur\nA Par - Pic\nA Mar - Spa\nA Mar - Spa\nF Bre H\nF Bre S A Par - Pic\n", "opening", "FRANCE"),
    ("impossible", "orders", "A Par - Vie\nA Mar - Mar\nF Bre - Par\n", "opening", "FRANCE"),
    ("conditional", "orders", "A Par to Bur unless German A Mun -> Bur, in which case A Par -> Pic\nA Mar - Spa\nF Bre - MAO\n", "opening", "FRANCE"),
    ("creative", "orders", "Tunis has a wild party (holds)\nVenice kills and maims the Trieste citizens (A Ven-Tri)\nArmy Rome eats pasta\nF ION-GRE\nF Nap - Tys\n", "mid", "ITALY"),
    ("coasts", "orders", "F MAO - Spa\nF Por - Spa/nc\nF Bre S F Mao - Spa\nA Gas - Bre via convoy\nA Mar S A Gas - Bre\nA Par H\n", "mid", "FRANCE"),
    ("retreats", "Fall 1901 retreats", "Dear GM,\nA Mun - Ruh\nthanks\n", "retreat", "GERMANY"),
    ("builds", "Winter 1901", "Build A War\nBuild F StP/NC\nBuild F Sev\nBuild A Mos\n", "winter", "RUSSIA"),
    ("removals-final", "Winter 1901 Final", "Remove F Tri\nRemove A Ser\nRemove A Vie\nFinal\n", "winter", "AUSTRIA"),
    ("html-only", "orders", "<html><body><p>Hi!</p><ol><li>A Par &#8594; Bur</li><li>A Mar S A Par - Bur</li><li>F Bre - MAO</li></ol><p>-- Pierre</p></body></html>", "opening", "FRANCE"),
    ("latin1-qp", "Befehle", None, "opening", "GERMANY"),
    ("lowercase-prose", "orders", "army munich moves to ruhr\narmy berlin moves to kiel\nfleet kiel moves to denmark\n", "opening", "GERMANY"),
]


def _eml(name: str, subject: str, body: str | None, power: str) -> bytes:
    if name == "latin1-qp":
        return (b"From: hans@example.test\r\nTo: gm@example.test\r\nSubject: Befehle\r\nMIME-Version: 1.0\r\n"
                b"Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
                b"Gr=FC=DFe aus M=FCnchen!\r\nA M=FCn - Ruh\r\nA Mun - Ruh\r\nA Ber - Kie\r\nF Kie - Hol\r\n")
    message = EmailMessage()
    message["From"] = f"{power.lower()}@example.test"
    message["To"] = "gm@example.test"
    message["Subject"] = subject
    message.set_content(body, subtype="html" if body.startswith("<html>") else "plain")
    return bytes(message)


def main() -> None:
    cases = []
    seen = set()
    for key, power, line in HAND + generated_lines():
        if (key, power, line) in seen:
            continue
        seen.add((key, power, line))
        cases.append({"position": key, "power": power, "text": line,
                      "expected": _expected(line, POSITIONS[key], power)})
    (HERE / "lines.json").write_text(json.dumps({"positions": {k: p.to_json() for k, p in POSITIONS.items()},
                                                 "cases": cases}, indent=1, ensure_ascii=False) + "\n")
    emails = []
    for name, subject, body, key, power in EMAILS:
        raw = _eml(name, subject, body, power)
        (HERE / "emails" / f"{name}.eml").write_bytes(raw)
        text = extract_order_text(raw)
        emails.append({"file": f"{name}.eml", "position": key, "power": power,
                       "expected": _expected(text, POSITIONS[key], power)})
    (HERE / "emails.json").write_text(json.dumps(emails, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(cases)} lines, {len(emails)} emails")


if __name__ == "__main__":
    main()
