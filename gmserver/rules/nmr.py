"""Missed orders and civil disorder: pure turn policy.

After each adjudication the service asks, per power, `missed_turn` ("did this power miss?"),
then `after_turn` (what that means for its count and civil disorder, and what the GM must be
told). Before adjudicating Spring 1901 it asks `spring_1901_waits_for` (003 [14]).

The count is of *consecutive* missed turns (000 VII(6) ¶2 "two consecutive NMR's", 001 V(2)
"two Turns in a row", 003 [13] "two successive NMR's"); a total is kept beside it for the
record. A turn the power did not have to order in, or a turn that does not count, leaves the
run unbroken: only a turn in which the power owed orders and sent them ends it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from gmserver.rules.ruleset import Ruleset

# What the service must do after a turn (`Step.actions`)
ENTER_CD = "enter_cd"  # put the power in civil disorder, until the GM ends it or replaces the player
ONE_TURN_CD = "one_turn_cd"  # the missed turn was civil disorder for that turn only (002 ORDERS 0)
RECORD_CD = "record_cd"  # mark the player's own record (000 VII(6) ¶2)
TELL_GM_CD = "tell_gm_cd"  # the GM is told the power is now in civil disorder
ASK_GM_CHOOSE = "ask_gm_choose"  # the GM decides: replace, CD while searching, or CD (001 V(3))
SEEK_REPLACEMENT = "seek_replacement"  # the GM is asked to find a replacement (002 ORDERS 0)


@dataclass(frozen=True)
class NmrState:
    """One player's missed turns: `in_a_row` (what nmr_limit_to_cd counts), `total` (the record)."""

    in_a_row: int = 0
    total: int = 0
    civil_disorder: bool = False


@dataclass(frozen=True)
class Step:
    state: NmrState
    actions: tuple[str, ...] = ()


def counts_phase(phase_type: str, ruleset: Ruleset) -> bool:
    """Whether a miss in a phase of this type counts: movement turns always; retreat and
    adjustment turns only with nmr_counts_minor_turns (001 V(4), V(5): an NRR, NBR or NDR "is
    not considered to be an NMR"; 000 VII(6) expands NMR as "No Moves Requested")."""
    if phase_type == "M":
        return True
    return phase_type in ("R", "A") and ruleset.nmr_counts_minor_turns


def missed_turn(*, owes: bool, ordered: bool, phase_type: str, hopeless: bool, ruleset: Ruleset) -> bool | None:
    """Did this power miss the turn? None: the turn does not count for it either way (it owed
    nothing, a minor turn that is not counted, or a hopeless retreat or removal exempted by
    hopeless_orders_exempt, 002 ORDERS 4). `ordered`: a set on file for the phase, or
    contingent lines sent with the moves that stand in for one (000 II(5), 001 II(6))."""
    if not owes or not counts_phase(phase_type, ruleset):
        return None
    if ordered:
        return False
    if hopeless and ruleset.hopeless_orders_exempt:
        return None  # 002 ORDERS 4: "does not count a miss"
    return True


def _limit(ruleset: Ruleset) -> tuple[int | None, bool]:
    """nmr_limit_to_cd as (count, the GM only is flagged): 2 -> (2, False); "gm_after_2" ->
    (2, True); "none" -> (None, False)."""
    value = ruleset.nmr_limit_to_cd
    if isinstance(value, str):
        return int(value.removeprefix("gm_after_")), True
    return value, False


