"""A scripted game played to a solo by mail, over a real IMAP
inbox (Dovecot) and a real SMTP relay delivering into the players' own IMAP inboxes, under three
profiles (`standard`, `danivon` and `mhr`), on SQLite and PostgreSQL.

The game starts from a hand-made position near a solo (France owns 16 centres; every profile
here has solo_centres = 18). Along the way:
- Italy never writes: two missed movement turns in a row reach nmr_limit_to_cd (2 under
  `standard` and `mhr`: civil disorder at once, 000 VII(6) ¶2; "gm_after_2" under `danivon`: the GM is asked,
  001 V(2), V(3), and puts Italy in civil disorder by mail); its units hold.
- England's F NTH is dislodged in Spring 1901 and England sends no retreat: nrr_default.
- Germany loses Munich and sends no removal in Winter 1901: removal_algorithm.
- The GM extends the Fall 1901 deadline by mail, with the game's GM secret (gm_command_auth).
- The GM rolls back the Spring 1902 adjudication by mail, files France's corrected orders by
  mail and the phase is adjudicated again (correction_window: before the next adjudication,
  and under `mhr` within 24 hours, 000 VIII(1): the GM writes 5 minutes after the results).
- France takes its 18th centre in Fall 1902: the game ends in a solo.
Every player's mailbox is read at the end and checked against hand-written expectations.
"""

from __future__ import annotations

import dataclasses
import email
import email.policy
from datetime import UTC, datetime, timedelta

import pytest

from gmserver.config import ImapConfig, SmtpRelayConfig
from gmserver.mail.outbound import SmtpTransport
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.base import outbox
from gmserver.services.game.games import POWERS, GameSpec, PlayerSpec, open_game
from gmserver.services.turn import turns
from tests.support.mail_game import Run, Table
from tests.support.outgoing import ADJECTIVES
from tests.support.world import services_for

pytestmark = pytest.mark.e2e

GAME = "lepanto"

# France owns 16 centres: Munich (Fall 1901) and Budapest (Fall 1902) make the 18 of a solo.
START = {
    "phase": "S1901M",
    "units": {
        "FRANCE": ["A BUR", "F ENG", "F BEL", "A VIE"],
        "ENGLAND": ["F NTH", "A YOR"],
        "GERMANY": ["A BER", "A KIE", "F PRU", "A DEN"],
        "ITALY": ["A VEN", "A ROM", "F NAP"],
    },
    "centers": {
        "FRANCE": ["PAR", "MAR", "BRE", "SPA", "POR", "BEL", "HOL", "LVP", "NWY", "SWE", "TUN", "GRE", "SER",
                   "BUL", "RUM", "VIE"],
        "ENGLAND": ["EDI", "LON"],
        "GERMANY": ["BER", "KIE", "MUN", "DEN"],
        "ITALY": ["VEN", "ROM", "NAP"],
    },
}


# --- what each mailbox must hold, written by hand ----------------------------------------------

# The deadlines, from the game's creation on Monday 23 November 2026, 18:00 UTC: movement turns
# of 72 hours, retreats and adjustments of 24, each deadline the previous one plus the next
# turn's length (the schedule); the GM's extension of Fall 1901 by 24 hours moves the rest.
DEADLINES = {
    "S1901M": "Thursday 26 November 2026, 18:00 UTC",
    "S1901R": "Friday 27 November 2026, 18:00 UTC",
    "F1901M": "Tuesday 1 December 2026, 18:00 UTC",  # Monday 30 November before the GM's extension
    "W1901A": "Wednesday 2 December 2026, 18:00 UTC",
    "S1902M": "Saturday 5 December 2026, 18:00 UTC",
    "F1902M": "Tuesday 8 December 2026, 18:00 UTC",
}
DANIVON_TURNS = {"S1901M": "1901, Spring, Movement", "S1901R": "1901, Spring, Retreats",
                 "F1901M": "1901, Fall, Movement", "W1901A": "1901, Winter, Adjustments",
                 "S1902M": "1902, Spring, Movement", "F1902M": "1902, Fall, Movement"}
MHR_TURNS = {"S1901M": "S01", "S1901R": "Su01", "F1901M": "F01", "W1901A": "W01", "S1902M": "S02", "F1902M": "F02"}

# Who mails orders in which turn (Italy never does).
SENDERS = {
    "S1901M": ("ENGLAND", "FRANCE", "GERMANY"), "F1901M": ("ENGLAND", "FRANCE", "GERMANY"),
    "W1901A": ("FRANCE",), "S1902M": ("ENGLAND", "FRANCE", "GERMANY"), "F1902M": ("ENGLAND", "FRANCE", "GERMANY"),
}


