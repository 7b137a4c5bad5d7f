"""A stranger's HTML bomb (HTML that took html.parser time growing with the square of its size)
neither stalls intake nor keeps a player's mail from being stored: its text is read before the
transaction that carries it out, so on SQLite the database's write lock is not held meanwhile,
and reading it costs a bounded, linear amount of CPU."""

from __future__ import annotations

import threading

import pytest

from gmserver.rules.reading import message
from gmserver.rules.reading.message import MAX_HTML_CHARS, MAX_TEXT_CHARS
from gmserver.services.inbox import runner as intake
from tests.support.hostile import HTML_BOMB_SHAPES, html_bomb
from tests.support.intake_rows import outbox_rows, plain_text, player_reply_address
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

FRANCE = player_address("FRANCE")
SUBJECT = "lepanto France S1901M"
# html.parser took minutes on 400 KB of "<a<a<a..." (42 s at 100 KB, 213 s at 200 KB)
BOMB_BYTES = 400_000
# waits for an event, never a measure of speed: generous even on a loaded machine
WAIT_SECONDS = 120


def _proven(services, body: str, subtype: str = "plain") -> bytes:
    """France's order mail sent to France's reply address: proof of its sender in a verified game."""
    raw = order_mail(FRANCE, SUBJECT, body, to=f"Test GM <{player_reply_address(services, 'FRANCE')}>")
    if subtype == "html":
        raw = raw.replace(b"Content-Type: text/plain", b"Content-Type: text/html")
    return raw


@pytest.mark.parametrize("shape", sorted(HTML_BOMB_SHAPES))
def test_proven_orders_are_stored_and_answered_while_a_stranger_s_html_bomb_is_read(
        database_url, clock, monkeypatch, shape: str) -> None:
    """Before, the bomb's text was converted inside its transaction: on SQLite the write lock was
    held for minutes and France's mail, stored while it was read, got "database is locked". Here
    the bomb's reading waits until France's mail is answered (so whatever the reading costs, the
    lock must not be held meanwhile), then must end."""
    services = services_for(database_url)
    new_game(services, clock(), sender_check="verified")
    bomb = intake.store(services.sessions, html_bomb(BOMB_BYTES, shape), source="smtp", now=clock()).id
    reading, answered = threading.Event(), threading.Event()
    parts = message._parts

    def noticed_parts(parsed):  # type: ignore[no-untyped-def]
        if threading.current_thread().name == "bomb" and not reading.is_set():
            reading.set()  # the bomb's body is being read now
            answered.wait(WAIT_SECONDS)
        return parts(parsed)

    monkeypatch.setattr(message, "_parts", noticed_parts)
    outcomes: list[str | None] = []
    worker = threading.Thread(target=lambda: outcomes.append(intake.process_one(services, bomb, clock())),
                              name="bomb", daemon=True)
    worker.start()
    assert reading.wait(WAIT_SECONDS)
    orders = intake.store(services.sessions, _proven(services, "A PAR - BUR\nF BRE - MAO\n"), source="smtp",
                          now=clock()).id
    assert intake.process_one(services, orders, clock()) == "accepted"
    answered.set()
    worker.join(WAIT_SECONDS)
    assert not worker.is_alive() and outcomes == ["rejected"]  # the stranger is told once
    [confirmation] = [row for row in outbox_rows(services, "confirmation") if row.recipient == FRANCE]
    assert "A Paris -> Burgundy (A PAR - BUR)" in plain_text(confirmation)


def test_a_long_html_order_mail_is_read_and_the_player_told_the_rest_was_not(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), sender_check="verified")
    body = "<p>A Par - Bur</p><p>F Bre - MAO</p>" + "<p>filler</p>" * (MAX_HTML_CHARS // 13) + "<p>A Mar - Spa</p>"
    stored = intake.store(services.sessions, _proven(services, body, "html"), source="smtp", now=clock()).id
    assert intake.process_one(services, stored, clock()) == "accepted"
    [confirmation] = outbox_rows(services, "confirmation")
    text = " ".join(plain_text(confirmation).split())
    assert (f"Your message is longer than gmserver reads: only the first {MAX_HTML_CHARS:,} characters of its "
            f"HTML were read (it has no plain text); only the first {MAX_TEXT_CHARS:,} characters of its text "
            "were read; the rest was not read.") in text, text
    assert "Burgundy" in text and "Spain" not in text
