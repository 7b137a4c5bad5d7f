"""Is a message that names a power really from that power's player? ("nobody in")

The From header is written by the sender, so anyone can put a player's address in it. A game's
`sender_check` says what it takes:

- "from": the From address alone (how gmserver always worked; games made before sender proof);
- "verified": the From address, and one proof that its owner sent the message:
  (a) the topmost Authentication-Results header of a receiving server the GM trusts says
      dmarc=pass for the From domain, or dkim=pass for a domain aligned with it (RFC 8601,
      RFC 7489 relaxed alignment);
  (b) a DKIM signature gmserver verified itself, from a domain aligned with the From domain;
  (c) the message was sent to the player's own reply address, gm+TOKEN@domain (every mail the
      GM sends a player carries it in Reply-To, so a plain reply proves the sender). TOKEN is not
      the password: it is derived from it for one period (the phase the mail was sent in) and is
      accepted for the current turn and the one before only, so a mail seen by someone else (a
      forward, an ally in Cc) is no key for the rest of the game;
  (d) a line `Password: SECRET` in the body (the password, kept by the player, never in a header).

(a) and (b) vouch for a message only when it is bound to the GM and to now: a DKIM verifier
checks the bottom-most copy of each signed header while gmserver reads the topmost, and a
signature stays valid for ever. So no header that RFC 5322 allows once may appear twice, and
every DKIM signature of the From domain must cover From, To, Subject and Date, the whole body
(no l=), with the Date in this turn and the GM in To; else mail the player signed for someone
else, or for an earlier turn, could be re-sent as their orders.

Pure: the caller gathers the evidence (headers, the SMTP envelope, its own DKIM result, the
body's password lines) and passes it in.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import authres
from publicsuffixlist import PublicSuffixList

from gmserver.rules.late_proof import CLOCK_SKEW, received_by

SENDER_CHECKS = ("from", "verified")

# A real Authentication-Results header is a few hundred bytes; a longer one is not parsed.
MAX_RESULTS_HEADER = 8_000
_AUTHSERV_ID = re.compile(r"^\s*(?:\([^()]*\)\s*)*([^\s;()]+)")
# RFC 5322 3.6: headers a message has at most once. gmserver reads the topmost copy and a DKIM
# verifier the bottom-most one a signature covers: with two, a signature vouches for one copy
# while gmserver reads the other.
SINGLE_HEADERS = ("From", "To", "Cc", "Subject", "Date", "Message-ID")
# what a signature must cover to vouch that the player sent this text to the GM in this turn
MUST_SIGN = ("from", "to", "subject", "date")
# a signed Date older than this before the message arrived is old mail re-sent
MAX_DATE_AGE = timedelta(hours=24)


def reply_address(gm_address: str, secret: str) -> str:
    """The player's own address at the GM: `gm+SECRET@domain` for `gm@domain`."""
    local, _, domain = gm_address.rpartition("@")
    return f"{local}+{secret}@{domain}"


