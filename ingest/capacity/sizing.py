"""The sizing formulas the five source documents give, each with its source lines.

Seed files (``../shared/seeds``): 000 = IBM "Getting the most from APPC" (1994), 001 = Tandem Systems Review
Dec. 1986, 002 = CS/AIX V5 performance redbook (1998), 003 = SHARE "VTAM and HPR Performance Update"
(1999), 004 = IBM "VSE/ESA TCP/IP Performance Considerations" (2001). ``Lnnn`` is a line of the seed.

Units: KB = 1024 bytes (seeds 002 and 004 compute KB/s as 1024-byte kilobytes); Mbit = 10**6 bits
(seed 000 computes Mbit/sec as bytes x 8 / 10**6); MIPS = 10**6 instructions per second, KI = 1000
instructions.
"""

from __future__ import annotations

import math
import re

KB = 1024
TN3270_OVERHEAD_KI_PER_TXN = 280.0  # seed 004 L4347: TCP/IP overhead per TN3270 transaction, 280-350 KI
APPN_HEADER_BYTES = 9  # seed 000 L312: TH + RH in an APPN (FID2) network
SUBAREA_HEADER_BYTES = 29  # seed 000 L311: TH + RH in a subarea (FID4) network


# -- cost per transaction (seed 001, Cabell & Mackie, ATM article L3487-L3491) ----------------------------

def cpu_ms_per_transaction(cpus: int, utilization: float, period_s: float, transactions: float) -> float:
    """Transaction resource: total CPU milliseconds of the period divided by the transactions completed.

    2 CPUs at 60 % over 10 s with 30 transactions: 2 x 0.60 x 10,000 ms / 30 = 400 CPU ms (L3489-L3491).
    """
    if transactions <= 0:
        raise ValueError("no transactions in the period: the cost per transaction is undefined")
    return cpus * utilization * period_s * 1000.0 / transactions


def transactions_per_s_per_cpu(utilization: float, cpu_ms: float) -> float:
    """Potential throughput of one CPU at a utilization: 600 ms available / 400 ms = 1.5 tps (L3491)."""
    return utilization * 1000.0 / cpu_ms


def etr(transactions: float, elapsed_s: float) -> float:
    """External throughput rate: transactions per elapsed second."""
    return transactions / elapsed_s


def itr(etr_per_s: float, utilization: float) -> float:
    """Internal throughput rate: transactions per second of busy processor complex (ETR / utilization)."""
    return etr_per_s / utilization


# -- throughput and CPU per unit of work -------------------------------------------------------------------

def throughput_mbit_per_s(bytes_moved: float, seconds: float) -> float:
    """Seed 000 Appendix A (L998-L1022): bytes x 8 / seconds / 10**6; 100,000 B in 31 s -> 0.0258."""
    return bytes_moved * 8 / seconds / 1e6


def cpu_s_per_unit(engines: int, cpu_pct: float, units_per_s: float) -> float:
    """Seed 003 (every NetMarks/ATM table, L266-L514): CPU seconds per byte or per transaction =
    engines x CPU % / 100 / rate; with 3 engines it reproduces all 130 printed values."""
    return engines * cpu_pct / 100.0 / units_per_s


# -- TN3270 on VSE (seed 004, F.6-F.7) ---------------------------------------------------------------------

def pathlength_ki(utilization: float, mips: float, transactions_per_s: float) -> float:
    """Average transaction pathlength: 0.50 x 24 MIPS / 20 txn/s = 600 KI/txn (L4387)."""
    return utilization * mips * 1000.0 / transactions_per_s


def pathlength_ki_of_cpu_ms(cpu_ms_per_transaction: float, mips: float) -> float:
    """The same pathlength from a measured CPU cost: 25 CPU ms per transaction x 24 MIPS = 600 KI (L4387's
    0.50 x 24 MIPS / 20 txn/s, as 0.50 / 20 s = 25 ms)."""
    return cpu_ms_per_transaction * mips


