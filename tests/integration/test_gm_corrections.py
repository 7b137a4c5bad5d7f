"""GM corrections on a real database: an order set written by the GM, a preview
that publishes nothing, and the rollback of the last adjudication within the correction window,
re-adjudicated exactly once with its own reports."""

from __future__ import annotations

import email
import email.policy
import threading
from datetime import timedelta

import icalendar
import pytest
from sqlalchemy import func, select

from gmserver import engine
from gmserver.db.models import Game, OrderSet, OutboxMessage, PhaseRecord
from gmserver.db.session import transaction
from gmserver.services.base.outbox import message_bytes
from gmserver.services.features import corrections
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import preview, turns
from tests.support.intake_rows import game_row, send_orders
from tests.support.outgoing import body_words as body_of
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def send(services, clock, power: str, body: str, phase: str, *, game: str = "lepanto",
         template: str = "standard") -> None:
    send_orders(services, clock(), power, body, phase, game=game, template=template)


def mail(services, kind: str) -> list[tuple[str, str, str]]:
    with transaction(services.sessions) as session:
        return [(m.recipient, m.dedupe_key, body_of(message_bytes(m))) for m in session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == kind).order_by(OutboxMessage.id))]


def game_of(services, game_id: int) -> Game:
    with transaction(services.sessions) as session:
        return session.get(Game, game_id)


def phases(services, game_id: int) -> list[tuple[str, bool, int]]:
    with transaction(services.sessions) as session:
        return [(r.phase, r.adjudicated_at is not None, r.revision) for r in session.scalars(
            select(PhaseRecord).where(PhaseRecord.game_id == game_id).order_by(PhaseRecord.id))]


def units(services, game_id: int, phase: str) -> dict:
    with transaction(services.sessions) as session:
        state = session.scalar(select(PhaseRecord.state).where(PhaseRecord.game_id == game_id,
                                                               PhaseRecord.phase == phase))
    return engine.position_from_state(state).units


@pytest.fixture
def world(make_world):
    services = make_world()
    return services, game_row(services).id


def test_the_gm_files_a_corrected_set_read_like_a_player_s_and_the_player_is_told(world, clock) -> None:
    services, game_id = world
    send(services, clock, "FRANCE", "A PAR - PIC", "S1901M")
    done = corrections.correct_orders(services, "lepanto", "france", "A Par-Bur\nF Bre - Mid", clock())
    assert (done.power, done.phase, done.version) == ("FRANCE", "S1901M", 2)
    assert sorted(done.on_file) == ["A PAR - BUR", "F BRE - MAO"]  # replace (DATC 4.D.1) under standard
    with transaction(services.sessions) as session:
        latest = session.scalar(select(OrderSet).where(OrderSet.version == 2))
        assert latest.by_gm and latest.inbound_id is None
    [(to, key, text)] = mail(services, "gm-orders")
    assert to == player_address("FRANCE") and key == f"gm-orders:{game_id}:S1901M:FRANCE:2"
    assert "corrected order set" in text and "A PAR - BUR" in text
    turns.adjudicate(services, game_id, clock(), force=True)
    assert "A BUR" in units(services, game_id, "F1901M")["FRANCE"]


def test_a_gm_set_with_a_line_that_cannot_be_read_is_not_filed(world, clock) -> None:
    services, _ = world
    with pytest.raises(corrections.CorrectionError, match="not filed"):
        corrections.correct_orders(services, "lepanto", "FRANCE", "A PAR - BUR\nA Xyz - Qqq", clock())
    with transaction(services.sessions) as session:
        assert session.scalar(select(func.count(OrderSet.id))) == 0
    assert mail(services, "gm-orders") == []


def test_a_preview_shows_the_results_and_stores_and_sends_nothing(world, clock) -> None:
    services, game_id = world
    send(services, clock, "FRANCE", "A PAR - BUR", "S1901M")
    send(services, clock, "GERMANY", "A MUN - BUR", "S1901M")
    before = mail(services, "confirmation")
    shown = preview.preview(services, "lepanto", clock())
    assert (shown.phase, shown.next_phase) == ("S1901M", "F1901M")
    assert shown.orders["FRANCE"] == ("A PAR - BUR",) and "bounce" in shown.text.lower()
    assert phases(services, game_id) == [("S1901M", False, 0)]
    assert game_of(services, game_id).phase == "S1901M"
    assert mail(services, "report") == [] and mail(services, "confirmation") == before