def after_turn(state: NmrState, missed: bool | None, ruleset: Ruleset) -> Step:
    """The player's count after one turn and what follows from it (cd_mode, 2.8
    nmr_limit_to_cd and nmr_replacement_after)."""
    if missed is None:
        return Step(state)
    if not missed:
        return Step(replace(state, in_a_row=0))
    state = replace(state, in_a_row=state.in_a_row + 1, total=state.total + 1)
    actions: list[str] = []
    limit, gm_only = _limit(ruleset)
    if ruleset.cd_mode == "per_turn_then_replace":
        # 002 ORDERS 0: each missed turn is civil disorder for that turn ("All your units HOLD."),
        # which the defaults of the missed turn are; nothing lasts, so the next orders count
        actions.append(ONE_TURN_CD)
    elif limit is not None and state.in_a_row == limit and not state.civil_disorder:
        if gm_only or ruleset.cd_mode == "gm_chooses":
            actions.append(ASK_GM_CHOOSE)  # 001 V(2), V(3): the GM decides
        else:
            actions += [ENTER_CD, TELL_GM_CD]  # 000 VII(6) ¶2, 003 [13]: from that point forward
    if (ENTER_CD in actions or ONE_TURN_CD in actions) and ruleset.record_cd_on_player:
        actions.append(RECORD_CD)  # 000 VII(6) ¶2: "marked as such on the site"
    if ruleset.nmr_replacement_after is not None and state.in_a_row == ruleset.nmr_replacement_after:
        actions.append(SEEK_REPLACEMENT)  # 002 ORDERS 0: "I will attempt to replace you"
    if ENTER_CD in actions:
        state = replace(state, civil_disorder=True)
    return Step(state, tuple(actions))


def spring_1901_waits_for(phase: str, ruleset: Ruleset, owing: Iterable[str], ordered: Collection[str]
                          ) -> tuple[str, ...]:
    """s1901_policy = suspend_until_replaced (003 [14] "The GM won't adjudicate if there's an
    NMR in spring 1901 ... we will look for a replacement"): the powers without orders at the
    Spring 1901 deadline, for which the game waits. Empty: adjudicate as usual."""
    if ruleset.s1901_policy != "suspend_until_replaced" or phase != "S1901M":
        return ()
    return tuple(sorted(p for p in owing if p not in ordered))


def abandoned(missed_at: datetime, heard_since: bool, ruleset: Ruleset, now: datetime) -> bool | None:
    """nmr_contact_window_hours (001 V(1) "Players failing to submit orders must contact the GM
    within 24 hours of the publication of the adjudication, or the player will be deemed to have
    abandoned the position"): False once the player has written or where the house rules have
    no such window, True when the window closed without a word, None while it is open."""
    if heard_since or ruleset.nmr_contact_window_hours is None:
        return False
    return True if now >= missed_at + timedelta(hours=ruleset.nmr_contact_window_hours) else None


def suspends_game(ruleset: Ruleset, missed_phase: str) -> bool:
    """first_year_abandonment = suspend_and_replace (001 V(3) "In the first Game Year, a
    replacement for an abandoned position will always be sought, and in the meantime the game
    will be suspended"): an abandonment in a 1901 phase suspends the game."""
    return ruleset.first_year_abandonment == "suspend_and_replace" and missed_phase[1:5] == "1901"


def search_until(phase: str, ruleset: Ruleset) -> int | None:
    """001 V(3)(ii) (cd_search_years): "A replacement will be sought for two game years, during
    which the position will be set to Civil Disorder. If no replacement is found in this time,
    then Civil Disorder will be permanent": the game year in which a search begun in `phase`
    ends (its first phase ends it). None: the house rules set no search period."""
    if ruleset.cd_search_years is None:
        return None
    return int(phase[1:5]) + ruleset.cd_search_years


def search_over(until: int, phase: str) -> bool:
    """Whether adjudicating `phase` ends a search that lasts until game year `until`."""
    return int(phase[1:5]) >= until


def preliminary_checkpoint(phase: str, ruleset: Ruleset, opened_at: datetime, deadline: datetime | None
                           ) -> datetime | None:
    """s1901_policy = preliminary_required (000 II(1) s.1 "Preliminary orders are not required
    except in Spring 01"): by when every power must have a set on file in Spring 1901, halfway
    from the opening of the turn to its deadline [P]; None where there is none."""
    if ruleset.s1901_policy != "preliminary_required" or phase != "S1901M" or deadline is None:
        return None
    return opened_at + (deadline - opened_at) / 2
