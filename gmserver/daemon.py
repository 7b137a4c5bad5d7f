"""The one place that builds and wires everything: database, mail in and out, the scheduler.

The daemon is the `--once` loops on timers: inbound processing, the outbox, a sweep that
adjudicates anything due, queues reminders and mails the GM about parked or undeliverable mail,
plus deadline jobs rebuilt from the database, and either an IMAP watcher thread (IDLE or
polling) or the SMTP/LMTP listener. Every loop reports whether the IMAP server, the relay and
the database answered to an `OutageTracker`; an outage that lasts is logged at ERROR and
mailed to the GM once.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Collection, Iterator
from datetime import UTC, datetime

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from gmserver import collector, engine, mapboard
from gmserver.commands.registry import PLAYER_COMMANDS
from gmserver.config import Config
from gmserver.db.session import DATABASE_UNREACHABLE, make_engine, make_session_factory, unreachable_reason
from gmserver.mail.compose import Composer
from gmserver.mail.imap import ImapMailbox, ImapSettings, MailboxError, reconnect_delay
from gmserver.mail.listener import Listener, SmtpEnvelope
from gmserver.mail.outbound import MaildirTransport, SmtpTransport, Transport
from gmserver.paths import TEMPLATES_DIR
from gmserver.scheduler import DeadlineJobs
from gmserver.services.base import outbox
from gmserver.services.base.context import SenderChecks, Services
from gmserver.services.features import alerts, draw_complaints, nmr, press_digest, senders, signup, views
from gmserver.services.features.alerts import Outage, OutageTracker
from gmserver.services.game import schedule
from gmserver.services.inbox import runner as intake
from gmserver.services.inbox.polling import poll_once
from gmserver.services.turn import turns
from gmserver.web.server import WebThread, web_thread

log = logging.getLogger(__name__)

# how often, at most, processing a burst of mail kicks the outbox (Daemon._outbox_kicker)
KICK_INTERVAL_SECONDS = 0.05


def utcnow() -> datetime:
    return datetime.now(UTC)


def build_services(config: Config) -> Services:
    sessions = make_session_factory(make_engine(config.database_url))
    composer = Composer(TEMPLATES_DIR, gm_name=config.gm_name, gm_address=config.gm_address)
    return Services(sessions=sessions, composer=composer, geography=engine.map_info(),
                    sender_checks=SenderChecks(trusted_authserv_ids=config.trusted_authserv_ids,
                                               trusted_receivers=config.trusted_receivers),
                    gm_addresses=config.gm_command_addresses, alerts_to=config.alerts_to,
                    web_base_url=config.web.base_url, web_public=config.web.public,
                    player_commands=PLAYER_COMMANDS)


def build_transport(config: Config) -> Transport:
    if config.outbound_mode == "smtp":
        return SmtpTransport(config.smtp)
    return MaildirTransport(config.maildir_path)


def imap_settings(config: Config) -> ImapSettings:
    c = config.imap
    return ImapSettings(host=c.host, port=c.port, tls=c.tls, user=c.user, password=c.password, folder=c.folder,
                        idle=c.idle, ca_file=c.ca_file, poll_seconds=c.poll_seconds)


# How long `stop` waits for running jobs (an adjudication takes well under a second).
STOP_TIMEOUT_SECONDS = 30


class RunningJobs:
    """How many of the daemon's jobs are running, so that `stop` can wait for them to finish."""

    def __init__(self) -> None:
        self._count = 0
        self._changed = threading.Condition()

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        with self._changed:
            self._count += 1
        try:
            yield
        finally:
            with self._changed:
                self._count -= 1
                self._changed.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """True once no job is running; False if one still is after `timeout` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: self._count == 0, timeout=timeout)


class RerunWhenKicked:
    """A periodic job that runs again at once when it was kicked while it ran.

    APScheduler skips a run that falls due while the job's instance still runs and sets the next
    one a whole interval later: mail the listener stored (and kicked for) just after the inbound
    job had read the pending rows waited for the next tick, 30 s by default. Each call marks the
    job wanted; a call that finds it running leaves it at that, and the running call sees the
    mark when its run ends and runs again. Scheduled with max_instances=2 so that the kicked call
    is made at all. `again_if_running` marks it without a call: a kick while the job runs (each
    mail of a burst kicks) then costs neither the scheduler's thread nor a pool thread.
    """

    def __init__(self, job: Callable[[], None], stopping: threading.Event) -> None:
        self._job = job
        self._stopping = stopping
        self._state = threading.Lock()  # guards the two flags below
        self._running = False
        self._wanted = False
        self.__name__ = job.__name__

    def __call__(self) -> None:
        with self._state:
            self._wanted = True
            if self._running:
                return  # the call running now will run again
            self._running = True
        try:
            while True:
                with self._state:
                    if not self._wanted or self._stopping.is_set():
                        self._running = False
                        return
                    self._wanted = False
                self._job()
        except BaseException:
            with self._state:
                self._running = False
            raise

    def again_if_running(self) -> bool:
        """Whether a call is running; if so it is marked to run again when its run ends."""
        with self._state:
            if self._running:
                self._wanted = True
            return self._running


class FiredGames:
    """The games whose jobs fired and that the run answering them has not taken yet."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ids: set[int] = set()

    def add(self, game_id: int) -> None:
        with self._lock:
            self._ids.add(game_id)

    def take(self) -> set[int]:
        """Every game added since the last take, forgotten here."""
        with self._lock:
            taken, self._ids = self._ids, set()
        return taken

    def put_back(self, game_ids: set[int]) -> None:
        with self._lock:
            self._ids |= game_ids


