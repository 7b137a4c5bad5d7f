"""The messages each use case sends: report values (gmserver.reports) rendered and addressed."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from sqlalchemy import Row

from gmserver.db.models import Game, Player
from gmserver.db.queries.games import ruleset_of
from gmserver.engine import position_from_state
from gmserver.mail.compose import fill
from gmserver.mail.written import WrittenMail
from gmserver.reports.reminders import build_reminder
from gmserver.reports.replies import build_confirmation, build_rejection
from gmserver.rules.authenticity import reply_address, reply_token
from gmserver.rules.briefing import subject_rule
from gmserver.rules.envelope import Envelope
from gmserver.rules.intake import Accept, Reject, expected_subject
from gmserver.rules.position import Position
from gmserver.rules.reading.model import Reading
from gmserver.rules.safetext import safe_text
from gmserver.rules.set_feedback import Feedback
from gmserver.rules.subject import format_subject
from gmserver.services.base import orders_map, outgoing
from gmserver.services.base.context import Services
from gmserver.services.base.page_tokens import own_link
from gmserver.services.base.reply_tokens import token_of

log = logging.getLogger(__name__)


def line_as_dict(line: Any) -> dict[str, Any]:
    return {"line": line.line, "text": safe_text(line.text), "status": line.status,
            "order": None if line.order is None else str(line.order), "rule": line.rule,
            "message": None if line.message is None else safe_text(line.message)}


def confirmation(services: Services, envelope: Envelope, decision: Accept, reading: Reading, version: int,
                 position: Position, now: datetime, feedback: Feedback | None = None,
                 player: Player | Row[Any] | None = None) -> WrittenMail:
    """The confirmation of a filed set, written as the outbox stores it; `player` (the power's: its
    object, or the plain row filing reads) for what they chose: SET ZONE, SET CONFIRM."""
    game = decision.game
    # the units this set should cover, so that the reply can list those still without an order
    units = {"M": position.units, "R": position.dislodged}.get(position.phase_type, {}).get(decision.power, ())
    secret = outgoing.reply_secret(decision, envelope)
    context = build_confirmation(
        game_name=game.name, power=decision.power, phase=decision.phase, deadline=game.deadline,
        readings=reading.lines, orders_on_file=reading.orders, version=version, geography=services.geography,
        units=units, notes=reading.notes, marker=reading.version, feedback=feedback, timezone=game.timezone,
        reader_zone=player.zone if player is not None else None,
        brief=player is not None and player.confirm_style == "brief",
        # the player's own reply address (the answer's Reply-To), never the bare GM address
        order_address=reply_address(services.composer.gm_address, secret) if secret else None,
        order_subject=expected_subject(game, decision.power),
    )
    body = services.composer.render(context.template, context)
    if decision.warnings:
        body = fill("Note: " + " ".join(decision.warnings), 72) + "\n\n" + body
    return outgoing.written_reply(services, envelope, body, now, secret=secret)


def confirmation_map(decision: Accept, reading: Reading, position: Position,
                     player: Player | Row[Any] | None = None) -> dict[str, Any] | None:
    """The outbox row's request for the confirmation's small map of the power's orders on file as
    read, so that a misread order is seen before the deadline (services/base/orders_map.py draws it
    when the mail is written); None with SET CONFIRM brief or no order to draw."""
    if player is not None and player.confirm_style == "brief":
        return None
    filename = f"{decision.game.name}-{decision.power.lower()}-{decision.phase}-orders.png"
    return orders_map.request(decision.power, reading.orders, position, filename)


def rejection(services: Services, envelope: Envelope, decision: Reject, now: datetime) -> EmailMessage:
    rules: tuple[str, ...] = ()
    game_over = decision.game is not None and decision.game.status == "finished"
    if decision.game is not None and not game_over:  # an ended game accepts nothing: no rule to offer
        rules = (f"Orders for {decision.game.name} are accepted from each power's registered address.",)
        if decision.expected_subject:  # 000 II(2) b, 003 [10]: the subject rule it broke, beside the example
            rules = (subject_rule(decision.game.ruleset), *rules)
    context = build_rejection(
        decision.reasons, decision.expected_subject, original_subject=envelope.subject,
        original_date=envelope.date, game_name=decision.game.name if decision.game else None, rules=rules,
        game_over=game_over, subjects=decision.subjects,
    )
    return outgoing.reply(services, envelope, services.composer.render(context.template, context), now,
                          secret=outgoing.reply_secret(decision, envelope))


def reminder(services: Services, game: Game, player: Player, state: dict[str, Any], now: datetime,
             has_orders: bool = False) -> EmailMessage:
    template = ruleset_of(game).subject_template
    expected = format_subject(template=template, game_name=game.name, power=player.power, phase=game.phase,
                              purpose="orders")
    context = build_reminder(
        game_name=game.name, power=player.power, phase=game.phase, deadline=game.deadline, now=now,
        # the player's own reply address: a message sent there proves its sender (never the bare GM
        # address: mail there proves nothing in a game that checks senders)
        expected_subject=expected, order_address=(reply_address(services.composer.gm_address, token)
                                                  if (token := token_of(player, game.phase)) else None),
        position=position_from_state(state), geography=services.geography, timezone=game.timezone,
        has_orders=has_orders, page_link=own_link(services.web_base_url, player, now), reader_zone=player.zone,
    )
    subject = format_subject(template=template, game_name=game.name, power=player.power, phase=game.phase,
                             purpose="reminder")
    return outgoing.message(services, to=player.address, subject=subject,
                            body=services.composer.render(context.template, context), now=now,
                            secret=token_of(player, game.phase))


def unverified_sender(services: Services, game: Game, player: Player, envelope: Envelope,
                      findings: tuple[str, ...], now: datetime) -> EmailMessage:
    """To the power's registered address when a message in its name proved nothing.

    It holds the player's password and current reply address: it goes only to the player's own
    address, never to the sender of the refused message."""
    assert player.secret, "a verified game's players have secrets"
    body = services.composer.render("player/unverified.txt.j2", {
        "power_name": player.power.title(), "game_name": game.name, "claimed_from": envelope.sender,
        "original_subject": envelope.subject or "(no subject)", "original_date": envelope.date,
        "findings": findings,
        "reply_address": reply_address(services.composer.gm_address, reply_token(player.secret, game.phase)),
        "password": player.secret,
    })
    return outgoing.message(services, to=player.address,
                            subject=f"{game.name}: a message in your name was not accepted", body=body, now=now,
                            secret=reply_token(player.secret, game.phase), auto_submitted="auto-replied")


def one_time(services: Services, *, to: str, subject: str, body: str, token: str | None,
             now: datetime) -> EmailMessage:
    """A mail whose Reply-To carries a one-time token (an address change's confirmation or
    cancellation, services.address_changes) instead of the player's reply token."""
    return outgoing.message(services, to=to, subject=subject, body=body, now=now, secret=token)


def notice(services: Services, envelope: Envelope, decision: Accept | Reject | None, body: str,
           now: datetime, attachments: Sequence[tuple[str, bytes]] = (), *,
           token: str | None = None) -> EmailMessage:
    """The answer to press, a request, a vote, a GM command or a message not understood
    (gmserver.services.inbox.handlers): a reply in the sender's thread. `attachments`: (file name,
    bytes), a `.png` (the map a MAP request asks for) or a `.ics` (the deadline a delay moved).
    `token`: a one-time token for the Reply-To instead of the player's (a sign-up request, which a
    reply confirms: services.features.signup)."""
    secret = token if token is not None else outgoing.reply_secret(decision, envelope)
    message = outgoing.reply(services, envelope, body, now, secret=secret)
    for filename, data in attachments:
        maintype, subtype = _ATTACHMENT_TYPES[filename.rsplit(".", 1)[-1]]
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    return message


# what an answer may carry, by the file name's ending
_ATTACHMENT_TYPES = {"png": ("image", "png"), "ics": ("text", "calendar")}
