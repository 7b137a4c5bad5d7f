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
from gmserver.db import queries
from gmserver.db.models import Game, Player
from gmserver.db.session import each_in_its_own_transaction, transaction
from gmserver.rules import nmr
from gmserver.rules.briefing import cited_clause
from gmserver.rules.defaults import hopeless_powers
from gmserver.rules.position import Position, describe_phase
from gmserver.rules.ruleset import Ruleset
from gmserver.services.base import mails, outgoing
from gmserver.services.base.context import Services
from gmserver.services.base.gm_notices import notify_gm
from gmserver.services.base.outbox import queue
from gmserver.services.base.reply_tokens import token_of
from gmserver.services.features import absences, standby
from gmserver.services.game.ordersets import counted_sets

log = logging.getLogger(__name__)


def civil_disorder_of(game: Game) -> frozenset[str]:
    """The powers of the game in civil disorder now."""
    return frozenset(p.power for p in game.players if p.civil_disorder)


def nmr_counts(game: Game) -> dict[str, int]:
    """power -> the turns its present player missed in all."""
    return {p.power: p.missed_turns for p in game.players}


def hopeless(position: Position, services: Services) -> frozenset[str]:
    """The powers whose orders for this phase are hopeless (002 ORDERS 4)."""
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
                  "yourself (gmserver game deadline) gives the silent powers until then: if they are "
                  "still silent at it, the game waits again. gmserver adjudicate --force adjudicates "
                  "at once as it is (their units hold).",
              ])
    _tell_players_the_game_waits(session, services, game, silent, stamp, now)
    log.info("%s: Spring 1901 not adjudicated: no orders from %s; waiting for replacements (003 [14])",
             game.name, ", ".join(silent))
    return silent


def _tell_players_the_game_waits(session: Session, services: Services, game: Game, silent: Collection[str],
                                 stamp: str, now: datetime) -> None:
    """003 [14]: every player learns why their deadline passed without results, and that the new
    deadline comes when the silent powers have new players (the replacement's notice gives it)."""
    names = [power.title() for power in silent]
    named = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    body = services.composer.render("player/gm_action.txt.j2", {
        "game_name": game.name, "headline": "Spring 1901 waits for new players", "deadline": None, "paused": False,
        "phase_name": describe_phase(game.phase),
        "paragraphs": [f"The deadline of Spring 1901 has passed, but no orders came from {named}. Under the house "
                       "rules Spring 1901 is not adjudicated while a power has sent no orders: the GM looks for "
                       "a new player instead (003 [14]).",
                       "The game waits, with no deadline. You will be told the new deadline when the new "
                       "players join; the orders you sent stay on file."]})
    for player in game.players:
        message = outgoing.message(services, to=player.address,
                                   subject=f"{game.name}: Spring 1901 waits for new players", body=body, now=now,
                                   secret=token_of(player, game.phase))
        queue(session, message, kind="game-notice", now=now, game_id=game.id,  # not a reply: no reply limit
              dedupe_key=f"s1901-wait:{game.id}:{stamp}:{player.power}:{player.address}")


_MISSED_FIELDS = ("missed_in_a_row", "missed_turns", "civil_disorder", "cd_recorded", "missed_phase", "cd_search_until")


def missed_record(game: Game) -> dict[str, dict[str, Any]]:
    """Each player's missed turns and what followed from them, as they stand before a phase is
    adjudicated: kept with the phase (PhaseRecord.missed_before) for `restore_missed`."""
    return {player.power: {"address": player.address,
                           "contact_due_since": player.contact_due_since.isoformat() if player.contact_due_since else None,
                           **{name: getattr(player, name) for name in _MISSED_FIELDS}}
            for player in game.players}


def restore_missed(game: Game, before: Mapping[str, Mapping[str, Any]]) -> None:
    """000 VII(6), 000 VIII(1): a rolled-back adjudication's missed turns are undone with it (its
    re-adjudication counts them again from the orders then on file): each player is put back as
    `missed_record` found them. A power whose player was replaced since keeps the new player's
    record (a fresh one)."""
    for player in game.players:
        kept = before.get(player.power)
        if kept is None or kept.get("address") != player.address:
            continue
        for name in _MISSED_FIELDS:
            setattr(player, name, kept.get(name))
        player.contact_due_since = (datetime.fromisoformat(kept["contact_due_since"])
                                    if kept.get("contact_due_since") else None)


