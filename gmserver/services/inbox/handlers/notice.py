"""The plain answer to a message that is not an order set, under a limit like every reply's.

One answer per message (dedupe key `notice:<inbound id>`), to the sender, as a reply in its
thread, never to automated mail (intake ignores that before any handler runs), and at most
NOTICES_PER_HOUR to one address: a robot that answers every answer with a "STATUS" cannot make
the GM's server a mail loop.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from gmserver.db.queries.games import deadline_of
from gmserver.db.queries.players import player_of
from gmserver.reports.words import format_time
from gmserver.rules.position import describe_phase
from gmserver.rules.press import NON_PLAYER
from gmserver.services.base import mails
from gmserver.services.base.outbox import queue
from gmserver.services.base.reply_limits import (
    NOTICE_KIND as KIND,
)
from gmserver.services.base.reply_limits import (
    NOTICES_PER_HOUR,
    SIGNUP_KIND,
    STRANGER_NOTICE_KIND,
    replies_since,
    signup_may_be_answered,
    stranger_may_be_answered,
)
from gmserver.services.inbox.handlers.mail import Mail

log = logging.getLogger(__name__)


def answer(mail: Mail, template: str, context: Mapping[str, Any],
           attachments: Sequence[tuple[str, bytes]] = (), *, stranger: bool = False,
           signup: bool = False, token: str | None = None) -> bool:
    """Queue the answer rendered from templates/player/`template` (with `attachments`: (file
    name, bytes), a .png or a .ics); False when the limit held it back (the message is kept all the same).
    `stranger`: the sender plays no power in the game (press from a non-player, 002 PRESS 2), so
    the limits on answering strangers apply (services.base.reply_limits). `signup`: an open
    sign-up answer, from anyone (its own limits), its Reply-To carrying `token` where a reply
    confirms the request."""
    address = mail.envelope.sender
    since = mail.now - timedelta(hours=1)
    if signup:
        if not signup_may_be_answered(mail.session, address, mail.now):
            log.warning("inbound %s from %s kept without a sign-up answer: limits on sign-up answers",
                        mail.row.id, address)
            return False
    elif stranger:
        if not stranger_may_be_answered(mail.session, address, mail.now):
            log.warning("inbound %s from non-player %s kept without a reply: limits on answering strangers",
                        mail.row.id, address)
            return False
    elif (sent := replies_since(mail.session, address, (KIND,), since)) >= NOTICES_PER_HOUR:
        log.warning("inbound %s from %s (%s) kept without a reply: %d answers already sent to it since %s",
                    mail.row.id, address, mail.kind.kind, sent, since.isoformat(timespec="minutes"))
        return False
    body = mail.services.composer.render(template, {**common_context(mail), **context})
    message = mails.notice(mail.services, mail.envelope, mail.decision, body, mail.now, attachments, token=token)
    game = mail.game
    kind = SIGNUP_KIND if signup else STRANGER_NOTICE_KIND if stranger else KIND
    return queue(mail.session, message, kind=kind,
                 dedupe_key=f"notice:{mail.row.id}", now=mail.now, game_id=game.id if game is not None else None)


def common_context(mail: Mail) -> dict[str, Any]:
    """What every answer may say: the message answered, and where its game stands."""
    game = mail.game
    return {
        "inbound_id": mail.row.id,
        "original_subject": mail.envelope.subject or "(no subject)",
        "original_date": mail.envelope.date,
        "game_name": game.name if game is not None else None,
        "power_name": (mail.decision.power.title() if mail.decision is not None and mail.decision.power != NON_PLAYER
                       else None),
        "phase": describe_phase(game.phase) if game is not None else None,
        "deadline": _deadline(mail),
        "more_text": mail.kind.more_text,
    }


def _deadline(mail: Mail) -> Any:
    """The game's deadline read now, not as intake saw it: an ABSENCE answer shows the moved one."""
    game = mail.game
    if game is None:
        return None
    deadline = deadline_of(mail.session, game.id)
    return format_time(deadline, game.timezone, _reader_zone(mail)) if deadline is not None else None


def _reader_zone(mail: Mail) -> str | None:
    """The zone the asking player chose (SET ZONE), read now: a SET ZONE answer shows the new one."""
    if mail.decision is None or mail.decision.power == NON_PLAYER:
        return None
    player = player_of(mail.session, mail.decision.game.id, mail.decision.power)
    return player.zone if player is not None else None
