"""A real PostgreSQL server for the suite, started in a temporary directory.

The machine's PostgreSQL binaries (Debian's ``postgresql`` package puts them in
``/usr/lib/postgresql/<N>/bin``; ``.ci/run`` installs it when ``initdb`` is absent) run a
throw-away cluster on a unix socket in the temp dir: no port to collide with another
engineer's server, no password (``trust`` on the socket only). ``initdb`` refuses to run as
root, so as root the cluster is owned and run by the ``postgres`` system user (created by the
Debian package) through ``runuser``. fsync is off: the data is thrown away.

One server per test session (:func:`start`), one fresh database per test (:meth:`database`).
"""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path


def _bin(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    if found is None:
        raise RuntimeError(
            f"PostgreSQL's {name} is not installed: apt-get install -y postgresql "
            "(.ci/run does this on a clean machine)"
        )
    return found


def _as_owner(cmd: list[str]) -> list[str]:
    """Run ``cmd`` as the cluster's owner: ourselves, or ``postgres`` when we are root."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@dataclass
class Server:
    """A running throw-away cluster reachable through the unix socket in ``socket_dir``."""

    root: Path
    socket_dir: Path
    user: str

    def url(self, dbname: str) -> str:
        """The URL of ``dbname`` on this server (socket directory as ``host``)."""
        return f"postgresql://{self.user}@/{dbname}?host={self.socket_dir}"

    def database(self) -> str:
        """Create an empty database (C collation, as Labeler asks) and return its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name} TEMPLATE template0 LOCALE 'C' ENCODING 'UTF8'")
        return self.url(name)

    def stop(self) -> None:
        """Stop the server and delete its files."""
        subprocess.run(
            _as_owner([_bin("pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "stop"]),
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.root, ignore_errors=True)


def start() -> Server:
    """initdb + pg_ctl start in a new temp dir; stopped again when the process exits."""
    root = Path(tempfile.mkdtemp(prefix="labeler-pg-"))
    root.chmod(0o755)
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    user = "postgres" if os.geteuid() == 0 else os.environ.get("USER", "postgres")
    if os.geteuid() == 0:
        shutil.chown(sock, "postgres")
        shutil.chown(root, "postgres")
    subprocess.run(
        _as_owner([_bin("initdb"), "-D", str(data), "-U", user, "-A", "trust", "--locale=C"]),
        capture_output=True,
        check=True,
    )
    options = f"-k {sock} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
    options += " -c synchronous_commit=off -c max_connections=200"
    subprocess.run(
        _as_owner(
            [_bin("pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"]
        ),
        capture_output=True,
        check=True,
    )
    server = Server(root, sock, user)
    atexit.register(server.stop)
    return server
