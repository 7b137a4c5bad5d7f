"""The messages each use case sends: report values (gmserver.reports) rendered and addressed."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from gmserver import reports
from gmserver.db.models import Game, Player
from gmserver.db.queries.games import ruleset_of
from gmserver.engine import position_from_state
from gmserver.mail.compose import fill
from gmserver.rules.authenticity import reply_address, reply_token
from gmserver.rules.briefing import subject_rule
from gmserver.rules.envelope import Envelope, usable_message_id
from gmserver.rules.intake import Accept, Reject
from gmserver.rules.position import Position
from gmserver.rules.reading import Reading
from gmserver.rules.safetext import safe_text
from gmserver.rules.set_feedback import Feedback
from gmserver.rules.subject import format_subject
from gmserver.services.base.context import Services
from gmserver.services.base.page_tokens import own_link
from gmserver.services.base.reply_tokens import token_of

log = logging.getLogger(__name__)


def line_as_dict(line: Any) -> dict[str, Any]:
    return {"line": line.line, "text": safe_text(line.text), "status": line.status,
            "order": None if line.order is None else str(line.order), "rule": line.rule,
            "message": None if line.message is None else safe_text(line.message)}


# RFC 5322 3.6.4: a reply carries its parent's References. A hostile References header must not
# make the reply huge or carry anything but message ids: only the last few well-formed ones are kept.
MAX_REFERENCES = 10


def _references(envelope: Envelope) -> list[str]:
    try:
        value = envelope.message.get("References")
    except Exception:  # noqa: BLE001  a malformed header costs the thread, never the reply
        return []
    return [ref for ref in str(value or "").split() if usable_message_id(ref)][-MAX_REFERENCES:]


def _reply(services: Services, envelope: Envelope, subject: str, body: str, now: datetime,
           reply_secret: str | None = None) -> EmailMessage:
    return services.composer.compose(
        to=envelope.sender, subject=subject, body=body, in_reply_to=envelope.message_id,
        references=_references(envelope), auto_submitted="auto-replied", date=now, reply_secret=reply_secret,
    )


def _secret_of(decision: Accept | Reject, envelope: Envelope) -> str | None:
    """The token of the power's reply address when the reply goes to one of that power's own
    registered addresses (never to anyone else: it proves a sender in a "verified" game)."""
    game, power = decision.game, decision.power
    if game is None or power is None or envelope.sender not in (game.players.get(power) or ()):
        return None
    return game.reply_token(power)


def _reply_subject(envelope: Envelope) -> str:
    subject = envelope.subject or "(no subject)"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def confirmation(services: Services, envelope: Envelope, decision: Accept, reading: Reading, version: int,
                 position: Position, now: datetime, feedback: Feedback | None = None) -> EmailMessage:
    game = decision.game
    # the units this set should cover, so that the reply can list those still without an order
    units = {"M": position.units, "R": position.dislodged}.get(position.phase_type, {}).get(decision.power, ())
    context = reports.build_confirmation(
        game_name=game.name, power=decision.power, phase=decision.phase, deadline=game.deadline,
        readings=reading.lines, orders_on_file=reading.orders, version=version, geography=services.geography,
        units=units, notes=reading.notes, marker=reading.version, feedback=feedback, timezone=game.timezone,
    )
    body = services.composer.render(context.template, context)
    if decision.warnings:
        body = fill("Note: " + " ".join(decision.warnings), 72) + "\n\n" + body
    return _reply(services, envelope, _reply_subject(envelope), body, now, _secret_of(decision, envelope))


def rejection(services: Services, envelope: Envelope, decision: Reject, now: datetime) -> EmailMessage:
    rules: tuple[str, ...] = ()
    game_over = decision.game is not None and decision.game.status == "finished"
    if decision.game is not None and not game_over:  # an ended game accepts nothing: no rule to offer
        rules = (f"Orders for {decision.game.name} are accepted from each power's registered address.",)
        if decision.expected_subject:  # 000 II(2) b, 003 [10]: the subject rule it broke, beside the example
            rules = (subject_rule(decision.game.ruleset), *rules)
    context = reports.build_rejection(
        decision.reasons, decision.expected_subject, original_subject=envelope.subject,
        original_date=envelope.date, game_name=decision.game.name if decision.game else None, rules=rules,
        game_over=game_over,
    )
    return _reply(services, envelope, _reply_subject(envelope), services.composer.render(context.template, context),
                  now, _secret_of(decision, envelope))


def reminder(services: Services, game: Game, player: Player, state: dict[str, Any], now: datetime,
             has_orders: bool = False) -> EmailMessage:
    template = ruleset_of(game).subject_template
    expected = format_subject(template=template, game_name=game.name, power=player.power, phase=game.phase,
                              purpose="orders")
    context = reports.build_reminder(
        game_name=game.name, power=player.power, phase=game.phase, deadline=game.deadline, now=now,
        # the player's own reply address: a message sent there proves its sender (issue 6)
        expected_subject=expected, order_address=(reply_address(services.composer.gm_address, token)
                                                  if (token := token_of(player, game.phase))
                                                  else services.composer.gm_address),
        position=position_from_state(state), geography=services.geography, timezone=game.timezone,
        has_orders=has_orders, page_link=own_link(services.web_base_url, player, now),
    )
    subject = format_subject(template=template, game_name=game.name, power=player.power, phase=game.phase,
                             purpose="reminder")
    return services.composer.compose(to=player.address, subject=subject,
                                     body=services.composer.render(context.template, context),
                                     auto_submitted="auto-generated", date=now,
                                     reply_secret=token_of(player, game.phase))


def unverified_sender(services: Services, game: Game, player: Player, envelope: Envelope,
                      findings: tuple[str, ...], now: datetime) -> EmailMessage:
    """To the power's registered address when a message in its name proved nothing (issue 6).

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
    return services.composer.compose(
        to=player.address, subject=f"{game.name}: a message in your name was not accepted", body=body,
        auto_submitted="auto-replied", date=now, reply_secret=reply_token(player.secret, game.phase))


def one_time(services: Services, *, to: str, subject: str, body: str, token: str | None,
             now: datetime) -> EmailMessage:
    """A mail whose Reply-To carries a one-time token (an address change's confirmation or
    cancellation, services.address_changes) instead of the player's reply token."""
    return services.composer.compose(to=to, subject=subject, body=body, auto_submitted="auto-generated", date=now,
                                     reply_secret=token)


def notice(services: Services, envelope: Envelope, decision: Accept | None, body: str,
           now: datetime, attachments: Sequence[tuple[str, bytes]] = ()) -> EmailMessage:
    """The answer to press, a request, a vote, a GM command or a message not understood
    (gmserver.services.inbox.handlers): a reply in the sender's thread. `attachments`: (file name,
    bytes), a `.png` (the map a MAP request asks for) or a `.ics` (the deadline a delay moved)."""
    secret = _secret_of(decision, envelope) if decision is not None else None
    message = _reply(services, envelope, _reply_subject(envelope), body, now, secret)
    for filename, data in attachments:
        maintype, subtype = _ATTACHMENT_TYPES[filename.rsplit(".", 1)[-1]]
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    return message


# what an answer may carry, by the file name's ending
_ATTACHMENT_TYPES = {"png": ("image", "png"), "ics": ("text", "calendar")}
