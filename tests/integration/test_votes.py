"""Votes by mail on a real database (SQLite and PostgreSQL): proposals and ballots recorded, the
tally at the deadline, the game ended by a passed draw or concession."""

from __future__ import annotations

import email
import email.policy
import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from gmserver.db import queries
from gmserver.db.models import Game, OutboxMessage, ProposalRow
from gmserver.db.session import transaction
from gmserver.rules.position import PhaseOutcome, Position
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.base.outbox import message_bytes
from gmserver.services.commands import gm_controls
from gmserver.services.features import draw_complaints, vote_gm, vote_tally, votes
from gmserver.services.game.games import POWERS, GameError, GameSpec, PlayerSpec, create_game
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from tests.support.world import GM, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

THREE = {"units": {"AUSTRIA": ["A VIE"], "ENGLAND": ["F LON"], "FRANCE": ["A PAR"]},
         "centers": {"AUSTRIA": ["VIE"], "ENGLAND": ["LON"], "FRANCE": ["PAR"]}}


def game_with(services, now, profile: str = "standard", overrides: dict | None = None, phase: str = "S1905M",
              movement: timedelta = timedelta(hours=48)) -> int:
    position = Position.from_json({"phase": phase, **THREE})
    with transaction(services.sessions) as session:
        return create_game(session, GameSpec(
            name="votes", ruleset=load_ruleset(profile).with_overrides(overrides or {}),
            players=[PlayerSpec(p, player_address(p)) for p in POWERS], position=position,
            movement=movement, retreat=timedelta(hours=24), adjustment=timedelta(hours=24),
            reminder=timedelta(0), sender_check="from"), now).id


def vote(services, clock, power: str, line: str, phase: str = "S1905M") -> str:
    """Send the line; the answer the voter got, words joined by single spaces."""
    subject = format_subject(template="standard", game_name="votes", power=power, phase=phase, purpose="orders")
    row = intake.store(services.sessions, order_mail(player_address(power), subject, line), source="smtp", now=clock())
    intake.process_pending(services, clock())
    with transaction(services.sessions) as session:
        answer = session.scalar(select(OutboxMessage).where(OutboxMessage.dedupe_key == f"notice:{row.id}"))
        return " ".join(answer.raw.decode().split())


def deadline(services, clock, game_id: int, hours: int = 49) -> tuple[str, str, list[str]]:
    """Adjudicate at the deadline: the game's status, the report, every mail's text."""
    clock.advance(hours=hours)
    turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        status = session.get(Game, game_id).status
        report = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "report")).first()
        mails = [" ".join(message_bytes(m).decode().split()) for m in session.scalars(select(OutboxMessage))]
        return status, " ".join(message_bytes(report).decode().split()) if report is not None else "", mails


def _all_three_vote_a_draw(services, clock) -> None:
    assert "You have proposed a draw between Austria, England and France" in vote(services, clock, "AUSTRIA", "DRAW")
    assert "Your vote on a draw between Austria, England and France is recorded: Yes" in vote(
        services, clock, "ENGLAND", "DRAW Austria England France")
    vote(services, clock, "FRANCE", "draw yes")


def test_vote_publication_instead_if_passed_000_ix_4_the_draw_replaces_the_adjudication(database_url, clock) -> None:
    """000 IX(4): every elector votes Yes; the game ends before the turn is adjudicated
    and every player is told so instead of getting a report."""
    services = services_for(database_url)
    game_id = game_with(services, clock())
    _all_three_vote_a_draw(services, clock)
    clock.advance(hours=49)
    [done] = turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        assert (game.status, game.phase, done.reports) == ("finished", "S1905M", 7)
        assert queries.phases.current_record(session, game).adjudicated_at is None
        kinds = [m.kind for m in session.scalars(select(OutboxMessage))]
        ended = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "gm-action")).first()
        text = " ".join(ended.raw.decode().split())
    assert "report" not in kinds
    assert "A draw between Austria, England and France passed." in text
    assert "The game has ended by vote: a draw between Austria, England and France." in text
    assert "the Spring 1905 Movement orders were not adjudicated" in text
    # no report follows: the last mail carries the game's record, its final map and centre chart
    assert ("Supply centres, game year by game year: The final map and the centre chart are attached. "
            "start end Austria 1 1 England 1 1 France 1 1") in text
    parsed = email.message_from_bytes(ended.raw, policy=email.policy.default)
    assert [part.get_filename() for part in parsed.iter_attachments()] == ["votes-final-map.png", "votes-centres.png"]


def test_vote_publication_with_adjudication_the_final_report_says_the_game_ended_by_vote(database_url,
                                                                                        clock) -> None:
    services = services_for(database_url)
    game_id = game_with(services, clock(), overrides={"vote_publication": "with_adjudication"})
    _all_three_vote_a_draw(services, clock)
    status, report, _ = deadline(services, clock, game_id)
    assert status == "finished"
    assert "VOTES A draw between Austria, England and France passed." in report
    assert "THE GAME IS OVER The game has ended by vote: a draw between Austria, England and France." in report
    with transaction(services.sessions) as session:
        raw = message_bytes(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "report")).first())
    html = email.message_from_bytes(raw, policy=email.policy.default).get_body(("html",)).get_content()
    html = " ".join(html.split())
    assert re.search(r'<h2 [^>]*>Votes</h2> <p [^>]*>A draw between Austria, England and France passed\.</p>', html)
    assert "<strong>The game is over.</strong> The game has ended by vote: a draw between Austria" in html


