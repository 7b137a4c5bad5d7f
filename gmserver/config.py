"""The daemon's configuration: one TOML file, secrets optionally from the environment.

The file's path comes from `--config` or `GMSERVER_CONFIG`; `config/gmserver.example.toml`
documents every key. Loading reports every problem at once, each with its key.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Mapping

# Environment variables that override a key; secrets belong here rather than in the file.
ENV_OVERRIDES = {
    "GMSERVER_DATABASE_URL": ("database", "url"),
    "GMSERVER_IMAP_PASSWORD": ("inbound", "imap", "password"),
    "GMSERVER_SMTP_PASSWORD": ("outbound", "smtp", "password"),
}


class ConfigError(Exception):
    """The configuration file is missing or wrong; the message lists every problem."""


@dataclass(frozen=True)
class ImapConfig:
    host: str = "127.0.0.1"
    port: int = 143
    tls: Literal["none", "ssl", "starttls"] = "starttls"
    user: str = ""
    password: str = ""
    folder: str = "INBOX"
    idle: bool = True
    poll_seconds: int = 60
    ca_file: str | None = None


@dataclass(frozen=True)
class ListenerConfig:
    host: str = "127.0.0.1"
    port: int = 2525
    protocol: Literal["smtp", "lmtp"] = "smtp"
    # addresses of the trusted receiving server when it relays to this listener: only mail from
    # them keeps Authentication-Results headers of [inbound] trusted_authserv_ids (RFC 8601 s. 5)
    trusted_relays: tuple[str, ...] = ()
    # Connections served at once, at once from one client address, and new ones a minute from one
    # address; past them a client is answered 421 and tries again later (gmserver.mail.listener)
    max_connections: int = 100
    max_connections_per_client: int = 20
    client_connections_per_minute: int = 120


@dataclass(frozen=True)
class SmtpRelayConfig:
    host: str = "127.0.0.1"
    port: int = 25
    tls: Literal["none", "ssl", "starttls"] = "none"
    user: str = ""
    password: str = ""
    ca_file: str | None = None
    timeout: int = 30


@dataclass(frozen=True)
class WebConfig:
    """The read-only web pages (gmserver/web/): off unless `listen` is set."""
    listen: str = ""  # "127.0.0.1:8080"; behind a reverse proxy for a public host (docs/web.md)
    base_url: str = ""  # "https://dip.example.org": the pages' links in mail; empty: no links in mail
    gm_password_hash: str = ""  # `gmserver web --hash-password`; empty: no GM page
    public: bool = True  # false: a game's pages show nothing without a player's or the GM's link
    requests_per_minute: int = 120  # per client address; past it 429

    @property
    def enabled(self) -> bool:
        return bool(self.listen)

    @property
    def host_and_port(self) -> tuple[str, int]:
        host, _, port = self.listen.rpartition(":")
        return host.strip("[]") or "127.0.0.1", int(port)


@dataclass(frozen=True)
class Config:
    database_url: str = "sqlite:///gmserver.db"
    gm_address: str = "gm@localhost"
    gm_name: str = "Diplomacy GM"
    # Where gmserver mails the human GM about parked mail, undeliverable mail and outages;
    # empty: the GM address itself
    alert_address: str = ""
    # The GM's own addresses besides gm_address (their personal mail, say): mail from any of them
    # is a GM command (gmserver.rules.mailkind), never read as orders
    gm_command_addresses: tuple[str, ...] = ()
    inbound_mode: Literal["imap", "smtp"] = "smtp"
    imap: ImapConfig = field(default_factory=ImapConfig)
    listener: ListenerConfig = field(default_factory=ListenerConfig)
    outbound_mode: Literal["smtp", "maildir"] = "maildir"
    smtp: SmtpRelayConfig = field(default_factory=SmtpRelayConfig)
    maildir_path: str = "outbox-maildir"
    outbox_max_attempts: int = 8
    outbox_interval_seconds: int = 10
    sweep_interval_seconds: int = 30
    log_level: str = "INFO"
    # Authentication-Results headers believed in a "verified" game (gmserver.rules.authenticity):
    # only those of these authserv-ids, and only the topmost; empty: never believed
    trusted_authserv_ids: tuple[str, ...] = ()
    # host names the receiving server writes after `by` in its Received header: its topmost one
    # proves when a late set reached the GM's side (gmserver.rules.late_proof); empty: never
    trusted_receivers: tuple[str, ...] = ()
    web: WebConfig = field(default_factory=WebConfig)

    @property
    def alerts_to(self) -> str:
        return self.alert_address or self.gm_address

    def with_changes(self, **changes: Any) -> "Config":
        return replace(self, **changes)


# (section path, key) -> (Config attribute or (sub-config attribute, field), accepted values/type)
_CHOICES = {
    ("inbound", "mode"): ("imap", "smtp"),
    ("inbound", "imap", "tls"): ("none", "ssl", "starttls"),
    ("inbound", "smtp", "protocol"): ("smtp", "lmtp"),
    ("outbound", "mode"): ("smtp", "maildir"),
    ("outbound", "smtp", "tls"): ("none", "ssl", "starttls"),
    ("daemon", "log_level"): ("DEBUG", "INFO", "WARNING", "ERROR"),
}

_LAYOUT: dict[tuple[str, ...], dict[str, tuple[str, type]]] = {
    ("database",): {"url": ("database_url", str)},
    ("gm",): {"address": ("gm_address", str), "name": ("gm_name", str), "alert_address": ("alert_address", str),
              "command_addresses": ("gm_command_addresses", tuple)},
    ("inbound",): {"mode": ("inbound_mode", str), "trusted_authserv_ids": ("trusted_authserv_ids", tuple),
                   "trusted_receivers": ("trusted_receivers", tuple)},
    ("inbound", "imap"): {k: (k, t) for k, t in [
        ("host", str), ("port", int), ("tls", str), ("user", str), ("password", str),
        ("folder", str), ("idle", bool), ("poll_seconds", int), ("ca_file", str)]},
    ("inbound", "smtp"): {k: (k, t) for k, t in [
        ("host", str), ("port", int), ("protocol", str), ("trusted_relays", tuple), ("max_connections", int),
        ("max_connections_per_client", int), ("client_connections_per_minute", int)]},
    ("outbound",): {"mode": ("outbound_mode", str), "max_attempts": ("outbox_max_attempts", int),
                    "interval_seconds": ("outbox_interval_seconds", int)},
    ("outbound", "smtp"): {k: (k, t) for k, t in [
        ("host", str), ("port", int), ("tls", str), ("user", str), ("password", str),
        ("ca_file", str), ("timeout", int)]},
    ("outbound", "maildir"): {"path": ("maildir_path", str)},
    ("web",): {k: (k, t) for k, t in [
        ("listen", str), ("base_url", str), ("gm_password_hash", str), ("public", bool),
        ("requests_per_minute", int)]},
    ("daemon",): {"sweep_interval_seconds": ("sweep_interval_seconds", int), "log_level": ("log_level", str)},
}
_TYPE_WORDS = {int: "an integer", str: "a string", bool: "true or false", tuple: "a list of strings"}
_SUB_CONFIGS = {("inbound", "imap"): "imap", ("inbound", "smtp"): "listener", ("outbound", "smtp"): "smtp",
                ("web",): "web"}


def config_path_from(cli_value: str | None, environ: Mapping[str, str] = os.environ) -> Path | None:
    value = cli_value or environ.get("GMSERVER_CONFIG")
    return Path(value) if value else None


def load_config(path: Path | None, environ: Mapping[str, str] = os.environ) -> Config:
    """Read `path` (None: defaults only), then apply the environment overrides."""
    data: dict[str, Any] = {}
    if path is not None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"configuration file {path} not found") from None
        except IsADirectoryError:
            raise ConfigError(f"configuration file {path} is a directory: give the TOML file in it") from None
        except (OSError, UnicodeDecodeError) as error:
            raise ConfigError(f"configuration file {path} cannot be read: "
                              f"{getattr(error, 'strerror', None) or error}") from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{path}: not valid TOML: {error}") from None
    for variable, key_path in ENV_OVERRIDES.items():
        if environ.get(variable):
            section = data
            for key in key_path[:-1]:
                section = section.setdefault(key, {})
            section[key_path[-1]] = environ[variable]
    return _build(data, str(path) if path else "defaults")


def _build(data: Mapping[str, Any], source: str) -> Config:
    problems: list[str] = []
    top: dict[str, Any] = {}
    subs: dict[str, dict[str, Any]] = {name: {} for name in _SUB_CONFIGS.values()}

    def walk(section: Mapping[str, Any], path: tuple[str, ...]) -> None:
        known = _LAYOUT.get(path, {})
        for key, value in section.items():
            key_path = path + (key,)
            dotted = ".".join(key_path)
            if isinstance(value, dict):
                if key_path in _LAYOUT:
                    walk(value, key_path)
                else:
                    problems.append(f"unknown section [{dotted}]")
                continue
            if key not in known:
                problems.append(f"unknown key {dotted}")
                continue
            attribute, expected = known[key]
            if expected is int and isinstance(value, str) and value.isdigit():
                value = int(value)
            if expected is tuple and isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value):
                value = tuple(v.strip().lower() for v in value)
            if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                problems.append(f"{dotted} must be {_TYPE_WORDS[expected]}, not {value!r}")
                continue
            choices = _CHOICES.get(key_path)
            if choices and value not in choices:
                problems.append(f"{dotted} must be one of {', '.join(choices)}, not {value!r}")
                continue
            if path in _SUB_CONFIGS:
                subs[_SUB_CONFIGS[path]][attribute] = value
            else:
                top[attribute] = value

    walk(data, ())
    if problems:
        raise ConfigError(f"{source}: " + "; ".join(problems))
    config = Config(
        imap=ImapConfig(**subs["imap"]),
        listener=ListenerConfig(**subs["listener"]),
        smtp=SmtpRelayConfig(**subs["smtp"]),
        web=WebConfig(**subs["web"]),
        **top,
    )
    _check(config, source)
    return config


# The databases gmserver runs on, with the drivers it installs; any other URL failed deep inside
# SQLAlchemy with a traceback.
_DATABASE_URL = re.compile(r"(sqlite(\+pysqlite)?|postgresql(\+psycopg)?)://")
# (key, value, smallest, largest) of every number a key takes: a negative count or interval was
# accepted and misbehaved (a negative sweep interval, no attempt ever made), and a port or an
# interval out of range failed only when used.
_PORT = (1, 65535)


def _ranges(config: Config) -> list[tuple[str, int, int, int]]:
    return [
        ("inbound.imap.port", config.imap.port, *_PORT),
        ("inbound.imap.poll_seconds", config.imap.poll_seconds, 1, 86400),
        ("inbound.smtp.port", config.listener.port, *_PORT),
        ("inbound.smtp.max_connections", config.listener.max_connections, 1, 10000),
        ("inbound.smtp.max_connections_per_client", config.listener.max_connections_per_client, 1, 10000),
        ("inbound.smtp.client_connections_per_minute", config.listener.client_connections_per_minute, 1, 100000),
        ("outbound.smtp.port", config.smtp.port, *_PORT),
        ("outbound.smtp.timeout", config.smtp.timeout, 1, 3600),
        ("outbound.max_attempts", config.outbox_max_attempts, 1, 1000),
        ("outbound.interval_seconds", config.outbox_interval_seconds, 1, 86400),
        ("daemon.sweep_interval_seconds", config.sweep_interval_seconds, 1, 86400),
        ("web.requests_per_minute", config.web.requests_per_minute, 1, 100000),
    ]


def _check(config: Config, source: str) -> None:
    problems = []
    if not _DATABASE_URL.match(config.database_url):
        # the URL is not repeated: it may hold a password
        problems.append("database.url (or $GMSERVER_DATABASE_URL) must start with sqlite:/// (a file) or "
                        "postgresql:// (e.g. postgresql://gm@localhost/gmserver)")
    for key, value, low, high in _ranges(config):
        if not low <= value <= high:
            problems.append(f"{key} must be from {low} to {high}, not {value}")
    if "@" not in config.gm_address:
        problems.append(f"gm.address must be an email address, not {config.gm_address!r}")
    elif not config.gm_address.isascii():
        # it becomes the domain of every Message-ID, which must be ASCII (RFC 5322 3.6.4)
        problems.append(f"gm.address must be ASCII (write an internationalised domain in its xn-- form), "
                        f"not {config.gm_address!r}")
    if config.alert_address and ("@" not in config.alert_address or not config.alert_address.isprintable()
                                 or " " in config.alert_address):
        problems.append(f"gm.alert_address must be an email address, not {config.alert_address!r}")
    for address in config.gm_command_addresses:
        if "@" not in address or not address.isprintable() or " " in address:
            problems.append(f"gm.command_addresses: each must be an email address, not {address!r}")
    if config.inbound_mode == "imap" and not (config.imap.user and config.imap.host):
        problems.append("inbound.mode is imap: inbound.imap.host and inbound.imap.user are required")
    if config.outbound_mode == "smtp" and not config.smtp.host:
        problems.append("outbound.mode is smtp: outbound.smtp.host is required")
    problems += _web_problems(config.web)
    if problems:
        raise ConfigError(f"{source}: " + "; ".join(problems))


_LISTEN = re.compile(r"(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})")


def _web_problems(web: WebConfig) -> list[str]:
    problems = []
    match = _LISTEN.fullmatch(web.listen)
    if web.listen and not (match and 1 <= int(match.group(2)) <= 65535):
        problems.append(f"web.listen must be host:port (e.g. \"127.0.0.1:8080\"), not {web.listen!r}")
    if web.base_url and not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", web.base_url):
        problems.append(f"web.base_url must be an http(s) URL (e.g. \"https://dip.example.org\"), not {web.base_url!r}")
    if web.gm_password_hash and not web.gm_password_hash.startswith("pbkdf2_sha256$"):
        problems.append("web.gm_password_hash must be what `gmserver web --hash-password` prints")
    return problems
