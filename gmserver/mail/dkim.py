"""DKIM verification of incoming mail (RFC 6376), with dkimpy.

`verified_domains` says which domains (d=) signed a message with a signature that verifies.
The public keys come from DNS TXT records; the lookup is a parameter so that tests answer it
with a key they made (there is no network in tests), and production uses dkimpy's resolver.

A forger can sign with domains whose DNS never answers, so each message gets a budget of
look-up time (MESSAGE_BUDGET_SECONDS in all, not a timeout per signature), and a domain whose
look-up failed slowly is not asked again for a while (DEAD_DOMAIN_SECONDS). `KeyLookups` holds
that memory, and the results of the last messages checked, so that the service can run the
look-ups outside its database transaction and find their result inside it.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

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
# one look-up's timeout, and all of one message's look-ups together: a real key answers in well
# under a second, and 4 dead domains x 5 s held intake for 20 s per forged mail
DNS_TIMEOUT_SECONDS = 3
MESSAGE_BUDGET_SECONDS = 4.0
# a look-up that failed after this long (or raised) marks its domain dead for DEAD_DOMAIN_SECONDS
SLOW_FAILURE_SECONDS = 1.0
DEAD_DOMAIN_SECONDS = 15 * 60
MAX_DEAD_DOMAINS = 1000
REMEMBERED_MESSAGES = 256
_SIGNATURE_HEADER = re.compile(rb"^dkim-signature[ \t]*:", re.IGNORECASE | re.MULTILINE)


class KeyLookups:
    """DKIM verification with a look-up budget per message, a memory of dead domains and of the
    last messages' results. Shared by the threads of one process (a lock guards the memories)."""

    def __init__(self, lookup: TxtLookup | None = None, *, budget_seconds: float = MESSAGE_BUDGET_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._lookup = lookup or dkim.get_txt
        self._budget = budget_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._dead: dict[str, float] = {}  # domain -> when it may be asked again
        self._results: OrderedDict[bytes, tuple[str, ...]] = OrderedDict()

    def remembered(self, raw: bytes) -> tuple[str, ...] | None:
        """The result of `verify` for this message, if it is among the last ones checked."""
        with self._lock:
            return self._results.get(hashlib.sha256(raw).digest())

    def verify(self, raw: bytes, wanted: Callable[[str], bool] | None = None) -> tuple[str, ...]:
        """The lower-cased d= domains of the signatures that verify, topmost first; () when none
        does. Never raises: a broken signature, an unreachable DNS server or a spent budget is a
        signature that does not verify. `wanted`: the only domains whose keys are looked up (a
        signature of any other could prove nothing to the caller)."""
        head = raw.split(b"\r\n\r\n", 1)[0] if b"\r\n\r\n" in raw else raw.split(b"\n\n", 1)[0]
        count = min(len(_SIGNATURE_HEADER.findall(head)), MAX_SIGNATURES)
        domains: list[str] = []
        deadline = self._clock() + self._budget

        def ask(name: bytes | str, timeout: float = DNS_TIMEOUT_SECONDS) -> bytes | str | None:
            return self._ask(name, deadline, wanted)  # dkimpy's dnsfunc: the message's budget sets the timeout

        for index in range(count):
            checker = dkim.DKIM(raw, logger=_dkimpy_log, timeout=DNS_TIMEOUT_SECONDS)
            try:
                ok = checker.verify(idx=index, dnsfunc=ask)
            except Exception as problem:  # noqa: BLE001  dkimpy raises on malformed signatures and keys
                log.info("DKIM signature %d does not verify: %s", index, problem)
                continue
            if ok and checker.domain:
                domains.append(checker.domain.decode("ascii", "replace").rstrip(".").lower())
        with self._lock:
            self._results[hashlib.sha256(raw).digest()] = tuple(domains)
            while len(self._results) > REMEMBERED_MESSAGES:
                self._results.popitem(last=False)
        return tuple(domains)

    def _ask(self, name: bytes | str, deadline: float, wanted: Callable[[str], bool] | None) -> bytes | str | None:
        text = name.decode("ascii", "replace") if isinstance(name, bytes) else name
        domain = text.partition("._domainkey.")[2].rstrip(".").lower() or text.lower()
        if wanted is not None and not wanted(domain):
            return None
        started = self._clock()
        with self._lock:
            if self._dead.get(domain, 0.0) > started:
                log.info("DKIM key %s not looked up: %s did not answer lately", text, domain)
                return None
        left = min(deadline - started, DNS_TIMEOUT_SECONDS)
        if left <= 0:
            log.info("DKIM key %s not looked up: this message's look-up time is spent", text)
            return None
        try:
            answer = self._lookup(name, timeout=left)
        except Exception as problem:  # noqa: BLE001  a timeout, a resolver failure: no key
            log.info("DKIM key %s: look-up failed: %s", text, problem)
            answer, failed = None, True
        else:
            failed = answer is None and self._clock() - started >= SLOW_FAILURE_SECONDS
        if failed:
            self._mark_dead(domain)
        return answer

    def _mark_dead(self, domain: str) -> None:
        now = self._clock()
        with self._lock:
            if len(self._dead) >= MAX_DEAD_DOMAINS:
                self._dead = {name: until for name, until in self._dead.items() if until > now}
            if len(self._dead) < MAX_DEAD_DOMAINS:
                self._dead[domain] = now + DEAD_DOMAIN_SECONDS


def verified_domains(raw: bytes, lookup: TxtLookup | None = None) -> tuple[str, ...]:
    """KeyLookups(lookup).verify(raw), with no memory beyond this message."""
    return KeyLookups(lookup).verify(raw)


def offline_lookup(name: bytes | str, timeout: float = DNS_TIMEOUT_SECONDS) -> None:
    """A lookup that finds no key: for tests and for running without DNS."""
    return None