def test_a_draw_one_power_votes_against_fails_and_no_mail_names_the_voter(database_url, clock) -> None:
    """000 IX(4) "nothing revealed": the result is published, never who voted No."""
    services = services_for(database_url)
    game_id = game_with(services, clock())
    vote(services, clock, "AUSTRIA", "DRAW")
    assert "recorded: No" in vote(services, clock, "ENGLAND", "DRAW NO")
    vote(services, clock, "FRANCE", "DRAW")
    status, report, mails = deadline(services, clock, game_id)
    assert status == "active"
    assert "A draw between Austria, England and France failed." in report
    assert "Yes votes" not in report
    others = [m for m in mails if f"To: {player_address('ENGLAND')}" not in m]
    assert not any("recorded: No" in m or "DRAW NO" in m for m in others)


def test_a_proposal_is_announced_to_every_power_still_in_the_game_without_its_proposer(database_url, clock) -> None:
    """proposer_anonymous (000 IX(4)): the same mail to every survivor, the proposer too."""
    services = services_for(database_url)
    game_with(services, clock(), "mhr")
    vote(services, clock, "ENGLAND", "DRAW Austria England")
    with transaction(services.sessions) as session:
        sent = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "vote")).all()
        texts = [" ".join(m.raw.decode().split()) for m in sent]
    assert sorted(m.recipient for m in sent) == sorted(player_address(p) for p in ("AUSTRIA", "ENGLAND", "FRANCE"))
    assert all("a draw between Austria and England has been proposed." in t for t in texts)
    assert all("DRAW Austria England" in t and "proposed by" not in t for t in texts)
    # 000 IX(2) ¶1: an abstainer is left out; silence is No
    assert "your silence counts as a vote against it; an abstention is not counted" in texts[0]


def test_a_proposal_mail_has_a_proposal_subject_not_an_order_set_s(database_url, clock) -> None:
    """The proposal went out as "Proposal: [votes] S05: English Orders [1]" under mhr: a subject a
    player copies for orders, and no order set. It names the game and the turn and says proposal;
    a reply to it voting is taken as a vote."""
    services = services_for(database_url)
    game_with(services, clock(), "mhr")
    vote(services, clock, "ENGLAND", "DRAW Austria England")
    with transaction(services.sessions) as session:
        sent = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "vote")).all()
        subjects = {email.message_from_bytes(m.raw, policy=email.policy.default)["Subject"] for m in sent}
    assert subjects == {"[votes] S05: proposal"}
    row = intake.store(services.sessions, order_mail(player_address("AUSTRIA"), "Re: [votes] S05: proposal",
                                                     "DRAW Austria England"), source="smtp", now=clock())
    intake.process_pending(services, clock())
    with transaction(services.sessions) as session:
        answer = session.scalar(select(OutboxMessage).where(OutboxMessage.dedupe_key == f"notice:{row.id}"))
        assert "Your vote on a draw between Austria and England is recorded: Yes" in " ".join(answer.raw.decode().split())


def test_a_power_in_civil_disorder_is_not_invited_to_vote_000_vii_6(database_url, clock) -> None:
    """cd_powers_vote = false (mhr: a power in civil disorder has no vote, as the tally counts): the
    proposal mail goes to the powers that may vote, not to France in civil disorder (000 VII(6))."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "mhr")
    with transaction(services.sessions) as session:
        next(p for p in session.get(Game, game_id).players if p.power == "FRANCE").civil_disorder = True
    vote(services, clock, "ENGLAND", "DRAW Austria England")
    with transaction(services.sessions) as session:
        sent = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "vote")).all()
    assert sorted(m.recipient for m in sent) == sorted(player_address(p) for p in ("AUSTRIA", "ENGLAND"))


def test_a_danivon_game_ended_by_vote_cites_its_own_clause_001_viii_4(database_url, clock) -> None:
    """vote_publication = instead_if_passed is 001 VIII(4) ¶1 in danivon: the end-of-game mail
    cited mhr's 000 IX(4) to danivon players."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "danivon", movement=timedelta(hours=72))
    _all_three_vote_a_draw(services, clock)
    clock.advance(hours=73)
    turns.adjudicate_due(services, clock())
    with transaction(services.sessions) as session:
        assert session.get(Game, game_id).status == "finished"
        ended = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "gm-action")).first()
        text = " ".join(ended.raw.decode().split())
    assert "(house rules 001 VIII(4))" in text and "000 IX(4)" not in text


def test_proposer_anonymous_false_names_the_proposer_in_the_announcement(database_url, clock) -> None:
    services = services_for(database_url)
    game_with(services, clock(), overrides={"proposer_anonymous": False})
    vote(services, clock, "ENGLAND", "DRAW")
    with transaction(services.sessions) as session:
        sent = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "vote")).all()
        assert all("has been proposed by England" in " ".join(m.raw.decode().split()) for m in sent)


def test_a_vote_against_a_draw_nobody_proposed_is_refused(database_url, clock) -> None:
    services = services_for(database_url)
    game_with(services, clock())
    assert "nobody has proposed a draw between Austria and England this turn" in vote(
        services, clock, "ENGLAND", "DRAW Austria England NO")


def test_a_power_out_of_the_game_has_no_vote_voter_eligibility_units_or_centres(database_url, clock) -> None:
    services = services_for(database_url)
    game_with(services, clock())
    assert "Italy has no unit and no supply centre left, so it has no vote" in vote(services, clock, "ITALY", "DRAW")


