"""Shared harness of the load benchmarks (play.py, fanout.py, load.py): servers and statistics.

`Servers(setup)` makes a fresh database (a SQLite file in a temporary folder for the embedded
configuration, a PostgreSQL database of its own otherwise, `patience_bench_<tag>`, or the one
named by `database`), migrates it, schedules certified dailies, starts N uvicorn processes on
consecutive ports and waits for `/healthz/`. Leaving the `with` block stops them (SIGTERM, then
SIGKILL after a timeout) and drops the database, whatever happened. Only loopback: PostgreSQL
and Redis on 127.0.0.1, Redis DB 5 (no other DB is touched), or the Redis of `redis_url` (a
redis-server of the benchmark's own). Each instance has its own tag, so two benchmarks on one
machine never share a database or a Redis key: the servers' keys start with `bench<tag>`, and
only those (and the task queues nobody consumes here) are deleted at the end. `kill(i)` and
`start_one(i)` end one process at once (SIGKILL) and start it again on its port.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
PG_HOST = "127.0.0.1"
PG_USER = "postgres"
BENCH_DB = "patience_bench"
REDIS_DB = 5
REDIS_URL = f"redis://127.0.0.1:6379/{REDIS_DB}"
GAMES = ("munger", "masterpiece")
#: An endpoint of the benchmark servers only (benchmarks/_urls.py): an empty Django request.
EMPTY_PATH = "/api/bench/empty/"
#: The settings of servers that answer it: the project's plus that endpoint (`extra_env`).
BENCH_SETTINGS = {"DJANGO_SETTINGS_MODULE": "benchmarks._settings"}

#: Every throttle scope and kind of the settings (THROTTLE_RATES), raised for benchmarks.
THROTTLE_SCOPES = ("starts", "moves", "accounts", "guests", "races", "renames")
THROTTLE_KINDS = ("player", "ip", "net")
RAISED_RATE = "10000000/min"
#: The ranked attempts an address and a network may start at a daily, raised likewise.
RAISED_LIMIT = "10000000"


@dataclass(frozen=True)
class Setup:
    """One server configuration."""

    name: str
    postgres: bool
    processes: int


EMBEDDED = Setup("embedded (SQLite, in-memory layer), 1 process", postgres=False, processes=1)
POSTGRES_2 = Setup("PostgreSQL + Redis, 2 processes", postgres=True, processes=2)
POSTGRES_3 = Setup("PostgreSQL + Redis, 3 processes", postgres=True, processes=3)


def _run(cmd: list[str], env: dict[str, str] | None = None, timeout: float = 300) -> str:
    done = subprocess.run(
        cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done.stdout


#: Keys the servers' Celery client leaves in Redis (queued tasks no worker here takes).
CELERY_KEYS = ("celery", "solve", "_kombu.*", "celery-task-meta-*", "unacked*")


def redis_forget(url: str, prefix: str) -> None:
    """Delete a run's keys from its Redis database: those that start with `prefix`, and the
    task queues (no benchmark runs a worker on the shared Redis; soak has its own)."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        for pattern in (f"{prefix}*", *CELERY_KEYS):
            keys = list(client.scan_iter(match=pattern, count=1000))
            for at in range(0, len(keys), 1000):
                client.delete(*keys[at : at + 1000])
    finally:
        client.close()


def _port_answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