def _adjudicated_spring(services, clock, game_id) -> None:
    send(services, clock, "FRANCE", "A PAR - BUR", "S1901M")
    clock.advance(hours=48)
    [done] = turns.adjudicate_due(services, clock())
    assert done.next_phase == "F1901M"


def test_a_rollback_reopens_the_turn_announces_it_and_is_re_adjudicated_once_000_VIII_1(world, clock) -> None:
    """000 VIII(1), 002 GM ERRORS 4: the last adjudication is undone, every player is told, the GM
    corrects the orders on file and the turn is adjudicated again with reports of its own."""
    services, game_id = world
    _adjudicated_spring(services, clock, game_id)
    send(services, clock, "FRANCE", "A BUR - MUN", "F1901M")  # sent for the turn that will be undone
    send(services, clock, "ITALY", "A VEN H", "F1901M")
    clock.advance(hours=2)
    done = corrections.rollback(services, "lepanto", clock())
    assert (done.phase, done.undone, done.deadline, done.notices) == ("S1901M", "F1901M", None, 7)
    game = game_of(services, game_id)
    assert (game.phase, game.deadline, game.status) == ("S1901M", None, "active")
    assert phases(services, game_id) == [("S1901M", False, 1)]
    notices = mail(services, "correction")
    assert {to for to, _, _ in notices} == {player_address(p) for p in
                                            ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")}
    assert "CORRECTION" in notices[0][2] and "never replayed" in notices[0][2]
    assert turns.adjudicate_due(services, clock() + timedelta(days=30)) == []  # it waits for the GM

    corrections.correct_orders(services, "lepanto", "FRANCE", "A PAR - PIC", clock())
    redone = turns.adjudicate(services, game_id, clock(), force=True)
    assert (redone.phase, redone.next_phase, redone.reports) == ("S1901M", "F1901M", 7)
    assert "A PIC" in units(services, game_id, "F1901M")["FRANCE"]
    reports = mail(services, "report")
    keys = [key for _, key, _ in reports]
    assert len(keys) == 14 and sum(f"report:{game_id}:S1901M:r1:" in key for key in keys) == 7
    # same subject as the first results: the corrected report says it replaces them
    assert ["CORRECTED RESULTS" in " ".join(text.split()) for _, key, text in reports] == [False] * 7 + [True] * 7
    # the correction notice gives no reason (the GM gives none to the rollback): the report must not
    # send the players to it for one
    assert "CORRECTION" in notices[0][2] and "why" not in " ".join(notices[0][2].split())
    assert not any("said why" in " ".join(text.split()) for _, _, text in reports)
    assert phases(services, game_id) == [("S1901M", True, 1), ("F1901M", False, 0)]
    with transaction(services.sessions) as session:
        spring = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == "S1901M"))
        assert spring.superseded[0]["orders"] == {"FRANCE": ["A PAR - BUR"]}
        # the Fall set sent before the correction stays on file, read against the corrected position
        assert session.scalar(select(func.count(OrderSet.id)).where(OrderSet.phase == "F1901M")) == 2
    told = {to: text for to, _, text in mail(services, "revalidated")}  # their senders are told
    assert set(told) == {player_address("FRANCE"), player_address("ITALY")}
    assert "THESE NO LONGER FIT THE POSITION" in told[player_address("FRANCE")]
    assert "A BUR - MUN" in told[player_address("FRANCE")]
    assert "All of them still fit the position" in told[player_address("ITALY")]


def test_only_the_last_adjudication_can_be_rolled_back_and_only_once(world, clock) -> None:
    """001 VI(1), 002 GM ERRORS 2: an error not corrected before the next adjudication stands."""
    services, game_id = world
    _adjudicated_spring(services, clock, game_id)
    clock.advance(hours=48)
    [fall] = turns.adjudicate_due(services, clock())
    corrections.rollback(services, "lepanto", clock())
    assert game_of(services, game_id).phase == "F1901M"
    with pytest.raises(corrections.CorrectionError, match="rolled back already.*Spring 1901.*stands"):
        corrections.rollback(services, "lepanto", clock())  # Fall waits; Spring was published before it
    assert len(mail(services, "correction")) == 7
    assert [p for p, _, _ in phases(services, game_id)] == ["S1901M", "F1901M"]


def test_two_rollbacks_at_once_undo_one_adjudication(world, clock) -> None:
    services, game_id = world
    _adjudicated_spring(services, clock, game_id)
    outcomes: list[str] = []

    def roll() -> None:
        try:
            corrections.rollback(services, "lepanto", clock(), expected_phase="F1901M")
            outcomes.append("rolled back")
        except corrections.CorrectionError:
            outcomes.append("refused")

    threads = [threading.Thread(target=roll) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "refused", "rolled back"]
    assert len(mail(services, "correction")) == 7 and phases(services, game_id) == [("S1901M", False, 1)]