def test_end_proposals_per_player_per_turn_001_viii_4(database_url, clock) -> None:
    """001 VIII(4) ¶3: one proposal to end the game per player per turn."""
    services = services_for(database_url)
    game_with(services, clock(), overrides={"end_proposals_per_player_per_turn": 1})
    vote(services, clock, "AUSTRIA", "DRAW")
    assert "as many as the house rules allow (001 VIII(4))" in vote(services, clock, "AUSTRIA", "DRAW Austria England")
    # voting on another's proposal is no proposal
    vote(services, clock, "ENGLAND", "DRAW England France")
    assert "is recorded: Yes" in vote(services, clock, "AUSTRIA", "DRAW England France")


def test_a_concession_passes_with_the_beneficiary_silent_000_ix_5(database_url, clock) -> None:
    """000 IX(5): France counts as voting for its own solo; the game ends, conceded to France."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "mhr")
    vote(services, clock, "AUSTRIA", "CONCEDE France")
    vote(services, clock, "ENGLAND", "CONCEDE France")
    status, _, mails = deadline(services, clock, game_id)
    assert status == "finished"
    assert any("The game has ended by vote: a concession to France." in m for m in mails)


def test_vote_secrecy_yes_count_only_and_fall_proposals_after_winter_002(database_url, clock) -> None:
    """002 DRAWS 1: the number of Yes votes is announced; DRAWS 3: a Fall proposal is tallied
    once the year is over (nobody adjusts here, so after the Fall turn and, under 002 PRESS 7, the
    Fall retreat turn held with nothing to retreat)."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "email_rules", phase="F1905M")
    vote(services, clock, "AUSTRIA", "DRAW", phase="F1905M")
    vote(services, clock, "ENGLAND", "DRAW NO", phase="F1905M")
    status, report, _ = deadline(services, clock, game_id, hours=7 * 24 + 1)
    assert status == "active" and "F1905R" in report and "Yes votes" not in report
    status, _, mails = deadline(services, clock, game_id, hours=48)  # past the retreat turn's deadline
    assert status == "active"
    assert any("A draw between Austria, England and France failed. Yes votes: 2 of 3." in m for m in mails)
    with transaction(services.sessions) as session:
        assert [r.status for r in session.scalars(select(ProposalRow))] == ["failed"]


def _adjudicated(phase: str, after_phase: str, before: dict, after: dict) -> list:
    """What adjudicating `phase` produced, as services/features/vote_tally.tally_due sees it (no engine needed)."""
    return [PhaseOutcome(phase=phase, before=Position.from_json({"phase": phase, **before}),
                         after=Position.from_json({"phase": after_phase, **after}), orders=(), state_after={})]


TWO = {"units": {"AUSTRIA": ["A VIE", "A PAR"], "ENGLAND": ["F LON"]},
       "centers": {"AUSTRIA": ["VIE", "PAR"], "ENGLAND": ["LON"]}}


def _tally_as_france_falls(database_url, clock, profile: str, proposed_in: str, falls_in: str):
    """Austria and England vote Yes on the draw of the three, France No; France falls when
    `falls_in` is adjudicated. The tallies after the Fall turn and after the Winter turn."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), profile, phase=proposed_in)
    vote(services, clock, "AUSTRIA", "DRAW", phase=proposed_in)  # Austria, England and France
    vote(services, clock, "ENGLAND", "DRAW", phase=proposed_in)
    vote(services, clock, "FRANCE", "DRAW NO", phase=proposed_in)  # France's No dies with France
    after_fall = TWO if falls_in == "F1905M" else THREE
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        ruleset = load_ruleset(profile)
        return [vote_tally.tally_due(session, game, ruleset, _adjudicated("F1905M", "W1905A", THREE, after_fall), clock()),
                vote_tally.tally_due(session, game, ruleset, _adjudicated("W1905A", "S1906M", after_fall, TWO), clock())]


def test_a_fall_draw_naming_a_power_eliminated_in_winter_is_void_002_draws_3(database_url, clock) -> None:
    """002 DRAWS 3: the Fall proposal waits for Winter; France, eliminated in Winter, makes the
    English/French/Austrian draw "invalid"."""
    after_fall, after_winter = _tally_as_france_falls(database_url, clock, "email_rules", "F1905M", "W1905A")
    assert after_fall == votes.VoteResults()  # not due before the Winter adjustments
    assert after_winter == votes.VoteResults((
        "A draw between Austria, England and France is void: it names France, out of the game since it was made.",))


def test_a_power_eliminated_in_the_turn_of_the_proposal_is_dropped_from_it_002_draws_3(database_url, clock) -> None:
    """002 DRAWS 3: "if a proposal is given just as a country falls, I will change it"; France's
    vote against is ignored: Austria and England draw."""
    after_fall, after_winter = _tally_as_france_falls(database_url, clock, "email_rules", "F1905M", "F1905M")
    assert after_fall == votes.VoteResults()
    # email_rules: the end is final only without a majority of complaints (002 DRAWS 5)
    assert after_winter.ended.startswith("The game has ended by vote: a draw between Austria and England. This "
                                         "result is final only if no majority of the players complains within 7 days")
    assert after_winter.announcements == ("A draw between Austria and England passed. Yes votes: 2 of 2.",)


def test_a_proposal_naming_a_fallen_power_is_void_without_amendments_000(database_url, clock) -> None:
    """000 (amend_proposals_on_elimination false): tallied at its own deadline, the draw names
    France, out of the game by then: void."""
    after_fall, _ = _tally_as_france_falls(database_url, clock, "mhr", "F1905M", "F1905M")
    assert after_fall.ended is None
    assert after_fall.announcements == (
        "A draw between Austria, England and France is void: it names France, out of the game since it was made.",)


def test_proposal_gm_veto_000_ix_5_the_gm_hears_of_a_proposal_and_vetoes_it_by_mail(database_url, clock) -> None:
    """000 IX(5): "the GM ... may refuse to conduct votes on repetitive or humorous proposals"."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "mhr")
    _all_three_vote_a_draw(services, clock)
    with transaction(services.sessions) as session:
        number = session.scalar(select(ProposalRow.id))
        notice = session.scalar(select(OutboxMessage).where(OutboxMessage.dedupe_key == f"gm:proposal:{number}"))
        assert notice is not None and notice.recipient == GM
        assert f"gmserver game veto votes {number}" in " ".join(notice.raw.decode().split())
        secret = session.get(Game, game_id).gm_secret
    intake.store(services.sessions, order_mail(GM, "votes", f"veto votes {number}\nPassword: {secret}", date=clock()),
                 source="smtp", now=clock())
    intake.process_pending(services, clock())
    with transaction(services.sessions) as session:
        told = [" ".join(m.raw.decode().split()) for m in session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "gm-action"))]
    assert len(told) == 7
    assert all("The GM has vetoed a draw between Austria, England and France" in t for t in told)
    assert not any("proposed by" in t or "Austria proposed" in t for t in told)
    assert "was vetoed this turn and is not put to the vote" in vote(services, clock, "FRANCE", "DRAW")
    status, report, _ = deadline(services, clock, game_id)
    assert status == "active" and "VOTES" not in report  # a vetoed proposal is not put to the vote


