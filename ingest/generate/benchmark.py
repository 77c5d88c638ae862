"""``perfdb generate benchmark``: a site's own benchmark runs, comparable with the documents' published ones.

    perfdb generate benchmark --start 2026-02-02 --days 3 --seed 1986 --forms jsonl,csv,aping --out DIR

Each day of the study writes the three kinds of runs the reference library holds, measured the way the
documents measured them (docs/benchmark_format.md describes the files):

* ``appc_tuning.jsonl`` - APPC file transfers of 1,000,000 bytes over a 16 Mbit/s token ring before and
  after tuning (seed 000, Appendix A): the baseline with RU 1920 and pacing window 3, the tuned run with
  RU 16384 and window 63, each with its parameters, so the configuration checks have something to say
  about the baseline; single-session, as the document measured, but the last day's tuned run, over 4
  sessions (seed 000 L145: its results are not comparable with the document's).
* ``vtam_bulk.csv`` - VTAM bulk transfers at the file sizes of seed 003's Table T1, one record per
  end (client and server) with CPU % and CPU seconds per byte on a 3-engine host.
* ``tn3270.jsonl`` - a TN3270 interactive run like seed 004's TY runs: 200 terminals at 11 s think time.
* ``<host>__aping__<time>.txt`` - APING captures of the same link.
* ``vse_tcpip.jsonl`` - a site's paired TCP/IP for VSE runs on the first day (FTP across service packs, engines,
  partition types and a gateway TCP/IP; TN3270 and SNA on both dispatchers; IND$FILE and LANRES/VSE), each pair
  varied by the change seed 004 publishes for it or, marked, departing from it.

The model is the physics the documents describe, not their numbers: a transfer moves at the lesser of
the link rate net of headers and the rate the pacing window allows per round trip (seed 000 L326-L364);
CPU follows from a fixed cost per byte; interactive throughput from the response-time law
N = X (R + Z). The same seed gives the same bytes. ``demo(home, seed)`` writes three days into
``home/landing/benchmark``.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import random
import sys
from pathlib import Path

from ingest.formats.benchmark.run_schema import FORMAT_NAME
from ingest.cli_options import add_generator_options, forms_of, output_dir, subcommand
from ingest.generate._landing import landed
from ingest.home import Home

# what `perfdb generate --help` lists and `perfdb generate benchmark --help` explains
HELP = "a site's benchmark runs (APPC, VTAM bulk, TN3270, APING) comparable with the documents' results"
DESCRIPTION = """Benchmark logs in the perfdb benchmark format (JSON lines, CSV) and APING captures, modelled on the
measurements of the reference documents; the same seed gives the same bytes."""

FORMS = ("jsonl", "csv", "aping")
DEMO_START = dt.date(2026, 2, 2)  # inside the MEASURE and SMF demo period
DEMO_DAYS = 3
RING_BPS = 16e6
ROUND_TRIP_S = 0.004  # pacing response round trip on one ring segment
APPN_HEADER = 9


def _q(value, unit: str) -> dict:
    return {"value": value, "unit": unit}


def _transfer_seconds(size: int, ru: int, window: int, frame: int, rng: random.Random, sessions: int = 1) -> float:
    """Seconds to move `size` bytes: the lesser of the link rate net of the SNA header and the rate the
    sessions' pacing windows allow per round trip; +/- 3 % run-to-run noise."""
    link_rate = RING_BPS / 8 * (frame - APPN_HEADER) / frame
    window_rate = sessions * window * ru / (ROUND_TRIP_S + window * ru / link_rate)
    return size / min(link_rate, window_rate) * rng.uniform(0.97, 1.03)


def _base(study: str, label: str, day: dt.date, started: dt.datetime) -> dict:
    return {"format": FORMAT_NAME, "version": 1, "study": study, "run_label": label, "run_date": day.isoformat(),
            "started_at": started.isoformat(timespec="seconds")}


