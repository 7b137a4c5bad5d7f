"""Who may send what: the pure intake decision, table-driven per house rule."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest

from gmserver.rules.authenticity import reply_token
from gmserver.rules.envelope import parse_envelope
from gmserver.rules.intake import Accept, GameView, Hold, Ignore, Reject, body_heading, decide, players_reply_tokens
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from tests.support.world import order_mail

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
PLAYERS = {"FRANCE": ("fr@p.test", "fr2@p.test"), "GERMANY": ("de@p.test", None)}


def game(profile: str = "standard", *, name: str = "lepanto", phase: str = "S1901M", game_id: int = 1,
         deadline: datetime | None = NOW + timedelta(days=1), **overrides) -> GameView:
    ruleset = load_ruleset(profile)
    if overrides:
        ruleset = ruleset.with_overrides(overrides)
    return GameView(id=game_id, name=name, ruleset=ruleset, phase=phase, deadline=deadline, status="active",
                    players=PLAYERS)


def envelope(sender: str, subject: str, **headers: str):
    return parse_envelope(order_mail(sender, subject, "A PAR H", headers=headers))


def good_subject(g: GameView, power: str = "FRANCE") -> str:
    return format_subject(template=g.ruleset.subject_template, game_name=g.name, power=power, phase=g.phase,
                          purpose="orders")


@pytest.mark.parametrize("profile", ["standard", "mhr", "danivon", "email_rules", "scorpion", "gwm"])
def test_the_profiles_own_subject_is_accepted(profile: str) -> None:
    g = game(profile)
    decision = decide(envelope("fr@p.test", good_subject(g)), [g], NOW)
    assert isinstance(decision, Accept) and (decision.power, decision.phase) == ("FRANCE", "S1901M")


def test_fallback_address_under_registered_with_fallback() -> None:
    """sender_policy = registered_with_fallback (003 [4])."""
    g = game("scorpion")
    assert isinstance(decide(envelope("fr2@p.test", good_subject(g)), [g], NOW), Accept)


def test_fallback_address_refused_under_registered_only() -> None:
    """sender_policy = registered_only: the primary address only."""
    g = game(sender_policy="registered_only")
    decision = decide(envelope("fr2@p.test", good_subject(g)), [g], NOW)
    assert isinstance(decision, Reject) and "not registered" in decision.reasons[0]


@pytest.mark.parametrize(("sender", "subject", "fragment"), [
    ("stranger@x.test", "hello", "not registered as a player in any game"),
    ("de@p.test", "lepanto France S1901M", "registered for Germany"),
    ("fr@p.test", "orders", "does not name your game"),
])
def test_refusals_say_why(sender: str, subject: str, fragment: str) -> None:
    decision = decide(envelope(sender, subject), [game()], NOW)
    assert isinstance(decision, Reject)
    assert fragment in " ".join(decision.reasons)


def test_refusal_offers_a_subject_that_would_be_accepted() -> None:
    g = game("mhr")
    decision = decide(envelope("fr@p.test", "my orders"), [g], NOW)
    assert isinstance(decision, Reject) and decision.expected_subject
    assert isinstance(decide(envelope("fr@p.test", decision.expected_subject), [g], NOW), Accept)


def test_wrong_season_is_refused_000_II_2_b() -> None:
    """000 II(2) b: season and year are required data; a wrong one is refused (season_mismatch_policy)."""
    g = game("mhr", phase="F1901M")
    subject = format_subject(template="mhr", game_name="lepanto", power="FRANCE", phase="S1901M", purpose="orders")
    decision = decide(envelope("fr@p.test", subject), [g], NOW)
    assert isinstance(decision, Reject) and decision.expected_subject


def test_reply_to_a_report_is_flagged_003_10() -> None:
    """003 [10]: "do not just reply to an adjudication"."""
    g = game("scorpion", phase="F1901M")
    report = format_subject(template="scorpion", game_name="lepanto", power="FRANCE", phase="S1901M",
                            purpose="report")
    decision = decide(envelope("fr@p.test", "Re: " + report), [g], NOW)
    assert isinstance(decision, Reject) and "reply to a results report" in " ".join(decision.reasons)


def test_accept_with_warning_policy_002() -> None:
    """nonconforming_subject_policy = accept_with_warning (002, silent): used, with a note."""
    g = game("email_rules", subject_required_fields=["game", "power"])
    decision = decide(envelope("fr@p.test", "lepanto orders"), [g], NOW)
    assert isinstance(decision, Accept) and decision.warnings


def test_late_orders_refused_when_accepted_until_deadline_003_10() -> None:
    """003 [10]: orders_accepted_until = deadline."""
    g = game("scorpion", deadline=NOW - timedelta(minutes=1))
    decision = decide(envelope("fr@p.test", good_subject(g)), [g], NOW)
    assert isinstance(decision, Reject) and "deadline" in decision.reasons[0]


def test_late_orders_used_until_adjudication_starts_000_VII_3() -> None:
    """000 VII(3): orders_accepted_until = adjudication_start."""
    g = game("mhr", deadline=NOW - timedelta(minutes=1))
    assert isinstance(decide(envelope("fr@p.test", good_subject(g)), [g], NOW), Accept)


@pytest.mark.parametrize("headers", [{"Auto-Submitted": "auto-replied"}, {"Precedence": "bulk"},
                                     {"Return-Path": "<>"}, {"List-Id": "<players.lists.test>"}])
def test_automated_mail_is_ignored_never_answered(headers: dict[str, str]) -> None:
    decision = decide(envelope("fr@p.test", good_subject(game()), **headers), [game()], NOW)
    assert isinstance(decision, Ignore)


def test_the_game_named_in_the_subject_wins_among_several() -> None:
    first, second = game(name="lepanto", game_id=1), game(name="zurich", game_id=2)
    decision = decide(envelope("fr@p.test", good_subject(second)), [first, second], NOW)
    assert isinstance(decision, Accept) and decision.game.name == "zurich"


def test_hostile_headers_do_not_raise() -> None:
    raw = b"From: =?utf-8?q?broken\r\nSubject: =?x-unknown?b?////?=\r\nMessage-ID: <\r\n\r\nA PAR H\r\n"
    decision = decide(parse_envelope(raw), [game()], NOW)
    assert isinstance(decision, (Reject, Ignore))


@pytest.mark.parametrize("profile", ["standard", "mhr", "danivon", "email_rules", "scorpion", "gwm"])
def test_press_requests_and_votes_need_only_the_game_in_the_subject(profile: str) -> None:
    """The subject rules (docs/rulesets.md 2.1) are an order set's: a status request, press or a vote
    (gmserver.rules.mailkind) names the game, and may come after the deadline or answer a report."""
    g = game(profile, name="Dc179 [BlackMarch]" if profile == "mhr" else "lepanto")
    late = NOW + timedelta(days=3)
    subject = "Re: Dc179 results S1900" if profile == "mhr" else "Re: lepanto results Spring 1900"
    if profile != "mhr" and g.ruleset.nonconforming_subject_policy != "accept_with_warning":
        # held for the GM under hold_for_gm (001 II(4)), refused elsewhere: never accepted as it is
        expected = Hold if g.ruleset.nonconforming_subject_policy == "hold_for_gm" else Reject
        assert isinstance(decide(envelope("fr@p.test", "lepanto"), [g], NOW), expected)
    for text in (subject, "Dc179 status" if profile == "mhr" else "lepanto status"):
        decision = decide(envelope("fr@p.test", text), [g], late, orders=False)
        assert isinstance(decision, Accept) and decision.power == "FRANCE", (text, decision)
    assert decide(envelope("x@elsewhere.test", "lepanto status"), [g], NOW, orders=False) == \
        decide(envelope("x@elsewhere.test", "lepanto status"), [g], NOW)  # strangers are refused alike


@pytest.mark.parametrize(("profile", "overrides", "expected"), [
    ("danivon", {}, Hold),  # 001 II(4) "may, but is not required to accept"
    ("mhr", {}, Reject),  # 000 II(2) c
    ("standard", {"nonconforming_subject_policy": "hold_for_gm"}, Hold),
])
def test_a_nonconforming_subject_is_held_under_hold_for_gm_001_II_4(profile, overrides, expected) -> None:
    g = game(profile, name="lepanto", **overrides)
    decision = decide(envelope("fr@p.test", "lepanto France"), [g], NOW)
    assert isinstance(decision, expected)
    if expected is Hold:
        assert decision.option == "nonconforming_subject_policy"
        assert (decision.accept.power, decision.accept.phase) == ("FRANCE", "S1901M")
        assert decision.reasons and decision.expected_subject == good_subject(g)


def test_a_set_for_another_turn_is_held_for_that_turn_under_season_mismatch_hold_for_gm() -> None:
    g = game("standard", season_mismatch_policy="hold_for_gm")
    decision = decide(envelope("fr@p.test", "lepanto France F1901M"), [g], NOW)
    assert isinstance(decision, Hold) and decision.option == "season_mismatch_policy"
    assert decision.accept.phase == "F1901M"
    assert isinstance(decide(envelope("fr@p.test", "lepanto France F1901M"), [game("standard")], NOW), Reject)


def test_a_held_set_after_the_deadline_is_refused_like_any_late_set_003_10() -> None:
    g = game("danivon", orders_accepted_until="deadline")
    late = NOW + timedelta(days=2)
    assert isinstance(decide(envelope("fr@p.test", "lepanto France"), [g], late), Reject)


def addressed(to: str, *, cc: str | None = None, subject: str, body: str = "A PAR H") -> bytes:
    message = EmailMessage()
    message["From"] = "fr@p.test"
    message["To"] = to
    if cc:
        message["Cc"] = cc
    message["Subject"] = subject
    message.set_content(body)
    return message.as_bytes()


@pytest.mark.parametrize(("to", "cc", "accepted"), [
    ("gm@gm.test", None, True),
    ("Game Master <GM@gm.test>, ally@p.test", None, True),
    ("gm+Secret123@gm.test", None, True),  # a reply to the GM's own mail: the same mailbox
    ("ally@p.test", "gm@gm.test", False),  # a copy of mail to another player
    ("undisclosed-recipients:;", None, False),  # Bcc
])
def test_order_mail_must_be_addressed_to_the_gm_000_II_2_a(to: str, cc: str | None, accepted: bool) -> None:
    """000 II(2) a: order mail must be addressed "To" the GM's order address, not CC or BCC
    (recipient_header_rule = to_only); the refusal says so in words, with the clause."""
    g = game("mhr")
    decision = decide(parse_envelope(addressed(to, cc=cc, subject=good_subject(g))), [g], NOW,
                      gm_address="gm@gm.test")
    assert isinstance(decision, Accept) is accepted
    if not accepted:
        assert isinstance(decision, Reject)
        assert decision.reasons[0] == ("Orders must be sent with the GM's address (gm@gm.test) in the To line, "
                                       "not as a copy (Cc or Bcc) (house rules 000 II(2) a).")
        assert "recipient_header_rule" not in " ".join(decision.reasons)


@pytest.mark.parametrize("profile", ["standard", "danivon", "email_rules", "scorpion", "gwm"])
def test_a_copied_order_set_is_read_where_the_house_rules_do_not_ask_for_to(profile: str) -> None:
    """recipient_header_rule = any (001, 002, 003, 004 silent): a Cc to the GM counts."""
    g = game(profile)
    decision = decide(parse_envelope(addressed("ally@p.test", cc="gm@gm.test", subject=good_subject(g))), [g],
                      NOW, gm_address="gm@gm.test")
    assert isinstance(decision, Accept)


def test_press_copied_to_the_gm_is_not_order_mail_000_II_2_a() -> None:
    """000 II(2) a speaks of order mail: press or a request sent as a copy is still read."""
    g = game("mhr")
    decision = decide(parse_envelope(addressed("ally@p.test", cc="gm@gm.test", subject="lepanto press")), [g],
                      NOW, orders=False, gm_address="gm@gm.test")
    assert isinstance(decision, Accept)


@pytest.mark.parametrize(("body", "heading"), [
    ("LEPANTO - FRANCE - s1901\nA Par - Bur\n", "LEPANTO - FRANCE - s1901"),
    ("\n\nGame: lepanto\nFrance, Spring 1901\n\nA Par - Bur\n", "Game: lepanto France, Spring 1901"),
    ("lepanto\nFrance\nSpring 1901\nA Par - Bur", "lepanto France"),  # two lines at most
    ("A Par - Bur\nlepanto France s1901", ""),  # after the first order: not a heading
    ("Army Paris - Burgundy", ""),
    ("fleet brest hold", ""),
    ("", ""),
])
def test_body_heading_is_the_first_lines_before_any_order(body: str, heading: str) -> None:
    assert body_heading(body) == heading


def test_game_power_and_turn_may_be_in_the_first_lines_003_10() -> None:
    """003 [10]: every set should carry game name, country and season, "most convenient" in the
    subject: under subject_location = subject_or_body the first lines of the message count."""
    g = game("scorpion")
    body = f"{good_subject(g)}\nA Par - Bur\n"
    decision = decide(parse_envelope(addressed("gm@gm.test", subject="my orders", body=body)), [g], NOW, body=body)
    assert isinstance(decision, Accept) and (decision.power, decision.phase) == ("FRANCE", "S1901M")
    assert not decision.warnings


def test_the_lines_read_with_the_subject_are_said_to_be_the_heading_003_10() -> None:
    """003 [10]: the reply says of the first lines the subject was read with what they were used
    for, not "Not an order." (QA walkthrough); a line further down that says the same stays what
    the reader made of it, and so does a heading under a complete subject (it was not needed)."""
    from gmserver.rules.intake import heading_lines_read
    from gmserver.rules.reading.model import LineReading

    g = game("scorpion")
    body = "LEPANTO\nFrance, spring 1901\nA Par - Bur\nLEPANTO\n"
    decision = decide(parse_envelope(addressed("gm@gm.test", subject="my orders", body=body)), [g], NOW, body=body)
    assert isinstance(decision, Accept) and decision.subject.from_body == ("LEPANTO", "France, spring 1901")
    lines = [LineReading(1, "LEPANTO", "ignored", None, None, "Not an order."),
             LineReading(2, "France, spring 1901", "ignored", None, None, "Not an order."),
             LineReading(3, "A Par - Bur", "accepted", None, None, None),
             LineReading(4, "LEPANTO", "ignored", None, None, "Not an order.")]
    said = [line.message for line in heading_lines_read(lines, decision.subject, g.ruleset)]
    heading = "Read with the subject as the game, power and turn line (house rules 003 [10])."
    assert said == [heading, heading, None, "Not an order."]
    complete = decide(parse_envelope(addressed("gm@gm.test", subject=good_subject(g), body=body)), [g], NOW, body=body)
    assert isinstance(complete, Accept) and complete.subject.from_body == ()


def test_a_subject_naming_only_the_game_is_completed_by_the_body_003_10() -> None:
    g = game("scorpion")
    body = "France, spring 1901\nA Par - Bur\n"
    decision = decide(parse_envelope(addressed("gm@gm.test", subject="LEPANTO", body=body)), [g], NOW, body=body)
    assert isinstance(decision, Accept) and decision.phase == "S1901M" and not decision.warnings


def test_the_body_is_not_read_for_the_subject_under_000_II_2_b() -> None:
    """000 II(2) b: the data must be "in the Subject line" (subject_location = subject_only): the
    same message is refused under mhr, with the subject that would be accepted."""
    g = game("mhr")
    body = f"{good_subject(g)}\nA Par - Bur\n"
    decision = decide(parse_envelope(addressed("gm@gm.test", subject="my orders", body=body)), [g], NOW, body=body)
    assert isinstance(decision, Reject) and decision.expected_subject == good_subject(g)


def test_the_body_never_overrides_a_complete_subject() -> None:
    """subject_or_body: what the subject lacks may come from the body; a subject that says it all is
    read alone (a quoted line further down cannot change the turn)."""
    g = game("scorpion")
    body = "LEPANTO - GERMANY - f1902\nA Par - Bur\n"
    decision = decide(parse_envelope(addressed("gm@gm.test", subject=good_subject(g), body=body)), [g], NOW,
                      body=body)
    assert isinstance(decision, Accept) and (decision.power, decision.phase) == ("FRANCE", "S1901M")


def test_players_reply_tokens_are_every_power_s_tokens_of_the_accepted_periods() -> None:
    """What intake does not look up as a one-time address (an address change's, an offer's): the
    reply tokens of the games' powers, of the current turn and the last, none for a power without
    a password."""
    moved = dataclasses.replace(game(), secrets={"FRANCE": "secretfrance", "ENGLAND": None},
                                periods=("F1901M", "S1901M"))
    other = dataclasses.replace(game(game_id=2, name="other"), secrets={"ITALY": "secretitaly"})
    assert players_reply_tokens([moved, other]) == {
        reply_token("secretfrance", "F1901M"), reply_token("secretfrance", "S1901M"),
        reply_token("secretitaly", other.phase)}
    assert players_reply_tokens([]) == frozenset()
