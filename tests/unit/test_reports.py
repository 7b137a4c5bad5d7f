"""Reports built from real engine outcomes, and the mail bodies rendered from them."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone

import pytest

from gmserver import engine
from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports.reminders import build_reminder
from gmserver.reports.replies import build_confirmation, build_rejection
from gmserver.reports.turn import build_turn_report
from gmserver.reports.words import (
    RESULT_WORDS,
    describe_order,
    format_duration,
    format_length,
    format_time,
    name_order,
    place_with_code,
    result_in_words,
    unit_with_code,
)
from gmserver.rules.order import Order
from gmserver.rules.position import OrderOutcome, Position
from gmserver.rules.ruleset import load_ruleset
from tests.support.adjudicate import adjudicate as adjudicate_state
from tests.support.report_scenarios import (
    SCENARIOS,
    adjudicate,
    adjustments_with_engine_removal,
    dislodgement,
    fall_with_centre_changes,
    no_retreat_possible,
    solo,
    spring_bounce,
    void_support,
)

DEADLINE = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def geo():
    return engine.map_info()


@pytest.fixture(scope="module")
def composer():
    return Composer(TEMPLATES_DIR, gm_name="Garry Lord", gm_address="gm@lepanto.example")


def report_for(outcome, geo, **kwargs):
    kwargs.setdefault("next_deadline", DEADLINE)
    return build_turn_report(outcome, geography=geo, game_name="lepanto", **kwargs)


def flat(text: str) -> str:
    """Text with every run of whitespace made one space, so wrapped lines compare whole."""
    return " ".join(text.split())


def lines_of(report) -> dict[str, str]:
    return {line.unit: line.line for power in report.orders for line in power.orders}


def assert_well_formed(body: str) -> None:
    assert body.endswith("\n") and not body.endswith("\n\n\n")
    for line in body.split("\n"):
        assert line == line.rstrip(), f"trailing whitespace: {line!r}"
        assert len(line) < 78, f"line too long ({len(line)}): {line!r}"
    assert "\n\n\n" not in body


# ---------------------------------------------------------------------------------------------
# Scenarios: each one a real adjudication




# ---------------------------------------------------------------------------------------------
# Turn reports


def test_spring_bounce_orders_results_and_canonical_order(geo, composer):
    report = report_for(spring_bounce(), geo)

    assert report.phase == "S1901M" and report.phase_name == "Spring 1901 Movement"
    assert [p.power for p in report.orders] == sorted(p.power for p in report.orders)
    assert len(report.orders) == 7
    france = next(p for p in report.orders if p.power == "FRANCE")
    assert [line.unit for line in france.orders] == ["F BRE", "A MAR", "A PAR"]  # by province
    lines = lines_of(report)
    # QA: a bare "succeeded" beside every order that went through; what the unit did instead
    # (A PAR, supported by A MAR, beats A MUN alone; F BRE's move is unopposed)
    assert lines["A PAR"] == "A Paris -> Burgundy (A PAR - BUR): moved"
    assert lines["A MUN"] == "A Munich -> Burgundy (A MUN - BUR): bounced"
    assert lines["F BRE"] == "F Brest -> Mid-Atlantic Ocean (F BRE - MAO): moved"
    assert lines["A MAR"] == "A Marseilles supports A Paris -> Burgundy (A MAR S A PAR - BUR): support given"
    # QA: "succeeded (no order received: holds)" read oddly; what the unit did, then why
    assert lines["A VIE"] == "A Vienna holds (A VIE H): holds: no order received"
    assert lines["F STP/SC"] == (
        "F St Petersburg (south coast) holds (F STP/SC H): holds: no order received"
    )
    # the HTML report reds what was not carried out: a bounce, not a hold nobody ordered
    failed = {line.unit: line.failed for power in report.orders for line in power.orders}
    assert failed["A MUN"] and not failed["A VIE"] and not failed["A PAR"]
    assert not report.centres_changed and not report.dislodged and not report.adjustments
    assert len(report.unowned_centres) == 12
    assert report.next_phase == "F1901M" and report.next_phase_name == "Fall 1901 Movement"
    assert report.next_deadline is not None
    assert report.next_deadline.local == "Saturday 28 November 2026, 18:00 UTC"
    assert not report.game_over

    body = composer.render(report.template, report)
    assert_well_formed(body)
    assert body.startswith("lepanto: Spring 1901 Movement (S1901M), results\n")
    assert "A Munich -> Burgundy (A MUN - BUR): bounced" in body
    assert "NEXT: Fall 1901 Movement (F1901M)" in body
    assert "Deadline: Saturday 28 November 2026, 18:00 UTC" in body
    assert "SUPPLY CENTRES (no change)" in body
    assert body.index("\nAustria\n") < body.index("\nEngland\n") < body.index("\nTurkey\n")
    assert "Garry Lord, Game Master" in body


def test_deadline_in_the_games_time_zone_and_utc(geo, composer):
    report = report_for(spring_bounce(), geo, timezone="Europe/Paris")
    body = composer.render(report.template, report)
    assert "Deadline: Saturday 28 November 2026, 19:00 CET (Europe/Paris)\n" in body
    assert "          Saturday 28 November 2026, 18:00 UTC\n" in body


def test_dislodgement_cut_support_and_retreat_options(geo, composer):
    outcome = dislodgement()
    assert outcome.after.phase == "S1901R"
    report = report_for(outcome, geo)

    lines = lines_of(report)
    assert lines["A BUR"] == "A Burgundy holds (A BUR H): dislodged"
    assert lines["A MUN"] == "A Munich supports A Burgundy (A MUN S A BUR): cut"
    assert lines["A BOH"] == "A Bohemia -> Munich (A BOH - MUN): bounced"
    (unit,) = report.dislodged
    assert (unit.power, unit.unit, unit.text, unit.disbanded) == ("GERMANY", "A BUR", "A Burgundy (BUR)", False)
    assert unit.options == ("Belgium (BEL)", "Gascony (GAS)", "Picardy (PIC)", "Ruhr (RUH)")
    assert report.next_phase_name == "Spring 1901 Retreats"
    assert report.to_order == ("Germany",)

    body = composer.render(report.template, report)
    assert_well_formed(body)
    assert "DISLODGED UNITS" in body
    assert "Germany   A Burgundy (BUR) may retreat to Belgium (BEL), Gascony (GAS)," in body
    assert "Orders are due from Germany." in body


def test_retreat_phase_report_marks_the_default_disband(geo, composer):
    retreat = adjudicate_state(dislodgement().state_after, {})
    report = report_for(retreat, geo)
    assert lines_of(report) == {
        "A BUR": "A Burgundy disbands (A BUR D): disbanded: no retreat order received"
    }
    assert not report.dislodged
    assert all("BUR" not in u for p in report.units for u in p.units if p.power == "GERMANY")

    ordered = report_for(adjudicate_state(dislodgement().state_after, {"GERMANY": ["A BUR R RUH"]}), geo)
    assert lines_of(ordered) == {"A BUR": "A Burgundy retreats to Ruhr (A BUR R RUH): retreated"}
    assert "A Ruhr (RUH)" in next(p for p in ordered.units if p.power == "GERMANY").units


def test_dislodged_unit_without_retreat_is_reported_disbanded(geo, composer):
    outcome = no_retreat_possible()
    assert outcome.after.phase == "F1901M"  # the engine skips the empty retreat phase
    report = report_for(outcome, geo)
    (unit,) = report.dislodged
    assert unit.disbanded and unit.options == ()
    body = composer.render(report.template, report)
    assert "A Burgundy (BUR) could not retreat and is disbanded" in flat(body)


def test_fall_turn_centre_changes_and_builds_due(geo, composer):
    report = report_for(fall_with_centre_changes(), geo)

    assert report.centres_changed
    centres = {c.power: c for c in report.centres}
    assert (centres["FRANCE"].count, centres["FRANCE"].gained) == (5, ("Belgium (BEL)", "Spain (SPA)"))
    assert (centres["ENGLAND"].count, centres["ENGLAND"].gained) == (4, ("Holland (HOL)",))
    assert (centres["GERMANY"].count, centres["GERMANY"].lost) == (3, ("Belgium (BEL)",))
    assert "Belgium" in centres["FRANCE"].centres and "Belgium" not in report.unowned_centres
    assert len(report.unowned_centres) == 22

    adjustments = {a.power: a for a in report.adjustments}
    assert adjustments["ENGLAND"].text == "1 build"
    assert adjustments["ENGLAND"].build_sites == ("Liverpool (LVP)",)  # London is occupied
    assert adjustments["GERMANY"].build_sites == ("Berlin (BER)", "Kiel (KIE)", "Munich (MUN)")
    assert adjustments["FRANCE"].build_sites == ("Marseilles (MAR)", "Paris (PAR)")
    assert report.next_phase_name == "Winter 1901 Adjustments"

    body = composer.render(report.template, report)
    assert_well_formed(body)
    assert "gains Belgium (BEL), Spain (SPA)" in body
    assert "loses Belgium (BEL)" in body
    assert "ADJUSTMENTS DUE" in body
    assert "England    4 centres,  3 units: 1 build" in body
    assert "may build in Liverpool (LVP)" in body


def test_adjustment_turn_with_engine_removals(geo, composer):
    outcome = adjustments_with_engine_removal()
    report = report_for(outcome, geo)

    lines = lines_of(report)
    assert lines["A PAR"] == "Build A Paris (A PAR B): built"
    assert lines["A MUN"] == "A Munich disbands (A MUN D): removed"
    assert lines["F HOL"] == "F Holland disbands (F HOL D): removed (no removal order: removed by the rules, farthest from home first (2000 rulebook))"
    assert report.engine_removals == ("Germany: F Holland (HOL)",)
    assert report.unused_builds == ("France: 1 build not used",)

    body = composer.render(report.template, report)
    assert_well_formed(body)
    assert "REMOVED BY THE RULES (no removal order received)\n\n  Germany: F Holland (HOL)\n" in body
    assert "France: 1 build not used" in body


def test_a_void_build_in_an_occupied_centre_is_not_reported_as_a_removal(geo):
    # The engine keeps a `void` result under "A MAR" for the void "F MAR B"; whatever the
    # adapter makes of it, the report must not show A MAR removed: it is still on the board.
    outcome = adjustments_with_engine_removal()
    report = report_for(outcome, geo)
    assert "A MAR" not in lines_of(report)
    assert all("Marseilles" not in line for line in report.engine_removals)
    france = next(p for p in report.units if p.power == "FRANCE")
    assert "A Marseilles (MAR)" in france.units


def test_game_over_names_the_winner(geo, composer):
    report = report_for(solo(), geo)
    assert report.game_over and report.winners == ("France",)
    assert report.next_phase is None and report.next_deadline is None
    body = composer.render(report.template, report)
    assert_well_formed(body)
    assert "THE GAME IS OVER" in body and "France has won." in body
    assert "NEXT:" not in body and "Deadline" not in body


def test_void_support_is_reported_void(geo, composer):
    report = report_for(void_support(), geo)
    # QA: a bare "void" left the player guessing; A PAR was ordered to hold
    assert lines_of(report)["A MAR"] == (
        "A Marseilles supports A Paris -> Burgundy (A MAR S A PAR - BUR): void: A Paris was not ordered to move "
        "to Burgundy")


@pytest.mark.parametrize("units, orders, unit, said", [
    # a support to hold a unit ordered to move: a moving unit is not supported to hold
    ({"FRANCE": ("A PAR", "A GAS")}, {"FRANCE": ["A GAS S A PAR", "A PAR - BUR"]}, "A GAS",
     "void: A Paris was ordered to move to Burgundy, not to hold"),
    # a support of a move the unit was not ordered to make: it moved elsewhere
    ({"FRANCE": ("A PAR", "A MAR")}, {"FRANCE": ["A MAR S A PAR - BUR", "A PAR - GAS"]}, "A MAR",
     "void: A Paris was ordered to move to Gascony, not to Burgundy"),
    # a convoy of a move the army was not ordered to make
    ({"ENGLAND": ("A LON", "F NTH")}, {"ENGLAND": ["F NTH C A LON - BEL", "A LON H"]}, "F NTH",
     "void: A London was not ordered to move to Belgium"),
])
def test_a_void_support_or_convoy_says_why(geo, units, orders, unit, said):
    """QA: a bare "void" for a support that did not match the supported unit's order; the
    result says which order the other unit had (expectations from the orders given)."""
    report = report_for(adjudicate(Position(phase="S1901M", units=units), orders), geo)
    assert lines_of(report)[unit].endswith(f"): {said}")


def test_a_void_support_the_orders_do_not_explain_stays_void(geo):
    """The engine voids a matching support in a head-to-head swap of one power's units (its
    own rule): the orders do not say why, so nothing is made up."""
    from gmserver.reports.words import void_reason
    from gmserver.rules.order import Order
    from gmserver.rules.position import OrderOutcome

    supported = OrderOutcome("FRANCE", Order.parse("A PAR - BUR"), ("bounce",))
    assert void_reason(Order.parse("A MAR S A PAR - BUR"), [supported], geo) is None
    assert void_reason(Order.parse("A MAR S A PAR - BUR"), [], geo) is None  # no such unit ordered


def test_a_support_voided_for_its_coast_names_both_coasts(geo):
    """DATC 6.B.9 (coast_support_mismatch = invalid): the support named the south coast, the
    fleet was ordered to the north coast; a support naming no coast is no mismatch."""
    from gmserver.reports.words import void_reason
    from gmserver.rules.order import Order
    from gmserver.rules.position import OrderOutcome

    move = OrderOutcome("FRANCE", Order.parse("F MAO - SPA/NC"))
    assert void_reason(Order.parse("F WES S F MAO - SPA/SC"), [move], geo) == (
        "F Mid-Atlantic Ocean was ordered to move to Spain (north coast), not to Spain (south coast)")
    assert void_reason(Order.parse("F POR S F MAO - SPA"), [move], geo) is None


def test_no_deadline_yet(geo, composer):
    report = report_for(spring_bounce(), geo, next_deadline=None)
    assert report.next_deadline is None
    assert "The deadline will be announced." in composer.render(report.template, report)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_order_and_its_result_appear_in_the_rendered_report(name, geo, composer):
    outcome = SCENARIOS[name]()
    report = report_for(outcome, geo, timezone="Australia/Sydney")
    body = composer.render(report.template, report)
    assert_well_formed(body)
    shown = {line.order: line for power in report.orders for line in power.orders}
    still_there = {u for units in outcome.after.units.values() for u in units}
    for order in outcome.orders:
        if str(order.order) not in shown:
            # only a phantom removal of a unit still on the board may be left out
            assert outcome.phase.endswith("A") and order.defaulted
            assert " ".join(str(order.order).split()[:2]) in still_there
            continue
        line = shown[str(order.order)]
        for code in order.results:
            assert RESULT_WORDS[code] in line.result
        assert flat(line.line) in flat(body)


def test_results_in_words():
    def outcome(power, order, results=()):
        return OrderOutcome(power, Order.parse(order, "A" if order.endswith((" B", "WAIVE")) else None), results)

    assert result_in_words(outcome("X", "A PAR - BUR", ("bounce", "dislodged")), "M") == "bounced, dislodged"
    assert result_in_words(outcome("X", "A LON - BEL VIA", ("no convoy",)), "M") == "no convoy"
    assert result_in_words(outcome("X", "A LON - BEL VIA", ("disrupted",)), "M") == "convoy disrupted"
    assert result_in_words(outcome("X", "A BUR R RUH", ("bounce",)), "R") == "bounced"
    assert result_in_words(outcome("X", "A BUR R RUH", ("disband",)), "R") == "disbanded"
    assert result_in_words(outcome("X", "A BUR D"), "R") == "disbanded"
    assert result_in_words(outcome("X", "WAIVE"), "A") == "waived"
    assert result_in_words(outcome("X", "A PAR B", ("void",)), "A") == "void"
    # QA: an order carried out says what the unit did, not "succeeded"
    assert result_in_words(outcome("X", "A PAR H"), "M") == "holds"
    assert result_in_words(outcome("X", "A PAR - BUR"), "M") == "moved"
    assert result_in_words(outcome("X", "A MAR S A PAR"), "M") == "support given"
    assert result_in_words(outcome("X", "A MAR S A PAR - BUR"), "M") == "support given"
    assert result_in_words(outcome("X", "F NTH C A LON - BEL"), "M") == "convoyed"
    assert result_in_words(outcome("X", "A BUR R RUH"), "R") == "retreated"
    assert result_in_words(outcome("X", "A PAR B"), "A") == "built"
    assert result_in_words(outcome("X", "A PAR D"), "A") == "removed"


def test_a_void_removal_says_why(geo):
    """QA: a void removal said a bare "void". Germany (2 centres, 3 units) owes one removal and
    orders two: the engine removes A Munich, the first, and voids the second."""
    outcome = adjudicate(Position(phase="W1901A", units={"GERMANY": ("A MUN", "A RUH", "F KIE")},
                                  centers={"GERMANY": ("MUN", "KIE")}), {"GERMANY": ["A MUN D", "A RUH D"]})
    lines = lines_of(report_for(outcome, geo))
    assert lines["A MUN"] == "A Munich disbands (A MUN D): removed"
    assert lines["A RUH"] == ("A Ruhr disbands (A RUH D): void: Germany had 1 removal to make and A Munich was "
                              "removed")


# France: 5 centres, 3 units: 2 builds due
WINTER = Position(phase="W1901A", units={"FRANCE": ("A MAR", "A BUR", "F POR")},
                  centers={"FRANCE": ("BRE", "MAR", "SPA", "POR", "PAR")}, adjustments={"FRANCE": 2})


@pytest.mark.parametrize(("done", "said"), [
    # both builds used by the others: the third is one too many
    (("A PAR B", "F BRE B"), "void: France had 2 builds to make and A Paris and F Brest were built"),
    # a build left: the position does not say why this one was void, so nothing is made up
    (("A PAR B",), "void"),
])
def test_a_void_build_says_why_when_the_builds_were_used(geo, done, said):
    orders = [OrderOutcome("FRANCE", Order.parse(text, "A")) for text in done]
    void = OrderOutcome("FRANCE", Order.parse("A MAR B", "A"), ("void",))
    assert result_in_words(void, "A", [*orders, void], geo, WINTER) == said


@pytest.mark.parametrize(
    ("order", "words"),
    [
        ("A PAR H", "A Paris holds"),
        ("A PAR - BUR", "A Paris -> Burgundy"),
        ("A LON - NWY VIA", "A London -> Norway by convoy"),
        ("A LON - ENG - MAO - BRE", "A London -> Brest by convoy via English Channel, Mid-Atlantic Ocean"),  # 000 VI(3)
        ("F MAO - SPA/NC", "F Mid-Atlantic Ocean -> Spain (north coast)"),
        ("A MAR S A PAR - BUR", "A Marseilles supports A Paris -> Burgundy"),
        ("A MAR S A PAR", "A Marseilles supports A Paris"),
        ("A MAR S A PAR H", "A Marseilles supports A Paris"),
        ("F NTH C A LON - NWY", "F North Sea convoys A London -> Norway"),
        ("F STP/SC R BOT", "F St Petersburg (south coast) retreats to Gulf of Bothnia"),
        ("A BUR D", "A Burgundy disbands"),
        ("F STP/NC B", "Build F St Petersburg (north coast)"),
        ("WAIVE", "Waive a build"),
        ("A XYZ - PAR", "A XYZ -> Paris"),
    ],
)
def test_describe_order(order, words, geo):
    assert describe_order(Order.parse(order), geo) == words


@pytest.mark.parametrize("text", ["A PAR", "A PAR S", "GARBAGE IN HERE NOW", "NONSENSE"])
def test_text_that_is_no_order_never_reaches_a_report(text):
    """Reports take Order values: text that is not engine notation is refused where it becomes one
    (formerly describe_order gave such text back unchanged)."""
    assert Order.parse_or_none(text) is None


def test_places_and_units_with_codes(geo):
    assert place_with_code("GAS", geo) == "Gascony (GAS)"
    assert place_with_code("SPA/SC", geo) == "Spain (south coast, SPA/SC)"
    assert place_with_code("XYZ", geo) == "XYZ"
    assert unit_with_code("F STP/NC", geo) == "F St Petersburg (north coast, STP/NC)"
    assert str(name_order(Order.parse("A PAR - BUR"), geo)) == "A Paris -> Burgundy (A PAR - BUR)"


# ---------------------------------------------------------------------------------------------
# Times


@pytest.mark.parametrize(
    ("moment", "zone", "local", "utc"),
    [
        (DEADLINE, "UTC", "Saturday 28 November 2026, 18:00 UTC", "Saturday 28 November 2026, 18:00 UTC"),
        (DEADLINE, "Europe/Paris", "Saturday 28 November 2026, 19:00 CET (Europe/Paris)",
         "Saturday 28 November 2026, 18:00 UTC"),
        (DEADLINE, "Europe/London", "Saturday 28 November 2026, 18:00 GMT (Europe/London)",
         "Saturday 28 November 2026, 18:00 UTC"),
        (datetime(2026, 7, 4, 9, 5, tzinfo=UTC), "Europe/London",
         "Saturday 4 July 2026, 10:05 BST (Europe/London)", "Saturday 4 July 2026, 09:05 UTC"),
        (DEADLINE, "Australia/Sydney", "Sunday 29 November 2026, 05:00 AEDT (Australia/Sydney)",
         "Saturday 28 November 2026, 18:00 UTC"),
        # the last day of summer time in the United States, after the change
        (datetime(2026, 11, 1, 12, 0, tzinfo=UTC), "America/New_York",
         "Sunday 1 November 2026, 07:00 EST (America/New_York)", "Sunday 1 November 2026, 12:00 UTC"),
        # an aware datetime in another zone is shown from the same instant
        (datetime(2026, 11, 28, 19, 0, tzinfo=timezone(timedelta(hours=1))), "UTC",
         "Saturday 28 November 2026, 18:00 UTC", "Saturday 28 November 2026, 18:00 UTC"),
    ],
)
def test_format_time(moment, zone, local, utc):
    when = format_time(moment, zone)
    assert (when.local, when.utc) == (local, utc)
    assert when.at == moment and when.at.utcoffset() == timedelta(0)
    assert str(when) == (local if local == utc else f"{local} = {utc}")


def test_format_time_refuses_naive_datetimes():
    with pytest.raises(ValueError, match="timezone-aware"):
        format_time(datetime(2026, 11, 28, 18, 0))


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (timedelta(days=2, hours=5, minutes=10), "2 days 5 hours"),
        (timedelta(days=1), "1 day"),
        (timedelta(hours=23, minutes=59, seconds=59), "23 hours 59 minutes"),
        (timedelta(hours=1), "1 hour"),
        (timedelta(minutes=1, seconds=30), "1 minute"),
        (timedelta(seconds=30), "less than a minute"),
        (timedelta(0), "none: the deadline has passed"),
        (timedelta(minutes=-5), "none: the deadline has passed"),
    ],
)
def test_format_duration(delta, text):
    assert format_duration(delta) == text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (48 * 3600, "2 days"),
        (36 * 3600, "1 day 12 hours"),
        (24 * 3600, "1 day"),
        (90 * 60, "1 hour 30 minutes"),
        (15, "15 seconds"),  # the demo's movement turns
        (7.5, "7.5 seconds"),  # and its retreats: half of them
        (1, "1 second"),
        (3 * 3600 + 20 * 60 + 5, "3 hours 20 minutes 5 seconds"),
    ],
)
def test_format_length_says_a_turn_length_in_words_and_drops_nothing(seconds, text):
    """QA: `game show` said "turns of 0.00416667/0.00208333/0.00208333 hours" for the demo."""
    assert format_length(seconds) == text


# ---------------------------------------------------------------------------------------------
# Confirmation, rejection, reminder


@dataclass(frozen=True)
class Reading:
    """Stands in for gmserver.rules.reading.LineReading (same fields)."""

    line: int
    text: str
    status: str
    order: Order | None = None
    rule: str | None = None
    message: str | None = None


READINGS = (
    Reading(1, "Dear GM,", "ignored", message="not an order"),
    Reading(2, "A Par - Bur  ", "accepted", Order.parse("A PAR - BUR")),
    Reading(3, "mar s par-bur", "corrected", Order.parse("A MAR S A PAR - BUR"), "000 IV(1)",
            "unit type omitted: the unit in Marseilles is an army"),
    Reading(4, "F Bre - Spa", "rejected", None, "000 IV(3)",
            "F Brest cannot reach Spain: a fleet must name a coast and neither coast is in reach"),
)


def test_confirmation(geo, composer):
    confirmation = build_confirmation(
        game_name="lepanto", power="FRANCE", phase="S1901M", deadline=DEADLINE, readings=READINGS,
        orders_on_file=[Order.parse("A PAR - BUR"), Order.parse("A MAR S A PAR - BUR")], version=2, geography=geo,
        units=["A PAR", "A MAR", "F BRE"], timezone="America/New_York",
        notes=["This set replaces version 1 completely.", ""],
    )
    assert confirmation.summary == "1 accepted, 1 corrected, 1 rejected, 1 ignored"
    assert confirmation.version == "2" and confirmation.notes == ("This set replaces version 1 completely.",)
    assert confirmation.problems
    assert [str(o) for o in confirmation.orders] == [
        "A Marseilles supports A Paris -> Burgundy (A MAR S A PAR - BUR)",
        "A Paris -> Burgundy (A PAR - BUR)",
    ]
    assert confirmation.unordered == ("F Brest (BRE)",)
    assert confirmation.lines[1].text == "A Par - Bur"
    assert confirmation.lines[2].explanation == "unit type omitted: the unit in Marseilles is an army (house rules 000 IV(1))"
    assert confirmation.lines[3].order is None

    body = composer.render(confirmation.template, confirmation)
    assert_well_formed(body)
    assert body.startswith("lepanto: France orders for Spring 1901 Movement (S1901M)\n")
    assert (
        "Set version 2. Lines read: 1 accepted, 1 corrected, 1 rejected, 1 ignored.\n"
        "This set replaces version 1 completely.\n"
    ) in body
    # a line read as written is the order on file, not a line to check; the others are listed
    assert "line 2:" not in body
    assert "  line 3: mar s par-bur\n    corrected: A Marseilles supports A Paris -> Burgundy" in body
    assert "ignored: not an order" in body
    assert "NOT USED: F Brest cannot reach Spain" in body
    flat = " ".join(body.split())  # the reply wraps long lines
    assert "(house rules 000 IV(3))" in flat and "(house rules 000 IV(1))" in flat
    assert "ORDERS ON FILE FOR FRANCE (version 2)" in body
    assert "  A Paris -> Burgundy (A PAR - BUR)\n" in body
    assert "No order yet for F Brest (BRE): at the deadline, units without an order hold." in flat
    assert "units without an order hold" in flat
    assert "Deadline: Saturday 28 November 2026, 13:00 EST (America/New_York)" in body


def test_clean_confirmation_says_so(geo, composer):
    confirmation = build_confirmation(
        game_name="lepanto", power="GERMANY", phase="S1901R", deadline=None,
        readings=[Reading(1, "A Bur - Ruh", "accepted", Order.parse("A BUR R RUH"))],
        orders_on_file=[Order.parse("A BUR R RUH")], version="1.2", geography=geo, units=["A BUR"],
    )
    assert not confirmation.problems and confirmation.unordered == ()
    body = composer.render(confirmation.template, confirmation)
    assert_well_formed(body)
    assert "Your orders were received and read as written. On file (set version 1.2):\n\n" in body
    assert "A Burgundy retreats to Ruhr (A BUR R RUH)" in body
    assert "Deadline" not in body and "No order yet" not in body


def test_rejection(composer):
    rejection = build_rejection(
        ["The subject does not name a game of this server.", ""],
        "lepanto France S1901M",
        original_subject="my   orders",
        original_date="Sat, 28 Nov 2026 10:00:00 +0100",
        game_name="lepanto",
        rules=["Orders are accepted only from the address registered for your power."],
    )
    assert rejection.reasons == ("The subject does not name a game of this server.",)
    assert rejection.original_subject == "my orders"
    body = composer.render(rejection.template, rejection)
    assert_well_formed(body)
    assert body.startswith("Your message was not accepted for game lepanto.\n")
    assert "  Subject: my orders\n  Date:    Sat, 28 Nov 2026 10:00:00 +0100\n" in body
    assert "  - The subject does not name a game of this server.\n" in body
    assert "\n        lepanto France S1901M\n" in body
    assert "address registered for your power." in flat(body)


def test_rejection_without_hints(composer):
    rejection = build_rejection([], None, original_subject="", original_date=DEADLINE)
    assert rejection.original_subject == "(no subject)"
    assert rejection.original_date == "Saturday 28 November 2026, 18:00 UTC"
    body = composer.render(rejection.template, rejection)
    assert_well_formed(body)
    assert body.startswith("Your message was not accepted.\n")
    assert "WHAT WOULD HAVE BEEN ACCEPTED" not in body
    assert "the message could not be read as orders" in body


def test_reminder_for_movement(geo, composer):
    position = engine.position_from_state(engine.initial_state())
    reminder = build_reminder(
        game_name="lepanto", power="RUSSIA", phase="S1901M", deadline=DEADLINE,
        now=DEADLINE - timedelta(hours=23, minutes=59, seconds=30), expected_subject="lepanto Russia S1901M",
        order_address="gm@lepanto.example", position=position, geography=geo, timezone="Europe/Moscow",
    )
    assert reminder.time_left == "23 hours 59 minutes"
    assert reminder.needed == (
        "A Moscow (MOS)", "F Sevastopol (SEV)", "F St Petersburg (south coast, STP/SC)", "A Warsaw (WAR)",
    )
    body = composer.render(reminder.template, reminder)
    assert_well_formed(body)
    assert "No orders for Russia have arrived yet." in body
    assert "  Deadline:  Saturday 28 November 2026, 21:00 MSK (Europe/Moscow)\n" in body
    assert "             Saturday 28 November 2026, 18:00 UTC\n" in body
    assert "  Time left: 23 hours 59 minutes\n" in body
    assert ("To send new orders: reply to this mail, or write to gm@lepanto.example with the subject:"
            in " ".join(body.split()))
    assert "\n      lepanto Russia S1901M\n" in body
    assert "If no orders arrive by the deadline, your units hold." in body


def test_reminder_for_retreats_and_adjustments(geo, composer):
    retreat = dislodgement().after
    reminder = build_reminder(
        game_name="lepanto", power="GERMANY", phase=retreat.phase, deadline=DEADLINE, now=DEADLINE,
        expected_subject="lepanto Germany S1901R", position=retreat, geography=geo,
    )
    assert reminder.needed == (
        "A Burgundy (BUR): may retreat to Belgium (BEL), Gascony (GAS), Picardy (PIC), Ruhr (RUH)",
    )
    assert reminder.if_no_orders == "your dislodged units are disbanded"
    body = composer.render(reminder.template, reminder)
    assert_well_formed(body)
    assert "To send new orders: reply to this mail with the subject:" in body

    winter = fall_with_centre_changes().after
    reminder = build_reminder(
        game_name="lepanto", power="ENGLAND", phase=winter.phase, deadline=DEADLINE,
        now=DEADLINE - timedelta(days=2, hours=1), expected_subject="lepanto England W1901A",
        position=winter, geography=geo, if_no_orders="builds are waived",
    )
    assert reminder.needed == ("1 build",)
    body = composer.render(reminder.template, reminder)
    assert "TO ORDER\n\n  1 build\n" in body
    assert "Time left: 2 days 1 hour" in body
    assert "If no orders arrive by the deadline, builds are waived." in body


def test_no_orders_are_asked_of_a_power_in_civil_disorder(geo, composer):
    """000 VII(6) ¶2: a power in civil disorder holds whatever it sends (rules/defaults.py), so the
    report does not list it among those orders are due from; it says it is in civil disorder."""
    outcome = adjudicate(
        Position(phase="S1901M", units={"FRANCE": ("A PAR",), "ITALY": ("A VEN",)},
                 centers={"FRANCE": ("PAR",), "ITALY": ("VEN",)}),
        {"FRANCE": ["A PAR H"], "ITALY": ["A VEN H"]},
    )
    report = report_for(outcome, geo, civil_disorder={"ITALY"})
    assert report.to_order == ("France",)
    body = flat(composer.render(report.template, report))
    assert "Orders are due from France." in body and "IN CIVIL DISORDER: Italy" in body


def test_the_answer_to_press_keeps_every_line_under_78_characters(composer):
    """QA: the heading's "  Game:    demo, Spring 1903 Movement, deadline Tuesday 1 December 2026,
    18:00 UTC" (82 characters) and press.txt.j2's "Nothing in this message was read as orders..."
    (80) forced quoted-printable on plain-text mail; both are wrapped now, nothing lost."""
    body = composer.render("player/press.txt.j2", {
        "press_told": ["Your press to all powers is published with the next report."],
        "non_player": False, "orders_refused": False, "inbound_id": 7,
        "original_subject": "demo press", "original_date": "Mon, 30 Nov 2026 10:00:00 +0000",
        "game_name": "demo", "power_name": "France", "phase": "Spring 1903 Movement",
        "deadline": format_time(datetime(2026, 12, 1, 18, 0, tzinfo=UTC)), "more_text": False,
    })
    assert_well_formed(body)
    lines = body.split("\n")
    game = next(i for i, line in enumerate(lines) if line.startswith("  Game:"))
    # the phase fits on the first line; the deadline goes on the next, under the value column
    assert lines[game:game + 2] == ["  Game:    demo, Spring 1903 Movement,",
                                    "           deadline Tuesday 1 December 2026, 18:00 UTC"]
    assert "Nothing in this message was read as orders: your orders on file, if any, stand." in flat(body)
    # QA: "Your press of demo:" read oddly; the press is sent in a game
    assert lines[0] == "Your press in demo:"
    unpublished = composer.render("player/press_condition.txt.j2", {
        "game_name": "demo", "phase": "Spring 1903 Movement", "condition": "if France holds Paris", "text": "Hi"})
    assert flat(unpublished).startswith("Your press in demo, Spring 1903 Movement, was not published")


def test_no_plain_text_template_writes_a_literal_line_over_78_characters():
    """A line over 78 characters makes the mail quoted-printable (email's max_line_length): a
    sentence written out whole in a template goes through `fill` (QA found five)."""
    long = [f"{path.relative_to(TEMPLATES_DIR)}:{number}"
            for path in sorted(TEMPLATES_DIR.glob("*/*.txt.j2"))
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if len(line) > 78 and "{" not in line]
    assert long == []


def test_press_sections_of_a_report_000_x_1(geo, composer):
    """000 X(1): white press under its author's orders, grey press in an "Anonymous Press" section;
    other profiles print both in one "Press" section."""
    from gmserver.rules.press import ReportPress

    report = dataclasses.replace(report_for(spring_bounce(), geo), press=(
        ReportPress("orders", "FRANCE", "Press from France", "Vive la France!\nEt vive Paris."),
        ReportPress("anonymous", None, "Anonymous", "Who guards the Channel?"),
        ReportPress("press", None, "From Italy", "Italy stands firm."),
    ))
    body = composer.render(report.template, report)
    assert_well_formed(body)
    france, germany = body.index("\nFrance\n"), body.index("\nGermany\n")
    assert france < body.index("  Press from France:\n    Vive la France!\n    Et vive Paris.\n") < germany
    assert "\nPRESS\n\n  From Italy:\n    Italy stands firm.\n" in body
    assert "\nANONYMOUS PRESS\n\n  Anonymous:\n    Who guards the Channel?\n" in body


def test_confirmation_with_no_order_read_says_what_was_skipped_first(geo, composer):
    """A message from which no order was read never says "Your orders were received.";
    it says first which lines were skipped and why."""
    confirmation = build_confirmation(
        game_name="lepanto", power="FRANCE", phase="S1901M", deadline=None,
        readings=[Reading(1, "Hello all", "ignored", None, None, "Not an order."),
                  Reading(2, "F Bre - Spa", "rejected", None, "000 IV(3)", "F Brest cannot reach Spain")],
        orders_on_file=[], version=1, geography=geo, units=["F BRE"],
    )
    assert confirmation.read_none
    assert confirmation.skipped == ("line 1 (Hello all): Not an order.",
                                    "line 2 (F Bre - Spa): F Brest cannot reach Spain (house rules 000 IV(3))")
    body = composer.render(confirmation.template, confirmation)
    assert_well_formed(body)
    assert "received" not in body
    head = body.split("LINES TO CHECK")[0]
    assert ("No order could be read from your message, so none was used. Skipped:\n"
            "  line 1 (Hello all): Not an order.\n"
            "  line 2 (F Bre - Spa): F Brest cannot reach Spain (house rules 000 IV(3))\n") in head


def test_confirmation_with_an_order_read_is_still_received(geo, composer):
    confirmation = build_confirmation(
        game_name="lepanto", power="FRANCE", phase="S1901M", deadline=None, readings=READINGS,
        orders_on_file=[Order.parse("A PAR - BUR")], version=1, geography=geo,
    )
    assert not confirmation.read_none and confirmation.skipped == ()
    assert "Your orders were received, but some lines" in composer.render(confirmation.template, confirmation)


def test_confirmation_says_when_the_version_mark_is_not_the_set_filed(geo, composer):
    """A reply still carrying "[1]" (quoted back) and filed as the second set says so."""
    confirmation = build_confirmation(
        game_name="lepanto", power="FRANCE", phase="S1901M", deadline=None, readings=READINGS,
        orders_on_file=[Order.parse("A PAR - BUR")], version=2, geography=geo, marker="1",
        notes=["This set replaces the set on file (house rules 000 III(4))."],
    )
    assert confirmation.notes == (
        "Your message is marked [1], but it is set 2 received from you this turn (the mark may be quoted "
        "from an earlier mail): it is filed as set 2.",
        "This set replaces the set on file (house rules 000 III(4)).",
    )
    same = build_confirmation(
        game_name="lepanto", power="FRANCE", phase="S1901M", deadline=None, readings=READINGS,
        orders_on_file=[Order.parse("A PAR - BUR")], version=2, geography=geo, marker="2",
    )
    assert same.notes == ()


def test_a_second_set_marked_1_again_is_told_about_its_number_once(geo, composer):
    """QA walkthrough: "[1]" on a second set drew two paragraphs on its number. One says it (issue
    10: first), with the rule that decides which set counts from the reader's note."""
    duplicate = ("This set is numbered 1, but you already sent a set numbered 1; under this game's rules "
                 "(house rules 000 III(4)) the set received last counts, so this one does.")
    confirmation = build_confirmation(
        game_name="lepanto", power="FRANCE", phase="S1901M", deadline=None, readings=READINGS,
        orders_on_file=[Order.parse("A PAR - BUR")], version=2, geography=geo, marker="1",
        notes=["This set replaces the set on file (house rules 000 III(4)).", duplicate],
    )
    assert confirmation.notes == (
        "Your message is marked [1], but it is set 2 received from you this turn (the mark may be quoted "
        "from an earlier mail): it is filed as set 2. Under this game's rules (house rules 000 III(4)) the set "
        "received last counts, so this one does.",
        "This set replaces the set on file (house rules 000 III(4)).")


def test_danivon_automatic_builds_are_reported_with_their_clause_001_V5(geo, composer):
    """001 V(5) ¶1: a player who sends no adjustment orders has the builds made for them. The
    Winter report shows those builds, where they were made and the clause, never "No orders were
    given." above a board that has new units on it."""
    position = Position(phase="W1901A", units={"GERMANY": ("A MUN",)},
                        centers={"GERMANY": ("BER", "DEN", "KIE", "MUN")}, adjustments={"GERMANY": 2})
    # Munich is inland: armies; Munich is occupied, so Berlin and Kiel, alphabetically
    outcome = adjudicate_state(engine.state_from_position(position), {}, load_ruleset("danivon"))
    report = report_for(outcome, geo)

    lines = lines_of(report)
    assert set(lines) == {"A BER", "A KIE"}
    assert lines["A BER"].startswith("Build A Berlin (A BER B): built")
    assert "001 V(5)" in lines["A BER"] and "001 V(5)" in lines["A KIE"]

    body = composer.render(report.template, report)
    assert_well_formed(body)
    assert "No orders were given." not in body
    assert "Build A Berlin" in body and "Build A Kiel" in body and "001 V(5)" in body


def test_a_convoyed_move_is_written_via_convoy_never_in_the_engine_s_VIA(geo, composer):
    """The engine writes a convoyed move `A LON - BEL VIA`; players read "via convoy", in the
    report's text and HTML parts and in a confirmation's orders."""
    outcome = adjudicate(
        Position(phase="S1901M", units={"ENGLAND": ("A LON", "F NTH")}),
        {"ENGLAND": ["A LON - BEL VIA", "F NTH C A LON - BEL"]},
    )
    report = report_for(outcome, geo)
    assert lines_of(report)["A LON"] == "A London -> Belgium by convoy (A LON - BEL via convoy): moved"
    body = composer.render(report.template, report)
    html = composer.render("player/report.html.j2", {"reports": [report], "map_cid": None, "chart_cid": None,
                                                     "history": None, "colours": {}, "calendar": False})
    assert "VIA" not in body and "VIA" not in html and "A LON - BEL via convoy" in html
    named = name_order(Order.parse("A LON - BEL VIA"), geo)
    assert named.line == "A London -> Belgium by convoy (A LON - BEL via convoy)"
    assert named.order == "A LON - BEL VIA"  # the engine's text is kept for the records
def test_a_brief_confirmation_is_the_orders_and_the_deadline_unless_a_line_was_not_used(geo, composer):
    """SET CONFIRM brief: the orders as read and the deadline; a line that could not be used is
    still shown with why, so that a misread order is never hidden."""
    def body(readings, brief):
        confirmation = build_confirmation(
            game_name="lepanto", power="FRANCE", phase="S1901M", deadline=DEADLINE, readings=readings,
            orders_on_file=[Order.parse("A PAR - BUR"), Order.parse("A MAR S A PAR - BUR")], version=1,
            geography=geo, units=["A PAR", "A MAR", "F BRE"], brief=brief)
        return composer.render(confirmation.template, confirmation)

    clean = READINGS[:3]
    brief = body(clean, True)
    assert "LINES TO CHECK" not in brief and "No order yet for" not in brief
    assert "A Paris -> Burgundy (A PAR - BUR)" in brief and "Deadline:" in brief and "set confirm full" in brief
    assert "set confirm full" not in body(clean, False)
    assert "NOT USED: F Brest cannot reach Spain" in body(READINGS, True)
