"""The GM's controls from the command line; the command names are a contract:
`gmserver game deadline NAME ISO-TIME`, `game pause NAME`, `game resume NAME`, `game replace NAME
POWER ADDRESS[,FALLBACK]`, `game end NAME`, and `game show NAME --json` with `paused` and `orders`."""

from __future__ import annotations

import json
import mailbox
from pathlib import Path

import pytest

from gmserver.services.game.games import POWERS
from tests.support.cli import player_args, run, write_config

pytestmark = pytest.mark.integration


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return write_config(tmp_path)


def shown(config: Path, capsys) -> dict:
    capsys.readouterr()
    assert run(config, "game", "show", "lepanto", "--json") == 0
    return json.loads(capsys.readouterr().out)


def test_the_gm_controls_a_game_from_the_command_line(config: Path, capsys, tmp_path: Path) -> None:
    players = player_args()
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", *players, "--deadline", "2030-01-10T18:00+00:00",
               "--gm-copies") == 0
    assert "start mails queued for 7 players" in capsys.readouterr().out
    before = shown(config, capsys)
    assert (before["paused"], before["orders"], before["gm_copies"]) == (False, {}, True)

    assert run(config, "game", "deadline", "lepanto", "2030-01-12T18:00+00:00") == 0
    assert ("extended to Saturday 12 January 2030, 18:00 UTC (was Thursday 10 January 2030, 18:00 UTC); "
            "7 players told") in capsys.readouterr().out
    # the same deadline again changes nothing and says so (QA: it said "brought forward")
    assert run(config, "game", "deadline", "lepanto", "2030-01-12T19:00+01:00") == 2
    assert ("the deadline of lepanto is Saturday 12 January 2030, 18:00 UTC already: nothing changed, "
            "nobody told") in capsys.readouterr().err
    assert run(config, "game", "pause", "lepanto") == 0
    assert shown(config, capsys)["paused"] is True
    assert run(config, "adjudicate", "lepanto") == 2
    assert "lepanto is paused: a paused game is never adjudicated" in capsys.readouterr().err
    assert run(config, "game", "resume", "lepanto") == 0
    assert "the deadline stays Saturday 12 January 2030, 18:00 UTC" in capsys.readouterr().out
    assert run(config, "game", "replace", "lepanto", "FRANCE", "marianne@players.test,m2@players.test") == 0
    assert shown(config, capsys)["players"]["FRANCE"]["address"] == "marianne@players.test"
    # a deadline in the past is refused
    assert run(config, "game", "deadline", "lepanto", "2020-01-01T00:00+00:00") == 2
    assert "has already passed" in capsys.readouterr().err
    assert run(config, "game", "end", "lepanto") == 0
    assert shown(config, capsys)["status"] == "finished"
    assert run(config, "game", "actions", "lepanto") == 0
    listed = capsys.readouterr().out
    assert [line.split()[2] for line in listed.splitlines()] == ["deadline", "pause", "resume", "replace", "end"]

    assert run(config, "outbox", "send", "--once") == 0
    sent = list(mailbox.Maildir(tmp_path / "sent"))
    starts = sorted(str(m["To"]) for m in sent if "you play" in str(m["Subject"]))
    assert starts == sorted([f"{p.lower()}@players.test" for p in POWERS] + ["marianne@players.test"])
    assert any(str(m["Subject"]) == "lepanto: the game has ended" and str(m["To"]) == "marianne@players.test"
               for m in sent)


def test_no_minimums_lets_a_test_run_use_short_turns(config: Path, capsys) -> None:
    players = player_args()
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "quick", *players, "--movement-hours", "0.01") == 2
    assert "a movement turn must last at least 48 hours" in capsys.readouterr().err
    assert run(config, "game", "create", "quick", *players, "--movement-hours", "0.01", "--short-turns-for-testing") == 0
    assert shown_game(config, capsys, "quick")["turn_lengths_seconds"]["movement"] == 36


def shown_game(config: Path, capsys, name: str) -> dict:
    capsys.readouterr()
    assert run(config, "game", "show", name, "--json") == 0
    return json.loads(capsys.readouterr().out)


def test_the_gm_vetoes_a_proposal_from_the_command_line_matrix_2_10(config: Path, capsys) -> None:
    """`gmserver game veto NAME PROPOSAL` (proposal_gm_veto, 000 IX(5)); `game propose` is refused
    where the house rules do not let the GM propose (gm_may_propose false in `standard`)."""
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", *player_args(), "--deadline", "2030-01-10T18:00+00:00") == 0
    assert run(config, "game", "propose", "lepanto", "draw") == 2
    assert "do not let the GM propose" in capsys.readouterr().err
    assert run(config, "game", "veto", "lepanto", "1") == 2
    assert "lepanto has no proposal '1'" in capsys.readouterr().err


def test_the_gm_proposes_a_rule_change_and_votes_only_where_the_house_rules_say_so(config: Path, capsys) -> None:
    """`gmserver game propose NAME rule change WORDS` (gm_may_propose, 003 [18]) and `gmserver game
    vote NAME PROPOSAL yes|no|abstain` (vote.rule_change.gm_must_agree, 000 IX(3)): under 003 [18]
    ¶3 the players alone decide a rule change, so the GM's vote is refused."""
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", *player_args(), "--ruleset", "scorpion",
               "--deadline", "2030-01-10T18:00+00:00") == 0
    capsys.readouterr()
    assert run(config, "game", "propose", "lepanto", "rule", "change:", "no", "press", "in", "Winter") == 0
    assert 'The GM proposed a change of the house rules: "no press in Winter" (proposal 1)' in capsys.readouterr().out
    assert run(config, "game", "vote", "lepanto", "1", "yes") == 2
    assert "the GM does not vote on a change of the house rules" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run(config, "game", "vote", "lepanto", "1", "maybe")


