"""The kind of a message (gmserver.rules.mailkind): a table of subjects and bodies, with the
clause each row rests on where the house rules say what players write."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest

from gmserver.commands.registry import MAIL_WORDS, PLAYER_SUBJECT_WORDS, PLAYER_WORDS
from gmserver.rules import mailkind
from gmserver.rules.mailkind import KINDS, MailKind, classify
from gmserver.rules.reading.message import split_message

ORDERS_SUBJECT = "lepanto France S1901M"

# (subject, body, expected kind, expected topic, why)
TABLE = [
    (ORDERS_SUBJECT, "A PAR - BUR\nF BRE - MAO", "orders", None, "plain orders"),
    (ORDERS_SUBJECT, "", "orders", None, "an empty message is read as orders, as before kinds"),
    (ORDERS_SUBJECT, "Hi GM, my orders follow\nA PAR - BUR", "orders", None, "prose before orders"),
    (ORDERS_SUBJECT, "A PAR - BUR\n\nPRESS\nEngland is not to be trusted.\nEND PRESS", "orders+press", None,
     "003 [9]: press written in the order set"),
    (ORDERS_SUBJECT, "Press to England:\nShall we?", "press", None, "a press section alone"),
    ("lepanto press", "England is not to be trusted.", "press", None, "a press subject makes the body press"),
    ("lepanto France press and orders", "A PAR - BUR", "orders", None, "a subject that says orders: body decides"),
    ("lepanto", "STATUS", "request", "status", "a keyword line"),
    ("lepanto", "status please", "request", "status", "the keyword starts the line"),
    ("lepanto status", "", "request", "status", "a subject keyword"),
    ("Re: lepanto France S1901M", "History", "request", "history", "a keyword line under a reply subject"),
    ("lepanto", "MAP", "request", "map", "a keyword line"),
    ("lepanto", "Rules: may I proxy?", "request", "rules", "a keyword line with an argument"),
    ("lepanto", "DELAY: travelling until Friday", "request", "delay", "000 VII(5): requests for delay"),
    ("lepanto", "Extension please, ill", "request", "delay", "003 [10]: notify the GM of an extension"),
    ("lepanto", "DRAW Austria England France", "vote", "draw", "000 IX(2), 002 DRAWS 1: draws"),
    ("lepanto", "Concede to Russia", "vote", "concession", "000 IX(1): concessions"),
    ("lepanto draw", "", "vote", "draw", "a subject keyword"),
    ("lepanto", "DEADLINE 14 days", "vote", "deadline_change", "003 [18] ¶2: a deadline change"),
    ("lepanto deadline", "A PAR - BUR", "orders", None, "deadline is a keyword of the body only"),
    ("lepanto", "RULE CHANGE: no press in Winter", "vote", "rule_change", "000 IX(3): a rule change in words"),
    ("lepanto", "Rule change 12 no", "vote", "rule_change", "001 VIII(3): a ballot on a rule change"),
    ("lepanto", "END GAME: Austria and England share a draw", "vote", "end_game_any_terms",
     "003 [18] ¶1: an end of the game on any terms"),
    ("lepanto", "TURN LENGTH 14", "vote", "turn_length", "003 [23]: the turn-length vote at the start"),
    ("lepanto", "COMPLAIN DRAW", "vote", "draw_complaint", "002 DRAWS 5: a complaint about a passed draw"),
    ("lepanto end game", "A PAR - BUR", "orders", None, "two-word keywords are read in the body only"),
    ("lepanto status", "DRAW", "unknown", None, "two things in one message"),
    ("lepanto status draw", "", "unknown", None, "two keywords in the subject"),
    ("lepanto map", "MAP", "request", "map", "the same keyword twice is one request"),
    ("lepanto France S1901M history lesson", "A PAR - BUR", "orders", None, "a subject naming a turn is orders'"),
    ("lepanto Spring 1901 press", "A PAR - BUR", "orders", None, "a season names the turn"),
    ("Re: lepanto England Spring 1901 results", "DRAW", "vote", "draw", "a keyword line under any subject"),
    ("lepanto", "ORDERS", "request", "orders", "the player's own orders on file"),
    ("lepanto", "HISTORY F1901", "request", "history", "one phase's history"),
    (ORDERS_SUBJECT, "Orders:\nA PAR - BUR", "orders", None, "an 'Orders:' line heading an order set"),
    ("lepanto orders", "", "orders", None, "'orders' in a subject is an order set's, never the request"),
]


@pytest.mark.parametrize(("subject", "body", "kind", "topic", "why"), TABLE, ids=[row[4] for row in TABLE])
def test_kind_of_a_message(subject: str, body: str, kind: str, topic: str | None, why: str) -> None:
    order_text, press_text = split_message(body)
    found = classify(subject=subject, order_text=order_text, press_text=press_text, game_names=["lepanto"],
                     player_commands=PLAYER_WORDS, subject_commands=PLAYER_SUBJECT_WORDS)
    assert (found.kind, found.topic) == (kind, topic), why
    assert found.kind in KINDS


def test_a_game_named_like_a_keyword_is_not_a_keyword() -> None:
    found = classify(subject="Draw Hill France S1901M", order_text="A PAR - BUR", press_text="",
                     game_names=["Draw Hill"])
    assert found == MailKind("orders")
    # an accented game name is set aside as the subject matcher reads it (accents dropped)
    found = classify(subject="Carte Blanche status", order_text="", press_text="", game_names=["Càrte Blanche"])
    assert (found.kind, found.topic) == ("request", "status")
    assert classify(subject="Cárte lepanto", order_text="A PAR H", press_text="", game_names=["Carte"]).kind == "orders"


def test_the_keyword_line_keeps_its_argument_and_says_when_more_text_followed() -> None:
    found = classify(subject="lepanto", order_text="DRAW: Austria, England\nA PAR - BUR", press_text="")
    assert found == MailKind("vote", "draw", "Austria, England", more_text=True)
    assert classify(subject="lepanto", order_text="Draw:Austria", press_text="").argument == "Austria"


@pytest.mark.parametrize(("subject", "body", "reason"), [
    ("lepanto", "DELAY\nTravelling this weekend.\nBack on Monday.", "Travelling this weekend. Back on Monday."),
    ("lepanto delay", "Travelling this weekend.", "Travelling this weekend."),
    ("lepanto", "DELAY: ill\nSorry.", "ill"),
])
def test_a_delay_request_s_reason_may_follow_on_the_next_lines_000_VII_5(subject: str, body: str,
                                                                           reason: str) -> None:
    """000 VII(5), 003 [10]: "send the GM a message whose first line is DELAY, with your reason":
    a bare DELAY line (or a DELAY subject) takes the lines after it as the reason the GM is told,
    so they are not called unread orders; a reason on the DELAY line itself is the reason."""
    found = classify(subject=subject, order_text=body, press_text="")
    assert (found.kind, found.topic, found.argument) == ("request", "delay", reason)
    assert found.more_text == (reason == "ill")


def _from_gm(subject: str, order_text: str) -> MailKind:
    return classify(subject=subject, order_text=order_text, press_text="", from_gm=True, gm_commands=MAIL_WORDS)


def test_mail_from_the_gm_is_a_command_whatever_it_says() -> None:
    assert _from_gm("lepanto", "PROCESS lepanto") == MailKind("command", "process", "lepanto")
    assert _from_gm("lepanto", "A PAR - BUR").kind == "command"
    assert _from_gm("extend lepanto", "").topic == "delay"
    assert _from_gm("hello", "please look at this").topic is None


@pytest.mark.parametrize("line, command", [
    ("audit lepanto", "audit"),  # 000 VIII(2), VIII(3)
    ("clarify lepanto FRANCE off", "clarify"),  # 000 III(1) (a)
    ("orders lepanto FRANCE A PAR - BUR", "correct"),
    ("repair lepanto FRANCE A MOS confirm", "repair"),  # 000 VIII(2), VIII(3)
])
def test_every_gm_command_word_is_classified_as_its_command(line: str, command: str) -> None:
    """The classifier's own word list had drifted from the mail commands (audit, clarify, orders
    and repair were carried out but recorded as no command): it now takes the registry's words."""
    assert _from_gm("lepanto", line) == MailKind("command", command, line.split(None, 1)[1])


def test_the_classifier_keeps_no_list_of_gm_command_words() -> None:
    assert not hasattr(mailkind, "GM_COMMANDS")
    assert classify(subject="lepanto", order_text="audit lepanto", press_text="", from_gm=True).topic is None


def test_two_things_are_named_in_the_reason() -> None:
    found = classify(subject="lepanto status", order_text="DRAW", press_text="")
    assert found.reason is not None and "draw" in found.reason and "status" in found.reason


def test_every_order_email_of_the_corpus_stays_orders() -> None:
    """The golden emails of tests/data/orders are all order mail: none may turn into a request,
    a vote or press (the one with a press section is orders with press)."""
    found = {}
    for path in sorted((Path(__file__).resolve().parents[1] / "data" / "orders" / "emails").glob("*.eml")):
        raw = path.read_bytes()
        subject = str(email.message_from_bytes(raw, policy=email.policy.default).get("Subject", ""))
        order_text, press_text = split_message(raw)
        found[path.name] = classify(subject=subject, order_text=order_text, press_text=press_text).kind
    assert len(found) > 10
    assert {name: kind for name, kind in found.items() if kind != "orders"} == {"press-section.eml": "orders+press"}
