"""A player's delay request by mail, on a real database (SQLite and PostgreSQL): granted at once
under auto_grant_gm_may_refuse (000 VII(5)) with every player and the GM told, undone by the GM
with `game deadline`, passed on to the GM beyond the allowance and under gm_decides (003 [10]);
decided once per message and recorded."""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta

import pytest
from sqlalchemy import select

from gmserver.cli import main
from gmserver.db.models import Game, GmAction, OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.commands import gm_controls
from gmserver.services.game.games import POWERS, show_game
from gmserver.services.inbox import runner as intake
from tests.support.intake_rows import deliver
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def world_with(database_url, clock, ruleset: str):
    services = services_for(database_url)
    new_game(services, clock(), ruleset=ruleset)  # deadline: now + 48 h
    return services




def outbox(services, kind: str | None = None) -> list[OutboxMessage]:
    with transaction(services.sessions) as session:
        rows = list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
        return [row for row in rows if kind is None or row.kind == kind]


def text(row: OutboxMessage) -> str:
    return " ".join(email.message_from_bytes(row.raw, policy=email.policy.default).get_body(("plain",)).get_content().split())


def deadline(services):
    with transaction(services.sessions) as session:
        return session.scalar(select(Game.deadline).where(Game.name == "lepanto"))


def actions(services) -> list[tuple[str, str]]:
    with transaction(services.sessions) as session:
        return [(a.action, a.by) for a in session.scalars(select(GmAction).order_by(GmAction.id))]


def test_000_VII_5_a_delay_is_granted_at_once_everyone_told_and_the_gm_may_undo_it(database_url, clock) -> None:
    world = world_with(database_url, clock, "mhr")
    before = deadline(world)
    row = deliver(world, order_mail(player_address("ITALY"), "lepanto", "DELAY: travelling until Friday"), clock())
    assert (row.kind, row.outcome) == ("request", "delay-granted")
    assert deadline(world) == before + timedelta(hours=48)  # mhr: delay_hours = 48
    assert actions(world) == [("delay", player_address("ITALY"))]
    # the six others are told the new deadline; who asked is not said
    told = outbox(world, "gm-action")
    assert sorted(m.recipient for m in told) == sorted(player_address(p) for p in
                                                       ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY"))
    assert "At a player's request the deadline of Spring 1901 Movement is delayed by 48 hours" in text(told[0])
    # created Sunday 22nd 12:00 UTC, deadline Tuesday 24th, delayed to Thursday 26th
    assert "Thursday 26 November 2026, 12:00" in text(told[0])
    (answer,) = outbox(world, "notice")
    assert answer.recipient == player_address("ITALY")
    assert "Your request is granted: the deadline is delayed by 48 hours for every player (house rules 000 VII(5)" \
        in text(answer)
    assert "This was your last delay granted at once in 1901" in text(answer)  # the warning
    (alert,) = outbox(world, "alert")
    assert alert.recipient == GM and 'Italy asked for a delay of Spring 1901 Movement ("travelling until Friday")' \
        in text(alert)
    assert f"To undo it: gmserver game deadline lepanto {before.isoformat()}" in text(alert)
    # the GM undoes it with `gmserver game deadline`
    gm_controls.act(world, "lepanto", gm_controls.set_deadline, before, now=clock())
    assert deadline(world) == before


def test_000_VII_5_beyond_max_auto_delays_the_request_goes_to_the_gm_per_player(database_url, clock) -> None:
    world = world_with(database_url, clock, "mhr")
    first = deadline(world)
    deliver(world, order_mail(player_address("ITALY"), "lepanto", "DELAY"), clock())
    granted = deadline(world)
    row = deliver(world, order_mail(player_address("ITALY"), "lepanto", "Extension: still away"), clock())
    assert row.outcome == "delay-to-gm" and deadline(world) == granted == first + timedelta(hours=48)
    answer = outbox(world, "notice")[-1]
    assert "Each player may have 1 delay a game year granted at once, and you have had 1 in 1901 " \
           "(house rules 000 VII(5)" in text(answer)
    alert = outbox(world, "alert")[-1]
    assert 'Italy asks for a delay of Spring 1901 Movement' in text(alert) and "delay lepanto 48" in text(alert)
    # the allowance is each player's: France's first request is granted
    row = deliver(world, order_mail(player_address("FRANCE"), "lepanto", "DELAY"), clock())
    assert row.outcome == "delay-granted" and deadline(world) == granted + timedelta(hours=48)


def test_003_10_under_gm_decides_the_request_is_passed_on_and_the_deadline_stands(database_url, clock) -> None:
    world = world_with(database_url, clock, "scorpion")
    before = deadline(world)
    row = deliver(world, order_mail(player_address("RUSSIA"), "lepanto", "DELAY: my exams"), clock())
    assert (row.kind, row.outcome) == ("request", "delay-to-gm")
    assert deadline(world) == before and actions(world) == [] and outbox(world, "gm-action") == []
    (answer,) = outbox(world, "notice")
    assert "Your request was passed on to the GM, who decides on every delay in this game (house rules 003 [10])" \
        in text(answer)
    (alert,) = outbox(world, "alert")
    assert 'Russia asks for a delay of Spring 1901 Movement' in text(alert) and '"my exams"' in text(alert)


def test_a_delay_request_is_decided_once_per_message(database_url, clock) -> None:
    world = world_with(database_url, clock, "danivon")
    before = deadline(world)
    raw = order_mail(player_address("TURKEY"), "lepanto", "DELAY")
    row = deliver(world, raw, clock())
    again = deliver(world, raw, clock())  # the same message twice (two paths, or a replay)
    assert again.id == row.id and again.outcome == "delay-granted"
    intake.process_one(world, row.id, clock())
    assert deadline(world) == before + timedelta(hours=48)
    assert actions(world) == [("delay", player_address("TURKEY"))]
    assert len(outbox(world, "alert")) == 1 and len(outbox(world, "notice")) == 1


# -- 001 IV(4) target_days_per_game_turn: a guide, told to the GM -----------------------------------

def test_001_IV_4_turn_lengths_longer_than_a_week_a_turn_are_noted_at_create_and_show(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), ruleset="danivon", movement_hours=7 * 24)  # Fall: 7 + 1 + 1 days
    new_game(services, clock(), name="weekly", ruleset="danivon", movement_hours=5 * 24)  # Fall: a week
    new_game(services, clock(), name="classic", ruleset="mhr", movement_hours=7 * 24)  # no target
    (warning,) = show_game(services.sessions, "lepanto")["pace_warnings"]
    assert warning.startswith("a Fall Turn with its retreat and adjustment turns lasts 9 days at these turn lengths, "
                              "longer than the guide of 7 days a Turn (house rules 001 IV(4)")
    assert "pace_warnings" not in show_game(services.sessions, "weekly")
    assert "pace_warnings" not in show_game(services.sessions, "classic")