def test_proposal_gm_veto_false_gives_the_gm_no_notice_and_no_veto(database_url, clock) -> None:
    services = services_for(database_url)
    game_with(services, clock(), overrides={"proposal_gm_veto": False})
    vote(services, clock, "AUSTRIA", "DRAW")
    with transaction(services.sessions) as session:
        assert session.scalar(select(OutboxMessage).where(OutboxMessage.dedupe_key.like("gm:proposal:%"))) is None
    with pytest.raises(GameError, match="no veto"):
        gm_controls.act(services, "votes", vote_gm.veto, "1", now=clock())


def test_gm_may_propose_003_18_1_the_gm_proposes_and_casts_no_vote(database_url, clock) -> None:
    """003 [18] ¶1: "the GM or any player may propose"; every player then votes Yes (the
    standard profile with the 003 option: scorpion's week-long turns do not suit the fixture)."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), overrides={"gm_may_propose": True})
    done = gm_controls.act(services, "votes", vote_gm.propose_by_gm, "draw Austria England France", now=clock())
    assert done.text.startswith("The GM proposed a draw between Austria, England and France") and done.announced == 3
    for power in ("AUSTRIA", "ENGLAND", "FRANCE"):
        assert "recorded: Yes" in vote(services, clock, power, "DRAW")
    status, _, mails = deadline(services, clock, game_id)
    assert status == "finished"
    assert any("The game has ended by vote: a draw between Austria, England and France." in m for m in mails)


def test_gm_may_propose_false_refuses_the_gm_a_proposal(database_url, clock) -> None:
    services = services_for(database_url)
    game_with(services, clock())
    with pytest.raises(GameError, match="do not let the GM propose"):
        gm_controls.act(services, "votes", vote_gm.propose_by_gm, "draw", now=clock())


def test_cd_powers_vote_false_a_power_in_civil_disorder_is_told_it_has_no_vote(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = game_with(services, clock())
    with transaction(services.sessions) as session:
        next(p for p in session.get(Game, game_id).players if p.power == "FRANCE").civil_disorder = True
    assert "France is in civil disorder, and under the house rules a power in civil disorder does not vote" in vote(
        services, clock, "FRANCE", "DRAW")


def test_deadline_change_003_18_unanimous_sets_the_movement_turn_length(database_url, clock) -> None:
    """003 [18] ¶2: a permanent deadline change by unanimous decision of the players: the three
    survivors vote "DEADLINE 14"; from the next turn a movement turn lasts 14 days (the Fall
    deadline is 14 days after this adjudication), and the report says so in words."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "scorpion", movement=timedelta(days=7))
    assert "You have proposed a change of the movement turns to 14 days (2 weeks)" in vote(
        services, clock, "AUSTRIA", "DEADLINE 14 days")
    assert "the house rules offer turns of 7, 14 or 21 days (003 [23])" in vote(services, clock, "ENGLAND", "DEADLINE 10")
    vote(services, clock, "ENGLAND", "deadline 2 weeks")
    vote(services, clock, "FRANCE", "DEADLINE 14")
    status, report, _ = deadline(services, clock, game_id, hours=7 * 24 + 1)
    assert status == "active"
    assert "From now on a movement turn lasts 14 days (house rules 003 [18])" in report
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        assert game.movement_seconds == 14 * 86400
        assert game.phase == "F1905M" and game.deadline - clock() >= timedelta(days=13)


