"""What `gmserver game show` and `game list` print, as JSON-ready values, read with the statements
of gmserver/db/shown_sql.py through a gmserver.db.plain reader: the command's own driver
connection (no SQLAlchemy loaded: the command costs a fraction of the time), or a session's
connection (gmserver/db/session.plain_reader) for the services that show a game they hold.

Nothing here loads SQLAlchemy, the models, the mail composer or the reports package: keep it so
(tests/integration/test_plain_reads.py runs `game show` and lists what it loaded).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from gmserver import engine
from gmserver.db.plain import Reader
from gmserver.db.shown_sql import STATEMENTS
from gmserver.rules.authenticity import reply_address, reply_token
from gmserver.rules.deadlines import TurnLengths
from gmserver.rules.pace import lengths_over_target
from gmserver.rules.proxies import ProxyState
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.ruleset_view import not_in_force_keys
from gmserver.rules.set_feedback import InvalidRecord
from gmserver.services.game.on_file import by_power, invalid_records_of, on_file_of, proxy_states_of, sets_counted


class GameError(Exception):
    """A request about games that cannot be carried out; the message says why."""


def no_such_game(name: str, names: list[str]) -> GameError:
    return GameError(f"no game called {name!r} (games: {', '.join(names) or 'none yet'})")


def lengths_of(game: Any) -> TurnLengths:
    """A game's turn lengths, from its row (a model object or a plain row)."""
    return TurnLengths(timedelta(seconds=game.movement_seconds), timedelta(seconds=game.retreat_seconds),
                       timedelta(seconds=game.adjustment_seconds))


def pace_warnings(game: Any, ruleset: Ruleset) -> list[str]:
    """target_days_per_game_turn (001 IV(4)): the game's turn lengths against the guide."""
    return lengths_over_target(ruleset, lengths_of(game))


def show_game(reader: Reader, name: str, gm_address: str | None = None) -> dict[str, Any]:
    """The game called `name` as JSON: position in the DATC notation, players, deadline, orders on
    file; with `gm_address`, each player's password and this turn's reply address (gm+TOKEN@domain):
    the GM tells them to the player only; they prove the sender in a "verified" game."""
    game = reader.first(STATEMENTS["game"], name=name)
    if game is None:
        raise no_such_game(name, [row.name for row in reader.rows(STATEMENTS["game_names"])])
    record = reader.first(STATEMENTS["record"], game_id=game.id, phase=game.phase)
    assert record is not None, f"{game.name} has no record of its phase {game.phase}"
    state = engine.position_from_state(record.state)
    position = state.to_json()
    ruleset = Ruleset.from_snapshot(game.ruleset)
    proxies = proxy_states_of(reader.rows(STATEMENTS["proxies"], game_id=game.id), game.phase)
    stored = by_power(reader.rows(STATEMENTS["phase_sets"], game_id=game.id, phase=game.phase))
    on_file = on_file_of(sets_counted(stored, proxies, ruleset), proxies, ruleset)
    owing = state.powers_to_order() if game.status == "active" else ()
    players = reader.rows(STATEMENTS["players"], game_id=game.id)
    invalid = invalid_records_of(players, reader.rows(STATEMENTS["players_sets"], game_id=game.id))
    former = reader.rows(STATEMENTS["former_players"], game_id=game.id)
    held = reader.rows(STATEMENTS["held"], game_id=game.id)
    return {
        "name": game.name,
        "ruleset": game.ruleset_name,
        "status": game.status,
        "phase": game.phase,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "paused": game.paused,
        "timezone": game.timezone,
        "deadline_time": game.deadline_time,  # every deadline's local time of day
        "sender_check": game.sender_check,
        **{key: position[key] for key in ("units", "centers", "dislodged")},
        **({"retreats": position["retreats"]} if "retreats" in position else {}),
        **({"adjustments": position["adjustments"]} if "adjustments" in position else {}),
        "players": {p.power: _player_summary(p, game.phase, gm_address, proxies, invalid[p.power]) for p in players},
        "orders": {power: {"version": on_file.versions[power], "orders": [str(o) for o in orders]}
                   for power, orders in on_file.orders.items()},
        "turn_lengths_seconds": {"movement": game.movement_seconds, "retreat": game.retreat_seconds,
                                 "adjustment": game.adjustment_seconds},
        # powers that owe orders, have a player and have none on file
        "not_ordered": [p.power for p in players if p.power in owing and p.power not in on_file.orders],
        "reminder_seconds": game.reminder_seconds,
        # missed turns per power, its present player's (rules/nmr.py): in all, and in a row (the
        # run nmr_limit_to_cd counts); the powers in civil disorder; the powers a Spring 1901 waits for
        "nmr": {p.power: p.missed_turns for p in players},
        "nmr_in_a_row": {p.power: p.missed_in_a_row for p in players},
        "civil_disorder": sorted(p.power for p in players if p.civil_disorder),
        # the players' registered absences, the days away in their own calendar (ABSENCE by mail)
        "absences": absences_by_power(reader.rows(STATEMENTS["absences"], game_id=game.id)),
        **({"waiting_for": list(game.waiting_for)} if game.waiting_for else {}),
        # who played a power before its present player (replacements keep each record)
        **({"former_players": [_former_player(h) for h in former]} if former else {}),
        # hold_for_gm: order sets waiting for `gmserver inbox release | refuse`
        **({"held": [{"id": row.id, "power": row.power, "phase": row.held_phase} for row in held]} if held else {}),
        # 000 VIII(1): the current turn was rolled back and waits to be adjudicated again
        **({"corrected": {"revision": record.revision}} if record.revision else {}),
        # open sign-up: who stands by to take over a power (in the order they are offered one), who observes
        "standby": [row.address for row in reader.rows(STATEMENTS["signups"], name=game.name, kind="standby")],
        "observers": [row.address for row in reader.rows(STATEMENTS["signups"], name=game.name, kind="observe")],
        **({"assignment": sign_up.assignment}
           if (sign_up := reader.first(STATEMENTS["assignment"], name=game.name)) and sign_up.assignment else {}),
        "gm_copies": game.gm_copies,
        "anonymous": game.anonymous,
        # the pages without a player's or the GM's link: True, False, or None (as `[web] public` says)
        "pages_public": game.pages_public,
        **({"gm_secret": game.gm_secret} if gm_address and game.gm_secret else {}),
        "rules_not_in_force": not_in_force_keys(ruleset),  # options of its rules gmserver does not carry out
        # 001 IV(4) target_days_per_game_turn: turn lengths that make a Turn longer than the guide
        **({"pace_warnings": pace} if (pace := pace_warnings(game, ruleset)) else {}),
    }