# A pure function asked for each power's tokens of each game a mail may be about (some nine
# HMACs an order mail), the same few passwords and periods again and again: kept, as many as a
# few hundred games' players' tokens for two periods each.
@functools.lru_cache(maxsize=4096)
def reply_token(password: str, period: str) -> str:
    """The token of a player's reply address for one period (the phase a mail is sent in): a
    one-way function of the password, so the token shows nothing of it, and 80 bits as 16
    lower-case base32 characters, as the password (an address's case may be changed in transit)."""
    digest = hmac.new(password.strip().lower().encode(), f"reply-to:{period}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest[:10]).decode("ascii").lower()


def reply_tokens(password: str | None, periods: Iterable[str]) -> tuple[str, ...]:
    """The tokens of the periods whose reply addresses still prove the sender (none without a password)."""
    return tuple(reply_token(password, period) for period in periods) if password else ()


def address_secret(address: str, gm_address: str) -> str | None:
    """SECRET from `gm+SECRET@domain` (any case, angle brackets allowed); None for any other address."""
    address = address.strip().strip("<>").strip().lower()
    local, _, domain = gm_address.lower().rpartition("@")
    prefix, suffix = f"{local}+", f"@{domain}"
    if address.startswith(prefix) and address.endswith(suffix) and len(address) > len(prefix) + len(suffix):
        return address[len(prefix):-len(suffix)]
    return None


def is_gm_recipient(address: str, gm_address: str) -> bool:
    """The GM's address itself or one of its reply addresses (gm+anything@domain)."""
    cleaned = address.strip().strip("<>").strip().lower()
    return cleaned == gm_address.lower() or address_secret(cleaned, gm_address) is not None


def without_secret_lines(text: str, secrets: Iterable[str | None]) -> tuple[str, tuple[str, ...]]:
    """`text` without every line that holds one of `secrets` (any case, anywhere in the line: a
    near-miss `Password: SECRET (do not share)` or `Passwort: SECRET` is no password line, but must
    not be published either), and the removed lines with each secret masked, to tell the author."""
    wanted = [secret.strip().lower() for secret in secrets if secret and secret.strip()]
    kept, removed = [], []
    for line in text.splitlines(keepends=True):
        found = [secret for secret in wanted if secret in line.lower()]
        if not found:
            kept.append(line)
            continue
        masked = line.strip()
        for secret in found:
            masked = re.sub(re.escape(secret), "[your secret]", masked, flags=re.IGNORECASE)
        removed.append(masked)
    return "".join(kept), tuple(removed)


def same_secret(candidate: str, secret: str) -> bool:
    """Compared in constant time, case-insensitively (secrets are lower-case base32)."""
    return hmac.compare_digest(candidate.strip().lower().encode(), secret.strip().lower().encode())


# ---------------------------------------------------------------------------------------------
# domains


@functools.lru_cache(maxsize=1)
def _public_suffixes() -> PublicSuffixList:
    return PublicSuffixList()  # the list shipped with the package: no network


def organizational_domain(domain: str) -> str:
    """RFC 7489 3.2: the registered domain (`example.co.uk` for `mail.example.co.uk`)."""
    domain = domain.strip().rstrip(".").lower()
    return _public_suffixes().privatesuffix(domain) or domain


def aligned(signing_domain: str, from_domain: str) -> bool:
    """RFC 7489 relaxed alignment: both have the same organizational domain."""
    signing_domain, from_domain = signing_domain.strip().rstrip(".").lower(), from_domain.strip().rstrip(".").lower()
    if not signing_domain or not from_domain:
        return False
    return signing_domain == from_domain or organizational_domain(signing_domain) == organizational_domain(from_domain)


def domain_of(address: str) -> str:
    return address.rpartition("@")[2].strip().rstrip(".").lower()


# ---------------------------------------------------------------------------------------------
# Authentication-Results


@dataclass(frozen=True)
class AuthResult:
    """One method's result in an Authentication-Results header: `dkim=pass header.d=example.org`."""

    method: str
    result: str
    properties: tuple[tuple[str, str], ...]  # ("header.d", "example.org"), ...

    def get(self, name: str) -> str | None:
        return next((value for key, value in self.properties if key == name), None)


@dataclass(frozen=True)
class TrustedResults:
    authserv_id: str
    results: tuple[AuthResult, ...]  # empty when the header could not be read


def trusted_results(headers: Sequence[str], trusted_ids: Collection[str]) -> TrustedResults | None:
    """The results of the topmost Authentication-Results header (headers top first) whose
    authserv-id the GM trusts; None when there is none.

    Only the topmost: a receiving server prepends its header, so anything below it came with
    the message and may be forged, own authserv-id included (RFC 8601 section 5 asks servers to
    remove such copies; not all do). A server that writes one header per method (a DKIM
    milter, then a DMARC milter) is thus heard only through its topmost header; gmserver
    verifies DKIM itself when that one proves nothing."""
    trusted = {name.strip().lower() for name in trusted_ids if name.strip()}
    if not trusted:
        return None
    for value in headers:
        match = _AUTHSERV_ID.match(value)
        if match is None or match.group(1).lower() not in trusted:
            continue
        return TrustedResults(match.group(1).lower(), _parse_results(value))
    return None


# what a header claiming a trusted server is renamed to where that server did not write it
UNVOUCHED = b"X-Gmserver-Unvouched-"
OBSCURED_RESULTS = UNVOUCHED + b"Authentication-Results"
_RESULTS_NAME = re.compile(rb"^authentication-results[ \t]*:", re.IGNORECASE)
_RECEIVED_NAME = re.compile(rb"^received[ \t]*:", re.IGNORECASE)


def obscure_claimed_results(raw: bytes, trusted_ids: Collection[str], trusted_receivers: Collection[str] = ()) -> bytes:
    """RFC 8601 section 5: a border server renames (here) or removes every Authentication-Results
    header that claims an authserv-id it speaks for, since it did not write it; likewise every
    Received header "by" a receiving server the GM trusts (rules.late_proof believes its time
    stamp). The rest of the message is left byte for byte. For gmserver's own listener when its
    client is not the trusted server."""
    trusted = {name.strip().lower() for name in trusted_ids if name.strip()}
    receivers = {host.strip().rstrip(".").lower() for host in trusted_receivers if host.strip()}
    end = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0), default=len(raw))
    head, body = raw[:end], raw[end:]
    if not (trusted or receivers) or not re.search(rb"(?im)^(?:authentication-results|received)[ \t]*:", head):
        return raw
    fields: list[bytes] = []
    for line in head.splitlines(keepends=True):
        if fields and line[:1] in (b" ", b"\t"):
            fields[-1] += line
        else:
            fields.append(line)
    for index, field in enumerate(fields):
        if (name := _RESULTS_NAME.match(field)) is not None:
            value = " ".join(field[name.end():].decode("latin-1").split())
            if (match := _AUTHSERV_ID.match(value)) is not None and match.group(1).lower() in trusted:
                fields[index] = OBSCURED_RESULTS + b":" + field[name.end():]
        elif (name := _RECEIVED_NAME.match(field)) is not None:
            if received_by(field[name.end():].decode("latin-1")) in receivers:
                fields[index] = UNVOUCHED + b"Received:" + field[name.end():]
    return b"".join(fields) + body


