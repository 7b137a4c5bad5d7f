"""GM controls: move a deadline, pause and resume, replace a player or change an
address, put a power in or out of civil disorder, end a game, game settings.

Each action runs in the caller's transaction with the game row locked (an adjudication cannot
run meanwhile), is recorded in `gm_actions` (what, arguments, by whom: "cli" or the GM's address,
when, what came of it) and announced to the players (`correction_broadcast =
all_players`, every profile). A request that cannot be carried out raises GameError saying why;
nothing is recorded then. The command line (gmserver/cli/) and GM mail (services/commands/gm_commands.py)
both call these.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.db.session import transaction
from gmserver.reports.anonymity import Seat, new_player_words, reveal_lines
from gmserver.reports.words import format_time, plural
from gmserver.rules.authenticity import SENDER_CHECKS
from gmserver.rules.envelope import is_plain_address
from gmserver.rules.position import describe_phase
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import announce, deadline_event, queue_start_mails, seats_of
from gmserver.services.features import perpetual, proxies, standby
from gmserver.services.features.ending import final_record, finish_game
from gmserver.services.game import players, schedule
from gmserver.services.game.actions import (
    Addressee,
    Done,
)
from gmserver.services.game.actions import (
    player_of as _player,
)
from gmserver.services.game.actions import (
    record as _record,
)
from gmserver.services.game.actions import (
    require_active as _active,
)
from gmserver.services.game.games import GameError, find_game, new_secret
from gmserver.services.game.ordersets import invalid_records


def _when(game: Game, moment: datetime | None) -> str:
    return str(format_time(moment, game.timezone)) if moment is not None else "none"


def addresses_of(text: str) -> tuple[str, str | None]:
    primary, _, fallback = text.partition(",")
    primary, fallback = primary.strip().lower(), fallback.strip().lower() or None
    for address in (primary, fallback):
        if address is not None and not is_plain_address(address):
            raise GameError(f"{address!r} is not a plain email address (like anna@example.org)")
    return primary, fallback


def set_deadline(session: Session, services: Services, game: Game, deadline: datetime, *, by: str,
                 now: datetime) -> Done:
    """Set, extend or shorten the current turn's deadline; never below the profile's minimum
    turn length counted from when the turn opened (the minimums are minimums), unless
    the game was created with short turns (`--short-turns-for-testing`: enforce_minimums off).
    The deadline it has already is refused, like `pause` of a paused game: nothing changed, so
    nothing is recorded and nobody is told."""
    _active(game)
    if game.deadline is not None and deadline == game.deadline:
        raise GameError(f"the deadline of {game.name} is {_when(game, deadline)} already: nothing changed, "
                        "nobody told")
    record = queries.phases.current_record(session, game)
    if problems := schedule.new_deadline_problems(session, game, deadline, now):
        raise GameError(f"the deadline of {game.name} was not changed: " + "; ".join(problems))
    before, game.deadline = game.deadline, deadline
    record.deadline = deadline
    word = "extended" if before is None or deadline > before else "brought forward"
    text = f"the deadline of {describe_phase(game.phase)} is {word} to {_when(game, deadline)} (was {_when(game, before)})"
    if note := schedule.pace_note(session, game, deadline):  # 001 IV(4): told to the GM, not to the players
        text += f"; note: {note}"
    return _record(session, services, game, "deadline", {"deadline": deadline.isoformat(),
                   "before": before.isoformat() if before else None}, by, now, text,
                   f"the deadline is {word}", (f"The GM has {word} the deadline of {describe_phase(game.phase)}.",),
                   calendar=deadline_event(services, game, now))  # the report's calendar event, moved


def pause(session: Session, services: Services, game: Game, *, by: str, now: datetime) -> Done:
    """A paused game is never adjudicated and gets no reminders; orders are still received."""
    _active(game)
    if game.paused:
        raise GameError(f"{game.name} is already paused")
    game.paused = True
    return _record(session, services, game, "pause", {}, by, now, f"{game.name} is paused",
                   "the game is paused", ("The GM has paused the game: no turn is adjudicated and no reminder is "
                                          "sent until the GM resumes it, and the deadline is announced then. "
                                          "Orders are still received.",),
                   calendar=deadline_event(services, game, now))  # the calendar event withdrawn


def resume(session: Session, services: Services, game: Game, *, by: str, now: datetime) -> Done:
    """Resume: a deadline still ahead is kept; one that passed while the game was paused is
    set one full turn from now (players had no deadline to aim at meanwhile)."""
    _active(game)
    if not game.paused:
        raise GameError(f"{game.name} is not paused")
    game.paused = False
    if game.deadline is not None and game.deadline > now:
        said = f"the deadline stays {_when(game, game.deadline)}"
    else:
        game.deadline = schedule.fresh_deadline(game, queries.games.ruleset_of(game), now)
        queries.phases.current_record(session, game).deadline = game.deadline
        said = f"the deadline passed during the pause, so it is now {_when(game, game.deadline)}, one full turn from now"
    return _record(session, services, game, "resume", {"deadline": game.deadline.isoformat() if game.deadline else None},
                   by, now, f"{game.name} is resumed: {said}", "the game goes on",
                   (f"The GM has resumed the game: {said}.",), calendar=deadline_event(services, game, now))


def replace(session: Session, services: Services, game: Game, power: str, addresses: str, *, by: str,
            now: datetime) -> Done:
    """Replace a player; the new one gets the start mail, the others are told."""
    _active(game)
    address, fallback = addresses_of(addresses)
    seated = next((p for p in game.players if p.power == power.strip().upper()), None)
    if seated is not None and address == seated.address:
        raise GameError(f"{address} already plays {seated.power}")
    previous = None if seated is None else {"address": seated.address, "fallback": seated.fallback_address,
                                            "civil_disorder": seated.civil_disorder, "until": now.isoformat()}
    # the old player's record goes to player_history; a power without a player gets its first (services/game/players.py)
    player = players.replace_player(session, game, power, address, fallback, now)
    queue_start_mails(session, services, game, now, powers=[player.power], replacing=seated is not None)
    others = [p for p in game.players if p.power != player.power]
    was = f"was {previous['address']}" if previous else "it had no player"
    done = _record(session, services, game, "replace", {"power": player.power, "address": address,
                   "fallback": fallback, "previous": previous}, by, now,
                   f"{player.power} is now played by {address} ({was}); the start mail is queued",
                   f"{player.power.title()} has a new player",
                   (new_player_words(player.power, address, anonymous=game.anonymous),), to=others)
    if previous is None or done.action_id is None:
        return done
    # the former player is told once: their mail for the game is a stranger's now, and dropped unanswered
    # under the strangers' limit; without a reply address (it plays no power any more)
    told = announce(session, services, game, done.action_id, f"{player.power.title()} has a new player",
                    (f"The GM has given {player.power.title()} to a new player: you no longer play "
                     f"{player.power.title()} in {game.name}, and mail you send for it is not read. Thank you "
                     "for playing.",), now, to=[Addressee(player.power, previous["address"], None)])
    return dataclasses.replace(done, announced=done.announced + told)


def change_address(session: Session, services: Services, game: Game, power: str, addresses: str, *, by: str,
                   now: datetime) -> Done:
    """The same player at a new address (and fallback); told at the new address."""
    _active(game)
    address, fallback = addresses_of(addresses)
    player = _player(game, power)
    before = {"address": player.address, "fallback": player.fallback_address}
    if address == player.address and fallback == player.fallback_address:
        raise GameError(f"{player.power}'s address is {address} already")
    # the old address is told too, a change the player did not ask for does not go unnoticed; but
    # with no reply address: it plays no power any more
    old = Addressee(player.power, player.address, None)
    player.address, player.fallback_address = address, fallback
    # every secret is new: whatever the old address saw (password, reply addresses) opens nothing now
    player.secret = new_secret()
    # the new password, at the new address
    queue_start_mails(session, services, game, now, powers=[player.power], occasion=f":address:{now.isoformat()}")
    return _record(session, services, game, "address", {"power": player.power, "address": address,
                   "fallback": fallback, "before": before}, by, now,
                   f"{player.power}'s address is now {address}" + (f" (fallback {fallback})" if fallback else ""),
                   "your address has changed",
                   (f"Mail for {player.power.title()} now goes to {address}"
                    + (f", with {fallback} as the fallback address" if fallback else "")
                    + f"; orders are taken from {'these addresses' if fallback else 'this address'} only.",),
                   to=[player] if old.address == address else [player, old])


def civil_disorder(session: Session, services: Services, game: Game, power: str, on: bool, *, by: str,
                   now: datetime) -> Done:
    """Put a power in civil disorder (its units hold) or take it out."""
    _active(game)
    player = _player(game, power)
    if player.civil_disorder == on:
        raise GameError(f"{player.power} is {'already' if on else 'not'} in civil disorder")
    players.set_civil_disorder(session, game, power, on, now)
    words = (f"{player.power.title()} is in civil disorder: its units hold until a player takes it over" if on
             else f"{player.power.title()} is no longer in civil disorder")
    return _record(session, services, game, "cd", {"power": player.power, "on": on}, by, now, words,
                   f"{player.power.title()} {'in' if on else 'out of'} civil disorder", (words + ".",))


def civil_disorder_search(session: Session, services: Services, game: Game, power: str, *, by: str,
                          now: datetime) -> Done:
    """001 V(3)(ii): civil disorder while a replacement is sought for the house rules' period
    (cd_search_years); gmserver tells the GM when it ends with nobody found."""
    _active(game)
    player = _player(game, power)
    until = players.search_replacement(session, game, player.power, now)
    offered = standby.offer_power(session, services, game, player.power, now)  # open sign-up's standby players
    words = (f"{player.power.title()} is in civil disorder while a new player is sought, until {until}; "
             "if nobody is found by then, the civil disorder is permanent"
             + (f"; offered to {plural(offered, 'player')} standing by" if offered else ""))
    return _record(session, services, game, "cd", {"power": player.power, "on": True, "search_until": until}, by,
                   now, words, f"{player.power.title()} in civil disorder: a new player is sought", (words + ".",))


def end_game(session: Session, services: Services, game: Game, *, by: str, now: datetime) -> Done:
    """End the game where it stands; every player gets the final position's centre counts."""
    _active(game)
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    counts = sorted(((len(centres), power) for power, centres in position.centers.items() if centres), reverse=True)
    standing = ", ".join(f"{power.title()} {count}" for count, power in counts) or "no centres held"
    ended = f"{game.name} has ended in {describe_phase(game.phase)}"
    refused = finish_game(session, services, game, now, by=by,
                          reason=f"{ended}, so orders for it can no longer be used.")
    record = final_record(session, game)  # no report follows: this mail carries the game's record
    return _record(session, services, game, "end", {"phase": game.phase}, by, now,
                   ended + (f"; {plural(refused, 'held message')} refused (the game is over)" if refused else ""),
                   "the game has ended",
                   (f"The GM has ended the game in {describe_phase(game.phase)}.",
                    f"Supply centres at the end: {standing}.", record.paragraph),
                   table=record.table, images=record.images)


