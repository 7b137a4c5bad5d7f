"""What a player is told when a game starts: the house
rules' key points in words, each with its clause, and a worked example of an order set.

Pure. Players never see option keys: each point says the rule in words, then the clause of
the game's profile; a profile silent on a point says nothing
of a clause ("[P]": gmserver's proposal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gmserver.rules.delays import how_to_ask
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import Position
from gmserver.rules.press import NO_EDITS_WORDS, clause_of
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.vote_changes import turn_length_invitation


def cited_clause(ruleset: Ruleset, option: str) -> str:
    """" (000 VII(6) ¶2)": the clause of the game's own profile for `option` (its `clause.KEY`
    line), "" where it is silent or the GM changed the value."""
    clause = ruleset.cites(option)
    return f" ({clause})" if clause else ""


_cite = cited_clause  # the short name the key points below use


def subject_rule(ruleset: Ruleset) -> str:
    """Where orders name their game, power and turn (000 II(2) b, 003 [10]), in words with the
    clause, for text that shows the subject line just before it (the start mail, a refusal)."""
    if ruleset.subject_location == "subject_only":
        return ("Orders are read only from a message whose subject line names the game, your power and "
                f"the turn, as shown above{_cite(ruleset, 'subject_location')}.")
    return ("Write the subject line as shown above; the game, power and turn may also be given in the "
            f"first lines of the message{_cite(ruleset, 'subject_location')}.")


def key_points(ruleset: Ruleset) -> list[str]:
    """The house rules a new player must know first, in words, each followed by its clause."""
    points = [subject_rule(ruleset)]
    if ruleset.orders_accepted_until == "adjudication_start":
        points.append("Orders count if they reach the GM before the adjudication starts, which is at the "
                      f"deadline{_cite(ruleset, 'orders_accepted_until')}.")
    else:
        points.append("Orders that reach the GM after the deadline are not used"
                      f"{_cite(ruleset, 'orders_accepted_until')}.")
    movement = ruleset.min_hours_movement
    if isinstance(movement, int) and movement > 0:
        points.append(f"A movement turn lasts at least {movement} hours{_cite(ruleset, 'min_hours_movement')}.")
    if ruleset.turn_length_vote:  # 003 [23]: the start mail asks for the vote
        points.append(turn_length_invitation(ruleset.turn_length_vote) + _cite(ruleset, "turn_length_vote") + ".")
    if (seasons := season_rule(ruleset)) is not None:
        points.append(seasons)
    points.append("A unit without an order holds (and may be supported)"
                  f"{_cite(ruleset, 'nmr_movement')}.")
    points.append(sets_rule(ruleset))
    if (disorder := civil_disorder_rule(ruleset)) is not None:
        points.append(disorder)
    points.append(how_to_ask(ruleset))  # delay_policy (000 VII(5), 001 IV(5), 003 [10])
    if ruleset.press_editing != "none":  # 002 PRESS 3: the marker that declines the GM's edits
        clause = clause_of(ruleset, "press_editing")
        points.append(f"The GM may correct the spelling and punctuation of your press; a line \"{NO_EDITS_WORDS}\" "
                      "in a piece of press asks the GM to publish it exactly as written" + (f" ({clause})." if clause
                                                                                           else "."))
    if ruleset.sender_policy == "registered_with_fallback":
        points.append("Orders are taken from your address and your fallback address only; the fallback address "
                      f"is never published{_cite(ruleset, 'sender_policy')}.")
    return points


def sets_rule(ruleset: Ruleset) -> str:
    """What a later order set does to the orders on file, in the words of the game's
    set_combination (000 III(4), 001 II(7), 002 ORDERS 2, 003 [10]) and set_ordering, with the
    clause: the start mail and the RULES answer say it, as the reader files it (rules.reading.sets)."""
    later = ("Sets count in the order of their version numbers, then of their arrival"
             f"{_cite(ruleset, 'set_ordering')}. " if ruleset.set_ordering == "version_then_receipt" else "")
    clause = _cite(ruleset, "set_combination")
    if ruleset.set_combination == "merge_per_unit":
        return (f"{later}A later order set changes only the units it gives orders to: sets are merged unit by "
                f"unit{clause}, the latest order for each unit being the one used, and the orders on file for "
                "your other units stand.")
    if ruleset.set_combination == "replace_unless_marked_change":
        return (f"{later}A later order set replaces the orders on file, unless it says it is a change (a line "
                "such as \"Changes:\"): then it changes only the units it gives orders to"
                f"{clause}.")
    return f"{later}A later order set replaces the orders on file: only your latest set is used{clause}."


def season_rule(ruleset: Ruleset) -> str | None:
    """`season_structure = uk_two_season` (003 [5]) in words: no Winter turn and no retreat turn
    of its own, so retreats and builds travel with the moves; None for the standard year. From the
    options' values (`conditional_adjustment_orders` decides whether a build may carry a condition)."""
    if ruleset.season_structure != "uk_two_season":
        return None
    examples = "'A Mun R Bur' for a unit that may be dislodged, 'Build A Par'"
    if ruleset.conditional_adjustment_orders != "none":
        examples += " or 'If I gain a centre: build A Par'"
    return ("A game year has two turns, Spring and Autumn, and no Winter turn: send your retreats and your "
            f"builds or removals with your moves, in the same message, for whatever may happen ({examples}). "
            "They are used as soon as the moves are adjudicated, and the same report gives their results"
            f"{_cite(ruleset, 'season_structure')}.")


def civil_disorder_rule(ruleset: Ruleset) -> str | None:
    """What missed turns in a row lead to (`nmr_limit_to_cd`, else 2.8
    `nmr_replacement_after`), in words with its clause; None when the profile sets neither. Also
    told to a player asking for the status."""
    limit = ruleset.nmr_limit_to_cd
    if isinstance(limit, int):
        return (f"A power that misses {limit} turns in a row is put in civil disorder: its units hold"
                f"{_cite(ruleset, 'nmr_limit_to_cd')}.")
    if isinstance(limit, str) and limit.startswith("gm_after_"):
        return (f"After {limit.removeprefix('gm_after_')} missed turns in a row the GM decides what becomes "
                f"of the power{_cite(ruleset, 'nmr_limit_to_cd')}.")
    replaced = ruleset.nmr_replacement_after
    if isinstance(replaced, int):  # 002 ORDERS 0: "I will attempt to replace you"
        return (f"A player who misses {replaced} turns in a row is replaced: the GM looks for a new player to "
                f"take over the power{_cite(ruleset, 'nmr_replacement_after')}.")
    return None


def example_orders(position: Position, power: str, legal: Mapping[str, Sequence[str]]) -> list[str]:
    """A worked example for `power` in `position`: in a movement turn one unit moves (the first
    legal move of its first unit) and the others hold; in other turns the first legal order of
    each unit or build ([] outside a movement turn: a game starts with one). `legal` is the
    engine's legal orders per location."""
    units = position.units.get(power, ()) if position.phase_type == "M" else ()
    # not into a province of one of the power's own units: they hold in the example, so the move
    # would bounce (A BUR - BEL beside F BEL H) and teach the player nothing
    own = {Unit.parse(unit).province for unit in units}
    lines = []
    for index, unit in enumerate(units):
        value = Unit.parse(unit)
        options = [o for o in (Order.parse_or_none(text) for text in legal.get(value.location, ()))
                   if o is not None and o.action == "move" and not o.via_convoy]
        move = next((o for o in options if o.target_province not in own), options[0] if options else None)
        lines.append(str(move) if index == 0 and move else str(Order("hold", value)))
    return lines
