"""Missed orders, civil disorder, replacement and the Spring 1901 wait on a real database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, OutboxMessage, PlayerHistory
from gmserver.db.session import transaction
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.base.outbox import message_bytes
from gmserver.services.features import nmr
from gmserver.services.game.games import GameError, game_summary
from gmserver.services.game.players import player_history, replace_player, set_civil_disorder
from gmserver.services.turn import turns
from tests.support.intake_rows import send_orders
from tests.support.world import GM, new_game, player_address, services_for

pytestmark = pytest.mark.integration

ALL = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def send(services, clock, game: str, ruleset: str, power: str, body: str, phase: str,
         address: str | None = None) -> None:
    send_orders(services, clock(), power, body, phase, game=game, template=load_ruleset(ruleset).subject_template,
                sender=address)


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
    return " ".join(message_bytes(message).decode().split())


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
        # one full turn (48 h) from now, at the game's time of day (12:00, the first deadline's)
        assert clock() == datetime(2026, 11, 24, 13, 0, tzinfo=UTC)
        assert game.deadline == datetime(2026, 11, 27, 12, 0, tzinfo=UTC) and game.waiting_for is None
    send(services, clock, "darkside", "scorpion", "RUSSIA", "A MOS H", "S1901M", address="ivan@new.test")
    send(services, clock, "darkside", "scorpion", "TURKEY", "A CON H", "S1901M", address="osman@new.test")
    clock.advance(hours=72)
    [done] = turns.adjudicate_due(services, clock())
    assert done.phase == "S1901M" and summary(services, game_id)["nmr"] == dict.fromkeys(ALL, 0)


def test_every_player_is_told_that_spring_1901_waits_for_replacements_003_14(database_url, clock):
    """003 [14]: when Spring 1901 is not adjudicated for want of orders, the players are told why
    the deadline passed without results and that the new deadline comes with the new players
    (only the GM was told: the players' deadline passed in silence)."""
    services = services_for(database_url)
    new_game(services, clock(), name="darkside", ruleset="scorpion")
    hold_all(services, clock, "darkside", "scorpion", ALL[:5], "S1901M")
    clock.advance(hours=49)
    assert turns.adjudicate_due(services, clock()) == []
    with transaction(services.sessions) as session:
        told = list(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "game-notice")))
    assert sorted(m.recipient for m in told) == sorted(player_address(p) for p in ALL)
    assert all("no orders came from Russia and Turkey" in text(m) and "(003 [14])" in text(m)
               and "The game waits, with no deadline" in text(m) for m in told)
    turns.adjudicate_due(services, clock())  # the daemon's next sweep tells nobody again
    with transaction(services.sessions) as session:
        assert len(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "game-notice")).all()) == 7


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
        fall_report = session.scalar(select(OutboxMessage).where(
            OutboxMessage.dedupe_key == f"report:{game_id}:F1901M:FRANCE"))
        spring_report = session.scalar(select(OutboxMessage).where(
            OutboxMessage.dedupe_key == f"report:{game_id}:S1901M:FRANCE"))
    assert "IN CIVIL DISORDER: Russia" in text(fall_report)
    assert "CIVIL DISORDER" not in text(spring_report)  # one miss is not enough (000 VII(6) ¶2)
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
    [former] = shown["former_players"]
    assert (former["power"], former["address"], former["missed_turns"], former["civil_disorder_recorded"]) == (
        "RUSSIA", player_address("RUSSIA"), 2, True)


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
    """Winter 1901: Turkey owns no centre and must remove its army (a hopeless removal, 002 ORDERS 4);
    Russia has a build."""
    from gmserver.rules.position import Position
    from gmserver.services.game.games import GameSpec, PlayerSpec, create_game

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
    """002 ORDERS 4 (hopeless_orders_exempt): a power that owns no centre is not asked for
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
    """nmr_counts_minor_turns false [P] (001 V(5): "An NBR/NDR is not considered to be
    an NMR"): Russia's missed build is no miss."""
    services = services_for(database_url)
    game_id = winter_game(services, clock(), {})
    clock.advance(hours=25)
    assert turns.adjudicate_due(services, clock())
    assert summary(services, game_id)["nmr"] == dict.fromkeys(ALL, 0)


def danivon_spring_without_russia(services, clock) -> int:
    game_id = new_game(services, clock(), name="dan", ruleset="danivon", movement_hours=72)
    hold_all(services, clock, "dan", "danivon", [p for p in ALL if p != "RUSSIA"], "S1901M")
    clock.advance(hours=73)
    assert turns.adjudicate_due(services, clock())
    return game_id


def test_a_silent_player_abandons_and_the_first_year_is_suspended_001_V_1_V_3(database_url, clock):
    """001 V(1): no word within 24 hours of the results, the position is abandoned; V(3): in the
    first game year the game is suspended until a replacement joins."""
    services = services_for(database_url)
    game_id = danivon_spring_without_russia(services, clock)
    clock.advance(hours=23)
    assert nmr.check_contact_windows(services, clock()) == 0
    clock.advance(hours=1)
    assert nmr.check_contact_windows(services, clock()) == 1
    assert nmr.check_contact_windows(services, clock()) == 0  # once
    shown = summary(services, game_id)
    assert (shown["phase"], shown["deadline"], shown["waiting_for"]) == ("F1901M", None, ["RUSSIA"])
    [alert] = alerts(services)
    assert "abandoned (001 V(1))" in text(alert) and "001 V(3)" in text(alert)
    with transaction(services.sessions) as session:
        replace_player(session, session.get(Game, game_id), "RUSSIA", "ivan@new.test", None, clock())
    assert summary(services, game_id)["deadline"] is not None


def test_a_player_who_writes_in_time_has_not_abandoned_001_V_1(database_url, clock):
    services = services_for(database_url)
    game_id = danivon_spring_without_russia(services, clock)
    clock.advance(hours=5)
    send(services, clock, "dan", "danivon", "RUSSIA", "A MOS H", "F1901M")
    clock.advance(hours=20)
    assert nmr.check_contact_windows(services, clock()) == 0
    assert alerts(services) == [] and "waiting_for" not in summary(services, game_id)


def test_the_gm_s_replace_command_keeps_the_record_and_ends_the_spring_1901_wait_003_14(database_url, clock):
    """`gmserver game replace` (gm_controls.replace) goes through players.replace_player: the
    old player's record is kept and the waiting game gets its deadline."""
    from gmserver.services.commands import gm_controls

    services = services_for(database_url)
    game_id = new_game(services, clock(), name="darkside", ruleset="scorpion")
    hold_all(services, clock, "darkside", "scorpion", [p for p in ALL if p != "TURKEY"], "S1901M")
    clock.advance(hours=49)
    assert turns.adjudicate_due(services, clock()) == []
    with transaction(services.sessions) as session:
        gm_controls.replace(session, services, session.get(Game, game_id), "TURKEY", "osman@new.test", by="cli",
                            now=clock())
    with transaction(services.sessions) as session:
        [old] = session.scalars(select(PlayerHistory)).all()
        assert (old.power, old.address, old.left_in_phase) == ("TURKEY", player_address("TURKEY"), "S1901M")
    shown = summary(services, game_id)
    assert shown["deadline"] is not None and "waiting_for" not in shown
    assert shown["players"]["TURKEY"]["address"] == "osman@new.test"


def test_spring_01_orders_are_required_by_the_checkpoint_000_II_1(database_url, clock):
    """000 II(1) s.1 "Preliminary orders are not required except in Spring 01": halfway to the
    deadline the six powers without a set are reminded and the GM gets their names, once."""
    services = services_for(database_url)
    new_game(services, clock(), name="mhrgame", ruleset="mhr")
    hold_all(services, clock, "mhrgame", "mhr", ["FRANCE"], "S1901M")
    clock.advance(hours=23)
    assert nmr.check_preliminary_orders(services, clock()) == 0
    clock.advance(hours=1)
    assert nmr.check_preliminary_orders(services, clock()) == 7
    assert nmr.check_preliminary_orders(services, clock()) == 0
    assert reminded(services) == {player_address(p) for p in ALL if p != "FRANCE"}
    [alert] = alerts(services)
    assert "000 II(1)" in text(alert) and "Russia" in text(alert) and "France" not in text(alert)


def test_no_spring_01_checkpoint_under_standard(database_url, clock):
    services = services_for(database_url)
    new_game(services, clock())
    clock.advance(hours=30)
    assert nmr.check_preliminary_orders(services, clock()) == 0


def test_civil_disorder_while_a_replacement_is_sought_then_permanent_001_V_3_ii(database_url, clock):
    """001 V(3)(ii) with a search period of one year (cd_search_years): the GM chooses the search
    in Fall 1903; nobody is found; adjudicating Spring 1904 ends it and the GM is told the civil
    disorder is permanent."""
    from gmserver.rules.position import Position
    from gmserver.services.commands import gm_controls
    from gmserver.services.game.games import GameSpec, PlayerSpec, create_game

    services = services_for(database_url)
    position = Position.from_json({"phase": "F1903M", "units": {"RUSSIA": ["A MOS"], "TURKEY": ["A CON"]},
                                   "centers": {"RUSSIA": ["MOS"], "TURKEY": ["CON"]}})
    with transaction(services.sessions) as session:
        game = create_game(session, GameSpec(
            name="dan", ruleset=load_ruleset("danivon").with_overrides({"cd_search_years": 1}),
            players=[PlayerSpec(p, player_address(p)) for p in ALL], position=position,
            movement=timedelta(hours=72), reminder=timedelta(0), sender_check="from"), clock())
        game_id = game.id
        gm_controls.civil_disorder_search(session, services, game, "RUSSIA", by="cli", now=clock())
        assert next(p for p in game.players if p.power == "RUSSIA").cd_search_until == 1904
    clock.advance(hours=73)
    assert turns.adjudicate_due(services, clock())[0].next_phase == "S1904M"
    assert [a for a in alerts(services) if "stays in civil disorder" in text(a)] == []
    clock.advance(hours=73)
    assert turns.adjudicate_due(services, clock())
    [ended] = [a for a in alerts(services) if "stays in civil disorder" in text(a)]
    assert "001 V(3)(ii)" in text(ended)
    assert summary(services, game_id)["civil_disorder"] == ["RUSSIA"]


def test_the_gm_cannot_seek_a_replacement_for_a_period_the_rules_do_not_give(database_url, clock):
    from gmserver.services.commands import gm_controls

    services = services_for(database_url)
    game_id = new_game(services, clock())
    with transaction(services.sessions) as session:
        with pytest.raises(GameError, match="set no period for seeking a replacement"):
            gm_controls.civil_disorder_search(session, services, session.get(Game, game_id), "RUSSIA", by="cli",
                                              now=clock())


def test_a_one_turn_civil_disorder_does_not_stop_the_next_orders_002_ORDERS_0(database_url, clock):
    """002 ORDERS 0: a missed turn is civil disorder for that turn ("All your units HOLD."); the
    orders Russia sends for the next turn are used."""
    from gmserver import engine
    from gmserver.db.models import PhaseRecord

    services = services_for(database_url)
    game_id = new_game(services, clock(), name="er", ruleset="email_rules")
    clock.advance(hours=49)
    assert turns.adjudicate_due(services, clock())
    assert summary(services, game_id)["civil_disorder"] == [] and summary(services, game_id)["nmr"]["RUSSIA"] == 1
    _past_deadline(services, clock, game_id)  # 002 PRESS 7: the Spring retreat turn is held, empty
    assert turns.adjudicate_due(services, clock())
    send(services, clock, "er", "email_rules", "RUSSIA", "A MOS - UKR", "F1901M")
    _past_deadline(services, clock, game_id)
    assert turns.adjudicate_due(services, clock())
    _past_deadline(services, clock, game_id)  # and the Fall one
    assert turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        after = session.scalar(select(PhaseRecord.state).where(PhaseRecord.game_id == game_id,
                                                               PhaseRecord.phase == "S1902M"))
    assert "A UKR" in engine.position_from_state(after).units["RUSSIA"]
    assert summary(services, game_id)["nmr_in_a_row"]["RUSSIA"] == 0


def _past_deadline(services, clock, game_id: int) -> None:
    with transaction(services.sessions) as session:
        deadline = session.get(Game, game_id).deadline
    clock.now = max(clock.now, deadline.replace(tzinfo=clock.now.tzinfo) + timedelta(hours=1))


@pytest.mark.parametrize(("ruleset", "cited", "foreign"), [
    ("mhr", "until a new player takes it over (000 VII(6) ¶2).", "003 [13]"),
    ("standard", "until a new player takes it over.", "000 VII(6)"),
])
def test_the_gm_s_civil_disorder_notice_cites_the_game_s_own_clause(database_url, clock, ruleset, cited, foreign):
    """000 VII(6) ¶2 (mhr), the rulebook (standard, no house clause): the GM's notice that a power
    entered civil disorder cites the clause of the game's own profile, never another profile's
    (003 [13] is Scorpion's)."""
    services = services_for(database_url)
    new_game(services, clock(), name="cdnote", ruleset=ruleset)
    play_two_silent_moves(services, clock, "cdnote", ruleset)
    [alert] = [a for a in alerts(services) if "civil disorder" in text(a)]
    assert cited in text(alert) and foreign not in text(alert)
