"""When a generated file lands at the site: the morning after the last day it holds, as a collector sends a
finished period (a week of MEASURE records, an SMF dump, a month of command captures). The file's modification
time says so: ingest's plausibility check reads it as the time the file was written, and the demo
(``ingest.pipeline.demo``) ingests the files night by night by the day they landed.

    landed(path, dt.date(2026, 1, 11))     # written at 06:00 UTC on Monday 2026-01-12
    landing_day(path) == dt.date(2026, 1, 12)
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

LANDING_TIME = dt.time(6, tzinfo=dt.timezone.utc)  # after the nightly transfers that follow midnight


def landed(path: Path, last_day: dt.date) -> Path:
    """``path``, dated the morning after ``last_day``."""
    when = dt.datetime.combine(last_day + dt.timedelta(days=1), LANDING_TIME).timestamp()
    os.utime(path, (when, when))
    return path


def landing_day(path: Path) -> dt.date:
    """The day ``path`` was written (UTC)."""
    return dt.datetime.fromtimestamp(path.stat().st_mtime, dt.timezone.utc).date()