class Servers:
    """A fresh database and N uvicorn processes of one configuration (a context manager)."""

    def __init__(
        self,
        setup: Setup,
        *,
        base_port: int = 18400,
        days: int = 1,
        faketime: str | None = None,
        clock_offset: float | None = None,
        pool_size: int | None = None,
        quiet: bool = False,
        extra_env: dict[str, str] | None = None,
        database: str | None = None,
        redis_url: str = REDIS_URL,
        postgres_port: int = 5432,
    ) -> None:
        self.setup = setup
        #: This instance's own: its database's and its Redis keys' names carry it.
        self.tag = secrets.token_hex(4)
        self.database = database or f"{BENCH_DB}_{self.tag}"
        #: The servers' REDIS_KEY_PREFIX: the start of every key and channel group they keep.
        self.key_prefix = f"bench{self.tag}"
        self.redis_url = redis_url
        self.postgres_port = postgres_port
        self.extra_env = extra_env or {}
        self.base_port = base_port
        self.days = days
        self.faketime = faketime
        self.clock_offset = clock_offset
        self.pool_size = pool_size
        self.quiet = quiet
        self.tmp = tempfile.TemporaryDirectory(prefix="patience-bench-")
        self.procs: list[subprocess.Popen[bytes]] = []
        self.logs: list[Path] = []
        self.urls = [f"http://127.0.0.1:{base_port + i}" for i in range(setup.processes)]
        self.secret = secrets.token_urlsafe(64)

    # -- environment ------------------------------------------------------------------------

    @property
    def database_url(self) -> str:
        if not self.setup.postgres:
            return ""
        return f"postgres://{PG_USER}@{PG_HOST}:{self.postgres_port}/{self.database}"

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("THROTTLE_", "DATABASE_", "REDIS_", "SQLITE_", "FAKETIME"))
        }
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DEBUG="false",
            HTTPS="false",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            SECRET_KEY=self.secret,
            STATIC_MANIFEST="false",
            LOG_LEVEL="WARNING",
            PYTHONUNBUFFERED="1",
        )
        if self.setup.postgres:
            env["DATABASE_URL"] = self.database_url
            env["REDIS_URL"] = self.redis_url
            env["REDIS_KEY_PREFIX"] = self.key_prefix
        else:
            env["SQLITE_PATH"] = str(Path(self.tmp.name) / "bench.sqlite3")
        if self.pool_size:
            env["DATABASE_POOL_SIZE"] = str(self.pool_size)
        for scope in THROTTLE_SCOPES:
            for kind in THROTTLE_KINDS:
                env[f"THROTTLE_{scope.upper()}_{kind.upper()}"] = RAISED_RATE
        env["RANKED_STARTS_PER_ADDRESS"] = env["RANKED_STARTS_PER_NETWORK"] = RAISED_LIMIT
        env.update(self.extra_env)
        return env

    def manage(self, *args: str, timeout: float = 600) -> str:
        return _run([PYTHON, "manage.py", *args], env=self.env(), timeout=timeout)

    def django(self, code: str, timeout: float = 300) -> Any:
        """Run `code` (which prints one JSON value) in a Django process on this database."""
        prelude = "import django, json; django.setup()\n"
        out = _run([PYTHON, "-c", prelude + code], env=self.env(), timeout=timeout)
        return json.loads(out.strip())

    # -- database ---------------------------------------------------------------------------

    def refuse_if_busy(self) -> None:
        """Raise when any of this run's ports already answers: another run serves there, on
        the database and Redis this run would drop and flush."""
        busy = [url for url in self.urls if _port_answers(int(url.rsplit(":", 1)[1]))]
        if busy:
            raise RuntimeError(f"{', '.join(busy)} in use: another run serves there; wait for it")

    def prepare(self) -> None:
        self.refuse_if_busy()  # before anything is dropped, whoever calls prepare()
        if self.setup.postgres:
            self.drop_database()
            _run(["createdb", *self._pg_where(), self.database])
            redis_forget(self.redis_url, self.key_prefix)
        self.manage("migrate", "--noinput", "-v", "0")
        self.manage("schedule_dailies", "--days", str(self.days), "--candidates", "2")

    def drop_database(self) -> None:
        if self.setup.postgres:
            _run(["dropdb", *self._pg_where(), "--if-exists", "--force", self.database])

    def _pg_where(self) -> list[str]:
        return ["-h", PG_HOST, "-p", str(self.postgres_port), "-U", PG_USER]

    def dailies(self, date: str | None = None) -> list[dict[str, Any]]:
        """The dailies of `date` (default: the real UTC today): game, date, id, deal string
        and certificate (the winning line the solver found)."""
        when = f"'{date}'" if date else "clock.today().isoformat()"
        return self.django(
            "from games import clock\n"
            "from games.models import DailyChallenge\n"
            f"rows = DailyChallenge.objects.filter(date={when}).select_related('deal')\n"
            "print(json.dumps([{'game': d.game, 'date': d.date.isoformat(), 'id': d.pk,"
            " 'deal': d.deal.deal_string, 'certificate': list(d.deal.certificate)}"
            " for d in rows.order_by('game')]))"
        )

    # -- processes --------------------------------------------------------------------------

    def start(self) -> None:
        for i in range(len(self.urls)):
            self.start_one(i, wait=False)
        for i in range(len(self.urls)):
            self.wait_healthy(i)

    def start_one(self, i: int, wait: bool = True) -> None:
        """Start process `i` on its port (again, after `kill(i)`); wait until it is healthy."""
        env = self.env()
        if self.clock_offset:
            env["CLOCK_OFFSET_SECONDS"] = f"{self.clock_offset:.3f}"
        if self.faketime:
            env["FAKETIME"] = self.faketime
            env["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
            env["NO_FAKE_STAT"] = "1"
            env["LD_PRELOAD"] = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
        port = self.urls[i].rsplit(":", 1)[1]
        if _port_answers(int(port)):  # a server left over from an earlier run would answer
            raise RuntimeError(f"port {port} is in use: stop what listens there first")
        log = Path(self.tmp.name) / f"server-{i}.log"
        if log not in self.logs:
            self.logs.append(log)
        cmd = [PYTHON, "-m", "config.serving"]
        cmd += ["--host", "127.0.0.1", "--port", port, "--log-level", "warning"]
        with open(log, "ab") as out:
            proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        if i < len(self.procs):
            self.procs[i] = proc
        else:
            self.procs.append(proc)
        if wait:
            self.wait_healthy(i)

    def wait_healthy(self, i: int, timeout: float = 90) -> None:
        url, proc = self.urls[i], self.procs[i]
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server {url} exited:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{url}/healthz/", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"server {url} not healthy after {timeout:g} s:\n{self.log_tail()}"
                )
            time.sleep(0.2)

    def kill(self, i: int) -> None:
        """SIGKILL process `i`: no shutdown of any kind."""
        proc = self.procs[i]
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)

    def stop(self, timeout: float = 10) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for proc in self.procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        self.procs = []

    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs]

    def cpu_seconds(self) -> float:
        """The server processes' CPU seconds so far, together: read before and after a phase."""
        return sum(cpu_seconds(pid) for pid in self.pids())

    def log_tail(self, lines: int = 30) -> str:
        out = []
        for log in self.logs:
            if log.exists():
                text = log.read_text(errors="replace").splitlines()
                out.append(f"--- {log.name}\n" + "\n".join(text[-lines:]))
        return "\n".join(out)

    def log_lines(self, start: str) -> list[str]:
        """The servers' log lines that begin with `start`, in order of server."""
        found = []
        for log in self.logs:
            if log.exists():
                found += [
                    line
                    for line in log.read_text(errors="replace").splitlines()
                    if line.startswith(start)
                ]
        return found

    def server_errors(self) -> int:
        """Lines at ERROR or above (tracebacks' first lines) in the servers' logs."""
        count = 0
        for log in self.logs:
            if log.exists():
                for line in log.read_text(errors="replace").splitlines():
                    if " ERROR " in line or " CRITICAL " in line or line.startswith("ERROR:"):
                        count += 1
        return count

    def __enter__(self) -> Servers:
        # Before the database is dropped and made again: a run already serving on these ports
        # (another benchmark on the same machine) keeps its database.
        self.refuse_if_busy()
        try:
            if not self.quiet:
                print(f"# preparing {self.setup.name} ...", file=sys.stderr, flush=True)
            self.prepare()
            self.start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop()
            keep = os.environ.get("BENCH_KEEP_LOGS")  # a folder to copy the servers' logs to
            if keep:
                Path(keep).mkdir(parents=True, exist_ok=True)
                for log in self.logs:
                    if log.exists():
                        target = Path(keep) / f"{int(time.time())}-{log.name}"
                        target.write_bytes(log.read_bytes())
        finally:
            try:
                self.drop_database()
                if self.setup.postgres:
                    redis_forget(self.redis_url, self.key_prefix)
            finally:
                self.tmp.cleanup()