def orders_subject(profile: str, power: str, phase: str) -> str:
    """The subject line each profile asks for: `standard` (subject_template "default") names
    the game, the power and the phase; `danivon` is 001 II(4)'s "game; year, season, phase; power";
    `mhr` is 000 II(2) b's "[game] season-year: nationality Orders [set number]" (each power
    sends one set a turn here: [1]; the spring retreats are "Su")."""
    if profile == "danivon":
        return f"lepanto; {DANIVON_TURNS[phase]}; {power.title()}"
    if profile == "mhr":
        return f"[lepanto] {MHR_TURNS[phase]}: {ADJECTIVES[power]} Orders [1]"
    return f"lepanto {power.title()} {phase}"


def report_subject(profile: str, power: str, phase: str) -> str:
    if profile == "mhr":
        return f"[lepanto] {MHR_TURNS[phase]}: {ADJECTIVES[power]} results"
    return f"{orders_subject(profile, power, phase)}{'; results' if profile == 'danivon' else ' results'}"


def expected_subjects(profile: str, power: str) -> list[str]:
    """Every mail the player gets, in order: the start mail, a confirmation for each set
    mailed, every report (Spring 1902's twice: first and corrected), the GM's extension,
    under `danivon` the GM's civil disorder ruling, and the correction notice; France also
    hears that the GM filed its corrected orders."""
    def turn(phase: str) -> list[str]:
        mine = [f"Re: {orders_subject(profile, power, phase)}"] if power in SENDERS.get(phase, ()) else []
        return mine + [report_subject(profile, power, phase)]

    corrected = ["lepanto: the GM corrected your orders for Spring 1902 Movement"] if power == "FRANCE" else []
    ruling = ["lepanto: Italy in civil disorder"] if profile == "danivon" else []
    return ([f"lepanto: you play {power.title()}", *turn("S1901M"), report_subject(profile, power, "S1901R"),
             "lepanto: the deadline is extended", *turn("F1901M"), *ruling, *turn("W1901A"), *turn("S1902M"),
             "lepanto: correction of Spring 1902 Movement", *corrected, report_subject(profile, power, "S1902M"),
             *turn("F1902M")])


