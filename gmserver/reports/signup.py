"""Open sign-up in words (pure): an open game's one line (`gmserver game list --open`, LIST OPEN
by mail) and the start condition."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from gmserver.reports.requests import Answer, Section
from gmserver.rules.geography import POWERS


@dataclass(frozen=True)
class OpenGame:
    name: str
    ruleset: str
    joined: int  # confirmed joins (the GM's approval included, where the game asks it)
    deadline_time: str | None  # "18:00:00"
    timezone: str
    anonymous: bool
    min_reliability: float | None
    approval: bool
    starts_at: datetime | None


def start_words(game: OpenGame) -> str:
    if game.starts_at is None:
        return f"starts when {len(POWERS)} players have joined"
    return f"starts {game.starts_at:%Y-%m-%d %H:%M} UTC"


def open_game_line(game: OpenGame) -> str:
    """"lepanto: standard rules, 3 of 7 joined, starts when 7 players have joined, deadlines at
    18:00 Europe/Berlin, anonymous, joining needs 80% of turns ordered on time, the GM approves
    each player"."""
    parts = [f"{game.ruleset} rules", f"{game.joined} of {len(POWERS)} joined", start_words(game)]
    if game.deadline_time:
        parts.append(f"deadlines at {game.deadline_time[:5]} {game.timezone}")
    else:
        parts.append(f"time zone {game.timezone}")
    if game.anonymous:
        parts.append("anonymous")
    if game.min_reliability:
        parts.append(f"joining needs {game.min_reliability:.0%} of turns ordered on time")
    if game.approval:
        parts.append("the GM approves each player")
    return f"{game.name}: {', '.join(parts)}"


# how a sign-up request is confirmed: the same words in every answer that asks it
CONFIRM_BY_REPLY = ("Reply to this mail to confirm (what you write does not matter): the reply proves that this "
                    "address is yours. Nothing is done until you reply.")


def build_asked(*, kind: str, game_name: str, preferences: str, open_game: OpenGame | None) -> Answer:
    """The answer to JOIN, STANDBY, OBSERVE, LEAVE or UNOBSERVE: what was read, and how to confirm."""
    what = {
        "join": f"to join {game_name}, wanting {preferences}",
        "standby": f"to stand by for {game_name}: when a power needs a new player you are offered it in turn",
        "observe": f"to observe {game_name}: you get its reports and public press, never orders or private press",
        "leave": f"to leave {game_name}",
        "unobserve": f"to stop observing {game_name}",
    }[kind]
    sections = [Section("To confirm", (CONFIRM_BY_REPLY,))]
    if open_game is not None:
        sections.append(Section("The game", (open_game_line(open_game),)))
    if kind == "join":
        sections.append(Section("Your preferences", (
            f"Read as: {preferences}. To change them, send the JOIN line again with the powers in the order you "
            "want them (e.g. join " + game_name + " England, France, Austria), or 'any'. The powers are assigned "
            "when the game is full: as many players as possible get their first choice, then their second, and "
            "so on; a tie is drawn by the game's recorded seed.",)))
    return Answer(f"You asked {what}.", tuple(sections))


def build_confirmed(*, kind: str, game_name: str, place: int | None, waiting_gm: bool, standing_by: bool,
                    started: bool, refusal: str) -> Answer:
    """The answer to a confirming reply."""
    if refusal:
        return Answer(f"Your join of {game_name} was not accepted: {refusal}.", (
            Section("What you may do", (f"Stand by for it instead: reply to this mail with 'standby {game_name}'.",)),))
    if kind == "join":
        if started:
            return Answer(f"Your join of {game_name} is confirmed, and with it the game is full: it starts now. "
                          "Your start mail, with your power, follows in a separate mail.")
        if waiting_gm:
            return Answer(f"Your join of {game_name} is confirmed; the GM approves each player of this game, and "
                          "you will hear when they have.")
        if standing_by:
            return Answer(f"{game_name} was full before your reply: you stand by for it, first in line when a "
                          "power needs a new player.")
        return Answer(f"Your join of {game_name} is confirmed: you are number {place} in the queue of "
                      f"{len(POWERS)}. To take it back before the start, reply with 'leave {game_name}'.")
    said = {"standby": f"You stand by for {game_name}: when a power needs a new player you are offered it by mail; "
                       "the first to reply TAKEOVER gets it.",
            "observe": f"You observe {game_name} from now on: its reports and public press come to this address.",
            "leave": f"You have left {game_name}'s sign-up.",
            "unobserve": f"You no longer observe {game_name}."}
    return Answer(said[kind])


def build_record(*, address: str, lines: Sequence[str]) -> Answer:
    return Answer(f"Your record on this server, as {address} (and as a fallback address).",
                  (Section("Record", tuple(lines)),))


def build_open_list(games: Sequence[OpenGame]) -> Answer:
    if not games:
        return Answer("No game is open for sign-up now.")
    return Answer("The games open for sign-up now.", (
        Section("Games", tuple(open_game_line(game) for game in games)),
        Section("To join", ("Reply to this mail with 'join GAME' and the powers you want in order, e.g. "
                            "'join lepanto England, France', or 'join lepanto any'.",)),
    ))


def build_offer(*, game_name: str, power: str, phase: str) -> Answer:
    return Answer(f"{power.title()} in {game_name} needs a new player ({phase}), and you stand by for the game.", (
        Section("To take it over", ("Reply to this mail with the word TAKEOVER. The first player standing by to "
                                    "reply gets it, with the start mail and the position; a later reply is told it "
                                    "was taken.",)),))


def build_takeover(*, game_name: str, power: str | None) -> Answer:
    if power is None:
        return Answer(f"No power of {game_name} is offered to you now (it may have been taken already); you still "
                      "stand by for the game.")
    return Answer(f"You take over {power.title()} in {game_name}. Your start mail, with the position and your "
                  "password, follows in a separate mail.")