def _player_summary(p: SimpleNamespace, phase: str, gm_address: str | None, proxies: Mapping[str, ProxyState],
                    invalid: InvalidRecord) -> dict[str, Any]:
    return {"address": p.address, "fallback": p.fallback_address,
            # this turn's reply address (its token changes every turn) and the password, which does not
            **({"reply_address": reply_address(gm_address, reply_token(p.secret, phase)),
                "password": p.secret} if gm_address and p.secret else {}),
            **({"abbreviations": p.abbreviations} if p.abbreviations else {}),
            # its proxy this turn (000 II(3), 003 [19]), its kept set (000 II(4))
            **({"proxy": {"holder": proxies[p.power].holder, "in_force": proxies[p.power].in_force}}
               if p.power in proxies else {}),
            **({"perpetual": p.perpetual["orders"]} if p.perpetual else {}),
            # 000 III(1) (a): the GM's switch, and the record the GM judges it by
            "clarifications": p.clarifications, "invalid_sets": asdict(invalid),
            # what the player set by mail: SET ZONE (None: the game's), SET CONFIRM, SET PRESS
            "zone": p.zone, "confirm": p.confirm_style, "press": p.press_delivery,
            **({"resigned": p.resigned_at.isoformat()} if p.resigned_at is not None else {})}


def absences_by_power(rows: list[SimpleNamespace]) -> dict[str, list[dict[str, str]]]:
    """Per power, its absences as {"from", "to"} ISO dates, by first day."""
    shown: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        shown.setdefault(row.power, []).append({"from": row.first_day.isoformat(), "to": row.last_day.isoformat()})
    return shown


def _former_player(h: SimpleNamespace) -> dict[str, Any]:
    return {"power": h.power, "address": h.address,
            "joined": h.joined_at.isoformat() if h.joined_at else None, "left": h.left_at.isoformat(),
            "left_in_phase": h.left_in_phase, "missed_turns": h.missed_turns,
            "civil_disorder_recorded": h.cd_recorded}


def list_games(reader: Reader, *, active: bool = False, open_turn: bool = False,
               limit: int | None = None) -> tuple[list[dict[str, Any]], int]:
    """The games `game list` shows, in order of name, one statement whatever the number of games
    (no snapshot read): `active` ones only (not finished), or `open_turn`: active, not paused and
    with a deadline (the players can order now); at most `limit` of them. With how many match in
    all (more than shown when `limit` cut the list)."""
    which = "open" if open_turn else "active" if active else "all"
    if limit is None:
        rows = reader.rows(STATEMENTS[f"list_{which}"])
    else:
        rows = reader.rows(STATEMENTS[f"list_{which}_limited"], limit=limit)
    total = len(rows) if limit is None or len(rows) < limit else reader.rows(STATEMENTS[f"count_{which}"])[0].games
    return [{"name": g.name, "ruleset": g.ruleset_name, "status": g.status, "phase": g.phase,
             "deadline": g.deadline.isoformat() if g.deadline else None, "timezone": g.timezone,
             "paused": g.paused, "players": g.players}
            for g in rows], total