def appc_runs(day: dt.date, rng: random.Random, tuned_sessions: int = 1) -> list[dict]:
    """The baseline and the tuned transfer; the tuned one over ``tuned_sessions`` parallel sessions (seed 000's
    results are single-session only, L145: 000-R63 flags a comparison of more)."""
    runs = []
    for n, (label, ru, window, frame) in enumerate((("os2-baseline", 1920, 3, 2052), ("os2-tuned", 16384, 63, 16393))):
        size, sessions = 1_000_000, tuned_sessions if n else 1
        seconds = _transfer_seconds(size, ru, window, frame, rng, sessions)
        record = _base("APPC tuning (site)", label, day, dt.datetime.combine(day, dt.time(9, 30 + 10 * n)))
        record.update({
            "system_under_test": {"platform": "OS/2 Warp 4", "product": "Communications Server", "release": "5.0",
                                  "processor_model": "IBM PC 300GL", "engines": 1},
            "parameters": {"ru_size": _q(ru, "bytes"), "pacing_window": _q(window, "RUs"),
                           "dlc_frame_size": _q(frame, "bytes"), "network_type": {"value": "APPN"},
                           "transmit_window_count": _q(8, "frames"), "receive_window_count": _q(8 if n else 4, "frames")},
            "workload": {"transaction_type": "file_transfer", "bytes_per_transaction": _q(size, "bytes"),
                         "sessions": sessions, "repetitions": 20},
            "results": {"elapsed": _q(round(seconds, 3), "s"), "transactions": 1,
                        "throughput": _q(round(size * 8 / seconds / 1e6, 4), "Mbit/s")},
            "provenance": {"measured_by": "network team", "tool": "AFTP memory-to-memory",
                           "note": "client to host over one 16 Mbit/s ring segment"},
        })
        runs.append(record)
    return runs


def vtam_runs(day: dt.date, rng: random.Random) -> list[dict]:
    """One record per end; CPU seconds per byte = 3 engines x CPU % / throughput, as seed 003 prints it."""
    runs = []
    fixed_s = 0.0042  # per-transfer latency (acknowledgement) that dominates small files (seed 003 L500)
    for i, size in enumerate((1000, 8000, 64000, 512000, 1_000_000, 4_000_000)):
        thr = size / (fixed_s + size / 15.5e6) * rng.uniform(0.97, 1.03)
        for role, cpu_per_byte in (("client", 3.3e-8 + 2.6e-6 * 1000 / size), ("server", 2.5e-8 + 2.8e-6 * 1000 / size)):
            cpu_pct = cpu_per_byte * thr / 3 * 100
            record = _base("VTAM bulk transfer (site)", f"mpcplus-{size}", day,
                           dt.datetime.combine(day, dt.time(11, 5 * i)))
            record.update({
                "role": role,
                "system_under_test": {"platform": "z/OS", "product": "VTAM", "release": "CS z/OS 2.5", "engines": 3},
                "parameters": {"ru_size": _q(61440, "bytes"), "iobuf": _q(3992, "bytes"), "pacing_window": _q(63, "RUs"),
                               "delay": _q(0, "s"), "csm_storage": {"value": "dataspace"}, "mpc_plus": {"value": "yes"}},
                "workload": {"transaction_type": "file_transfer", "bytes_per_transaction": _q(size, "bytes")},
                "results": {"throughput": _q(round(thr), "bytes/s"), "cpu_utilization": _q(round(cpu_pct, 2), "%"),
                            "cpu_per_byte": _q(float(f"{3 * cpu_pct / 100 / round(thr):.4g}"), "s/byte")},
                "provenance": {"tool": "NetMarks-style memory-to-memory transfer"},
            })
            runs.append(record)
    return runs


def tn3270_run(day: dt.date, rng: random.Random) -> dict:
    """200 terminals, 11 s think: X = N / (R + Z); CPU = X x CPU ms; TCP/IP adds 280 KI per transaction."""
    terminals, think = 200, 11.0
    mips = 14.0
    cpu_ms = (280 + 300) / mips * rng.uniform(0.98, 1.02)  # 300 KI application + 280 KI TCP/IP (seed 004 L4347)
    response = 0.21 * rng.uniform(0.95, 1.05)
    tps = terminals / (response + think)
    record = _base("TN3270 migration (site)", "tn3270-200-terminals", day, dt.datetime.combine(day, dt.time(14, 0)))
    record.update({
        "system_under_test": {"platform": "VSE/ESA 2.7", "product": "TCP/IP for VSE/ESA", "release": "1.5",
                              "processor_model": "9672-R14", "engines": 1, "mips_per_engine": mips},
        "parameters": {"telnetd_buffers": {"value": 20}, "pool": {"value": "YES"}},
        "workload": {"transaction_type": "tn3270_dsw", "users": terminals, "think_time": _q(think, "s")},
        "results": {"transactions_per_s": _q(round(tps, 2), "1/s"), "response_time": _q(round(response, 3), "s"),
                    "cpu_utilization": _q(round(tps * cpu_ms / 10, 1), "%"),
                    "cpu_per_transaction": _q(round(cpu_ms, 2), "ms")},
        "provenance": {"tool": "TPNS", "note": "10-minute run after stabilization"},
    })
    return record