def test_deadline_change_003_18_failing_to_vote_counts_against(database_url, clock) -> None:
    """003 [18] ¶2 "failing to vote counts against" (vote.deadline_change.uncast = no): France
    is silent, the change fails and the turns keep their length."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "scorpion", movement=timedelta(days=7))
    vote(services, clock, "AUSTRIA", "DEADLINE 21")
    vote(services, clock, "ENGLAND", "DEADLINE 21 yes")
    _, report, _ = deadline(services, clock, game_id, hours=7 * 24 + 1)
    assert "A change of the movement turns to 21 days (3 weeks) failed." in report
    with transaction(services.sessions) as session:
        assert session.get(Game, game_id).movement_seconds == 7 * 86400


def test_deadline_change_not_offered_by_the_default_house_rules(database_url, clock) -> None:
    """vote_kinds = {concession, draw} by default: a deadline line is answered as not offered."""
    services = services_for(database_url)
    game_with(services, clock())
    assert "This game's house rules have no deadline change votes" in vote(services, clock, "AUSTRIA", "DEADLINE 14")


# --- proposals in words: rule changes (000 IX(3), 001 VIII(3), 003 [18] ¶3), end on any terms (003 [18] ¶1)

RULE_LINE = "RULE CHANGE: press may be sent in retreat seasons"


def _gm_mail(services, clock, game_id: int, line: str) -> str:
    """The GM's command by mail with the game's GM password; the answer, words joined."""
    with transaction(services.sessions) as session:
        secret = session.get(Game, game_id).gm_secret
    row = intake.store(services.sessions, order_mail(GM, "votes", f"{line}\nPassword: {secret}", date=clock()), source="smtp",
                       now=clock())
    intake.process_pending(services, clock())
    with transaction(services.sessions) as session:
        answers = [m for m in session.scalars(select(OutboxMessage).where(OutboxMessage.recipient == GM))
                   if m.dedupe_key and str(row.id) in m.dedupe_key]
        return " ".join(answers[-1].raw.decode().split()) if answers else ""


def _rule_change_number(services) -> int:
    with transaction(services.sessions) as session:
        return session.scalar(select(ProposalRow.id).where(ProposalRow.kind == "rule_change"))


def test_rule_change_000_ix_3_passes_when_the_gm_and_all_players_agree_and_the_gm_is_told_to_apply_it(
        database_url, clock) -> None:
    """000 IX(3): "the GM and all players remaining in the game must agree ... unanimously, other
    than players who ... abstain". Austria proposes in words, England votes Yes by number, France
    abstains (left out), the GM votes Yes by mail: it passes; the report says so without naming
    a voter, and the GM is told to apply it, the server being unable to."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "mhr")
    answer = vote(services, clock, "AUSTRIA", RULE_LINE)
    assert 'You have proposed a change of the house rules: "press may be sent in retreat seasons"' in answer
    number = _rule_change_number(services)
    with transaction(services.sessions) as session:
        told = [" ".join(m.raw.decode().split()) for m in session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "vote"))]
        notice = session.scalar(select(OutboxMessage).where(OutboxMessage.dedupe_key == f"gm:proposal:{number}"))
        notice_text = " ".join(notice.raw.decode().split())
    assert len(told) == 3 and all(f"RULE CHANGE {number}" in t for t in told)
    assert all("it passes only if the GM agrees as well (house rules 000 IX(3))" in t for t in told)
    assert f"gmserver game vote votes {number} yes|no|abstain" in notice_text
    assert "recorded: Yes" in vote(services, clock, "ENGLAND", f"rule change {number}")
    assert "recorded: an abstention" in vote(services, clock, "FRANCE", f"RULE CHANGE {number} ABSTAIN")
    assert "recorded: yes" in _gm_mail(services, clock, game_id, f"vote votes {number} yes")
    status, report, mails = deadline(services, clock, game_id)
    assert status == "active"  # a rule change is published with the adjudication, never instead
    assert ('A change of the house rules: "press may be sent in retreat seasons" passed. The GM will now apply the '
            "change (house rules 000 IX(3)): the server cannot change a rule written in words by itself") in report
    assert any("rule change" in m and "passed: apply it" in m for m in mails)


