"""Votes on ending the game: reading a vote line, the tally, and what is announced.

Pure: the caller passes the proposal, the powers still in the game, the powers in civil
disorder, the latest ballot of each voter and the ruleset. The grammar is a proposal [P
practice]; the seeds name votes but give no syntax:

    DRAW                      a draw of all survivors: proposes it, or votes Yes on it
    DRAW Austria England      a draw among the powers named
    DRAW Austria England NO   votes No on that draw (YES, NO or ABSTAIN last; YES if none)
    CONCEDE Russia            a concession to Russia (a solo victory), proposed or voted on

A line naming a proposal nobody has made this turn makes it, its author voting Yes; the same
line from another player is a vote on it. Each voter's latest ballot counts (`revised_votes`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from gmserver.rules.geography import POWERS
from gmserver.rules.ruleset import Ruleset, VoteKindRules
from gmserver.rules.ruleset_options import OPTIONS
from gmserver.rules.subject import name_words
from gmserver.rules.vote_changes import describe_deadline

CHOICES = ("yes", "no", "abstain")
GM = "GM"  # the GM's ballot where vote.rule_change.gm_must_agree ("plus the GM")
GAME_ENDING = ("draw", "concession", "end_game_any_terms", "draw_revote")  # a revote: 002 DRAWS 5
CHANGES = ("deadline_change", "rule_change")  # proposals that change the game, naming no power
WORDED = ("rule_change", "end_game_any_terms")  # written in words (rules/vote_changes.read_terms)
_POWER_WORDS = {**{p.lower(): p for p in POWERS},
                **{a: p for p, a in (("AUSTRIA", "austrian"), ("ENGLAND", "english"), ("FRANCE", "french"),
                                     ("GERMANY", "german"), ("ITALY", "italian"), ("RUSSIA", "russian"),
                                     ("TURKEY", "turkish"))}}
_NOISE = {"and", "of", "to", "for", "between", "among", "vote", "the", "a", "all", "survivors", "proposal"}
CHOICE_WORDS = _CHOICE_WORDS = {"yes": "yes", "y": "yes", "aye": "yes", "no": "no", "n": "no", "nay": "no",
                 "abstain": "abstain", "abstention": "abstain", "abstaining": "abstain"}


@dataclass(frozen=True)
class VoteLine:
    """One vote line read: which proposal it names and the ballot on it."""

    kind: str  # "draw" or "concession"
    members: frozenset[str]  # the draw's members (empty: all survivors) or the concession's beneficiary
    choice: str  # yes, no or abstain


@dataclass(frozen=True)
class Proposal:
    kind: str
    members: frozenset[str]  # resolved: a draw of all survivors names them when it is made
    proposer: str
    phase: str  # the turn it was made in
    terms: str = ""  # a WORDED proposal's words (its `members` is then rules/vote_changes.terms_key)


@dataclass(frozen=True)
class Tally:
    proposal: Proposal
    passed: bool
    yes: int  # effective Yes votes among the electors
    electors: int
    reason: str  # in words, for the GM and the final report; never whose vote was what
    # of `yes`, how many electors sent no ballot, or abstained, and were counted Yes for it (the
    # kind's `uncast` and `abstention`, 002 DRAWS 1 "NVR = yes"): the rest voted Yes themselves
    silent_yes: int = 0
    abstained_yes: int = 0


def read_line(kind: str, argument: str) -> VoteLine | str:
    """`kind` from rules/mailkind.py ("draw", "concession"); `argument` the rest of its line.
    A readable error instead of a line that cannot be read."""
    words = name_words(argument)
    choice = "yes"
    if words and words[-1] in _CHOICE_WORDS:
        choice = _CHOICE_WORDS[words.pop()]
    members, unknown = set(), []
    for word in words:
        if word in _POWER_WORDS:
            members.add(_POWER_WORDS[word])
        elif word not in _NOISE:
            unknown.append(word)
    if unknown:
        return (f"\"{' '.join(unknown)}\" is not a power; write the powers by name, then YES, NO or ABSTAIN "
                f"(for example \"DRAW Austria England NO\")")
    if kind == "concession" and len(members) != 1:
        return "a concession names the one power it concedes the game to (for example \"CONCEDE Russia\")"
    return VoteLine(kind, frozenset(members), choice)


def survivors(units: Mapping[str, Collection[str]], centres: Mapping[str, Collection[str]]) -> frozenset[str]:
    """voter_eligibility = units_or_centres (002 DRAWS 2; [P] for the others): the powers
    with a unit or a supply centre."""
    return frozenset(p for p in set(units) | set(centres) if units.get(p) or centres.get(p))


def electorate(alive: Collection[str], in_cd: Collection[str], ruleset: Ruleset) -> frozenset[str]:
    """The electors: the surviving powers, minus those in civil disorder unless `cd_powers_vote` (003 [18] ¶2)."""
    return frozenset(alive) if ruleset.cd_powers_vote else frozenset(alive) - frozenset(in_cd)


def kind_rules(kind: str, ruleset: Ruleset) -> VoteKindRules:
    """The uncast and abstention meanings for the kind; under 003 [18] a draw or concession is a
    proposal to "end the game on any terms" and takes that kind's rules."""
    if kind == "draw_revote":  # 002 DRAWS 5: the revote on a draw is counted like a draw
        kind = "draw"
    if kind in ("draw", "concession") and kind not in ruleset.vote_kinds and "end_game_any_terms" in ruleset.vote_kinds:
        kind = "end_game_any_terms"
    # rule_change / deadline_change keep their own rules (000 IX(3), 001 VIII(3), 003 [18] ¶2-3)
    return {
        "draw": VoteKindRules(ruleset.vote.draw.uncast, ruleset.vote.draw.abstention),
        "concession": VoteKindRules(ruleset.vote.concession.uncast, ruleset.vote.concession.abstention),
        "end_game_any_terms": VoteKindRules(ruleset.vote.end_game_any_terms.uncast,
                                            ruleset.vote.end_game_any_terms.abstention),
        "rule_change": VoteKindRules(ruleset.vote.rule_change.uncast, ruleset.vote.rule_change.abstention,
                                     ruleset.vote.rule_change.gm_must_agree),
        "deadline_change": VoteKindRules(ruleset.vote.deadline_change.uncast, ruleset.vote.deadline_change.abstention),
    }[kind]


