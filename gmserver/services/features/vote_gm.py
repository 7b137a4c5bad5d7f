"""The GM's part in votes: told of each proposal, the GM may veto one
(`proposal_gm_veto`, 000 IX(5)), propose one where the house rules allow it (`gm_may_propose`,
003 [18] ¶1), vote where a rule change needs the GM's agreement (`vote.rule_change.gm_must_agree`,
000 IX(3)), and is told to apply a rule change that passed. The same functions serve the command
line (`gmserver game veto|propose|vote`) and mail (services/commands/gm_commands.py); services/features/votes.py
records and counts.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.commands import usage
from gmserver.db import queries
from gmserver.db.models import Game, ProposalRow
from gmserver.rules import votes as rules
from gmserver.rules.position import describe_phase
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.vote_changes import read_terms, terms_key
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import announce
from gmserver.services.base.gm_notices import notify_gm
from gmserver.services.features import votes
from gmserver.services.game.actions import Done
from gmserver.services.game.games import GameError


def tell_gm(session: Session, services: Services, game_id: int, recorded: votes.Recorded, ruleset: Ruleset,
            now: datetime) -> bool:
    """proposal_gm_veto (000 IX(5) "the GM ... may refuse to conduct votes on repetitive or humorous
    proposals", 001 VIII(4) ¶2): the GM hears of each proposal, with the command that vetoes it."""
    gm_votes = rules.kind_rules(recorded.proposal.kind, ruleset).gm_must_agree  # 000 IX(3) "the GM and all"
    if not ruleset.proposal_gm_veto and not gm_votes:
        return False
    game = session.get(Game, game_id)
    assert game is not None
    number = recorded.proposal_id
    paragraphs = [f"Game {game.name}, {describe_phase(recorded.proposal.phase)}: "
                  f"{recorded.proposal.proposer.title()} proposed {rules.describe(recorded.proposal)} "
                  f"(proposal {number}). The players were told, without the proposer's name where the "
                  "house rules keep it secret."]
    if ruleset.proposal_gm_veto:
        clause = ruleset.cites("proposal_gm_veto")
        paragraphs.append("Under the house rules you may refuse to put a proposal to the vote"
                          + (f" ({clause})" if clause else "") + ": "
                          f"gmserver game veto {game.name} {number}, or mail the line \"veto {game.name} {number}\".")
    if gm_votes:
        silence = votes.SILENCE[rules.kind_rules(recorded.proposal.kind, ruleset).uncast]
        paragraphs.append(f"Under the house rules the GM must agree to a change of the house rules "
                          f"({rules.rule_change_clause(ruleset)}): you vote on it, and your silence {silence}. "
                          f"gmserver game vote {game.name} {number} yes|no|abstain, or mail the line "
                          f"\"vote {game.name} {number} yes\" (or no, or abstain) with the game's GM password.")
    return notify_gm(session, services, key=f"gm:proposal:{number}", game_id=game.id, now=now,
                     subject=f"gmserver: {game.name}: proposal {number}: {rules.describe(recorded.proposal)}",
                     paragraphs=paragraphs)


_KEYWORDS = {"draw": "draw", "concede": "concession", "concession": "concession", "rule": "rule_change",
             "end": "end_game_any_terms"}


def propose_by_gm(session: Session, services: Services, game: Game, words: str, *, by: str, now: datetime) -> Done:
    """gm_may_propose (003 [18] ¶1 "the GM or any player may propose"): the GM makes a proposal,
    casting no vote; the players are told as for theirs."""
    ruleset = queries.games.ruleset_of(game)
    if not ruleset.gm_may_propose:
        raise GameError("this game's house rules do not let the GM propose an end of the game")
    keyword, _, rest = words.strip().partition(" ")
    kind = _KEYWORDS.get(keyword.lower())
    if kind is None or not rules.offered(kind, ruleset):
        raise GameError(f"expected: {usage.PROPOSE}, of a kind the house rules offer")
    members, terms = _gm_members(session, game, kind, rest, ruleset)
    if queries.votes.find_proposal(session, game.id, game.phase, kind, votes.members_key(members)) is not None:
        raise GameError("that proposal has been made this turn already")
    row = queries.votes.add_proposal(session, game.id, game.phase, kind, votes.members_key(members), votes.GM, None,
                                     now, terms)
    recorded = votes.Recorded(votes.proposal_of(row), "yes", True, row.id)
    told = votes.announce_proposal(session, services, game.id, recorded, ruleset, now)
    text = f"The GM proposed {rules.describe(votes.proposal_of(row))} (proposal {row.id})"
    queries.gm_actions.record_action(session, game.id, "propose", {"proposal": row.id}, by, now, text)
    return Done("propose", text, told)


def _gm_members(session: Session, game: Game, kind: str, rest: str, ruleset: Ruleset
                ) -> tuple[frozenset[str], str | None]:
    """The members (and words) of the GM's proposal, or GameError saying why it cannot be made."""
    if kind in rules.WORDED:  # "rule change WORDS", "end game TERMS"
        head, _, words = rest.strip().partition(" ")
        line = read_terms(words if head.lower().rstrip(":") in ("change", "game") else rest, "end game: TERMS")
        if isinstance(line, str) or line.number is not None:
            raise GameError(line if isinstance(line, str) else
                            "the GM proposes in words and does not vote by number")
        return frozenset({terms_key(line.terms)}), line.terms
    read = rules.read_line(kind, rest)
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    members = read if isinstance(read, str) else rules.resolve_members(
        read, rules.survivors(position.units, position.centers), ruleset)
    if isinstance(members, str):
        raise GameError(members)
    return members, None


def vote_by_gm(session: Session, services: Services, game: Game, words: str, *, by: str, now: datetime) -> Done:
    """vote.rule_change.gm_must_agree (000 IX(3) "the GM and all players remaining in the game must
    agree"): the GM's ballot on a proposal, "12 yes"; the latest counts, as a player's."""
    number, _, choice = words.strip().partition(" ")
    row = session.get(ProposalRow, int(number)) if number.isdigit() else None
    if row is None or row.game_id != game.id:
        raise GameError(f"{game.name} has no proposal {number!r}")
    ruleset = queries.games.ruleset_of(game)
    if not rules.kind_rules(row.kind, ruleset).gm_must_agree:
        raise GameError("under this game's house rules the GM does not vote on "
                        f"{rules.describe(votes.proposal_of(row))}")
    if row.status != "open":
        raise GameError(f"proposal {number} is {row.status}: only an open proposal is voted on")
    choice = rules.CHOICE_WORDS.get(choice.strip().lower() or "yes", "")
    if not choice:
        raise GameError(f"expected: {usage.VOTE}")
    queries.votes.cast(session, row.id, votes.GM, choice, None, now)
    described = rules.describe(votes.proposal_of(row))
    text = f"The GM's vote on proposal {row.id} ({described}) is recorded: {choice}"
    queries.gm_actions.record_action(session, game.id, "vote", {"proposal": row.id}, by, now, text)
    return Done("vote", text, 0)


def veto(session: Session, services: Services, game: Game, number: str, *, by: str, now: datetime) -> Done:
    """The GM refuses to put an open proposal to the vote (proposal_gm_veto, 000 IX(5)); the
    players are told, without the proposer's name."""
    ruleset = queries.games.ruleset_of(game)
    row = session.get(ProposalRow, int(number)) if number.isdigit() else None
    if row is None or row.game_id != game.id:
        raise GameError(f"{game.name} has no proposal {number!r}")
    if not ruleset.proposal_gm_veto:
        raise GameError("this game's house rules give the GM no veto over proposals")
    if row.status != "open":
        raise GameError(f"proposal {number} is {row.status} already: only an open proposal can be vetoed")
    described = rules.describe(votes.proposal_of(row))
    votes.close([row], "vetoed", "vetoed by the GM", game.phase)
    clause = ruleset.cites("proposal_gm_veto")  # 000 IX(5) in mhr, 001 VIII(4) ¶2 in danivon, or none
    text = (f"The GM has vetoed {described}: it will not be put to the vote"
            + (f" (house rules {clause})." if clause else "."))
    action = queries.gm_actions.record_action(session, game.id, "veto", {"proposal": row.id}, by, now, text)
    return Done("veto", text, announce(session, services, game, action.id, f"proposal vetoed: {described}",
                                       [text], now))


def tell_gm_results(session: Session, services: Services, game: Game, results: votes.VoteResults, now: datetime) -> int:
    """A passed rule change (000 IX(3), 001 VIII(3), 003 [18] ¶3) is the GM's to apply: the GM is
    told which, in words; the players read the result in the report. How many notices."""
    told = 0
    for number in results.rule_changes:
        row = session.get(ProposalRow, number)
        assert row is not None
        told += notify_gm(session, services, key=f"gm:rule-change:{number}", game_id=game.id, now=now,
                          subject=f"gmserver: {game.name}: rule change {number} passed: apply it",
                          paragraphs=[
                              f"Game {game.name}: the players voted for {rules.describe(votes.proposal_of(row))} "
                              f"(proposal {number}), and it passed "
                              f"({rules.rule_change_clause(queries.games.ruleset_of(game))}).",
                              "The server cannot change a rule written in words by itself, and a game keeps the "
                              "house rules it was created with: apply the change in your own handling of the game "
                              "and tell the players. The report told them the change passed and that you will "
                              "apply it.",
                          ])
    return told
