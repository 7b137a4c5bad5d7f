"""The player's secret: on the Reply-To of mail to them, never in the text read as orders or press."""

from __future__ import annotations

from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.rules.reading.message import extract_order_text, extract_press_text, split_message

SECRET = "k3xq7m2pa5rtw4zd"


def composer() -> Composer:
    return Composer(TEMPLATES_DIR, gm_name="Garry, Lord of the March", gm_address="gm@lepanto.example")


def test_reply_to_is_the_players_reply_address() -> None:
    message = composer().compose(to="fr@players.test", subject="s", body="b", auto_submitted="auto-generated",
                                 reply_secret=SECRET)
    [address] = message["Reply-To"].addresses
    assert address.addr_spec == f"gm+{SECRET}@lepanto.example"
    assert address.display_name == "Garry, Lord of the March"
    assert str(message["From"].addresses[0].addr_spec) == "gm@lepanto.example"


def test_no_secret_no_reply_to() -> None:
    message = composer().compose(to="x@strangers.test", subject="s", body="b", auto_submitted="auto-replied")
    assert message["Reply-To"] is None


def test_password_lines_are_neither_orders_nor_press() -> None:
    body = (f"A PAR - BUR\nPassword: {SECRET}\nF BRE - MAO\n\nPress to England:\nhello\n"
            f"  password = {SECRET}\nEnd press\n")
    orders, press = split_message(body)
    assert orders == "A PAR - BUR\nF BRE - MAO" and press == "hello"
    raw = (b"From: fr@players.test\r\nTo: gm@lepanto.example\r\nSubject: s\r\n\r\n"
           + f"PASSWORD:{SECRET}\r\nA MAR H\r\n".encode())
    assert extract_order_text(raw) == "A MAR H" and SECRET not in extract_press_text(raw)
