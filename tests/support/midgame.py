"""A mid-game turn (Fall 1902) adjudicated by the real engine: the scenario of the report's
golden files (tests/data/reports/) and of the map benchmark (benchmarks/bench_map.py)."""

from __future__ import annotations

from datetime import UTC

from gmserver import engine
from gmserver.rules.position import PhaseOutcome, Position
from tests.support.adjudicate import adjudicate

MIDGAME = Position(
    phase="F1902M",
    units={
        "AUSTRIA": ("A BUD", "A SER", "F TRI", "A GAL"),
        "ENGLAND": ("F NTH", "F NWG", "A YOR", "F ENG"),
        "FRANCE": ("A BUR", "A PIC", "F MAO", "A SPA", "F POR"),
        "GERMANY": ("A RUH", "A MUN", "F HOL", "A KIE", "F DEN"),
        "ITALY": ("A VEN", "F ION", "A TUN", "F NAP"),
        "RUSSIA": ("A WAR", "F SEV", "A UKR", "F STP/SC", "F RUM"),
        "TURKEY": ("F BLA", "A BUL", "F CON", "A ARM"),
    },
    centers={
        "AUSTRIA": ("BUD", "SER", "TRI", "VIE"),
        "ENGLAND": ("EDI", "LON", "LVP", "NWY"),
        "FRANCE": ("BRE", "MAR", "PAR", "POR", "SPA"),
        "GERMANY": ("BER", "DEN", "HOL", "KIE", "MUN"),
        "ITALY": ("NAP", "ROM", "TUN", "VEN"),
        "RUSSIA": ("MOS", "RUM", "SEV", "STP", "SWE", "WAR"),
        "TURKEY": ("ANK", "BUL", "CON", "SMY", "GRE"),
    },
)

ORDERS = {
    # France takes Belgium with support; Germany's bounce from Burgundy fails
    "FRANCE": ["A PIC - BEL", "A BUR S A PIC - BEL", "F MAO - BRE", "A SPA H", "F POR S A SPA"],
    "GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR", "F HOL S A PIC - BEL", "A KIE H", "F DEN - SWE"],
    # England and Russia: Sweden changes hands
    "ENGLAND": ["F NTH - BEL", "F NWG S F NTH", "A YOR - LON", "F ENG H"],
    "RUSSIA": ["A WAR - GAL", "A UKR S A WAR - GAL", "F SEV H", "F STP/SC - BOT", "F RUM S A UKR"],
    # Austria loses Galicia; Turkey dislodges Serbia with support from Bulgaria
    "AUSTRIA": ["A GAL H", "A BUD S A GAL", "A SER H", "F TRI - ALB"],
    "TURKEY": ["A BUL - SER", "F CON - AEG", "F BLA S F SEV", "A ARM - SMY"],
    "ITALY": ["A VEN - TYR", "F ION - GRE", "A TUN H", "F NAP - ROM"],
}


def midgame() -> PhaseOutcome:
    return adjudicate(engine.state_from_position(MIDGAME), ORDERS)


def midgame_parts():
    """The stored report of the mid-game turn as a deadline stores it (services/base/report_copies.py):
    a report with a deadline in a time zone other than UTC, press of two kinds, vote results and
    the subject line mark, the outcome with an order of every kind the turn has, and a centre
    chart of two phases. Imports inside: most users of this module want the outcome only."""
    import dataclasses
    from datetime import datetime

    from gmserver.mail.compose import Composer
    from gmserver.paths import TEMPLATES_DIR
    from gmserver.reports.turn import build_turn_report, with_subject_template
    from gmserver.rules.press import ReportPress
    from gmserver.services.base.report_copies import parts_for

    outcome = midgame()
    deadline = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)
    report = build_turn_report(outcome, geography=engine.map_info(), game_name="lepanto", next_deadline=deadline,
                               timezone="Australia/Sydney", civil_disorder=("ITALY",))
    report = dataclasses.replace(with_subject_template(report, "standard"), press=(
        ReportPress("orders", "FRANCE", "Press from France", "Peace in the west <3, é"),
        ReportPress("anonymous", None, "Anonymous", "Beware the Turk."),
    ), votes=("The proposal of a draw among all survivors failed.",))
    composer = Composer(TEMPLATES_DIR, gm_name="Garry Lord", gm_address="gm@lepanto.example")
    return parts_for(composer, key="report:1:F1902M:", game_name="lepanto", contexts=[report], outcome=outcome,
                     centre_points=[("S1901M", {"FRANCE": 5, "ITALY": 4}), ("F1902M", {"FRANCE": 6, "ITALY": 4})],
                     deadline=deadline, now=datetime(2026, 11, 26, 18, 0, tzinfo=UTC))
