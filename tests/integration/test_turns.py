"""Deadlines on a real database: adjudicated exactly once, reports and reminders queued once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, OutboxMessage, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import message_bytes
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from tests.support.intake_rows import send_orders
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


@pytest.fixture
def game_id(world: Services) -> int:
    """The id of the shared `world`'s game, "lepanto"."""
    with transaction(world.sessions) as session:
        return session.scalar(select(Game.id).where(Game.name == "lepanto"))


def count(services, kind: str) -> int:
    with transaction(services.sessions) as session:
        return session.scalar(select(func.count(OutboxMessage.id)).where(OutboxMessage.kind == kind))


def game_row(services, game_id) -> Game:
    with transaction(services.sessions) as session:
        return session.get(Game, game_id)


def test_nothing_happens_before_the_deadline(world, game_id, clock) -> None:
    services = world
    assert turns.adjudicate(services, game_id, clock()) is None
    assert turns.adjudicate_due(services, clock()) == []


def test_a_due_phase_is_adjudicated_once_with_the_latest_orders(world, game_id, clock) -> None:
    services = world
    send_orders(services, clock(), "FRANCE", "A PAR - BUR", "S1901M")
    send_orders(services, clock(), "FRANCE", "A PAR - PIC\nA MAR - SPA", "S1901M")  # version 2 replaces version 1
    clock.advance(hours=48)
    [done] = turns.adjudicate_due(services, clock())
    assert (done.phase, done.next_phase, done.reports) == ("S1901M", "F1901M", 7)
    assert done.deadline == clock() + timedelta(hours=48)
    assert turns.adjudicate_due(services, clock()) == []
    assert turns.adjudicate(services, game_id, clock(), force=True, expected_phase="S1901M") is None
    with transaction(services.sessions) as session:
        state = session.scalar(select(PhaseRecord.state).where(PhaseRecord.phase == "F1901M"))
        spring = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == "S1901M"))
        assert spring.orders == {"FRANCE": ["A MAR - SPA", "A PAR - PIC"]}
        assert {"power": "GERMANY", "order": "A BER H", "results": [], "defaulted": True} in spring.results
    assert "A PIC" in engine.position_from_state(state).units["FRANCE"]
    assert count(services, "report") == 7


def test_concurrent_deadline_jobs_adjudicate_once(world, game_id, clock) -> None:
    services = world
    clock.advance(hours=49)
    results = []
    threads = [threading.Thread(target=lambda: results.append(
        turns.adjudicate(services, game_id, clock(), expected_phase="S1901M"))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r is not None for r in results) == 1
    assert count(services, "report") == 7
    with transaction(services.sessions) as session:
        assert session.scalar(select(func.count(PhaseRecord.id))) == 2


def test_reminders_go_once_to_powers_without_orders(world, game_id, clock) -> None:
    services = world
    send_orders(services, clock(), "ENGLAND", "F LON - NTH", "S1901M")
    assert turns.queue_reminders(services, clock()) == 0  # too early
    clock.advance(hours=25)
    assert turns.queue_reminders(services, clock()) == 6
    assert turns.queue_reminders(services, clock()) == 0
    with transaction(services.sessions) as session:
        recipients = set(session.scalars(select(OutboxMessage.recipient).where(OutboxMessage.kind == "reminder")))
    assert player_address("ENGLAND") not in recipients and len(recipients) == 6


def test_a_whole_year_reaches_the_builds_and_the_next_spring(world, game_id, clock) -> None:
    services = world
    send_orders(services, clock(), "RUSSIA", "F SEV - RUM\nA WAR - GAL", "S1901M")
    clock.advance(hours=48)
    turns.adjudicate_due(services, clock())
    send_orders(services, clock(), "RUSSIA", "F RUM H", "F1901M")
    clock.advance(hours=48)
    [fall] = turns.adjudicate_due(services, clock())
    assert fall.next_phase == "W1901A"
    send_orders(services, clock(), "RUSSIA", "Build F Sev", "W1901A")
    clock.advance(hours=24)
    [winter] = turns.adjudicate_due(services, clock())
    assert winter.next_phase == "S1902M"
    with transaction(services.sessions) as session:
        state = session.scalar(select(PhaseRecord.state).where(PhaseRecord.phase == "S1902M"))
    position = engine.position_from_state(state)
    assert "F SEV" in position.units["RUSSIA"] and "RUM" in position.centers["RUSSIA"]
    assert game_row(services, game_id).phase == "S1902M"


def test_merge_per_unit_combines_sets_000_III_4(database_url, clock) -> None:
    """000 III(4): a later set replaces only the units it orders (set_combination = merge_per_unit)."""
    services = services_for(database_url)
    new_game(services, clock(), name="mhrgame", ruleset="mhr")
    for body in ("A Par-Bur\nA Mar-Spa", "A Par-Pic"):
        subject = format_subject(template="mhr", game_name="mhrgame", power="FRANCE", phase="S1901M",
                                 purpose="orders")
        intake.store(services.sessions, order_mail(player_address("FRANCE"), subject, body), source="smtp",
                     now=clock())
        intake.process_pending(services, clock())
    clock.advance(hours=48)
    turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        spring = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == "S1901M"))
    assert spring.orders == {"FRANCE": ["A MAR - SPA", "A PAR - PIC"]}