# What the reports of each turn say, the same for every player (whitespace folded).
REPORTS = {
    "S1901M": [
        # Italy sent nothing: its units hold (nmr_movement = hold)
        "A Venice holds (A VEN H): holds: no order received",
        "F North Sea holds (F NTH H): dislodged",
        "F English Channel -> North Sea (F ENG - NTH): moved",
        f"NEXT: Spring 1901 Retreats (S1901R) Orders are due from England. Deadline: {DEADLINES['S1901R']}",
    ],
    "F1901M": [
        "A Venice holds (A VEN H): holds: no order received",
        "France 17", "gains Munich (MUN)", "Germany 3 centres, 4 units: 1 removal",
        f"Deadline: {DEADLINES['W1901A']}",
    ],
    "S1902M": [
        # Italy is in civil disorder now (after its second missed movement turn): its units hold
        "A Venice holds (A VEN H): holds (Italy is in civil disorder)",
        "IN CIVIL DISORDER: Italy",
        # none from Italy: in civil disorder, its units hold whatever it sends
        f"NEXT: Fall 1902 Movement (F1902M) Orders are due from England, France, Germany. "
        f"Deadline: {DEADLINES['F1902M']}",
    ],
    "F1902M": [
        # Munich (Fall 1901) and Budapest (Fall 1902) on top of 16: solo_centres = 18
        "France 18", "gains Budapest (BUD)",
        # how the game ended in words, with each power's centres over the whole game
        "THE GAME IS OVER France has won the game: it owns 18 supply centres after Fall 1902 Movement, the 18 a "
        "solo needs", "SUPPLY CENTRES, GAME YEAR BY GAME YEAR start 1901 end",
    ],
}
PROFILE_REPORTS = {
    "standard": {
        # nrr_default = disband (RB2000): no retreat order, the unit is disbanded
        "S1901R": ["F North Sea disbands (F NTH D): disbanded: no retreat order received"],
        # nmr_limit_to_cd = 2, cd_mode = permanent (000 VII(6) ¶2): civil disorder at the second miss
        "F1901M": ["IN CIVIL DISORDER: Italy", "England 2 centres, 1 units: 1 build"],
        # removal_algorithm = rb2000 (A8): Germany's A BER and A KIE stand on home centres
        # (distance 0); F PRU and A DEN are each one move from one (Berlin, Kiel): the tie goes
        # to the fleet, so F PRU is removed. England's build, not ordered, is waived (nbr_default).
        "W1901A": ["F Prussia disbands (F PRU D): removed (no removal order: removed by the rules, "
                   "farthest from home first (2000 rulebook))", "England: 1 build not used",
                   "France: 2 builds not used"],
    },
    "danivon": {
        # nrr_default = danivon_auto_retreat (001 V(4)): of F NTH's retreats, the home supply
        # centres of England come first (Edinburgh, London), alphabetically: Edinburgh
        "S1901R": ["F North Sea retreats to Edinburgh (F NTH R EDI): retreated (no retreat order: "
                   "the house rules chose the retreat (001 V(4)))"],
        # nmr_limit_to_cd = gm_after_2: the GM decides (001 V(2)); Italy is not in civil disorder yet
        "F1901M": ["Orders are due from France, Germany."],
        # removal_algorithm = danivon (001 V(5) ¶2): class (i), a non-centre outside the home
        # country, is empty; class (ii), a centre outside it, holds A DEN: removed before F PRU
        # (class (iii), a non-centre inside Germany). France's set names a build: no auto-build.
        "W1901A": ["A Denmark disbands (A DEN D): removed (no removal order: removed by the rules, outside "
                   "the home country and farthest from it first (house rules 001 V(5)))",
                   "France: 2 builds not used"],
    },
    "mhr": {
        # nrr_default = disband (000 is silent: the rulebook's [P RB2000])
        "S1901R": ["F North Sea disbands (F NTH D): disbanded: no retreat order received"],
        # nmr_limit_to_cd = 2, cd_mode = permanent (000 VII(6) ¶2)
        "F1901M": ["IN CIVIL DISORDER: Italy", "England 2 centres, 1 units: 1 build"],
        # removal_algorithm = mhr (000 V(4)): farthest from the nearest home centre first;
        # F PRU (one fleet move from Berlin) and A DEN (one move from Kiel) tie: fleets first
        "W1901A": ["F Prussia disbands (F PRU D): removed (no removal order: removed by the rules, "
                   "farthest from the nearest home centre first (house rules 000 V(4)))",
                   "England: 1 build not used", "France: 2 builds not used"],
    },
}
FIRST_SPRING_1902 = "A Vienna -> Galicia (A VIE - GAL): moved"
CORRECTED_SPRING_1902 = "A Vienna -> Budapest (A VIE - BUD): moved"


def folded(message: email.message.EmailMessage) -> str:
    return " ".join(message.get_body(("plain",)).get_content().split())


def check_mailbox(profile: str, power: str, mails: list[email.message.EmailMessage]) -> None:
    assert [str(m["Subject"]) for m in mails] == expected_subjects(profile, power), power
    texts = {}
    for message in mails:
        texts.setdefault(str(message["Subject"]), []).append(folded(message))
    start = texts[f"lepanto: you play {power.title()}"][0]
    assert f"You play {power.title()}." in start
    assert f"Deadline: {DEADLINES['S1901M']}" in start and orders_subject(profile, power, "S1901M") in start
    for phase, senders in SENDERS.items():
        if power in senders:
            [confirmation] = texts[f"Re: {orders_subject(profile, power, phase)}"]
            assert "Your orders were received" in confirmation and "rejected" not in confirmation, confirmation
            assert f"Deadline: {DEADLINES[phase]}" in confirmation  # Fall 1901's: the extended one
    # every player's next mail after the Spring 1901 retreats shows the extended deadline
    [extension] = texts["lepanto: the deadline is extended"]
    assert f"The GM has extended the deadline of Fall 1901 Movement. Turn: Fall 1901 Movement Deadline: " \
           f"{DEADLINES['F1901M']}" in extension
    [first_spring, corrected_spring] = texts[report_subject(profile, power, "S1902M")]
    assert FIRST_SPRING_1902 in first_spring and CORRECTED_SPRING_1902 not in first_spring
    assert CORRECTED_SPRING_1902 in corrected_spring and FIRST_SPRING_1902 not in corrected_spring
    # the two reports share a subject: the second says it replaces the first
    assert "CORRECTED RESULTS: the GM rolled back the adjudication of Spring 1902 Movement. These results " \
           "replace those you received before" in corrected_spring and "CORRECTED" not in first_spring
    [correction] = texts["lepanto: correction of Spring 1902 Movement"]
    assert "CORRECTION: the results of Spring 1902 Movement in lepanto that you received are withdrawn" in correction
    for phase in DEADLINES:
        for text in texts[report_subject(profile, power, phase)]:
            for line in REPORTS.get(phase, []) + PROFILE_REPORTS[profile].get(phase, []):
                assert line in text, f"{power} {phase}: {line!r} missing"
    if profile == "danivon":
        [ruling] = texts["lepanto: Italy in civil disorder"]
        assert "Italy is in civil disorder: its units hold until a player takes it over." in ruling
    if power == "FRANCE":
        [filed] = texts["lepanto: the GM corrected your orders for Spring 1902 Movement"]
        assert "ORDERS ON FILE FOR FRANCE NOW A Vienna -> Budapest (A VIE - BUD)" in filed  # the report's words


