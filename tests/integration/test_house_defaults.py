"""The house rules' defaults and the UK two-season game end to end on both databases.

season_structure = uk_two_season (003 [5]): retreats and builds are sent with the
moves and applied in the same adjudication; one report covers every phase processed. Defaults
(rules/defaults.py) reach the board and the report as the profile says."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gmserver import engine
from gmserver.db.models import OutboxMessage, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.position import Position
from gmserver.rules.subject import format_subject
from gmserver.services.base.outbox import message_bytes
from gmserver.services.features import corrections
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import preview, turns
from tests.support.intake_rows import send_orders
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

# France dislodges the German army in Munich.
SPRING = Position.from_json({
    "phase": "S1902M",
    "units": {"FRANCE": ["A BUR", "A RUH"], "GERMANY": ["A MUN"]},
    "centers": {"FRANCE": ["BRE", "MAR", "PAR"], "GERMANY": ["BER", "KIE", "MUN"]},
})
# France takes Spain (one build, Paris free); Germany has four units on three centres and is silent.
FALL = Position.from_json({
    "phase": "F1902M",
    "units": {"FRANCE": ["A GAS", "A MAR", "F MAO"], "GERMANY": ["A BUR", "A MUN", "F HEL", "F NTH"]},
    "centers": {"FRANCE": ["BRE", "MAR", "PAR"], "GERMANY": ["BER", "KIE", "MUN"]},
})


def _send(services, clock, power: str, phase: str, body: str) -> None:
    assert send_orders(services, clock(), power, body, phase, game="uk", template="scorpion")[-1][1] == "accepted"


def _record(services, phase: str) -> PhaseRecord:
    with transaction(services.sessions) as session:
        return session.scalar(select(PhaseRecord).where(PhaseRecord.phase == phase))


def _reports(services) -> list[str]:
    with transaction(services.sessions) as session:
        raws = [message_bytes(row) for row in session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "report"))]
    return [" ".join(raw.decode().split()) for raw in raws]


def test_retreat_list_sent_with_the_moves_is_used_at_once_003_5(database_url, clock) -> None:
    """003 [5]: the German retreat list rides with the Spring moves, "in the order of relevance":
    Burgundy is where the attacker came from (not a legal retreat), so Bohemia, the next on the
    list, is used; the game goes from Spring 1902 moves straight to Fall 1902 moves."""
    services = services_for(database_url)
    new_game(services, clock(), name="uk", ruleset="scorpion", position=SPRING)
    _send(services, clock, "FRANCE", "S1902M", "A Bur - Mun\nA Ruh S A Bur - Mun")
    _send(services, clock, "GERMANY", "S1902M", "A Mun H\nA Mun R Bur\nA Mun R Boh")
    clock.advance(hours=49)
    [done] = turns.adjudicate_due(services, clock())
    assert (done.phase, done.next_phase) == ("S1902M", "F1902M")
    assert engine.position_from_state(_record(services, "F1902M").state).units["GERMANY"] == ("A BOH",)
    assert _record(services, "S1902R").results == [
        {"power": "GERMANY", "order": "A MUN R BOH", "results": [], "defaulted": False,
         "note": "from the orders sent with the Spring 1902 moves"}]
    reports = _reports(services)
    assert len(reports) == 7 and done.reports == 7  # one mail per player covers both phases
    assert "Spring 1902 Retreats (S1902R), processed at once" in reports[0]
    assert "uk: Spring 1902 Retreats (S1902R), results" in reports[0]


def test_builds_and_removals_in_the_same_adjudication_003_5_and_8(database_url, clock) -> None:
    """003 [5], [5 a]: the French build rides with the Fall moves, conditional on the moves'
    outcome (France gains Spain, so A PAR, not the "otherwise" F BRE); no winter season. Germany sent
    nothing and must remove one unit: 003 [8] removes F NTH, the farthest from home of the units off
    supply centres (NTH-HEL-KIE: 2; F HEL and A BUR are 1, A MUN stands on a centre)."""
    services = services_for(database_url)
    new_game(services, clock(), name="uk", ruleset="scorpion", position=FALL)
    _send(services, clock, "FRANCE", "F1902M", "A Gas - Spa\nIf I gain a centre: build A Par\nOtherwise build F Bre")
    clock.advance(hours=49)
    [done] = turns.adjudicate_due(services, clock())
    assert (done.phase, done.next_phase) == ("F1902M", "S1903M")
    position = engine.position_from_state(_record(services, "S1903M").state)
    assert position.units["FRANCE"] == ("A MAR", "A PAR", "A SPA", "F MAO")
    assert position.units["GERMANY"] == ("A BUR", "A MUN", "F HEL")
    winter = {r["order"]: r for r in _record(services, "W1902A").results}
    assert winter["A PAR B"]["note"] == "from the orders sent with the Fall 1902 moves"
    assert winter["F NTH D"]["defaulted"] and "003 [8]" in winter["F NTH D"]["note"]
    assert "processed at once" in _reports(services)[0]


def test_a_silent_danivon_player_s_dislodged_unit_retreats_by_the_house_rules_001_V4(database_url, clock) -> None:
    """001 V(4) (nrr_default = danivon_auto_retreat), through the whole pipeline under the standard
    season structure: Germany sends nothing for the retreat turn; A MUN may retreat to Berlin,
    Bohemia, Kiel, Silesia or Tyrolia (Burgundy, the attacker's origin, and Ruhr, occupied, are
    not open); class (i), the German SCs Berlin and Kiel, comes first, Berlin alphabetically."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="nrr", ruleset="danivon", position=SPRING)
    subject = format_subject(template="danivon", game_name="nrr", power="FRANCE", phase="S1902M", purpose="orders")
    intake.store(services.sessions, order_mail(player_address("FRANCE"), subject, "A Bur - Mun\nA Ruh S A Bur - Mun"),
                 source="smtp", now=clock())
    intake.process_pending(services, clock())
    assert turns.adjudicate(services, game_id, clock(), force=True).next_phase == "S1902R"
    assert turns.adjudicate(services, game_id, clock(), force=True).next_phase == "F1902M"
    assert engine.position_from_state(_record(services, "F1902M").state).units["GERMANY"] == ("A BER",)
    assert _record(services, "S1902R").results == [
        {"power": "GERMANY", "order": "A MUN R BER", "results": [], "defaulted": True,
         "note": "no retreat order: the house rules chose the retreat (001 V(4))"}]
    # the result says what the unit did, the note why (was "succeeded (no retreat order: ...)")
    assert any("retreated (no retreat order: the house rules chose the retreat (001 V(4)))" in r
               for r in _reports(services))


