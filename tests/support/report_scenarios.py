"""Engine outcomes of typical turns, shared by the report tests: a bounce, a dislodgement, a
retreat with nowhere to go, centre changes, removals by the engine, a solo, a void support."""

from __future__ import annotations

from gmserver import engine
from gmserver.rules.position import PhaseOutcome, Position
from tests.support.adjudicate import adjudicate as adjudicate_state


def adjudicate(position: Position, orders) -> PhaseOutcome:
    return adjudicate_state(engine.state_from_position(position), orders)


def spring_bounce() -> PhaseOutcome:
    return adjudicate_state(engine.initial_state(), {
        "FRANCE": ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"],
        "GERMANY": ["A MUN - BUR"],
        "ENGLAND": ["F LON - NTH"],
    })


def dislodgement() -> PhaseOutcome:
    # A BOH cuts Munich's support, so A BUR falls to A PAR with one support.
    return adjudicate(
        Position(
            phase="S1901M",
            units={"FRANCE": ("A PAR", "A MAR", "A BOH"), "GERMANY": ("A BUR", "A MUN")},
            centers={"FRANCE": ("BRE", "MAR", "PAR"), "GERMANY": ("BER", "KIE", "MUN")},
        ),
        {
            "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "A BOH - MUN"],
            "GERMANY": ["A BUR H", "A MUN S A BUR"],
        },
    )


def no_retreat_possible() -> PhaseOutcome:
    return adjudicate(
        Position(
            phase="S1901M",
            units={"FRANCE": ("A PAR", "A PIC", "A GAS"),
                   "GERMANY": ("A BUR", "A MUN", "A RUH", "A BEL", "A MAR")},
        ),
        {
            "FRANCE": ["A PAR - BUR", "A PIC S A PAR - BUR", "A GAS S A PAR - BUR"],
            "GERMANY": ["A MUN H", "A RUH H", "A BEL H", "A MAR H"],
        },
    )


def fall_with_centre_changes() -> PhaseOutcome:
    return adjudicate(
        Position(
            phase="F1901M",
            units={"FRANCE": ("A PAR", "A MAR", "F BRE", "A BUR"), "GERMANY": ("A MUN", "A RUH"),
                   "ENGLAND": ("F NTH", "A YOR", "F EDI")},
            centers={"FRANCE": ("PAR", "MAR", "BRE"), "GERMANY": ("MUN", "BER", "KIE", "BEL"),
                     "ENGLAND": ("LON", "EDI", "LVP")},
        ),
        {
            "FRANCE": ["A BUR - BEL", "A MAR - SPA", "F BRE - POR", "A PAR - PIC"],
            "GERMANY": ["A RUH S A MUN - BUR", "A MUN - BUR"],
            "ENGLAND": ["F NTH - HOL", "A YOR - LON", "F EDI - NWY"],
        },
    )


def adjustments_with_engine_removal() -> PhaseOutcome:
    # Germany owes two removals and orders one; the engine picks the other (F HOL).
    # France builds one of two; "F MAR B" is void (Marseilles is occupied).
    return adjudicate(
        Position(
            phase="W1901A",
            units={"FRANCE": ("A BUR", "A MAR"), "GERMANY": ("A MUN", "A RUH", "A KIE", "F HOL"),
                   "ENGLAND": ("F NTH", "A YOR", "F EDI")},
            centers={"FRANCE": ("PAR", "MAR", "BRE", "SPA"), "GERMANY": ("MUN", "BER"),
                     "ENGLAND": ("LON", "EDI", "LVP")},
        ),
        {"FRANCE": ["A PAR B", "F MAR B"], "GERMANY": ["A MUN D"]},
    )


def solo() -> PhaseOutcome:
    centres = ("PAR", "MAR", "BRE", "SPA", "POR", "BEL", "HOL", "MUN", "KIE", "BER", "DEN", "SWE",
               "NWY", "LON", "LVP", "EDI", "TUN")
    return adjudicate(
        Position(phase="F1901M", units={"FRANCE": ("A PIE",), "ITALY": ("A ROM",)},
                 centers={"FRANCE": centres, "ITALY": ("ROM", "NAP", "VEN")}),
        {"FRANCE": ["A PIE - VEN"]},
    )


def void_support() -> PhaseOutcome:
    return adjudicate(
        Position(phase="S1901M", units={"FRANCE": ("A PAR", "A MAR"), "GERMANY": ("A MUN",)}),
        {"FRANCE": ["A MAR S A PAR - BUR", "A PAR H"], "GERMANY": ["A MUN - BUR"]},
    )


SCENARIOS = {
    "spring_bounce": spring_bounce,
    "dislodgement": dislodgement,
    "no_retreat_possible": no_retreat_possible,
    "fall_with_centre_changes": fall_with_centre_changes,
    "adjustments_with_engine_removal": adjustments_with_engine_removal,
    "solo": solo,
    "void_support": void_support,
}
