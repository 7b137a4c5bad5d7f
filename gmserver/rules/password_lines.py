"""A password line in a mail's text: `Password: SECRET` (or `password = SECRET`), on a line of
its own. Apart from gmserver.rules.authenticity (which checks the secret) so that reading a mail's
text does not load the sender checks' libraries."""

from __future__ import annotations

import re

# Never read as an order, never published as press, never echoed back (gmserver.rules.reading.message
# drops it).
PASSWORD_LINE = re.compile(r"^\s*pass(?:word|phrase)\s*[:=]\s*(\S{1,200})\s*$", re.IGNORECASE)


def is_password_line(line: str) -> bool:
    return PASSWORD_LINE.match(line) is not None


def passwords_in(text: str) -> tuple[str, ...]:
    """The values of every password line in `text` (at most a few: nobody needs more)."""
    found = []
    for line in text.splitlines():
        if (match := PASSWORD_LINE.match(line)) is not None:
            found.append(match.group(1))
            if len(found) >= 5:
                break
    return tuple(found)
