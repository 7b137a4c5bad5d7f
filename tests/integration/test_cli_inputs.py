"""Wrong command-line and configuration inputs: each is refused with one line that says what was
wrong and what would have been accepted, and exit status 2, never a traceback or a stored game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import exit_status, player_args, run, write_config

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def gm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with the game `lepanto` and one stored message."""
    directory = tmp_path_factory.mktemp("inputs")
    config = write_config(directory)
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", *player_args()) == 0
    return directory


# (row, the arguments after `gmserver --config FILE`, TOML added to the config file (or the whole
# file when it has its own [database]), environment, words the one line must hold)
ROWS = [
    ("turn length 1e308", ["game", "create", "g2", "--movement-hours", "1e308", *player_args()], "", {},
     "at most 8784"),
    ("turn length nan", ["game", "create", "g2", "--movement-hours", "nan", *player_args()], "", {},
     "not a number of hours"),
    ("deadline at the end of the calendar", ["game", "deadline", "lepanto", "9999-12-31T23:59:59+00:00"], "", {},
     "in the years 1970 to 2999"),
    ("message number past any column", ["inbox", "replay", "99999999999999999999"], "", {},
     "they run from 1 to 2147483647"),
    ("outbox retry number past any column", ["outbox", "retry", "99999999999999999999"], "", {},
     "they run from 1 to 2147483647"),
    ("listener port 99999", ["game", "list"], "[inbound.smtp]\nport = 99999\n", {},
     "inbound.smtp.port must be from 1 to 65535, not 99999"),
    ("unknown database", ["game", "list"], '[database]\nurl = "nosuchdb://x"\n', {},
     "database.url (or $GMSERVER_DATABASE_URL) must start with sqlite:/// (a file) or postgresql://"),
    ("configuration is a directory", ["game", "list"], None, {}, "is a directory: give the TOML file in it"),
    ("unparsable database URL from the environment", ["game", "list"], "", {"GMSERVER_DATABASE_URL": "::::"},
     "must start with sqlite:///"),
    ("negative outbox attempts", ["game", "list"], "[outbound]\nmax_attempts = -1\n", {},
     "outbound.max_attempts must be from 1 to 1000, not -1"),
    ("negative sweep interval", ["game", "list"], "[daemon]\nsweep_interval_seconds = -5\n", {},
     "daemon.sweep_interval_seconds must be from 1 to 86400, not -5"),
    ("listener connection cap of none", ["game", "list"], "[inbound.smtp]\nmax_connections = 0\n", {},
     "inbound.smtp.max_connections must be from 1"),
    ("a game name of a space", ["game", "create", " ", *player_args()], "", {},
     "' ' cannot be a game name (a space): a game name is 1 to 100 letters, digits, '-' or '_'"),
    ("a game name differing only by case", ["game", "create", "LEPANTO", *player_args()], "", {},
     "'LEPANTO' is the game 'lepanto' (names that differ only by case are the same game)"),
    ("a game name with a right-to-left override", ["game", "create", "lep\u202eanto", *player_args()], "", {},
     "cannot be a game name (U+202E)"),
    ("a game name with a control character", ["game", "create", "lep\x1banto", *player_args()], "", {},
     "cannot be a game name (U+001B)"),
]


@pytest.mark.parametrize(("args", "toml", "environment", "said"), [row[1:] for row in ROWS],
                         ids=[row[0] for row in ROWS])
def test_a_wrong_input_is_one_clear_line_and_exit_status_2(gm_dir: Path, tmp_path: Path, capsys,
                                                           monkeypatch: pytest.MonkeyPatch, args: list[str],
                                                           toml: str | None, environment: dict[str, str],
                                                           said: str) -> None:
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    base = (gm_dir / "gmserver.toml").read_text()
    if toml is None:
        config = gm_dir
    else:
        config = tmp_path / "gmserver.toml"
        config.write_text(toml if toml.startswith("[database]") else base + toml)
    capsys.readouterr()
    assert exit_status(config, *args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert said in err and "error:" in err


def test_no_game_was_stored_by_a_refused_name(gm_dir: Path, capsys) -> None:
    capsys.readouterr()
    assert run(gm_dir / "gmserver.toml", "game", "list") == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert [name for name in listed if name.casefold().startswith(("lep", "g2"))] == ["lepanto"]


def test_a_game_name_may_be_any_script_with_digits_hyphen_and_underscore(gm_dir: Path) -> None:
    for name in ("Zürich", "aegean-2", "game_3"):
        assert run(gm_dir / "gmserver.toml", "game", "create", name, *player_args()) == 0, name
