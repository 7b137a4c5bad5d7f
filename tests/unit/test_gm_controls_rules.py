"""The pure parts of the GM controls: reading GM command lines.2
`gm_command_auth`, and the start mail's key points. Expected values are worked out by hand from the clauses."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from gmserver.rules.briefing import example_orders, key_points
from gmserver.rules.gm_commands import authorisation_problem, command_digest, date_problem, mail_date, read_commands
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.ruleset_options import OPTIONS

KNOWN = {"deadline", "pause", "resume", "replace", "cd"}


@pytest.mark.parametrize("text, subject_game, expected, ignored", [
    ("pause", "lepanto", [("pause", "lepanto", ())], []),
    # the game after the command wins over the subject's
    ("pause vienna", "lepanto", [("pause", "vienna", ())], []),
    ("PAUSE Lepanto", None, [("pause", "lepanto", ())], []),
    ("deadline 2026-12-01T18:00+00:00", "lepanto", [("deadline", "lepanto", ("2026-12-01T18:00+00:00",))], []),
    ("replace lepanto FRANCE a@b.test,c@d.test", None, [("replace", "lepanto", ("FRANCE", "a@b.test,c@d.test"))], []),
    # no game anywhere: the command is read, and carrying it out says what is missing
    ("resume", None, [("resume", None, ())], []),
    # lines that are no command are listed back; a password line is neither
    ("Hello GM\nPassword: s3cret\ncd lepanto FRANCE off\nthanks", None,
     [("cd", "lepanto", ("FRANCE", "off"))], ["Hello GM", "thanks"]),
])
def test_command_lines_are_read_like_the_command_line(text, subject_game, expected, ignored) -> None:
    read = read_commands(text, known=KNOWN, game_names=["lepanto", "vienna"], subject_game=subject_game)
    assert [(c.name, c.game, c.args) for c in read.commands] == expected
    assert list(read.ignored) == ignored


def test_at_most_twenty_lines_are_read() -> None:
    read = read_commands("pause\n" * 30, known=KNOWN, game_names=["lepanto"], subject_game="lepanto")
    assert len(read.commands) == 20 and read.ignored == ("(the rest of the message: at most 20 lines are read)",)


@pytest.mark.parametrize("rule, from_gm, body, allowed", [
    # gm_command_auth = gm_address_and_secret [P]: the address and the game's secret
    ("gm_address_and_secret", True, "pause\nPassword: abc123", True),
    ("gm_address_and_secret", True, "pause\npassword = ABC123", True),  # secrets compare in any case
    ("gm_address_and_secret", True, "pause", False),  # From alone is no longer enough
    ("gm_address_and_secret", True, "pause\nPassword: wrong", False),
    ("gm_address_and_secret", False, "pause\nPassword: abc123", False),
    # gm_address_only: the GM's address suffices
    ("gm_address_only", True, "pause", True),
    ("gm_address_only", False, "pause", False),
])
def test_gm_command_auth_matrix_2_2(rule, from_gm, body, allowed) -> None:
    problem = authorisation_problem(rule, from_gm=from_gm, body=body, game_secret="abc123")
    assert (problem is None) == allowed


def test_gm_command_auth_without_a_game_secret_refuses_under_address_and_secret() -> None:
    assert "no GM secret" in authorisation_problem("gm_address_and_secret", from_gm=True, body="Password: x",
                                                   game_secret=None)


@pytest.mark.parametrize("profile, expected", [
    ("mhr", ["(000 II(2) b)", "(000 VII(3))", "at least 48 hours (000 VII(4))", "(000 VII(6) ¶2)"]),
    ("scorpion", ["are not used (003 [10])", "at least 168 hours (003 [23])", "never published (003 [4])",
                  # turn_length_vote: the start mail asks for the vote (003 [23])
                  "the players vote on the length of a movement turn: 7, 14 or 21 days",
                  "first line is TURN LENGTH", "the GM does not vote (003 [23])."]),
    ("danivon", ["After 2 missed turns in a row the GM decides", "(001 V(2))", "at least 72 hours (001 IV(4))"]),
    # QA: 002 ORDERS 0 "I will attempt to replace you" was not said to email_rules players
    ("email_rules", ["A player who misses 2 turns in a row is replaced: the GM looks for a new player to take "
                     "over the power (002 ORDERS 0)."]),
])
def test_start_mail_key_points_say_the_rules_in_words_with_their_clause(profile, expected) -> None:
    text = " ".join(key_points(load_ruleset(profile)))
    for words in expected:
        assert words in text
    # players never see option keys
    assert not [name for name in OPTIONS if "_" in name and name in text]


def test_the_two_season_year_is_told_at_the_start_003_5() -> None:
    """003 [5]: no Winter turn, retreats and builds sent with the moves. The start mail says so,
    from the option's value (a standard profile set to uk_two_season says it too, without a
    clause of its own), and says nothing of it under the standard year."""
    scorpion = " ".join(key_points(load_ruleset("scorpion")))
    assert "no Winter turn" in scorpion and "retreats and your builds or removals with your moves" in scorpion
    assert "'A Mun R Bur'" in scorpion and "the same report gives their results (003 [5])." in scorpion
    two_season = " ".join(key_points(load_ruleset("standard").with_overrides({"season_structure": "uk_two_season"})))
    assert "no Winter turn" in two_season and "(003 [5])" not in two_season
    assert not any("Winter" in point for point in key_points(load_ruleset("mhr")))


def test_the_worked_example_moves_one_unit_and_holds_the_others() -> None:
    position = Position(phase="S1901M", units={"FRANCE": ("A PAR", "F BRE")}, centers={"FRANCE": ("PAR", "BRE")})
    legal = {"PAR": ("A PAR - BUR", "A PAR H"), "BRE": ("F BRE - MAO", "F BRE H")}
    assert example_orders(position, "FRANCE", legal) == ["A PAR - BUR", "F BRE H"]
    retreat = dataclasses.replace(position, phase="S1901R")
    assert example_orders(retreat, "FRANCE", legal) == []


def test_the_worked_example_does_not_move_into_a_unit_of_its_own() -> None:
    """The others hold in the example: A BUR - BEL beside F BEL would bounce; the next legal
    move, to an empty province, is shown instead."""
    position = Position(phase="S1901M", units={"FRANCE": ("A BUR", "F BEL")}, centers={"FRANCE": ("BEL",)})
    legal = {"BUR": ("A BUR - BEL", "A BUR - GAS", "A BUR H"), "BEL": ("F BEL - NTH", "F BEL H")}
    assert example_orders(position, "FRANCE", legal) == ["A BUR - GAS", "F BEL H"]


def test_every_correction_command_is_carried_out_by_mail_not_sent_to_the_command_line() -> None:
    """A word both in the mail table and the list of commands not carried out by mail was answered
    "not carried out by mail yet" (a merge of two branches left rollback, preview, convoy,
    release and refuse in both), though the README says the GM may mail them. One registry now:
    each word names one command, carried out by mail or not."""
    from gmserver.commands.registry import BY_WORD

    assert {word for word in ("release", "refuse", "orders", "preview", "rollback", "convoy")
            if BY_WORD[word].by_mail} == {"release", "refuse", "orders", "preview", "rollback", "convoy"}


def test_turn_length_vote_none_the_start_mail_asks_for_no_vote() -> None:
    """turn_length_vote = none (every profile but 003 [23]): nothing to vote on at the start."""
    assert not any("TURN LENGTH" in point for point in key_points(load_ruleset("mhr")))
    ruleset = load_ruleset("mhr").with_overrides({"turn_length_vote": [7, 14]})
    assert any("7 or 14 days" in point for point in key_points(ruleset))


RECEIVED = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("header, problem", [
    ("Tue, 24 Nov 2026 11:58:00 +0000", None),
    ("Tue, 24 Nov 2026 13:30:00 +0100", None),  # the same moment in another zone
    ("Mon, 23 Nov 2026 12:30:00 +0000", None),  # a slow relay: within the day
    (None, "readable Date line"),
    ("yesterday", "readable Date line"),
    ("Tue, 24 Nov 2026 11:58:00 -0000", "readable Date line"),  # RFC 5322: zone unknown
    ("Sun, 22 Nov 2026 11:00:00 +0000", "more than 24 hours before it arrived"),
    ("Tue, 24 Nov 2026 14:00:00 +0000", "ahead of the server's clock"),
])
def test_a_gm_command_mail_needs_a_recent_date(header, problem) -> None:
    found = date_problem(mail_date(header), RECEIVED)
    assert found is None if problem is None else problem in found


def test_the_command_digest_is_the_same_for_a_copy_and_differs_for_a_new_mail() -> None:
    date = mail_date("Tue, 24 Nov 2026 11:58:00 +0000")
    assert date is not None
    first = command_digest("lepanto", "gm@gm.test", date, "extend 24")
    assert command_digest("Lepanto", "GM@gm.test", date, "extend   24") == first  # a copy, re-sent
    assert command_digest("lepanto", "gm@gm.test", date + timedelta(seconds=1), "extend 24") != first
    assert command_digest("lepanto", "gm@gm.test", date, "extend 48") != first
    # two mails written within the Date's second, the same command among others: two mails
    assert (command_digest("lepanto", "gm@gm.test", date, "rollback", "rollback\norders FRANCE A VIE - BUD")
            != command_digest("lepanto", "gm@gm.test", date, "rollback", "rollback"))
