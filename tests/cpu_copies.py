"""Two sites' exports of one MEASURE CPU day, alike or not: the copies both targets must find
(``ingest/intake/copies.py``, ``ingest/lake/copies.py``)."""

HEADER = "system-name,cpu-num,loadid,from-timestamp,to-timestamp,delta-time,error,cpu-busy-time,cpu-qtime\n"


def cpu_day(busy_cpu1_first_minute: int) -> str:
    """Processors 0 and 1 of \\PROD1 over 10:00-10:02, 30 of every 60 s busy, but processor 1 in the first
    minute ``busy_cpu1_first_minute`` µs."""
    return HEADER + "".join(
        f"\\PROD1,{cpu},DT00510,2026-01-05 10:0{m}:00,2026-01-05 10:0{m + 1}:00,60000000,0,"
        f"{busy_cpu1_first_minute if (cpu, m) == (1, 0) else 30_000_000},200000\n"
        for cpu in (0, 1) for m in (0, 1))


def write_sites(landing) -> tuple:
    """Site A's CPU day, its CRLF export (a duplicate) and site B's copy with processor 1 busy 45 s of its
    first minute, not 30 (a conflict), as ``<landing>/<site>/cpu.csv``; their paths in that order."""
    paths = tuple(landing / name / "cpu.csv" for name in ("siteA", "siteA_crlf", "siteB"))
    for path in paths:
        path.parent.mkdir(parents=True)
    paths[0].write_text(cpu_day(30_000_000))
    paths[1].write_bytes(cpu_day(30_000_000).replace("\n", "\r\n").encode())
    paths[2].write_text(cpu_day(45_000_000))
    return paths
