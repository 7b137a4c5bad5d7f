"""000 VI(4) on a real database (datc_4a1 = mhr_hybrid): the disputed convoy is
flagged to the GM once, the GM rules it disrupted, and the re-adjudication applies the ruling."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gmserver import engine
from gmserver.db.models import OutboxMessage, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.position import Position
from gmserver.services.features import convoys, corrections
from gmserver.services.turn import preview, turns
from gmserver.services.base.outbox import message_bytes
from tests.support.outgoing import body_words as body_of
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
    # in the report's words, the notation the GM's ruling names beside them (QA: the preview said
    # "A LON - BEL (England) succeeded by ...")
    assert shown.disputes == ("England's A London -> Belgium (A LON - BEL) moved by one of 2 convoy routes, but "
                              "F English Channel of the army's own power, on a possible route, was dislodged: under house rules "
                              "000 VI(4), the convoy was disrupted and the move fails",)
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
        report = body_of(message_bytes(session.scalar(select(OutboxMessage).where(
            OutboxMessage.dedupe_key == f"report:{game_id}:S1901M:r1:ENGLAND"))))
    assert "000 VI(4)" in report


def test_other_profiles_keep_the_engine_s_all_routes_rule_and_no_ruling_is_taken(database_url, clock) -> None:
    services, game_id = _game(database_url, clock, "standard")
    assert preview.preview(services, "convoy", clock()).disputes == ()
    turns.adjudicate(services, game_id, clock(), force=True)
    assert _alerts(services) == []
    with pytest.raises(corrections.CorrectionError, match="000 VI\\(4\\)"):
        convoys.rule_convoy(services, "convoy", "A LON - BEL", "fails", clock())


# DATC 6.F.17 (Pandin's extended paradox): the engine's Szykman rule fails the convoy; 000 VI(6)'s
# 2000 rule keeps F LON's support of F WAL uncut, the Channel is a standoff (2 against 2), the
# convoy succeeds and A BRE, supported by F YOR, dislodges F LON.
PARADOX = Position.from_json({"phase": "S1901M", "centers": {"ENGLAND": ["LON"], "FRANCE": ["BRE"]},
                              "units": {"ENGLAND": ["F LON", "F WAL"], "FRANCE": ["A BRE", "F ENG", "F YOR"],
                                        "GERMANY": ["F BEL", "F NTH"]}})


@pytest.mark.parametrize(("ruleset", "arrives"), [("mhr", True), ("standard", False)])
def test_a_convoy_paradox_is_resolved_by_the_2000_rule_under_000_vi_6(database_url, clock, ruleset, arrives) -> None:
    """000 VI(6) (datc_4a2 = rb2000_all_hold_backup) decides DATC 6.F.17 at adjudication, the
    report says why; other profiles keep the engine's Szykman rule (A BRE stays)."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="convoy", ruleset=ruleset, position=PARADOX)
    for power, text in (("ENGLAND", "F LON S F WAL - ENG\nF WAL - ENG"),
                        ("FRANCE", "A BRE - LON\nF ENG C A BRE - LON\nF YOR S A BRE - LON"),
                        ("GERMANY", "F NTH S F BEL - ENG\nF BEL - ENG")):
        corrections.correct_orders(services, "convoy", power, text, clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    with transaction(services.sessions) as session:
        record = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game_id)
                                 .order_by(PhaseRecord.id.desc())).first()
        french = engine.position_from_state(record.state).units["FRANCE"]
        report = body_of(message_bytes(session.scalar(select(OutboxMessage).where(
            OutboxMessage.dedupe_key == f"report:{game_id}:S1901M:ENGLAND"))))
    assert ("A LON" in french) is arrives and ("A BRE" in french) is not arrives
    assert ("000 VI(6)" in report) is arrives
    assert _alerts(services) == []  # decided by the rule: nothing for the GM to rule on


def test_000_vi_3_the_route_written_is_followed_and_the_report_says_so(database_url, clock) -> None:
    """000 VI(3) (datc_4a6 = allowed_not_required): England names the Channel, whose fleet France
    dislodges; the North Sea fleet's convoy is off the route and void, so the army stays (the
    engine alone would have moved it by the North Sea, as in the first test)."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="convoy", ruleset="mhr", position=POSITION)
    for power, text in (("ENGLAND", "F ENG C A LON - BEL\nF NTH C A LON - BEL\nA Lon - Eng - Bel"),
                        ("FRANCE", "F BRE S F MAO - ENG\nF MAO - ENG")):
        corrections.correct_orders(services, "convoy", power, text, clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    assert "A LON" in _english_units(services, game_id) and "A BEL" not in _english_units(services, game_id)
    with transaction(services.sessions) as session:
        record = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game_id)
                                 .order_by(PhaseRecord.id)).first()
        assert "A LON - ENG - BEL" in record.orders["ENGLAND"] and "F NTH H" in record.orders["ENGLAND"]
        report = body_of(message_bytes(session.scalar(select(OutboxMessage).where(
            OutboxMessage.dedupe_key == f"report:{game_id}:S1901M:ENGLAND"))))
    assert "void, the army's route is English Channel (house rules 000 VI(3))" in report
    assert _alerts(services) == []  # the route's own fleet lost: the engine failed it, nothing to rule
