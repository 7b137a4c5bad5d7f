"""`set zone Europe/Berlin`: every deadline in this player's mail (answers, confirmations,
reminders, the start mail) is written in their zone first, with the game's zone and UTC beside
it; the calendar invite is unchanged (it carries UTC). `set zone game` goes back to the game's."""

from __future__ import annotations

from gmserver.commands.player_command import PlayerCall, PlayerCommand, PlayerUsageError, Reply


def run(call: PlayerCall) -> Reply:
    from gmserver.reports.players import build_setting_changed  # noqa: PLC0415  (imported when it runs)
    from gmserver.reports.words import format_time  # noqa: PLC0415
    from gmserver.rules.player_settings import read_zone  # noqa: PLC0415

    try:
        zone = read_zone(call.argument)
    except ValueError as problem:
        raise PlayerUsageError(str(problem)) from None
    call.player.zone = zone
    shown = (str(format_time(call.game.deadline, call.game.timezone, zone)) if call.game.deadline is not None
             else None)
    said = (f"Deadlines in your mail for {call.game.name} are now written in {zone}, with the game's zone and UTC "
            "beside them." if zone else
            f"Deadlines in your mail for {call.game.name} are written in the game's zone ({call.game.timezone}) again.")
    return Reply("zone-set", build_setting_changed(said=said, deadline=shown))


COMMAND = PlayerCommand(
    "zone", ("set zone",), "write every deadline in your mail in your own time zone ('set zone game' undoes it)",
    "set zone Europe/Berlin", run, usage_text="set zone Continent/City (or: set zone game)")
