"""`list`: the game's powers, who plays each (where the game lets players see it:
services/base/roster.roster_visible), each power's centres and units, whether a set is on file
this turn (never its contents), missed turns, civil disorder, and the next deadline in the
reader's zone. Changes nothing; may be asked after the end."""

from __future__ import annotations

from gmserver.commands.player_command import PlayerCall, PlayerCommand, Reply


def run(call: PlayerCall) -> Reply:
    from gmserver.db.queries.absences import registered  # noqa: PLC0415  (imported when it runs)
    from gmserver.db.queries.games import ruleset_of  # noqa: PLC0415
    from gmserver.db.queries.phases import current_record  # noqa: PLC0415
    from gmserver.engine import position_from_state  # noqa: PLC0415
    from gmserver.reports.players import RosterRow, absence_days, build_roster  # noqa: PLC0415
    from gmserver.reports.words import format_time, place_with_code, unit_with_code  # noqa: PLC0415
    from gmserver.rules.position import describe_phase, unit_province  # noqa: PLC0415
    from gmserver.services.base.roster import roster_visible  # noqa: PLC0415
    from gmserver.services.game.ordersets import counted_sets  # noqa: PLC0415

    game, geography = call.game, call.services.geography
    position = position_from_state(current_record(call.session, game).state)
    active = game.status == "active"
    owing = set(position.powers_to_order()) if active else set()
    ordered = set(counted_sets(call.session, game.id, game.phase, ruleset_of(game))) if active else set()
    players = {player.power: player for player in game.players}
    away: dict[str, list[str]] = {}
    for absence in registered(call.session, game.id):
        away.setdefault(absence.power, []).append(absence_days(absence.first_day, absence.last_day))
    rows = []
    for power in sorted(set(players) | set(position.units) | set(position.centers)):
        player = players.get(power)
        resigned = player is not None and player.resigned_at is not None
        rows.append(RosterRow(
            power=power, player=player.address if player is not None and not resigned else None,
            centres=tuple(place_with_code(c, geography) for c in sorted(position.centers.get(power, ()))),
            units=tuple(unit_with_code(u, geography) for u in sorted(position.units.get(power, ()), key=unit_province)),
            must_order=power in owing, ordered=power in ordered,
            missed_turns=player.missed_turns if player is not None else 0,
            civil_disorder=player is not None and player.civil_disorder, resigned=resigned,
            absences=tuple(away.get(power, ())) if not resigned else ()))
    deadline = (str(format_time(game.deadline, game.timezone, call.player.zone))
                if game.deadline is not None and active else None)
    answer = build_roster(game_name=game.name, phase_name=f"{describe_phase(game.phase)} ({game.phase})",
                          deadline=deadline, paused=game.paused, rows=rows, players_shown=roster_visible(game),
                          asker=call.power)
    return Reply("list-sent", answer)


COMMAND = PlayerCommand(
    "list", ("list", "roster"), "the powers: who plays each, centres, units, who has sent orders, missed turns",
    "list", run, read_only=True)