def record_turn(session: Session, services: Services, game: Game, before: Position, ruleset: Ruleset,
                ordered: Collection[str], now: datetime) -> None:
    """After adjudicating the phase of `before`: count each player's missed turn (rules.nmr)
    and carry out what follows from it."""
    exempt = hopeless(before, services)
    owing = set(before.powers_to_order())
    # absence_policy = hold_without_nmr: a player away at the deadline holds and misses no turn
    away = absences.excused(session, game, ruleset, game.deadline or now)
    for player in game.players:
        missed = nmr.missed_turn(owes=player.power in owing, ordered=player.power in ordered,
                                 phase_type=before.phase_type, hopeless=player.power in exempt, ruleset=ruleset)
        if missed and player.power in away:
            missed = None  # registered as away: the turn does not count either way
        state = nmr.NmrState(player.missed_in_a_row, player.missed_turns, player.civil_disorder)
        step = nmr.after_turn(state, missed, ruleset)
        if step.state != state:  # a count set to what it was would still make the deadline flush seven rows
            player.missed_in_a_row, player.missed_turns = step.state.in_a_row, step.state.total
            player.civil_disorder = step.state.civil_disorder
        if nmr.RECORD_CD in step.actions:
            player.cd_recorded = True
        if missed and ruleset.nmr_contact_window_hours is not None:
            player.contact_due_since, player.missed_phase = now, before.phase  # 001 V(1): now they must write
        if missed:
            log.info("%s %s: %s sent no orders (%d in a row, %d in all)%s", game.name, before.phase, player.power,
                     player.missed_in_a_row, player.missed_turns, f"; {', '.join(step.actions)}" if step.actions else "")
        if player.cd_search_until is not None and nmr.search_over(player.cd_search_until, before.phase):
            _search_ended(session, services, game, player, before.phase, now)
        if nmr.ENTER_CD in step.actions:  # a player standing by may take the power over
            standby.offer_power(session, services, game, player.power, now)
        for action in step.actions:
            if (paragraphs := _notice(game, player, action, before.phase, ruleset)) is not None:
                notify_gm(session, services, key=f"gm:nmr:{game.id}:{before.phase}:{player.power}:{action}",
                          game_id=game.id, now=now, paragraphs=paragraphs,
                          subject=f"gmserver: {game.name}: {player.power.title()} {_SUBJECTS[action]}")


def _search_ended(session: Session, services: Services, game: Game, player: Player, phase: str,
                  now: datetime) -> None:
    """001 V(3)(ii): no replacement was found in the time the house rules give: the civil
    disorder the GM chose is now permanent (it stays until the GM replaces the player)."""
    log.info("%s: no replacement found for %s by %s: civil disorder is permanent (001 V(3)(ii))", game.name,
             player.power, phase)
    player.cd_search_until = None
    notify_gm(session, services, key=f"gm:search:{game.id}:{player.power}:{phase}", game_id=game.id, now=now,
              subject=f"gmserver: {game.name}: {player.power.title()} stays in civil disorder",
              paragraphs=[f"Game {game.name}: the search for a new player for {player.power.title()} has lasted "
                          "the time the house rules give and found nobody: its civil disorder is now permanent "
                          "(001 V(3)(ii)).",
                          f"A replacement can still be put in: gmserver game replace {game.name} {player.power} "
                          "ADDRESS."])


def _courses(game: Game, power: str) -> str:
    return ("The house rules leave the next step to you (001 V(2), V(3)): (i) seek a replacement and hold "
            f"the game up until one is found (gmserver game pause {game.name}); (ii) seek a replacement for "
            "two game years, the country in civil disorder meanwhile, then civil disorder for good "
            f"(gmserver game cd {game.name} {power} search); (iii) civil disorder for good (gmserver game cd "
            f"{game.name} {power} on).")

_SUBJECTS = {
    nmr.TELL_GM_CD: "is now in civil disorder",
    nmr.ASK_GM_CHOOSE: "missed orders again: your decision",
    nmr.SEEK_REPLACEMENT: "missed orders again: a replacement is sought",
}


def _notice(game: Game, player: Player, action: str, phase: str, ruleset: Ruleset) -> list[str] | None:
    missed = (f"Game {game.name}: {_player_words(game, player.power)} sent no orders for "
              f"{describe_phase(phase)}: {player.missed_in_a_row} turns in a row.")
    replace = f"To put a new player in: gmserver game replace {game.name} {player.power} ADDRESS."
    if action == nmr.TELL_GM_CD:
        return [missed, "Under the house rules the country is now in civil disorder: its units hold and may be "
                "supported, and dislodged units are disbanded, until a new player takes it over"
                f"{cited_clause(ruleset, 'nmr_limit_to_cd')}.", replace]  # the game's own clause, none if silent
    if action == nmr.ASK_GM_CHOOSE:
        return [missed, _courses(game, player.power) + " Until you decide, its units hold each turn it sends "
                "nothing.", replace]
    if action == nmr.SEEK_REPLACEMENT:
        return [missed, "Under the house rules a player who misses a couple of turns is replaced (002 ORDERS "
                "0): please look for a replacement.", replace]
    return None  # entering or leaving a one-turn civil disorder needs nobody's attention


def _player_words(game: Game, power: str) -> str:
    player = next((p for p in game.players if p.power == power), None)
    return f"{power.title()} ({player.address})" if player else power.title()


def check_contact_windows(services: Services, now: datetime, game_id: int | None = None) -> int:
    """001 V(1) (nmr_contact_window_hours): each player who missed a turn and has not written
    since, once the window has closed, is deemed to have abandoned the position: the GM is told
    and offered 001 V(3)'s courses; in the first game year (first_year_abandonment) the game is
    suspended until a replacement joins. The number of notices queued. The daemon's sweep looks
    at every game; the GM's `gmserver adjudicate` at its own game first (`game_id`:
    services.turn.turns.adjudicate), so that a game run from the command line alone keeps the rule."""
    with transaction(services.sessions) as session:
        waiting = [(p.game_id, p.id) for p in queries.players.awaiting_contact(session, game_id)]
    return each_in_its_own_transaction(
        services.sessions, waiting, lambda session, pair: _check_contact(session, services, *pair, now),
        lambda pair: f"game {pair[0]}: checking whether player {pair[1]} wrote after missing orders failed")