def offered(kind: str, ruleset: Ruleset) -> bool:
    """vote_kinds; 003 [18]: "end the game on any terms" covers a draw and a concession."""
    return kind in ruleset.vote_kinds or (kind in ("draw", "concession") and "end_game_any_terms" in ruleset.vote_kinds)


def resolve_members(line: VoteLine, alive: Collection[str], ruleset: Ruleset) -> frozenset[str] | str:
    """The members of the proposal the line names, or why it cannot be made."""
    if line.kind == "concession":
        (beneficiary,) = line.members
        if beneficiary not in alive:
            return f"{beneficiary.title()} is out of the game: the game cannot be conceded to it"
        return line.members
    if not line.members:
        return frozenset(alive)
    if ruleset.draw_membership == "all_survivors" and line.members != frozenset(alive):
        return "under this game's house rules a draw includes every power still in the game"
    if gone := sorted(line.members - frozenset(alive)):
        # 002 DRAWS 1: a draw among non-eliminated players
        return f"{', '.join(p.title() for p in gone)} {'is' if len(gone) == 1 else 'are'} out of the game"
    return line.members


def amend(proposal: Proposal, alive: Collection[str], ruleset: Ruleset, fell_later: Collection[str] = ()
          ) -> Proposal | str:
    """A proposal naming a power no longer in the game at the tally (002 DRAWS 3). A power that
    fell in the turn the proposal was made in is dropped under `amend_proposals_on_elimination`
    ("if a proposal is given just as a country falls, I will change it"; a draw left with one
    member becomes a concession to it); one that fell in a later turn, e.g. in the Winter after a
    Fall proposal (`fell_later`), makes it void ("the draw is invalid"), as does any fallen power
    without the option. The proposal, or why it is void."""
    gone = proposal.members - frozenset(alive)
    if not gone:
        return proposal
    names = ", ".join(sorted(p.title() for p in gone))
    left = proposal.members - gone
    if not ruleset.amend_proposals_on_elimination or not left or gone & frozenset(fell_later):
        return f"void: it names {names}, out of the game since it was made"
    # 002 DRAWS 3: the eliminated country is dropped; a draw of one is a concession
    return replace(proposal, members=left, kind="concession" if len(left) == 1 else proposal.kind)


def _effective(vote: str | None, rules: VoteKindRules) -> str:
    """yes, no or excluded: a missing vote takes `uncast`, an abstention `abstention`."""
    if vote is None:
        return rules.uncast
    if vote == "abstain":
        return rules.abstention
    return vote


def tally(proposal: Proposal, electors: Collection[str], ballots: Mapping[str, str], ruleset: Ruleset) -> Tally:
    """Each elector's latest ballot (`ballots`: power -> yes/no/abstain; a missing power did
    not vote); the proposal passes only if every counted vote is Yes and someone is counted [P]."""
    rules = kind_rules(proposal.kind, ruleset)
    if rules.gm_must_agree:  # 000 IX(3): "if the GM and all remaining players agree": the GM is an elector
        electors = {*electors, GM}
    effective = {power: _effective(ballots.get(power), rules) for power in electors}
    if proposal.kind == "concession" and ruleset.concession_beneficiary_votes_yes:
        # 000 IX(5), 001 VIII(1): the power the game is conceded to counts as voting for its own solo
        for power in proposal.members & set(electors):
            effective[power] = "yes"
    counted = {p: v for p, v in effective.items() if v != "excluded"}
    yes = sum(1 for v in counted.values() if v == "yes")
    if not counted:
        return Tally(proposal, False, 0, 0, "failed: nobody was entitled to vote on it")
    silent = sum(1 for p, v in counted.items() if v == "yes" and ballots.get(p) is None)
    abstained = sum(1 for p, v in counted.items() if v == "yes" and ballots.get(p) == "abstain")
    if yes == len(counted):
        return Tally(proposal, True, yes, len(counted), "passed: every vote counted was Yes", silent, abstained)
    return Tally(proposal, False, yes, len(counted), "failed: not every vote counted was Yes", silent, abstained)