def test_001_IV_4_a_deadline_past_a_week_a_turn_is_noted_to_the_gm_not_refused(database_url, clock) -> None:
    world = world_with(database_url, clock, "danivon")  # the Turn began at creation, clock()
    done = gm_controls.act(world, "lepanto", gm_controls.set_deadline, clock() + timedelta(days=8), now=clock())
    assert deadline(world) == clock() + timedelta(days=8)
    assert done.text.endswith("; note: this Turn began 2026-11-22T12:00+00:00 and lasts 8 days to this deadline, "
                              "longer than the guide of 7 days a Turn (house rules 001 IV(4))")
    assert all("guide" not in text(m) for m in outbox(world, "gm-action"))  # the players are not told
    done = gm_controls.act(world, "lepanto", gm_controls.set_deadline, clock() + timedelta(days=7), now=clock())
    assert "note" not in done.text


def test_001_IV_4_game_create_prints_the_note_for_the_gm(tmp_path, capsys) -> None:
    config = tmp_path / "gmserver.toml"
    config.write_text(f'[database]\nurl = "sqlite:///{tmp_path / "gm.db"}"\n[gm]\naddress = "gm@gm.test"\n'
                      f'[outbound.maildir]\npath = "{tmp_path / "sent"}"\n')
    players = [arg for power in POWERS for arg in ("--player", f"{power}={power.lower()}@players.test")]
    assert main(["--config", str(config), "db", "upgrade"]) == 0
    assert main(["--config", str(config), "game", "create", "lepanto", "--ruleset", "danivon", *players,
                 "--movement-hours", "168"]) == 0
    assert "note: a Fall Turn with its retreat and adjustment turns lasts 9 days" in capsys.readouterr().out
    assert main(["--config", str(config), "game", "show", "lepanto"]) == 0
    assert "note: a Fall Turn" in capsys.readouterr().out


def test_000_VII_5_the_allowance_is_the_player_s_a_replacement_starts_with_none(database_url, clock) -> None:
    world = world_with(database_url, clock, "mhr")
    deliver(world, order_mail(player_address("ITALY"), "lepanto", "DELAY"), clock())
    gm_controls.act(world, "lepanto", gm_controls.replace, "ITALY", "nuovo@players.test", now=clock())
    granted = deadline(world)
    row = deliver(world, order_mail("nuovo@players.test", "lepanto", "DELAY: new here"), clock())
    assert row.outcome == "delay-granted" and deadline(world) == granted + timedelta(hours=48)


def test_001_IV_4_a_delay_past_a_week_a_turn_is_granted_and_the_gm_told_of_the_pace(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), ruleset="danivon", movement_hours=6 * 24)  # the Turn began now, 6 days
    row = deliver(services, order_mail(player_address("ENGLAND"), "lepanto", "DELAY"), clock())
    assert row.outcome == "delay-granted"  # 001 IV(5): granted; IV(4)'s week is only a guide
    (alert,) = outbox(services, "alert")
    assert "Note: this Turn began 2026-11-22T12:00+00:00 and lasts 8 days to this deadline, longer than the guide " \
           "of 7 days a Turn (house rules 001 IV(4))." in text(alert)


def test_000_VII_5_the_granted_delay_is_told_in_the_game_s_time_zone(database_url, clock) -> None:
    """A player far from UTC reads the new deadline in the game's own time zone, as the reports
    say it, with UTC beside it (the answer said UTC only)."""
    world = services_for(database_url)
    new_game(world, clock(), ruleset="mhr", timezone="America/New_York")
    deliver(world, order_mail(player_address("ITALY"), "lepanto", "DELAY: travelling"), clock())
    (answer,) = outbox(world, "notice")
    # created Sunday 22nd 12:00 UTC, deadline Tuesday 24th, delayed 48 h to Thursday 26th 12:00 UTC:
    # 07:00 in New York (EST, UTC-5, in November)
    assert "Thursday 26 November 2026, 07:00 EST (America/New_York)" in text(answer)
    assert "Thursday 26 November 2026, 12:00 UTC" in text(answer)