def tn3270_overhead_mips(transactions_per_s: float, overhead_ki: float = TN3270_OVERHEAD_KI_PER_TXN,
                         tv_ratio: float = 1.0) -> float:
    """TCP/IP overhead of TN3270 traffic: 10 txn/s x 280 KI = 2.8 MIPS (L4393); x 1.2 under VM (L4413)."""
    return transactions_per_s * overhead_ki / 1000.0 * tv_ratio


def tn3270_overhead_utilization(transactions_per_s: float, mips: float,
                                overhead_ki: float = TN3270_OVERHEAD_KI_PER_TXN, tv_ratio: float = 1.0) -> float:
    """The same overhead as a share of the processor: 2.8 / 24 = 12 % (L4395); 3.36 / 24 = 14 % (L4413)."""
    return tn3270_overhead_mips(transactions_per_s, overhead_ki, tv_ratio) / mips


def itr_ratio(pathlength: float, overhead_ki: float = TN3270_OVERHEAD_KI_PER_TXN) -> float:
    """ITR of TCP/IP-attached terminals relative to SNA: P / (P + 280) (the F.6 table, L4357-L4363)."""
    return pathlength / (pathlength + overhead_ki)


def tn3270_terminals_per_processor(target_utilization: float, mips: float, pathlength: float,
                                   transactions_per_terminal_min: float = 2.0,
                                   overhead_ki: float = TN3270_OVERHEAD_KI_PER_TXN) -> float:
    """TN3270 terminals one processor carries at a target utilization, from the document's coefficients:
    each terminal sends 2 transactions a minute (L4534-L4540) of pathlength + 280 KI. Not a formula the
    document prints; it combines L4387, L4393 and L4536."""
    kips_per_terminal = transactions_per_terminal_min / 60.0 * (pathlength + overhead_ki)
    return target_utilization * mips * 1000.0 / kips_per_terminal


def telnet_pool_terminals(available_kb: float, transactions_per_terminal_min: float = 2.0,
                          daemon_kb: float = 13.0, buffer_factor: float = 1.5, buffer_kb: float = 2 * 8.0,
                          per_daemon_shared_kb: float = 1.0) -> float:
    """POOL=YES Telnet terminals that fit in the TCP/IP partition's GETVIS-24 before Service Pack J
    (L4505-L4550): per 100 terminals 100 x 13.0K + 1.5 x 3.33 txn/s x 2 x 8K + 100 x 1K = 1480K, so
    8620K holds 5.82 x 100 terminals (the document prints 580)."""
    tx_per_s = 100 * transactions_per_terminal_min / 60.0
    per_100 = 100 * daemon_kb + buffer_factor * tx_per_s * buffer_kb + 100 * per_daemon_shared_kb
    return available_kb / per_100 * 100


def max_daemons(remaining_getvis24_kb: float, kb_per_daemon: float) -> int:
    """Daemons that fit in the remaining GETVIS-24: 10M / 4K = 2500 TN3270 (L4734), / 310K = 32 FTP (L5365),
    / 117K = 85 GPS (L5631). The document takes 10M as 10,000K here."""
    return math.floor(remaining_getvis24_kb / kb_per_daemon)


# -- FTP on VSE (seed 004, G.5 and G.15) ---------------------------------------------------------------------

def ftp_cpu_utilization(ki_per_kb: float, kb_per_s: float, kips_per_engine: float) -> float:
    """CPU utiliz. = 'KI per KB' x EDR / KIPS of 1 engine: 15 x 300 / 20,000 = 0.225 (L5323-L5333)."""
    return ki_per_kb * kb_per_s / kips_per_engine


def ftp_mips_per_100_kb_s(ki_per_kb: float) -> float:
    """20 KI/KB correspond to 2 MIPS per 100 KB/sec (L4938)."""
    return ki_per_kb * 100 / 1000.0