def clarify(session: Session, services: Services, game: Game, power: str, on: bool, *, by: str,
            now: datetime) -> Done:
    """000 III(1) (a) (invalid_set_feedback = conditional_mhr): the GM switches off, or on again,
    being asked about the player's sets with lines that cannot be used, having judged from how
    often their sets had such lines whether they are unusual from this player. Not announced:
    each receipt tells the player why their set was not gone through."""
    player = _player(game, power)
    if queries.games.ruleset_of(game).invalid_set_feedback != "conditional_mhr":
        raise GameError(f"{game.name}'s rules leave the GM no choice here: only under 000 III(1) "
                        "(invalid_set_feedback = conditional_mhr) does the GM decide whom to ask about invalid sets")
    if player.clarifications == on:
        raise GameError(f"clarifications for {player.power} are {'on' if on else 'off'} already")
    player.clarifications = on
    record = invalid_records(session, game)[player.power]
    seen = f"{record.invalid} of {plural(record.sets, 'set')} in this game had lines that could not be used"
    text = (f"{player.power}'s sets with lines that cannot be used are asked about again (000 III(1)); {seen}" if on
            else f"{player.power}'s sets with lines that cannot be used get a receipt only (000 III(1) (a)); {seen}")
    return _record(session, services, game, "clarify", {"power": player.power, "on": on,
                   "invalid": record.invalid, "sets": record.sets}, by, now, text)


