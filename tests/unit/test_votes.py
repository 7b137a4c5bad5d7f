"""The vote tally (rules/votes.py), tables per profile. Expected values by
hand from the seeds: 000 IX, 001 VIII, 002 DRAWS, 003 [18]."""

from __future__ import annotations

from datetime import UTC

import pytest

from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.vote_changes import (
    DeadlineLine,
    TermsLine,
    deadline_problem,
    describe_deadline,
    read_deadline,
    read_terms,
    terms_key,
    turn_length_result,
)
from gmserver.rules.votes import (
    Proposal,
    Tally,
    VoteLine,
    amend,
    announcement,
    due,
    electorate,
    read_line,
    resolve_members,
    settle,
    survivors,
    tally,
)

SEVEN = frozenset(("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"))
THREE = frozenset(("AUSTRIA", "ENGLAND", "FRANCE"))
DRAW3 = Proposal("draw", THREE, "AUSTRIA", "S1905M")
CONCEDE_FRANCE = Proposal("concession", frozenset({"FRANCE"}), "AUSTRIA", "S1905M")
PROFILES = {"000": "mhr", "001": "danivon", "002": "email_rules", "003": "scorpion", "default": "standard"}


def rules(profile: str, **overrides):
    ruleset = load_ruleset(PROFILES.get(profile, profile))
    return ruleset.with_overrides(overrides) if overrides else ruleset


# (profile, ballots among AUSTRIA, ENGLAND, FRANCE, passed, yes, electors). Absent = uncast.
DRAW_TABLE = [
    # 000 IX(2) ¶1: an abstainer is left out of the electorate; an uncast vote is No [P IX(1)]
    ("000", {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "yes"}, True, 3, 3),
    ("000", {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "abstain"}, True, 2, 2),
    ("000", {"AUSTRIA": "yes", "ENGLAND": "yes"}, False, 2, 3),
    ("000", {"AUSTRIA": "abstain", "ENGLAND": "abstain", "FRANCE": "abstain"}, False, 0, 0),
    # 001 VIII(2): an uncast vote and an abstention are both No
    ("001", {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "abstain"}, False, 2, 3),
    ("001", {"AUSTRIA": "yes", "ENGLAND": "yes"}, False, 2, 3),
    # 002 DRAWS 1: "NVR = yes": only a No blocks
    ("002", {"AUSTRIA": "yes"}, True, 3, 3),
    ("002", {"AUSTRIA": "yes", "ENGLAND": "abstain"}, True, 3, 3),
    ("002", {"AUSTRIA": "yes", "ENGLAND": "no"}, False, 2, 3),
    # 003 [18] ¶1: a draw is an end on any terms; an uncast vote is Yes
    ("003", {"AUSTRIA": "yes"}, True, 3, 3),
    ("003", {"FRANCE": "no"}, False, 2, 3),
    # default: plain unanimity
    ("default", {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "yes"}, True, 3, 3),
    ("default", {"AUSTRIA": "yes", "ENGLAND": "yes"}, False, 2, 3),
]


@pytest.mark.parametrize(("profile", "ballots", "passed", "yes", "electors"), DRAW_TABLE)
def test_draw_tally_per_profile_vote_draw_uncast_and_abstention(profile, ballots, passed, yes, electors) -> None:
    result = tally(DRAW3, THREE, ballots, rules(profile))
    assert (result.passed, result.yes, result.electors) == (passed, yes, electors)


CONCESSION_TABLE = [
    # 000 IX(1): abstainers excluded; IX(5): France counts as voting for its own solo
    ("000", {"AUSTRIA": "yes", "ENGLAND": "abstain"}, True, 2, 2),
    ("000", {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "no"}, True, 3, 3),
    # 001 VIII(1): an abstention is No
    ("001", {"AUSTRIA": "yes", "ENGLAND": "abstain"}, False, 2, 3),
    ("001", {"AUSTRIA": "yes", "ENGLAND": "yes"}, True, 3, 3),
    ("default", {"AUSTRIA": "yes"}, False, 2, 3),
]


