"""The GM's corrections by mail: release, refuse, orders, preview, rollback and convoy,
from the GM's address with the game's GM secret (gm_command_auth), each recorded in
gm_actions and answered in the GM's one reply."""

from __future__ import annotations

import email
import email.policy

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, GmAction, InboundMessage, OrderSet, OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def _text(raw: bytes) -> str:
    return " ".join(email.message_from_bytes(raw, policy=email.policy.default).get_body(("plain",)).get_content().split())


def _gm_mail(services, body: str, now, *, game: str = "lepanto") -> str:
    with transaction(services.sessions) as session:
        secret = session.scalar(select(Game.gm_secret).where(Game.name == game))
    row_id = intake.store(services.sessions, order_mail(GM, game, f"{body}\nPassword: {secret}", date=now), source="smtp",
                          now=now).id
    intake.process_one(services, row_id, now)
    with transaction(services.sessions) as session:
        answer = session.scalars(select(OutboxMessage).where(OutboxMessage.recipient == GM)
                                 .order_by(OutboxMessage.id.desc())).first().raw
    return _text(answer)


def _actions(services) -> list[tuple[str, str]]:
    with transaction(services.sessions) as session:
        return [(a.action, a.by) for a in session.scalars(select(GmAction).order_by(GmAction.id))]


def _held(services, now, power: str) -> int:
    row_id = intake.store(services.sessions, order_mail(player_address(power), f"lepanto {power.title()}",
                                                        "A Par-Bur" if power == "FRANCE" else "A Ven H"),
                          source="smtp", now=now).id
    intake.process_one(services, row_id, now)
    return row_id


def test_release_and_refuse_by_mail_001_II_4(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), ruleset="danivon")
    france, italy = _held(services, clock(), "FRANCE"), _held(services, clock(), "ITALY")
    answer = _gm_mail(services, f"release {france}\nrefuse {italy} use the whole subject\nrelease {italy}", clock())
    assert f"Done: message {france} released" in answer and f"Done: message {italy} refused" in answer
    assert f"Not done: message {italy} is not held" in answer
    with transaction(services.sessions) as session:
        statuses = dict(session.execute(select(InboundMessage.id, InboundMessage.outcome)
                                        .where(InboundMessage.id.in_((france, italy)))).all())
        assert statuses == {france: "released", italy: "refused"}
        assert session.scalar(select(OrderSet.orders).where(OrderSet.power == "FRANCE")) == ["A PAR - BUR"]
    assert _actions(services) == [("release", GM), ("refuse", GM)]


def test_orders_preview_and_rollback_by_mail(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock())
    answer = _gm_mail(services, "orders FRANCE A Par-Bur; A Mar-Spa\npreview", clock())
    assert "Done: FRANCE's set v1 for S1901M filed as the GM's" in answer and "A PAR - BUR" in answer
    assert "Done: preview of S1901M (nothing stored, nothing sent" in answer
    # QA: the preview by mail said "A MAR - SPA: succeeded"; it reads like the report now (Marseilles
    # and Paris move unopposed, Austria's units hold as nobody ordered them)
    assert "A Marseilles -> Spain (A MAR - SPA): moved" in answer
    assert "A Paris -> Burgundy (A PAR - BUR): moved" in answer
    assert "A Vienna holds (A VIE H): holds: no order received" in answer
    turns.adjudicate(services, game_id, clock(), force=True)
    answer = _gm_mail(services, "rollback", clock())
    assert "Done: the adjudication of S1901M was rolled back" in answer and "(7 players told)" in answer
    answer = _gm_mail(services, "rollback", clock.advance(minutes=1))  # a new mail, not a copy of the first
    assert "Not done: The adjudication of Spring 1901 Movement was rolled back already" in answer
    answer = _gm_mail(services, "convoy A LON - BEL fails", clock())
    assert "Not done: lepanto does not play the convoy rule of house rules 000 VI(4)" in answer
    # QA: the GM was told "(DATC 4.A.1)"; the citation in words, as players read one
    assert "disrupted only when every route is (the 2000 rulebook as the DATC reads it, 4.A.1)" in answer
    assert _actions(services) == [("orders", GM), ("rollback", GM)]
