"""Game end on a real database: the solo at the profile's count, the Spring solo
notice (003 [23]) and the stalemate notice (000 IX(2) ¶2)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.base.outbox import message_bytes
from gmserver.services.commands import gm_controls
from gmserver.services.game.games import POWERS, GameSpec, PlayerSpec, create_game
from gmserver.services.turn import turns
from tests.support.intake_rows import send_orders
from tests.support.world import player_address, services_for

pytestmark = pytest.mark.integration

SIXTEEN = ["PAR", "MAR", "BRE", "SPA", "POR", "BEL", "HOL", "KIE", "DEN", "SWE", "NWY", "LON", "LVP", "EDI",
           "TUN", "NAP"]


def game_with(services, now, overrides: dict, position: Position | None = None) -> int:
    with transaction(services.sessions) as session:
        return create_game(session, GameSpec(
            name="endgame", ruleset=load_ruleset("standard").with_overrides(overrides),
            players=[PlayerSpec(p, player_address(p)) for p in POWERS], position=position,
            movement=timedelta(hours=48), retreat=timedelta(hours=24), adjustment=timedelta(hours=24),
            reminder=timedelta(0), sender_check="from"), now).id


def send(services, clock, power: str, body: str, phase: str) -> None:
    send_orders(services, clock(), power, body, phase, game="endgame")


def france_takes_munich(services, clock, overrides: dict, phase: str, owned: list[str]):
    position = Position.from_json({"phase": phase, "units": {"FRANCE": ["A BUR"], "GERMANY": ["A BER"]},
                                   "centers": {"FRANCE": owned, "GERMANY": ["BER"]}})
    game_id = game_with(services, clock(), overrides, position)
    send(services, clock, "FRANCE", "A BUR - MUN", phase)
    clock.advance(hours=49)
    [done] = turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        report = session.scalar(select(OutboxMessage).where(OutboxMessage.kind == "report"))
        alerts = [" ".join(m.raw.decode().split()) for m in session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "alert"))]
        return done, game.status, " ".join(message_bytes(report).decode().split()), alerts


def test_solo_at_the_profile_s_count_of_seventeen(database_url, clock) -> None:
    """solo_centres = 17: the seventeenth centre, taken in the Fall, ends the game; the report
    says who won."""
    done, status, report, _ = france_takes_munich(services_for(database_url), clock, {"solo_centres": 17},
                                                  "F1901M", SIXTEEN)
    assert (done.next_phase, done.deadline, status) == ("COMPLETED", None, "finished")
    assert "THE GAME IS OVER" in report
    # how it ended, in words
    assert ("France has won the game: it owns 17 supply centres after Fall 1901 Movement, the 17 a solo "
            "needs.") in report


def test_no_solo_at_seventeen_under_the_rulebook_s_eighteen(database_url, clock) -> None:
    done, status, report, _ = france_takes_munich(services_for(database_url), clock, {}, "F1901M", SIXTEEN)
    assert (done.next_phase, status) == ("W1901A", "active") and "THE GAME IS OVER" not in report


def test_a_spring_solo_ends_the_game_003_23(database_url, clock) -> None:
    """003 [23] "a game ends when a nation conquers the 18th supply centre (Spring or Autumn)":
    seventeen owned plus Munich occupied in Spring is eighteen: the game ends there, as a Fall solo
    does (finished, no deadline, the report says who won), and the GM has nothing to rule."""
    done, status, report, alerts = france_takes_munich(services_for(database_url), clock,
                                                       {"solo_check_after_spring": True}, "S1901M", SIXTEEN + ["ROM"])
    assert (done.next_phase, done.deadline, status) == ("COMPLETED", None, "finished")
    assert "THE GAME IS OVER" in report and alerts == []
    assert ("France has won the game: after Spring 1901 Movement it owns 17 supply centres and occupies 1 more, "
            "18 in all, the 18 a solo needs.") in report
    # each power's centres over the whole game, as owned (ownership changes after a Fall only)
    assert "SUPPLY CENTRES, GAME YEAR BY GAME YEAR start end France 17 17 Germany 1 1" in report


def test_a_spring_solo_is_no_solo_without_the_option(database_url, clock) -> None:
    """RB2000: ownership changes after the Fall turn only; seventeen owned plus one occupied in
    Spring is no solo."""
    done, status, _, alerts = france_takes_munich(services_for(database_url), clock, {}, "S1901M", SIXTEEN + ["ROM"])
    assert (done.next_phase, status) == ("F1901M", "active") and alerts == []


def test_stalemate_notice_after_a_year_without_a_centre_changing_hands_000_IX_2(database_url, clock) -> None:
    """000 IX(2) ¶2 with a count of one year: Spring and Fall 1901 change no centre (every unit
    holds, Winter is skipped); at Spring 1902 the GM gets the notice, once."""
    services = services_for(database_url)
    game_with(services, clock(), {"stalemate_years": 1, "nmr_limit_to_cd": "none"})
    for _ in ("S1901M", "F1901M"):
        clock.advance(hours=49)
        assert turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        [notice] = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "alert")).all()
        assert notice.dedupe_key.startswith("gm:stalemate:")
        body = " ".join(notice.raw.decode().split())
    assert "no supply centre has changed hands for 1 game year." in body.lower() and "000 IX(2)" in body


def press_authors_told_at_game_end(database_url, clock, overrides: dict, press: str) -> list[str]:
    """Germany writes `press` in Spring 1901; the turn is adjudicated and the GM ends the game
    (`gmserver game end`); the mail that reveals press authors, if any."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), overrides)
    send(services, clock, "GERMANY", f"A BER H\n\n{press}\nBeware of the Kaiser.\nEND PRESS", "S1901M")
    clock.advance(hours=49)
    assert turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        gm_controls.end_game(session, services, session.get(Game, game_id), by="gm", now=clock())
    with transaction(services.sessions) as session:
        return [" ".join(m.raw.decode().split()) for m in session.scalars(select(OutboxMessage))
                if m.dedupe_key.startswith("gm:pressauthors:")]


def test_the_gm_ending_the_game_learns_who_wrote_grey_press_000_X_2(database_url, clock) -> None:
    """000 X(2) (press_author_disclosure = gm_after_game): the GM may reveal the authors of grey
    press after the game, however it ended: here by the GM's `game end`, not by a solo."""
    [mail] = press_authors_told_at_game_end(database_url, clock, {"press_author_disclosure": "gm_after_game"},
                                            "GREY PRESS")
    assert 'S1901M grey (anonymous) press: written by Germany: "Beware of the Kaiser."' in mail


@pytest.mark.parametrize(("overrides", "press"), [({"press_author_disclosure": "gm_after_game"}, "PRESS"),
                                                   ({}, "GREY PRESS")])
def test_no_press_authors_mail_without_grey_press_or_under_never(database_url, clock, overrides, press) -> None:
    """Nothing to reveal when every item was signed (000 X(2)); and under 003 [9] ("Authorship of
    gray press will not be disclosed", the default `never`) not even grey press is revealed."""
    assert press_authors_told_at_game_end(database_url, clock, overrides, press) == []