def test_rolling_back_a_two_season_turn_undoes_its_retreats_and_builds_003_5(database_url, clock) -> None:
    """003 [5]: the Fall moves, the retreats and the builds were one adjudication, so the GM's
    rollback (003 [16]: before the next adjudication) reopens the Fall moves, not the winter
    phase processed with them; adjudicated again, the game is where it was."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="uk", ruleset="scorpion", position=FALL)
    _send(services, clock, "FRANCE", "F1902M", "A Gas - Spa\nBuild A Par")
    assert turns.adjudicate(services, game_id, clock(), force=True).next_phase == "S1903M"
    done = corrections.rollback(services, "uk", clock())
    assert done.phase == "F1902M"
    with transaction(services.sessions) as session:
        phases = session.scalars(select(PhaseRecord.phase).order_by(PhaseRecord.id)).all()
    assert phases == ["F1902M"]
    assert turns.adjudicate(services, game_id, clock(), force=True).next_phase == "S1903M"
    assert "A PAR" in engine.position_from_state(_record(services, "S1903M").state).units["FRANCE"]


def test_preview_of_a_two_season_turn_shows_every_phase_processed_with_it_003_5(database_url, clock) -> None:
    """`gmserver game preview` shows what the adjudication would publish: under 003 [5] the Fall
    moves and the winter adjustments processed with them; nothing is stored."""
    services = services_for(database_url)
    new_game(services, clock(), name="uk", ruleset="scorpion", position=FALL)
    _send(services, clock, "FRANCE", "F1902M", "A Gas - Spa\nBuild A Par")
    shown = preview.preview(services, "uk", clock())
    assert (shown.phase, shown.next_phase) == ("F1902M", "S1903M")
    text = " ".join(shown.text.split())
    assert "Winter 1902 Adjustments (W1902A), processed at once" in text
    assert "Build A Paris (A PAR B): built" in text
    with transaction(services.sessions) as session:
        assert session.scalars(select(PhaseRecord.phase)).all() == ["F1902M"]
