"""Notices for the human GM about a game (a power in civil disorder, a replacement to find, a
solo to rule on, a stalemate): queued through the outbox in the caller's transaction, to
`[gm] alert_address` (or the GM's own address), each once under its dedupe key."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.services.base import outgoing
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import queue

# The notices' dedupe keys, "gm:KIND:GAME_ID:...", in words for `gmserver outbox list`
_KINDS = {
    "s1901": "waits for replacements in Spring 1901 (003 [14])",
    "nmr": "missed orders",
    "abandoned": "a position abandoned (001 V(1))",
    "resigned": "a player resigned",
    "search": "a search for a replacement ended (001 V(3))",
    "preliminary": "no orders yet for Spring 1901 (000 II(1))",
    "springsolo": "a possible solo in Spring (003 [23])",
    "stalemate": "no supply centre changed hands (stalemate)",
    "delay": "a player's delay request (000 VII(5))",
    "proxy": "a proxy asked for, given or cancelled (000 II(3), 003 [19])",
    "pressauthors": "the authors of anonymous press, after the game (000 X(2))",
    "fromsender": "senders not verified (From alone)",
}


def describe_notice(dedupe_key: str) -> str | None:
    """`gm:nmr:12:F1901M:RUSSIA:tell_gm_cd` -> "game 12: missed orders (F1901M RUSSIA
    tell_gm_cd)"; None for a key that is not a notice's."""
    prefix, kind, rest = (dedupe_key.split(":", 2) + ["", ""])[:3]
    if prefix != "gm" or kind not in _KINDS:
        return None
    game, _, details = rest.partition(":")
    return f"game {game}: {_KINDS[kind]}" + (f" ({details.replace(':', ' ')})" if details else "")


def gm_notice_address(services: Services) -> str:
    return services.alerts_to or services.composer.gm_address


def notify_gm(session: Session, services: Services, *, key: str, subject: str, paragraphs: Sequence[str],
              now: datetime, game_id: int | None = None) -> bool:
    """Queue one notice (False if one with `key` was queued before). Marked auto-generated:
    the GM's mailbox may be gmserver's own, and intake never reads automated mail."""
    body = services.composer.render("gm/notice.txt.j2", {"paragraphs": list(paragraphs)})
    message = outgoing.message(services, to=gm_notice_address(services), subject=subject, body=body, now=now)
    return queue(session, message, kind="alert", dedupe_key=key, now=now, game_id=game_id)
