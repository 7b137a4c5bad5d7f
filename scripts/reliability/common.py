"""What the reliability scripts share: databases they create and drop, `gmserver` as a
subprocess, Maildir counting, and the checks each script prints and exits on.

The scripts drive gmserver only through its stable entry points (the `gmserver` command, the
SMTP listener, and the services functions `intake.store`/`process_one`/`process_pending`,
`turns.adjudicate_due`, `outbox.deliver_due`); they read the database through the models only to
count what happened.
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("HOME", "/tmp")  # the diplomacy engine refuses to import without one

PG_ADMIN_URL = os.environ.get("GMSERVER_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
GM = "gm@gm.test"


# -- databases ---------------------------------------------------------------------------------

class Database:
    """A database of the script's own: a SQLite file in `directory`, or a PostgreSQL database
    created on the local server and dropped at the end (unless `keep`)."""

    def __init__(self, kind: str, directory: Path, *, keep: bool = False, prefix: str = "gmrel") -> None:
        self.kind, self.keep = kind, keep
        self.name = f"{prefix}_{uuid.uuid4().hex[:10]}"
        if kind == "sqlite":
            self.url = f"sqlite:///{directory / 'gm.db'}"
        elif kind == "postgresql":
            self.url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{self.name}"
        else:
            raise ValueError(f"unknown database kind {kind!r}")

    def __enter__(self) -> Database:
        if self.kind == "postgresql":
            self._admin(f'CREATE DATABASE "{self.name}"')
        return self

    def __exit__(self, *_: Any) -> None:
        if self.kind == "postgresql":
            if self.keep:
                print(f"kept PostgreSQL database {self.name}")
            else:
                self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def _admin(self, statement: str) -> None:
        from sqlalchemy import create_engine, text

        admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as connection:
                connection.execute(text(statement))
        finally:
            admin.dispose()

    def reader(self):  # type: ignore[no-untyped-def]
        """An engine for counting: plain reads that never take SQLite's write lock."""
        from sqlalchemy import create_engine

        if self.kind == "sqlite":
            return create_engine(self.url, connect_args={"timeout": 30})
        return create_engine(self.url, pool_pre_ping=True)


# -- gmserver as a subprocess ------------------------------------------------------------------

def write_config(path: Path, *, url: str, port: int, maildir: Path, gm: str = GM, interval: int = 1,
                 relay_port: int | None = None) -> Path:
    """gmserver's configuration: mail out to the Maildir, or with `relay_port` through the SMTP
    relay on that loopback port."""
    outbound = (f'[outbound]\nmode = "smtp"\ninterval_seconds = {interval}\n'
                f'[outbound.smtp]\nhost = "127.0.0.1"\nport = {relay_port}\ntls = "none"\n' if relay_port else
                f'[outbound]\nmode = "maildir"\ninterval_seconds = {interval}\n[outbound.maildir]\npath = "{maildir}"\n')
    path.write_text(
        f'[database]\nurl = "{url}"\n'
        f'[gm]\naddress = "{gm}"\nname = "Reliability GM"\n'
        f'[inbound]\nmode = "smtp"\n[inbound.smtp]\nhost = "127.0.0.1"\nport = {port}\n'
        # the scripts' one sender stands for every player and stranger: one address, many clients
        f'max_connections_per_client = 10000\nclient_connections_per_minute = 100000\n'
        + outbound + f'[daemon]\nsweep_interval_seconds = {interval}\n', encoding="utf-8")
    return path


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("HOME", "/tmp")
    env["PYTHONFAULTHANDLER"] = "1"  # a hung daemon can be made to show its threads (Daemon.stop)
    return env


