"""A vote on ending the game: a draw or a concession (MATRIX 2.10).

Votes are not counted yet: the vote is kept for the GM and the voter told so. What this game's
house rules offer (`vote_kinds`) is applied already: a kind they do not offer is answered as such.
"""

from __future__ import annotations

from gmserver.services.handlers import notice
from gmserver.services.handlers.mail import Mail

TEMPLATE = "player/vote.txt.j2"
OUTCOME = "vote-held"
NOT_OFFERED = "vote-refused"

_NAMES = {"draw": "draw", "concession": "concession", "rule_change": "rule change",
          "deadline_change": "deadline change", "end_game_any_terms": "end of the game on any terms"}


def handle(mail: Mail) -> str:
    assert mail.game is not None, "a vote comes from a power of a game"
    topic = mail.kind.topic or "draw"
    offered = mail.game.ruleset.vote_kinds
    # 003 [18]: "end the game on any terms" covers a draw and a concession
    allowed = topic in offered or "end_game_any_terms" in offered
    notice.answer(mail, TEMPLATE, {
        "vote": _NAMES.get(topic, topic), "argument": mail.kind.argument, "allowed": allowed,
        "offered": [_NAMES.get(kind, kind) for kind in sorted(offered)],
    })
    return OUTCOME if allowed else NOT_OFFERED