def test_replace_keeps_only_the_latest_set_datc_4_d_1(world, clock) -> None:
    """standard (DATC 4.D.1): a new set replaces the whole set on file."""
    services = world
    send_orders(services, clock(), "FRANCE", "A Par-Bur\nA Mar-Spa", "S1901M")
    send_orders(services, clock(), "FRANCE", "A Par-Pic", "S1901M")
    clock.advance(hours=48)
    turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        spring = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == "S1901M"))
    assert spring.orders == {"FRANCE": ["A PAR - PIC"]}


def _impossible_move_with_foreign_hold_support(database_url, clock, ruleset: str) -> list[dict]:
    from gmserver.rules.position import Position

    services = services_for(database_url)
    position = Position.from_json({"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]},
                                   "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"]}})
    new_game(services, clock(), name="supports", ruleset=ruleset, position=position)
    for power, body in (("FRANCE", "A Par-Mos"), ("GERMANY", "A Bur S French A Par")):
        subject = format_subject(template=load_ruleset(ruleset).subject_template, game_name="supports",
                                 power=power, phase="S1901M", purpose="orders")
        intake.store(services.sessions, order_mail(player_address(power), subject, body), source="smtp",
                     now=clock())
    intake.process_pending(services, clock())
    clock.advance(hours=48)
    assert turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        spring = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == "S1901M"))
        report = session.scalar(select(OutboxMessage).where(OutboxMessage.kind == "report"))
    return spring.results, " ".join(message_bytes(report).decode().split())


def test_impossible_move_cannot_be_supported_to_hold_under_mhr_000_III_5(database_url, clock) -> None:
    """000 III(5) ¶1: an impossible move leaves the unit in place, but hold supports for it are
    void, another power's included; the report shows the support as void."""
    results, report = _impossible_move_with_foreign_hold_support(database_url, clock, "mhr")
    why = ("the supported unit was ordered to make a move it could not make: it stands, but may not be "
           "supported to hold (house rules 000 III(5))")
    assert {"power": "GERMANY", "order": "A BUR S A PAR", "results": ["void"], "defaulted": False,
            "note": why} in results
    # QA: a bare "void" told the player nothing; the reason and the clause follow it
    assert f"(A BUR S A PAR): void ({why})" in report


def test_impossible_move_may_be_supported_to_hold_under_standard_datc_4_e_1(database_url, clock) -> None:
    """DATC 4.E.1 (hold_supportable): the void move is a hold, and hold support counts."""
    results, report = _impossible_move_with_foreign_hold_support(database_url, clock, "standard")
    assert {"power": "GERMANY", "order": "A BUR S A PAR", "results": [], "defaulted": False} in results
    assert "(A BUR S A PAR): support given" in report  # QA: was a bare "succeeded"


def test_version_markers_order_the_sets_under_danivon_001_II_7(database_url, clock) -> None:
    """001 II(7) ¶1 (set_ordering = version_then_receipt): a "#2" set received before a late "#1"
    set stays in force."""
    services = services_for(database_url)
    new_game(services, clock(), name="dan", ruleset="danivon")
    base = format_subject(template="danivon", game_name="dan", power="FRANCE", phase="S1901M", purpose="orders")
    for marker, body in (("#2", "A Par-Pic"), ("#1", "A Par-Bur")):
        intake.store(services.sessions, order_mail(player_address("FRANCE"), f"{base} {marker}", body),
                     source="smtp", now=clock())
        intake.process_pending(services, clock())
        clock.advance(minutes=5)
    clock.advance(hours=72)
    assert turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        spring = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == "S1901M"))
    assert spring.orders == {"FRANCE": ["A PAR - PIC"]}