SETTINGS = {"gm_copies": "a copy of every report and every refusal goes to the GM",
            "sender-check": "what proves that a player's mail is theirs: verified or from",
            "pages": "whether the game's web pages show anything without a player's link: public or private"}
SENDER_CHECK_NAMES = ("sender-check", "sender_check")
PAGES_VALUES = {"public": True, "private": False}


def set_setting(session: Session, services: Services, game: Game, name: str, value: str, *, by: str,
                now: datetime) -> Done:
    """A game setting the GM may change: `gm_copies on|off` (not announced: it concerns the GM)
    or `sender-check verified|from` (a switch to verified is announced: it changes what players
    must do)."""
    if name.lower() in SENDER_CHECK_NAMES:
        return _set_sender_check(session, services, game, value.strip().lower(), by=by, now=now)
    if name.lower() == "pages":
        return _set_pages(session, services, game, value.strip().lower(), by=by, now=now)
    if name not in SETTINGS:
        raise GameError(f"no setting {name!r} (settings: {', '.join(SETTINGS)})")
    if value.lower() not in ("on", "off", "true", "false", "yes", "no"):
        raise GameError(f"{name} is on or off, not {value!r}")
    game.gm_copies = value.lower() in ("on", "true", "yes")
    return _record(session, services, game, "set", {"name": name, "value": game.gm_copies}, by, now,
                   f"{name} is on: {SETTINGS[name]}" if game.gm_copies else f"{name} is off: no copies go to the GM")