def test_000_II_3_the_gm_gives_approves_and_cancels_a_proxy_from_the_command_line(config: Path, capsys) -> None:
    """`gmserver game proxy NAME POWER HOLDER-POWER|ADDRESS [--turn] [--approve|--cancel]`."""
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", *player_args(), "--ruleset", "mhr",
               "--deadline", "2030-01-10T18:00+00:00") == 0
    capsys.readouterr()
    assert run(config, "game", "proxy", "lepanto", "FRANCE", "ENGLAND", "--turn") == 0
    assert "may send the orders of France (for Spring 1901 Movement only); 2 players told" in capsys.readouterr().out
    assert run(config, "game", "proxy", "lepanto", "FRANCE", "--cancel") == 0
    assert "the proxy of" in capsys.readouterr().out
    assert run(config, "game", "proxy", "lepanto", "FRANCE", "--approve") == 2
    assert "FRANCE has asked for no proxy" in capsys.readouterr().err
    assert run(config, "game", "actions", "lepanto") == 0
    assert [line.split()[2] for line in capsys.readouterr().out.splitlines()] == ["proxy", "proxy"]
    assert run(config, "game", "proxy", "lepanto", "FRANCE") == 2
    assert "name the holder" in capsys.readouterr().err


def test_000_III_1_a_the_gm_switches_clarifications_from_the_command_line(config: Path, capsys) -> None:
    """`gmserver game clarify NAME POWER on|off` (invalid_set_feedback = conditional_mhr), and
    `game show` saying it; no set was sent yet, so the record is 0 of 0 and not printed."""
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", *player_args(), "--ruleset", "mhr",
               "--deadline", "2030-01-10T18:00+00:00") == 0
    assert shown(config, capsys)["players"]["FRANCE"]["clarifications"] is True
    assert run(config, "game", "clarify", "lepanto", "FRANCE", "off") == 0
    assert ("FRANCE's sets with lines that cannot be used get a receipt only (000 III(1) (a)); 0 of 0 sets in "
            "this game had lines that could not be used") in capsys.readouterr().out
    player = shown(config, capsys)["players"]["FRANCE"]
    assert (player["clarifications"], player["invalid_sets"]["sets"]) == (False, 0)
    assert run(config, "game", "show", "lepanto") == 0
    [france] = [line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("FRANCE ")
                and "centres;" in line]
    assert france.endswith("no orders yet, clarifications off (000 III(1))")
    assert run(config, "game", "clarify", "lepanto", "FRANCE", "off") == 2
    assert "clarifications for FRANCE are off already" in capsys.readouterr().err
    assert run(config, "game", "actions", "lepanto") == 0
    assert [line.split()[2] for line in capsys.readouterr().out.splitlines()] == ["clarify"]


def test_an_anonymous_private_game_from_the_command_line_and_its_players_revealed_after_the_end(
        config: Path, capsys, tmp_path: Path) -> None:
    """`game create --anonymous --private`: `game show --json` says so; the start mails list the
    powers and no address; `game reveal` is refused while the game is played and names every
    player to the others once it is over."""
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", *player_args(), "--anonymous", "--private") == 0
    summary = shown(config, capsys)
    assert (summary["anonymous"], summary["pages_public"]) == (True, False)
    assert run(config, "game", "show", "lepanto") == 0
    assert "anonymous: no player is shown another's address" in capsys.readouterr().out
    assert run(config, "outbox", "send", "--once") == 0
    starts = [m for m in mailbox.Maildir(tmp_path / "sent") if "you play" in str(m["Subject"])]
    assert len(starts) == 7
    for start in starts:  # each start mail: the reader's own address, nobody else's
        assert start.as_string().count("@players.test") == start.as_string().count(str(start["To"])), start["To"]
    assert run(config, "game", "reveal", "lepanto") == 2
    assert "lepanto is still being played" in capsys.readouterr().err
    assert run(config, "game", "set", "lepanto", "pages", "public") == 0
    assert shown(config, capsys)["pages_public"] is True
    assert run(config, "game", "end", "lepanto") == 0
    assert run(config, "game", "reveal", "lepanto") == 0
    assert "the players of lepanto are revealed to them" in capsys.readouterr().out
    assert run(config, "outbox", "send", "--once") == 0
    [revealed] = [m for m in mailbox.Maildir(tmp_path / "sent")
                  if "who played whom" in str(m["Subject"]) and str(m["To"]) == "italy@players.test"]
    assert "France: france@players.test" in " ".join(revealed.get_payload(decode=True).decode().split())


def test_reveal_is_refused_for_a_game_that_never_hid_its_players(config: Path, capsys) -> None:
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", *player_args()) == 0
    assert run(config, "game", "end", "lepanto") == 0
    capsys.readouterr()
    assert run(config, "game", "reveal", "lepanto") == 2
    assert "lepanto is not anonymous: its players were never hidden" in capsys.readouterr().err
