"""Missed orders, civil disorder, replacement and the Spring 1901 wait on a real database (issue 8)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, OutboxMessage, PlayerHistory
from gmserver.db.session import transaction
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services import intake, turns
from gmserver.services.games import GameError, game_summary
from gmserver.services.players import player_history, replace_player, set_civil_disorder
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

ALL = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def send(services, clock, game: str, ruleset: str, power: str, body: str, phase: str,
         address: str | None = None) -> None:
    subject = format_subject(template=load_ruleset(ruleset).subject_template, game_name=game, power=power,
                             phase=phase, purpose="orders")
    intake.store(services.sessions, order_mail(address or player_address(power), subject, body), source="smtp",
                 now=clock())
    intake.process_pending(services, clock())


def hold_all(services, clock, game: str, ruleset: str, powers, phase: str) -> None:
    units = {"AUSTRIA": "A VIE H", "ENGLAND": "F LON H", "FRANCE": "A PAR H", "GERMANY": "A BER H",
             "ITALY": "A ROM H", "RUSSIA": "A MOS H", "TURKEY": "A CON H"}
    for power in powers:
        send(services, clock, game, ruleset, power, units[power], phase)


def summary(services, game_id) -> dict:
    with transaction(services.sessions) as session:
        return game_summary(session, session.get(Game, game_id))


def alerts(services) -> list[OutboxMessage]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "alert")
                                    .order_by(OutboxMessage.id)))


def text(message: OutboxMessage) -> str:
    return " ".join(message.raw.decode().split())


def test_scorpion_waits_for_replacements_when_two_powers_are_silent_in_spring_1901_003_14(database_url, clock):
    """003 [14] "The GM won't adjudicate if there's an NMR in spring 1901 ... we will look for a
    replacement": not adjudicated at the deadline, the GM alerted; once both silent powers have
    new players a new deadline is set and the game goes on."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="darkside", ruleset="scorpion")
    hold_all(services, clock, "darkside", "scorpion", ALL[:5], "S1901M")
    clock.advance(hours=49)
    assert turns.adjudicate_due(services, clock()) == []
    shown = summary(services, game_id)
    assert (shown["phase"], shown["deadline"], shown["waiting_for"]) == ("S1901M", None, ["RUSSIA", "TURKEY"])
    [alert] = alerts(services)
    assert alert.recipient == GM and "003 [14]" in text(alert) and "Russia" in text(alert)
    assert turns.adjudicate_due(services, clock()) == [] and len(alerts(services)) == 1

    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        replace_player(session, game, "RUSSIA", "ivan@new.test", None, clock())
        assert game.deadline is None  # Turkey still has nobody
        replace_player(session, game, "TURKEY", "osman@new.test", "osman@backup.test", clock())
        assert game.deadline == clock() + timedelta(hours=48) and game.waiting_for is None
    send(services, clock, "darkside", "scorpion", "RUSSIA", "A MOS H", "S1901M", address="ivan@new.test")
    send(services, clock, "darkside", "scorpion", "TURKEY", "A CON H", "S1901M", address="osman@new.test")
    clock.advance(hours=48)
    [done] = turns.adjudicate_due(services, clock())
    assert done.phase == "S1901M" and summary(services, game_id)["nmr"] == dict.fromkeys(ALL, 0)


def test_the_gm_may_adjudicate_a_waiting_spring_1901(database_url, clock):
    """`gmserver adjudicate` (force) adjudicates as it is: the silent powers' units hold."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="darkside", ruleset="scorpion")
    clock.advance(hours=49)
    assert turns.adjudicate_due(services, clock()) == []
    assert turns.adjudicate(services, game_id, clock(), force=True).phase == "S1901M"
    assert summary(services, game_id)["nmr"] == dict.fromkeys(ALL, 1)


def test_standard_adjudicates_spring_1901_with_two_silent_powers(database_url, clock):
    services = services_for(database_url)
    game_id = new_game(services, clock())
    hold_all(services, clock, "lepanto", "standard", ALL[:5], "S1901M")
    clock.advance(hours=49)
    [done] = turns.adjudicate_due(services, clock())
    assert done.phase == "S1901M" and alerts(services) == []
    shown = summary(services, game_id)
    assert shown["nmr"] == {**dict.fromkeys(ALL, 0), "RUSSIA": 1, "TURKEY": 1}
    assert shown["civil_disorder"] == [] and "waiting_for" not in shown


def play_two_silent_moves(services, clock, game: str, ruleset: str, movement_hours: int = 48) -> None:
    """Russia sends nothing in Spring and Fall 1901; the others hold. (Nobody changes centres, so
    Winter 1901 is skipped and the game reaches Spring 1902.)"""
    for phase in ("S1901M", "F1901M"):
        hold_all(services, clock, game, ruleset, [p for p in ALL if p != "RUSSIA"], phase)
        clock.advance(hours=movement_hours + 1)
        assert turns.adjudicate_due(services, clock())


def test_two_consecutive_nmrs_put_russia_in_cd_and_on_the_players_record_000_VII_6(database_url, clock):
    """000 VII(6) ¶2: two consecutive NMRs, the country goes into CD, the player is marked; the
    GM is told; replacing the player keeps the old record and ends the CD."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="mhrgame", ruleset="mhr")
    play_two_silent_moves(services, clock, "mhrgame", "mhr")
    shown = summary(services, game_id)
    assert shown["civil_disorder"] == ["RUSSIA"] and shown["nmr"]["RUSSIA"] == 2
    assert shown["nmr_in_a_row"]["RUSSIA"] == 2
    [alert] = alerts(services)
    assert "civil disorder" in text(alert) and "000 VII(6)" in text(alert)
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        assert next(p for p in game.players if p.power == "RUSSIA").cd_recorded
        replace_player(session, game, "RUSSIA", "ivan@new.test", None, clock())
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        [old] = session.scalars(select(PlayerHistory)).all()
        assert (old.address, old.missed_turns, old.civil_disorder, old.cd_recorded, old.left_in_phase) == (
            player_address("RUSSIA"), 2, True, True, "S1902M")
        russia = [t for t in player_history(session, game) if t.power == "RUSSIA"]
        assert [(t.address, t.left_at is None) for t in russia] == [(player_address("RUSSIA"), False),
                                                                   ("ivan@new.test", True)]
    shown = summary(services, game_id)
    assert shown["civil_disorder"] == [] and shown["nmr"]["RUSSIA"] == 0
    assert shown["players"]["RUSSIA"]["address"] == "ivan@new.test"