def _set_pages(session: Session, services: Services, game: Game, value: str, *, by: str, now: datetime) -> Done:
    """A game's own choice of whether its pages are public (over `[web] public`): a private game
    shows nothing without a player's link or the GM's password. Not announced: the players' own
    links work either way."""
    if value not in PAGES_VALUES:
        raise GameError(f"pages is public or private, not {value!r}")
    game.pages_public = PAGES_VALUES[value]
    return _record(session, services, game, "set", {"name": "pages", "value": value}, by, now,
                   f"{game.name}'s pages are {value}: " + (
                       "anybody with the game's address may look at them" if game.pages_public else
                       "they show nothing without a player's own link or the GM's password"))


def reveal(session: Session, services: Services, game: Game, *, by: str, now: datetime) -> Done:
    """After the end of an anonymous game, if the GM chooses: every player, and everyone who played
    a power before, is told who played each power. Never while the game is played."""
    if not game.anonymous:
        raise GameError(f"{game.name} is not anonymous: its players were never hidden")
    if game.status == "active":
        raise GameError(f"{game.name} is still being played: its players may be revealed once it is over "
                        f"(`end {game.name}`, or its end by a solo or a vote)")
    former = [(Seat(h.power, h.address), describe_phase(h.left_in_phase))
              for h in queries.players.former_players(session, game.id)]
    lines = reveal_lines(seats_of(game), former)
    told: list[Any] = list(game.players)
    seated = {(p.power, p.address) for p in game.players}
    told += [Addressee(seat.power, seat.address, None) for seat, _ in former if (seat.power, seat.address) not in seated]
    return _record(session, services, game, "reveal", {"players": lines}, by, now,
                   f"the players of {game.name} are revealed to them", "who played whom",
                   (f"{game.name} was an anonymous game. Now that it is over, the GM reveals who played "
                    "each power:", *lines), to=told)


