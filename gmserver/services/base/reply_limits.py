"""How often gmserver may answer one address: one place for the limits every reply obeys.

Intake's refusals and confirmations and the sender check's warnings to a player all count the
outbox rows already queued to the address, so that nothing (a forger, an auto-responder, a
hostile flood) can make gmserver mail anyone more than these limits allow.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from gmserver.db.queries.inbound import answered_since
from gmserver.db.queries.outbox import queued_since

# Refusals are rate-limited, so that a forged From or an auto-responder that marks nothing
# (no Auto-Submitted) cannot turn gmserver into a source of backscatter or a mail loop: an
# unknown sender is answered once a day, a player at most PLAYER_REFUSALS_PER_HOUR times an hour.
STRANGER_REPLY_INTERVAL = timedelta(days=1)
PLAYER_REFUSALS_PER_HOUR = 5
# And all strangers together (senders who play no game the message could be about) get at most
# this many refusals an hour: a spammer forging a new From for every message would otherwise get
# one refusal per forged address (a forged-sender run: 12 forged senders, 12 refusals). A real newcomer
# writing to the GM is rare, so the cap costs players nothing, while backscatter to forged
# addresses is what gets a GM's mail server listed as a spam source.
STRANGER_REFUSALS_PER_HOUR = 10
# Confirmations too: a player correcting a set sends a few an hour; an auto-responder that
# answers every confirmation with something read as orders sends hundreds (an autoresponder did: 187 in 45 s).
# Past the limit the set is still filed; only the reply is skipped (see _may_reply).
CONFIRMATIONS_PER_HOUR = 12

REFUSAL_KINDS = ("rejection", "stranger-refusal")
# A refusal of mail that proves its sender (sent to the player's own reply address) carries a
# dedupe key that starts so. Refusals of unproven mail are counted apart from these: anyone can
# forge a player's From, and five forged mistakes must not silence the player's own for an hour.
PROVEN_REFUSAL_KEY = "reject:proven:"
# What strangers are sent: refusals, and the answer to press from a non-player (002 PRESS 2,
# press_from_non_players), which obeys the same limits (once a day an address, STRANGER_REFUSALS_PER_HOUR
# for all together): a forged From must not make that answer backscatter either.
STRANGER_NOTICE_KIND = "stranger-notice"
STRANGER_KINDS = ("stranger-refusal", STRANGER_NOTICE_KIND)
CONFIRMATION_KINDS = ("confirmation", "orders-unchanged")

# The plain answers to mail that is not an order set (press, requests, votes, commands:
# gmserver.services.inbox.handlers): a robot that answers every answer with a "STATUS" is held here.
NOTICES_PER_HOUR = 6
NOTICE_KIND = "notice"  # the outbox kind of these answers

# Open sign-up (JOIN, STANDBY, OBSERVE, LIST OPEN, RECORD...): anyone may write, so anyone's From
# may be forged. An address gets at most NOTICES_PER_HOUR answers an hour, as a player's notices;
# all addresses together at most SIGNUP_ANSWERS_PER_HOUR (a sign-up brings seven to a dozen people,
# each answered twice: asked, confirmed), so that forged senders cannot make the server a source of
# backscatter. Nothing is done for a request until the reply to its answer proves the address.
SIGNUP_KIND = "signup"
SIGNUP_ANSWERS_PER_HOUR = 60

# WHATIF adjudicates a whole phase and draws its map for one player: a few an hour each is what a
# player trying lines needs, and a player (or a robot in their name) cannot keep the server busy.
WHATIF_PER_HOUR = 4
WHATIF_OUTCOME = "whatif-sent"  # the inbound row's outcome of an answered WHATIF, which the limit counts


def replies_since(session: Session, address: str, kinds: Sequence[str], since: datetime) -> int:
    """Mail of `kinds` queued to `address` after `since`."""
    return queued_since(session, since, kinds=kinds, recipient=address)


def player_refusals_since(session: Session, address: str, since: datetime, *, proven: bool) -> int:
    """Refusals (and sender warnings) queued to the player at `address` after `since`, of mail
    that proved its sender (`proven`) or of any other mail: each kind has its own hourly limit."""
    mine = queued_since(session, since, kinds=REFUSAL_KINDS, recipient=address, key_prefix=PROVEN_REFUSAL_KEY)
    return mine if proven else replies_since(session, address, REFUSAL_KINDS, since) - mine


def stranger_may_be_answered(session: Session, address: str, now: datetime) -> bool:
    """Whether a stranger (a sender who plays no game the mail is about) may be answered now: once
    per STRANGER_REPLY_INTERVAL an address, and STRANGER_REFUSALS_PER_HOUR for all strangers."""
    if replies_since(session, address, (*REFUSAL_KINDS, STRANGER_NOTICE_KIND), now - STRANGER_REPLY_INTERVAL):
        return False
    return queued_since(session, now - timedelta(hours=1), kinds=STRANGER_KINDS) < STRANGER_REFUSALS_PER_HOUR


def signup_may_be_answered(session: Session, address: str, now: datetime) -> bool:
    """Whether a sign-up answer may go to `address` now (SIGNUP_KIND's limits above)."""
    since = now - timedelta(hours=1)
    if replies_since(session, address, (SIGNUP_KIND,), since) >= NOTICES_PER_HOUR:
        return False
    return queued_since(session, since, kinds=(SIGNUP_KIND,)) < SIGNUP_ANSWERS_PER_HOUR


def whatif_wait(session: Session, game_id: int, power: str, now: datetime) -> datetime | None:
    """None if the power may have a WHATIF answered now; else when it may again (WHATIF_PER_HOUR)."""
    answered = answered_since(session, game_id, power, WHATIF_OUTCOME, now - timedelta(hours=1))
    return None if len(answered) < WHATIF_PER_HOUR else answered[-WHATIF_PER_HOUR] + timedelta(hours=1)
