"""The email policy gmserver reads and composes mail with: the standard library's default policy,
with header objects made cheaply.

Why: under `email.policy.default` every read of a header (`message["Subject"]`, `get_all`) parses
its value again into a new header object, and makes a new header class for it first
(`HeaderRegistry.__getitem__` calls `type(...)` each time); reading one order mail asked for
some 90 headers, a quarter of the time intake spent on it (docs/performance.md). Here each
header name's class is made once, and a header value read again (the same name and text, in this
message or another) gives the header object already made: header objects are immutable values
(a str with its parse), so sharing one changes nothing a reader can see. Values that are not
plain text (an Address, a list of them) are made as before.
"""

from __future__ import annotations

import email.policy
from email.headerregistry import BaseHeader, HeaderRegistry

# header objects kept for reuse; past this, the store starts again (a mail has a few dozen headers)
KEPT_HEADERS = 4096


class _HeaderFactory(HeaderRegistry):
    """HeaderRegistry (the default map of header names to classes) that makes each name's class
    once and keeps the header objects it made, by name and text."""

    def __init__(self) -> None:
        super().__init__()
        self._classes: dict[str, type[BaseHeader]] = {}
        self._made: dict[tuple[str, str], BaseHeader] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        key = name.lower()
        made = self._classes.get(key)
        if made is None:
            made = self._classes[key] = super().__getitem__(name)
        return made

    def __call__(self, name: str, value: object) -> BaseHeader:
        if type(value) is not str:
            return self[name](name, value)
        key = (name, value)
        header = self._made.get(key)
        if header is None:
            header = self[name](name, value)
            if len(self._made) >= KEPT_HEADERS:  # threads racing here at worst keep a header less
                self._made.clear()
            self._made[key] = header
        return header

    # a message copied or pickled (with its policy) shares the one factory, not a copy of its store
    def __deepcopy__(self, memo: dict[int, object]) -> _HeaderFactory:
        return self

    def __reduce__(self) -> str:
        return "HEADER_FACTORY"


HEADER_FACTORY = _HeaderFactory()


MAIL_POLICY = email.policy.default.clone(header_factory=HEADER_FACTORY)
