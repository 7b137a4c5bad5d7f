"""`summary`: the whole game in one mail: each year's centre counts, eliminations, changes of
player, the centre chart (attached as a PNG when it can be drawn), votes and their results, and
the GM's recorded actions the players were told of. Changes nothing; may be asked after the end."""

from __future__ import annotations

import logging

from gmserver.commands.player_command import PlayerCall, PlayerCommand, Reply

log = logging.getLogger(__name__)


def run(call: PlayerCall) -> Reply:
    from gmserver import centrechart  # noqa: PLC0415  (imported when it runs)
    from gmserver.db.queries.gm_actions import announced_actions  # noqa: PLC0415
    from gmserver.db.queries.phases import current_record, spring_centres  # noqa: PLC0415
    from gmserver.db.queries.players import former_players  # noqa: PLC0415
    from gmserver.db.queries.votes import decided_proposals  # noqa: PLC0415
    from gmserver.engine import position_from_state  # noqa: PLC0415
    from gmserver.reports.anonymity import without_addresses  # noqa: PLC0415
    from gmserver.reports.extras import centre_history  # noqa: PLC0415
    from gmserver.reports.players import Change, Decided, build_summary  # noqa: PLC0415
    from gmserver.rules.position import describe_phase  # noqa: PLC0415
    from gmserver.services.base.roster import roster_visible  # noqa: PLC0415

    game, session = call.game, call.session
    now = position_from_state(current_record(session, game).state)
    points = [(phase, {p: len(c) for p, c in centres.items() if c}) for phase, centres in spring_centres(session, game.id)]
    if not points or points[-1][0] != now.phase:
        points.append((now.phase, {p: len(c) for p, c in now.centers.items()}))
    years, series = centre_history(points)
    shown = roster_visible(game)
    former = former_players(session, game.id)
    current = {player.power: player for player in game.players}
    changes = []
    for index, row in enumerate(former):
        later = any(other.power == row.power for other in former[index + 1:])
        player = current.get(row.power)
        came = (player.address if shown and player is not None and player.resigned_at is None and not later else None)
        changes.append(Change(row.power, describe_phase(row.left_in_phase), row.address if shown else None, came))
    votes = [Decided(describe_phase(row.tallied_phase or row.phase),
                     f"{row.kind.replace('_', ' ')}" + (f" ({row.members.title()})" if row.members else ""),
                     row.result or row.status) for row in decided_proposals(session, game.id)]
    # a GM action's record is written for the GM: in an anonymous game no player's address is read in it
    hidden = () if shown else [address for row in (*game.players, *former)
                               for address in (row.address, row.fallback_address) if address]
    actions = [f"{row.at:%Y-%m-%d}: {without_addresses(row.result, hidden)}"
               for row in announced_actions(session, game.id)]
    chart: tuple[tuple[str, bytes], ...] = ()
    if len(years) > 1:
        try:
            chart = ((f"{game.name}-centres.png", centrechart.centre_chart(years, series)),)
        except Exception:  # a missing libcairo or a drawing bug costs the chart, never the answer
            log.exception("%s: the centre chart could not be drawn; the summary goes without it", game.name)
    answer = build_summary(game_name=game.name, status=game.status, phase_name=describe_phase(game.phase),
                           years=years, series=series, changes=changes, votes=votes, actions=actions,
                           has_chart=bool(chart))
    return Reply("summary-sent", answer, chart)


COMMAND = PlayerCommand(
    "summary", ("summary",), "the whole game so far: centres each year, eliminations, changes of player, votes, "
    "what the GM did", "summary", run, read_only=True)
