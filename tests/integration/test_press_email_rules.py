"""Press under 002 (email_rules) on a real database (SQLite and PostgreSQL): press from non-players
(002 PRESS 2), the GM's spelling edits (002 PRESS 1, 3), press conditional on other press
(002 PRESS 4) and the retreat season held for press (002 PRESS 7)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, GmAction, OrderSet, OutboxMessage, Press
from gmserver.db.session import transaction
from gmserver.services.features import press_moderation
from gmserver.services.turn import turns
from gmserver.services.game.games import GameError
from tests.support.intake_rows import deliver as send, outbox_rows as outbox, plain_text as text, press_rows
from tests.support.world import new_game, order_mail, player_address, services_for, set_options

pytestmark = pytest.mark.integration

OUTSIDER = "kibitzer@elsewhere.test"


def words(row: OutboxMessage) -> str:
    return " ".join(text(row).split())


# --- 002 PRESS 2: press from non-players ----------------------------------------------------------

def test_002_press_2_a_non_player_sends_press_published_without_a_name(database_url, clock) -> None:
    """002 PRESS 2 "Anyone (including non-players) may send press from other sources": a stranger's
    unsigned press is grey press, kept for the report and published as from someone who plays no
    power, never like a player's anonymous press; the stranger is answered once (the limits on
    answering strangers)."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    row = send(services, order_mail(OUTSIDER, "lepanto", "PRESS\nThe gnomes are watching.\nEND PRESS"), clock())
    assert row.outcome == "press-filed"
    assert press_rows(services) == [("NON-PLAYER", "grey", "report")]
    [answer] = outbox(services, "stranger-notice")
    assert answer.recipient == OUTSIDER
    assert "You play no power in this game" in words(answer) and "(house rules 002 PRESS 2)" in words(answer)
    turns.adjudicate(services, game_id, clock(), force=True)
    report = text(outbox(services, "report")[0])
    # not "Anonymous", as a player's grey press: nobody takes a stranger's words for a fellow player's
    assert report.index("From someone who plays no power:") < report.index("The gnomes are watching.")
    assert "Anonymous" not in report
    assert "kibitzer" not in report and "NON-PLAYER" not in report
    # the GM, and only the GM, sees who sent it
    assert [item.author for item in press_moderation.press_list(services, "lepanto")] == [f"NON-PLAYER {OUTSIDER}"]


def test_002_press_2_a_non_player_may_not_sign_as_a_power_nor_as_zurich(database_url, clock) -> None:
    """002 PRESS 2: only current and eliminated players may sign as one of the seven powers, and
    nobody but the GM as "Zurich" (002 PRESS 6); a free label ("The Oracle") is taken."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    body = ("PRESS FROM England\nI am England.\nEND PRESS\n\nPRESS FROM Zurich\nI am the GM.\nEND PRESS\n\n"
            "PRESS FROM The Oracle\nBeware the ides.\nEND PRESS")
    send(services, order_mail(OUTSIDER, "lepanto", body), clock())
    assert press_rows(services) == [("NON-PLAYER", "black", "refused"), ("NON-PLAYER", "grey", "refused"),
                                    ("NON-PLAYER", "grey", "report")]
    told = words(outbox(services, "stranger-notice")[0])
    assert ("the signature \"England\" is reserved for the game's current and eliminated players "
            "(house rules 002 PRESS 2)") in told
    assert "the signature \"Zurich\" is reserved for the GM (house rules 002 PRESS 6)" in told


def test_002_press_2_a_non_players_partial_press_says_it_comes_from_no_player(database_url, clock) -> None:
    """002 PRESS 2: a stranger's unsigned press mailed at once to the powers it names is headed as
    from someone who plays no power, never as a player's "Anonymous press"."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(OUTSIDER, "lepanto", "PRESS TO England\nThe gnomes are watching.\nEND PRESS"), clock())
    [mail] = outbox(services, "press")
    assert mail.recipient == player_address("ENGLAND")
    assert "Press from someone who plays no power in lepanto" in words(mail)
    assert "Anonymous" not in words(mail) and "kibitzer" not in mail.raw.decode("utf-8", "replace")


