"""`whatif` followed by order lines: the current phase adjudicated now with the orders the player
imagines, their own and any other power's (each line is read for the power whose unit it orders:
rules/reading/imagined.py), every other unit taking the house rules' default (holding in a
movement turn). The answer gives each order's result in the report's words, the units that would
be dislodged, the centres that would change hands and the map, drawn as the report draws it.

Nothing is stored (no set filed, the phase unchanged: services/turn/preview.imagine_in runs the
path `game preview` runs, under a savepoint), nobody else is told, and no power's real orders are
read: a unit without an imagined order holds whatever its player sent. At most
`reply_limits.WHATIF_PER_HOUR` answers an hour per power; past that the answer says when to try again.
"""

from __future__ import annotations

import dataclasses
import logging
from datetime import UTC

from gmserver.commands.player_command import PlayerCall, PlayerCommand, PlayerUsageError, Reply

log = logging.getLogger(__name__)

USAGE = "whatif, then your orders and any other power's, one a line (e.g. A Mun - Bur)"


def run(call: PlayerCall) -> Reply:
    from gmserver import mapimage  # noqa: PLC0415  (imported when it runs)
    from gmserver.db.queries.games import ruleset_of  # noqa: PLC0415
    from gmserver.db.queries.phases import current_record  # noqa: PLC0415
    from gmserver.engine import position_from_state  # noqa: PLC0415
    from gmserver.reports.players import WhatIfLine, build_whatif, build_whatif_limited  # noqa: PLC0415
    from gmserver.reports.turn import build_turn_report  # noqa: PLC0415
    from gmserver.reports.words import format_time, power_name  # noqa: PLC0415
    from gmserver.rules.position import describe_phase  # noqa: PLC0415
    from gmserver.rules.reading.imagined import read_imagined  # noqa: PLC0415
    from gmserver.services.base.reply_limits import WHATIF_OUTCOME, WHATIF_PER_HOUR, whatif_wait  # noqa: PLC0415
    from gmserver.services.turn.preview import imagine_in  # noqa: PLC0415

    game, geography = call.game, call.services.geography
    if (wait := whatif_wait(call.session, game.id, call.power, call.now)) is not None:
        again = wait if wait.tzinfo is not None else wait.replace(tzinfo=UTC)  # SQLite gives it back naive
        return Reply("whatif-limited", build_whatif_limited(
            per_hour=WHATIF_PER_HOUR, again=str(format_time(again, game.timezone, call.player.zone))))
    position = position_from_state(current_record(call.session, game).state)
    imagined = read_imagined("\n".join((call.argument, call.lines)), position=position, asker=call.power,
                             ruleset=ruleset_of(game), geography=geography)
    if not imagined.orders:
        unread = imagined.unused()
        raise PlayerUsageError(
            f'none of its lines could be read as an order ("{unread[0].reading.text}": {unread[0].reading.message})'
            if unread else "no order followed it.")
    done = imagine_in(call.session, call.services, game, call.now, imagined.orders, imagined.unsupportable)
    outcomes = (done.outcome, *done.then)
    by_power: dict[str, list[str]] = {}
    for order, line in zip((o for outcome in outcomes for o in outcome.orders), done.results, strict=True):
        by_power.setdefault(power_name(order.power), []).append(line)
    report = build_turn_report(dataclasses.replace(done.outcome, after=outcomes[-1].after), geography=geography,
                               game_name=game.name, next_deadline=None)
    dislodged = [f"{unit.name}: {unit.text}, " + ("destroyed: it has nowhere to retreat" if unit.disbanded
                                                  else f"may retreat to {', '.join(unit.options)}")
                 for unit in report.dislodged]
    centres = [f"{count.name}" + (f" would gain {', '.join(count.gained)}" if count.gained else "")
               + (" and" if count.gained and count.lost else "")
               + (f" would lose {', '.join(count.lost)}" if count.lost else "")
               for count in report.centres if count.gained or count.lost]
    unused = [WhatIfLine(line.reading.text.strip(), line.reading.message or "not used")
              for line in imagined.unused()]
    image: tuple[tuple[str, bytes], ...] = ()
    try:
        image = ((f"{game.name}-whatif-{done.phase}.png",
                  mapimage.compact_png(mapimage.render_map(done.outcome, "what if (nothing adjudicated)"))),)
    except Exception:  # a missing libcairo or a drawing bug costs the map, never the answer
        log.exception("%s: the what-if map could not be drawn; the answer goes without it", game.name)
    answer = build_whatif(game_name=game.name, phase_name=describe_phase(done.phase), results=sorted(by_power.items()),
                          imagined=[power_name(power) for power in imagined.orders], dislodged=dislodged,
                          centres=centres, unused=unused, has_map=bool(image), per_hour=WHATIF_PER_HOUR)
    return Reply(WHATIF_OUTCOME, answer, image)


COMMAND = PlayerCommand(
    "whatif", ("whatif", "what if"), "the results and the map as if this turn were adjudicated now with the orders "
    "you write after it, any power's, one a line; nothing is stored or told", "whatif A Mun - Bur", run, usage_text=USAGE,
    reads_lines=True)