@pytest.mark.parametrize(("profile", "ballots", "passed", "yes", "electors"), CONCESSION_TABLE)
def test_concession_tally_per_profile_vote_concession_abstention(profile, ballots, passed, yes, electors) -> None:
    result = tally(CONCEDE_FRANCE, THREE, ballots, rules(profile))
    assert (result.passed, result.yes, result.electors) == (passed, yes, electors)


def test_concession_beneficiary_votes_yes_off_counts_the_beneficiarys_own_vote() -> None:
    """000 IX(5) sets concession_beneficiary_votes_yes; without it France's silence is No."""
    ballots = {"AUSTRIA": "yes", "ENGLAND": "yes"}
    assert tally(CONCEDE_FRANCE, THREE, ballots, rules("000")).passed
    assert not tally(CONCEDE_FRANCE, THREE, ballots, rules("000", concession_beneficiary_votes_yes=False)).passed


def test_vote_draw_uncast_yes_on_a_custom_ruleset() -> None:
    result = tally(DRAW3, THREE, {"AUSTRIA": "yes"}, rules("default", **{"vote.draw.uncast": "yes"}))
    assert result.passed


def test_vote_draw_abstention_excluded_on_a_custom_ruleset() -> None:
    ballots = {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "abstain"}
    assert tally(DRAW3, THREE, ballots, rules("default", **{"vote.draw.abstention": "excluded"})).passed


def test_vote_concession_uncast_yes_on_a_custom_ruleset() -> None:
    result = tally(CONCEDE_FRANCE, THREE, {"AUSTRIA": "yes"}, rules("default", **{"vote.concession.uncast": "yes"}))
    assert result.passed


def test_vote_end_game_any_terms_uncast_003_18_covers_draws() -> None:
    """003 [18] ¶1: a draw takes the rules of "end the game on any terms"."""
    custom = rules("003", **{"vote.end_game_any_terms.uncast": "no"})
    assert not tally(DRAW3, THREE, {"AUSTRIA": "yes"}, custom).passed


def test_vote_end_game_any_terms_abstention_003_18() -> None:
    ballots = {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "abstain"}
    assert tally(DRAW3, THREE, ballots, rules("003")).passed
    assert not tally(DRAW3, THREE, ballots, rules("003", **{"vote.end_game_any_terms.abstention": "no"})).passed


def test_cd_powers_vote_003_18_2() -> None:
    """003 [18] ¶2: powers in civil disorder do not vote (cd_powers_vote false)."""
    assert electorate(THREE, {"FRANCE"}, rules("003")) == {"AUSTRIA", "ENGLAND"}
    assert electorate(THREE, {"FRANCE"}, rules("003", cd_powers_vote=True)) == THREE


def test_voter_eligibility_units_or_centres_002_draws_2() -> None:
    alive = survivors({"AUSTRIA": ["A VIE"], "ENGLAND": [], "ITALY": []}, {"ENGLAND": ["LON"], "ITALY": []})
    assert alive == {"AUSTRIA", "ENGLAND"}


def test_multiple_passing_draws_all_fail_002_draws_1() -> None:
    other = Proposal("draw", frozenset({"AUSTRIA", "ENGLAND"}), "ENGLAND", "S1905M")
    results = settle([Tally(DRAW3, True, 3, 3, "passed"), Tally(other, True, 3, 3, "passed")], rules("002"))
    assert [r.passed for r in results] == [False, False]
    assert all("002 DRAWS 1" in r.reason for r in results)
    single = settle([Tally(DRAW3, True, 3, 3, "passed")], rules("002"))
    assert single[0].passed


@pytest.mark.parametrize(("made", "adjudicated", "following", "expected"), [
    ("F1905M", "F1905M", "W1905A", False),  # 002 DRAWS 3: a Fall proposal waits for Winter
    ("F1905M", "W1905A", "S1906M", True),
    ("F1905M", "F1905M", "S1906M", True),  # nobody adjusts: the year ends with the Fall turn
    ("S1905M", "S1905M", "F1905M", True),
])
def test_fall_proposals_resolved_after_winter_002_draws_3(made, adjudicated, following, expected) -> None:
    assert due(made, adjudicated, following, rules("002")) is expected


