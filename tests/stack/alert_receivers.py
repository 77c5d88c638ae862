"""Local receivers for the alert tests: a minimal SMTP server and an HTTP endpoint, both on 127.0.0.1.

Each runs in a thread of the test process and keeps what it received, so a test can assert the alerts
an Airflow subprocess sent. The SMTP server speaks the part of RFC 5321 that smtplib uses without
authentication or TLS (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT).
"""

from __future__ import annotations

import email
import email.policy
import json
import socketserver
import threading
from dataclasses import dataclass, field
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    mails: list[tuple[str, list[str], EmailMessage]] = field(default_factory=list)  # (sender, recipients, message)
    posts: list[dict] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class _SmtpHandler(socketserver.StreamRequestHandler):
    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        received: Received = self.server.received  # type: ignore[attr-defined]
        self.reply("220 127.0.0.1 test SMTP")
        sender, recipients = "", []
        while line := self.rfile.readline():
            verb = line.decode(errors="replace").strip()
            upper = verb.upper()
            if upper.startswith("EHLO"):
                self.reply("250-127.0.0.1")
                self.reply("250 8BITMIME")
            elif upper.startswith("HELO") or upper == "NOOP":
                self.reply("250 OK")
            elif upper == "RSET":
                sender, recipients = "", []
                self.reply("250 OK")
            elif upper.startswith("MAIL FROM:"):
                sender = verb[10:].strip().strip("<>").split(">")[0]
                self.reply("250 OK")
            elif upper.startswith("RCPT TO:"):
                recipients.append(verb[8:].strip().strip("<>").split(">")[0])
                self.reply("250 OK")
            elif upper == "DATA":
                self.reply("354 end with <CRLF>.<CRLF>")
                data = []
                while (chunk := self.rfile.readline()) not in (b".\r\n", b".\n", b""):
                    # un-stuff leading dots, and back from the wire's CRLF to Python's line ends
                    data.append((chunk[1:] if chunk.startswith(b"..") else chunk).replace(b"\r\n", b"\n"))
                message = email.message_from_bytes(b"".join(data), policy=email.policy.default)
                with received.lock:
                    received.mails.append((sender, recipients, message))
                sender, recipients = "", []
                self.reply("250 OK")
            elif upper == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("502 not implemented")


class _ThreadingTcp(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class _WebhookHandler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        received: Received = self.server.received  # type: ignore[attr-defined]
        with received.lock:
            received.posts.append({"path": self.path, "content_type": self.headers.get("Content-Type"),
                                   "json": json.loads(body)})
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:  # keep the test output clean
        pass


class Receivers:
    """Both receivers, started on free ports; ``env`` is what points perfdb's notifier at them."""

    def __init__(self):
        self.received = Received()
        self.smtp = _ThreadingTcp(("127.0.0.1", 0), _SmtpHandler)
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), _WebhookHandler)
        self.http.daemon_threads = True
        for server in (self.smtp, self.http):
            server.received = self.received  # type: ignore[attr-defined]
            threading.Thread(target=server.serve_forever, daemon=True).start()

    @property
    def env(self) -> dict[str, str]:
        return {
            "PERFDB_ALERT_EMAIL_TO": "ops@example.org, perf@example.org",
            "PERFDB_ALERT_EMAIL_FROM": "perfdb@example.org",
            "PERFDB_ALERT_SMTP_HOST": "127.0.0.1",
            "PERFDB_ALERT_SMTP_PORT": str(self.smtp.server_address[1]),
            "PERFDB_ALERT_WEBHOOK_URL": f"http://127.0.0.1:{self.http.server_address[1]}/hooks/perfdb",
        }

    def clear(self) -> None:
        with self.received.lock:
            self.received.mails.clear()
            self.received.posts.clear()

    def close(self) -> None:
        for server in (self.smtp, self.http):
            server.shutdown()
            server.server_close()