def aping_text(day: dt.date, rng: random.Random, host: str, partner: str) -> str:
    """Three APING invocations of 2 iterations each, as the workstation aping prints them."""
    blocks = []
    for n in range(3):
        stamp = dt.datetime.combine(day, dt.time(16, 10 * n))
        rows = []
        for iteration in range(2):
            # the first exchange includes the partner's start-up (aping.md §4)
            ms = max(1, round(_transfer_seconds(64000, 16384, 63, 16393, rng) * 1000 * (1.8 if iteration == 0 else 1.0)))
            rows.append((ms, 64000))
        total_ms, total_bytes = sum(r[0] for r in rows), sum(r[1] for r in rows)
        lines = [f"# captured: {stamp.isoformat(timespec='seconds')} host: {host}",
                 f"$ aping -s 32000 -i 2 -c 2 {partner}",
                 f"Allocate duration:{'':34}{rng.randint(0, 15):>3} ms",
                 f"Program startup and Confirm duration:{'':13}{rng.randint(300, 900):>3} ms", "",
                 "       Duration         Data Sent           Data Rate         Data Rate",
                 "        (msec)           (bytes)             (KB/s)            (mb/s)",
                 "       --------         ---------           ---------         ---------"]
        for ms, size in rows:
            kbs = size / ms * 1000 / 1024
            lines.append(f"{ms:>12}{size:>19}{kbs:>20.1f}{kbs * 8 / 1000:>18.3f}")
        kbs = total_bytes / total_ms * 1000 / 1024
        lines.append(f"Totals:{total_ms:>5}{total_bytes:>19}{kbs:>20.1f}{kbs * 8 / 1000:>18.3f}")
        lines.append(f"Duration statistics: Min = {min(r[0] for r in rows)} Ave = {total_ms // len(rows)} "
                     f"Max = {max(r[0] for r in rows)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _flatten(record: dict, prefix: str = "") -> dict:
    out = {}
    for key, value in record.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, path + "."))
        else:
            out[path] = value
    return out


def write_csv(path: Path, records: list[dict]) -> None:
    rows = [_flatten(r) for r in records]
    header = list(dict.fromkeys(k for row in rows for k in row))
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


