"""Reading what gmserver sent, as a player would: the words of a mail's text part."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

from gmserver.rules.reading.quoting import GM_MAIL_END, GM_MAIL_START

ADJECTIVES = {"AUSTRIA": "Austrian", "ENGLAND": "English", "FRANCE": "French", "GERMANY": "German",
              "ITALY": "Italian", "RUSSIA": "Russian", "TURKEY": "Turkish"}


def parsed_mail(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)  # type: ignore[return-value]


def body_words(raw: bytes) -> str:
    """The text of an outgoing mail, decoded, its lines joined (templates fill paragraphs)."""
    return " ".join(parsed_mail(raw).get_body(("plain",)).get_content().split())


def plain(message: EmailMessage) -> str:
    """The plain text, words only, without gmserver's marker lines."""
    text = message.get_body(("plain",)).get_content().replace(GM_MAIL_START, "").replace(GM_MAIL_END, "")
    return " ".join(text.split())
