"""Text from hostile mail made safe to store and to send back."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def safe_text(text: str) -> str:
    """Drop control characters (PostgreSQL refuses NUL in text) and replace lone surrogates,
    which the email package produces for undecodable bytes and no UTF-8 encoder accepts."""
    return _SURROGATE.sub("\ufffd", _CONTROL.sub("", text))