# A site's paired TCP/IP for VSE runs (seed 004 part 2 measures the same pairs): each variant moves from its
# base run by the change the document publishes for the pair, or departs from it where marked, so the
# comparison with the published changes (rpt_vse_benchmark_pairs) has a pair that agrees and one that does not.
VSE_FTP = {"transaction_type": "ftp_to_vse", "bytes_per_transaction": _q(10485760, "bytes")}
VSE_TN3270 = {"think_time": _q(11, "s")}
# study, label, release, engines, workload, parameters, results: (throughput KB/s, CPU s, KI/KB, extra);
# for the TN3270 runs (transactions/s, CPU %, CPU ms per transaction, response s, extra)
VSE_FTP_RUNS = [
    ("VSE FTP upgrade (site)", "libr-1.3e", "1.3 ServPack E", 1, {"method": "interactive FTP", "tcpip_path": "single"},
     (230, None, 21.0, {"nps": {"value": 0.31}, "file_io_rate": _q(245, "KB/s")})),  # File I/O close to transfer: disk-bound
    ("VSE FTP upgrade (site)", "libr-1.3f", "1.3 ServPack F", 1, {"method": "interactive FTP", "tcpip_path": "single"},
     (232, None, 20.8, {"nps": {"value": 0.30}, "file_io_rate": _q(690, "KB/s")})),  # NPS -3 %: departs from the -35 %
    ("VSE FTP upgrade (site)", "libr-1.3i", "1.3 ServPack I", 1, {"method": "interactive FTP", "tcpip_path": "single"},
     (240, None, 20.0, {})),
    ("VSE FTP upgrade (site)", "libr-1.4a", "1.4 ServPack A", 1, {"method": "interactive FTP", "tcpip_path": "single"},
     (283, None, 14.8, {})),  # EDR +18 %, KI/KB -26 %: as published
    ("VSE FTP upgrade (site)", "libr-1.4a-gateway", "1.4 ServPack A", 1,
     {"method": "interactive FTP", "tcpip_path": "gateway"}, (272, None, 24.6, {})),  # KI/KB +66 %, EDR -4 %
    ("VSE batch FTP (site)", "batch-ftp-1-way", "1.3 ServPack K", 1, {"method": "Batch FTP", "partitions": "dyn-dyn"},
     (495, 11.03, None, {})),
    ("VSE batch FTP (site)", "batch-ftp-2-way", "1.3 ServPack K", 2, {"method": "Batch FTP", "partitions": "dyn-dyn"},
     (470, 11.47, None, {})),  # -5 % EDR, +4 % CPU: as published
    ("VSE batch FTP (site)", "ftpbatch-1-way", "1.3 ServPack K", 1, {"method": "FTPBATCH", "partitions": "dyn-dyn"},
     (375, 12.83, None, {})),
    ("VSE batch FTP (site)", "ftpbatch-2-way", "1.3 ServPack K", 2, {"method": "FTPBATCH", "partitions": "dyn-dyn"},
     (420, 16.9, None, {})),  # +12 % EDR at +32 % CPU: departs from +3 % and +17 %
    ("VSE batch FTP partitions (site)", "batch-ftp-stat-stat", "1.3 ServPack K", 1,
     {"method": "Batch FTP", "partitions": "stat-stat"}, (380, 11.62, None, {"file_io_rate": _q(400, "KB/s")})),
    ("VSE batch FTP partitions (site)", "batch-ftp-stat-dyn", "1.3 ServPack K", 1,
     {"method": "Batch FTP", "partitions": "stat-dyn"}, (362, 11.80, None, {})),  # +1.5 % CPU: as published
    ("VSE batch FTP partitions (site)", "ftpbatch-stat-stat", "1.3 ServPack K", 1,
     {"method": "FTPBATCH", "partitions": "stat-stat"}, (300, 12.55, None, {})),
    ("VSE batch FTP partitions (site)", "ftpbatch-stat-dyn", "1.3 ServPack K", 1,
     {"method": "FTPBATCH", "partitions": "stat-dyn"}, (290, 13.90, None, {})),  # +11 % CPU: departs from +0.6 %
]
VSE_TN3270_RUNS = [
    ("sna-sd", "sna_dsw", None, 250, {"dispatcher": "standard"}, (16.70, 30, 18.30, 0.21, {})),
    ("sna-td", "sna_dsw", None, 250, {"dispatcher": "turbo"}, (16.73, 34, 21.00, 0.22, {})),  # +15 % at 30 %
    ("tn3270-k", "tn3270_dsw", "1.3 ServPack K", 250, {"dispatcher": "turbo"},
     (16.62, 74, 45.60, 0.39, {"delta_cpu_per_transaction": _q(24.8, "ms")})),  # 0.17 s over SNA
    ("tn3270-1.4", "tn3270_dsw", "1.4", 250, {"dispatcher": "turbo"},
     (16.70, 73, 45.40, 0.23, {"delta_cpu_per_transaction": _q(24.6, "ms")})),  # overhead -1 %: departs from -7 to -13 %
    ("tn3270-k-100", "tn3270_dsw", "1.3 ServPack K", 100, {"dispatcher": "turbo"},
     (6.70, 31, 47.00, 0.25, {"delta_cpu_per_transaction": _q(26.0, "ms")})),  # fewer terminals, higher overhead
]
# transfers without TCP/IP against the document's IND$FILE and LANRES/VSE rates (L4776-L4784)
VSE_OTHER_TRANSFERS = [("ind-file", "IND$FILE", "ind_file_transfer", 25), ("lanres", "LANRES/VSE", "lanres_transfer", 150)]


def _vse_system(release: str | None, engines: int, product: str = "TCP/IP for VSE/ESA") -> dict:
    system = {"platform": "VSE/ESA 2.7", "product": product, "processor_model": "9672-R24", "engines": engines}
    return system | ({"release": release} if release else {})


