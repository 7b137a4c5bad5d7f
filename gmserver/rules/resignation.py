"""What becomes of a power whose player resigns (RESIGN by mail): the house rules on an
abandoned position decide, as for a player who stops sending orders; no seed has a rule of its
own for a player who says they leave.

Pure: the caller passes the ruleset and the phase. The power goes to civil disorder at once (its
units hold; defaults decide its retreats and removals) and then, as `cd_mode` says:
- permanent (000 VII(6), 003 [13]): it stays in civil disorder unless the GM replaces the player;
- gm_chooses (001 V(3)): the GM chooses between seeking a replacement (for `cd_search_years`
  where set, 001 V(3)(ii)) and permanent civil disorder; in the first game year under
  `first_year_abandonment = suspend_and_replace` a replacement is always sought and the game
  suspended meanwhile (001 V(3) ¶1), which the GM is asked to do;
- per_turn_then_replace: the GM is asked to seek a replacement.
"""

from __future__ import annotations

from dataclasses import dataclass

from gmserver.rules.nmr import suspends_game
from gmserver.rules.ruleset import Ruleset


@dataclass(frozen=True)
class AfterResignation:
    said: str  # to the player and the other players, in words, with the clause
    to_gm: str  # what the GM is asked to do, in words (the commands are added by the service)
    suspend: bool  # the rules want the game suspended until a replacement is found (001 V(3) ¶1)
    search: bool  # a replacement is to be sought


def _cite(ruleset: Ruleset, option: str) -> str:
    clause = ruleset.cites(option)
    return f" (house rules {clause})" if clause else ""


def after_resignation(ruleset: Ruleset, phase: str) -> AfterResignation:
    """What the house rules make of a resignation in `phase`."""
    if suspends_game(ruleset, phase):
        return AfterResignation(
            "In the first game year a replacement is always sought for a position its player leaves, and the "
            f"game waits meanwhile{_cite(ruleset, 'first_year_abandonment')}; until then the power is in civil "
            "disorder.",
            "The game now waits, with no deadline, until a new player joins: seek one.",
            suspend=True, search=True)
    if ruleset.cd_mode == "gm_chooses":
        return AfterResignation(
            "The power is in civil disorder (its units hold) and the GM decides whether a replacement is sought"
            f"{_cite(ruleset, 'cd_mode')}.",
            "The house rules leave it to you: seek a replacement"
            + (f" (for {ruleset.cd_search_years} game years, in civil disorder meanwhile{_cite(ruleset, 'cd_search_years')})"
               if isinstance(ruleset.cd_search_years, int) else "")
            + ", or leave the power in civil disorder for good.",
            suspend=False, search=False)
    if ruleset.cd_mode == "per_turn_then_replace":
        return AfterResignation(
            "The power is in civil disorder (its units hold) while the GM seeks a new player"
            f"{_cite(ruleset, 'cd_mode')}.",
            "The house rules ask for a replacement: seek one.", suspend=False, search=True)
    return AfterResignation(
        "The power is in civil disorder: its units hold until a new player takes it over"
        f"{_cite(ruleset, 'cd_mode')}.",
        "Nothing is needed: the power stays in civil disorder unless you give it to a new player.",
        suspend=False, search=False)