def test_players_cannot_replace_the_orders_of_a_rolled_back_turn_002_GM_ERRORS_5(database_url, clock) -> None:
    """002 GM ERRORS 5: "Under no circumstances will a season be replayed"."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="errors", ruleset="email_rules")
    send(services, clock, "FRANCE", "A PAR - BUR", "S1901M", game="errors", template="email_rules")
    turns.adjudicate(services, game_id, clock(), force=True)
    with pytest.raises(corrections.CorrectionError, match="002 GM ERRORS 5"):
        corrections.rollback(services, "errors", clock(), replay=True)
    corrections.rollback(services, "errors", clock())
    send(services, clock, "FRANCE", "A PAR - PIC", "S1901M", game="errors", template="email_rules")
    [(_, _, refusal)] = mail(services, "rejection")
    assert "never replayed" in refusal and "002 GM ERRORS 5" in refusal
    with transaction(services.sessions) as session:
        assert session.scalar(select(func.count(OrderSet.id))) == 1


def test_mhr_corrects_only_within_24_hours_000_VIII_1(database_url, clock) -> None:
    """000 VIII(1): errors brought to the GM within 24 hours are corrected (correction_window =
    24h_and_before_next); after that the result stands."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="mhrgame", ruleset="mhr")
    turns.adjudicate(services, game_id, clock(), force=True)
    clock.advance(hours=25)
    with pytest.raises(corrections.CorrectionError, match="24 hours"):
        corrections.rollback(services, "mhrgame", clock())
    assert game_of(services, game_id).phase == "F1901M" and mail(services, "correction") == []
    # an error reported to the GM within the 24 hours is corrected, even a little later
    corrections.rollback(services, "mhrgame", clock(), reported=clock() - timedelta(hours=2))
    assert game_of(services, game_id).phase == "S1901M"


def _delay(services, clock, power: str) -> str:
    row_id = intake.store(services.sessions, order_mail(player_address(power), "errors", "DELAY please"),
                          source="smtp", now=clock()).id
    return intake.process_one(services, row_id, clock())


