"""Proxies (proxy_policy, proxy_precedence, proxy_cancel_notifies_holder; 000 II(3),
003 [19]): give, approve and cancel a power's proxy, and the proxies intake and adjudication see.

A proxy is asked for by the power's player (a "PROXY holder" request by mail) or given by the GM
(`gmserver game proxy`). Each step is recorded in gm_actions and told to those the house rules
name: under gm_approval (000 II(3)) a player's request waits for the GM, who is told; under
allowed_with_notice (003 [19]) it is in force at once and "only the GM and the player concerned
will be informed" (the holder; the owner hears it as the answer to their own request).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, Player, Proxy
from gmserver.reports.anonymity import holder_words
from gmserver.rules.envelope import is_plain_address
from gmserver.rules.position import PhaseOutcome, describe_phase, unit_province
from gmserver.rules.proxies import (
    notified_on_cancel,
    policy_words,
    read_proxy_words,
    request_status,
    units_after,
    until_after,
)
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import seats_of
from gmserver.services.base.gm_notices import notify_gm
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
from gmserver.services.game.games import GameError


def _holder_address(game: Game, holder: str) -> str:
    """A power's name means that power's player; anything else must be a plain address."""
    player = next((p for p in game.players if p.power == holder.strip().upper()), None)
    address = player.address if player is not None else holder.strip().lower()
    if not is_plain_address(address):
        raise GameError(f"{holder!r} is neither a power of {game.name} nor a plain email address")
    return address


def give(session: Session, services: Services, game: Game, power: str, holder: str, *, by: str, now: datetime,
         for_turn: bool = False, by_gm: bool = True, units: Sequence[str] = (), turns: int | None = None) -> Done:
    """A proxy for `power` held by `holder` (a power or an address), for this turn or until
    cancelled or for `turns` game turns (003 [19] "a preset period of time or indefinitely"), for
    all its units or those in the provinces `units` ("one or more of his units"). By the GM it is in
    force at once; a player's request follows proxy_policy."""
    _active(game)
    owner = _player(game, power)
    ruleset = queries.games.ruleset_of(game)
    address = _holder_address(game, holder)
    if address in (owner.address, owner.fallback_address):
        raise GameError(f"{address} already plays {owner.power}: a proxy is someone else")
    if queries.proxies.latest(session, game.id, owner.power, ("active", "requested")) is not None:
        raise GameError(f"{owner.power} has a proxy already (or one asked for): cancel it first")
    status = request_status(ruleset, by_gm=by_gm)
    if status is None:
        raise GameError(f"no proxy was made: {policy_words(ruleset)}")
    provinces = _proxied_units(session, game, owner.power, units)
    row = Proxy(game_id=game.id, power=owner.power, holder=address, status=status, units=provinces,
                until_phase=game.phase if for_turn else until_after(game.phase, turns) if turns else None,
                requested_by=by, requested_at=now)
    session.add(row)
    session.flush()
    span = _span(row, game.phase)
    if status == "requested":  # 000 II(3): the GM has the final ruling
        _tell_gm(session, services, game, row, f"{owner.power.title()} asks for a proxy",
                 f"{owner.power.title()} asks that {address} send its orders ({span}); "
                 f"the house rules say {policy_words(ruleset)}. To allow it: gmserver game proxy "
                 f"{game.name} {owner.power} {address} --approve", now)
        return _record(session, services, game, "proxy", _arguments(row), by, now,
                       f"{owner.power}'s proxy request ({address}, {span}) waits for the GM's ruling")
    # by mail the owner hears it in the answer to their request; by the GM, in a notice
    return _in_force(session, services, game, owner, row, by, now, span, by_gm=by_gm)


def _proxied_units(session: Session, game: Game, power: str, units: Sequence[str]) -> list[str] | None:
    """The provinces of the power's units named (003 [19]); None for all its units."""
    if not units:
        return None
    state = queries.phases.current_record(session, game).state
    own = {unit_province(unit) for unit in engine.position_from_state(state).units.get(power, ())}
    named = sorted({unit.strip().upper() for unit in units})
    if missing := [name for name in named if name not in own]:
        raise GameError(f"{power} has no unit in {', '.join(missing)} (its units: {', '.join(sorted(own))})")
    return named


def _span(row: Proxy, phase: str) -> str:
    """How long and for which units, in words."""
    turn = ("until cancelled" if row.until_phase is None else f"for {describe_phase(phase)} only"
            if row.until_phase == phase else f"until the end of {describe_phase(row.until_phase)}")
    return turn + (f", for the units in {', '.join(row.units)}" if row.units else "")


def approve(session: Session, services: Services, game: Game, power: str, *, by: str, now: datetime) -> Done:
    """The GM allows a proxy a player asked for (000 II(3))."""
    _active(game)
    owner = _player(game, power)
    row = queries.proxies.latest(session, game.id, owner.power, ("requested",))
    if row is None:
        raise GameError(f"{owner.power} has asked for no proxy")
    row.status = "active"
    span = _span(row, game.phase)
    return _in_force(session, services, game, owner, row, by, now, span, by_gm=True)


