"""The web pages' links in a player's copy of a turn report (`[web] base_url`): the phase's page
and the player's own page, added above the mail's end marker. Pure: whoever writes each copy
(services/base/report_copies.py) calls it; without links the text is returned unchanged, so a
server without `[web] base_url` sends the same bytes as before."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from gmserver.rules.reading.quoting import GM_MAIL_END


def with_page_links(text: str, links: Sequence[str], *, html: bool = False) -> str:
    """`links`: the phase's page, then the player's own page (its token: keep it to yourself)."""
    if not links or GM_MAIL_END not in text:
        return text
    phase, own = links[0], links[1] if len(links) > 1 else None
    at = text.rfind(GM_MAIL_END)
    if html:
        at = text.rfind("<p", 0, at)
        words = (f'<p style="margin:12px 0 0 0;">On the web: <a href="{escape(phase)}">this turn\'s page</a>'
                 + (f'; <a href="{escape(own)}">your own page</a> (it shows your orders: keep its link to '
                    'yourself)' if own else "") + ".</p>\n")
    else:
        words = (f"On the web: {phase}\n"
                 + (f"Your own page (it shows your orders: keep its link to yourself):\n{own}\n" if own else "") + "\n")
    return text[:at] + words + text[at:]