@pytest.mark.parametrize("label", ["Ital y", "Frankreich", "Itа1y", "The Italian"])
def test_002_press_2_a_non_player_may_not_sign_with_a_power_name_however_spelt(database_url, clock, label) -> None:
    """002 PRESS 2: press "purporting to be from one of the seven powers" is for the game's players
    alone; a power's name spaced out, in another language or with look-alike letters purports so
    as much as the name itself, and is refused with the power it reads as."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(OUTSIDER, "lepanto", f"PRESS FROM {label}\nI am Italy, trust me.\nEND PRESS"), clock())
    [(author, _, status)] = press_rows(services)
    assert (author, status) == ("NON-PLAYER", "refused")
    told = words(outbox(services, "stranger-notice")[0])
    power = "France" if label == "Frankreich" else "Italy"
    assert (f"the signature \"{label}\" reads as {power}, and press signed with a power's name is accepted only "
            "from the game's current and eliminated players (house rules 002 PRESS 2)") in told


def test_002_press_2_orders_from_a_non_player_are_refused_and_its_press_kept(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(OUTSIDER, "lepanto", "A PAR - BUR\n\nPRESS\nOn to Burgundy!\nEND PRESS"), clock())
    with transaction(services.sessions) as session:
        assert list(session.scalars(select(OrderSet))) == []
    assert press_rows(services) == [("NON-PLAYER", "grey", "report")]
    assert "The orders in your message were not used: you play no power in this game." in words(
        outbox(services, "stranger-notice")[0])


def test_002_press_2_non_player_press_is_answered_once_a_day_and_capped_per_turn(database_url, clock) -> None:
    """The intake's protections stand: a stranger is answered once a day, and a flood (forged
    senders) publishes at most NON_PLAYER_PRESS_PER_TURN (5) items a turn."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    for n in range(4):
        send(services, order_mail(OUTSIDER, "lepanto", f"PRESS\nSpam {n}.\nEND PRESS"), clock())
    for n in range(3):
        send(services, order_mail(f"forged{n}@elsewhere.test", "lepanto", f"PRESS\nMore {n}.\nEND PRESS"), clock())
    statuses = [status for _, _, status in press_rows(services)]
    assert statuses == ["report"] * 5 + ["refused"] * 2
    assert [m.recipient for m in outbox(services, "stranger-notice")] == [
        OUTSIDER, "forged0@elsewhere.test", "forged1@elsewhere.test", "forged2@elsewhere.test"]


def test_002_press_2_a_player_of_the_game_still_signs_as_a_power(database_url, clock) -> None:
    """002 PRESS 2: a current player may send black press signed as another power."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(player_address("GERMANY"), "lepanto", "PRESS FROM France\nVive moi.\nEND PRESS"),
         clock())
    assert press_rows(services) == [("GERMANY", "black", "report")]


@pytest.mark.parametrize("signature", ["The Pope", "Italia", "Rome"])
def test_002_press_1_black_press_is_published_under_the_name_its_author_chose(database_url, clock, signature) -> None:
    """002 PRESS 1 (black press "claims to be from France but is really from Germany"; "Black press
    and White press are not differentiated by GMs"): the signature is the author's chosen text,
    published as the author was told, never replaced by the author's own power."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(player_address("FRANCE"), "lepanto",
                              f"BLACK PRESS FROM {signature}\nRepent, Europe.\nEND PRESS"), clock())
    assert press_rows(services) == [("FRANCE", "black", "report")]
    assert f"will be published signed \"{signature}\" with the turn report" in words(outbox(services, "notice")[0])
    turns.adjudicate(services, game_id, clock(), force=True)
    report = text(outbox(services, "report")[0])
    assert report.index(f"From {signature}:") < report.index("Repent, Europe.")
    assert "From France" not in report


