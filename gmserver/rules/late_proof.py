"""Proof that a late order set was sent in time (late_with_proof = gm_discretion, MATRIX 2.8;
000 VII(1), 001 IV(1): "the GM will have the discretion to accept late orders if it is proven to
the satisfaction of the GM that the orders were sent prior to the deadline").

MATRIX 2.8: the evidence is the message's Date header and its earliest Received header (the one
the sender's own mail server added, the last in the header section), both before the deadline.
Both are needed: the Date is written by the sender, the Received by a server. Pure: the message
is already parsed; a header that cannot be read proves nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.message import Message
from email.utils import parsedate_to_datetime

from gmserver.rules.position import describe_phase
from gmserver.rules.ruleset import Ruleset


def _moment(text: str | None) -> datetime | None:
    """An RFC 5322 date-time, aware; None if absent, unreadable or without a zone."""
    if not text:
        return None
    try:
        moment = parsedate_to_datetime(str(text).strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return moment if moment.tzinfo is not None else None


def earliest_received(message: Message) -> datetime | None:
    """The time stamp of the earliest Received header: the last one (each server adds its own on
    top), after its ';' (RFC 5321 4.4)."""
    try:
        received = message.get_all("Received") or []
    except Exception:  # noqa: BLE001  a header the parser cannot give back proves nothing
        return None
    if not received:
        return None
    _, semicolon, stamp = str(received[-1]).rpartition(";")
    return _moment(stamp) if semicolon else None


# how far a sender's clock may run ahead of ours before its time stamps prove nothing
CLOCK_SKEW = timedelta(minutes=15)


def sent_before(message: Message, deadline: datetime, arrived: datetime | None = None) -> str | None:
    """The evidence, in words for the GM, that `message` was sent before `deadline`; None when
    its Date header or its earliest Received header is missing, unreadable or not earlier, or
    (given when it `arrived`) written later than the message reached the GM, which no genuine
    stamp is (a wrong clock or a forgery)."""
    try:
        dated = _moment(message.get("Date"))
    except Exception:  # noqa: BLE001
        dated = None
    received = earliest_received(message)
    if dated is None or received is None or dated >= deadline or received >= deadline:
        return None
    if arrived is not None and max(dated, received) > arrived + CLOCK_SKEW:
        return None
    return (f"its Date header ({_utc(dated)}) and the first mail server's Received header ({_utc(received)}) "
            f"are both before the deadline ({_utc(deadline)})")


def _utc(moment: datetime) -> str:
    return f"{moment.astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC"


def late_set_proven(ruleset: Ruleset, message: Message, *, wrong_turn: bool, named: str | None,
                    current: tuple[str, datetime | None], previous: tuple[str, datetime | None] | None,
                    received_at: datetime) -> tuple[str, str] | None:
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
    evidence = sent_before(message, deadline, received_at) if deadline is not None else None
    if evidence is None:
        return None
    return phase, f"It reached the GM {late}, but {evidence}: the GM decides whether it is used."