def ftp_cpu_s_per_mb(ki_per_kb: float, mips: float) -> float:
    """CPU seconds per MB moved: KI/KB x 1024 / KIPS (14.0 KI/KB on a 14 MIPS engine = 1.024 s/MB)."""
    return ki_per_kb * KB / (mips * 1000.0)


def ki_per_kb(cpu_s: float, mips: float, kilobytes: float) -> float:
    """The inverse: 10.167 CPU s x 14,000 KIPS / 10,240 KB = 13.9 KI/KB (G.20, L5513)."""
    return cpu_s * mips * 1000.0 / kilobytes


# -- SNA memory (seed 002, §1.4.5.6) --------------------------------------------------------------------------

def appn_isr_memory_kb(adapters: int, isr_sessions: int, end_nodes: int) -> float:
    """APPN network node: 4 MB of mbufs per adapter + 1 KB per ISR session + 4 KB per end node served
    (L479-L481); 2 adapters, 3000 sessions and 50 end nodes need 11,392 KB."""
    return 4 * KB * adapters + 1.0 * isr_sessions + 4.0 * end_nodes


def receiver_pacing_buffer_bytes(ru_size: int, receive_window: int) -> int:
    """Seed 000 L326: the receiver needs RU size x receive window bytes of buffers for one session."""
    return ru_size * receive_window


# -- NCP and RU sizing (seed 000) -------------------------------------------------------------------------------

def ncp_maxbfru(piu_bytes: int, unitsz: int) -> int:
    """MAXBFRU = the largest PIU / UNITSZ rounded up (L789-L790); add 1 if sessions fail (L794)."""
    if unitsz <= 0:
        raise ValueError("UNITSZ must be positive")
    return math.ceil(piu_bytes / unitsz)


def ru_bytes(code: int) -> int:
    """One RUSIZES byte X'me' = m x 2**e bytes (L904-L906): X'87' = 1024, X'F7' = 1920, X'8D' = 65536."""
    mantissa, exponent = code >> 4, code & 0x0F
    if mantissa < 8:
        raise ValueError(f"X'{code:02X}' is not an RU size: the mantissa must be 8-F")
    return mantissa * 2 ** exponent


def decode_rusizes(text: str) -> tuple[int, int]:
    """The two RU sizes of a RUSIZES operand: X'8787' -> (1024, 1024), as the document's example (L906)."""
    m = re.fullmatch(r"\s*[xX]\s*['\u2032\u2019]?([0-9A-Fa-f]{4})['\u2032\u2019]?\s*", text)
    if not m:
        raise ValueError(f"expected RUSIZES as X'hhhh', got {text!r}")
    value = int(m.group(1), 16)
    return ru_bytes(value >> 8), ru_bytes(value & 0xFF)


def valid_ru_sizes(limit: int) -> list[int]:
    """Every RU size VTAM can code (m x 2**e, m = 8..15, e = 0..15) up to `limit`, ascending."""
    return sorted({m * 2 ** e for m in range(8, 16) for e in range(16) if m * 2 ** e <= limit})


def ru_size_for_frame(frame_bytes: int, header_bytes: int = APPN_HEADER_BYTES) -> int:
    """The largest RU that fits in one DLC frame: frame minus the SNA header (L306, L450), rounded down to
    a size the RU encoding can express. NS/DOS frame 987 gives 960, the "* (960 negotiated)" of L1132."""
    room = frame_bytes - header_bytes
    sizes = valid_ru_sizes(room)
    if not sizes:
        raise ValueError(f"a {frame_bytes}-byte frame leaves no room for an RU after a {header_bytes}-byte header")
    return sizes[-1]


def frame_for_ru(ru_size: int, header_bytes: int = APPN_HEADER_BYTES) -> int:
    """The DLC frame that carries one RU unsegmented: 16,384 + 9 = 16,393 (L496)."""
    return ru_size + header_bytes
