from pathlib import Path

import pytest

from gmserver.config import ConfigError, config_path_from, load_config
from gmserver.paths import CONFIG_DIR


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "gm.toml"
    path.write_text(text)
    return path


def test_example_file_loads_with_every_section() -> None:
    config = load_config(CONFIG_DIR / "gmserver.example.toml", environ={})
    assert config.gm_address == "gm@example.org"
    assert config.imap.tls == "ssl" and config.imap.port == 993 and config.imap.idle is True
    assert config.listener.port == 2525 and config.listener.protocol == "smtp"
    assert config.smtp.tls == "starttls" and config.outbound_mode == "maildir"


def test_no_file_means_embedded_defaults() -> None:
    config = load_config(None, environ={})
    assert config.database_url.startswith("sqlite:///")
    assert (config.inbound_mode, config.outbound_mode) == ("smtp", "maildir")


def test_secrets_come_from_the_environment(tmp_path: Path) -> None:
    path = write(tmp_path, '[inbound]\nmode = "imap"\n[inbound.imap]\nhost = "h"\nuser = "u"\n')
    config = load_config(path, environ={"GMSERVER_IMAP_PASSWORD": "s3cret", "GMSERVER_DATABASE_URL": "sqlite://"})
    assert config.imap.password == "s3cret" and config.database_url == "sqlite://"


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, '[inbound]\nmode = "pigeon"\n[inbound.imap]\nport = "x"\nhots = "h"\n[outbund]\n')
    with pytest.raises(ConfigError) as error:
        load_config(path, environ={})
    message = str(error.value)
    for fragment in ("inbound.mode must be one of imap, smtp", "inbound.imap.port must be an integer",
                     "unknown key inbound.imap.hots", "unknown section [outbund]"):
        assert fragment in message


def test_syntax_error_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[database\nurl = 1\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path, environ={})


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.toml", environ={})


def test_imap_mode_needs_a_host_and_user(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="inbound.imap.host and inbound.imap.user are required"):
        load_config(write(tmp_path, '[inbound]\nmode = "imap"\n'), environ={})


def test_path_from_option_or_environment() -> None:
    assert config_path_from("a.toml", environ={"GMSERVER_CONFIG": "b.toml"}) == Path("a.toml")
    assert config_path_from(None, environ={"GMSERVER_CONFIG": "b.toml"}) == Path("b.toml")
    assert config_path_from(None, environ={}) is None


def test_the_docker_compose_configuration_loads() -> None:
    """config/docker.toml with the environment docker-compose.yml gives the gmserver service."""
    compose = (CONFIG_DIR.parent / "docker-compose.yml").read_text()
    assert "GMSERVER_CONFIG: /app/config/docker.toml" in compose
    config = load_config(CONFIG_DIR / "docker.toml", environ={
        "GMSERVER_DATABASE_URL": "postgresql://gmserver:gmserver@db:5432/gmserver", "GMSERVER_IMAP_PASSWORD": "secret"})
    assert config.database_url.startswith("postgresql://") and config.imap.password == "secret"
    assert (config.inbound_mode, config.imap.host, config.outbound_mode, config.smtp.host) == ("imap", "mail", "smtp", "mail")


def test_a_non_ascii_gm_address_is_refused_with_the_way_out(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="xn--"):
        load_config(write(tmp_path, '[gm]\naddress = "gm@examplé.test"\n'), environ={})


def test_the_gms_command_addresses_are_read_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "gm.toml"
    path.write_text('[gm]\naddress = "gm@gm.test"\ncommand_addresses = ["garry@home.test"]\n')
    assert load_config(path, environ={}).gm_command_addresses == ("garry@home.test",)
    path.write_text('[gm]\naddress = "gm@gm.test"\ncommand_addresses = ["garry at home"]\n')
    with pytest.raises(ConfigError, match="gm.command_addresses"):
        load_config(path, environ={})