def settle(tallies: Sequence[Tally], ruleset: Ruleset) -> tuple[Tally, ...]:
    """multiple_passing_draws = all_fail (002 DRAWS 1): two game-ending proposals passing at once
    cancel each other; only one can end the game."""
    passing = [t for t in tallies if t.passed and t.proposal.kind in GAME_ENDING]
    if len(passing) < 2:
        return tuple(tallies)
    return tuple(replace(t, passed=False, reason="failed: more than one proposal to end the game passed, "
                                                 "so all of them fail (house rules 002 DRAWS 1)")
                 if t in passing else t for t in tallies)


def due(proposal_phase: str, adjudicated: str, next_phase: str, ruleset: Ruleset) -> bool:
    """Whether a proposal made in `proposal_phase` is tallied now, `adjudicated` being the phase
    just adjudicated: at the deadline of its turn (`vote_due` next_deadline, 000 IX(4)); under
    `fall_proposals_resolved_after_winter` (002 DRAWS 3) a Fall proposal waits for the Winter
    adjustments: it is tallied when the game year is over."""
    if ruleset.fall_proposals_resolved_after_winter and proposal_phase[:1] == "F":
        return proposal_phase[1:5] == adjudicated[1:5] and next_phase[:1] not in ("F", "W")
    return proposal_phase == adjudicated


def describe(proposal: Proposal) -> str:
    """"a draw between Austria and England", "a concession to Russia", a worded proposal with its words."""
    if proposal.kind == "deadline_change":  # its one member is the day count
        return describe_deadline(int(next(iter(proposal.members))))
    if proposal.kind == "rule_change":
        return f"a change of the house rules: \"{proposal.terms}\""
    if proposal.kind == "end_game_any_terms":
        return f"an end of the game on these terms: \"{proposal.terms}\""
    names = sorted(p.title() for p in proposal.members)
    if proposal.kind == "concession":
        return f"a concession to {names[0]}"
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{'a revote on ' if proposal.kind == 'draw_revote' else ''}a draw between {listed}"


def rule_change_clause(ruleset: Ruleset) -> str:
    """"house rules 000 IX(3)": where the game's document says how its house rules change."""
    clause = ruleset.cites("vote.rule_change.gm_must_agree")
    return f"house rules {clause}" if clause else "this game's rules"


def proposer_name(proposal: Proposal) -> str:
    """"England", or "the GM" for a proposal the GM made (gm_may_propose, 003 [18] ¶1)."""
    return "the GM" if proposal.proposer == "GM" else proposal.proposer.title()


def announcement(result: Tally, ruleset: Ruleset) -> str:
    """The published result (vote_secrecy, proposer_anonymous): never whose vote was what."""
    text = describe(result.proposal)
    text = text[0].upper() + text[1:]
    if not ruleset.proposer_anonymous:
        text += f", proposed by {proposer_name(result.proposal)},"
    text += " passed." if result.passed else " failed."
    if ruleset.vote_secrecy == "yes_count_only":  # 002 DRAWS 1: the number of Yes votes is announced
        text += f" Yes votes: {result.yes} of {result.electors}."
        text += _counted_yes(result, ruleset)
    return text


def _counted_yes(result: Tally, ruleset: Ruleset) -> str:
    """How many of the Yes votes nobody cast (002 DRAWS 1 "NVR = yes"): "3 of 3" must not read as
    three players voting Yes when one was silent. Counts only: whose vote was what stays secret."""
    if not result.silent_yes and not result.abstained_yes:
        return ""
    kind = "draw" if result.proposal.kind == "draw_revote" else result.proposal.kind
    parts = [f"{result.yes - result.silent_yes - result.abstained_yes} voted Yes"]
    for count, what, setting in ((result.silent_yes, "did not vote", "uncast"),
                                 (result.abstained_yes, "abstained", "abstention")):
        if count:
            name = f"vote.{kind}.{setting}"
            clause = ruleset.cites(name) if name in OPTIONS else None
            rule = f"house rules {clause}" if clause else "this game's rules"
            parts.append(f"{count} {what}, which counts as Yes under {rule}")
    return f" Of these, {'; '.join(parts)}."
