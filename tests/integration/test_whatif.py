"""WHATIF by mail: a player's imagined orders adjudicated as `gmserver game preview` would, nothing
stored, nobody else told, no power's real orders read, a few an hour."""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta

from sqlalchemy import func, select

from gmserver.db.models import Game, OrderSet
from gmserver.db.session import transaction
from gmserver.services.base.outbox import message_bytes
from gmserver.services.base.reply_limits import WHATIF_PER_HOUR
from gmserver.services.turn import preview
from tests.support.intake_rows import deliver_queued, outbox_rows, plain_text, send_orders
from tests.support.world import order_mail, player_address

IMAGINED = {
    "FRANCE": "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao",
    "GERMANY": "A Mun - Bur\nF Kie - Hol\nA Ber - Kie",
    "ENGLAND": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
}


def words(text: str) -> str:
    return " ".join(text.split())


def whatif(world, clock, power: str, body: str):
    return deliver_queued(world, order_mail(player_address(power), "lepanto", body), clock())


def result_lines(text: str) -> list[str]:
    """The answer's lines that give an order's result ("A Paris -> Burgundy (A PAR - BUR): moved"),
    each joined again where the template wrapped it (its continuation is indented further)."""
    items: list[str] = []
    for line in text.splitlines():
        if line.startswith("    ") and items:
            items[-1] += " " + line.strip()
        elif line.startswith("  "):
            items.append(line.strip())
    return [item for item in items if "(" in item and "):" in item]


def test_the_answer_s_results_equal_game_preview_for_the_same_orders(world, clock) -> None:
    """The orders France imagines for three powers, then the same orders filed as those powers'
    sets and previewed by the GM: the same results, line for line, in the same words."""
    body = "whatif\n" + "\n".join(f"{power.title()}:\n{lines}" for power, lines in IMAGINED.items())
    row, [answer] = whatif(world, clock, "FRANCE", body)
    assert row.outcome == "whatif-sent"
    text = plain_text(answer)
    assert result_lines(text)
    for power, lines in IMAGINED.items():
        send_orders(world, clock(), power, lines, "S1901M")
    shown = preview.preview(world, "lepanto", clock())
    assert sorted(result_lines(text)) == sorted(shown.results)
    assert "A Munich -> Burgundy (A MUN - BUR): bounced" in words(text)  # Marseilles supports Paris


def test_nothing_is_stored_nobody_else_is_told_and_real_orders_are_not_read(world, clock) -> None:
    """Germany's real set moves Munich to Burgundy; France imagines no German order, so Munich holds
    in the answer and France's move succeeds; no set is filed, the phase stays, only France is mailed."""
    send_orders(world, clock(), "GERMANY", "A Mun - Bur", "S1901M")
    with transaction(world.sessions) as session:
        sets_before = session.scalar(select(func.count()).select_from(OrderSet))
    row, queued = whatif(world, clock, "FRANCE", "What if\nA Par - Bur")
    assert [answer.recipient for answer in queued] == [player_address("FRANCE")]
    text = words(plain_text(queued[0]))
    assert "A Paris -> Burgundy (A PAR - BUR): moved" in text
    assert "A Munich holds (A MUN H): holds: no order received" in text
    assert "Germany (no order imagined: the house rules' default)" in text
    assert "Nothing was stored, and nobody else was told." in text and "Reply to this mail" in text
    assert "Only the first line was read" not in text
    with transaction(world.sessions) as session:
        assert session.scalar(select(func.count()).select_from(OrderSet)) == sets_before
        assert session.scalar(select(Game.phase)) == "S1901M"


def test_the_answer_carries_the_map_and_lists_the_lines_not_used(world, clock) -> None:
    row, [answer] = whatif(world, clock, "ITALY", "whatif A Ven - Tyr\nA Rom - Xyz\nhello GM")
    message = email.message_from_bytes(message_bytes(answer), policy=email.policy.default)
    [image] = [part for part in message.iter_attachments() if part.get_content_type() == "image/png"]
    assert image.get_filename() == "lepanto-whatif-S1901M.png" and image.get_content()[:8] == b"\x89PNG\r\n\x1a\n"
    text = words(plain_text(answer))
    assert "A Venice -> Tyrolia (A VEN - TYR): moved" in text
    assert 'Lines not used as written "A Rom - Xyz":' in text and "hello GM" not in text


def test_a_whatif_with_no_orders_says_what_would_be_read(world, clock) -> None:
    row, [answer] = whatif(world, clock, "ITALY", "whatif")
    assert row.outcome == "command-not-understood"
    text = words(plain_text(answer))
    assert "Your WHATIF line was not understood: no order followed it." in text
    assert "Write it as: whatif, then your orders" in text


def test_past_the_hourly_limit_the_answer_says_when_to_try_again(world, clock) -> None:
    for _ in range(WHATIF_PER_HOUR):
        row, _ = whatif(world, clock, "ITALY", "whatif\nA Ven - Tyr")
        assert row.outcome == "whatif-sent"
        clock.advance(minutes=5)
    row, [answer] = whatif(world, clock, "ITALY", "whatif\nA Ven - Tyr")
    assert row.outcome == "whatif-limited"
    text = words(plain_text(answer))
    assert f"You have had {WHATIF_PER_HOUR} what-if answers in the last hour" in text and "again after" in text
    first = clock() - timedelta(minutes=5 * WHATIF_PER_HOUR)  # the first answer of the hour: free again an hour on
    assert f"again after {(first + timedelta(hours=1)):%A %-d %B %Y, %H:%M} UTC" in text
    assert len([row for row in outbox_rows(world) if row.recipient == player_address("ITALY")]) == WHATIF_PER_HOUR + 1
    clock.advance(minutes=45)
    row, _ = whatif(world, clock, "ITALY", "whatif\nA Ven - Tyr")
    assert row.outcome == "whatif-sent"
