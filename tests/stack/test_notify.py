"""The DAGs' notifier (dags/perfdb_notify.py) on its own, against local SMTP and HTTP receivers on 127.0.0.1:
what it sends, that it sends nothing unconfigured, and that a dead channel is named after the others were
tried. The nightly DAG's alerts end to end are in test_dag.py."""

from __future__ import annotations

import importlib
import socket
import sys
from pathlib import Path

import pytest

from alert_receivers import Receivers

DAGS = Path(__file__).resolve().parents[2] / "dags"


@pytest.fixture()
def notify(monkeypatch):
    for name in ("PERFDB_ALERT_EMAIL_TO", "PERFDB_ALERT_WEBHOOK_URL", "PERFDB_ALERT_SMTP_USER", "PERFDB_ALERT_SMTP_SSL",
                 "PERFDB_ALERT_SMTP_STARTTLS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.syspath_prepend(str(DAGS))
    module = importlib.import_module("perfdb_notify")
    yield module
    sys.modules.pop("perfdb_notify", None)


@pytest.fixture()
def receivers():
    running = Receivers()
    yield running
    running.close()


def test_an_alert_goes_by_mail_and_webhook(notify, receivers, monkeypatch):
    for name, value in receivers.env.items():
        monkeypatch.setenv(name, value)
    assert notify.notify("perfdb: 3 threshold exceptions on 2026-01-05", "\\NIGHT1  CPU-01 (high): busy > 80 %",
                         kind="exceptions", day="2026-01-05", exceptions=3) == ["email", "webhook"]
    [(sender, recipients, message)] = receivers.received.mails
    assert (sender, recipients) == ("perfdb@example.org", ["ops@example.org", "perf@example.org"])
    assert message["Subject"] == "perfdb: 3 threshold exceptions on 2026-01-05"
    assert message["To"] == "ops@example.org, perf@example.org"
    assert message.get_content() == "\\NIGHT1  CPU-01 (high): busy > 80 %\n"
    [post] = receivers.received.posts
    assert post["json"] == {
        "text": "perfdb: 3 threshold exceptions on 2026-01-05\n\n\\NIGHT1  CPU-01 (high): busy > 80 %",
        "subject": "perfdb: 3 threshold exceptions on 2026-01-05", "body": "\\NIGHT1  CPU-01 (high): busy > 80 %",
        "kind": "exceptions", "day": "2026-01-05", "exceptions": 3,
    }


def test_nothing_is_sent_without_a_channel(notify, receivers):
    assert notify.channels() == []
    assert notify.notify("perfdb: 2026-01-06 failed at check", "body") == []
    assert receivers.received.mails == [] and receivers.received.posts == []


def test_a_dead_channel_is_named_after_the_others_were_tried(notify, receivers, monkeypatch):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead_port = s.getsockname()[1]
    for name, value in receivers.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PERFDB_ALERT_SMTP_PORT", str(dead_port))
    with pytest.raises(notify.NotifyError, match=r"^could not deliver the alert by email: .*refused"):
        notify.notify("perfdb: 2026-01-06 failed at check", "body", kind="failure")
    assert len(receivers.received.posts) == 1  # the webhook still got it
