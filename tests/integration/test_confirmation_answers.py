"""The answer a player reads to a clean set of orders, through intake and the outbox: a few lines
(the orders on file, the deadline, how to change them: reply to this mail), the greeting and the
signature counted in one line; and the same answer at the registered address when the set came
from the power's fallback address."""

from __future__ import annotations

from gmserver.mail.compose import GM_MAIL_END, GM_MAIL_START
from tests.support.intake_rows import outbox_rows, plain_text, player_reply_address, send_orders
from tests.support.world import player_address

CLEAN_SET = "Hello GM,\n\nA Par - Bur\nF Bre - Mao\nA Mar - Spa\n\nThanks,\nAnna\n"


def _confirmation_lines(text: str) -> list[str]:
    """The confirmation between gmserver's marker lines, without the blank lines next to them."""
    inside = text.split(GM_MAIL_START, 1)[1].split(GM_MAIL_END, 1)[0]
    return inside.strip("\n").split("\n")


def test_a_clean_set_of_three_orders_is_confirmed_in_at_most_15_lines(world, clock) -> None:
    [(_, outcome)] = send_orders(world, clock(), "FRANCE", CLEAN_SET, "S1901M")
    assert outcome == "accepted"
    [row] = outbox_rows(world, "confirmation")
    assert row.recipient == player_address("FRANCE")
    lines = _confirmation_lines(plain_text(row))
    assert len(lines) <= 15, "\n".join(lines)
    text = "\n".join(lines)
    assert "Your orders were received and read as written. On file (set version 1):" in text
    for order in ("A Paris -> Burgundy (A PAR - BUR)", "F Brest -> Mid-Atlantic Ocean (F BRE - MAO)",
                  "A Marseilles -> Spain (A MAR - SPA)"):
        assert f"\n  {order}\n" in text
    assert "3 lines of greeting and signature not read as orders." in text
    assert "Deadline: " in text and "reply to this mail" in text
    assert "ignored" not in text and "line 1" not in text  # no line listed one by one


def test_a_set_from_the_fallback_address_is_confirmed_to_the_registered_address_too(world, clock) -> None:
    """sender_policy registered_with_fallback: the registered address hears of every set filed in
    the power's name, with its own reply address (a reply from there proves its sender)."""
    backup = "france.backup@players.test"
    [(_, outcome)] = send_orders(world, clock(), "FRANCE", CLEAN_SET, "S1901M", sender=backup)
    assert outcome == "accepted"
    rows = {row.recipient: row for row in outbox_rows(world, "confirmation")}
    assert sorted(rows) == sorted([backup, player_address("FRANCE")])
    registered = rows[player_address("FRANCE")]
    assert plain_text(registered) == plain_text(rows[backup])
    assert player_reply_address(world, "FRANCE") in registered.raw.decode()


def test_a_set_from_the_registered_address_is_confirmed_once(world, clock) -> None:
    send_orders(world, clock(), "FRANCE", CLEAN_SET, "S1901M")
    assert [row.recipient for row in outbox_rows(world, "confirmation")] == [player_address("FRANCE")]