def test_after_a_correction_one_request_is_enough_for_an_extension_002_GM_ERRORS_3(database_url, clock) -> None:
    """002 GM ERRORS 3 (extension_after_correction = on_single_request): "A player may ask for an
    extension after the GM corrects an error. Only one request is necessary": the first delay
    request in the turn after the correction extends it for everyone, once."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="errors", ruleset="email_rules", movement_hours=48)
    with transaction(services.sessions) as session:  # Fall follows Spring here, without 002 PRESS 7's empty
        game = session.get(Game, game_id)  # retreat turn (tests/integration/test_press_email_rules.py)
        game.ruleset = {**game.ruleset, "report_empty_retreat_season": False}
    # no correction yet: an ordinary delay, granted under 002 ORDERS 0 [P] (services/features/delays.py): Spring +48 h
    assert _delay(services, clock, "ITALY") == "delay-granted"
    turns.adjudicate(services, game_id, clock(), force=True)
    first = game_of(services, game_id).deadline
    clock.advance(hours=20)
    corrections.rollback(services, "errors", clock())
    clock.advance(hours=4)
    redone = turns.adjudicate(services, game_id, clock(), force=True)
    assert redone.deadline == first  # the first deadline stands until someone asks
    clock.advance(hours=80)  # the schedule put Fall 144 h after the start (96 h + 48 h): a turn from now is later
    assert _delay(services, clock, "FRANCE") == "delay-granted"
    extended = game_of(services, game_id).deadline
    assert extended > first and extended >= clock() + timedelta(hours=48)  # a whole turn from the request
    [(_, _, answer)] = [m for m in mail(services, "notice") if m[0] == player_address("FRANCE")]
    assert "one request is enough (house rules 002 GM ERRORS 3)" in answer
    # the answer moves the calendar event of the turn to the new deadline, as the notices do
    with transaction(services.sessions) as session:
        row = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "notice",
                                                          OutboxMessage.recipient == player_address("FRANCE"))
                              .order_by(OutboxMessage.id.desc())).first()
        [event] = icalendar.Calendar.from_ical(next(
            p for p in email.message_from_bytes(row.raw, policy=email.policy.default).walk()
            if p.get_content_type() == "text/calendar").get_content()).walk("VEVENT")
    assert event.decoded("dtstart") == extended
    assert len([m for m in mail(services, "gm-action") if "one request is enough" in m[2]]) == 7  # every player
    # once per correction: Italy, who had the ordinary delay of 1901 already, is referred to the GM
    assert _delay(services, clock, "ITALY") == "delay-to-gm"
    assert game_of(services, game_id).deadline == extended


def test_without_a_request_rule_the_first_deadline_stands_after_a_correction(world, clock) -> None:
    """extension_after_correction = gm_decides: the GM may move it; a delay request waits for the GM."""
    services, game_id = world
    turns.adjudicate(services, game_id, clock(), force=True)
    first = game_of(services, game_id).deadline
    clock.advance(hours=20)
    corrections.rollback(services, "lepanto", clock())
    redone = turns.adjudicate(services, game_id, clock(), force=True)
    assert redone.deadline == first
    row_id = intake.store(services.sessions, order_mail(player_address("FRANCE"), "lepanto", "DELAY please"),
                          source="smtp", now=clock()).id
    assert intake.process_one(services, row_id, clock()) == "delay-to-gm"  # standard: delay_policy = gm_decides
    assert game_of(services, game_id).deadline == first


def test_a_rolled_back_turn_s_missed_orders_are_counted_once(world, clock) -> None:
    """The re-adjudication of a rolled-back turn does not count its missed turns again."""
    from gmserver.db.models import Player

    services, game_id = world
    _adjudicated_spring(services, clock, game_id)  # six powers sent nothing

    def missed() -> dict[str, int]:
        with transaction(services.sessions) as session:
            players = session.scalars(select(Player).where(Player.game_id == game_id))
            return {p.power: p.missed_in_a_row for p in players}

    assert missed()["GERMANY"] == 1 and missed()["FRANCE"] == 0
    corrections.rollback(services, "lepanto", clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    assert missed()["GERMANY"] == 1 and missed()["FRANCE"] == 0


def test_a_two_season_year_is_rolled_back_whole_003_5(database_url, clock) -> None:
    """003 [5]: the builds sent with the Fall moves were applied in the same adjudication; its
    rollback reopens the Fall moves and undoes the winter with them."""
    from gmserver.rules.position import Position

    fall = Position.from_json({"phase": "F1901M", "units": {"RUSSIA": ["F RUM", "A MOS"], "TURKEY": ["A CON"]},
                               "centers": {"RUSSIA": ["MOS", "SEV", "STP", "WAR"], "TURKEY": ["ANK", "CON", "SMY"]}})
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="uk", ruleset="scorpion", position=fall)
    send(services, clock, "RUSSIA", "F RUM H\nA MOS H\nBuild F SEV", "F1901M", game="uk", template="scorpion")
    turns.adjudicate(services, game_id, clock(), force=True)
    assert [p for p, _, _ in phases(services, game_id)] == ["F1901M", "W1901A", "S1902M"]
    assert "F SEV" in units(services, game_id, "S1902M")["RUSSIA"]
    done = corrections.rollback(services, "uk", clock())
    assert (done.phase, done.undone) == ("F1901M", "S1902M")
    assert phases(services, game_id) == [("F1901M", False, 1)]
    assert game_of(services, game_id).phase == "F1901M"


def test_a_gm_set_refused_names_the_power_not_you(world, clock) -> None:
    """The reader speaks to a player ("You have no unit in Picardy"); said to the GM, it names the
    power whose orders the GM wrote (QA walkthrough)."""
    services, _ = world
    with pytest.raises(corrections.CorrectionError, match="Austria has no unit in Picardy") as refused:
        corrections.correct_orders(services, "lepanto", "AUSTRIA", "A PIC - BUR", clock())
    assert "You have" not in str(refused.value)
    with pytest.raises(corrections.CorrectionError, match="The unit in Paris is France's, not Austria's"):
        corrections.correct_orders(services, "lepanto", "AUSTRIA", "A PAR - BUR", clock())


def test_the_correction_mail_lists_the_orders_on_file_in_the_report_s_words(world, clock) -> None:
    services, _ = world
    corrections.correct_orders(services, "lepanto", "france", "A Par-Bur\nF Bre - Mid", clock())
    [(_, _, text)] = mail(services, "gm-orders")
    on_file = text.split("ORDERS ON FILE FOR FRANCE NOW")[1]
    assert "A Paris -> Burgundy (A PAR - BUR)" in on_file
    assert "F Brest -> Mid-Atlantic Ocean (F BRE - MAO)" in on_file