class DaemonError(Exception):
    """The daemon cannot start; the message says why and what to change."""


def quiet_libraries() -> None:
    """aiosmtpd logs every SMTP command at INFO; APScheduler warns each time a job that is
    kicked while running skips a turn (the running instance picks the work up), and logs each
    run of every job at INFO (the outbox and sweep jobs: two lines every few seconds); a job's
    failure is still logged (ERROR)."""
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    logging.getLogger("apscheduler.scheduler").setLevel(logging.ERROR)
    logging.getLogger("apscheduler.executors").setLevel(logging.WARNING)


class Daemon:
    def __init__(self, config: Config, *, services: Services | None = None, transport: Transport | None = None,
                 clock: Callable[[], datetime] = utcnow) -> None:
        self.config = config
        self.clock = clock
        self.services = services or build_services(config)
        self.transport = transport or build_transport(config)
        self.scheduler = BackgroundScheduler(timezone=UTC,
                                             executors={"default": ThreadPoolExecutor(4)},
                                             job_defaults={"coalesce": True, "max_instances": 1})
        self.deadlines = DeadlineJobs(self.scheduler, self._on_deadline, self._on_reminder)
        self._stopping = threading.Event()
        self._jobs = RunningJobs()
        self._listener: Listener | None = None
        self._web: WebThread | None = None
        self._imap_thread: threading.Thread | None = None
        self._imap_mailbox: ImapMailbox | None = None
        # how long the IMAP watcher waits after so many failed tries in a row
        self.imap_backoff: Callable[[int], float] = reconnect_delay
        self._outages = OutageTracker()
        self._outages_lock = threading.Lock()
        self._kickable: dict[str, RerunWhenKicked] = {}  # the jobs `kick` asks for, by id (set by `start`)
        self._outage_alerts: list[Outage] = []  # alerts not stored yet (the database was the outage)
        # Deadline and reminder jobs are a game's each; the work they ask for is done for every game
        # due at once by one run (RerunWhenKicked), which then reschedules the games whose jobs fired
        self._deadlines_fired, self._reminders_fired = FiredGames(), FiredGames()
        self._deadline_run = RerunWhenKicked(self._adjudicate_due, self._stopping)
        self._reminder_run = RerunWhenKicked(self._queue_due_reminders, self._stopping)

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start everything; raises DaemonError (nothing left running) if the listener cannot bind."""
        quiet_libraries()
        if self.config.alerts_to == self.config.gm_address and self.config.outbound_mode == "smtp":
            log.warning("alerts for the GM go to %s, the address gmserver itself reads (and ignores them "
                        "there); set [gm] alert_address to a mailbox you read", self.config.gm_address)
        if self.config.inbound_mode == "imap":
            self._catch_up_imap()
        else:
            self._start_listener()  # first: a port in use must stop us before any job runs
        if self.config.web.enabled:
            self._start_web()
        interval = max(self.config.sweep_interval_seconds, 1)
        self._kickable = {"inbound": RerunWhenKicked(self._process_inbound, self._stopping),
                          "outbox": RerunWhenKicked(self._deliver, self._stopping)}
        self.scheduler.add_job(self._watching_the_database(self._kickable["inbound"]),
                               "interval", seconds=interval, id="inbound", next_run_time=self.clock(),
                               max_instances=2)
        self.scheduler.add_job(self._watching_the_database(self._kickable["outbox"]),
                               "interval", seconds=max(self.config.outbox_interval_seconds, 1), id="outbox",
                               next_run_time=self.clock(), max_instances=2)
        self.scheduler.add_job(self._watching_the_database(self._sweep), "interval", seconds=interval, id="sweep",
                               next_run_time=self.clock())
        self.scheduler.start()
        self.resync()
        if self.config.inbound_mode == "imap":
            self._imap_thread = threading.Thread(target=self._watch_imap, name="imap", daemon=True)
            self._imap_thread.start()

    def settle(self) -> None:
        """Once `start` has returned, in a process that lives on (`gmserver run`, the demo): build
        what the first mail would otherwise wait for, the board's raster that every confirmation's
        map is drawn on (0.3 to 0.45 s of CPU, paid inside the first burst of mail otherwise), then
        settle the garbage collector with it (gmserver/collector.py). Left out by the tests, which
        start daemons by the hundred."""
        mapboard.board()
        collector.settle_after_start()

    def _start_listener(self) -> None:
        settings = self.config.listener
        listener = Listener(settings.host, settings.port, settings.protocol, self._store_from_listener,
                            accepted_recipients={self.config.gm_address},
                            trusted_authserv_ids=self.config.trusted_authserv_ids,
                            trusted_receivers=self.config.trusted_receivers,
                            trusted_relays=settings.trusted_relays, max_connections=settings.max_connections,
                            max_connections_per_client=settings.max_connections_per_client,
                            client_connections_per_minute=settings.client_connections_per_minute)
        try:
            listener.start()
        except OSError as error:
            raise DaemonError(
                f"cannot listen for {settings.protocol.upper()} on {settings.host}:{settings.port}: "
                f"{error.strerror or error}; is another gmserver running? Choose another port with "
                f"[inbound.smtp] port (the demo: --port)") from None
        self._listener = listener

    def _start_web(self) -> None:
        web = web_thread(self.config, self.services)
        try:
            web.start()
        except RuntimeError as error:
            if self._listener is not None:
                self._listener.stop()
            raise DaemonError(f"cannot serve the web pages on {self.config.web.listen}: {error}; choose another "
                              "[web] listen") from None
        self._web = web
        log.info("web pages at http://%s/games/NAME", self.config.web.listen)

    def stop(self) -> None:
        self._stopping.set()
        if self._listener is not None:
            self._listener.stop()
        if self._web is not None:
            self._web.stop()
        if not self.scheduler.running:
            return
        if self._imap_mailbox is not None:
            self._imap_mailbox.interrupt()
        if self._imap_thread is not None:
            self._imap_thread.join(timeout=10)
        # Not shutdown(wait=True): APScheduler waits for running jobs while holding its job-store
        # lock, and a job that then asks the scheduler anything (get_jobs in resync) waits for that
        # lock for ever: `gmserver run` hung on SIGTERM in the soak. Stop it taking new jobs, then
        # wait for ours to finish with the lock free.
        self.scheduler.shutdown(wait=False)
        if not self._jobs.wait_idle(timeout=STOP_TIMEOUT_SECONDS):
            log.warning("stopping with a job still running after %d s; the database keeps it safe "
                        "(its transaction is rolled back and done again at the next start)", STOP_TIMEOUT_SECONDS)
        log.info("stopped")

    def request_stop(self) -> None:
        """Ask the daemon to stop, e.g. from a signal handler: `wait` returns True and the loops
        wind down; `stop` then shuts everything and waits for it."""
        self._stopping.set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._stopping.wait(timeout)

    # -- jobs --------------------------------------------------------------------------------

    def kick(self, job_id: str) -> None:
        """Run a periodic job now instead of at its next tick (a running one: again when it ends)."""
        if self.scheduler.running and not self._stopping.is_set():
            kickable = self._kickable.get(job_id)
            if kickable is not None and kickable.again_if_running():
                return
            job = self.scheduler.get_job(job_id)
            if job is not None:
                job.modify(next_run_time=self.clock())

    def _outbox_kicker(self) -> Callable[[], None]:
        """A kick of the outbox for each message processed, at most one each KICK_INTERVAL_SECONDS:
        in a burst, each confirmation leaves while the rest are read (the outbox job, kicked
        while it runs, runs again at once: RerunWhenKicked)."""
        last = -KICK_INTERVAL_SECONDS

        def kick() -> None:
            nonlocal last
            if (now := time.monotonic()) - last >= KICK_INTERVAL_SECONDS:
                last = now
                self.kick("outbox")
        return kick

    def resync(self, game_ids: Collection[int] | None = None) -> None:
        """Rebuild the deadline and reminder jobs from the games table: all of them, or those of
        the games of `game_ids`."""
        if self._stopping.is_set():
            return  # nothing more will run: the next start rebuilds them all from the database
        if game_ids is not None and not game_ids:
            return
        timings = views.game_timings(self.services.sessions, game_ids, self.clock())
        if game_ids is None:
            self.deadlines.sync(timings, self.clock())
        else:
            self.deadlines.sync_games(game_ids, timings, self.clock())

    def _store_from_listener(self, raw: bytes, envelope: SmtpEnvelope) -> None:
        intake.store(self.services.sessions, raw, source=self.config.listener.protocol, now=self.clock(),
                     envelope_from=envelope.mail_from, envelope_to=envelope.rcpt_tos)
        self.kick("inbound")

    def _process_inbound(self) -> None:
        if intake.process_pending(self.services, self.clock(), on_processed=self._outbox_kicker()):
            # 000 VII(2) minor_when_all_final: a set just stored may complete a minor turn; the
            # sweep would find it too, this only saves the wait (adjudicate re-checks under lock)
            if done := turns.adjudicate_due(self.services, self.clock()):
                self.resync({turn.game_id for turn in done})
            self.kick("outbox")

    def _deliver(self) -> None:
        # until nothing is due, so that mail queued while this ran is not left for the next tick
        while (report := outbox.deliver_due(self.services.sessions, self.transport, self.clock(),
                                            max_attempts=self.config.outbox_max_attempts)).attempted:
            self.observe("relay", report.relay_error is None, report.relay_error or "")
            if self._stopping.is_set() or report.relay_error is not None:
                break

    def _sweep(self) -> None:
        """Safety net, reminders and alerts: anything due is done even if a job was lost."""
        # mail already stored is read before any deadline it may have met is processed
        intake.process_pending(self.services, self.clock())
        done = turns.adjudicate_due(self.services, self.clock())
        reminded = turns.queue_reminders(self.services, self.clock())
        reminded += nmr.check_contact_windows(self.services, self.clock())  # 001 V(1): notices for the GM
        reminded += nmr.check_preliminary_orders(self.services, self.clock())  # 000 II(1): Spring 1901
        reminded += draw_complaints.close_windows(self.services, self.clock())  # 002 DRAWS 5: the draw stands
        reminded += senders.tell_gm_of_from_games(self.services, self.clock())  # once per game still on "from"
        reminded += press_digest.send_due(self.services, self.clock())  # SET PRESS digest: a day's press in one mail
        started = signup.start_due(self.services, self.clock())  # announced games at their start time
        reminded += started
        try:
            alerted = alerts.queue_alerts(self.services, self.clock(), to=self.config.alerts_to).total
            alerted += schedule.queue_early_notices(self.services, self.clock(), to=self.config.alerts_to)
        except DATABASE_UNREACHABLE:
            raise
        except Exception:
            log.exception("alerts: queuing the GM's alerts failed")
            alerted = 0
        alerted += self._store_outage_alerts()
        if done or reminded or alerted:
            self.kick("outbox")
        if started:  # new games: every game's jobs
            self.resync()
        elif done:
            self.resync({turn.game_id for turn in done})

    # -- outages -----------------------------------------------------------------------------

    def observe(self, component: str, ok: bool, error: str = "") -> None:
        """Tell the outage tracker how `component` ("imap", "relay", "database") just did."""
        now = self.clock()
        with self._outages_lock:
            self._outages, alert, ended = self._outages.observe(component, ok, now, error)
            if alert is not None:
                self._outage_alerts.append(alert)
        if ended is not None:
            lasted = now - ended.since
            log.log(logging.WARNING if lasted >= self._outages.threshold else logging.INFO,
                    "%s: reachable again, after %d minute(s) out of reach", component, lasted.total_seconds() // 60)
        if alert is None:
            return
        what = alerts.COMPONENTS[component][0]
        where = {"relay": "it waits in the outbox and is sent when the relay is back",
                 "database": "it is stored, and sent, when the database is back"}.get(
            component, "it is sent through the outbox")
        log.error("%s has been out of reach since %s (%d minutes): %s; the GM is alerted at %s: %s", what,
                  alert.since.isoformat(timespec="seconds"), (now - alert.since).total_seconds() // 60,
                  alert.error, self.config.alerts_to, where)
        if component != "database":
            self._store_outage_alerts()
            self.kick("outbox")

    def _store_outage_alerts(self) -> int:
        """Queue the outage alerts not stored yet; those the database refuses wait for the next try."""
        with self._outages_lock:
            waiting, self._outage_alerts = self._outage_alerts, []
        stored = 0
        for number, outage in enumerate(waiting):
            try:
                stored += alerts.queue_outage_alert(self.services, outage, self.clock(), to=self.config.alerts_to)
            except DATABASE_UNREACHABLE:
                with self._outages_lock:
                    self._outage_alerts[:0] = waiting[number:]
                break
        return stored

    def _watching_the_database(self, job: Callable[[], None]) -> Callable[[], None]:
        """`job`, reporting to the outage tracker whether the database answered."""
        def run() -> None:
            try:
                with self._jobs.running():
                    job()
            except DATABASE_UNREACHABLE as error:
                reason = unreachable_reason(error)
                self.observe("database", False, reason)
                log.error("%s: the database cannot be reached: %s", job.__name__.lstrip("_"), reason)
                return
            self.observe("database", True)
        run.__name__ = job.__name__
        return run

    def _on_deadline(self, game_id: int, _phase: str) -> None:
        """A game's deadline job. Games sharing a deadline fire a job each at once: the first
        job's run adjudicates every game due, in batches of a transaction (turns.adjudicate_due),
        and the others only ask it to look again when it ends (their games are done by then;
        one game at a time cost 1,000 games due twice the CPU, docs/performance.md)."""
        with self._jobs.running():
            self._deadlines_fired.add(game_id)
            self._deadline_run()

    def _adjudicate_due(self) -> None:
        fired = self._deadlines_fired.take()
        try:
            intake.process_pending(self.services, self.clock())  # orders stored before the deadline count
            done = turns.adjudicate_due(self.services, self.clock())
        except BaseException:
            self._deadlines_fired.put_back(fired)  # rescheduled by the next run
            raise
        if done:
            self.kick("outbox")
        # a game whose job fired is rescheduled even if not adjudicated (its deadline moved)
        self.resync(fired | {turn.game_id for turn in done})

    def _on_reminder(self, game_id: int, _phase: str) -> None:
        """A game's reminder job; as deadline jobs, one run queues every reminder due."""
        with self._jobs.running():
            self._reminders_fired.add(game_id)
            self._reminder_run()

    def _queue_due_reminders(self) -> None:
        fired = self._reminders_fired.take()
        try:
            reminded = turns.queue_reminders(self.services, self.clock())
        except BaseException:
            self._reminders_fired.put_back(fired)
            raise
        if reminded:
            self.kick("outbox")
        self.resync(fired)  # the profile's next reminder of these phases, if it lists another

    # -- IMAP --------------------------------------------------------------------------------

    def _catch_up_imap(self) -> None:
        """Store what reached the mailbox while the daemon was down before any deadline that
        passed meanwhile is processed (the sweep starts right after this)."""
        try:
            with ImapMailbox(imap_settings(self.config)) as mailbox:
                poll_once(self.services, mailbox, self.clock)
            self.observe("imap", True)
        except MailboxError as error:
            self.observe("imap", False, str(error))
            log.error("imap: could not catch up at start-up (%s); the watcher will keep trying", error)

    def _watch_imap(self) -> None:
        settings = imap_settings(self.config)
        mailbox = self._imap_mailbox = ImapMailbox(settings)
        failures = 0
        kick_outbox = self._outbox_kicker()
        while not self._stopping.is_set():
            try:
                report = poll_once(self.services, mailbox, self.clock, on_processed=kick_outbox)
                self.observe("imap", True)
                if report.processed:
                    self.kick("outbox")
                failures = 0
                mailbox.wait_for_mail(timeout=settings.poll_seconds)
            except MailboxError as error:
                self.observe("imap", False, str(error))
                failures += 1
                delay = self.imap_backoff(failures)
                # the outage tracker reports an outage that lasts; one line a minute or so here
                log.log(logging.ERROR if failures == 1 or failures % 12 == 0 else logging.DEBUG,
                        "imap: %s; retrying in %g s (try %d)", error, delay, failures)
                self._stopping.wait(delay)
            except DATABASE_UNREACHABLE as error:
                reason = unreachable_reason(error)
                self.observe("database", False, reason)
                log.error("imap: the database cannot be reached to store mail: %s; retrying in 10 s", reason)
                self._stopping.wait(10)
            except Exception:
                log.exception("imap watcher: unexpected error")
                self._stopping.wait(10)
        mailbox.close()
