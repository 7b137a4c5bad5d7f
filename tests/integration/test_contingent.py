"""Contingent retreat and adjustment orders, end to end on both databases (000 II(5),
001 II(6)).

`contingent_minor_orders = accepted` (000 II(5), 001 II(6)): retreat and adjustment lines sent
with the moves are stored with the set and, when the following retreat or adjustment phase is
reached, read against that phase's position for every power that sent no set for it; a set sent
for that phase replaces them. Their conditions are evaluated (`objective_only`, 000 II(5)).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from gmserver import engine
from gmserver.db.models import OrderSet, OutboxMessage, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.position import Position
from gmserver.rules.ruleset import Ruleset, load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from gmserver.services.game.games import POWERS, GameSpec, PlayerSpec, create_game
from gmserver.services.base.outbox import message_bytes
from tests.support.intake_rows import send_orders
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

# France takes Spain in the Fall: one build, Paris free.
FALL = Position.from_json({
    "phase": "F1901M",
    "units": {"FRANCE": ["A GAS", "A MAR", "F MAO"], "GERMANY": ["A MUN"]},
    "centers": {"FRANCE": ["BRE", "MAR", "PAR"], "GERMANY": ["BER", "KIE", "MUN"]},
})
# France dislodges the German army in Munich in the Spring.
SPRING = Position.from_json({
    "phase": "S1901M",
    "units": {"FRANCE": ["A BUR", "A RUH"], "GERMANY": ["A MUN"]},
    "centers": {"FRANCE": ["BRE", "MAR", "PAR"], "GERMANY": ["BER", "KIE", "MUN"]},
})


def _game(services, clock, name: str, ruleset: Ruleset, position: Position) -> None:
    with transaction(services.sessions) as session:
        create_game(session, GameSpec(
            name=name, ruleset=ruleset, position=position,
            players=[PlayerSpec(p, player_address(p)) for p in POWERS],
            movement=timedelta(hours=48), retreat=timedelta(hours=24), adjustment=timedelta(hours=24),
            reminder=timedelta(0), sender_check="from",
        ), clock())


def _send(services, clock, game: str, template: str, power: str, phase: str, body: str) -> None:
    assert send_orders(services, clock(), power, body, phase, game=game, template=template)[-1][1] == "accepted"


def _next(services, clock, hours: float) -> str:
    clock.advance(hours=hours)
    [done] = turns.adjudicate_due(services, clock())
    return done.next_phase


def _record(services, phase: str) -> PhaseRecord:
    with transaction(services.sessions) as session:
        return session.scalar(select(PhaseRecord).where(PhaseRecord.phase == phase))


def _units(services, phase: str, power: str) -> tuple[str, ...]:
    return engine.position_from_state(_record(services, phase).state).units.get(power, ())


def test_fall_builds_are_used_in_the_winter_without_a_winter_set_000_II_5(database_url, clock) -> None:
    """000 II(5): "If I gain a centre: Build A Par" sent with the Fall moves builds A PAR in the
    Winter turn the player sends nothing for; a later Fall set merged unit by unit (000 III(4))
    without contingent lines keeps them."""
    services = services_for(database_url)
    new_game(services, clock(), name="contingent", ruleset="mhr", position=FALL)
    _send(services, clock, "contingent", "mhr", "FRANCE", "F1901M", "A Gas - Spa\nIf I gain a centre: Build A Par")
    _send(services, clock, "contingent", "mhr", "FRANCE", "F1901M", "F Mao H")
    with transaction(services.sessions) as session:
        first, second = session.scalars(select(OrderSet).order_by(OrderSet.version))
        assert (first.contingent, second.contingent) == (["If I gain a centre: Build A Par"], [])
        assert first.orders == ["A GAS - SPA"]
        confirmation = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "confirmation")
                                       .order_by(OutboxMessage.id)).all()[-1].raw
    # the reply to the second set says the first set's contingent line still stands
    assert "used there only if you send no set for that turn: If I gain a centre: Build A Par" in \
        " ".join(confirmation.decode().split())
    assert _next(services, clock, 48) == "W1901A"
    assert _next(services, clock, 24) == "S1902M"
    assert "A PAR" in _units(services, "S1902M", "FRANCE")
    winter = _record(services, "W1901A")
    assert winter.orders == {"FRANCE": ["A PAR B"]}
    assert {"power": "FRANCE", "order": "A PAR B", "results": [], "defaulted": False,
            "note": "from the orders sent with the Fall 1901 moves"} in winter.results
    with transaction(services.sessions) as session:
        report = message_bytes(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "report")
                                               .order_by(OutboxMessage.id.desc())).first())
    assert "(A PAR B): built (from the orders sent with the Fall 1901 moves)" in " ".join(report.decode().split())


def test_a_winter_set_replaces_the_contingent_lines_000_II_5(database_url, clock) -> None:
    """A set sent for the adjustment turn itself replaces the contingent lines."""
    services = services_for(database_url)
    new_game(services, clock(), name="contingent", ruleset="mhr", position=FALL)
    _send(services, clock, "contingent", "mhr", "FRANCE", "F1901M", "A Gas - Spa\nBuild A Par")
    assert _next(services, clock, 48) == "W1901A"
    _send(services, clock, "contingent", "mhr", "FRANCE", "W1901A", "Build F Bre")
    assert _next(services, clock, 24) == "S1902M"
    units = _units(services, "S1902M", "FRANCE")
    assert "F BRE" in units and "A PAR" not in units
    assert _record(services, "W1901A").orders == {"FRANCE": ["F BRE B"]}


def test_a_contingent_retreat_is_used_in_the_retreat_phase_001_II_6(database_url, clock) -> None:
    """001 II(6): "If dislodged: A Mun R Boh" sent with the Spring moves is the retreat order of
    the dislodged army when its player sends nothing for the retreat turn."""
    services = services_for(database_url)
    new_game(services, clock(), name="contingent", ruleset="danivon", position=SPRING)
    _send(services, clock, "contingent", "danivon", "FRANCE", "S1901M", "A Bur - Mun\nA Ruh S A Bur - Mun")
    _send(services, clock, "contingent", "danivon", "GERMANY", "S1901M", "A Mun H\nIf dislodged: A Mun R Boh")
    assert _next(services, clock, 72) == "S1901R"
    assert _next(services, clock, 24) == "F1901M"
    assert _units(services, "F1901M", "GERMANY") == ("A BOH",)
    retreat = _record(services, "S1901R")
    assert retreat.orders == {"GERMANY": ["A MUN R BOH"]}
    assert [r.get("note") for r in retreat.results] == ["from the orders sent with the Spring 1901 moves"]


def test_contingent_lines_are_not_kept_when_the_game_rejects_them(database_url, clock) -> None:
    """contingent_minor_orders = rejected (a GM override of mhr): the lines are not stored and
    not used; the dislodged army gets the default (disband, 000 nrr_default) and no build is made."""
    services = services_for(database_url)
    rules = load_ruleset("mhr").with_overrides({"contingent_minor_orders": "rejected"})
    _game(services, clock, "contingent", rules, SPRING)
    _send(services, clock, "contingent", "mhr", "FRANCE", "S1901M", "A Bur - Mun\nA Ruh S A Bur - Mun")
    _send(services, clock, "contingent", "mhr", "GERMANY", "S1901M", "A Mun H\nIf dislodged: A Mun R Boh")
    with transaction(services.sessions) as session:
        germany = session.scalar(select(OrderSet).where(OrderSet.power == "GERMANY"))
        assert germany.contingent == []
        assert any("not used" in (line["message"] or "") for line in germany.lines)
    assert _next(services, clock, 48) == "S1901R"
    assert _next(services, clock, 24) == "F1901M"
    assert _units(services, "F1901M", "GERMANY") == ()
    assert _record(services, "S1901R").orders == {}


def test_a_false_condition_leaves_the_default_003_5_a(database_url, clock) -> None:
    """003 [5 a] with 000 II(5): a condition that does not hold ("if I lose Marseilles") or is
    subjective ("If Austria attacked Italy") is false; the "otherwise" line is used."""
    services = services_for(database_url)
    new_game(services, clock(), name="contingent", ruleset="mhr", position=FALL)
    _send(services, clock, "contingent", "mhr", "FRANCE", "F1901M",
          "A Gas - Spa\nIf I lose Marseilles: Build A Par\nIf Austria attacked Italy, build A Par\n"
          "Otherwise build F Bre")
    assert _next(services, clock, 48) == "W1901A"
    assert _next(services, clock, 24) == "S1902M"
    units = _units(services, "S1902M", "FRANCE")
    assert "F BRE" in units and "A PAR" not in units


def test_no_reminder_for_a_power_whose_contingent_lines_stand_000_II_5(database_url, clock) -> None:
    """A power whose contingent retreat lines will be used has orders: it is not reminded."""
    from gmserver.services.turn import turns

    services = services_for(database_url)
    new_game(services, clock(), name="contingent", ruleset="danivon", position=SPRING, reminder_hours=12)
    _send(services, clock, "contingent", "danivon", "FRANCE", "S1901M", "A Bur - Mun\nA Ruh S A Bur - Mun")
    _send(services, clock, "contingent", "danivon", "GERMANY", "S1901M", "A Mun H\nIf dislodged: A Mun R Boh")
    assert _next(services, clock, 72) == "S1901R"
    clock.advance(hours=20)  # inside the 12 hours before the 24-hour retreat deadline
    assert turns.queue_reminders(services, clock()) == 0


def test_003_5_the_confirmation_says_the_kept_lines_are_processed_with_the_moves(database_url, clock) -> None:
    """003 [5] (scorpion, the two-season game): the note at the top of the confirmation said the
    lines are 'used there only if you send no set for that turn', of a turn that is processed at
    once with the moves and never open for a set."""
    services = services_for(database_url)
    new_game(services, clock(), name="beta", ruleset="scorpion", position=FALL)
    _send(services, clock, "beta", "scorpion", "FRANCE", "F1901M", "A Gas - Spa\nBuild A Par")
    with transaction(services.sessions) as session:
        confirmation = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "confirmation")).one().raw
    text = " ".join(confirmation.decode().split())
    assert ("Kept for the retreats and builds processed at once after these moves (house rules 003 [5]): "
            "Build A Par") in text
    assert "send no set for that turn" not in text
