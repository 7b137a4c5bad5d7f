"""Every answer tells the player to reply to it: a reply carries the player's reply address (the
Reply-To of gmserver's mail), which proves the sender; a new message to the GM's address does not,
and in a game that verifies senders it is refused. No player template, and no refusal written in
the code, tells a player to write or send a new message."""

from __future__ import annotations

import ast
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports.replies import build_rejection
from gmserver.rules.envelope import parse_envelope
from gmserver.rules.intake import GameView, Reject, decide
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from tests.support.world import order_mail

GMSERVER = Path(__file__).resolve().parents[2] / "gmserver"
NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
# what sends a player to the GM's plain address, without the proof a reply carries
NEW_MESSAGE = re.compile(r"new message|new mail|write a new|send a new|send (?:it|the orders|your orders) again"
                         r"|send a corrected", re.IGNORECASE)


@pytest.mark.parametrize("template", sorted(p.name for p in (TEMPLATES_DIR / "player").glob("*.j2")))
def test_no_player_template_asks_for_a_new_message(template: str) -> None:
    text = " ".join((TEMPLATES_DIR / "player" / template).read_text(encoding="utf-8").split())
    assert not NEW_MESSAGE.search(text), NEW_MESSAGE.search(text)


def _strings_said(path: Path) -> list[str]:
    """The string constants of a module, its docstrings and log messages left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            skipped.add(id(body[0].value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and node.func.value.id == "log":
            skipped.update(id(n) for arg in node.args for n in ast.walk(arg))
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and id(node) not in skipped]


@pytest.mark.parametrize("folder", ["rules", "services", "reports"])
def test_no_refusal_in_the_code_asks_for_a_new_message(folder: str) -> None:
    """The refusals of a reply to a results report (rules/intake.py), of a message too large to
    read (services/inbox/routing.py) and every other answer written in the code."""
    # gm_commands: the answers to the GM's own command mail, which a GM sends afresh by design
    said = [(path.relative_to(GMSERVER), text) for path in sorted((GMSERVER / folder).rglob("*.py"))
            if path.name != "gm_commands.py"
            for text in _strings_said(path) if NEW_MESSAGE.search(" ".join(text.split()))]
    assert said == []


def test_a_reply_to_a_results_report_is_told_to_reply_with_the_subject_changed_003_10() -> None:
    """003 [10] "do not just reply to an adjudication": the refusal says to reply to it with the
    subject it offers, never to write a new message (which would lack the sender's proof)."""
    game = GameView(id=1, name="lepanto", ruleset=load_ruleset("scorpion"), phase="F1901M",
                    deadline=NOW + timedelta(days=1), status="active", players={"FRANCE": ("fr@p.test", None)})
    report = format_subject(template="scorpion", game_name="lepanto", power="FRANCE", phase="S1901M",
                            purpose="report")
    decision = decide(parse_envelope(order_mail("fr@p.test", "Re: " + report, "A PAR H")), [game], NOW)
    assert isinstance(decision, Reject) and decision.expected_subject
    answer = build_rejection(decision.reasons, decision.expected_subject, original_subject="Re: " + report,
                                     original_date=NOW, game_name="lepanto")
    body = " ".join(Composer(TEMPLATES_DIR, gm_name="GM", gm_address="gm@gm.test")
                    .render(answer.template, answer).split())
    assert "reply to this mail with the subject changed to the one below" in body
    assert "Please reply to this mail with it corrected." in body
    assert not NEW_MESSAGE.search(body)
