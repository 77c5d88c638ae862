"""Alerts of the perfdb DAGs: e-mail over SMTP and/or a JSON POST to a webhook, configured by environment.

Plain Python (smtplib, urllib), so that it is imported by the DAG file without loading anything heavy and
can be used on its own. Nothing is sent unless a channel is configured; each configured channel is tried,
and a channel that fails is reported by ``NotifyError`` after the others were tried.

    PERFDB_ALERT_EMAIL_TO       comma-separated recipients; e-mail is sent when this is set
    PERFDB_ALERT_EMAIL_FROM     sender (default perfdb@<host name>)
    PERFDB_ALERT_SMTP_HOST      SMTP server (default localhost)
    PERFDB_ALERT_SMTP_PORT      its port (default 25; 465 with PERFDB_ALERT_SMTP_SSL=true)
    PERFDB_ALERT_SMTP_SSL       true: SMTP over TLS from the first byte (port 465)
    PERFDB_ALERT_SMTP_STARTTLS  true: upgrade the connection with STARTTLS before logging in
    PERFDB_ALERT_SMTP_USER      login, with PERFDB_ALERT_SMTP_PASSWORD (secrets only from the environment)
    PERFDB_ALERT_WEBHOOK_URL    URL that receives a JSON POST; its ``text`` field suits Slack, Mattermost
                                and Teams incoming webhooks

A webhook receives, for example::

    {"text": "perfdb: 2026-01-06 failed at check\\n\\nvalidation run ... failed ...",
     "subject": "perfdb: 2026-01-06 failed at check", "body": "validation run ... failed ...",
     "kind": "failure", "dag_id": "perfdb_nightly", "day": "2026-01-06", "task_id": "check"}
"""

from __future__ import annotations

import json
import logging
import os
import smtplib
import socket
import urllib.request
from email.message import EmailMessage

log = logging.getLogger(__name__)
TIMEOUT_S = 30


class NotifyError(RuntimeError):
    """A configured channel could not deliver the alert."""


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes")


def channels() -> list[str]:
    """The configured channels, in the order they are tried."""
    return [name for name, var in (("email", "PERFDB_ALERT_EMAIL_TO"), ("webhook", "PERFDB_ALERT_WEBHOOK_URL"))
            if os.environ.get(var, "").strip()]


def send_email(subject: str, body: str) -> None:
    recipients = [r.strip() for r in os.environ["PERFDB_ALERT_EMAIL_TO"].split(",") if r.strip()]
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = os.environ.get("PERFDB_ALERT_EMAIL_FROM", "").strip() or f"perfdb@{socket.getfqdn()}"
    message["To"] = ", ".join(recipients)
    message.set_content(body)
    host = os.environ.get("PERFDB_ALERT_SMTP_HOST", "").strip() or "localhost"
    ssl = _flag("PERFDB_ALERT_SMTP_SSL")
    port = int(os.environ.get("PERFDB_ALERT_SMTP_PORT", "").strip() or (465 if ssl else 25))
    with (smtplib.SMTP_SSL if ssl else smtplib.SMTP)(host, port, timeout=TIMEOUT_S) as smtp:
        if _flag("PERFDB_ALERT_SMTP_STARTTLS"):
            smtp.starttls()
        user = os.environ.get("PERFDB_ALERT_SMTP_USER", "").strip()
        if user:
            smtp.login(user, os.environ.get("PERFDB_ALERT_SMTP_PASSWORD", ""))
        smtp.send_message(message, to_addrs=recipients)


def send_webhook(subject: str, body: str, fields: dict) -> None:
    payload = {"text": f"{subject}\n\n{body}", "subject": subject, "body": body, **fields}
    request = urllib.request.Request(
        os.environ["PERFDB_ALERT_WEBHOOK_URL"].strip(), data=json.dumps(payload, default=str).encode(),
        headers={"Content-Type": "application/json"}, method="POST",
    )
    with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
        response.read()


def notify(subject: str, body: str, **fields) -> list[str]:
    """Sends the alert on every configured channel; returns the channels that delivered it."""
    delivered, failed = [], []
    for channel in channels():
        try:
            if channel == "email":
                send_email(subject, body)
            else:
                send_webhook(subject, body, fields)
            delivered.append(channel)
        except (OSError, smtplib.SMTPException, ValueError) as e:
            log.error("perfdb alert by %s failed: %s", channel, e)
            failed.append(f"{channel}: {e}")
    if not delivered and not failed:
        log.info("no alert channel configured (PERFDB_ALERT_EMAIL_TO, PERFDB_ALERT_WEBHOOK_URL): %s", subject)
    if failed:
        raise NotifyError("could not deliver the alert by " + "; ".join(failed))
    return delivered
