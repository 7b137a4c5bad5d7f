"""000 VIII(2), VIII(3) on a real database (extra_unit_repair = mhr): the audit replays
the stored orders of the last year, finds a unit the orders do not give, tells the GM with the
repair 000 VIII proposes; the repair done, the audit finds nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gmserver import engine
from gmserver.commands.command import Call
from gmserver.commands.registry import BY_WORD
from gmserver.db.models import OutboxMessage, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.position import Position
from gmserver.services.features import audit, corrections, repairs
from gmserver.services.turn import turns
from tests.support.outgoing import body_words as body_of
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.integration

POSITION = Position.from_json({"phase": "S1902M", "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["BER", "KIE"]},
                               "units": {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A BER", "F KIE"]}})


def _alerts(services) -> list[str]:
    with transaction(services.sessions) as session:
        return [body_of(m.raw) for m in session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "alert"))]


def _edit_board_by_hand(services, game_id, units) -> None:
    """A board changed outside the rules (a GM's slip, a faulty correction): no action recorded."""
    with transaction(services.sessions) as session:
        record = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game_id)
                                 .order_by(PhaseRecord.id.desc())).first()
        record.state = engine.with_units(record.state, "FRANCE", units)


def test_000_VIII_2_the_audit_finds_the_surplus_unit_and_proposes_its_removal(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="dutchman", ruleset="mhr", position=POSITION)
    corrections.correct_orders(services, "dutchman", "FRANCE", "A PAR - BUR\nF BRE - MAO", clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    clean = audit.audit_game(services, "dutchman", clock())
    assert clean.replayed == ("S1902M",) and clean.differences == () and not clean.told_gm

    _edit_board_by_hand(services, game_id, ["A BUR", "F MAO", "A MOS"])
    found = audit.audit_game(services, "dutchman", clock())
    assert found.differences == ("Fall 1902 Movement: France has A MOS, which the orders of Spring 1902 Movement "
                                 "do not give it (a surplus unit, house rules 000 VIII(2))",)
    assert found.repairs == ('gmserver game repair dutchman FRANCE "A MOS"',) and found.told_gm
    [mail] = [a for a in _alerts(services) if "audit" in a or "000 VIII" in a]
    assert "A MOS" in mail and 'gmserver game repair dutchman FRANCE "A MOS"' in mail

    repairs.repair_unit(services, "dutchman", "FRANCE", "A MOS", None, clock(), confirm=True)
    assert audit.audit_game(services, "dutchman", clock()).differences == ()


def test_000_VIII_3_a_misplaced_unit_is_moved_back_where_the_orders_put_it(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="dutchman", ruleset="mhr", position=POSITION)
    corrections.correct_orders(services, "dutchman", "FRANCE", "A PAR - BUR\nF BRE - MAO", clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    _edit_board_by_hand(services, game_id, ["A PIC", "F MAO"])  # the army stood in Picardy, not Burgundy
    found = audit.audit_game(services, "dutchman", clock(), notify=False)
    assert found.repairs == ('gmserver game repair dutchman FRANCE "A PIC" --to BUR',) and not found.told_gm
    repairs.repair_unit(services, "dutchman", "FRANCE", "A PIC", "BUR", clock(), confirm=True)
    assert audit.audit_game(services, "dutchman", clock()).differences == ()


def test_other_profiles_get_the_differences_and_no_repair_proposed(database_url, clock) -> None:
    """extra_unit_repair = gm_manual (every profile but mhr): the GM repairs by hand."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="dutchman", ruleset="standard", position=POSITION)
    corrections.correct_orders(services, "dutchman", "FRANCE", "A PAR - BUR\nF BRE - MAO", clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    _edit_board_by_hand(services, game_id, ["A BUR", "F MAO", "A MOS"])
    found = audit.audit_game(services, "dutchman", clock())
    assert len(found.differences) == 1 and found.repairs == () and found.told_gm


def test_the_gm_audits_by_mail_and_reads_the_repair_to_write(database_url, clock) -> None:
    """The `audit` mail command: the differences and the repair, as the GM writes it by mail."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="dutchman", ruleset="mhr", position=POSITION)
    corrections.correct_orders(services, "dutchman", "FRANCE", "A PAR - BUR\nF BRE - MAO", clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    _edit_board_by_hand(services, game_id, ["A BUR", "F MAO", "A MOS"])
    with transaction(services.sessions) as session:
        game = corrections.locked_game(session, "dutchman")
        done = BY_WORD["audit"].run(Call(session, services, game, {}, "gm", clock()))
    assert "France has A MOS" in done.text and done.text.endswith("Proposed (000 VIII): repair FRANCE A MOS.")