def test_002_press_1_a_partial_black_heading_goes_to_the_named_power_only(database_url, clock) -> None:
    """BLACK PRESS FROM Italy TO England: press to England alone, signed Italy (002 PRESS 1), never
    widened to every power nor published under its author's name."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(player_address("FRANCE"), "lepanto",
                              "BLACK PRESS FROM Italy TO England\nI shall take Trieste.\nEND PRESS"), clock())
    assert press_rows(services) == [("FRANCE", "black", "sent")]
    [mail] = outbox(services, "press")
    assert mail.recipient == player_address("ENGLAND")
    assert "Press from Italy in lepanto" in words(mail) and "I shall take Trieste." in words(mail)
    assert "france" not in mail.raw.decode("utf-8", "replace").lower()
    turns.adjudicate(services, game_id, clock(), force=True)
    assert "I shall take Trieste." not in text(outbox(services, "report")[0])


def test_002_press_1_a_heading_that_cannot_be_read_is_refused_not_widened(database_url, clock) -> None:
    """A recipient that is no power is refused, with a heading that would have been read; the press
    is sent to nobody rather than to everybody."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(player_address("FRANCE"), "lepanto",
                              "BLACK PRESS FROM Italy TO Englnad\nI shall take Trieste.\nEND PRESS"), clock())
    assert outbox(services, "press") == []
    told = words(outbox(services, "notice")[0])
    assert ("\"Englnad\" in \"BLACK PRESS FROM Italy TO Englnad\" is not one of the powers; a heading like "
            "\"BLACK PRESS FROM The Pope TO England, Italy\" would have been read") in told
    turns.adjudicate(services, game_id, clock(), force=True)
    assert "I shall take Trieste." not in text(outbox(services, "report")[0])