def vse_runs(day: dt.date) -> list[dict]:
    """The site's paired TCP/IP for VSE runs of one day: FTP across releases, engines, partitions and a gateway,
    TN3270 and SNA on both dispatchers, and two transfers without TCP/IP."""
    runs, started = [], dt.datetime.combine(day, dt.time(9, 0))
    for study, label, release, engines, parameters, (kb_s, cpu_s, ki_kb, extra) in VSE_FTP_RUNS:
        results = {"throughput": _q(kb_s, "KB/s"), "transactions": 1}
        results |= ({"cpu_time": _q(cpu_s, "s")} if cpu_s else {}) | ({"ki_per_kb": _q(ki_kb, "KI/KB")} if ki_kb else {})
        runs.append(_base(study, label, day, started) | {
            "system_under_test": _vse_system(release, engines), "workload": dict(VSE_FTP),
            "parameters": {name: {"value": value} for name, value in parameters.items()},
            "results": results | ({"extra": extra} if extra else {})})
    for label, kind, release, users, parameters, (tps, cpu_pct, cpu_ms, response, extra) in VSE_TN3270_RUNS:
        product = "VTAM 4.2 (SNA)" if kind == "sna_dsw" else "TCP/IP for VSE/ESA"
        results = {"transactions_per_s": _q(tps, "1/s"), "cpu_utilization": _q(cpu_pct, "%"),
                   "cpu_per_transaction": _q(cpu_ms, "ms"), "response_time": _q(response, "s")}
        runs.append(_base("VSE TN3270 (site)", label, day, started) | {
            "system_under_test": _vse_system(release, 1, product),
            "workload": VSE_TN3270 | {"transaction_type": kind, "users": users},
            "parameters": {name: {"value": value} for name, value in parameters.items()},
            "results": results | ({"extra": extra} if extra else {})})
    for label, method, kind, kb_s in VSE_OTHER_TRANSFERS:
        runs.append(_base("VSE transfers without TCP/IP (site)", label, day, started) | {
            "system_under_test": _vse_system(None, 1, method),
            "workload": {"transaction_type": kind, "bytes_per_transaction": _q(1048576, "bytes")},
            "parameters": {"method": {"value": method}}, "results": {"throughput": _q(kb_s, "KB/s"), "transactions": 1}})
    return runs


def write_jsonl(path: Path, records: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def generate(out: Path, start: dt.date, days: int, seed: int, forms: list[str],
             host: str = "os2lab", partner: str = "HOSTVTAM") -> list[Path]:
    if days < 1:
        raise ValueError("--days must be at least 1")
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    appc, vtam, tn, written = [], [], [], []
    for offset in range(days):
        day = start + dt.timedelta(days=offset)
        # the last day's tuned transfer ran over 4 sessions: not comparable with seed 000's single-session lab
        appc += appc_runs(day, rng, 4 if offset == days - 1 and days > 1 else 1)
        vtam += vtam_runs(day, rng)
        tn.append(tn3270_run(day, rng))
        if "aping" in forms:
            path = out / f"{host}__aping__{day:%Y%m%d}T160000.txt"
            path.write_text(aping_text(day, rng, host, partner), encoding="utf-8")
            written.append(landed(path, day))
    last_day = start + dt.timedelta(days=days - 1)  # the files that collect every day's runs land after it
    if "jsonl" in forms:
        for name, records in (("appc_tuning.jsonl", appc), ("tn3270.jsonl", tn), ("vse_tcpip.jsonl", vse_runs(start))):
            write_jsonl(out / name, records)
            written.append(landed(out / name, last_day))
    if "csv" in forms:
        write_csv(out / "vtam_bulk.csv", vtam)
        written.append(landed(out / "vtam_bulk.csv", last_day))
    elif "jsonl" in forms:
        write_jsonl(out / "vtam_bulk.jsonl", vtam)
        written.append(landed(out / "vtam_bulk.jsonl", last_day))
    return sorted(written)


def demo(home: Home, seed: int) -> list[Path]:
    """Three days of site benchmark runs in every form, into ``home.landing/benchmark``."""
    return generate(home.landing / "benchmark", DEMO_START, DEMO_DAYS, seed, list(FORMS))


def cmd_generate_benchmark(args) -> int:
    out = output_dir(args, "benchmark")
    try:
        files = generate(out, args.start, args.days, args.seed, args.forms)
    except (ValueError, OSError) as e:
        print(f"perfdb generate benchmark: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"files": [str(f) for f in files]}, indent=2))
    else:
        print(f"wrote {len(files)} benchmark files to {out}", file=sys.stderr)
    return 0


def add_parser(subparsers) -> None:
    p = subcommand(subparsers, "benchmark", cmd_generate_benchmark, HELP, DESCRIPTION)
    add_generator_options(p, "benchmark", start=DEMO_START, days=1)
    p.add_argument("--forms", type=forms_of(FORMS), default=list(FORMS), help="comma-separated: jsonl,csv,aping (default all)")