def _parse_results(value: str) -> tuple[AuthResult, ...]:
    if len(value) > MAX_RESULTS_HEADER:
        return ()
    try:
        header = authres.AuthenticationResultsHeader.parse_value(" ".join(value.split()))
    except Exception:  # noqa: BLE001  authres raises its SyntaxError, or RecursionError on nested comments
        return ()
    return tuple(
        AuthResult(str(result.method).lower(), str(result.result).lower(),
                   tuple((f"{prop.type}.{prop.name}".lower(), str(prop.value)) for prop in result.properties))
        for result in header.results)


def _proves(result: AuthResult, from_domain: str) -> bool:
    if result.result != "pass":
        return False
    if result.method == "dmarc":
        return (result.get("header.from") or "").strip().rstrip(".").lower() == from_domain
    if result.method == "dkim":
        signer = result.get("header.d") or domain_of(result.get("header.i") or "")
        return aligned(signer, from_domain)
    return False  # spf, arc, iprev...: they say nothing about the From domain


# ---------------------------------------------------------------------------------------------
# what binds a signed message to the GM and to now


@dataclass(frozen=True)
class DkimSignature:
    """The tags of a DKIM-Signature header that say what it vouches for (RFC 6376 3.5)."""

    domain: str  # d=, lower-cased
    signed: tuple[str, ...]  # h=, lower-cased, in order (a name twice: over-signed)
    length_limited: bool  # l= present: only the first part of the body is signed


def read_signature(value: str) -> DkimSignature | None:
    """A DKIM-Signature header's value read for its d=, h= and l= tags; None without d= or h=."""
    tags: dict[str, str] = {}
    for part in value[:MAX_RESULTS_HEADER].split(";"):
        name, equals, tag_value = part.partition("=")
        if equals:
            tags.setdefault(name.strip().lower(), "".join(tag_value.split()))
    domain, signed = tags.get("d", "").rstrip(".").lower(), tags.get("h", "")
    if not domain or not signed:
        return None
    return DkimSignature(domain, tuple(name.strip().lower() for name in signed.split(":") if name.strip()),
                         "l" in tags)


@dataclass(frozen=True)
class Binding:
    """When the message says it was written and to whom, against when it reached the GM."""

    dated: datetime | None  # its Date header; None when missing or unreadable
    to_gm: bool  # its To header names the GM's address or a reply address
    received_at: datetime
    turn_opened: datetime | None = None  # the current turn's start (the last adjudication)
    # the Date of the power's newest set on file this turn: a mail written before it is an older
    # mail sent again (by anyone who saw a copy), never a newer set
    newest_on_file: datetime | None = None

    def window(self) -> tuple[datetime, datetime]:
        """The earliest and latest Date a message arriving now may carry."""
        earliest = self.received_at - MAX_DATE_AGE
        if self.turn_opened is not None and self.turn_opened <= self.received_at:
            earliest = max(earliest, self.turn_opened - CLOCK_SKEW)
        return earliest, self.received_at + CLOCK_SKEW


def signature_fault(signature: DkimSignature, binding: Binding | None) -> str | None:
    """Why `signature` cannot vouch for this message, in words; None when it can."""
    if signature.length_limited:
        return ("Its DKIM signature covers only the first part of the text (l=), so lines may have been "
                "added below it.")
    missing = [name.title() for name in MUST_SIGN if name not in signature.signed]
    if missing:
        return (f"Its DKIM signature does not cover its {', '.join(missing)} header"
                f"{'s' if len(missing) > 1 else ''}, so it may be other mail of yours re-sent.")
    if binding is None or binding.dated is None:
        return "It has no readable Date header, so its signature may be old mail of yours re-sent."
    earliest, latest = binding.window()
    if not earliest <= binding.dated <= latest:
        return (f"Its Date ({binding.dated:%Y-%m-%d %H:%M %z}) is not within this turn and the day before it "
                "arrived, so it may be old mail of yours re-sent.")
    if binding.newest_on_file is not None and binding.dated < binding.newest_on_file:
        return (f"Its Date ({binding.dated:%Y-%m-%d %H:%M %z}) is older than that of the orders you have on "
                "file this turn, so it may be an earlier mail of yours re-sent.")
    if not binding.to_gm:
        return "It was not addressed To the GM, so it may be mail of yours to someone else re-sent."
    return None


