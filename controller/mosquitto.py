"""A Mosquitto broker of our own: for the demo hall (``./dev run --hall`` with no broker
configured), the tests and bench/hall.py. It listens on a free loopback port with a
configuration file written here, never the system's service or its configuration, and keeps
its persistence file in its own folder, so a restart (``stop`` then ``start``) keeps retained
messages and the queues of persistent sessions, as a real hall's broker does."""

from __future__ import annotations

import contextlib
import getpass
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from engine.errors import ChesseryError

#: Where Debian's package puts the broker (not on a normal user's PATH).
CANDIDATES = ("mosquitto", "/usr/sbin/mosquitto")


class BrokerError(ChesseryError):
    """The broker is not installed or did not start."""


def find_mosquitto() -> str | None:
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """``password_file``: a file made by ``mosquitto_passwd`` (then anonymous clients are
    refused); None: anyone on loopback may connect."""

    def __init__(self, folder: str | Path | None = None, port: int = 0, password_file: str | Path | None = None,
                 persistence: bool = True, tls: tuple[str, str, str] | None = None,
                 acl_file: str | Path | None = None) -> None:
        """``tls``: (CA, certificate, key) files: a second listener, ``tls_port``, that speaks TLS
        and lets in only clients with a certificate from that CA (named by its common name);
        ``acl_file``: who may read and write which topics (Mosquitto's ``acl_file``)."""
        exe = find_mosquitto()
        if exe is None:
            raise BrokerError("mosquitto is not installed (Debian: apt-get install mosquitto)")
        self.exe = exe
        self._tmp = None if folder else tempfile.TemporaryDirectory(prefix="chessery-mosquitto-")
        self.folder = Path(folder or self._tmp.name)  # type: ignore[union-attr]
        self.folder.mkdir(parents=True, exist_ok=True)
        self._choose_ports = not port  # ours to choose (again, should another process take it first)
        self.port = port or free_port()
        self.log_path = self.folder / "mosquitto.log"
        self._password_file = password_file
        self._persistence = persistence
        self._tls = tls
        self._acl_file = acl_file
        self.tls_port = free_port() if tls else 0
        self.conf = self.folder / "mosquitto.conf"
        self._write_conf()
        self.proc: subprocess.Popen[bytes] | None = None

    def _write_conf(self) -> None:
        persistence, tls, password_file = self._persistence, self._tls, self._password_file
        # Started as root, mosquitto would turn into the "mosquitto" user, who cannot read our
        # folder: it stays whoever started it.
        lines = [f"user {getpass.getuser()}", f"listener {self.port} 127.0.0.1", f"log_dest file {self.log_path}",
                 "log_type error", "log_type warning", "log_type notice",
                 "max_queued_messages 100000", f"persistence {'true' if persistence else 'false'}",
                 f"persistence_location {self.folder}/"]
        if tls:
            lines += [f"listener {self.tls_port} 127.0.0.1", f"cafile {tls[0]}", f"certfile {tls[1]}",
                      f"keyfile {tls[2]}", "require_certificate true", "use_identity_as_username true"]
        if password_file:
            lines += [f"password_file {password_file}", "allow_anonymous false"]
        else:
            lines.append("allow_anonymous true")
        if self._acl_file:
            lines.append(f"acl_file {self._acl_file}")
        self.conf.write_text("\n".join(lines) + "\n", encoding="utf-8")

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> Mosquitto:
        """Start and wait until it listens. The first start on ports of our choosing tries other
        ports when one was taken meanwhile (tests run in parallel); a restart keeps its ports."""
        for attempt in range(3):
            try:
                return self._start(timeout)
            except BrokerError:
                if not self._choose_ports or attempt == 2:
                    raise
                self.port = free_port()
                self.tls_port = free_port() if self._tls else 0
                self._write_conf()
        raise AssertionError("unreachable")

    def _start(self, timeout: float) -> Mosquitto:
        self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace").strip() if self.proc.stderr else ""
                log = self.log_path.read_text(errors="replace").strip() if self.log_path.exists() else ""
                raise BrokerError(f"mosquitto stopped at start: {(err or log).splitlines()[-1:]}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                self._choose_ports = False  # from now on a restart must come back where it was
                return self
            if time.monotonic() > deadline:
                self.stop()
                raise BrokerError(f"mosquitto did not listen on port {self.port} within {timeout:.0f} s")
            time.sleep(0.02)

    def stop(self, kill: bool = False) -> None:
        """SIGTERM (the broker saves its persistence file) or, with ``kill``, SIGKILL (it saves nothing)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            (self.proc.kill if kill else self.proc.terminate)()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None

    def close(self) -> None:
        self.stop()
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_password_file(path: str | Path, users: dict[str, str]) -> Path:
    """A Mosquitto password file made by the broker's own ``mosquitto_passwd`` (hashes we do
    not write by hand)."""
    exe = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    path = Path(path)
    path.unlink(missing_ok=True)
    for n, (user, password) in enumerate(users.items()):
        args = [exe, "-b"] + (["-c"] if n == 0 else []) + [str(path), user, password]
        subprocess.run(args, check=True, capture_output=True, timeout=30)
    path.chmod(0o600)
    return path
