"""Proof that a late order set was sent in time (late_with_proof = gm_discretion;
000 VII(1), 001 IV(1): "the GM will have the discretion to accept late orders if it is proven to
the satisfaction of the GM that the orders were sent prior to the deadline").

The best evidence is the Received header of a receiving server the GM trusts (`[inbound]
trusted_receivers`), the topmost one: its time stamp before the deadline says the message had
reached the GM's side in time. Without it the evidence is the message's Date header and its
earliest Received header (the last in the header section), both before the deadline, and the GM
is told that both are the sender's own: anything below the trusted server's header, Received
headers included, may have been written by the sender. Pure: the message is already parsed; a
header that cannot be read proves nothing.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from email.message import Message
from email.utils import parsedate_to_datetime

from gmserver.rules.position import describe_phase
from gmserver.rules.ruleset import Ruleset


def header_moment(text: str | None) -> datetime | None:
    """An RFC 5322 date-time, aware; None if absent, unreadable or without a zone."""
    if not text:
        return None
    try:
        moment = parsedate_to_datetime(str(text).strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return moment if moment.tzinfo is not None else None


def _received_headers(message: Message) -> list[str]:
    """The Received headers, top first; none when the parser cannot give them back (a header it
    cannot read proves nothing)."""
    try:
        return [str(value) for value in message.get_all("Received") or []]
    except Exception:  # noqa: BLE001  a header the parser cannot give back proves nothing
        return []


def earliest_received(message: Message) -> datetime | None:
    """The time stamp of the earliest Received header: the last one (each server adds its own on
    top), after its ';' (RFC 5321 4.4)."""
    received = _received_headers(message)
    if not received:
        return None
    _, semicolon, stamp = received[-1].rpartition(";")
    return header_moment(stamp) if semicolon else None


# the host after `by` (RFC 5321 4.4), comments removed first: the client's HELO sits in one
_COMMENT = re.compile(r"\([^()]*\)")
_BY_HOST = re.compile(r"(?:^|\s)by\s+([^\s;]+)", re.IGNORECASE)


def trusted_receipt(message: Message, trusted_receivers: Collection[str]) -> tuple[str, datetime] | None:
    """(host, time stamp) of the topmost Received header when a server the GM trusts wrote it;
    None otherwise. Only the topmost: a sender can write any header below it, "by" the GM's
    own server too."""
    trusted = {host.strip().rstrip(".").lower() for host in trusted_receivers if host.strip()}
    if not trusted:
        return None
    received = _received_headers(message)
    if not received:
        return None
    host = received_by(received[0])
    if host is None or host not in trusted:
        return None
    moment = header_moment(received[0].rpartition(";")[2])
    return (host, moment) if moment is not None else None


def received_by(value: str) -> str | None:
    """The lower-cased host after `by` in a Received header's value; None when it has no time stamp."""
    route, semicolon, _ = " ".join(value.split()).rpartition(";")
    while (uncommented := _COMMENT.sub(" ", route)) != route:
        route = uncommented
    match = _BY_HOST.search(route)
    return match.group(1).rstrip(".").lower() if semicolon and match is not None else None


# how far a sender's clock may run ahead of ours before its time stamps prove nothing
CLOCK_SKEW = timedelta(minutes=15)


def sent_before(message: Message, deadline: datetime, arrived: datetime | None = None,
                trusted_receivers: Collection[str] = ()) -> str | None:
    """The evidence, in words for the GM, that `message` was sent before `deadline`; None when
    there is none: no trusted server's time stamp before the deadline, and its Date header or its
    earliest Received header missing, unreadable or not earlier, or (given when it `arrived`)
    written later than the message reached the GM, which no genuine stamp is (a wrong clock or a
    forgery)."""
    receipt = trusted_receipt(message, trusted_receivers)
    if receipt is not None and receipt[1] < deadline and (arrived is None or receipt[1] <= arrived + CLOCK_SKEW):
        return (f"your mail server {receipt[0]} received it at {_utc(receipt[1])}, before the deadline "
                f"({_utc(deadline)}), by its own Received header")
    try:
        dated = header_moment(message.get("Date"))
    except Exception:  # noqa: BLE001
        dated = None
    received = earliest_received(message)
    if dated is None or received is None or dated >= deadline or received >= deadline:
        return None
    if arrived is not None and max(dated, received) > arrived + CLOCK_SKEW:
        return None
    return (f"its Date header ({_utc(dated)}) and the first mail server's Received header ({_utc(received)}) "
            f"are both before the deadline ({_utc(deadline)}); both are the sender's own evidence, since no mail "
            "server you trust ([inbound] trusted_receivers) received it before the deadline, and a sender can "
            "write either")


def _utc(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def late_set_proven(ruleset: Ruleset, message: Message, *, wrong_turn: bool, named: str | None,
                    current: tuple[str, datetime | None], previous: tuple[str, datetime | None] | None,
                    received_at: datetime, trusted_receivers: Collection[str] = ()) -> tuple[str, str] | None:
    """(the turn, the reason for the GM) when an order set reached the GM after its turn's
    cut-off but is proven sent before that turn's deadline, under late_with_proof =
    gm_discretion; None otherwise. Late means: after the deadline under orders_accepted_until =
    deadline; under adjudication_start, naming (exactly) the turn adjudicated last, `previous`.
    The GM releases it (for a turn already adjudicated: after `gmserver game rollback`, as a
    correction) or refuses it."""
    if ruleset.late_with_proof != "gm_discretion":
        return None
    if wrong_turn:
        if previous is None or named != previous[0]:
            return None  # not the turn just adjudicated: an ordinary wrong turn
        phase, deadline = previous
        # 000 VII(3): the cut-off is the adjudication, which the GM may have run before the deadline
        late = f"after {describe_phase(phase)} was adjudicated"
    elif ruleset.orders_accepted_until == "deadline" and current[1] is not None and received_at > current[1]:
        phase, deadline = current
        late = f"after the deadline of {describe_phase(phase)}"
    else:
        return None
    evidence = sent_before(message, deadline, received_at, trusted_receivers) if deadline is not None else None
    if evidence is None:
        return None
    return phase, f"It reached the GM {late}, but {evidence}: the GM decides whether it is used."
