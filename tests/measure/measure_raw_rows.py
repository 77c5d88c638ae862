"""Raw MEASURE rows written straight into raw.measure_* (as ingest would leave them), for the dbt model tests.

Each ``*_rows`` function is one small hand-made history whose hourly, shift, month and year figures the tests
compute by hand; counters are in raw units (microseconds of busy, queue length x microseconds, counts).
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa

from ingest.home import Home
from ingest.warehouse import database

HOUR_US = 3_600_000_000
SYSTEM = "\\TEST"
D1, D2, D3 = dt.date(1986, 5, 8), dt.date(1986, 5, 9), dt.date(1986, 6, 2)


def at(day: dt.date, hour: int, minute: int = 0, second: float = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute)) + dt.timedelta(seconds=second)


def header(start: dt.datetime, delta_us: int, *, cpu: int, loadid: bool = True, file_id: int = 1, error: int = 0):
    return {
        "source_file_id": file_id,
        "record_ordinal": 0,
        "source_form": "csv",
        "system_name": SYSTEM,
        "cpu_num": cpu,
        "loadid": f"DT{start:%j%H}" if loadid else None,
        "from_timestamp": start,
        "to_timestamp": start + dt.timedelta(microseconds=delta_us),
        "delta_time": delta_us,
        "error": error,
        "os_version": "B30",
    }


def cpu_record(start, cpu, *, delta_us=HOUR_US, busy_time=None, qtime=None, swaps=None, intr_busy_time=None,
               loadid=True, file_id=1, error=0):
    """A CPU record; counters default to 40 % busy, QLEN .5, .1 swaps/s, 5 % interrupt busy, 2 % send busy."""
    return {
        **header(start, delta_us, cpu=cpu, loadid=loadid, file_id=file_id, error=error),
        "cpu_type": 2, "memory_pages": 8192, "pcbs": 1800,
        "cpu_busy_time": busy_time if busy_time is not None else delta_us * 40 // 100,
        "cpu_qtime": qtime if qtime is not None else delta_us // 2,
        "cpu_qlen_max": 5, "mem_qtime": 0, "mem_qlen_max": 0,
        "dispatches": delta_us // 10_000,
        "swaps": swaps if swaps is not None else delta_us // 10_000_000,
        "intr_busy_time": intr_busy_time if intr_busy_time is not None else delta_us * 5 // 100,
        "process_ovhd": 0, "send_busy_time": delta_us * 2 // 100, "disc_ios": 0, "cache_hits": 0,
        "page_requests": 0, "page_scans": 0, "transactions": 0, "response_time": 0, "ending_free_mem": 1000,
    }


def cpu_rows() -> list[dict]:
    rows = []
    for day, cpus in ((D1, (0, 1)), (D2, (0, 1)), (D3, (0,))):
        for cpu in cpus:
            for hour in range(24):
                start = at(day, hour)
                if (day, cpu, hour) == (D1, 0, 14):
                    # the hand-computed hour: 55.4 % busy, QLEN 2.5, .2 swaps/s, 8.5 % interrupt busy
                    rows.append(cpu_record(start, 0, busy_time=1_994_400_000, qtime=9_000_000_000, swaps=720,
                                           intr_busy_time=306_000_000))
                    # the same record again: a MEASCOM LIST run twice
                    rows.append({**rows[-1], "source_file_id": 2})
                elif (day, cpu, hour) == (D1, 1, 23):
                    rows.append(cpu_record(start, 1, busy_time=2_700_000_000))  # 75 % in the hour ending at 24
                elif day == D2 and cpu == 0 and 8 <= hour < 16:
                    # exactly at the limits: QLEN 2.0 is not > 2, spread 2.0 - 1.0 is not > 1
                    rows.append(cpu_record(start, 0, qtime=(2 if hour == 10 else 1) * HOUR_US))
                elif day == D3 and hour == 13:
                    # two half-hour intervals, 30 % and 50 % busy: 40 % for the hour
                    half = HOUR_US // 2
                    rows.append(cpu_record(start, 0, delta_us=half, busy_time=half * 30 // 100, loadid=False))
                    rows.append(cpu_record(at(day, 13, 30), 0, delta_us=half, busy_time=half * 50 // 100, loadid=False))
                else:
                    rows.append(cpu_record(start, cpu, loadid=day != D3))
    # ERROR 2: MEASURE collected no counters for this record
    rows.append(cpu_record(at(D3, 12), 1, busy_time=0, error=2))
    return rows


def process_record(start, seconds, *, cpu, pin, program, priority=150, name=None, cpu_busy_us=0, ready_us=0,
                   recv_qtime=0, vsems=0, sent=0, received=0):
    delta_us = round(seconds * 1e6)
    return {
        **header(start, delta_us, cpu=cpu, loadid=False),
        "pin": pin, "process_name": name, "priority": priority, "program_file_name": program, "userid": "8,1",
        "cpu_busy_time": cpu_busy_us, "ready_time": ready_us, "mem_qtime": 0, "dispatches": 0, "page_faults": 0,
        "vsems": vsems, "recv_qtime": recv_qtime, "recv_qlen_max": 1, "messages_sent": sent,
        "messages_received": received, "sent_bytes": 0, "received_bytes": 0, "checkpoints": 0, "file_open_calls": 0,
    }


def process_rows() -> list[dict]:
    trecv, tsched = "$TEMPLE.TRANSFER.TRECV", "$TEMPLE.TRANSFER.TSCHED"
    return [
        # Busy Process report (Glasstone Fig. 2): RUN TIME, CPU UTILIZATION, I.O. PER SECOND, PRIORITY
        process_record(at(D1, 10), 1197.49, cpu=0, pin=10, program="$SYSTEM.SYSTEM.QP", priority=190,
                       cpu_busy_us=347_272_100, sent=38_320),      # 1,197.49 s  0.29  32  190
        process_record(at(D1, 10), 1200.48, cpu=1, pin=20, program="$SYSTEM.PRODOBJ.BATCH01", priority=185,
                       cpu_busy_us=228_091_200, sent=28_812),      # 1,200.48 s  0.19  24  185
        process_record(at(D1, 10), 1207.82, cpu=1, pin=21, program="$SYSTEM.PRODOBJ.ACTREPT", priority=185,
                       cpu_busy_us=193_251_200, sent=7_247),       # 1,207.82 s  0.16  06  185
        # busy, but a system process (priority 201); and a user process with only 30 s of CPU
        process_record(at(D1, 10), 3600, cpu=0, pin=0, program="$SYSTEM.SYSTEM.MONITOR", priority=201,
                       cpu_busy_us=400_000_000),
        process_record(at(D1, 10), 3600, cpu=0, pin=11, program="$SYSTEM.SYSTEM.FUP", priority=148,
                       cpu_busy_us=30_000_000, sent=100),
        # Process Summary (Glasstone Fig. 1): TRECV COUNT 4, CPU SEC 4.08, RECEIVED 36, SENT 262.
        # PIN 30 runs the program twice: the gap between 09:10 and 09:40 means a new process.
        process_record(at(D1, 9), 600, cpu=2, pin=30, program=trecv, cpu_busy_us=1_020_000, received=9, sent=65),
        process_record(at(D1, 9), 600, cpu=2, pin=31, program=trecv, cpu_busy_us=1_020_000, received=9, sent=65),
        process_record(at(D1, 9, 20), 600, cpu=2, pin=32, program=trecv, cpu_busy_us=1_020_000, received=9, sent=66),
        process_record(at(D1, 9, 40), 600, cpu=2, pin=30, program=trecv, cpu_busy_us=1_020_000, received=9, sent=66),
        # TSCHED COUNT 2, CPU SEC 29.29, RECEIVED 2,615, SENT 3,310: PIN 40 runs three hours without a break
        process_record(at(D1, 8), 3600, cpu=3, pin=40, program=tsched, cpu_busy_us=10_000_000, received=1000,
                       sent=1000),
        process_record(at(D1, 9), 3600, cpu=3, pin=40, program=tsched, cpu_busy_us=10_000_000, received=1000,
                       sent=1000),
        process_record(at(D1, 10), 3600, cpu=3, pin=40, program=tsched, cpu_busy_us=5_000_000, received=500, sent=1000),
        process_record(at(D1, 10), 3600, cpu=3, pin=41, program=tsched, cpu_busy_us=4_290_000, received=115, sent=310),
        # Process Activity (Glasstone Fig. 3): GL07C CPU PER TRANS .0914, I.O. PER TRANS 13.2, CPU PER I.O. .0069
        process_record(at(D1, 11), 3600, cpu=4, pin=50, program="$SYSTEM.PRODOBJ.GL07C", cpu_busy_us=91_400_000,
                       received=1000, sent=13_200),
        # PO15A: 2.9 I/Os per transaction, below the 5-20 of OLTP
        process_record(at(D1, 11), 3600, cpu=4, pin=51, program="$SYSTEM.PRODOBJ.PO15A", cpu_busy_us=24_100_000,
                       received=1000, sent=2_900),
        # King Fig. 7: $SRV1's $RECEIVE queue .2, .5, .9; semaphore waits .1, .2, .3 /s; busy .2, 1, 2 %;
        # READY/BUSY 3, 2, 1.5
        *[process_record(at(D1, hour), 3600, cpu=5, pin=60, program="$PROGS.SERVER1.SRV", name="$SRV1",
                         recv_qtime=round(pqlen * HOUR_US), vsems=vsems, cpu_busy_us=busy_us, ready_us=ready_us)
          for hour, pqlen, vsems, busy_us, ready_us in (
              (8, 0.2, 360, 7_200_000, 21_600_000),
              (9, 0.5, 720, 36_000_000, 72_000_000),
              (10, 0.9, 1080, 72_000_000, 108_000_000))],
    ]


def disc_rows() -> list[dict]:
    counters = ["request_qtime", "requests", "reads", "writes", "input_bytes", "output_bytes", "swaps",
                "requests_blocked", "read_busy_time", "write_busy_time", "seek_busy_time", "device_qbusy_time",
                "cache_hits", "cache_misses"]
    ids = {"device_name": "$DATA01", "pin": 5, "logical_device": 6, "device_type": 3, "device_subtype": 0}
    primary = {
        **header(at(D1, 10), HOUR_US, cpu=0), **ids, **dict.fromkeys(counters, 0),
        "read_busy_time": 1_080_000_000, "write_busy_time": 720_000_000, "seek_busy_time": 360_000_000,
        "request_qtime": 5_400_000_000, "requests": 7_200, "input_bytes": 3_600_000, "output_bytes": 1_800_000,
        "device_qbusy_time": 1_800_000_000, "cache_hits": 900, "cache_misses": 100,
    }
    backup = {**header(at(D1, 10), HOUR_US, cpu=1), **ids, **dict.fromkeys(counters, 0)}
    return [primary, backup]


def line_rows() -> list[dict]:
    # only some LINE items: the table's other contract columns stay NULL
    return [{
        **header(at(D1, 10), HOUR_US, cpu=2), "device_name": "$X25TAH",
        "read_busy_time": 360_000_000, "write_busy_time": 720_000_000, "input_bytes": 1_800_000,
        "output_bytes": 3_600_000, "transactions": 1_800, "response_time": 900_000_000,
    }]


def userdef_rows() -> list[dict]:
    ids = {"pin": 60, "process_name": "$SRV1", "program_file_name": "$PROGS.SERVER1.SRV", "priority": 150,
           "max_value": 4}
    return [
        {**header(at(D1, 10), HOUR_US, cpu=5), **ids, "name": "RESP-TIME", "type": 3, "index": 0,
         "counter_value": 7_200_000_000},   # QUEUE: 2.0 transactions in progress on average
        {**header(at(D1, 10), HOUR_US, cpu=5), **ids, "name": "THROUGHPUT", "type": 1, "index": 0,
         "counter_value": 36_000},          # ACCUM: 10 transactions per second
    ]


def file_record(start, minutes, *, file_name, reads=0, writes=0, updates=0, deletes=0, info=0, pin=70,
                device_type=3):
    return {
        **header(start, minutes * 60_000_000, cpu=6), "opener_cpu": 6, "opener_pin": pin, "file_name": file_name,
        "device_type": device_type, "file_busy_time": 0, "reads": reads, "writes": writes,
        "updates_or_replies": updates, "deletes_or_writereads": deletes, "info_calls": info, "messages": 0,
        "message_bytes": 0,
    }


def file_rows() -> list[dict]:
    folder, profile = "$TEMPLE.TRANDBA.FOLDER", "$TEMPLE.TRANDBA.PROFILE"
    return [
        # File Summary (Glasstone Fig. 6): FOLDER COUNT 1, READS 274, WRITES 115, UPDATES 0, DELETES 79,
        # one open measured over two consecutive hours
        file_record(at(D1, 10), 60, file_name=folder, reads=200, writes=100, deletes=40),
        file_record(at(D1, 11), 60, file_name=folder, reads=74, writes=15, deletes=39),
        file_record(at(D1, 10), 60, file_name="$TEMPLE.TRANDBA.IFOLDER", reads=1305, writes=147, deletes=79),
        # PROFILE opened three times by the same process: a dynamic open
        *[file_record(at(D1, 10, minute), 5, file_name=profile, reads=6) for minute in (0, 10, 20)],
        file_record(at(D1, 10), 60, file_name="$TEMPLE.#0012345", reads=50),        # temporary file
        file_record(at(D1, 10), 60, file_name="$TEMPLE.TRANDBA.DISTLIST"),          # no activity
        file_record(at(D1, 10), 60, file_name="$TERM1", reads=9, device_type=6),    # not a disc file
    ]


def discopen_rows() -> list[dict]:
    def record(file_name, input_calls, hits, output_calls, splits, stalls):
        return {
            **header(at(D1, 10), HOUR_US, cpu=1), "opener_cpu": 6, "opener_pin": 70, "file_name": file_name,
            "driver_input_calls": input_calls, "driver_output_calls": output_calls, "cache_hits": hits,
            "cache_write_hits": 0, "block_splits": splits, "requests": 0, "requests_blocked": stalls,
            "lockwait_time": 0,
        }
    # DISCOPEN Summary (Glasstone Fig. 7): TOTAL INPUT, CACHE HITS, TOTAL WRITES, BLOCK SPLITS, STALLS
    return [
        record("$TEMPLE.TRANDBA.FOLDER", 1324, 1249, 210, 4, 1),
        record("$TEMPLE.TRANDBA.IFOLDER", 4163, 3881, 194, 0, 0),
        record("$MAIL.TRANDBA.ITEMDATA", 1788, 1348, 0, 0, 0),
        record("$TEMPLE.#0012345", 10, 0, 0, 0, 0),
    ]


def write_raw(home: Home, tables: dict[str, list[dict]]) -> None:
    con = database.connect(home)
    try:
        for name, rows in tables.items():
            batch = pa.Table.from_pylist([{**row, "record_ordinal": i} for i, row in enumerate(rows)])
            # an all-NULL column (e.g. no LOADID) is text, as ingest writes it
            batch = batch.cast(pa.schema([pa.field(f.name, pa.string()) if pa.types.is_null(f.type) else f
                                          for f in batch.schema]))
            con.register("batch", batch)
            con.execute(f"insert into raw.{name} by name select * from batch")  # connect() created the table
            con.unregister("batch")
    finally:
        con.close()