def vouching_faults(evidence: Evidence) -> tuple[str, ...]:
    """Why no signature and no mail server's verdict can vouch for this message's From, in
    words; () when they may. A reply address or password line still proves the sender."""
    if not evidence.single_from:
        return ("It had more than one From line or address, so no signature or mail server could vouch for it.",)
    if evidence.repeated:
        return (f"It had more than one {', '.join(evidence.repeated)} header, so no signature or mail server "
                "could vouch for what was read.",)
    from_domain = domain_of(evidence.sender)
    faults = [fault for signature in evidence.signatures if aligned(signature.domain, from_domain)
              if (fault := signature_fault(signature, evidence.binding)) is not None]
    return tuple(dict.fromkeys(faults))


# ---------------------------------------------------------------------------------------------
# the decision


@dataclass(frozen=True)
class Evidence:
    """What a message shows about its sender."""

    sender: str  # the From address intake matched to the power, lower-cased
    authentication_results: tuple[str, ...] = ()  # header values, top first
    recipients: tuple[str, ...] = ()  # RCPT TO, else Delivered-To / X-Original-To / To / Cc
    passwords: tuple[str, ...] = ()  # values of the body's password lines
    dkim_domains: tuple[str, ...] | None = None  # d= of signatures verified here; None: not checked
    # exactly one From line naming exactly `sender`: a signature or a server's verdict vouches for
    # "the" From domain, and a second From (or address) could make it vouch for the wrong one
    single_from: bool = True
    repeated: tuple[str, ...] = ()  # SINGLE_HEADERS the message has more than once
    signatures: tuple[DkimSignature, ...] = ()  # every DKIM-Signature header it carries, read (not verified)
    binding: Binding | None = None


@dataclass(frozen=True)
class Verified:
    proof: str  # in words, for the log


@dataclass(frozen=True)
class Unverified:
    findings: tuple[str, ...]  # what was looked at and why it proved nothing, in words


def verify_sender(evidence: Evidence, *, secret: str | None, gm_address: str,
                  trusted_authserv_ids: Collection[str], periods: Sequence[str] = ()) -> Verified | Unverified:
    """Does the message prove that the owner of `evidence.sender` sent it? `secret` is the
    player's password; `periods` those whose reply tokens are accepted (the current turn and the
    one before): a reply address of an older mail, or the password itself as a reply address,
    proves nothing."""
    if secret:
        accepted = reply_tokens(secret, periods)
        if any(same_secret(token, wanted) for token in _tokens(evidence.recipients, gm_address) for wanted in accepted):
            return Verified("sent to the player's reply address")
        if any(same_secret(candidate, secret) for candidate in evidence.passwords):
            return Verified("the player's password line")
    from_domain = domain_of(evidence.sender)
    findings: list[str] = []
    if faults := vouching_faults(evidence):
        return Unverified((*faults, *_secret_findings(evidence, gm_address)))
    header = trusted_results(evidence.authentication_results, trusted_authserv_ids)
    if header is not None:
        if any(_proves(result, from_domain) for result in header.results):
            return Verified(f"Authentication-Results of {header.authserv_id}")
        said = ", ".join(f"{r.method}={r.result}" for r in header.results if r.method in ("dkim", "dmarc", "spf"))
        findings.append(f"The receiving mail server ({header.authserv_id}) did not confirm that it came from "
                        f"{from_domain}" + (f" ({said})." if said else "."))
    if evidence.dkim_domains is not None:
        if any(aligned(domain, from_domain) for domain in evidence.dkim_domains):
            return Verified("a valid DKIM signature of the From domain")
        findings.append(f"It carried no valid DKIM signature of {from_domain}"
                        + (f" (only of {', '.join(sorted(set(evidence.dkim_domains)))})." if evidence.dkim_domains
                           else "."))
    return Unverified((*findings, *_secret_findings(evidence, gm_address)))


def _secret_findings(evidence: Evidence, gm_address: str) -> tuple[str, ...]:
    return ("It was sent to a reply address of an older mail from the GM (or of someone else's), which no longer "
            "proves who sent it: reply to the newest mail from the GM." if _tokens(evidence.recipients, gm_address)
            else "It was not sent to your own reply address at the GM.",
            "It had no password line with your password." if not evidence.passwords
            else "Its password line did not hold your password.")


def _tokens(recipients: Iterable[str], gm_address: str) -> list[str]:
    return [token for address in recipients if (token := address_secret(address, gm_address)) is not None]
