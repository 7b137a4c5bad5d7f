"""The GM's password for the GM page: stored as a PBKDF2 hash in the configuration
(`[web] gm_password_hash`), checked in constant time against HTTP Basic credentials."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets

ITERATIONS = 200_000


def hash_password(password: str, *, salt: str | None = None, iterations: int = ITERATIONS) -> str:
    """`pbkdf2_sha256$ITERATIONS$SALT$HEX`, what `[web] gm_password_hash` takes."""
    salt = salt or secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), iterations).hex()
    return f"pbkdf2_sha256${iterations}${salt}${digest}"


def password_matches(password: str, stored: str) -> bool:
    try:
        scheme, iterations, salt, digest = stored.split("$")
        rounds = int(iterations)
    except ValueError:
        return False
    if scheme != "pbkdf2_sha256":
        return False
    candidate = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), rounds).hex()
    return hmac.compare_digest(candidate, digest)


def basic_password(authorization: str | None) -> str | None:
    """The password of an `Authorization: Basic ...` header (any user name); None without one."""
    if not authorization or not authorization.lower().startswith("basic "):
        return None
    try:
        decoded = base64.b64decode(authorization[6:].strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return decoded.partition(":")[2]
