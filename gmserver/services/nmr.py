"""Missed orders and civil disorder inside the adjudication's transaction (rules/nmr.py decides).

`spring_1901_wait` runs before the engine (003 [14]: the game waits for replacements);
`record_turn` after it: each player's count of missed turns, civil disorder, the player's
record and the GM's notices. `civil_disorder_of` is the set of powers in civil disorder that
the turn's defaults and reports use.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db.models import Game, Player
from gmserver.rules import nmr
from gmserver.rules.defaults import hopeless_powers
from gmserver.rules.position import Position, describe_phase
from gmserver.rules.ruleset import Ruleset
from gmserver.services.context import Services
from gmserver.services.gm_notices import notify_gm

log = logging.getLogger(__name__)


def civil_disorder_of(game: Game) -> frozenset[str]:
    """The powers of the game in civil disorder now."""
    return frozenset(p.power for p in game.players if p.civil_disorder)


def nmr_counts(game: Game) -> dict[str, int]:
    """power -> the turns its present player missed in all."""
    return {p.power: p.missed_turns for p in game.players}


def hopeless(position: Position, services: Services) -> frozenset[str]:
    """The powers whose orders for this phase are hopeless (A9, 002 ORDERS 4)."""
    return hopeless_powers(position, services.geography)


def spring_1901_wait(session: Session, services: Services, game: Game, state: Mapping[str, Any],
                     ruleset: Ruleset, ordered: Collection[str], now: datetime) -> tuple[str, ...]:
    """003 [14] (s1901_policy = suspend_until_replaced): the powers without orders at the
    Spring 1901 deadline. If any, the phase is not adjudicated: the game waits with no
    deadline, the GM is asked for replacements, and `gmserver game replace` (or a new
    deadline the GM sets) lets it go on."""
    if ruleset.s1901_policy != "suspend_until_replaced" or game.phase != "S1901M":
        return ()  # the position is not even read (adjudication time is measured: benchmarks/)
    owing = engine.position_from_state(state).powers_to_order()
    silent = nmr.spring_1901_waits_for(game.phase, ruleset, owing, ordered)
    if not silent:
        return ()
    missed_deadline = game.deadline
    game.waiting_for, game.deadline = list(silent), None
    names = ", ".join(_player_words(game, power) for power in silent)
    stamp = f"{missed_deadline:%Y%m%dT%H%M}" if missed_deadline else "none"
    notify_gm(session, services, key=f"gm:s1901:{game.id}:{stamp}", game_id=game.id, now=now,
              subject=f"gmserver: {game.name} waits for replacements: no orders in Spring 1901",
              paragraphs=[
                  f"Game {game.name}: no orders came for Spring 1901 from {names}.",
                  "Under the house rules the Spring 1901 turn is not adjudicated while a power has sent "
                  "no orders: a replacement is sought instead (003 [14]). The game now waits, with no "
                  "deadline.",
                  f"To put a new player in: gmserver game replace {game.name} POWER ADDRESS. When every "
                  "silent power has a new player, a new Spring 1901 deadline is set. Setting a deadline "
                  "yourself lets the game go on at it; gmserver adjudicate adjudicates at once as it is.",
              ])
    log.info("%s: Spring 1901 not adjudicated: no orders from %s; waiting for replacements (003 [14])",
             game.name, ", ".join(silent))
    return silent


def record_turn(session: Session, services: Services, game: Game, before: Position, ruleset: Ruleset,
                ordered: Collection[str], now: datetime) -> None:
    """After adjudicating the phase of `before`: count each player's missed turn (rules.nmr)
    and carry out what follows from it."""
    exempt = hopeless(before, services)
    owing = set(before.powers_to_order())
    for player in game.players:
        missed = nmr.missed_turn(owes=player.power in owing, ordered=player.power in ordered,
                                 phase_type=before.phase_type, hopeless=player.power in exempt, ruleset=ruleset)
        state = nmr.NmrState(player.missed_in_a_row, player.missed_turns, player.civil_disorder)
        step = nmr.after_turn(state, missed, ruleset)
        player.missed_in_a_row, player.missed_turns = step.state.in_a_row, step.state.total
        player.civil_disorder = step.state.civil_disorder
        if nmr.RECORD_CD in step.actions:
            player.cd_recorded = True
        if missed:
            log.info("%s %s: %s sent no orders (%d in a row, %d in all)%s", game.name, before.phase, player.power,
                     player.missed_in_a_row, player.missed_turns, f"; {', '.join(step.actions)}" if step.actions else "")
        for action in step.actions:
            if (paragraphs := _notice(game, player, action, before.phase)) is not None:
                notify_gm(session, services, key=f"gm:nmr:{game.id}:{before.phase}:{player.power}:{action}",
                          game_id=game.id, now=now, paragraphs=paragraphs,
                          subject=f"gmserver: {game.name}: {player.power.title()} {_SUBJECTS[action]}")


_SUBJECTS = {
    nmr.TELL_GM_CD: "is now in civil disorder",
    nmr.ASK_GM_CHOOSE: "missed orders again: your decision",
    nmr.SEEK_REPLACEMENT: "missed orders again: a replacement is sought",
}


def _notice(game: Game, player: Player, action: str, phase: str) -> list[str] | None:
    missed = (f"Game {game.name}: {_player_words(game, player.power)} sent no orders for "
              f"{describe_phase(phase)}: {player.missed_in_a_row} turns in a row.")
    replace = f"To put a new player in: gmserver game replace {game.name} {player.power} ADDRESS."
    if action == nmr.TELL_GM_CD:
        return [missed, "Under the house rules the country is now in civil disorder: its units hold and may be "
                "supported, and dislodged units are disbanded, until a new player takes it over (000 VII(6) "
                "¶2, 003 [13]).", replace]
    if action == nmr.ASK_GM_CHOOSE:
        return [missed, "The house rules leave the next step to you (001 V(2), V(3)): (i) seek a replacement "
                "and hold the game up until one is found; (ii) seek a replacement for two game years, the "
                "country in civil disorder meanwhile, then civil disorder for good; (iii) civil disorder "
                "for good. Until you decide, its units hold each turn it sends nothing.", replace]
    if action == nmr.SEEK_REPLACEMENT:
        return [missed, "Under the house rules a player who misses a couple of turns is replaced (002 ORDERS "
                "0): please look for a replacement.", replace]
    return None  # entering or leaving a one-turn civil disorder needs nobody's attention


def _player_words(game: Game, power: str) -> str:
    player = next((p for p in game.players if p.power == power), None)
    return f"{power.title()} ({player.address})" if player else power.title()
