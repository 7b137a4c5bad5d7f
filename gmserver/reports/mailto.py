"""The offer every report, reminder and confirmation makes a player besides "reply to this mail":
their own reply address (which carries the sender proof) and the exact subject of the next set,
to copy from the text part, and as a `mailto:` button in an HTML part. Never the bare GM address:
mail there proves nothing in a game that checks senders. Pure."""

from __future__ import annotations

import textwrap
from html import escape as html_escape
from urllib.parse import quote


def send_orders_sentence(address: str, subject: str) -> str:
    """The text part's words, one sentence."""
    return f"To send new orders: reply to this mail, or write to {address} with the subject {subject}"


def send_orders_text(address: str, subject: str, *, indent: str = "", width: int = 74) -> str:
    """The sentence wrapped for a text part (the address and subject never broken)."""
    return textwrap.fill(send_orders_sentence(address, subject) + ".", width, initial_indent=indent,
                         subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def mailto_url(address: str, subject: str) -> str:
    """`mailto:ADDRESS?subject=SUBJECT` (RFC 6068: the subject percent-encoded as UTF-8)."""
    return f"mailto:{address}?subject={quote(subject, safe='')}"


def send_orders_button(address: str, subject: str) -> str:
    """The HTML part's button, on a line of its own: a link styled as one (mail clients drop forms
    and scripts)."""
    return (f'<br><a href="{html_escape(mailto_url(address, subject))}" style="display:inline-block;margin:8px 0 0 0;'
            'padding:6px 14px;background:#1f4e8c;color:#ffffff;text-decoration:none;border-radius:4px;">'
            f"Write your next orders</a> <span style=\"color:#555555;\">(to {html_escape(address)}, subject "
            f"<code>{html_escape(subject)}</code>; or reply to this mail)</span>")