def test_danivon_flags_the_gm_after_two_turns_001_V_2(database_url, clock):
    """001 V(2), V(3): after two turns in a row the GM decides; the power is not put in CD."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="dan", ruleset="danivon", movement_hours=72)
    play_two_silent_moves(services, clock, "dan", "danivon", movement_hours=72)
    assert summary(services, game_id)["civil_disorder"] == []
    [alert] = alerts(services)
    assert "001 V(2), V(3)" in text(alert) and "Russia" in text(alert)


def test_gm_puts_a_power_in_and_out_of_civil_disorder(database_url, clock):
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="mhrgame", ruleset="mhr")
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        set_civil_disorder(session, game, "france", True, clock())
        with pytest.raises(GameError, match="no player for 'SPAIN'"):
            set_civil_disorder(session, game, "SPAIN", True, clock())
    assert summary(services, game_id)["civil_disorder"] == ["FRANCE"]
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        assert next(p for p in game.players if p.power == "FRANCE").cd_recorded  # 000 VII(6) ¶2
        set_civil_disorder(session, game, "FRANCE", False, clock())
    assert summary(services, game_id)["civil_disorder"] == []


def test_replace_refuses_a_bad_address(database_url, clock):
    services = services_for(database_url)
    game_id = new_game(services, clock())
    with transaction(services.sessions) as session:
        with pytest.raises(GameError, match="not a plain email address"):
            replace_player(session, session.get(Game, game_id), "FRANCE", "not an address", None, clock())


def winter_game(services, now, overrides: dict) -> int:
    """Winter 1901: Turkey owns no centre and must remove its army (a hopeless removal, A9);
    Russia has a build."""
    from gmserver.rules.position import Position
    from gmserver.services.games import GameSpec, PlayerSpec, create_game

    position = Position.from_json({"phase": "W1901A", "units": {"TURKEY": ["A ARM"], "RUSSIA": ["A MOS"]},
                                   "centers": {"RUSSIA": ["MOS", "SEV"]}})
    with transaction(services.sessions) as session:
        return create_game(session, GameSpec(
            name="winter", ruleset=load_ruleset("email_rules").with_overrides(overrides),
            players=[PlayerSpec(p, player_address(p)) for p in ALL], position=position,
            adjustment=timedelta(hours=24), reminder=timedelta(hours=12), sender_check="from"), now).id


def reminded(services) -> set[str]:
    with transaction(services.sessions) as session:
        return set(session.scalars(select(OutboxMessage.recipient).where(OutboxMessage.kind == "reminder")))


def test_no_reminder_and_no_miss_for_a_hopeless_removal_002_ORDERS_4(database_url, clock):
    """002 ORDERS 4 (hopeless_orders_exempt, A9): a power that owns no centre is not asked for
    its removal and does not miss a turn by sending none, even where minor turns count."""
    services = services_for(database_url)
    game_id = winter_game(services, clock(), {"nmr_counts_minor_turns": True})
    clock.advance(hours=13)
    turns.queue_reminders(services, clock())
    assert reminded(services) == {player_address("RUSSIA")}
    clock.advance(hours=12)
    assert turns.adjudicate_due(services, clock())
    assert summary(services, game_id)["nmr"] == {**dict.fromkeys(ALL, 0), "RUSSIA": 1}


def test_a_hopeless_removal_is_reminded_and_counted_without_the_exemption(database_url, clock):
    services = services_for(database_url)
    game_id = winter_game(services, clock(), {"nmr_counts_minor_turns": True, "hopeless_orders_exempt": False})
    clock.advance(hours=13)
    turns.queue_reminders(services, clock())
    assert reminded(services) == {player_address("RUSSIA"), player_address("TURKEY")}
    clock.advance(hours=12)
    assert turns.adjudicate_due(services, clock())
    assert summary(services, game_id)["nmr"] == {**dict.fromkeys(ALL, 0), "RUSSIA": 1, "TURKEY": 1}


def test_a_missed_winter_is_not_counted_by_default(database_url, clock):
    """MATRIX 2.6 nmr_counts_minor_turns false [P] (001 V(5): "An NBR/NDR is not considered to be
    an NMR"): Russia's missed build is no miss."""
    services = services_for(database_url)
    game_id = winter_game(services, clock(), {})
    clock.advance(hours=25)
    assert turns.adjudicate_due(services, clock())
    assert summary(services, game_id)["nmr"] == dict.fromkeys(ALL, 0)
