"""CS/AIX ``snaadmin query_buffer_availability`` and ``snaadmin query_kernel_memory_limit``.

Real sample (IBM Redbook SG24-2136, CS/AIX V5, as printed in the project's seed 002; OCR cleaned)::

    csaix1:/ > snaadmin query_buffer_availability
    reset_max_values = NO
    buf_avail = 25058340
    buf_total_count = 75
    buf_total_bytes = 34504
    peak_usage = 100
    throttle_status = 30
    buf_use_status = UNCONGESTED
    max_buf_total_count = 78
    max_buf_total_bytes = 34820
    max_buf_use_status = UNCONGESTED
    debug_param = <00000000000000000000000000000000000
    csaix1:/ > snaadmin query_kernel_memory_limit
    limit = 0
    actual = 231596
    max_used = 231596
    reset_max_used = NO

Grammar: an optional prompt ``<host>:<cwd> > snaadmin <verb>`` (it names the host and the verb and
starts a new capture), then ``key = value`` lines. Scanned or re-typed copies are accepted as the seed
shows them: keys with spaces for underscores (``peak usage``), trailing TABs, ``<pre>`` tags, the OCR
``N0`` for ``NO``. Without a prompt the verb follows from the keys; a line that is not ``key = value``
is kept in ``raw.command_unparsed_lines``. A failing command prints return
codes instead of the keys: such a capture is rejected, naming what it printed.

Output: section = the verb, counter = the key as printed, counter_name = the key in snake case
(``buf_total_bytes``, ``throttle_status``). Every number is a ``gauge`` (current values, limits and
high-water marks since the last ``reset_max_values=YES``; nothing is cumulative); ``buf_use_status``,
``max_buf_use_status``, the ``reset_*`` echoes and ``debug_param`` are ``text``.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, CaptureError, Counter, split_captures_at
from ingest.formats.command_parser import CommandParser

PROMPT_RE = re.compile(r"^(?:(?P<host>[\w.\-]+):\S*\s*)?[>$#%]\s*snaadmin\s+(?P<verb>\w+)")
KEY_VALUE_RE = re.compile(r"^(?P<key>[A-Za-z][A-Za-z_ ]*?)\s*=\s*(?P<value>.*?)\s*$")
VERB_KEYS = {
    "query_buffer_availability": {"buf_avail", "buf_total_count", "buf_total_bytes", "throttle_status"},
    "query_kernel_memory_limit": {"limit", "actual", "max_used"},
}
PERCENT_KEYS = {"peak_usage", "max_peak_usage"}
SCALE_KEYS = {"throttle_status", "max_throttle_status", "peak_decay"}


class Snaadmin(CommandParser):
    format = "sna.snaadmin"
    command = "snaadmin"
    version = "2"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        if any(PROMPT_RE.match(ln.strip()) for ln in lines[:3]):
            return True
        keys = {_key(m["key"]) for ln in lines if (m := KEY_VALUE_RE.match(_clean(ln)))}
        return any(len(keys & expected) >= 2 for expected in VERB_KEYS.values())

    def split(self, cap: Capture) -> list[Capture]:
        """Each prompt line starts a capture (several queries pasted from one session)."""
        return split_captures_at(cap, [i for i, ln in enumerate(cap.lines) if PROMPT_RE.match(ln.strip())])

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        verb = None
        for i, raw in enumerate(cap.lines):
            line = _clean(raw)
            if not line:
                continue
            m = PROMPT_RE.match(line)
            if m:
                verb = m["verb"]
                if m["host"]:
                    cap.host = m["host"]
                continue
            m = KEY_VALUE_RE.match(line)
            if not m:
                cap.skip(i, "expected 'key = value'")
                continue
            key, value = _key(m["key"]), m["value"]
            counters.append(_counter(i, m["key"], key, value))
        keys = {c.name for c in counters}
        if verb is None:
            verb = next((v for v, expected in VERB_KEYS.items() if len(keys & expected) >= 2), None)
        expected = VERB_KEYS.get(verb or "", set())
        if not keys & expected:
            printed = ", ".join(f"{c.counter} = {c.text if c.value is None else int(c.value)}" for c in counters[:4])
            raise CaptureError(
                f"snaadmin {verb or '?'} printed none of {', '.join(sorted(expected or VERB_KEYS['query_buffer_availability']))} "
                f"(failed command? it printed: {printed or 'nothing'})",
                cap.first_line,
            )
        cap.command = f"snaadmin {verb}"
        return [c._replace(section=verb) for c in counters]


def _clean(line: str) -> str:
    return re.sub(r"</?pre>", "", line, flags=re.IGNORECASE).strip()


def _key(printed: str) -> str:
    return re.sub(r"\s+", "_", printed.strip().lower())


def _counter(i: int, printed: str, key: str, value: str) -> Counter:
    if re.fullmatch(r"-?\d+", value):
        unit = "pct" if key in PERCENT_KEYS else ("scale_0_100" if key in SCALE_KEYS else
                                                  ("count" if key.endswith("_count") else "bytes"))
        return Counter(i, None, None, printed.strip(), key, float(value), None, unit, "gauge")
    if value == "N0":  # OCR of NO in scanned copies
        value = "NO"
    return Counter(i, None, None, printed.strip(), key, None, value, None, "text")


PARSER = Snaadmin()