def _check_contact(session: Session, services: Services, game_id: int, player_id: int, now: datetime) -> int:
    game = queries.games.game_for_update(session, game_id, skip_locked=True)  # not while it is adjudicated
    player = session.get(Player, player_id)
    if game is None or player is None or player.contact_due_since is None:
        return 0
    ruleset = queries.games.ruleset_of(game)
    since, phase = player.contact_due_since, player.missed_phase or game.phase
    window = ruleset.nmr_contact_window_hours
    heard = queries.inbound.heard_from_since(session, game.id, player.power, since)
    verdict = nmr.abandoned(since, heard, ruleset, now)
    if verdict is None:
        return 0  # the window is still open
    player.contact_due_since = None
    if not verdict:
        return 0
    suspend = nmr.suspends_game(ruleset, phase) and game.status == "active"
    if suspend:
        game.waiting_for = sorted({*(game.waiting_for or ()), player.power})
        game.deadline = None
    log.info("%s: %s did not write within %d hours of missing %s: abandoned (001 V(1))%s", game.name,
             player.power, window, phase, "; the game is suspended (001 V(3))" if suspend else "")
    paragraphs = [f"Game {game.name}: {_player_words(game, player.power)} sent no orders for {describe_phase(phase)} "
                  f"and has not written within {window} hours of the results: under the house rules the position "
                  "is abandoned (001 V(1))."]
    if suspend:
        paragraphs.append("In the first game year a replacement is always sought and the game is suspended "
                          "meanwhile (001 V(3)): it now waits, with no deadline, until a new player joins.")
    else:
        paragraphs.append(_courses(game, player.power))
    paragraphs.append(f"To put a new player in: gmserver game replace {game.name} {player.power} ADDRESS.")
    return int(notify_gm(session, services, key=f"gm:abandoned:{game.id}:{player.power}:{since:%Y%m%dT%H%M%S}",
                         game_id=game.id, now=now, paragraphs=paragraphs,
                         subject=f"gmserver: {game.name}: {player.power.title()} has abandoned the position"))


def check_preliminary_orders(services: Services, now: datetime) -> int:
    """000 II(1) s.1 (s1901_policy = preliminary_required): at the Spring 1901 checkpoint
    (rules.nmr.preliminary_checkpoint) each power without a set is reminded at once and the GM
    is sent the list, as candidates for replacement. Mails queued."""
    with transaction(services.sessions) as session:
        games = queries.games.checks_to_look_at(session, now)
    return each_in_its_own_transaction(services.sessions, games,
                                       lambda session, game_id: _preliminary(session, services, game_id, now),
                                       lambda game_id: f"game {game_id}: the Spring 1901 checkpoint failed")


def _preliminary(session: Session, services: Services, game_id: int, now: datetime) -> int:
    # locked: a deadline or phase changed meanwhile would find its new time overwritten by ours
    game = queries.games.game_for_no_key_update(session, game_id)
    if game is None or game.status != "active" or game.paused:
        return 0
    ruleset = queries.games.ruleset_of(game)
    record = queries.phases.current_record(session, game)
    checkpoint = nmr.preliminary_checkpoint(game.phase, ruleset, record.opened_at, game.deadline)
    # once past, the checkpoint is not looked at again in this phase unless its times change
    game.next_check_at = checkpoint if checkpoint is not None and now < checkpoint else None
    if checkpoint is None or now < checkpoint or game.deadline is None or now >= game.deadline:
        return 0
    owing = engine.position_from_state(record.state).powers_to_order()
    ordered = set(counted_sets(session, game.id, game.phase, ruleset))  # a proxy's as proxy_precedence says
    silent = [p for p in game.players if p.power in owing and p.power not in ordered]
    if not silent:
        return 0
    queued = 0
    for player in silent:
        queued += queue(session, mails.reminder(services, game, player, record.state, now), kind="reminder", now=now,
                        game_id=game.id, dedupe_key=f"remind:{game.id}:{game.phase}:preliminary:{player.power}")
    names = ", ".join(_player_words(game, p.power) for p in silent)
    queued += notify_gm(session, services, key=f"gm:preliminary:{game.id}", game_id=game.id, now=now,
                        subject=f"gmserver: {game.name}: no orders yet for Spring 1901 from {len(silent)} "
                                f"power{'' if len(silent) == 1 else 's'}",
                        paragraphs=[
                            f"Game {game.name}: halfway to the Spring 1901 deadline there are no orders from "
                            f"{names}.",
                            "Under the house rules orders are required in Spring 1901 (000 II(1)): they have "
                            "been reminded now. If they stay silent they are candidates for replacement: "
                            f"gmserver game replace {game.name} POWER ADDRESS.",
                        ])
    return queued