def test_vote_due_next_deadline_000_ix_4_without_the_fall_rule() -> None:
    assert due("F1905M", "F1905M", "W1905A", rules("000")) is True
    assert due("F1905M", "W1905A", "S1906M", rules("000")) is False


def test_amend_proposals_on_elimination_002_draws_3() -> None:
    """002 DRAWS 3: a power named in a proposal falls: it is dropped; a draw of one becomes a
    concession. Without the rule (000) the proposal is void."""
    alive = {"AUSTRIA", "ENGLAND"}
    assert amend(DRAW3, alive, rules("002")).members == {"AUSTRIA", "ENGLAND"}
    solo = amend(Proposal("draw", frozenset({"AUSTRIA", "FRANCE"}), "AUSTRIA", "F1905M"), alive, rules("002"))
    assert (solo.kind, solo.members) == ("concession", {"AUSTRIA"})
    assert "void" in amend(DRAW3, alive, rules("000"))


def test_a_fall_draw_naming_a_power_eliminated_in_winter_is_void_002_draws_3() -> None:
    """002 DRAWS 3: "if you call for an English/French draw in the Fall season and France is
    eliminated in the Winter season then the draw is invalid"."""
    fall = Proposal("draw", frozenset({"ENGLAND", "FRANCE"}), "ENGLAND", "F1905M")
    assert "void" in amend(fall, {"AUSTRIA", "ENGLAND"}, rules("002"), fell_later={"FRANCE"})
    assert amend(fall, {"AUSTRIA", "ENGLAND"}, rules("002")).kind == "concession"  # fell in its own turn


def test_draw_membership_all_survivors_refuses_a_subset() -> None:
    line = VoteLine("draw", frozenset({"AUSTRIA", "ENGLAND"}), "yes")
    assert resolve_members(line, THREE, rules("000")) == {"AUSTRIA", "ENGLAND"}
    assert isinstance(resolve_members(line, THREE, rules("000", draw_membership="all_survivors")), str)


def test_a_draw_naming_an_eliminated_power_is_refused_002_draws_1() -> None:
    line = VoteLine("draw", frozenset({"AUSTRIA", "ITALY"}), "yes")
    assert "Italy is out of the game" in resolve_members(line, THREE, rules("002"))


@pytest.mark.parametrize(("kind", "argument", "expected"), [
    ("draw", "", VoteLine("draw", frozenset(), "yes")),
    ("draw", "Austria, England and France", VoteLine("draw", THREE, "yes")),
    ("draw", "Austria England NO", VoteLine("draw", frozenset({"AUSTRIA", "ENGLAND"}), "no")),
    ("draw", "abstain", VoteLine("draw", frozenset(), "abstain")),
    ("concession", "to Russia", VoteLine("concession", frozenset({"RUSSIA"}), "yes")),
    ("concession", "Russian yes", VoteLine("concession", frozenset({"RUSSIA"}), "yes")),
])
def test_read_line(kind, argument, expected) -> None:
    assert read_line(kind, argument) == expected


def test_read_line_errors_are_words() -> None:
    assert "Narnia" in read_line("draw", "Austria Narnia").title()
    assert "one power" in read_line("concession", "Austria England")


def test_vote_secrecy_yes_count_only_002_draws_1() -> None:
    result = Tally(DRAW3, False, 2, 3, "failed")
    assert announcement(result, rules("002")) == "A draw between Austria, England and France failed. Yes votes: 2 of 3."
    assert announcement(result, rules("000")) == "A draw between Austria, England and France failed."


