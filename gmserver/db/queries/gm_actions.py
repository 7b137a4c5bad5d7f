"""The record of GM actions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gmserver.db.models import GmAction, GmCommandMail, OutboxMessage


def record_action(session: Session, game_id: int, action: str, arguments: dict[str, Any], by: str,
                  at: datetime, result: str) -> GmAction:
    row = GmAction(game_id=game_id, action=action, arguments=arguments, by=by, at=at, result=result)
    session.add(row)
    session.flush()  # its id names the announcement's dedupe key
    return row


def actions_of(session: Session, game_id: int) -> list[GmAction]:
    """The game's GM actions, oldest first."""
    return list(session.scalars(select(GmAction).where(GmAction.game_id == game_id).order_by(GmAction.id)))


def command_mail(session: Session, digest: str) -> GmCommandMail | None:
    """The GM command mail carried out under `digest` (rules.gm_commands.command_digest), if any."""
    return session.scalar(select(GmCommandMail).where(GmCommandMail.digest == digest))


def record_command_mail(session: Session, game_id: int, digest: str, inbound_id: int | None, at: datetime) -> None:
    session.add(GmCommandMail(game_id=game_id, digest=digest, inbound_id=inbound_id, at=at))
    session.flush()  # a second line the same in this mail finds it


def announced_actions(session: Session, game_id: int) -> list[GmAction]:
    """The game's GM actions the players were told of (an announcement was queued for them:
    outbox dedupe key `gm-action:{action id}:...`, services/base/gm_mail.announce), oldest first."""
    keys = session.scalars(select(OutboxMessage.dedupe_key).where(
        OutboxMessage.game_id == game_id, OutboxMessage.kind == "gm-action"))
    ids = {int(part) for key in keys if (part := key.split(":")[1]).isdigit()}
    return [row for row in actions_of(session, game_id) if row.id in ids]