def check_gm_mailbox(profile: str, mails: list[email.message.EmailMessage]) -> None:
    """The GM's own mailbox: an answer to each command mail and the notices of the house rules."""
    notice = ("gmserver: lepanto: Italy missed orders again: your decision" if profile == "danivon"
              else "gmserver: lepanto: Italy is now in civil disorder")
    late = ["Re: lepanto"] if profile == "mhr" else []  # the rollback refused after 24 hours
    expected = ["Re: lepanto", notice, *(["Re: lepanto"] if profile == "danivon" else []), "Re: lepanto", *late]
    assert [str(m["Subject"]) for m in mails] == expected
    texts = [folded(m) for m in mails]
    if late:
        assert ("> rollback Not done: The result of Fall 1902 Movement stands: it was published more than 24 "
                "hours ago, and only errors reported within 24 hours are corrected (house rules 000 VIII(1))"
                ) in texts.pop()
    assert ("> extend 24 Done: the deadline of Fall 1901 Movement is extended to Tuesday 1 December 2026, "
            "18:00 UTC (was Monday 30 November 2026, 18:00 UTC) (7 players told)") in texts[0]
    assert "sent no orders for Fall 1901 Movement: 2 turns in a row" in texts[1]
    if profile != "danivon":
        assert "the country is now in civil disorder" in texts[1] and "003 [13]" not in texts[1]
        assert ("takes it over (000 VII(6) ¶2)." in texts[1]) == (profile == "mhr")  # standard: no house clause
    else:
        assert "The house rules leave the next step to you (001 V(2), V(3))" in texts[1]
        assert "> cd lepanto ITALY on Done: Italy is in civil disorder" in texts[2]
    assert "> rollback Done: the adjudication of S1902M was rolled back (F1902M undone)" in texts[-1]
    assert "> orders FRANCE A VIE - BUD Done: FRANCE's set v2 for S1902M filed as the GM's" in texts[-1]


def play_1901(run: Run) -> None:
    """Spring 1901 to Winter 1901: Italy's two missed turns, England's retreat, the GM's
    extension and, under `danivon`, the GM's civil disorder ruling, Germany's removal."""
    # Spring 1901: Italy is silent (1 missed); France dislodges England's F NTH
    run.orders("S1901M", {
        "FRANCE": "A BUR - MUN\nF ENG - NTH\nF BEL S F ENG - NTH\nA VIE H",
        "ENGLAND": "F NTH H\nA YOR H",
        "GERMANY": "A BER H\nA KIE H\nF PRU H\nA DEN H",
    })
    run.poll()
    assert run.to_deadline() == "S1901R"
    # Spring 1901 retreats: England sends nothing (a minor turn: no missed turn, nmr_counts_minor_turns)
    assert run.to_deadline() == "F1901M"
    assert run.units()["ENGLAND"] == (["A YOR", "F EDI"] if run.profile == "danivon" else ["A YOR"])

    # Fall 1901: the GM extends the deadline by 24 hours by mail; Italy is silent again (2 missed)
    _, first, _ = run.status()
    run.gm_mail("extend 24")
    run.poll()
    run.orders("F1901M", {
        "FRANCE": "A MUN H\nF NTH H\nF BEL H\nA VIE H",
        "ENGLAND": "A YOR H",
        "GERMANY": "A BER H\nA KIE H\nF PRU H\nA DEN H",
    })
    run.poll()
    assert first is not None and run.status()[1] == first + timedelta(hours=24)
    run.clock.now = first + timedelta(hours=1)
    assert turns.adjudicate_due(run.services, run.clock()) == []  # the old deadline has passed: nothing happens
    assert run.to_deadline() == "W1901A"
    if run.profile == "danivon":
        # nmr_limit_to_cd = gm_after_2 (001 V(2), V(3)): the GM was asked and rules by mail
        assert run.missed()["ITALY"] == (2, 2, False)
        run.gm_mail(f"cd {GAME} ITALY on")
        run.poll()
    assert run.missed() == {"ITALY": (2, 2, True)}

    # Winter 1901: Germany must remove one unit and sends nothing; France builds one of three
    run.orders("W1901A", {"FRANCE": "Build A PAR"})
    run.poll()
    assert run.to_deadline() == "S1902M"
    assert run.units()["GERMANY"] == (["A BER", "A KIE", "F PRU"] if run.profile == "danivon"
                                      else ["A BER", "A DEN", "A KIE"])