def test_yes_counted_for_silence_is_told_apart_002_draws_1() -> None:
    """002 DRAWS 1: the number of Yes votes is announced and "NVR = yes". With one power silent,
    "Yes votes: 3 of 3" alone reads as three players voting Yes: the announcement says how many
    voted Yes and how many were counted Yes for not voting (counts only, never whose)."""
    result = tally(DRAW3, THREE, {"AUSTRIA": "yes", "ENGLAND": "yes"}, rules("002"))
    assert (result.passed, result.yes, result.electors, result.silent_yes) == (True, 3, 3, 1)
    assert announcement(result, rules("002")) == (
        "A draw between Austria, England and France passed. Yes votes: 3 of 3. Of these, 2 voted Yes; "
        "1 did not vote, which counts as Yes under house rules 002 DRAWS 1.")
    # every elector voting: nothing more to say
    voted = tally(DRAW3, THREE, {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "yes"}, rules("002"))
    assert announcement(voted, rules("002")) == "A draw between Austria, England and France passed. Yes votes: 3 of 3."
    # an abstention counted Yes (002 silent: the profile's proposal) is said too, with no clause to cite
    abstained = tally(DRAW3, THREE, {"AUSTRIA": "yes", "ENGLAND": "abstain"}, rules("002"))
    assert announcement(abstained, rules("002")).endswith(
        "Of these, 1 voted Yes; 1 did not vote, which counts as Yes under house rules 002 DRAWS 1; "
        "1 abstained, which counts as Yes under this game's rules.")


def test_proposer_anonymous_false_names_the_proposer() -> None:
    result = Tally(DRAW3, True, 3, 3, "passed")
    assert "proposed by Austria" in announcement(result, rules("000", proposer_anonymous=False))
    assert "Austria," in announcement(result, rules("000"))  # a member, never "proposed by"
    assert "proposed by" not in announcement(result, rules("000"))


# --- rule and deadline changes (000 IX(3), 001 VIII(3), 003 [18] ¶2-3) -------------------------

RULE = Proposal("rule_change", frozenset(), "AUSTRIA", "S1905M")
DEADLINE = Proposal("deadline_change", frozenset(), "AUSTRIA", "S1905M")
ALL_YES = {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "yes"}

# (profile, ballots among AUSTRIA, ENGLAND, FRANCE and the GM, passed, yes, electors)
RULE_CHANGE_TABLE = [
    # 000 IX(3): "if the GM and all remaining players agree unanimously": the GM is a fourth elector
    ("000", {**ALL_YES, "GM": "yes"}, True, 4, 4),
    ("000", ALL_YES, False, 3, 4),  # the GM did not agree: an uncast vote is No
    ("000", {**ALL_YES, "GM": "no"}, False, 3, 4),
    # 000 IX(3): "declared abstainers excepted"
    ("000", {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "abstain", "GM": "yes"}, True, 3, 3),
    # 001 VIII(3) "Alternative B": the players alone; an abstention or an uncast vote is No
    ("001", ALL_YES, True, 3, 3),
    ("001", {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "abstain"}, False, 2, 3),
    ("001", {"AUSTRIA": "yes", "ENGLAND": "yes"}, False, 2, 3),
    # 003 [18] ¶3: an uncast vote or an abstention defeats the proposal; the GM is no elector
    ("003", ALL_YES, True, 3, 3),
    ("003", {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "abstain"}, False, 2, 3),
    ("003", {"AUSTRIA": "yes", "ENGLAND": "yes"}, False, 2, 3),
]


@pytest.mark.parametrize(("profile", "ballots", "passed", "yes", "electors"), RULE_CHANGE_TABLE)
def test_rule_change_tally_per_profile_vote_rule_change_gm_must_agree(profile, ballots, passed, yes, electors
                                                                     ) -> None:
    result = tally(RULE, THREE, ballots, rules(profile))
    assert (result.passed, result.yes, result.electors) == (passed, yes, electors)


def test_rule_change_non_default_uncast_yes_and_abstention_excluded() -> None:
    """vote.rule_change.uncast = yes (not a seed's value; the default is No): silence agrees."""
    ruleset = rules("default", **{"vote.rule_change.uncast": "yes", "vote.rule_change.abstention": "excluded"})
    assert tally(RULE, THREE, {"AUSTRIA": "yes"}, ruleset).passed
    result = tally(RULE, THREE, {"AUSTRIA": "yes", "ENGLAND": "abstain"}, ruleset)
    assert (result.passed, result.electors) == (True, 2)
    assert not tally(RULE, THREE, {"AUSTRIA": "yes"}, rules("default")).passed