def test_receipt_order_decides_under_mhr_000_III_4(database_url, clock) -> None:
    """000 III(4) (set_ordering = receipt_time): the most recently received set wins, whatever
    its version number says."""
    services = services_for(database_url)
    new_game(services, clock(), name="mhrv", ruleset="mhr")
    for version, body in (("[2]", "A Par-Pic"), ("[1]", "A Par-Bur")):
        subject = format_subject(template="mhr", game_name="mhrv", power="FRANCE", phase="S1901M",
                                 purpose="orders").replace("[1]", version)
        intake.store(services.sessions, order_mail(player_address("FRANCE"), subject, body), source="smtp",
                     now=clock())
        intake.process_pending(services, clock())
        clock.advance(minutes=5)
    clock.advance(hours=48)
    assert turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        spring = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == "S1901M"))
    assert spring.orders == {"FRANCE": ["A PAR - BUR"]}


def _report_rows(services) -> list:
    import email
    import email.policy
    with transaction(services.sessions) as session:
        rows = [message_bytes(row) for row in session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "report"))]
    return [email.message_from_bytes(raw, policy=email.policy.default) for raw in rows]


def test_reports_carry_the_map_and_the_deadline_ics_and_no_chart_before_a_fall(world, game_id, clock) -> None:
    """Every player's report is the same multipart mail; the chart needs two years of the
    game's history: after Spring 1901 the centres are still the starting ones (S1901M and F1901M
    are one point, "start"), so the report has the map alone."""
    services = world
    clock.advance(hours=48)
    turns.adjudicate_due(services, clock())
    reports = _report_rows(services)
    assert len(reports) == 7
    for report in reports:
        parts = [p.get_content_type() for p in report.walk()]
        assert parts.count("image/png") == 1 and "text/calendar" in parts  # the map, no chart of one point
        assert report.get_body(("plain",)).get_content().splitlines()[:2] == [":: Game: lepanto", ":: Phase: S1901M"]


def test_a_map_that_cannot_be_drawn_costs_the_image_never_the_report(world, game_id, clock, monkeypatch, request) -> None:
    from gmserver import mapimage
    from gmserver.services.base import report_copies as report_mail

    def broken(*args, **kwargs):
        raise OSError("no libcairo here")
    monkeypatch.setattr(mapimage, "map_png", broken)
    report_mail.forget_written()  # a report written before in this process is not drawn again
    # nor is this one, written without its map, used by a later test whose report is the same
    request.addfinalizer(report_mail.forget_written)
    services = world
    clock.advance(hours=48)
    [done] = turns.adjudicate_due(services, clock())
    assert done.reports == 7
    for report in _report_rows(services):
        parts = [p.get_content_type() for p in report.walk()]
        assert "image/png" not in parts and "text/html" in parts and "text/plain" in parts
        assert "cid:" not in report.get_body(("html",)).get_content()


def test_a_batch_of_games_due_at_once_each_exactly_once_and_a_failing_one_alone_left(world, game_id, clock,
                                                                                      monkeypatch) -> None:
    """The sweep adjudicates the games due in batches, one transaction each: a game whose
    adjudication fails rolls its batch back and the batch is done again without it (the others of
    its batch, batch1 before it among them, advance once, their reports queued once), and the next
    sweep does it; none is adjudicated twice."""
    services = world
    for n in range(4):
        new_game(services, clock(), name=f"batch{n}")
    real = turns.compute_outcome

    def failing_for_batch2(session, services, game, *args, **kwargs):
        if game.name == "batch2":
            raise RuntimeError("a failure in one game")
        return real(session, services, game, *args, **kwargs)

    monkeypatch.setattr(turns, "compute_outcome", failing_for_batch2)
    clock.advance(hours=48)
    done = turns.adjudicate_due(services, clock(), batch=2)
    assert sorted(d.game for d in done) == ["batch0", "batch1", "batch3", "lepanto"]
    assert turns.adjudicate_due(services, clock(), batch=2) == []  # still failing; the others are done
    with transaction(services.sessions) as session:
        phases = dict(session.execute(select(Game.name, Game.phase)).all())
        reports = dict(session.execute(select(Game.name, func.count(OutboxMessage.id)).join(
            OutboxMessage, OutboxMessage.game_id == Game.id).where(OutboxMessage.kind == "report")
            .group_by(Game.name)).all())
    assert phases == {"lepanto": "F1901M", "batch0": "F1901M", "batch1": "F1901M", "batch2": "S1901M",
                      "batch3": "F1901M"}
    assert reports == {"lepanto": 7, "batch0": 7, "batch1": 7, "batch3": 7}
    monkeypatch.setattr(turns, "compute_outcome", real)
    assert [d.game for d in turns.adjudicate_due(services, clock(), batch=2)] == ["batch2"]
    assert count(services, "report") == 5 * 7


