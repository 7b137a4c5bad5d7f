"""hold_for_gm: order sets held for the GM, released or refused exactly once."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest
from sqlalchemy import select

from gmserver.db.models import InboundMessage, OrderSet, OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.features import held
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from tests.support.outgoing import body_words
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def _send(services, clock, subject: str, body: str, power: str = "FRANCE") -> int:
    row_id = intake.store(services.sessions, order_mail(player_address(power), subject, body), source="smtp",
                          now=clock()).id
    intake.process_pending(services, clock())
    return row_id


def _row(services, row_id: int) -> tuple[str, str | None, str | None]:
    with transaction(services.sessions) as session:
        row = session.get(InboundMessage, row_id)
        return row.status, row.outcome, row.held_phase


def _sets(services) -> list[tuple[str, str, list]]:
    with transaction(services.sessions) as session:
        return [(s.power, s.phase, s.orders) for s in session.scalars(select(OrderSet).order_by(OrderSet.id))]


body_of = body_words


def _mail(services, kind: str) -> list[tuple[str, str]]:
    with transaction(services.sessions) as session:
        return [(m.recipient, body_of(m.raw)) for m in
                session.scalars(select(OutboxMessage).where(OutboxMessage.kind == kind).order_by(OutboxMessage.id))]


@pytest.fixture
def danivon(database_url, clock):
    services = services_for(database_url)
    new_game(services, clock(), ruleset="danivon")
    return services


def test_a_subject_without_the_turn_is_held_then_released_once_001_II_4(danivon, clock) -> None:
    """001 II(4): the GM "may, but is not required to accept" a set whose subject lacks required
    data (nonconforming_subject_policy = hold_for_gm): held, the player told, filed on release."""
    row_id = _send(danivon, clock, "lepanto France", "A Par-Bur")
    assert _row(danivon, row_id) == ("held", held.HELD, "S1901M")
    assert _sets(danivon) == []
    [(to, notice)] = _mail(danivon, held.KIND)
    assert to == player_address("FRANCE")
    assert "held for the GM" in notice and "001 II(4)" in notice
    assert _mail(danivon, "rejection") == []

    clock.advance(minutes=5)
    done = held.release(danivon, row_id, clock())
    assert (done.power, done.phase, done.outcome) == ("FRANCE", "S1901M", "released")
    assert _row(danivon, row_id) == ("done", "released", "S1901M")
    assert _sets(danivon) == [("FRANCE", "S1901M", ["A PAR - BUR"])]
    [(to, confirmation)] = _mail(danivon, "confirmation")
    assert to == player_address("FRANCE") and "The GM accepted this message" in confirmation
    with pytest.raises(held.HeldError, match="not held"):
        held.release(danivon, row_id, clock())
    with pytest.raises(held.HeldError, match="not held"):
        held.refuse(danivon, row_id, clock())
    assert len(_sets(danivon)) == 1 and len(_mail(danivon, "confirmation")) == 1


def test_a_refused_held_set_is_answered_once_with_the_gm_s_reason(danivon, clock) -> None:
    row_id = _send(danivon, clock, "lepanto France", "A Par-Bur")
    done = held.refuse(danivon, row_id, clock(), reason="write the season and year in the subject")
    assert done.outcome == "refused"
    assert _row(danivon, row_id)[:2] == ("done", "refused")
    [(to, refusal)] = _mail(danivon, "rejection")
    assert to == player_address("FRANCE")
    assert "The GM did not accept this message" in refusal and "write the season and year" in refusal
    assert "lepanto; 1901, Spring, Movement; France" in refusal  # the subject that would be accepted
    with pytest.raises(held.HeldError):
        held.refuse(danivon, row_id, clock())
    assert _sets(danivon) == [] and len(_mail(danivon, "rejection")) == 1


def test_a_held_set_whose_turn_is_over_cannot_be_released(danivon, clock) -> None:
    row_id = _send(danivon, clock, "lepanto France", "A Par-Bur")
    with transaction(danivon.sessions) as session:
        game_id = session.scalar(select(InboundMessage.game_id).where(InboundMessage.id == row_id))
    turns.adjudicate(danivon, game_id, clock(), force=True)
    with pytest.raises(held.HeldError, match="over"):
        held.release(danivon, row_id, clock())
    assert _row(danivon, row_id)[0] == "held"  # still the GM's to refuse
    held.refuse(danivon, row_id, clock())
    assert _sets(danivon) == []


def test_a_conforming_subject_is_not_held_under_danivon(danivon, clock) -> None:
    row_id = _send(danivon, clock, "lepanto; 1901, Spring, Movement; France", "A Par-Bur")
    assert _row(danivon, row_id)[:2] == ("done", "accepted")


def test_orders_for_another_turn_are_held_under_season_mismatch_hold_for_gm(database_url, clock,
                                                                             tmp_path: Path) -> None:
    """season_mismatch_policy = hold_for_gm: a set naming another turn waits for the GM, who files
    it for the turn it named once that turn is open."""
    profile = tmp_path / "held.toml"
    profile.write_text('name = "held"\nextends = "standard"\nseason_mismatch_policy = "hold_for_gm"\n')
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset=str(profile))
    row_id = _send(services, clock, "lepanto France F1901M", "A Par-Bur")
    assert _row(services, row_id) == ("held", held.HELD, "F1901M")
    with pytest.raises(held.HeldError, match="over|Fall"):
        held.release(services, row_id, clock())  # Spring is current: the Fall turn is not open yet
    turns.adjudicate(services, game_id, clock(), force=True)
    held.release(services, row_id, clock())
    assert _sets(services) == [("FRANCE", "F1901M", ["A PAR - BUR"])]


def test_a_release_and_a_refusal_at_once_decide_the_message_once(danivon, clock) -> None:
    import threading

    row_id = _send(danivon, clock, "lepanto France", "A Par-Bur")
    outcomes: list[str] = []

    def decide(action) -> None:
        try:
            outcomes.append(action(danivon, row_id, clock()).outcome)
        except held.HeldError:
            outcomes.append("not held")

    threads = [threading.Thread(target=decide, args=(action,)) for action in (held.release, held.refuse) * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes).count("not held") == 3 and _row(danivon, row_id)[0] == "done"
    decided = _row(danivon, row_id)[1]
    assert len(_sets(danivon)) == (1 if decided == "released" else 0)
    assert len(_mail(danivon, "confirmation")) + len(_mail(danivon, "rejection")) == 1


def test_ending_the_game_refuses_what_is_held_for_it_saying_why(danivon, clock) -> None:
    """Held mail must not outlive its game (QA walkthrough): `game end` answers each held set
    with the reason, once, and nothing is left to release."""
    from gmserver.services.commands import gm_controls

    row_id = _send(danivon, clock, "lepanto France", "A Par-Bur")
    assert _row(danivon, row_id)[0] == "held"
    done = gm_controls.act(danivon, "lepanto", gm_controls.end_game, now=clock())
    assert "1 held message refused" in done.text
    assert _row(danivon, row_id)[:2] == ("done", "refused")
    [(to, refusal)] = _mail(danivon, "rejection")
    assert to == player_address("FRANCE")
    assert "The GM did not accept this message" in refusal
    assert "lepanto has ended in Spring 1901 Movement, so orders for it can no longer be used" in refusal
    with pytest.raises(held.HeldError, match="not held"):
        held.release(danivon, row_id, clock())
    assert _sets(danivon) == []


def test_the_note_on_a_released_set_is_wrapped_to_72_characters(danivon, clock) -> None:
    """001 II(4): the confirmation of a released set opens with the GM's note, wrapped like the rest."""
    row_id = _send(danivon, clock, "lepanto France", "A Par-Bur")
    held.release(danivon, row_id, clock())
    with transaction(danivon.sessions) as session:
        raw = session.scalar(select(OutboxMessage).where(OutboxMessage.kind == "confirmation")).raw
    text = email.message_from_bytes(raw, policy=email.policy.default).get_body(("plain",)).get_content()
    text = text.replace("\r\n", "\n")
    note = text.split("\n\n")[1] if text.startswith("[") else text.split("\n\n")[0]
    assert note.startswith("Note: The GM accepted this message")
    assert max(len(line) for line in note.splitlines()) <= 72 and len(note.splitlines()) > 1


