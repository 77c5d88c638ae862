"""APPC APING output (workstation ``aping`` of CS/AIX, SNAP-IX, SNAplus2): one run per invocation.

Sample, the vendor manual's "Sample Output for APING" (shared/formats/commands/aping.md §2.2) after the
capture line every perfdb capture starts with::

    # captured: 2026-02-03T10:15:00 host: os2a
    $ aping -s 10000 -i 2 -c 4 HOSTVTAM
    Allocate duration:                                  0 ms
    Program startup and Confirm duration:             720 ms

           Duration         Data Sent           Data Rate         Data Rate
            (msec)           (bytes)             (KB/s)            (mb/s)
           --------         ---------           ---------         ---------
              60              64000              1041.7             8.333
              30              64000              2083.3            16.667
    Totals:   90             128000              1388.9            11.111
    Duration statistics: Min = 30 Ave = 45 Max =60

Time and host come from the ``# captured: <ISO time> host: <name>`` line or from a file named
``<host>__aping__<YYYYmmddTHHMMSS>.txt``; a file may hold many captures, and within one capture each
``aping`` command line or ``Allocate duration:`` line starts a new run. Spacing may be collapsed.

Output: one row of ``raw.benchmark_runs`` per run (``source_format`` aping, ``tool`` APING, study
"APING", ``transaction_type`` aping): ``elapsed_s`` = the Totals duration, ``transactions`` = the
iterations, ``bytes_per_transaction`` = bytes per iteration, ``throughput_bytes_per_s`` = Totals bytes /
duration (KB/s as printed is bytes/ms x 1000/1024), ``response_time_s`` = the average iteration. Free
values in ``extra_json``: allocate and startup/confirm ms, min/max ms, each iteration's ms and bytes, and
the steady-state rate without iteration 1 (which includes the partner's start-up, aping.md §4).
``parameters_json`` holds the partner and the -s/-i/-c options when the command line is there. A run
whose table is missing (allocation failed: APING prints error text instead) or whose Totals disagree
with its rows goes to raw.rejects with its line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

from ingest.formats.base import Batch, FormatError, ParseContext
from ingest.formats.benchmark.record import RUNS, TABLE, RunSink
from ingest.formats.capture import HEADER_RE, HOW_TO_FIX, file_name_info, iter_segments, name_identity, parse_iso_time

COMMAND_RE = re.compile(r"^(?:.{0,80}?[$#>%]\s*)?aping\b(?P<args>.*)$", re.IGNORECASE)
ALLOCATE_RE = re.compile(r"^Allocate duration:\s*(?P<ms>\d+)\s*ms\s*$", re.IGNORECASE)
STARTUP_RE = re.compile(r"^Program startup and Confirm duration:\s*(?P<ms>\d+)\s*ms\s*$", re.IGNORECASE)
ROW_RE = re.compile(r"^\s*(?P<ms>\d+)\s+(?P<bytes>\d+)\s+(?P<kbs>[\d.]+)\s+(?P<mbs>[\d.]+)\s*$")
TOTALS_RE = re.compile(r"^Totals:\s*(?P<ms>\d+)\s+(?P<bytes>\d+)\s+(?P<kbs>[\d.]+)(?:\s+(?P<mbs>[\d.]+))?\s*$",
                       re.IGNORECASE)
STATS_RE = re.compile(r"^Duration statistics:\s*Min\s*=\s*(?P<min>\d+)\s+Ave\s*=\s*(?P<ave>\d+)\s+Max\s*=\s*(?P<max>\d+)",
                      re.IGNORECASE)
HEADING_RE = re.compile(r"^(Duration\s+Data Sent|\(msec\)|-{4,})", re.IGNORECASE)


class RunError(Exception):
    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


def _options(args: str) -> dict:
    """-s size, -i iterations, -c consecutive packets and the partner (the last operand)."""
    tokens = args.split()
    params: dict = {}
    names = {"-s": ("packet_size", "bytes"), "-i": ("iterations", None), "-c": ("consecutive_packets", None)}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in names and i + 1 < len(tokens) and tokens[i + 1].isdigit():
            name, unit = names[token]
            params[name] = {"value": int(tokens[i + 1]), **({"unit": unit} if unit else {})}
            i += 2
            continue
        if not token.startswith("-"):
            params["partner"] = {"value": token}
        i += 1
    return params


def _run_row(lines: list[tuple[int, str]], host: str | None, stamp, command_args: str | None) -> dict:
    start_line = lines[0][0]
    allocate = startup = totals = stats = None
    rows: list[tuple[int, int, int]] = []  # line, ms, bytes
    for line_no, text in lines:
        t = text.strip()
        if not t or HEADING_RE.match(t) or COMMAND_RE.match(t):
            continue
        if m := ALLOCATE_RE.match(t):
            allocate = int(m["ms"])
        elif m := STARTUP_RE.match(t):
            startup = int(m["ms"])
        elif m := TOTALS_RE.match(t):
            totals = (line_no, int(m["ms"]), int(m["bytes"]))
        elif m := STATS_RE.match(t):
            stats = (int(m["min"]), int(m["ave"]), int(m["max"]))
        elif m := ROW_RE.match(t):
            rows.append((line_no, int(m["ms"]), int(m["bytes"])))
        else:
            raise RunError(f"expected an APING result line (a row 'msec bytes KB/s mb/s', Totals: or Duration "
                           f"statistics:), found {t[:80]!r}; APING prints error text when it cannot allocate "
                           f"a session", line_no)
    if allocate is None:
        raise RunError("expected 'Allocate duration: <n> ms'", start_line)
    if not rows or totals is None:
        raise RunError("no result table: expected one row per iteration and a Totals: line", start_line)
    total_ms = sum(ms for _, ms, _ in rows)
    total_bytes = sum(b for _, _, b in rows)
    if (total_ms, total_bytes) != totals[1:]:
        raise RunError(f"Totals {totals[1]} ms / {totals[2]} bytes disagree with the {len(rows)} rows above "
                       f"({total_ms} ms / {total_bytes} bytes): truncated capture?", totals[0])
    if totals[1] == 0:
        raise RunError("Totals duration is 0 ms: no rate can be computed", totals[0])
    elapsed_s = totals[1] / 1000.0
    extra = {
        "allocate_duration": {"value": allocate, "unit": "ms"},
        "iteration_durations": {"value": [ms for _, ms, _ in rows], "unit": "ms"},
        "iteration_bytes": {"value": [b for _, _, b in rows], "unit": "bytes"},
    }
    if startup is not None:
        extra["startup_confirm_duration"] = {"value": startup, "unit": "ms"}
    if stats is not None:
        extra["min_duration"] = {"value": stats[0], "unit": "ms"}
        extra["max_duration"] = {"value": stats[2], "unit": "ms"}
    steady = rows[1:]
    if steady and sum(ms for _, ms, _ in steady):
        extra["steady_state_throughput"] = {
            "value": sum(b for _, _, b in steady) / (sum(ms for _, ms, _ in steady) / 1000.0), "unit": "bytes/s"}
    average_ms = stats[1] if stats is not None else total_ms / len(rows)
    params = _options(command_args) if command_args is not None else {}
    partner = params.get("partner", {}).get("value")
    return {
        "format_version": 1,
        "study": "APING",
        "run_label": f"aping {host} -> {partner or '?'} {stamp:%Y-%m-%dT%H:%M:%S}",
        "run_date": stamp.date(),
        "started_at": stamp,
        "role": "client",
        "transaction_type": "aping",
        "bytes_per_transaction": total_bytes / len(rows),
        "repetitions": len(rows),
        "elapsed_s": elapsed_s,
        "transactions": float(len(rows)),
        "transactions_per_s": len(rows) / elapsed_s,
        "throughput_bytes_per_s": total_bytes / elapsed_s,
        "response_time_s": average_ms / 1000.0,
        "parameters_json": json.dumps(params, sort_keys=True) if params else None,
        "extra_json": json.dumps(extra, sort_keys=True),
        "provenance_source": f"host {host}",
        "tool": "APING",
    }


def _split_runs(lines: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """Each aping command line, or an Allocate line not right after one, starts a run."""
    runs: list[list[tuple[int, str]]] = []
    after_command = False
    for line_no, text in lines:
        t = text.strip()
        starts = COMMAND_RE.match(t) is not None or (ALLOCATE_RE.match(t) is not None and not after_command)
        if starts or not runs:
            runs.append([])
        runs[-1].append((line_no, text))
        if t:
            after_command = COMMAND_RE.match(t) is not None
    return [run for run in runs if any(t.strip() for _, t in run)]


class Aping:
    format = "benchmark.aping"
    version = "1"
    priority = 30
    tables = (RUNS,)

    def sniff(self, head: bytes, name: str) -> bool:
        text = head.decode("utf-8", "replace")
        return re.search(r"^\s*Allocate duration:\s*\d+\s*ms", text, re.IGNORECASE | re.MULTILINE) is not None

    def name_identity(self, head: bytes, name: str) -> str | None:
        """``capture.name_identity``: two runs of a quiet link print the same bytes; timed by their names,
        each loads."""
        return name_identity(head, name)

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        name_host, name_time = file_name_info(path.name)
        sink = RunSink("aping")
        ordinal = 0
        untimed = timed = 0
        for text, header_line, first_line, header in iter_segments(path):
            host, stamp = name_host, name_time
            lines = [(first_line + i, ln.rstrip("\r")) for i, ln in enumerate(text.split("\n"))]
            header_error = None
            if header is not None:
                m = HEADER_RE.match(header.strip())
                try:
                    if not m:
                        raise ValueError(f"unreadable capture header {header.strip()!r}")
                    stamp, _ = parse_iso_time(m["ts"])
                    host = m["host"] or host
                except ValueError as e:
                    header_error = f"{e}: expected '# captured: <ISO time> host: <name>'"
            for run in _split_runs([(n, t) for n, t in lines if not t.lstrip().startswith("#")]):
                ctx.read()
                start = run[0][0]
                raw = "\n".join(t for _, t in run)
                try:
                    if header_error:
                        raise RunError(header_error, header_line)
                    if stamp is None or host is None:
                        untimed += 1
                        raise RunError(f"no capture time or host for this run: {HOW_TO_FIX}", start)
                    command = next((COMMAND_RE.match(t.strip()) for _, t in run if COMMAND_RE.match(t.strip())), None)
                    row = _run_row(run, host, stamp, command["args"] if command else None)
                except RunError as e:
                    ctx.reject(f"APING run starting at line {start}: {e}", raw, line=e.line,
                               record_ordinal=ordinal)
                else:
                    sink.add(row, record_ordinal=ordinal, line_number=start)
                    timed += 1
                ordinal += 1
        if untimed and not timed:
            raise FormatError(f"no APING run in the file has a capture time and host: {HOW_TO_FIX}", line=1)
        if len(sink):
            yield Batch(TABLE, sink.table())


PARSER = Aping()
