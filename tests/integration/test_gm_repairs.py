"""000 VIII(2), VIII(3) on a real database (extra_unit_repair = mhr): the GM's repair
of a surplus unit is proposed, then done on confirmation -- the board changes, the action is
recorded and every player is told; other profiles leave it to the GM by hand."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gmserver import engine
from gmserver.commands.command import Call
from gmserver.commands.registry import BY_WORD
from gmserver.db.models import OutboxMessage, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.position import Position
from gmserver.services.features import corrections, repairs
from gmserver.services.turn import turns
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.integration

# A GM error left France an army in Moscow, which the rules would remove first (000 V(4)).
POSITION = Position.from_json({"phase": "S1902M", "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["BER", "KIE"]},
                               "units": {"FRANCE": ["A PAR", "F BRE", "A MOS"], "GERMANY": ["A BER", "F KIE"]}})


def _units(services, game_id) -> tuple[str, ...]:
    with transaction(services.sessions) as session:
        record = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game_id)
                                 .order_by(PhaseRecord.id.desc())).first()
        return engine.position_from_state(record.state).units.get("FRANCE", ())


def _notices(services) -> int:
    with transaction(services.sessions) as session:
        return len(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "gm-action")).all())


def test_the_removal_rule_s_unit_is_proposed_then_removed_000_VIII_2(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="dutchman", ruleset="mhr", position=POSITION)
    corrections.correct_orders(services, "dutchman", "FRANCE", "A MOS - STP\nA PAR - BUR", clock())
    proposed = repairs.repair_unit(services, "dutchman", "france", None, None, clock(), confirm=False)
    assert proposed.repair.unit == "A MOS" and not proposed.done
    assert "A MOS" in _units(services, game_id) and _notices(services) == 0  # nothing done yet

    done = repairs.repair_unit(services, "dutchman", "FRANCE", None, None, clock(), confirm=True)
    assert done.done and done.notices == 7
    assert set(_units(services, game_id)) == {"A PAR", "F BRE"}
    turns.adjudicate(services, game_id, clock(), force=True)  # the repaired board adjudicates
    assert set(_units(services, game_id)) == {"A BUR", "F BRE"}  # the order for the removed unit is void


def test_the_gm_moves_a_misplaced_unit_by_mail_000_VIII_3(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="dutchman", ruleset="mhr", position=POSITION)
    repair = BY_WORD["repair"].run
    with transaction(services.sessions) as session:
        game = corrections.locked_game(session, "dutchman")
        shown = repair(Call(session, services, game, {"words": ("FRANCE", "A", "MOS", "to", "BUR")}, "gm", clock()))
        done = repair(Call(session, services, game, {"words": ("FRANCE", "A", "MOS", "to", "BUR", "confirm")}, "gm",
                           clock()))
    assert "proposed, not done" in shown.text and "000 VIII(3)" in done.text
    assert set(_units(services, game_id)) == {"A PAR", "F BRE", "A BUR"}


def test_other_profiles_leave_a_surplus_unit_to_the_gm_by_hand(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="dutchman", ruleset="standard", position=POSITION)
    with pytest.raises(corrections.CorrectionError, match="by hand"):
        repairs.repair_unit(services, "dutchman", "FRANCE", "A MOS", None, clock(), confirm=True)
    assert "A MOS" in _units(services, game_id)