def _set_sender_check(session: Session, services: Services, game: Game, value: str, *, by: str,
                      now: datetime) -> Done:
    if value not in SENDER_CHECKS:
        raise GameError(f"sender-check is {' or '.join(SENDER_CHECKS)}, not {value!r}")
    if value == game.sender_check:
        raise GameError(f"{game.name} already uses sender-check {value}")
    game.sender_check = value
    arguments = {"name": "sender-check", "value": value}
    if value == "from":
        return _record(session, services, game, "set", arguments, by, now,
                       f"sender-check is from in {game.name}: a mail whose From line names a player is taken as "
                       "theirs, and anyone can write that line")
    for player in game.players:
        if not player.secret:  # a player from before reply addresses existed
            player.secret = new_secret()
    return _record(session, services, game, "set", arguments, by, now,
                   f"sender-check is verified in {game.name}: a player's mail is used only with proof that they "
                   "sent it",
                   headline="Your mail to the GM is now checked",
                   paragraphs=("From now on a mail from your address is used only when it proves that you sent "
                               "it, so that nobody can send orders in your name.",
                               "Reply to this mail, or to any mail from the GM, and it is always accepted: the "
                               "reply goes to your own reply address. A signature of your mail provider "
                               "(DKIM) also proves it, but not every provider signs."))


def act(services: Services, name: str, action: Callable[..., Done], *args: Any, by: str = "cli",
        now: datetime) -> Done:
    """Run one action on the game called `name` in its own transaction (the command line)."""
    with transaction(services.sessions) as session:
        game = queries.games.game_for_update(session, find_game(session, name).id, skip_locked=False)
        assert game is not None
        return action(session, services, game, *args, by=by, now=now)


def action_log(services: Services, name: str) -> list[dict[str, Any]]:
    """The game's GM actions as plain values, oldest first."""
    with transaction(services.sessions) as session:
        game = find_game(session, name)
        return [{"at": row.at.isoformat(), "by": row.by, "action": row.action, "arguments": row.arguments,
                 "result": row.result} for row in queries.gm_actions.actions_of(session, game.id)]


def proxy_give(session: Session, services: Services, game: Game, power: str, holder: str, for_turn: bool = False,
               units: list[str] | None = None, turns: int | None = None, *, by: str, now: datetime) -> Done:
    """The GM gives a power a proxy, for all its units or some (services/features/proxies.py)."""
    return proxies.give(session, services, game, power, holder, by=by, now=now, for_turn=for_turn, units=units or (),
                        turns=turns)


def proxy_approve(session: Session, services: Services, game: Game, power: str, *, by: str, now: datetime) -> Done:
    """The GM's final ruling allowing a proxy (000 II(3))."""
    return proxies.approve(session, services, game, power, by=by, now=now)


def proxy_cancel(session: Session, services: Services, game: Game, power: str, *, by: str, now: datetime) -> Done:
    """The GM ends a power's proxy or refuses its request."""
    return proxies.cancel(session, services, game, power, by=by, now=now)


def perpetual_mark(session: Session, services: Services, game: Game, power: str, on: bool = True, *, by: str,
                   now: datetime) -> Done:
    """000 II(4): the GM keeps a power's order set from turn to turn, or ends it (services/features/perpetual.py)."""
    return perpetual.mark(session, services, game, power, on, by=by, now=now)
