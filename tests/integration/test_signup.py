"""Open sign-up on the services and the command line: a game announced, joins confirmed in
order, the seventh starting the game with the powers assigned by the preferences (a hand-worked
table), the GM's approval where the game asks it, and the record a game may require."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from gmserver.db.models import OutboxMessage, Signup
from gmserver.db.session import transaction
from gmserver.rules.geography import POWERS
from gmserver.services.features import signup
from gmserver.services.game.games import GameError, show_game
from tests.support.cli import run, write_config
from tests.support.world import services_for

pytestmark = pytest.mark.integration

AUS, ENG, FRA, GER, ITA, RUS, TUR = POWERS
# nine players' preferences, in the order they confirm: the first seven are seated. Worked by
# hand: every first choice differs but P1's and P6's (France); P6's second (Austria) is nobody's
# first, so P1 France, P6 Austria, the rest their first choices: (6,1) is the only best score.
NINE = [(FRA, ENG), (ENG,), (GER, FRA), (ITA,), (RUS, TUR), (FRA, AUS), (TUR, RUS), (), (FRA,)]
SEATED = [FRA, ENG, GER, ITA, RUS, AUS, TUR]


def _address(index: int) -> str:
    return f"p{index + 1}@players.test"


def _join_all(services, clock, name: str, table) -> list:
    """Every player asks to join, then each confirms (replies), in the table's order."""
    ids = []
    for index, preferences in enumerate(table):
        with transaction(services.sessions) as session:
            ids.append(signup.request(session, name, signup.JOIN, _address(index), preferences, clock()).id)
    results = []
    for row_id in ids:
        clock.advance(minutes=1)
        with transaction(services.sessions) as session:
            results.append(signup.confirm(session, services, session.get(Signup, row_id), clock()))
    return results


def test_the_seventh_confirmed_join_starts_the_game_with_the_powers_assigned(database_url, clock) -> None:
    services = services_for(database_url)
    with transaction(services.sessions) as session:
        signup.announce(session, signup.AnnounceSpec("lepanto", ruleset="standard"), clock())
    results = _join_all(services, clock, "lepanto", NINE)
    assert [r.place for r in results[:6]] == [1, 2, 3, 4, 5, 6]
    assert [r.started is not None for r in results] == [False] * 6 + [True] + [False] * 2
    # the two too many wait, first in line for a power that needs a player
    assert [r.standing_by for r in results] == [False] * 7 + [True] * 2
    summary = show_game(services.sessions, "lepanto")
    assert summary["phase"] == "S1901M" and summary["deadline"]
    assert {power: player["address"] for power, player in summary["players"].items()} == {
        power: _address(index) for index, power in enumerate(SEATED)}
    assert summary["assignment"]["score"][:2] == [6, 1] and summary["assignment"]["best_count"] == 1
    with transaction(services.sessions) as session:
        starts = list(session.scalars(select(OutboxMessage.recipient).where(OutboxMessage.kind == "start")))
    assert sorted(starts) == sorted(_address(i) for i in range(7))
    assert summary["standby"] == [_address(7), _address(8)]


def test_joins_confirmed_before_the_start_but_beyond_seven_stand_by(database_url, clock) -> None:
    """Nine joins confirmed, waiting for the GM's approval: the seventh approval starts the game
    (with the seven approved, in the order they confirmed); the two approved later stand by."""
    services = services_for(database_url)
    with transaction(services.sessions) as session:
        signup.announce(session, signup.AnnounceSpec("lepanto", approval=True), clock())
    results = _join_all(services, clock, "lepanto", NINE)
    assert {r.signup.status for r in results} == {"awaiting_gm"} and {r.place for r in results} == {None}
    order = [8, 7, 0, 1, 2, 3, 4, 5, 6]  # the GM approves the last two first
    started = [signup.decide_join(services, "lepanto", _address(i), clock(), refuse=False) for i in order]
    assert started == [None] * 6 + ["lepanto", None, None]
    summary = show_game(services.sessions, "lepanto")
    assert sorted(player["address"] for player in summary["players"].values()) == sorted(
        _address(i) for i in (0, 1, 2, 3, 4, 7, 8))
    assert summary["standby"] == [_address(5), _address(6)]
    assert summary["observers"] == []