def test_a_solo_at_the_deadline_refuses_what_is_held_for_the_game(database_url, clock) -> None:
    """Held mail must not outlive its game, however it ends: here by a solo at the deadline
    (danivon: 18 centres). Germany's set, held for its subject without the turn (001 II(4)), is
    answered with the reason and can no longer be released."""
    from gmserver.rules.position import Position
    from gmserver.rules.subject import format_subject

    services = services_for(database_url)
    seventeen = ["PAR", "MAR", "BRE", "SPA", "POR", "BEL", "HOL", "KIE", "DEN", "SWE", "NWY", "LON", "LVP", "EDI",
                 "TUN", "NAP", "ROM"]
    new_game(services, clock(), ruleset="danivon", position=Position.from_json({
        "phase": "F1901M", "units": {"FRANCE": ["A BUR"], "GERMANY": ["A BER"]},
        "centers": {"FRANCE": seventeen, "GERMANY": ["BER"]}}))
    held_id = _send(services, clock, "lepanto Germany", "A BER H", power="GERMANY")
    assert _row(services, held_id)[0] == "held"
    _send(services, clock, format_subject(template="danivon", game_name="lepanto", power="FRANCE", phase="F1901M",
                                          purpose="orders"), "A BUR - MUN")
    clock.advance(hours=49)
    [done] = turns.adjudicate_due(services, clock())
    assert done.next_phase == "COMPLETED"  # France's eighteenth centre
    assert _row(services, held_id)[:2] == ("done", "refused")
    [(to, refusal)] = _mail(services, "rejection")
    assert to == player_address("GERMANY")
    assert "lepanto has ended, so orders for it can no longer be used" in refusal
    # nothing to send again, and no subject or address rule offered for a game that accepts nothing
    assert "Nothing in this message has been used: the game has ended." in refusal
    assert "reply to this mail with it" not in refusal and "WHAT WOULD HAVE BEEN ACCEPTED" not in refusal
    with pytest.raises(held.HeldError, match="not held"):
        held.release(services, held_id, clock())