def test_without_press_from_non_players_a_stranger_is_refused(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    set_options(services, game_id, press_from_non_players=False)
    row = send(services, order_mail(OUTSIDER, "lepanto", "PRESS\nHello.\nEND PRESS"), clock())
    assert row.outcome == "rejected"
    assert press_rows(services) == [] and len(outbox(services, "stranger-refusal")) == 1


# --- 002 PRESS 7: the retreat season is held even with nothing to retreat -----------------------

def game_row(services, game_id: int) -> tuple[str, object]:
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        return game.phase, game.deadline


def test_002_press_7_a_retreat_season_with_nothing_to_retreat_is_held_for_press(database_url, clock) -> None:
    """002 PRESS 7 "Press will be allowed for the retreat season, even if there are no retreats that
    season": the opening moves dislodge nobody, yet Spring 1901 Retreats is a turn of its own, with
    the retreat turn's length (24 hours in new_game) and its own report, which publishes the press
    sent in it; then the game goes on to Fall 1901."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    now = clock()
    spring_deadline = game_row(services, game_id)[1]
    turns.adjudicate(services, game_id, now, force=True)  # every unit holds: nobody is dislodged
    phase, deadline = game_row(services, game_id)
    assert phase == "S1901R"
    # the schedule runs from the spring deadline, the retreat turn's 24 hours after it
    assert deadline is not None and deadline - spring_deadline == timedelta(hours=24)
    first_report = words(outbox(services, "report")[0])
    assert ("NEXT: Spring 1901 Retreats (S1901R) Nothing has to retreat: this turn is held so that press may be "
            "sent (house rules 002 PRESS 7).") in first_report
    send(services, order_mail(player_address("ITALY"), "lepanto", "PRESS\nA quiet spring.\nEND PRESS"), now)
    turns.adjudicate(services, game_id, now, force=True)
    assert game_row(services, game_id)[0] == "F1901M"
    reports = outbox(services, "report")
    assert len(reports) == 14  # seven players, two turns
    assert "A quiet spring." in text(reports[-1]) and "A quiet spring." not in text(reports[0])


def test_without_report_empty_retreat_season_the_empty_retreat_turn_is_skipped(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    set_options(services, game_id, report_empty_retreat_season=False)
    turns.adjudicate(services, game_id, clock(), force=True)
    assert game_row(services, game_id)[0] == "F1901M"


# --- 002 PRESS 1, 3: the GM corrects spelling and punctuation unless the author declines ---------

def press_ids(services) -> list[int]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(Press.id).order_by(Press.id)))


def test_002_press_3_the_gm_corrects_spelling_and_the_report_publishes_the_edit(database_url, clock) -> None:
    """002 PRESS 1 "Press may be edited", PRESS 3 "Spelling and punctuation errors may be corrected in
    press unless a player specifically requests otherwise": the author is told so, the GM's edit is
    recorded with both texts, and the report publishes the corrected text."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(player_address("ENGLAND"), "lepanto", "PRESS\nFrance is teh enemy\nEND PRESS"), clock())
    told = words(outbox(services, "notice")[0])
    assert ("The GM may correct its spelling and punctuation (house rules 002 PRESS 3); a line \"NO EDITS\" in "
            "the press asks the GM not to.") in told
    [press_id] = press_ids(services)
    result = press_moderation.edit(services, "lepanto", press_id, "France is the enemy.\n", "cli", clock())
    assert result == f"press item {press_id} edited: the report will publish the new text"
    with transaction(services.sessions) as session:
        [action] = session.scalars(select(GmAction)).all()
        assert (action.action, action.by, action.arguments) == ("press edit", "cli", {
            "press_id": press_id, "before": "France is teh enemy", "after": "France is the enemy."})
    turns.adjudicate(services, game_id, clock(), force=True)
    report = text(outbox(services, "report")[0])
    assert "France is the enemy." in report and "teh" not in report


def test_002_press_3_press_marked_no_edits_is_published_as_written(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(player_address("ENGLAND"), "lepanto", "PRESS\nTeh end is nigh\nNO EDITS\nEND PRESS"),
         clock())
    told = words(outbox(services, "notice")[0])
    assert "It will be published exactly as written: you asked for no edits (house rules 002 PRESS 3)." in told
    [press_id] = press_ids(services)
    with pytest.raises(GameError, match=r"its author asked for no edits \(\"NO EDITS\"\), so it is published as "
                                        r"written \(house rules 002 PRESS 3\)"):
        press_moderation.edit(services, "lepanto", press_id, "The end is nigh\nNO EDITS", "cli", clock())


def test_002_press_3_an_edit_is_spelling_not_rewriting_and_never_of_published_press(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(player_address("ENGLAND"), "lepanto", "PRESS\nFrance is teh enemy\nEND PRESS"), clock())
    [press_id] = press_ids(services)
    with pytest.raises(GameError, match="changes more than spelling and punctuation"):
        press_moderation.edit(services, "lepanto", press_id, "Germany is our friend, long live the Kaiser", "cli",
                              clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    with pytest.raises(GameError, match="only press not yet published can be edited"):
        press_moderation.edit(services, "lepanto", press_id, "France is the enemy", "cli", clock())


def test_press_editing_none_publishes_press_as_written(database_url, clock) -> None:
    """000 X(1) allows refusing press, not editing it (press_editing none)."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="mhr")
    send(services, order_mail(player_address("ENGLAND"), "lepanto", "PRESS\nFrance is teh enemy\nEND PRESS"), clock())
    assert "spelling" not in words(outbox(services, "notice")[0])
    [press_id] = press_ids(services)
    with pytest.raises(GameError, match="press is published exactly as written in this game"):
        press_moderation.edit(services, "lepanto", press_id, "France is the enemy", "cli", clock())


def test_the_gm_edits_press_from_the_command_line(tmp_path, capsys, clock) -> None:
    from gmserver.cli import main
    from tests.support.world import GM

    url = f"sqlite:///{tmp_path / 'gm.db'}"
    config = tmp_path / "gmserver.toml"
    config.write_text(f'[database]\nurl = "{url}"\n[gm]\naddress = "{GM}"\n')
    assert main(["--config", str(config), "db", "upgrade"]) == 0
    services = services_for(url)
    new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(player_address("ITALY"), "lepanto", "PRESS\nPasta for al\nEND PRESS"), clock())
    [press_id] = press_ids(services)
    corrected = tmp_path / "press.txt"
    corrected.write_text("Pasta for all!\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["--config", str(config), "press", "edit", "lepanto", str(press_id), "--file", str(corrected)]) == 0
    assert "edited" in capsys.readouterr().out
    with transaction(services.sessions) as session:
        assert session.get(Press, press_id).text == "Pasta for all!"


# --- 002 PRESS 4: press conditional on other press -------------------------------------------------

def test_002_press_4_press_conditional_on_other_press_is_decided_when_the_report_is_published(
        database_url, clock) -> None:
    """002 PRESS 4 "Press can be conditional on moves and other press": item 2 waits for item 1
    (England's), Germany's waits for England's to stay unpublished, Italy's for Russia's (none):
    the report publishes 1 and 2; Germany and Italy are told theirs was not published."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="email_rules")
    messages = [("ENGLAND", "PRESS\nThe fleet sails at dawn.\nEND PRESS"),
                ("FRANCE", "PRESS IF PRESS ITEM 1 IS PUBLISHED\nAnd France sails with it.\nEND PRESS"),
                ("GERMANY", "PRESS UNLESS ENGLAND'S PRESS IS PUBLISHED\nAll quiet in the north.\nEND PRESS"),
                ("ITALY", "PRESS IF RUSSIA'S PRESS IS PUBLISHED\nThe Tsar speaks!\nEND PRESS")]
    for power, body in messages:
        send(services, order_mail(player_address(power), "lepanto", body), clock())
    told = {m.recipient: words(m) for m in outbox(services, "notice")}
    assert "(Press item 1.)" in told[player_address("ENGLAND")]
    assert ("with the turn report, to every power if its condition (\"PRESS ITEM 1 IS PUBLISHED\") holds in "
            "what the same report publishes.") in told[player_address("FRANCE")]
    turns.adjudicate(services, game_id, clock(), force=True)
    report = text(outbox(services, "report")[0])
    assert "The fleet sails at dawn." in report and "And France sails with it." in report
    assert "All quiet in the north." not in report and "The Tsar speaks!" not in report
    assert [status for _, _, status in press_rows(services)] == ["report", "report", "condition_false",
                                                                 "condition_false"]
    assert sorted(m.recipient for m in outbox(services, "notice")[4:]) == [player_address("GERMANY"),
                                                                          player_address("ITALY")]


def test_002_press_4_a_vague_or_unknown_press_condition_is_refused_with_a_reason(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), ruleset="email_rules")
    send(services, order_mail(player_address("AUSTRIA"), "lepanto",
                              "PRESS IF THE PRESS IS FUNNY\nHa.\nEND PRESS\n\n"
                              "PRESS IF PRESS ITEM 99 IS PUBLISHED\nHo.\nEND PRESS"), clock())
    told = words(outbox(services, "notice")[0])
    assert ("the condition \"THE PRESS IS FUNNY\" speaks of press but is not one the server can decide: write "
            "\"if press item 12 is published\" or \"if England's press is published\" (house rules 002 PRESS 4)") in told
    assert "press item 99 is not waiting for this turn's report (house rules 002 PRESS 4)" in told
    assert [status for _, _, status in press_rows(services)] == ["refused", "refused"]


def test_conditional_press_moves_003_9_refuses_conditions_on_other_press(database_url, clock) -> None:
    """003 [9] "Press submitted may be conditional on the season's moves": not on other press."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="scorpion")
    set_options(services, game_id, press_moderation="auto_with_gm_withhold")
    send(services, order_mail(player_address("FRANCE"), "lepanto",
                              "PRESS IF ENGLAND'S PRESS IS PUBLISHED\nMe too.\nEND PRESS"), clock())
    assert ("press may be conditional on the season's moves, not on other press, in this game "
            "(house rules 003 [9])") in words(outbox(services, "notice")[0])