def gmserver(config: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run one `gmserver` command; its output is returned (check `returncode` yourself)."""
    return subprocess.run([sys.executable, "-m", "gmserver", "--config", str(config), *args], env=child_env(),
                          capture_output=True, text=True, timeout=timeout)


def gmserver_ok(config: Path, *args: str, timeout: float = 300) -> str:
    done = gmserver(config, *args, timeout=timeout)
    if done.returncode != 0:
        raise SystemExit(f"gmserver {' '.join(args)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done.stdout


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Daemon:
    """`gmserver run` as a GM starts it, its log appended to `log`."""

    def __init__(self, config: Path, port: int, log: Path) -> None:
        self.config, self.port, self.log = config, port, log
        self.process: subprocess.Popen[bytes] | None = None
        self.log_offset = 0

    def launch(self) -> None:
        """Start it, without waiting for it to listen."""
        self.log_offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "gmserver", "--config", str(self.config), "run"],
                                            env=child_env(), stdout=out, stderr=subprocess.STDOUT)

    def start(self, timeout: float = 60) -> float:
        """Start and wait until the listener accepts connections; returns the seconds it took."""
        started = time.monotonic()
        self.launch()
        assert self.process is not None
        while time.monotonic() - started < timeout:
            if self.process.poll() is not None:
                raise RuntimeError(f"gmserver run exited with {self.process.returncode} at start-up; see {self.log}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return time.monotonic() - started
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"gmserver run did not listen on {self.port} within {timeout} s; see {self.log}")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self, timeout: float = 60) -> int:
        """SIGTERM, as a GM stops it; returns its exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            # hung: SIGABRT makes faulthandler (PYTHONFAULTHANDLER) write every thread's stack to the log
            self.process.send_signal(signal.SIGABRT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
            print(f"gmserver run did not stop within {timeout:.0f} s of SIGTERM; its threads, from {self.log}:\n"
                  + "\n".join(self.log_since_start().splitlines()[-80:]), file=sys.stderr)
            return -9

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_since_start(self) -> str:
        with self.log.open("rb") as handle:
            handle.seek(self.log_offset)
            return handle.read().decode("utf-8", "replace")


# -- Maildir ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Delivered:
    message_id: str
    recipient: str
    subject: str
    file: str


def maildir_messages(*paths: Path) -> list[Delivered]:
    """Every message in the Maildirs' new/ and cur/, headers only."""
    parser = email.parser.BytesHeaderParser(policy=email.policy.compat32)
    found = []
    for path in paths:
        for sub in ("new", "cur"):
            folder = path / sub
            if not folder.is_dir():
                continue
            for file in sorted(folder.iterdir()):
                headers = parser.parsebytes(file.read_bytes())
                found.append(Delivered(" ".join(str(headers.get("Message-ID", "")).split()),
                                       str(headers.get("Delivered-To", headers.get("To", ""))).strip(),
                                       str(headers.get("Subject", "")), str(file)))
    return found


def relay_messages(raws: Iterable[bytes]) -> list[Delivered]:
    """Every message an SMTP relay accepted (answered 250 to DATA), headers only, in the order it
    accepted them: unlike a Maildir, which keeps one file per Message-ID whatever it is handed, a
    relay counts each delivery, so a message sent twice is seen twice."""
    parser = email.parser.BytesHeaderParser(policy=email.policy.compat32)
    found = []
    for number, raw in enumerate(raws):
        headers = parser.parsebytes(raw)
        found.append(Delivered(" ".join(str(headers.get("Message-ID", "")).split()),
                               str(headers.get("To", "")).strip(), str(headers.get("Subject", "")),
                               f"relay #{number + 1}"))
    return found


def doubled(ids: list[str]) -> dict[str, int]:
    return {key: count for key, count in Counter(ids).items() if count > 1}


# -- figures and checks -------------------------------------------------------------------------

@dataclass
class Report:
    """Figures and invariant checks, printed in one format the tests read:
    `figure NAME: VALUE` and `check NAME: OK|BROKEN (detail)`, then `result: OK|BROKEN`."""

    title: str
    figures: dict[str, Any] = field(default_factory=dict)
    checks: list[tuple[str, bool, str]] = field(default_factory=list)

    def figure(self, name: str, value: Any) -> None:
        self.figures[name] = value

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append((name, bool(ok), detail))
        return ok

    @property
    def broken(self) -> list[str]:
        return [name for name, ok, _ in self.checks if not ok]

    def print(self, json_path: str | None = None) -> int:
        lines = [f"== {self.title}"]
        lines += [f"figure {name}: {value}" for name, value in self.figures.items()]
        # the detail says what broke; a check that held needs none
        lines += [f"check {name}: {'OK' if ok else 'BROKEN'}" + (f" ({detail})" if detail and not ok else "")
                  for name, ok, detail in self.checks]
        lines.append("result: " + ("OK" if not self.broken else f"BROKEN ({', '.join(self.broken)})"))
        # hostile mail's undecodable bytes (lone surrogates) are printed as escapes
        print("\n".join(lines).encode("utf-8", "backslashreplace").decode("utf-8"), flush=True)
        if json_path:
            Path(json_path).write_text(json.dumps({"title": self.title, "figures": self.figures,
                                                   "checks": {n: {"ok": ok, "detail": d} for n, ok, d in self.checks},
                                                   "ok": not self.broken}, indent=2, default=str),
                                       encoding="utf-8", errors="backslashreplace")
        return 0 if not self.broken else 1


def peak_rss_mb(children: bool = False) -> float:
    """Peak resident memory in MB (Linux reports KB) of this process, or of its waited-for children."""
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    return resource.getrusage(who).ru_maxrss / 1024


def sample(items: list[Any], count: int = 5) -> str:
    return ", ".join(map(str, items[:count])) + (" ..." if len(items) > count else "")


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]