def test_rule_change_000_ix_3_fails_without_the_gms_vote(database_url, clock) -> None:
    """000 IX(3): the GM is an elector and an uncast vote is No: the three players' Yes is not enough."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "mhr")
    vote(services, clock, "AUSTRIA", RULE_LINE)
    number = _rule_change_number(services)
    vote(services, clock, "ENGLAND", f"RULE CHANGE {number} yes")
    vote(services, clock, "FRANCE", f"RULE CHANGE {number}")
    _, report, _ = deadline(services, clock, game_id)
    assert 'A change of the house rules: "press may be sent in retreat seasons" failed.' in report


def test_rule_change_001_viii_3_the_players_alone_an_abstention_defeats_it(database_url, clock) -> None:
    """001 VIII(3): all remaining players, the GM not listed (the GM's vote is refused); an
    abstention is No."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "danivon", movement=timedelta(hours=72))
    vote(services, clock, "AUSTRIA", RULE_LINE)
    number = _rule_change_number(services)
    with pytest.raises(GameError, match="the GM does not vote"):
        gm_controls.act(services, "votes", vote_gm.vote_by_gm, f"{number} yes", now=clock())
    vote(services, clock, "ENGLAND", f"RULE CHANGE {number}")
    vote(services, clock, "FRANCE", f"RULE CHANGE {number} abstain")
    _, report, _ = deadline(services, clock, game_id, hours=73)
    assert 'A change of the house rules: "press may be sent in retreat seasons" failed.' in report


def test_rule_change_001_viii_3_all_players_yes_passes(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = game_with(services, clock(), "danivon", movement=timedelta(hours=72))
    vote(services, clock, "AUSTRIA", RULE_LINE)
    assert "recorded: Yes" in vote(services, clock, "ENGLAND", RULE_LINE.lower())  # the same words: a Yes on it
    vote(services, clock, "FRANCE", f"RULE CHANGE {_rule_change_number(services)} yes")
    _, report, _ = deadline(services, clock, game_id, hours=73)
    assert "passed. The GM will now apply the change (house rules 001 VIII(3))" in report


def test_rule_change_003_18_an_uncast_vote_defeats_it(database_url, clock) -> None:
    """003 [18] ¶3: "any uncast vote or abstention will defeat the proposal"."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "scorpion", movement=timedelta(days=7))
    vote(services, clock, "AUSTRIA", RULE_LINE)
    vote(services, clock, "ENGLAND", f"RULE CHANGE {_rule_change_number(services)}")
    _, report, _ = deadline(services, clock, game_id, hours=7 * 24 + 1)
    assert 'A change of the house rules: "press may be sent in retreat seasons" failed.' in report


def test_rule_change_not_offered_by_the_default_house_rules(database_url, clock) -> None:
    """vote_kinds = {concession, draw}: a rule change line is answered as not offered."""
    services = services_for(database_url)
    game_with(services, clock())
    assert "This game's house rules have no rule change votes" in vote(services, clock, "AUSTRIA", RULE_LINE)


def test_rule_change_a_ballot_needs_a_proposal_number_of_this_game(database_url, clock) -> None:
    services = services_for(database_url)
    game_with(services, clock(), "mhr")
    assert "this game has no proposal 99 of that kind" in vote(services, clock, "AUSTRIA", "RULE CHANGE 99 yes")
    assert "write what you propose in words" in vote(services, clock, "AUSTRIA", "RULE CHANGE")


END_LINE = "END GAME: Austria and England share a draw, France retires"


def test_end_game_any_terms_003_18_passes_with_silence_and_the_final_mail_states_the_terms(database_url,
                                                                                          clock) -> None:
    """003 [18] ¶1: "ended at any time on any term proposed by a player ... unanimous. Failure to
    submit a vote will be treated as a vote in favour": Austria proposes, the others are silent;
    at the deadline the game ends instead of the adjudication and every player reads the terms."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "scorpion", movement=timedelta(days=7))
    answer = vote(services, clock, "AUSTRIA", END_LINE)
    assert ('You have proposed an end of the game on these terms: "Austria and England share a draw, France '
            'retires"') in answer
    with transaction(services.sessions) as session:
        number = session.scalar(select(ProposalRow.id).where(ProposalRow.kind == "end_game_any_terms"))
        told = [" ".join(m.raw.decode().split()) for m in session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "vote"))]
    assert len(told) == 3 and all(f"END GAME {number}" in t and "your silence counts as a vote for it" in t
                                  for t in told)
    status, _, mails = deadline(services, clock, game_id, hours=7 * 24 + 1)
    assert status == "finished"
    ended = [m for m in mails if "The game has ended by vote, on these terms: \"Austria and England share a "
                                 "draw, France retires\"." in m]
    assert len(ended) == 7  # every player, as for a draw (end_by_vote)