# -- profiles ---------------------------------------------------------------------------------


def profile_start(
    servers: Servers, folder: str | None, label: str
) -> list[subprocess.Popen[bytes]]:
    """py-spy (raw collapsed stacks, one file per server process, samples holding the GIL) until
    `profile_stop`; nothing without a folder."""
    if not folder:
        return []
    Path(folder).mkdir(parents=True, exist_ok=True)
    spy = str(Path(PYTHON).with_name("py-spy"))
    return [
        subprocess.Popen(
            [spy, "record", "--pid", str(pid), "--rate", "100", "--format", "raw", "--gil"]
            + ["--output", f"{folder}/{label}-server{i}.txt", "--nonblocking"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for i, pid in enumerate(servers.pids())
    ]


def profile_stop(spies: list[subprocess.Popen[bytes]]) -> None:
    for spy in spies:
        spy.send_signal(signal.SIGINT)
    for spy in spies:
        try:
            spy.wait(30)
        except subprocess.TimeoutExpired:
            spy.kill()


# -- statistics -------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100), nearest rank; nan for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(header: list[str], rows: list[list[Any]]) -> str:
    """A Markdown table, numbers right-aligned, ready to paste into docs/performance.md."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(header)]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |"]
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in cells:
        lines.append(
            "| "
            + " | ".join(
                c.rjust(w) if c[:1].isdigit() or c[:1] == "-" else c.ljust(w)
                for c, w in zip(row, widths, strict=True)
            )
            + " |"
        )
    return "\n".join(lines)


def machine() -> str:
    """One line on the machine and its load, for the printed header."""
    load = os.getloadavg()
    return (
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def self_cpu_seconds() -> float:
    usage = os.times()
    return usage.user + usage.system
