"""Open sign-up by mail (gmserver/commands/players/signup.py): JOIN, LEAVE, STANDBY, OBSERVE,
UNOBSERVE, RECORD, LIST OPEN and TAKEOVER, from anyone, and the replies that confirm them.

A request changes nothing by itself: its answer's Reply-To is the sender's own one-time address at
the GM (gm+SECRET@..., rules.authenticity.reply_address, as an address change's), and a reply to it,
whatever it says, confirms it (services.features.signup.confirm). A player standing by who is
offered a power replies TAKEOVER to the offer (services.features.standby) and gets the power as
`game replace` gives it, with the start mail of a replacement.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import Signup
from gmserver.reports.requests import Answer, Section
from gmserver.reports.signup import (
    build_asked,
    build_confirmed,
    build_open_list,
    build_record,
    build_takeover,
)
from gmserver.rules.assignment import PreferenceError, preference_words, read_preferences
from gmserver.rules.envelope import Envelope
from gmserver.rules.record import record_lines
from gmserver.services.base.context import Services
from gmserver.services.commands.gm_controls import replace
from gmserver.services.features import signup, standby
from gmserver.services.features.records import record_of
from gmserver.services.game.games import GameError

log = logging.getLogger(__name__)

# (outcome, answer, the one-time token of the answer's Reply-To or None)
Answered = tuple[str, Answer, str | None]
USAGE = {
    signup.JOIN: "join GAME England, France, Austria (the powers you want, in order) or join GAME any",
    signup.STANDBY: "standby GAME", signup.OBSERVE: "observe GAME", signup.LEAVE: "leave GAME",
    signup.UNOBSERVE: "unobserve GAME",
}
_TAKEOVER = "takeover"


def ask(session: Session, services: Services, sender: str, kind: str, argument: str, now: datetime) -> Answered:
    """JOIN, STANDBY, OBSERVE, LEAVE or UNOBSERVE: the request stored unconfirmed, and its answer."""
    words = argument.replace(",", " ").split()
    name = words[0].strip(".:;") if words else ""
    try:
        if not name:
            raise GameError("the line names no game")
        preferences = read_preferences(argument.split(None, 1)[1] if len(words) > 1 else "") if kind == signup.JOIN \
            else ()
        row = signup.request(session, name, kind, sender, preferences, now)
    except (GameError, PreferenceError) as problem:
        return "signup-refused", _refused(session, kind, str(problem)), None
    announced = queries.signups.announcement(session, row.game_name)
    shown = signup.open_game(session, announced) if announced is not None and announced.status == "open" else None
    return (f"{kind}-asked", build_asked(kind=kind, game_name=row.game_name, preferences=preference_words(preferences),
                                         open_game=shown), row.secret)


def _refused(session: Session, kind: str, problem: str) -> Answer:
    games = signup.open_games(session)
    lines = [f"Write it as: {USAGE[kind]}", "Reply to this mail with the line as the first line of your message."]
    if games:
        lines.append(f"Games open for sign-up: {', '.join(game.name for game in games)}.")
    return Answer(f"Your {kind.upper()} line was not used: {problem}. Nothing was changed.",
                  (Section("What is read", tuple(lines)),))


def record(session: Session, services: Services, sender: str) -> Answered:
    """RECORD: the sender's own record (the answer goes to that address alone)."""
    return "record-sent", build_record(address=sender, lines=record_lines(record_of(session, services, sender))), None


def list_open(session: Session) -> Answered:
    return "list-open-sent", build_open_list(signup.open_games(session)), None


def takeover_by_word(session: Session) -> Answered:
    """TAKEOVER sent as a new message: it proves nothing; the offer's reply address does."""
    return "takeover-not-offered", Answer(
        "TAKEOVER is read in a reply to the mail that offered you a power: reply to that mail with the word "
        "TAKEOVER (the reply proves the offer came to you). Nothing was changed."), None


def answer_reply(session: Session, services: Services, envelope: Envelope, text: str, tokens: Collection[str],
                 now: datetime) -> Answered | None:
    """A reply to a sign-up answer or a standby offer (sent to its one-time address, from the
    address it was sent to): the request confirmed, or the power offered taken over. None when no
    sign-up has these tokens or the sender is not its address: the message is read as any other."""
    if envelope.automated or not tokens:
        return None
    rows = [row for row in queries.signups.signups_of_secret(session, [token.lower() for token in tokens])
            if row.address == envelope.sender]
    if not rows:
        return None
    row = rows[0]
    if row.kind == signup.STANDBY and row.status == "confirmed" and _is_takeover(text):
        return _take_over(session, services, row, now)
    kind = row.kind  # a join confirmed once the game is full becomes a standby
    try:
        done = signup.confirm(session, services, row, now)
    except GameError as problem:
        return "signup-refused", Answer(f"Your {kind.upper()} of {row.game_name} was not confirmed: {problem}."), None
    answer = build_confirmed(kind=kind, game_name=row.game_name, place=done.place,
                             waiting_gm=row.status == "awaiting_gm", standing_by=done.standing_by,
                             started=done.started is not None, refusal=done.refusal)
    # the answer's Reply-To is the same one-time address: a player standing by replies TAKEOVER to
    # an offer, or to this, and the same row is found
    return f"{kind}-confirmed" if not done.refusal else "join-refused", answer, row.secret


def _is_takeover(text: str) -> bool:
    lines = [line.strip().lower() for line in text.splitlines() if line.strip()]
    return bool(lines) and lines[0].split()[0].strip(".!:") == _TAKEOVER


def _take_over(session: Session, services: Services, row: Signup, now: datetime) -> Answered:
    game = queries.games.game_by_name(session, row.game_name)
    power = row.offered_power
    if game is None or power is None or game.status != "active":
        return "takeover-not-offered", build_takeover(game_name=row.game_name, power=None), row.secret
    locked = queries.games.game_for_update(session, game.id, skip_locked=False)
    assert locked is not None
    replace(session, services, locked, power, row.address, by=row.address, now=now)
    standby.offer_taken(session, locked, power)
    row.status = "seated"
    log.info("%s: %s taken over by %s, who stood by", locked.name, power, row.address)
    return "takeover", build_takeover(game_name=row.game_name, power=power), None
