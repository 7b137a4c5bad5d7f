"""A player's own address change by mail, `ADDRESS new@example.org[,fallback]`
(`address_change = from_known_address`, 003 [4]), made only when the new address answers.

Whoever has seen one of the player's mails could send the request, so it changes nothing by
itself: the new address gets a mail whose Reply-To carries a one-time token (replying to it
confirms), and the present address gets one whose Reply-To carries another (replying CANCEL
drops the request, or undoes the change if the new address was quicker, for PENDING_FOR). On
the change every secret of the player is new (gm_controls.change_address): what the old address
saw opens nothing any more.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import datetime, timedelta

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import AddressChange, Game, Player
from gmserver.db.queries.players import player_of
from gmserver.rules.envelope import Envelope
from gmserver.rules.gm_commands import address_change_problem
from gmserver.services.base import mails
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import queue
from gmserver.services.commands.gm_controls import addresses_of, change_address
from gmserver.services.game.games import GameError, new_secret

# a request not confirmed within this time is void: the new address must answer while it is fresh
PENDING_FOR = timedelta(days=7)
# each request mails a stranger's address: a player (or someone with one of their mails) may not
# make the GM's server mail any address they like at will
REQUESTS_PER_DAY = 3
KIND = "address-check"  # the outbox kind of the mails to the new and the old address
_CANCEL = re.compile(r"\bcancel\b", re.IGNORECASE)


def request(session: Session, services: Services, game_id: int, power: str, argument: str, *,
            now: datetime) -> tuple[str, str]:
    """The request of `power`'s player (its sender proven as for orders): (what to answer, the
    inbound outcome). Nothing changes yet; both addresses are mailed."""
    game = queries.games.game_for_update(session, game_id, skip_locked=False)
    assert game is not None
    if (problem := address_change_problem(queries.games.ruleset_of(game).address_change)) is not None:
        return problem, "address-refused"
    try:
        address, fallback = addresses_of(argument.split()[0] if argument.split() else "")
        player = _player(session, game, power)
        if game.status != "active":
            raise GameError(f"{game.name} is {game.status}")
        if (address, fallback) == (player.address, player.fallback_address):
            raise GameError(f"your address is {address} already")
    except GameError as error:
        return (f"Your address was not changed: {error}. Write: ADDRESS new@example.org[,fallback@example.org]",
                "address-refused")
    if _requests_since(session, game.id, player.power, now - timedelta(days=1)) >= REQUESTS_PER_DAY:
        return (f"Your address was not changed: {REQUESTS_PER_DAY} changes were asked for in the last day "
                "already. Please try again tomorrow, or ask the GM.", "address-refused")
    for earlier in _pending(session, game.id, player.power):
        earlier.status, earlier.ended_at = "replaced", now
    change = AddressChange(game_id=game.id, power=player.power, address=address, fallback=fallback,
                           old_address=player.address, old_fallback=player.fallback_address,
                           confirm_token=new_secret(), cancel_token=new_secret(), status="pending", requested_at=now)
    session.add(change)
    session.flush()
    power_name, new = player.power.title(), address + (f" (fallback {fallback})" if fallback else "")
    _mail(session, services, game, change, address, change.confirm_token, "confirm your new address", (
        f"The player of {power_name} in {game.name} asked for the game's mail to come to {new} from now on.",
        "To confirm, reply to this mail from this address (what you write does not matter). Nothing changes "
        f"until you do; the request lapses after {PENDING_FOR.days} days.",
        "If you did not ask for this, do nothing."), now)
    _mail(session, services, game, change, player.address, change.cancel_token, "a change of your address", (
        f"A message proven to be yours asked for {power_name}'s mail in {game.name} to go to {new} from now on.",
        f"Nothing changes until {address} confirms it. If you did not ask for this, reply to this mail with "
        "the word CANCEL: the request is dropped. Someone who saw one of your mails may have sent it; your "
        "password and reply address are changed when an address change is made."), now)
    return (f"Nothing has changed yet: a mail went to {address}; reply to it from there to confirm the change. "
            f"Your present address, {player.address}, was told too and can cancel it.", "address-pending")


def answer(session: Session, services: Services, envelope: Envelope, text: str, tokens: Collection[str],
           now: datetime) -> str | None:
    """A message sent to the one-time reply address of a change: confirmed from the new address
    while pending; cancelled from the old one while pending, or undone once confirmed (whoever
    confirmed may have been quicker than the player), within PENDING_FOR of the request. The
    inbound outcome; None when no such change has these tokens, or the sender is not the address
    the token was sent to: the message is then read as any other."""
    if envelope.automated or not tokens:
        return None
    wanted = [token.lower() for token in tokens]
    change = session.scalar(select(AddressChange).where(or_(
        (AddressChange.status == "pending") & AddressChange.confirm_token.in_(wanted),
        AddressChange.status.in_(("pending", "confirmed")) & AddressChange.cancel_token.in_(wanted))).limit(1))
    if change is None:
        return None
    confirming = change.confirm_token in wanted
    if envelope.sender not in ((change.address, change.fallback) if confirming
                               else (change.old_address, change.old_fallback)):
        return None
    game = queries.games.game_for_update(session, change.game_id, skip_locked=False)
    assert game is not None
    if now - change.requested_at > PENDING_FOR or game.status != "active":
        if change.status == "pending":
            change.status, change.ended_at = "lapsed", now
        return None
    if not confirming:
        return _cancel(session, services, game, change, envelope, text, now)
    player = _player(session, game, change.power)
    if player.address != change.old_address:  # the GM changed it meanwhile
        change.status, change.ended_at = "replaced", now
        return None
    change.status, change.ended_at = "confirmed", now
    change_address(session, services, game, change.power, ",".join(filter(None, (change.address, change.fallback))),
                   by=envelope.sender, now=now)
    return "address-changed"


def _cancel(session: Session, services: Services, game: Game, change: AddressChange, envelope: Envelope, text: str,
            now: datetime) -> str:
    power_name = change.power.title()
    if not _CANCEL.search(text):
        _mail(session, services, game, change, change.old_address, change.cancel_token, "your address is unchanged", (
            f"Your reply did not say CANCEL, so the request to send {power_name}'s mail to {change.address} "
            "still waits for that address to confirm it.",
            "To drop the request, reply to this mail with the word CANCEL."), now, key="unclear")
        return "address-cancel-unclear"
    if change.status == "confirmed":
        return _undo(session, services, game, change, envelope, now)
    change.status, change.ended_at = "cancelled", now
    for address in (change.old_address, change.address):
        _mail(session, services, game, change, address, None, "the address change was cancelled", (
            f"The request to send {power_name}'s mail in {game.name} to {change.address} was cancelled from "
            f"{change.old_address}. Nothing has changed.",), now, key="cancelled")
    return "address-cancelled"


def _undo(session: Session, services: Services, game: Game, change: AddressChange, envelope: Envelope,
          now: datetime) -> str:
    """The old address cancels a change already confirmed: the old addresses are back, and every
    secret is new again (mailed to the old address), so whoever confirmed holds nothing."""
    player = _player(session, game, change.power)
    if player.address != change.address:  # changed again since (by the GM): not this change's to undo
        return "address-cancel-late"
    change.status, change.ended_at = "undone", now
    change_address(session, services, game, change.power,
                   ",".join(filter(None, (change.old_address, change.old_fallback))), by=envelope.sender, now=now)
    return "address-undone"


def _mail(session: Session, services: Services, game: Game, change: AddressChange, to: str, token: str | None,
          headline: str, paragraphs: tuple[str, ...], now: datetime, *, key: str = "") -> None:
    """One mail about the change; its Reply-To is the one-time token's address, if any."""
    body = services.composer.render("player/gm_action.txt.j2", {
        "game_name": game.name, "headline": headline, "paragraphs": list(paragraphs), "deadline": None,
        "paused": False})
    message = mails.one_time(services, to=to, subject=f"{game.name}: {headline}", body=body, token=token, now=now)
    queue(session, message, kind=KIND, now=now, game_id=game.id,
          dedupe_key=f"address:{change.id}:{key}:{to}:{now.isoformat()}")


def _player(session: Session, game: Game, power: str) -> Player:
    player = player_of(session, game.id, power)
    assert player is not None, f"{game.name} has no player for {power}"
    return player


def _pending(session: Session, game_id: int, power: str) -> list[AddressChange]:
    return list(session.scalars(select(AddressChange).where(
        AddressChange.game_id == game_id, AddressChange.power == power, AddressChange.status == "pending")))


def _requests_since(session: Session, game_id: int, power: str, since: datetime) -> int:
    return session.scalar(select(func.count()).select_from(AddressChange).where(
        AddressChange.game_id == game_id, AddressChange.power == power, AddressChange.requested_at >= since)) or 0
