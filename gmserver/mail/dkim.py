"""DKIM verification of incoming mail (RFC 6376), with dkimpy.

`verified_domains` says which domains (d=) signed a message with a signature that verifies.
The public keys come from DNS TXT records; the lookup is a parameter so that tests answer it
with a key they made (there is no network in tests), and production uses dkimpy's resolver.
"""

from __future__ import annotations

import logging
import re
from typing import Callable

import dkim

log = logging.getLogger(__name__)


class _AsInfo(logging.LoggerAdapter):
    """dkimpy logs a signature that does not verify (no key, bad key) as an ERROR: for gmserver
    it is what a forger's message looks like, not a fault of the server."""

    def log(self, level: int, msg: object, *args: object, **kwargs: object) -> None:
        super().log(min(level, logging.INFO), msg, *args, **kwargs)


_dkimpy_log = _AsInfo(logging.getLogger(f"{__name__}.dkimpy"), {})

# (name, timeout=...) -> the TXT record as bytes or str, None when there is none (dkimpy's dnsfunc)
TxtLookup = Callable[..., "bytes | str | None"]

# A hostile message could carry hundreds of signatures, each one a DNS lookup: look at a few.
MAX_SIGNATURES = 4
DNS_TIMEOUT_SECONDS = 5
_SIGNATURE_HEADER = re.compile(rb"^dkim-signature[ \t]*:", re.IGNORECASE | re.MULTILINE)


def verified_domains(raw: bytes, lookup: TxtLookup | None = None) -> tuple[str, ...]:
    """The lower-cased d= domains of the signatures that verify, topmost first; () when none does.
    Never raises: a broken signature or an unreachable DNS server is a signature that does not verify."""
    head = raw.split(b"\r\n\r\n", 1)[0] if b"\r\n\r\n" in raw else raw.split(b"\n\n", 1)[0]
    count = min(len(_SIGNATURE_HEADER.findall(head)), MAX_SIGNATURES)
    if count == 0:
        return ()
    domains: list[str] = []
    for index in range(count):
        checker = dkim.DKIM(raw, logger=_dkimpy_log, timeout=DNS_TIMEOUT_SECONDS)
        try:
            ok = checker.verify(idx=index, dnsfunc=lookup or dkim.get_txt)
        except Exception as problem:  # noqa: BLE001  dkimpy raises on malformed signatures and keys
            log.info("DKIM signature %d does not verify: %s", index, problem)
            continue
        if ok and checker.domain:
            domains.append(checker.domain.decode("ascii", "replace").rstrip(".").lower())
    return tuple(domains)


def offline_lookup(name: bytes | str, timeout: float = DNS_TIMEOUT_SECONDS) -> None:
    """A lookup that finds no key: for tests and for running without DNS."""
    return None