def test_a_refused_player_is_not_queued_and_a_join_twice_keeps_its_place(database_url, clock) -> None:
    services = services_for(database_url)
    with transaction(services.sessions) as session:
        signup.announce(session, signup.AnnounceSpec("lepanto", approval=True), clock())
    _join_all(services, clock, "lepanto", [(FRA,), (ENG,)])
    assert signup.decide_join(services, "lepanto", _address(0), clock(), refuse=True) is None
    with pytest.raises(GameError, match="has no confirmed join of lepanto waiting for you"):
        signup.decide_join(services, "lepanto", _address(0), clock(), refuse=False)
    with transaction(services.sessions) as session:
        again = signup.request(session, "lepanto", signup.JOIN, _address(1), (GER,), clock())
        assert again.status == "awaiting_gm" and again.preferences == [GER]
        assert session.scalar(select(Signup.status).where(Signup.address == _address(0))) == "refused"


def test_a_game_that_asks_a_record_refuses_a_player_below_it(database_url, clock) -> None:
    """A player with no record is let in (nothing to hold against them); one whose record shows
    fewer turns on time than the game asks is refused with the figures."""
    services = services_for(database_url)
    with transaction(services.sessions) as session:
        signup.announce(session, signup.AnnounceSpec("lepanto", min_reliability=0.8), clock())
    [result] = _join_all(services, clock, "lepanto", [(FRA,)])
    assert result.place == 1 and not result.refusal


def test_announce_refuses_a_taken_name_a_bad_zone_and_a_past_start(database_url, clock) -> None:
    services = services_for(database_url)
    with transaction(services.sessions) as session:
        signup.announce(session, signup.AnnounceSpec("lepanto"), clock())
    with transaction(services.sessions) as session, pytest.raises(GameError) as refused:
        signup.announce(session, signup.AnnounceSpec("Lepanto", timezone="Mars/Olympus",
                                                     starts_at=clock()), clock())
    assert "Mars/Olympus" in str(refused.value) and "is past" in str(refused.value)
    assert "lepanto" in str(refused.value).lower()


def test_announce_and_list_open_on_the_command_line(tmp_path: Path, capsys) -> None:
    config = write_config(tmp_path)
    run(config, "db", "upgrade")
    capsys.readouterr()
    assert run(config, "game", "announce", "lepanto", "--ruleset", "mhr", "--deadline-time", "18:00",
               "--timezone", "Europe/Berlin", "--anonymous", "--min-reliability", "80%") == 0
    out = capsys.readouterr().out
    assert out.startswith("announced lepanto: mhr rules, 0 of 7 joined")
    assert "join lepanto England, France" in out
    assert run(config, "game", "announce", "zara", "--starts", "2099-01-01T18:00+00:00", "--approval") == 0
    capsys.readouterr()
    assert run(config, "game", "list", "--open") == 0
    assert capsys.readouterr().out.splitlines() == [
        "lepanto: mhr rules, 0 of 7 joined, starts when 7 players have joined, deadlines at 18:00 Europe/Berlin, "
        "anonymous, joining needs 80% of turns ordered on time",
        "zara: standard rules, 0 of 7 joined, starts 2099-01-01 18:00 UTC, time zone UTC, the GM approves each player",
    ]
    assert run(config, "game", "list", "--open", "--json") == 0
    [first, _] = json.loads(capsys.readouterr().out)
    assert first["anonymous"] is True and first["min_reliability"] == 0.8
    assert run(config, "player", "show", "nobody@players.test") == 0
    assert "games played: 0" in capsys.readouterr().out


def test_at_its_start_time_a_game_starts_with_those_who_have_confirmed(database_url, clock) -> None:
    """--starts: at the time, the three confirmed players have their powers (the four others none:
    their units hold until the GM gives them players); before it, nothing starts."""
    services = services_for(database_url)
    with transaction(services.sessions) as session:
        signup.announce(session, signup.AnnounceSpec("lepanto", starts_at=clock() + timedelta(days=2)), clock())
    _join_all(services, clock, "lepanto", [(FRA,), (ENG,), (FRA, GER)])
    assert signup.start_due(services, clock()) == 0
    assert signup.start_due(services, clock() + timedelta(days=2)) == 1
    players = show_game(services.sessions, "lepanto")["players"]
    assert {power: p["address"] for power, p in players.items()} == {
        FRA: _address(0), ENG: _address(1), GER: _address(2)}