def test_rule_change_gm_must_agree_non_default() -> None:
    """vote.rule_change.gm_must_agree = true on the default profile: the players' Yes is not enough."""
    ruleset = rules("default", **{"vote.rule_change.gm_must_agree": True})
    assert not tally(RULE, THREE, ALL_YES, ruleset).passed
    assert tally(RULE, THREE, {**ALL_YES, "GM": "yes"}, ruleset).passed
    assert tally(RULE, THREE, ALL_YES, rules("default")).passed


DEADLINE_TABLE = [
    # 003 [18] ¶2: "by unanimous decision of the players; failing to vote counts against"
    ("003", ALL_YES, True, 3, 3),
    ("003", {"AUSTRIA": "yes", "ENGLAND": "yes"}, False, 2, 3),
    # 003: the abstention is silent -> No [P]
    ("003", {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "abstain"}, False, 2, 3),
    # vote.deadline_change.uncast = yes, abstention = excluded (non-default values)
    ({"vote.deadline_change.uncast": "yes"}, {"AUSTRIA": "yes"}, True, 3, 3),
    ({"vote.deadline_change.abstention": "excluded"}, {"AUSTRIA": "yes", "ENGLAND": "yes", "FRANCE": "abstain"},
     True, 2, 2),
]


@pytest.mark.parametrize(("profile", "ballots", "passed", "yes", "electors"), DEADLINE_TABLE)
def test_deadline_change_tally_vote_deadline_change_uncast_abstention(profile, ballots, passed, yes, electors
                                                                     ) -> None:
    ruleset = rules("default", **profile) if isinstance(profile, dict) else rules(profile)
    result = tally(DEADLINE, THREE, ballots, ruleset)
    assert (result.passed, result.yes, result.electors) == (passed, yes, electors)


@pytest.mark.parametrize(("text", "expected"), [
    ("21", DeadlineLine(21, "yes")), ("14 days", DeadlineLine(14, "yes")), ("3 weeks NO", DeadlineLine(21, "no")),
    ("two weeks abstain", DeadlineLine(14, "abstain")),
])
def test_read_deadline_line(text, expected) -> None:
    assert read_deadline(text) == expected


def test_read_deadline_line_refuses_words_that_are_no_length() -> None:
    assert "not a turn length" in read_deadline("fortnightly please")


def test_deadline_problem_003_23_offers_7_14_or_21_days() -> None:
    """003 [23]: one, two or three week deadlines; min_hours_movement."""
    assert deadline_problem(14, 48, (7, 14, 21)) is None
    assert deadline_problem(10, 48, (7, 14, 21)) == "the house rules offer turns of 7, 14 or 21 days (003 [23])"
    assert "at least 72 hours" in deadline_problem(2, 72, None)
    assert deadline_problem(10, 48, None) is None


@pytest.mark.parametrize(("ballots", "expected"), [
    ({"AUSTRIA": 7, "ENGLAND": 7, "FRANCE": 14}, 7),  # 003 [23]: plurality
    ({"AUSTRIA": 7, "ENGLAND": 21}, 21),  # a tie goes to the longer deadline [P]
    ({"AUSTRIA": 7, "ENGLAND": 14, "FRANCE": 14, "ITALY": 21, "TURKEY": 21}, 21),
    ({"AUSTRIA": 10}, None),  # not a length offered: not counted
    ({}, None),
])
def test_turn_length_vote_003_23_plurality_tie_to_longer(ballots, expected) -> None:
    assert turn_length_result(ballots, (7, 14, 21)) == expected


def test_describe_deadline_change() -> None:
    assert describe_deadline(14) == "a change of the movement turns to 14 days (2 weeks)"
    assert describe_deadline(10) == "a change of the movement turns to 10 days"


# --- proposals in words (000 IX(3) rule changes, 003 [18] ¶1 an end on any terms) ---------------

EXAMPLE = "RULE CHANGE: press may be sent in retreat seasons"


