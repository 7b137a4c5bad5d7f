"""`rules`: the house rules of the player's game in words, from the game's own profile snapshot:
the key points with their clauses (rules/briefing.py), the subject line, then what the server
does instead where it does not carry a rule out. Changes nothing; may be asked after the end."""

from __future__ import annotations

from gmserver.commands.player_command import PlayerCall, PlayerCommand, Reply


def run(call: PlayerCall) -> Reply:
    from gmserver.db.queries.games import ruleset_of  # noqa: PLC0415  (imported when it runs)
    from gmserver.reports.requests import build_rules  # noqa: PLC0415
    from gmserver.rules.briefing import key_points  # noqa: PLC0415
    from gmserver.rules.intake import expected_subject  # noqa: PLC0415
    from gmserver.rules.ruleset_view import not_in_force, option_rows  # noqa: PLC0415

    ruleset = ruleset_of(call.game)
    # in the catalogue's words, which are the player's too; never the catalogue's section numbers
    departures = [f"{row['instead'][:1].upper()}{row['instead'][1:]}."
                  for row in not_in_force(option_rows(ruleset, {}))]
    answer = build_rules(game_name=call.game.name, title=ruleset.title, points=key_points(ruleset),
                         subject=expected_subject(call.view, call.power), not_done=departures)
    return Reply("rules-sent", answer)


COMMAND = PlayerCommand(
    "rules", ("rules",), "the house rules of this game in words, each with its clause", "rules", run,
    read_only=True, in_subject=True)
