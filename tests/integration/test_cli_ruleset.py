"""`gmserver ruleset list/show/docs`, and `game create` telling the GM which of the profile's
rules gmserver does not carry out (issue 7 item 4: no GM misled)."""

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
    assert (proxy["value"], proxy["default"], proxy["applied"]) == ("allowed_with_notice", "forbidden", False)
    assert "[19]" in proxy["clause"]  # 003 [19], from the comment above the key in scorpion.toml
    vote = next(o for o in shown["options"] if o["key"] == "turn_length_vote")
    assert (vote["value"], vote["applied"]) == ([7, 14, 21], True)  # 003 [23] (issue 9)


def test_show_text_groups_by_section_and_says_what_gmserver_does(capsys) -> None:
    assert main(["ruleset", "show", "scorpion"]) == 0
    out = capsys.readouterr().out
    assert out.index("2.8 Deadlines, reminders & NMR") < out.index("turn_length_vote =") < out.index("2.9 Press")
    line = next(x for x in out.splitlines() if "proxy_policy =" in x)
    assert line.lstrip().startswith("! not applied")  # words first, the key after
    assert "proxy orders are not taken" in out


def test_list_names_every_profile_with_its_counts(capsys) -> None:
    assert main(["ruleset", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["danivon", "email_rules", "gwm", "mhr", "scorpion", "standard"]
    assert all("applied" in line and "not carried out" in line for line in lines)


def test_an_unknown_profile_is_a_readable_error(capsys) -> None:
    assert main(["ruleset", "show", "scorpio"]) == 2
    assert "did you mean 'scorpion'" in capsys.readouterr().err


def test_game_create_tells_the_gm_what_scorpion_promises_and_gmserver_does_not(config: Path, capsys) -> None:
    """Under scorpion a player may write a proxy (003 [19]); gmserver takes no proxy orders. The
    Spring 1901 wait (003 [14]), press and the turn-length vote (issue 9) are applied: not listed."""
    assert main(["--config", str(config), "db", "upgrade"]) == 0
    assert main(["--config", str(config), "game", "create", "scorp", "--ruleset", "scorpion", *player_args()]) == 0
    out = capsys.readouterr().out
    warning = out[out.index("not in force"):]
    assert "proxy_policy" in warning and "([19])" in warning and "not taken" in warning
    assert "turn_length_vote" not in warning  # 003 [23]: applied (issue 9)
    assert "s1901_policy" not in warning
    assert "conditional_press" not in warning and "press_moderation" not in warning
    assert "sender_policy" not in warning  # applied
    assert "confirm_each_set" not in warning  # not read, but gmserver confirms every set anyway
    assert "press_channel" not in warning and "press_kinds" not in warning  # applied (issue 9)
    assert main(["--config", str(config), "game", "show", "scorp"]) == 0
    shown = capsys.readouterr().out
    assert "not in force:" in shown and "proxy_policy" in shown
    assert main(["--config", str(config), "game", "show", "scorp", "--json"]) == 0
    assert "proxy_policy" in json.loads(capsys.readouterr().out)["rules_not_in_force"]


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
