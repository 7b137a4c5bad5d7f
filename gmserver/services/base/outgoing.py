"""Every mail gmserver sends is made here: its addressing, subject, threading and the reply secret.

The bodies are rendered from the templates by the Composer (gmserver.mail.compose) wherever the
use case builds its context; the message around a body is made here and nowhere else, so that:

- a reply is threaded once, hardened once: Re: the sender's subject, In-Reply-To its Message-ID,
  and only the last MAX_REFERENCES well-formed ids of its References (a hostile header must not
  make the reply huge or carry anything but message ids; RFC 5322 3.6.4);
- the player's reply token (the Reply-To gm+TOKEN@domain that proves the sender of a plain reply)
  is given only for mail to that player's own registered addresses (`reply_secret`);
- everything is marked automatic (RFC 3834 Auto-Submitted), so well-behaved responders stay silent.

Queueing is the outbox's (services/base/outbox.py `queue`, `queue_all`, `queue_report`); a turn
report's copies are written by the outbox sender (services/base/report_copies.py).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from email.message import EmailMessage

from gmserver.mail import written
from gmserver.mail.compose import AutoSubmitted
from gmserver.mail.written import Draft, WrittenMail
from gmserver.rules.envelope import Envelope, usable_message_id
from gmserver.rules.intake import Accept, Reject
from gmserver.services.base.context import Services

# RFC 5322 3.6.4: a reply carries its parent's References. A hostile References header must not
# make the reply huge or carry anything but message ids: only the last few well-formed ones are kept.
MAX_REFERENCES = 10


def references(envelope: Envelope) -> list[str]:
    """The References a reply to `envelope` carries before its Message-ID: the last
    MAX_REFERENCES well-formed ids of its own."""
    try:
        value = envelope.message.get("References")
    except Exception:  # noqa: BLE001  a malformed header costs the thread, never the reply
        return []
    return [ref for ref in str(value or "").split() if usable_message_id(ref)][-MAX_REFERENCES:]


def reply_subject(envelope: Envelope) -> str:
    subject = envelope.subject or "(no subject)"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def reply_secret(decision: Accept | Reject | None, envelope: Envelope) -> str | None:
    """The token of the power's reply address when the reply goes to one of that power's own
    registered addresses (never to anyone else: it proves a sender in a "verified" game)."""
    if decision is None:
        return None
    game, power = decision.game, decision.power
    if game is None or power is None or envelope.sender not in (game.players.get(power) or ()):
        return None
    return game.reply_token(power)


def registered_copy(services: Services, answer: WrittenMail, decision: Accept,
                    envelope: Envelope) -> WrittenMail | None:
    """`answer` to a message sent from the power's fallback address, for its registered address
    too: whatever is filed in the player's name is said where the player is registered. None for
    mail from the registered address itself, or from anyone else (a proxy holder). The copy is
    the answer's message for another recipient (Composer.readdress): its own To, Reply-To and
    Message-ID, the Subject as the answer's reader reads it."""
    addresses = decision.game.players.get(decision.power) or ()
    if not addresses or envelope.sender == addresses[0] or envelope.sender not in addresses:
        return None
    return written.write(services.composer, dataclasses.replace(
        answer.draft, to=addresses[0], subject=written.subject_as_read(answer.draft),
        reply_secret=decision.game.reply_token(decision.power), message_id=None))


def reply(services: Services, envelope: Envelope, body: str, now: datetime, *,
          secret: str | None = None) -> EmailMessage:
    """The answer to `envelope`, in its sender's thread. `secret`: reply_secret's, or None."""
    draft = reply_draft(envelope, body, now, secret=secret)
    return services.composer.compose(to=draft.to, subject=draft.subject, body=draft.body,
                                     in_reply_to=draft.in_reply_to, references=draft.references,
                                     auto_submitted=draft.auto_submitted, date=draft.date,
                                     reply_secret=draft.reply_secret)


def written_reply(services: Services, envelope: Envelope, body: str, now: datetime, *,
                  secret: str | None = None) -> WrittenMail:
    """`reply` written straight to the bytes the outbox stores (gmserver.mail.written), for the
    answers every filed set gets, which nothing reads before the outbox stores them."""
    return written.write(services.composer, reply_draft(envelope, body, now, secret=secret))


def reply_draft(envelope: Envelope, body: str, now: datetime, *, secret: str | None = None) -> Draft:
    return Draft(to=envelope.sender, subject=reply_subject(envelope), body=body, in_reply_to=envelope.message_id,
                 references=tuple(references(envelope)), auto_submitted="auto-replied", date=now, reply_secret=secret)


def message(services: Services, *, to: str, subject: str, body: str, now: datetime, secret: str | None = None,
            auto_submitted: AutoSubmitted = "auto-generated", message_id: str | None = None) -> EmailMessage:
    """A mail gmserver sends of its own accord (not an answer): to a player, with the token of the
    player's reply address as `secret` (to the player's own registered address only), or to the
    GM or anyone else without.
    `message_id`: given only when the message is already on record (a report's copy)."""
    return services.composer.compose(to=to, subject=subject, body=body, auto_submitted=auto_submitted, date=now,
                                     reply_secret=secret, message_id=message_id)
