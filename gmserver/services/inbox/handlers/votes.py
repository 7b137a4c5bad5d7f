"""A vote by mail (services/features/votes.py records it): a draw, a concession, a deadline
change, a rule change or an end of the game on any terms written in words.

The answer goes to the voter alone and speaks only of the voter's own ballot: no mail names
another player's vote. What this game's house rules offer (`vote_kinds`) is applied: a kind they
do not offer is answered as such.
"""

from __future__ import annotations

import functools

from gmserver.rules import votes as rules
from gmserver.rules.authenticity import without_secret_lines
from gmserver.rules.vote_changes import read_deadline, read_terms
from gmserver.services.features import draw_complaints, turn_length, vote_gm, votes
from gmserver.services.inbox.handlers import notice
from gmserver.services.inbox.handlers.mail import Mail

TEMPLATE = "player/vote.txt.j2"
OUTCOME = "vote-recorded"
REFUSED = "vote-refused"
NOT_OFFERED = "vote-refused"

_NAMES = {"draw": "draw", "concession": "concession", "rule_change": "rule change",
          "deadline_change": "deadline change", "end_game_any_terms": "end of the game on any terms"}
_EXAMPLES = {"rule_change": "RULE CHANGE: press may be sent in retreat seasons",
             "end_game_any_terms": "END GAME: Austria and England share a draw"}
_CHOICE = {"yes": "Yes", "no": "No", "abstain": "an abstention"}


def handle(mail: Mail) -> str:
    assert mail.game is not None and mail.decision is not None, "a vote comes from a power of a game"
    topic = mail.kind.topic or "draw"
    ruleset = mail.game.ruleset
    context = {"vote": _NAMES.get(topic, topic), "argument": mail.kind.argument,
               "offered": [_NAMES.get(kind, kind) for kind in sorted(ruleset.vote_kinds)]}
    if topic == "turn_length":  # 003 [23]: "TURN LENGTH 14", at the start of the game
        return _turn_length(mail)
    if topic == "draw_complaint":  # 002 DRAWS 5: "COMPLAIN DRAW" after a draw passed
        return _draw_complaint(mail)
    if not rules.offered(topic, ruleset):
        notice.answer(mail, TEMPLATE, {**context, "allowed": False})
        return NOT_OFFERED
    if topic == "deadline_change":  # 003 [18] ¶2: "DEADLINE 21"
        line = read_deadline(mail.kind.argument)
        record = votes.record_deadline
    elif topic in rules.WORDED:  # 000 IX(3) "RULE CHANGE: ...", 003 [18] ¶1 "END GAME: ..."; or "... 12 NO"
        line = read_terms(mail.kind.argument, _EXAMPLES[topic])
        if not isinstance(line, str) and without_secret_lines(line.terms, mail.game.secrets_of(mail.decision.power))[1]:
            # the words of a proposal go to every player: never the author's password or reply address
            line = ("it holds your password or reply address, which every player would read; "
                    "reply to this mail with the proposal without it")
        record = functools.partial(votes.record_terms, kind=topic)
    else:
        line, record = rules.read_line(topic, mail.kind.argument), votes.record
    if not isinstance(line, str):
        line = record(mail.session, mail.game.id, mail.decision.power, line=line, ruleset=ruleset,
                      inbound_id=mail.row.id, now=mail.now)
    if isinstance(line, str):
        notice.answer(mail, TEMPLATE, {**context, "allowed": True, "refusal": line})
        return REFUSED
    if line.made:  # every power still in the game is told, so that it can vote
        votes.announce_proposal(mail.session, mail.services, mail.game.id, line, ruleset, mail.now)
        vote_gm.tell_gm(mail.session, mail.services, mail.game.id, line, ruleset, mail.now)
    notice.answer(mail, TEMPLATE, {
        **context, "allowed": True, "refusal": None, "made": line.made, "choice": _CHOICE[line.choice],
        "proposal": rules.describe(line.proposal),
        "after_winter": ruleset.fall_proposals_resolved_after_winter and line.proposal.phase[:1] == "F",
    })
    return OUTCOME


def _turn_length(mail: Mail) -> str:
    assert mail.game is not None and mail.decision is not None
    line = read_deadline(mail.kind.argument)
    if isinstance(line, str):
        text = f"Your turn length vote was not recorded: {line.replace('DEADLINE', 'TURN LENGTH')}."
    else:
        text = turn_length.record(mail.session, mail.services, mail.game.id, mail.decision.power, line,
                                  mail.game.ruleset, mail.row.id, mail.now)
    notice.answer(mail, TEMPLATE, {"said": text})
    return OUTCOME if text.startswith("Your vote") else REFUSED


def _draw_complaint(mail: Mail) -> str:
    assert mail.game is not None and mail.decision is not None
    text = draw_complaints.record(mail.session, mail.services, mail.game.id, mail.decision.power, mail.row.id,
                                  mail.now)
    notice.answer(mail, TEMPLATE, {"said": text})
    return OUTCOME if text.startswith("Your complaint") else REFUSED