def test_a_database_out_of_reach_leaves_the_whole_batch_to_the_next_sweep(world, game_id, clock, monkeypatch) -> None:
    """A database error is no one game's failure: the batch is not done again game after game
    (each would fail in turn), it is left whole, and the next sweep does every game once."""
    services = world
    new_game(services, clock(), name="batch0")
    real, tried = turns.compute_outcome, []

    def unreachable(session, services, game, *args, **kwargs):
        tried.append(game.name)
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection unexpectedly"))

    monkeypatch.setattr(turns, "compute_outcome", unreachable)
    clock.advance(hours=48)
    assert turns.adjudicate_due(services, clock(), batch=2) == []
    assert len(tried) == 1
    monkeypatch.setattr(turns, "compute_outcome", real)
    assert sorted(d.game for d in turns.adjudicate_due(services, clock(), batch=2)) == ["batch0", "lepanto"]
    assert count(services, "report") == 2 * 7


def test_a_report_key_already_taken_has_the_batch_done_again_with_each_games_writes_at_once(world, game_id, clock,
                                                                                           caplog) -> None:
    """The batch's writes are sent together without looking the report keys up first: one taken
    (a copy queued before) fails them, and the batch is done again with each game's writes at
    once, which sees the copy there and leaves it: every game advances once, no copy twice."""
    services = world
    other = new_game(services, clock(), name="batch0")
    with transaction(services.sessions) as session:
        session.add(OutboxMessage(message_id="<before@gm.test>", dedupe_key=f"report:{other}:S1901M:FRANCE",
                                  kind="report", game_id=other, sender="gm@gm.test", recipient=player_address("FRANCE"),
                                  stored=b"", status="pending", attempts=0, next_attempt_at=clock(),
                                  created_at=clock()))
    clock.advance(hours=48)
    done = turns.adjudicate_due(services, clock(), batch=2)
    assert sorted(d.game for d in done) == ["batch0", "lepanto"]
    assert [d.reports for d in sorted(done, key=lambda d: d.game)] == [6, 7]
    assert "done again, each game's at once" in caplog.text
    assert count(services, "report") == 1 + 6 + 7
    assert {game_row(services, g).phase for g in (game_id, other)} == {"F1901M"}


def test_a_database_out_of_reach_as_the_writes_go_leaves_the_whole_batch_to_the_next_sweep(world, game_id, clock,
                                                                                          monkeypatch) -> None:
    services = world
    new_game(services, clock(), name="batch0")
    real, tried = queries.rows.HeldWrites.send, []

    def unreachable(self) -> None:  # type: ignore[no-untyped-def]
        if self.updates:  # the batch's writes
            tried.append(len(self.updates))
            error = OperationalError("UPDATE games", {}, Exception("server closed the connection unexpectedly"))
            raise queries.rows.HeldWritesFailed("the held writes failed") from error
        real(self)

    monkeypatch.setattr(queries.rows.HeldWrites, "send", unreachable)
    clock.advance(hours=48)
    assert turns.adjudicate_due(services, clock(), batch=2) == []
    assert tried == [4]  # two games' records and rows, once: not done again game after game
    assert {game_row(services, g).phase for g in (game_id,)} == {"S1901M"} and count(services, "report") == 0
    monkeypatch.setattr(queries.rows.HeldWrites, "send", real)
    assert sorted(d.game for d in turns.adjudicate_due(services, clock(), batch=2)) == ["batch0", "lepanto"]
    assert count(services, "report") == 2 * 7