def _in_force(session: Session, services: Services, game: Game, owner: Player, row: Proxy, by: str,
              now: datetime, span: str, *, by_gm: bool) -> Done:
    holder = _shown_holder(game, row.holder)
    words = f"{holder} may send the orders of {owner.power.title()} ({span})"
    if not by_gm:  # 003 [19]: "Of course, the GM must be informed" (the GM is told the address)
        _tell_gm(session, services, game, row, f"{owner.power.title()} has a proxy",
                 f"{row.holder} may send the orders of {owner.power.title()} ({span}).", now)
    # never the other players (003 [19] "Only the GM and the player concerned will be informed")
    told = [_holder(game, owner, row.holder)] + ([owner] if by_gm else [])
    return _record(session, services, game, "proxy", _arguments(row), by, now, words, "a proxy for "
                   + owner.power.title(), (f"{words}: mail with {owner.power.title()} in the subject, from "
                                           f"{holder}, is taken as its orders.",), to=told)


def cancel(session: Session, services: Services, game: Game, power: str, *, by: str, now: datetime,
           by_gm: bool = True) -> Done:
    """End a power's proxy (or withdraw a request). The holder is told only where
    proxy_cancel_notifies_holder says so (003 [19]: "without notifying the player concerned")."""
    _active(game)
    owner = _player(game, power)
    row = queries.proxies.latest(session, game.id, owner.power, ("active", "requested"))
    if row is None:
        raise GameError(f"{owner.power} has no proxy to cancel")
    ruleset = queries.games.ruleset_of(game)
    tell_holder = row.status == "active" and notified_on_cancel(ruleset)
    silent = row.status == "active" and not tell_holder
    row.status, row.ended_at = ("cancelled_silently" if silent else "cancelled"), now
    words = f"the proxy of {_shown_holder(game, row.holder)} for {owner.power.title()} is cancelled"
    if not by_gm:  # 003 [19]: "Of course, the GM must be informed"
        _tell_gm(session, services, game, row, f"{owner.power.title()} cancels a proxy", words + ".", now)
    told: list[Any] = ([owner] if by_gm else []) + ([_holder(game, owner, row.holder)] if tell_holder else [])
    return _record(session, services, game, "proxy", {**_arguments(row), "cancel": True}, by, now,
                   words + ("" if tell_holder else " (the holder is not told)"), f"a proxy for {owner.power.title()} "
                   "is cancelled", (f"{words}: from now on only {owner.power.title()}'s own player sends its orders.",),
                   to=told)


def follow_units(session: Session, game_id: int, outcome: PhaseOutcome) -> None:
    """After adjudication: a proxy for some units follows those that moved (003 [19])."""
    for row in queries.proxies.proxies_of(session, game_id):
        if row.units and row.status in ("active", "cancelled_silently"):
            row.units = sorted(units_after(frozenset(row.units), outcome.orders_of(row.power)))


def _shown_holder(game: Game, address: str) -> str:
    """The holder as the owner and the holder are told: in an anonymous game a holder who plays
    here is their power's player, never an address."""
    return holder_words(address, seats_of(game), anonymous=game.anonymous)


def _holder(game: Game, owner: Player, address: str) -> Addressee:
    """The holder as gm_mail.announce takes them: with their own reply secret if they play here."""
    secret = next((p.secret for p in game.players if address in (p.address, p.fallback_address)), None)
    return Addressee(owner.power, address, secret)


def _tell_gm(session: Session, services: Services, game: Game, row: Proxy, subject: str, text: str,
             now: datetime) -> None:
    notify_gm(session, services, key=f"gm:proxy:{game.id}:{row.id}:{row.status}", subject=f"{game.name}: {subject}",
              paragraphs=(text,), now=now, game_id=game.id)


def _arguments(row: Proxy) -> dict[str, Any]:
    return {"power": row.power, "holder": row.holder, "until_phase": row.until_phase, "units": row.units,
            "status": row.status}


PROXY_USAGE = ("PROXY England (or PROXY anna@example.org), then \"turn\" for this turn only or a number of turns, "
               "and the provinces of the units if not all (PROXY England 3 turns PAR MAR); PROXY cancel to end it")


def player_proxy(session: Session, services: Services, game_id: int, power: str, argument: str, *, by: str,
                 now: datetime) -> tuple[str, str]:
    """A player's PROXY request by mail: (what to answer, the inbound outcome)."""
    game = queries.games.game_for_update(session, game_id, skip_locked=False)
    assert game is not None
    words = argument.replace(",", " ").split()
    ruleset = queries.games.ruleset_of(game)
    try:
        if words and words[0].lower() == "cancel":
            done = cancel(session, services, game, power, by=by, now=now, by_gm=False)
            return f"Done: {done.text.removesuffix(' (the holder is not told)')}; the GM is told.", "proxy-cancelled"
        if not words:
            return f"Write: {PROXY_USAGE}.", "proxy-refused"
        read = read_proxy_words(words[1:])
        done = give(session, services, game, power, words[0], by=by, now=now, for_turn=read.for_turn, by_gm=False,
                    units=read.units, turns=read.turns)
    except GameError as error:
        return f"Not done: {error}.", "proxy-refused"
    if request_status(ruleset, by_gm=False) == "requested":
        return f"Your request is passed to the GM, who decides: {policy_words(ruleset)}.", "proxy-requested"
    return f"Done: {done.text}. The GM and the holder are told ({policy_words(ruleset)}).", "proxy-given"