def test_end_game_any_terms_003_18_one_no_defeats_it(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = game_with(services, clock(), "scorpion", movement=timedelta(days=7))
    vote(services, clock, "AUSTRIA", END_LINE)
    with transaction(services.sessions) as session:
        number = session.scalar(select(ProposalRow.id))
    assert "recorded: No" in vote(services, clock, "FRANCE", f"END GAME {number} NO")
    status, report, _ = deadline(services, clock, game_id, hours=7 * 24 + 1)
    assert status == "active"
    assert 'An end of the game on these terms: "Austria and England share a draw, France retires" failed.' in report


def test_end_game_any_terms_003_18_the_gm_proposes_terms_in_words(database_url, clock) -> None:
    """003 [18] ¶1 "proposed by a player (or the GM)" (gm_may_propose): the GM casts no vote."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "scorpion", movement=timedelta(days=7))
    done = gm_controls.act(services, "votes", vote_gm.propose_by_gm, "end game: a three-way draw", now=clock())
    assert done.text.startswith('The GM proposed an end of the game on these terms: "a three-way draw"')
    assert done.announced == 3
    status, _, mails = deadline(services, clock, game_id, hours=7 * 24 + 1)
    assert status == "finished"
    assert any('The game has ended by vote, on these terms: "a three-way draw".' in m for m in mails)


def test_end_game_any_terms_is_not_offered_where_vote_kinds_leaves_it_out(database_url, clock) -> None:
    """vote_kinds = {concession, draw} (the default): an END GAME line is answered as not offered."""
    services = services_for(database_url)
    game_with(services, clock())
    assert "This game's house rules have no end of the game on any terms votes" in vote(
        services, clock, "AUSTRIA", END_LINE)


# --- the turn-length vote at the start (003 [23]) ----------------------------------------------

def _scorpion_start(services, clock) -> int:
    """A scorpion game in its first turn, its movement turns at the shortest choice (7 days)."""
    return game_with(services, clock(), "scorpion", movement=timedelta(days=7))


def test_turn_length_vote_003_23_plurality_at_the_first_deadline_sets_the_following_deadlines(database_url,
                                                                                            clock) -> None:
    """003 [23]: "the players may vote for one, two or three week deadlines": Austria and England
    vote 21 days, France's 10 days is refused and France stays silent; counted at the first deadline
    (the GM not voting, a silent player not counted): the report says 21 days and the next movement
    deadline is three weeks on."""
    services = services_for(database_url)
    game_id = _scorpion_start(services, clock)
    assert "Your vote for movement turns of 21 days is recorded" in vote(services, clock, "AUSTRIA", "TURN LENGTH 21")
    vote(services, clock, "ENGLAND", "turn length 3 weeks")
    assert "the house rules offer turns of 7, 14 or 21 days (003 [23])" in vote(
        services, clock, "FRANCE", "TURN LENGTH 10")
    with transaction(services.sessions) as session:
        assert session.get(Game, game_id).movement_seconds == 7 * 86400  # not yet: counted at the deadline
    status, report, mails = deadline(services, clock, game_id, hours=7 * 24 + 1)
    assert status == "active"
    assert ("The players voted on the length of a movement turn: from now on it lasts 21 days (3 weeks), the "
            "length with the most votes (house rules 003 [23]).") in report
    assert not any("voted for 21" in m or "France voted" in m for m in mails)
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        assert game.movement_seconds == 21 * 86400
        assert game.phase == "F1905M" and game.deadline - clock() >= timedelta(days=20)


def test_turn_length_vote_003_23_a_tie_goes_to_the_longer_and_silence_is_not_counted(database_url, clock) -> None:
    """003 [23] is silent on a tie, which goes to the longer deadline [P]; France, silent, is not
    counted."""
    services = services_for(database_url)
    game_id = _scorpion_start(services, clock)
    vote(services, clock, "AUSTRIA", "TURN LENGTH 7")
    vote(services, clock, "ENGLAND", "TURN LENGTH 14")
    _, report, _ = deadline(services, clock, game_id, hours=7 * 24 + 1)
    assert "from now on it lasts 14 days (2 weeks)" in report


def test_turn_length_vote_003_23_counted_when_every_player_has_voted(database_url, clock) -> None:
    """The vote is counted as soon as every power entitled to vote has voted; later ballots are
    refused, and no later turn holds the vote again."""
    services = services_for(database_url)
    game_id = _scorpion_start(services, clock)
    vote(services, clock, "AUSTRIA", "TURN LENGTH 14")
    vote(services, clock, "ENGLAND", "TURN LENGTH 14")
    assert "Every player has voted, so the votes were counted" in vote(services, clock, "FRANCE", "TURN LENGTH 21")
    with transaction(services.sessions) as session:
        assert session.get(Game, game_id).movement_seconds == 14 * 86400
        told = [" ".join(m.raw.decode().split()) for m in session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "gm-action"))]
    assert len(told) == 7 and all("from now on it lasts 14 days (2 weeks)" in t for t in told)
    assert "the votes were counted" in vote(services, clock, "FRANCE", "TURN LENGTH 7")
    deadline(services, clock, game_id, hours=7 * 24 + 1)
    assert "held in the game's first turn only" in vote(services, clock, "FRANCE", "TURN LENGTH 7", phase="F1905M")


def test_turn_length_vote_none_the_gm_sets_the_turn_length(database_url, clock) -> None:
    """turn_length_vote = none (every profile but 003): a TURN LENGTH line is refused in words."""
    services = services_for(database_url)
    game_with(services, clock())
    assert "this game's house rules have no vote on the turn length: the GM sets it" in vote(
        services, clock, "AUSTRIA", "TURN LENGTH 14")


# --- complaints about a passed draw and the one revote (002 DRAWS 5) ----------------------------

def _email_rules_draw_passes(services, clock) -> int:
    """email_rules (002): Austria proposes a draw of the three; "NVR = yes" (DRAWS 1) passes it
    at the deadline, before the Spring 1905 turn is adjudicated."""
    game_id = game_with(services, clock(), "email_rules")
    vote(services, clock, "AUSTRIA", "DRAW")
    status, _, mails = deadline(services, clock, game_id)
    assert status == "finished"
    ended = [m for m in mails if "The game has ended by vote: a draw between Austria, England and France." in m]
    assert len(ended) == 7
    assert all("final only if no majority of the players complains within 7 days (house rules 002 DRAWS 5)" in m
               and "COMPLAIN DRAW" in m for m in ended)
    return game_id


def test_draw_revote_002_draws_5_a_majority_of_complaints_reopens_the_game_for_one_revote(database_url,
                                                                                           clock) -> None:
    """002 DRAWS 5: "If the majority of players complain about a draw, one revote will be taken":
    England complains (1 of 3: no majority yet), France complains (2 of 3): the game is reopened
    in Spring 1905, the same draw is put to the vote again, France votes No and at the deadline
    the revote fails, so the turn is adjudicated and the game goes on."""
    services = services_for(database_url)
    game_id = _email_rules_draw_passes(services, clock)
    clock.advance(hours=24)
    answer = vote(services, clock, "ENGLAND", "COMPLAIN DRAW")
    assert "Your complaint about the draw is recorded. A revote is held if 2 of the 3 players" in answer
    assert "1 have complained so far" in answer
    assert "a majority of the players has complained: the game is reopened and one revote is held" in vote(
        services, clock, "FRANCE", "complain")
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        assert (game.status, game.phase) == ("active", "S1905M") and game.deadline > clock()
        told = [" ".join(m.raw.decode().split()) for m in session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "vote"))]
    assert sum("a revote on a draw between Austria, England and France has been proposed" in t for t in told) == 3
    assert "Your vote on a revote on a draw between Austria, England and France is recorded: No" in vote(
        services, clock, "FRANCE", "DRAW NO")
    status, report, _ = _past_the_revote_deadline(services, clock, game_id)
    assert status == "active"
    assert "A revote on a draw between Austria, England and France failed. Yes votes: 2 of 3." in report
    with transaction(services.sessions) as session:  # the Spring 1905 turn was adjudicated
        assert "S1905M" in queries.phases.adjudicated_phases(session, game_id)


def _past_the_deadline(services, clock, game_id: int, at_least_hours: int = 0) -> tuple[str, str, list[str]]:
    """`deadline` at the game's own deadline (a reopened game's, or a retreat turn's, is at the
    game's time of day)."""
    with transaction(services.sessions) as session:
        hours = (session.get(Game, game_id).deadline - clock()).total_seconds() / 3600
    assert hours >= at_least_hours
    return deadline(services, clock, game_id, hours=int(hours) + 1)


def _past_the_revote_deadline(services, clock, game_id: int) -> tuple[str, str, list[str]]:
    """The revote's deadline is a whole movement turn (48 hours here) from the reopening."""
    return _past_the_deadline(services, clock, game_id, at_least_hours=48)


def test_draw_revote_002_draws_5_a_passed_revote_is_final(database_url, clock) -> None:
    """One revote only: when it passes the game ends for good, with no second window."""
    services = services_for(database_url)
    game_id = _email_rules_draw_passes(services, clock)
    vote(services, clock, "ENGLAND", "COMPLAIN DRAW")
    vote(services, clock, "FRANCE", "COMPLAIN DRAW")
    status, _, mails = _past_the_revote_deadline(services, clock, game_id)
    assert status == "finished"
    final = [m for m in mails if "The game has ended by vote: a revote on a draw between Austria, England and "
                                 "France." in m]
    assert len(final) == 7 and not any("COMPLAIN DRAW" in m for m in final)
    assert "no draw has passed in this game that can still be complained about" in vote(
        services, clock, "ENGLAND", "COMPLAIN DRAW")


def test_draw_revote_002_draws_5_without_a_majority_in_7_days_the_draw_stands(database_url, clock) -> None:
    """"Players have one week to complain": England alone complains; France's complaint after
    the week is refused and the game stays over."""
    services = services_for(database_url)
    game_id = _email_rules_draw_passes(services, clock)
    vote(services, clock, "ENGLAND", "COMPLAIN DRAW")
    clock.advance(hours=7 * 24 + 1)
    assert "the 7 days for complaints are over, so the draw stands (house rules 002 DRAWS 5)" in vote(
        services, clock, "FRANCE", "COMPLAIN DRAW")
    with transaction(services.sessions) as session:
        assert session.get(Game, game_id).status == "finished"


def test_draw_revote_002_draws_5_the_sweep_closes_the_window_and_tells_every_player(database_url, clock) -> None:
    """After the week with no majority (England alone complained) the daemon's sweep closes the
    window once: every player reads that the draw stands for good."""
    services = services_for(database_url)
    game_id = _email_rules_draw_passes(services, clock)
    vote(services, clock, "ENGLAND", "COMPLAIN DRAW")
    assert draw_complaints.close_windows(services, clock()) == 0  # the week is not over
    clock.advance(hours=7 * 24 + 1)
    assert draw_complaints.close_windows(services, clock()) == 7
    assert draw_complaints.close_windows(services, clock()) == 0
    with transaction(services.sessions) as session:
        assert session.get(Game, game_id).status == "finished"
        told = [" ".join(m.raw.decode().split()) for m in session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "gm-action"))]
    assert sum("No majority of the players complained about the draw within 7 days, so the draw stands and the "
               "game is over for good (house rules 002 DRAWS 5)." in t for t in told) == 7
    assert "no draw has passed in this game that can still be complained about" in vote(
        services, clock, "FRANCE", "COMPLAIN DRAW")


