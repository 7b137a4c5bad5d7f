"""A private Dovecot (IMAP, IMAPS, LMTP) on 127.0.0.1 for integration tests.

Each instance has its own config, users, maildirs and a self-signed certificate in a short
temporary directory (Unix socket paths under it must stay below 108 bytes). No pytest here:
the fixtures in tests/integration/conftest.py wrap it.

    dc = Dovecot()
    dc.start()
    dc.add_user("gm@example.test", "secret")
    dc.append("gm@example.test", b"Subject: hi\\r\\n\\r\\nhello\\r\\n")
    dc.messages("gm@example.test")  # [(1, (b"\\Recent",), b"Subject: hi...")]
    dc.stop()
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Self

from imapclient import IMAPClient

INSTALL_HINT = "run scripts/install-test-services.sh (as root or with sudo) to install it"
MAIL_USER = "vmail"
START_TIMEOUT = 10.0
STOP_TIMEOUT = 10.0


@dataclass(frozen=True)
class MailUser:
    """A passwd-file user of the test Dovecot."""

    address: str
    password: str


class DovecotError(RuntimeError):
    """Dovecot is missing, failed to start, or did not stop."""


def dovecot_binary() -> str | None:
    """Path of the dovecot binary, or None when it is not installed."""
    found = shutil.which("dovecot") or (
        "/usr/sbin/dovecot" if os.access("/usr/sbin/dovecot", os.X_OK) else None
    )
    for helper in ("imap", "lmtp"):
        if found is None or not os.access(f"/usr/lib/dovecot/{helper}", os.X_OK):
            return None
    return found


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Dovecot:
    """One private Dovecot instance; ports and files stay the same across stop()/start()."""

    host = "127.0.0.1"

    def __init__(self) -> None:
        binary = dovecot_binary()
        if binary is None:
            raise DovecotError(f"Dovecot (with IMAP and LMTP) is not installed: {INSTALL_HINT}")
        self._binary = binary
        self._users: dict[str, str] = {}
        self._process: subprocess.Popen[bytes] | None = None
        self._ports = (free_port(), free_port(), free_port())
        self._as_root = os.geteuid() == 0
        self._mail_uid, self._mail_gid, self._mail_user = self._mail_owner()
        self._base = Path(tempfile.mkdtemp(prefix="gmdc", dir="/tmp"))
        try:
            # Dovecot's auth process reads the users files as the unprivileged `dovecot` user.
            self._base.chmod(0o755)
            self._make_certificate()
            (self._base / "mail").mkdir(mode=0o700)
            os.chown(self._base / "mail", self._mail_uid, self._mail_gid)
            (self._base / "users").mkdir(mode=0o755)
            self.config_path.write_text(self._config())
        except BaseException:
            shutil.rmtree(self._base, ignore_errors=True)
            raise

    # -- paths and addresses ------------------------------------------------------------

    @property
    def imap_port(self) -> int:
        """Plain IMAP, with STARTTLS offered."""
        return self._ports[0]

    @property
    def imaps_port(self) -> int:
        """IMAP over TLS from the first byte."""
        return self._ports[1]

    @property
    def lmtp_port(self) -> int:
        return self._ports[2]

    @property
    def base_dir(self) -> Path:
        return self._base

    @property
    def config_path(self) -> Path:
        return self._base / "dovecot.conf"

    @property
    def log_path(self) -> Path:
        return self._base / "dovecot.log"

    @property
    def cert_path(self) -> str:
        """The self-signed certificate (CN=localhost, SAN localhost and 127.0.0.1)."""
        return str(self._base / "cert.pem")

    @property
    def key_path(self) -> str:
        return str(self._base / "key.pem")

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts only this instance's certificate."""
        return ssl.create_default_context(cafile=self.cert_path)

    # -- life cycle ---------------------------------------------------------------------

    def start(self) -> None:
        if self.running:
            return
        log_offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with open(self._base / "stderr.log", "ab") as stderr:
            # -F: stay in the foreground so the master is our child and its exit is seen.
            self._process = subprocess.Popen(
                [self._binary, "-F", "-c", str(self.config_path)],
                stdin=subprocess.DEVNULL,
                stdout=stderr,
                stderr=stderr,
            )
        # Ready once the master logged "starting up" (after binding every listener) and the
        # ports answer: a connectable port alone could be someone else's.
        deadline = time.monotonic() + START_TIMEOUT
        pending = {self.imap_port, self.imaps_port, self.lmtp_port}
        started = False
        while True:
            code = self._process.poll()
            if code is not None:
                self._process = None
                raise DovecotError(f"dovecot exited at start-up (code {code}):\n{self.log_tail()}")
            started = started or b"starting up" in _read_from(self.log_path, log_offset)
            pending = {port for port in pending if not _listening(self.host, port)}
            if started and not pending:
                return
            if time.monotonic() > deadline:
                self.stop()
                raise DovecotError(
                    f"dovecot did not start (ports not answering: {sorted(pending)}) within "
                    f"{START_TIMEOUT:.0f} s:\n{self.log_tail()}"
                )
            time.sleep(0.01)

    def stop(self) -> None:
        """SIGTERM to the master (from master.pid), wait, then end its leftover children.

        Measured: the master exits after about 1 s but leaves imap processes with a logged-in
        client running (they keep serving that client), plus its log and stats processes.
        A stopped test server must drop its clients, so those are ended by pid too.
        """
        process, self._process = self._process, None
        if process is None:
            return  # not started by us: never signal a pid from a stale master.pid
        # Run with -F, the master is our child: the pid in master.pid is process.pid.
        pid = self._master_pid() or process.pid
        if pid != process.pid:
            raise DovecotError(f"master.pid says {pid}, but we started dovecot as {process.pid}")
        children = _children(pid)
        _signal(pid, signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for child in children:
            _signal(child, signal.SIGTERM)
        if not _wait_gone(children, STOP_TIMEOUT / 2):
            for child in children:
                _signal(child, signal.SIGKILL)
            _wait_gone(children, STOP_TIMEOUT / 2)

    def cleanup(self) -> None:
        """Stop and delete every file of this instance."""
        self.stop()
        shutil.rmtree(self._base, ignore_errors=True)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.cleanup()

    def log_tail(self, lines: int = 40) -> str:
        text = ""
        for path in (self._base / "stderr.log", self.log_path):
            if path.exists():
                text += path.read_text(errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    # -- users and mail -----------------------------------------------------------------

    def add_user(self, address: str, password: str) -> None:
        """Add (or change) a user; the running instance sees it at the next login."""
        if ":" in address or ":" in password or "\n" in address + password:
            raise ValueError("address and password may not contain ':' or newlines")
        if "/" in address or address.startswith("."):
            raise ValueError(f"not a usable test address: {address!r}")
        self._users[address] = password
        self._write_user(address)

    def append(
        self, address: str, raw: bytes, folder: str = "INBOX", flags: tuple[bytes, ...] = ()
    ) -> int:
        """APPEND a message over IMAP as the user (as another client would); its UID."""
        with self._login(address) as client:
            if folder != "INBOX" and not client.folder_exists(folder):
                client.create_folder(folder)
            response = client.append(folder, raw, flags=flags)
        # Dovecot answers "[APPENDUID <uidvalidity> <uid>] Append completed."
        return int(response.split(b"]")[0].split()[-1])

    def messages(
        self, address: str, folder: str = "INBOX"
    ) -> list[tuple[int, tuple[bytes, ...], bytes]]:
        """Every message in a folder as (uid, flags, raw), read without setting \\Seen."""
        with self._login(address) as client:
            client.select_folder(folder, readonly=True)
            uids = client.search("ALL")
            if not uids:
                return []
            data = client.fetch(uids, ["FLAGS", "BODY.PEEK[]"])
            return [(uid, tuple(data[uid][b"FLAGS"]), data[uid][b"BODY[]"]) for uid in sorted(data)]

    def _login(self, address: str) -> IMAPClient:
        if address not in self._users:
            raise KeyError(f"no such test user {address!r}; call add_user() first")
        client = IMAPClient(self.host, self.imap_port, ssl=False, timeout=10)
        client.login(address, self._users[address])
        return client

    # -- files --------------------------------------------------------------------------

    def _mail_owner(self) -> tuple[int, int, str]:
        if not self._as_root:
            entry = pwd.getpwuid(os.geteuid())
            return entry.pw_uid, entry.pw_gid, entry.pw_name
        try:
            entry = pwd.getpwnam(MAIL_USER)
        except KeyError:
            subprocess.run(
                [
                    "useradd",
                    "--system",
                    "--no-create-home",
                    "--home-dir",
                    "/nonexistent",
                    "--shell",
                    "/usr/sbin/nologin",
                    MAIL_USER,
                ],
                check=True,
                capture_output=True,
            )
            entry = pwd.getpwnam(MAIL_USER)
        return entry.pw_uid, entry.pw_gid, entry.pw_name

    def _make_certificate(self) -> None:
        if shutil.which("openssl") is None:
            raise DovecotError(f"openssl is not installed: {INSTALL_HINT}")
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=localhost",
                "-addext",
                "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout",
                self.key_path,
                "-out",
                self.cert_path,
            ],
            check=True,
            capture_output=True,
        )

    def _write_user(self, address: str) -> None:
        # One passwd-file per user: Dovecot re-checks a passwd-file at most once a second, so
        # a user added to a shared file could stay unknown for a second; a new file is read
        # at the first lookup. (A changed password may still take up to a second.)
        path = self._base / "users" / address
        tmp = path.with_name(address + ".tmp")
        tmp.write_text(f"{address}:{{PLAIN}}{self._users[address]}::::::\n")
        tmp.chmod(0o644)
        tmp.replace(path)

    def _config(self) -> str:
        base = self._base
        if self._as_root:
            privileges = no_chroot = ""
        else:
            # Unprivileged run: every process is this user, and nothing can chroot.
            group = grp.getgrgid(self._mail_gid).gr_name
            privileges = (
                f"default_internal_user = {self._mail_user}\n"
                f"default_internal_group = {group}\n"
                f"default_login_user = {self._mail_user}\n"
                "service ipc {\n  chroot =\n}\n"
            )
            no_chroot = "  chroot =\n"
        return f"""# Generated by tests/support/dovecot.py: a private test instance.
base_dir = {base}/run
state_dir = {base}/state
log_path = {self.log_path}
listen = {self.host}
protocols = imap lmtp
ssl = yes
ssl_cert = <{self.cert_path}
ssl_key = <{self.key_path}
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:{base}/mail/%d/%n
mail_uid = {self._mail_uid}
mail_gid = {self._mail_gid}
first_valid_uid = {self._mail_uid}
last_valid_uid = {self._mail_uid}
first_valid_gid = {self._mail_gid}
last_valid_gid = {self._mail_gid}
mailbox_idle_check_interval = 1 secs
# a test server: no fsync per delivered or flagged message (the VM's disk makes each one slow)
mail_fsync = never
lmtp_save_to_detail_mailbox = no
{privileges}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {base}/users/%u
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {base}/users/%u
  default_fields = uid={self._mail_uid} gid={self._mail_gid} home={base}/mail/%d/%n
}}
service imap-login {{
{no_chroot}  inet_listener imap {{
    address = {self.host}
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    address = {self.host}
    port = {self.imaps_port}
    ssl = yes
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = {self.host}
    port = {self.lmtp_port}
  }}
}}
# Without this, every failed login is delayed by anvil's auth penalty.
service anvil {{
{no_chroot}  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
"""

    def _master_pid(self) -> int | None:
        try:
            return int((self._base / "run" / "master.pid").read_text().strip())
        except (OSError, ValueError):
            return None


def _read_from(path: Path, offset: int) -> bytes:
    try:
        with open(path, "rb") as file:
            file.seek(offset)
            return file.read()
    except FileNotFoundError:
        return b""


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False


def _children(pid: int) -> list[int]:
    """Pids of the direct children of `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # Fields after the parenthesised command name: state, ppid, ...
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signum)


def _alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _wait_gone(pids: list[int], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while any(_alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


SEEN = b"\\Seen"


def append_all(dovecot: Dovecot, user: MailUser, messages: list[bytes],
               when: datetime | None = None) -> list[int]:
    """APPEND the messages in one session (optionally with an INTERNALDATE); their UIDs."""
    uids = []
    with IMAPClient(dovecot.host, dovecot.imap_port, ssl=False, timeout=30) as client:
        client.login(user.address, user.password)
        for raw in messages:
            response = client.append("INBOX", raw, msg_time=when)
            uids.append(int(response.split(b"]")[0].split()[-1]))
    return uids


def seen(dovecot: Dovecot, user: MailUser) -> dict[int, bool]:
    return {uid: SEEN in flags for uid, flags, _ in dovecot.messages(user.address)}
