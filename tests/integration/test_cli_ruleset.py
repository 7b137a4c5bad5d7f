"""`gmserver ruleset list/show/docs`, and `game create` telling the GM which of the profile's
rules gmserver does not carry out (no GM misled: each option is in force or said not to be)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gmserver.cli import main
from gmserver.rules.ruleset_options import OPTIONS
from tests.support.cli import player_args, write_config

pytestmark = pytest.mark.integration


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return write_config(tmp_path)


def test_show_json_lists_every_option_with_applied(capsys) -> None:
    assert main(["ruleset", "show", "scorpion", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert list(shown) == ["profile", "options"] and shown["profile"] == "scorpion"
    assert [o["key"] for o in shown["options"]] == list(OPTIONS)
    for option in shown["options"]:
        assert {"key", "value", "default", "clause", "applied"} <= option.keys()
        assert option["applied"] is (option["status"] == "applied")
    proxy = next(o for o in shown["options"] if o["key"] == "proxy_policy")
    assert (proxy["value"], proxy["default"], proxy["applied"]) == ("allowed_with_notice", "forbidden", True)
    assert "[19]" in proxy["clause"]  # 003 [19], from the comment above the key in scorpion.toml
    vote = next(o for o in shown["options"] if o["key"] == "turn_length_vote")
    assert (vote["value"], vote["applied"]) == ([7, 14, 21], True)  # 003 [23]


def test_show_text_groups_by_section_and_says_what_gmserver_does(capsys) -> None:
    assert main(["ruleset", "show", "scorpion"]) == 0
    out = capsys.readouterr().out
    assert out.index("2.8 Deadlines, reminders & NMR") < out.index("turn_length_vote =") < out.index("2.9 Press")
    assert main(["ruleset", "show", "danivon"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "rulebook =" in x)
    assert line.lstrip().startswith("! not applied")  # words first, the key after
    assert "orders are adjudicated by the 2000 rulebook" in out


def test_list_names_every_profile_with_the_values_it_does_not_carry_out(capsys) -> None:
    """The catalogue's counts once (they are the same for every profile), then each profile with
    what sets it apart: the options whose values gmserver does not carry out (danivon's rulebook,
    001 I(2): the engine adjudicates by the 2000 rulebook)."""
    assert main(["ruleset", "list"]) == 0
    head, *lines = capsys.readouterr().out.splitlines()
    assert head.startswith(f"Of the {len(OPTIONS)} house-rule options gmserver knows, ") and " applied" in head
    assert [line.split()[0] for line in lines] == ["danivon", "email_rules", "gwm", "mhr", "scorpion", "standard"]
    assert lines[0].endswith("values not carried out: rulebook")
    assert lines[-1].endswith("every value carried out")


def test_an_unknown_profile_is_a_readable_error(capsys) -> None:
    assert main(["ruleset", "show", "scorpio"]) == 2
    assert "did you mean 'scorpion'" in capsys.readouterr().err


def test_game_create_tells_the_gm_what_danivon_promises_and_gmserver_does_not(config: Path, capsys) -> None:
    """001 I(2) names the 1989 Gibsons rules; gmserver's engine adjudicates by the 2000 rulebook:
    the GM is told at creation, by `game show` and in its JSON. Scorpion's proxies (003 [19]), the
    Spring 1901 wait (003 [14]), press and the turn-length vote are applied: a scorpion game lists
    nothing."""
    assert main(["--config", str(config), "db", "upgrade"]) == 0
    assert main(["--config", str(config), "game", "create", "dani", "--ruleset", "danivon", *player_args()]) == 0
    out = capsys.readouterr().out
    warning = out[out.index("not in force"):]
    assert "rulebook" in warning and "I(2)" in warning and "2000 rulebook" in warning
    assert main(["--config", str(config), "game", "show", "dani"]) == 0
    shown = capsys.readouterr().out
    assert "not in force:" in shown and "rulebook" in shown
    assert main(["--config", str(config), "game", "show", "dani", "--json"]) == 0
    assert "rulebook" in json.loads(capsys.readouterr().out)["rules_not_in_force"]
    assert main(["--config", str(config), "game", "create", "scorp", "--ruleset", "scorpion", *player_args()]) == 0
    assert "not in force" not in capsys.readouterr().out


def test_game_create_under_standard_does_not_list_what_gmserver_does_anyway(config: Path, capsys) -> None:
    main(["--config", str(config), "db", "upgrade"])
    assert main(["--config", str(config), "game", "create", "std", *player_args()]) == 0
    warning = capsys.readouterr().out
    assert "turn_length_vote" not in warning and "press_kinds" not in warning


@pytest.mark.parametrize("command", [["ruleset"], ["ruleset", "list"], ["ruleset", "show"], ["ruleset", "docs"]])
def test_help(command: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--help"])
    assert exit_.value.code == 0
    assert "usage: gmserver ruleset" in capsys.readouterr().out


def test_a_profile_that_extends_another_cites_the_base_s_clauses(tmp_path: Path, capsys) -> None:
    custom = tmp_path / "mine.toml"
    custom.write_text('extends = "scorpion"\nname = "mine"\n# Default: our club plays Spring 1901 normally\n'
                      's1901_policy = "normal"\n')
    assert main(["ruleset", "show", str(custom), "--json"]) == 0
    rows = {o["key"]: o for o in json.loads(capsys.readouterr().out)["options"]}
    assert rows["s1901_policy"]["clause"] == "Default: our club plays Spring 1901 normally"
    assert "[9]" in rows["press_kinds"]["clause"]  # 003's clause, from scorpion.toml