def test_draw_revote_none_a_passed_draw_is_final_and_a_complaint_is_refused(database_url, clock) -> None:
    """draw_revote_on_majority_complaint_days = none (every profile but 002): no window is opened."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), overrides={"vote.draw.uncast": "yes"})
    vote(services, clock, "AUSTRIA", "DRAW")
    status, _, mails = deadline(services, clock, game_id)
    assert status == "finished" and not any("COMPLAIN DRAW" in m for m in mails)
    assert "this game's house rules hold no revote on complaints about a draw" in vote(
        services, clock, "ENGLAND", "COMPLAIN DRAW")


def test_draw_revote_002_draws_5_a_fall_draw_passed_after_winter_reopens_the_following_spring(database_url,
                                                                                               clock) -> None:
    """002 DRAWS 3 and 5: a Fall draw is tallied with the adjudication once the year is over
    (nobody adjusts here; the year ends with the Fall retreat turn held for press, 002 PRESS 7) and
    ends the game; a majority complains; the game is reopened in the phase it had reached, Spring
    1906, for the revote."""
    services = services_for(database_url)
    game_id = game_with(services, clock(), "email_rules", phase="F1905M")
    vote(services, clock, "AUSTRIA", "DRAW", phase="F1905M")
    status, _, mails = deadline(services, clock, game_id, hours=7 * 24 + 1)
    if status == "active":  # report_empty_retreat_season (002 PRESS 7): an empty Fall retreat season is held
        status, _, mails = _past_the_deadline(services, clock, game_id)
    assert status == "finished"
    assert any("COMPLAIN DRAW" in m for m in mails)
    vote(services, clock, "ENGLAND", "COMPLAIN DRAW", phase="F1905M")
    assert "the game is reopened" in vote(services, clock, "FRANCE", "COMPLAIN DRAW", phase="F1905M")
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        assert (game.status, game.phase) == ("active", "S1906M")
        assert queries.phases.current_record(session, game).state["name"] == "S1906M"
        assert [r.kind for r in session.scalars(select(ProposalRow).where(ProposalRow.status == "open"))] == [
            "draw_revote"]