def play_1902(run: Run) -> None:
    """Spring 1902 adjudicated, rolled back by the GM and adjudicated again; Fall 1902: the solo."""
    # France's order was not what the player meant; the GM rolls the adjudication back by mail
    # before the next one (correction_window) and files France's corrected set
    run.orders("S1902M", {"FRANCE": "A VIE - GAL", "ENGLAND": "A YOR H", "GERMANY": "A BER H\nA KIE H"})
    run.poll()
    assert run.to_deadline() == "F1902M"
    run.gm_mail("rollback\norders FRANCE A VIE - BUD")
    run.poll()
    assert run.status()[0] == "S1902M"
    done = turns.adjudicate(run.services, run.game_id, run.clock(), force=True, wait=True)  # `gmserver adjudicate`
    assert done is not None and done.next_phase == "F1902M"
    outbox.deliver_due(run.services.sessions, run.transport, run.clock())
    assert "A BUD" in run.units()["FRANCE"]

    # Fall 1902: France holds Budapest, its 18th centre: a solo
    run.orders("F1902M", {"FRANCE": "A BUD H", "ENGLAND": "A YOR H", "GERMANY": "A BER H\nA KIE H"})
    run.poll()
    assert run.to_deadline() == "COMPLETED"


@pytest.mark.parametrize("profile", ["standard", "danivon", "mhr"])
def test_a_scripted_game_reaches_a_solo_by_mail(profile, database_url, dovecot, smtp_relay, clock) -> None:
    """Missed orders into civil disorder (nmr_limit_to_cd), a retreat default
    (nrr_default), a removal default (removal_algorithm), a deadline extended by mail with the
    GM secret (gm_command_auth), a GM rollback within the correction window (correction_window)
    and a solo at solo_centres; every mailbox checked."""
    table = Table(dovecot)
    clock.now = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)
    services = dataclasses.replace(services_for(database_url, gm_address=table.server),
                                   gm_addresses=(table.gm,), alerts_to=table.gm)
    run = Run(table, services, clock, SmtpTransport(SmtpRelayConfig(host=smtp_relay.host, port=smtp_relay.port)),
              ImapConfig(host=dovecot.host, port=dovecot.imap_port, tls="none", user=table.server,
                         password="secret", idle=False, poll_seconds=2), profile, GAME)
    # the service `gmserver game create --position` calls, with the start mails; movement turns of
    # 72 hours, danivon's minimum (001 IV(4)), which the GM's extension is checked against
    run.game_id, _ = open_game(services.sessions, GameSpec(
        name=GAME, ruleset=load_ruleset(profile),
        players=[PlayerSpec(p, table.players[p]) for p in POWERS], position=Position.from_json(START),
        movement=timedelta(hours=72), retreat=timedelta(hours=24), adjustment=timedelta(hours=24),
        reminder=timedelta(0), sender_check="from"), clock(), services=services)
    outbox.deliver_due(services.sessions, run.transport, clock())

    play_1901(run)
    play_1902(run)
    if profile == "mhr":
        # correction_window = 24h_and_before_next (000 VIII(1)): a day and an hour after the
        # results of the last turn, the GM's rollback is refused and the solo stands
        clock.advance(hours=25)
        run.gm_mail("rollback")
        run.poll()
        assert run.status() == ("COMPLETED", None, "finished")

    assert run.status()[2] == "finished"
    # Italy missed every movement turn; the re-adjudicated Spring 1902 was not counted twice
    assert run.missed() == {"ITALY": (4, 4, True)}

    check_gm_mailbox(profile, table.inbox(table.gm))
    for power, address in table.players.items():
        check_mailbox(profile, power, table.inbox(address))
