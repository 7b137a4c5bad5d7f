"""`absence 2026-12-20 to 2026-12-28 (reason)`: the player registers the days they will be away;
`absence cancel` withdraws them. What an absence does is the profile's `absence_policy`
(rules/absence.py: the deadline moved to its end, the units held without a missed turn, or the
GM decides); the GM is told; the roster and `game show` list it
(services/features/absences.py)."""

from __future__ import annotations

from gmserver.commands.player_command import PlayerCall, PlayerCommand, PlayerUsageError, Reply
from gmserver.rules.ruleset import Ruleset


def permits(ruleset: Ruleset) -> str | None:
    if ruleset.absence_policy == "none":
        cited = ruleset.cites("absence_policy")
        return "absences are not registered in this game" + (f" ({cited})." if cited else ".")
    return None


def run(call: PlayerCall) -> Reply:
    from gmserver.rules.absence_dates import Cancel, read_absence  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.features import absences  # noqa: PLC0415

    game, player = call.game, call.player
    try:
        asked = read_absence(call.argument, absences.today_of(game, player, call.now))
        if isinstance(asked, Cancel):
            cancelled = absences.cancel(call.session, call.services, game.id, call.power, now=call.now)
            done = absences.Registered(absences.on_file(call.session, game, call.power), game.deadline)
        else:
            cancelled = None
            done = absences.register(call.session, call.services, game.id, call.power, asked, by=call.sender,
                                     now=call.now)
    except ValueError as problem:
        raise PlayerUsageError(str(problem)) from None
    return Reply("absence-cancelled" if cancelled is not None else "absence-registered",
                 absences.answer_for(game, player, done, cancelled=cancelled))


COMMAND = PlayerCommand(
    "absence", ("absence", "away"), "register the days you will be away ('absence cancel' withdraws them)",
    "absence 2026-12-20 to 2026-12-28 (holiday)", run, permits=permits,
    usage_text="absence FIRST-DAY to LAST-DAY (reason), or: absence cancel")
