"""000 VI(4) on a real database (datc_4a1 = mhr_hybrid, MATRIX 2.16): the disputed convoy is
flagged to the GM once, the GM rules it disrupted, and the re-adjudication applies the ruling."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gmserver import engine
from gmserver.db.models import OutboxMessage, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.position import Position
from gmserver.services import convoys, corrections, preview, turns
from tests.integration.test_gm_held import body_of
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.integration

# DATC 6.F.9: England convoys A LON - BEL by F ENG or F NTH; France dislodges F ENG.
POSITION = Position.from_json({"phase": "S1901M", "centers": {"ENGLAND": ["LON"], "FRANCE": ["BRE"]},
                               "units": {"ENGLAND": ["F ENG", "F NTH", "A LON"], "FRANCE": ["F BRE", "F MAO"]}})


def _game(database_url, clock, ruleset: str):
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="convoy", ruleset=ruleset, position=POSITION)
    for power, text in (("ENGLAND", "F ENG C A LON - BEL\nF NTH C A LON - BEL\nA LON - BEL"),
                        ("FRANCE", "F BRE S F MAO - ENG\nF MAO - ENG")):
        corrections.correct_orders(services, "convoy", power, text, clock())
    return services, game_id


def _alerts(services) -> list[tuple[str, str]]:
    with transaction(services.sessions) as session:
        return [(m.dedupe_key, body_of(m.raw)) for m in
                session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "alert"))]


def _english_units(services, game_id) -> tuple[str, ...]:
    with transaction(services.sessions) as session:
        record = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game_id)
                                 .order_by(PhaseRecord.id.desc())).first()
        return engine.position_from_state(record.state).units["ENGLAND"]


def test_a_convoy_000_vi_4_disrupts_is_flagged_ruled_and_re_adjudicated(database_url, clock) -> None:
    """000 VI(4): "the convoy is disrupted if any fleet of any possible route is dislodged"
    (England's own F ENG here); the engine moves the army by the other route."""
    services, game_id = _game(database_url, clock, "mhr")
    shown = preview.preview(services, "convoy", clock())
    assert len(shown.disputes) == 1 and "A LON - BEL" in shown.disputes[0]
    assert shown.if_disrupted is not None and shown.if_disrupted != shown.text

    turns.adjudicate(services, game_id, clock(), force=True)
    assert "A BEL" in _english_units(services, game_id)  # published as the engine gave it
    [(key, alert)] = _alerts(services)
    assert key == f"alert:convoy:{game_id}:S1901M:0"
    assert "000 VI(4)" in alert and 'gmserver game convoy convoy "A LON - BEL" fails' in alert

    corrections.rollback(services, "convoy", clock())
    ruled = convoys.rule_convoy(services, "convoy", "a lon - bel", "fails", clock())
    assert (ruled.phase, ruled.move) == ("S1901M", "A LON - BEL")
    assert preview.preview(services, "convoy", clock()).disputes == ()
    turns.adjudicate(services, game_id, clock(), force=True)
    assert "A LON" in _english_units(services, game_id) and "A BEL" not in _english_units(services, game_id)
    assert len(_alerts(services)) == 1  # ruled: nothing more to flag
    with transaction(services.sessions) as session:
        report = body_of(session.scalar(select(OutboxMessage.raw).where(
            OutboxMessage.dedupe_key == f"report:{game_id}:S1901M:r1:ENGLAND")))
    assert "000 VI(4)" in report


def test_other_profiles_keep_the_engine_s_all_routes_rule_and_no_ruling_is_taken(database_url, clock) -> None:
    services, game_id = _game(database_url, clock, "standard")
    assert preview.preview(services, "convoy", clock()).disputes == ()
    turns.adjudicate(services, game_id, clock(), force=True)
    assert _alerts(services) == []
    with pytest.raises(corrections.CorrectionError, match="000 VI\\(4\\)"):
        convoys.rule_convoy(services, "convoy", "A LON - BEL", "fails", clock())


PARADOX = Position.from_json({"phase": "S1901M", "centers": {"ENGLAND": ["LON"], "FRANCE": ["BRE"]},
                              "units": {"ENGLAND": ["F LON", "F WAL"], "FRANCE": ["A BRE", "F ENG"]}})


@pytest.mark.parametrize(("ruleset", "flagged"), [("mhr", True), ("standard", False)])
def test_a_convoy_paradox_is_flagged_to_the_gm_under_000_vi_6(database_url, clock, ruleset, flagged) -> None:
    """000 VI(6) (datc_4a2 = rb2000_all_hold_backup): DATC 6.F.14's paradox is shown to the GM."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="convoy", ruleset=ruleset, position=PARADOX)
    for power, text in (("ENGLAND", "F LON S F WAL - ENG\nF WAL - ENG"), ("FRANCE", "A BRE - LON\nF ENG C A BRE - LON")):
        corrections.correct_orders(services, "convoy", power, text, clock())
    assert bool(preview.preview(services, "convoy", clock()).disputes) is flagged
    turns.adjudicate(services, game_id, clock(), force=True)
    alerts = _alerts(services)
    assert len(alerts) == (1 if flagged else 0)
    if flagged:
        assert "000 VI(6)" in alerts[0][1] and "A BRE - LON" in alerts[0][1]