@pytest.mark.parametrize(("argument", "expected"), [
    ("press may be sent in retreat seasons", TermsLine("press may be sent in retreat seasons", None, "yes")),
    (": no press in Winter", TermsLine("no press in Winter", None, "yes")),
    ("12", TermsLine("", 12, "yes")),
    ("#12 NO", TermsLine("", 12, "no")),
    ("12 abstain", TermsLine("", 12, "abstain")),
])
def test_read_terms_000_ix_3_a_proposal_in_words_or_a_ballot_by_number(argument, expected) -> None:
    assert read_terms(argument, EXAMPLE) == expected


def test_read_terms_refusals_are_words() -> None:
    assert read_terms("", EXAMPLE) == f'write what you propose in words, for example "{EXAMPLE}"'
    assert read_terms("12 maybe later", EXAMPLE) == (
        'after the proposal\'s number write YES, NO or ABSTAIN (for example "RULE CHANGE 12 NO")')


def test_terms_key_the_same_words_in_any_case_are_one_proposal() -> None:
    assert terms_key("Press may be sent  in retreat seasons") == terms_key("press may be sent in retreat seasons")
    assert terms_key("no press in Winter") != terms_key("press may be sent in retreat seasons")
    assert len(terms_key("x " * 400)) <= 200  # fits proposals.members


def test_describe_worded_proposals() -> None:
    from gmserver.rules.votes import describe
    assert describe(Proposal("rule_change", frozenset(), "AUSTRIA", "S1905M", "no press in Winter")) == (
        'a change of the house rules: "no press in Winter"')
    assert describe(Proposal("end_game_any_terms", frozenset(), "GM", "S1905M", "Austria wins")) == (
        'an end of the game on these terms: "Austria wins"')


@pytest.mark.parametrize(("profile", "kinds"), [
    ("000", {"draw", "concession", "rule_change"}),  # 000 IX(1)-(3)
    ("001", {"draw", "concession", "rule_change"}),  # 001 VIII(1)-(3)
    ("002", {"draw"}),  # 002 DRAWS
    # 003 [18]: any terms (a draw or a concession being terms too), deadline and rule changes
    ("003", {"draw", "concession", "end_game_any_terms", "rule_change", "deadline_change"}),
    ("default", {"draw", "concession"}),
])
def test_vote_kinds_offered_per_profile(profile, kinds) -> None:
    from gmserver.rules.votes import offered
    every = ("draw", "concession", "end_game_any_terms", "rule_change", "deadline_change")
    assert {kind for kind in every if offered(kind, rules(profile))} == kinds


# --- the turn-length vote (003 [23]) and complaints about a draw (002 DRAWS 5) -----------------

def test_turn_length_problem_003_23() -> None:
    from gmserver.rules.vote_changes import turn_length_problem
    assert turn_length_problem(14, (7, 14, 21), "yes") is None
    assert turn_length_problem(10, (7, 14, 21), "yes") == "the house rules offer turns of 7, 14 or 21 days (003 [23])"
    assert "nothing to vote against" in turn_length_problem(14, (7, 14, 21), "no")
    assert turn_length_problem(14, None, "yes") == (
        "this game's house rules have no vote on the turn length: the GM sets it")


def test_turn_length_announcement_003_23_names_no_voter() -> None:
    from gmserver.rules.vote_changes import turn_length_announcement
    assert turn_length_announcement(21, 7) == ("The players voted on the length of a movement turn: from now on it "
                                               "lasts 21 days (3 weeks), the length with the most votes (house "
                                               "rules 003 [23]).")
    assert turn_length_announcement(None, 7) == ("No player voted on the length of a movement turn: it stays at 7 "
                                                 "days (house rules 003 [23]).")


@pytest.mark.parametrize(("complaints", "players", "expected"), [
    (2, 3, True), (1, 3, False), (2, 4, False), (3, 4, True), (4, 7, True), (3, 7, False), (0, 0, False),
])
def test_draw_revote_majority_002_draws_5_more_than_half(complaints, players, expected) -> None:
    """002 DRAWS 5 "If the majority of players complain": more than half of those still in the game."""
    from gmserver.rules.draw_complaints import majority
    assert majority(complaints, players) is expected


def test_draw_revote_window_002_draws_5_one_week() -> None:
    from datetime import datetime

    from gmserver.rules.draw_complaints import window_end
    passed = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    assert window_end(passed, 7) == datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
