"""``perfdb generate commands``: command-output captures of a few hosts, as their collectors would log them.

    perfdb generate commands --days 14 --start 2026-01-05 --every 120 --seed 1986 --out DIR
    perfdb generate commands --netstat-s-log 100000 --out DIR     (one big netstat -s log, for benchmarks)

Every capture is printed in the real layout of its command (the same layouts the parsers' docstrings
show), with counters that grow with a daily load curve (office hours, quiet nights and weekends):

* ``web01`` (Linux): ``netstat -s`` and ``netstat -i``; rebooted on day 20 (every counter restarts),
  and a flaky link on days 33-34 from 10:00 to 16:00 (4 % of segments retransmitted, receive errors);
* ``aix01`` (AIX with CS/AIX): ``netstat -m``, ``netstat -v`` and both snaadmin queries; mbuf requests
  fail at the peak of day 12, CRC errors on day 26, STREAMS buffers get tight (throttle_status above
  30) at the busiest peaks and CONGESTED at the peak of day 41; ``lsps -a`` every six hours, its paging
  space's use rising on days 39 to 41; ``errpt -a`` every evening, the token-ring DLC's writes to its
  full adapter queue failing (LAN8031) at the peak of day 41;
  ``vmstat 300 2``, its CPU busy above 85 % at 13 of the busiest peaks;
* ``VSE1`` (TCP/IP for VSE): QUERY STATS and QUERY ISTATS on one console log; Non-IP frames arrive
  on day 15, inbound connections are refused on day 25, TCP/IP is restarted on day 30; a SET
  DIAGNOSE=PERFORM display of each afternoon's FTP transfer (``_vse_diagnose``: retransmission mode on
  day 20, seed 004's SWS-bound sample on day 35, depth mode on day 42, a 620 ms ACK on day 48); the
  partition priorities (PRTY) each morning, seed 004's order but for day 38, when a batch partition
  runs above TCP/IP;
* ``SYSA`` (z/OS): D NET,BFRUSE in the hardcopy log (a transfer surge on day 50 fills and expands the
  IO00 pool) and NETSTAT STATS of stack TCPCS;
* ``VM1`` (VM TCP/IP): NETSTAT POOLSIZE every six hours; the data buffers run low on day 45;
* ``\\PROD1`` and ``\\DEV1`` (the MEASURE demo's NonStop systems): the statistics of their nightly FastSort runs
  (``_fastsort``), a small file sorted in two passes for want of memory on three nights.

Captures are appended to one log per host, command and month, each after a ``# captured: <time>
host: <name>`` line, except the z/OS hardcopy log whose lines carry their own time stamps.
``demo(home, seed)`` writes the demo period of ``perfdb demo`` (60 days from Monday 2026-01-05, the
MEASURE demo period) into ``home/landing/commands``. The same seed gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ingest.cli_options import add_generator_options, output_dir, positive_int, subcommand
from ingest.generate import _fastsort, _vse_diagnose
from ingest.generate._landing import landed
from ingest.home import Home

# what `perfdb generate --help` lists and `perfdb generate commands --help` explains
HELP = "command-output captures (netstat, QUERY STATS, PRTY, snaadmin, lsps, errpt, D NET,BFRUSE, NETSTAT, FastSort) of seven hosts"
DESCRIPTION = """Captures of a Linux, an AIX, a VSE, a z/OS and a VM host and two NonStop systems, logged the way a collector appends them, with a
daily load curve, a reboot, a restart and the incidents the threshold rules catch; the same seed always
gives the same bytes."""

DEMO_START = dt.date(2026, 1, 5)
DEMO_DAYS = 60
DEMO_EVERY_MIN = 120


def load_factor(t: dt.datetime) -> float:
    """Share of peak load: office hours near 1, nights near 0.15, weekends at 40 %."""
    hour = t.hour + t.minute / 60
    daily = 0.15 + 0.85 * math.exp(-((hour - 13.0) / 3.6) ** 2)
    return daily * (0.4 if t.weekday() >= 5 else 1.0)


@dataclass
class Counters:
    """Cumulative counters advanced at per-second rates; restart() is a reboot."""

    values: dict[str, float] = field(default_factory=dict)

    def advance(self, rates: dict[str, float], seconds: float) -> None:
        for name, rate in rates.items():
            self.values[name] = self.values.get(name, 0.0) + max(rate, 0.0) * seconds

    def restart(self) -> None:
        self.values = {name: 0.0 for name in self.values}

    def __getitem__(self, name: str) -> int:
        return int(self.values.get(name, 0.0))


# -- Linux ------------------------------------------------------------------------------------------

# per second at peak, relative to TCP segments received (shape of the development machine's netstat -s)
LINUX_RATIOS = {
    "ip_in_receives": 1.05, "ip_in_delivers": 1.05, "ip_out_requests": 0.9, "icmp_in_msgs": 0.0005,
    "icmp_out_msgs": 0.0003, "tcp_active_opens": 0.004, "tcp_passive_opens": 0.01, "tcp_attempt_fails": 0.0002,
    "tcp_estab_resets": 0.0004, "tcp_in_segs": 1.0, "tcp_out_segs": 0.85, "tcp_out_rsts": 0.006,
    "udp_in_datagrams": 0.02, "udp_no_ports": 0.0002, "udp_out_datagrams": 0.02, "tw": 0.009,
    "delayed_acks": 0.05, "delayed_ack_lost": 0.001, "hp_hits": 0.3, "pure_acks": 0.2, "hp_acks": 0.25,
    "timeouts": 0.0002, "backlog_coalesce": 0.02, "dsack_old_sent": 0.001, "abort_on_data": 0.0008,
    "abort_on_close": 0.002, "rcv_coalesce": 0.6, "auto_corking": 0.01, "orig_data_sent": 0.5,
    "delivered": 0.55, "in_octets": 1200.0, "out_octets": 620.0,
}
LINUX_S = """Ip:
    Forwarding: 2
    {ip_in_receives} total packets received
    0 forwarded
    0 incoming packets discarded
    {ip_in_delivers} incoming packets delivered
    {ip_out_requests} requests sent out
    OutTransmits: {ip_out_requests}
Icmp:
    {icmp_in_msgs} ICMP messages received
    0 input ICMP message failed
    ICMP input histogram:
        destination unreachable: {icmp_in_msgs}
    {icmp_out_msgs} ICMP messages sent
    0 ICMP messages failed
    ICMP output histogram:
        destination unreachable: {icmp_out_msgs}
IcmpMsg:
        InType3: {icmp_in_msgs}
        OutType3: {icmp_out_msgs}
Tcp:
    {tcp_active_opens} active connection openings
    {tcp_passive_opens} passive connection openings
    {tcp_attempt_fails} failed connection attempts
    {tcp_estab_resets} connection resets received
    {tcp_curr_estab} connections established
    {tcp_in_segs} segments received
    {tcp_out_segs} segments sent out
    {tcp_retrans_segs} segments retransmitted
    0 bad segments received
    {tcp_out_rsts} resets sent
Udp:
    {udp_in_datagrams} packets received
    {udp_no_ports} packets to unknown port received
    0 packet receive errors
    {udp_out_datagrams} packets sent
    0 receive buffer errors
    0 send buffer errors
UdpLite:
TcpExt:
    {tw} TCP sockets finished time wait in fast timer
    {delayed_acks} delayed acks sent
    Quick ack mode was activated {delayed_ack_lost} times
    {hp_hits} packet headers predicted
    {pure_acks} acknowledgments not containing data payload received
    {hp_acks} predicted acknowledgments
    TCPTimeouts: {timeouts}
    TCPBacklogCoalesce: {backlog_coalesce}
    TCPDSACKOldSent: {dsack_old_sent}
    {abort_on_data} connections reset due to unexpected data
    {abort_on_close} connections reset due to early user close
    TCPRcvCoalesce: {rcv_coalesce}
    TCPAutoCorking: {auto_corking}
    TCPOrigDataSent: {orig_data_sent}
    TCPDelivered: {delivered}
IpExt:
    InOctets: {in_octets}
    OutOctets: {out_octets}
    InNoECTPkts: {ip_in_receives}
MPTcpExt:
"""
LINUX_I = """Kernel Interface table
Iface             MTU    RX-OK RX-ERR RX-DRP RX-OVR    TX-OK TX-ERR TX-DRP TX-OVR Flg
eth0             1500 {rx:>8} {rx_err:>6} {rx_drp:>6} 0      {tx:>8} {tx_err:>6}      0      0 BMRU
lo              65536 {lo:>8}      0      0 0      {lo:>8}      0      0      0 LRU
"""


class LinuxHost:
    """web01: netstat -s and netstat -i."""

    name = "web01"
    peak_segments_per_s = 420.0

    def __init__(self, start: dt.datetime, rng: random.Random):
        self.c = Counters()
        self.rng = rng
        self.reboot = start + dt.timedelta(days=20, hours=8)
        self.c.advance({k: v * self.peak_segments_per_s * 0.4 for k, v in LINUX_RATIOS.items()}, 40 * 86_400)

    def retrans_ratio(self, t: dt.datetime, start: dt.date) -> float:
        day = (t.date() - start).days
        return 0.04 if day in (33, 34) and 10 <= t.hour < 16 else 0.002

    def step(self, t: dt.datetime, seconds: float, start: dt.date) -> None:
        if t - dt.timedelta(seconds=seconds) < self.reboot <= t:
            self.c.restart()
            seconds = (t - self.reboot).total_seconds()
        segments = self.peak_segments_per_s * load_factor(t) * self.rng.uniform(0.9, 1.1)
        rates = {k: v * segments for k, v in LINUX_RATIOS.items()}
        ratio = self.retrans_ratio(t, start)
        rates["tcp_retrans_segs"] = rates["tcp_out_segs"] * ratio
        rates["rx_err"] = 0.001 * segments if ratio > 0.01 else 0.0  # the flaky link also corrupts frames
        rates["lo"] = 3.0
        self.c.advance(rates, seconds)
        self.established = int(5 + 60 * load_factor(t) * self.rng.uniform(0.8, 1.2))

    def netstat_s(self) -> str:
        values = {k: self.c[k] for k in LINUX_RATIOS}
        values.update(tcp_retrans_segs=self.c["tcp_retrans_segs"], tcp_curr_estab=self.established)
        return LINUX_S.format(**values)

    def netstat_i(self) -> str:
        c = self.c
        return LINUX_I.format(rx=int(c.values["ip_in_receives"] * 0.98), rx_err=c["rx_err"], rx_drp=c["rx_err"] // 3,
                              tx=c["ip_out_requests"], tx_err=0, lo=c["lo"])


# -- AIX with CS/AIX -------------------------------------------------------------------------------------

AIX_SIZES = (32, 64, 128, 256, 512, 1024, 2048)
AIX_V_HEAD = """ETHERNET STATISTICS (ent0) :
Device Type: 4-Port 10/100/1000 Base-TX PCI-Express Adapter (14106803)
Hardware Address: e4:1f:13:fd:29:75
Elapsed Time: {days} days {hours} hours {minutes} minutes {seconds} seconds

Transmit Statistics:                          Receive Statistics:
--------------------                          -------------------
"""


@dataclass(frozen=True)
class ErrlogEntry:
    """An AIX error log template as errpt -a prints an entry of it: label, identifier, class, type, resource,
    and the template's texts after the header (from ``Description`` on)."""

    label: str
    identifier: str
    error_class: str
    error_type: str
    resource: str
    texts: str


# aix01's error log: the error daemon started with the demo period (the real ERRLOG_ON entry of an AIX 5L
# system, as an errpt tutorial prints it: zhengzhongguoji.com/article/1555_288606.html), and at the peak of day 41, when CS/AIX's STREAMS buffers are
# CONGESTED, the token-ring DLC's writes to its full adapter queue failing three times (seed 002 L700, L808;
# aix01's tok0 keeps its default transmit queue of 30, ingest.generate.listings). That entry is the LAN DLC's
# LAN8031 (AIX 4.1.3 src/bos/kernext/dlc/errlg/lan.err: class S, type TEMP, Err_Desc 2100; lanwrtsg logs it
# when the device handler's output returns EAGAIN, "busy... try again later", src/bos/kernext/dlc/lan/
# lanmisc.c; resource SYSXDLCT for token ring, lanintcb.h). Its texts are the
# Description only (code point 2100 of codepoint_setE.mri): the other code points' texts were not found, so its
# causes, actions and detail data are left out; its IDENTIFIER, the CRC errupdate computes from the template,
# is ours.
ERRLOG_ON = ErrlogEntry("ERRLOG_ON", "9DBCFDEE", "O", "TEMP", "errdemon",
                        "Description\nERROR LOGGING TURNED ON\n\nProbable Causes\nERRDEMON STARTED AUTOMATICALLY\n\n"
                        "User Causes\n/USR/LIB/ERRDEMON COMMAND\n\n\tRecommended Actions\n\tNONE\n\n")
LAN8031 = ErrlogEntry("LAN8031", "F1C3E4A6", "S", "TEMP", "SYSXDLCT", "Description\nSOFTWARE PROGRAM ERROR\n\n")
ERRPT_ENTRIES = [(dt.timedelta(minutes=1), ERRLOG_ON)] + [
    (dt.timedelta(days=41, hours=13, minutes=minute), LAN8031) for minute in (4, 19, 47)]
ERRPT_HOUR = 22
AIX01_MACHINE_ID = "00F6A4B84C00"


def errpt_entry(seq: int, when: dt.datetime, entry: ErrlogEntry) -> str:
    """One entry in errpt's detailed layout (AIX src/bos/usr/bin/errlg/errpt/pr.c, CAT_RPT_AHDR), its time as
    strftime's %c prints it (the day padded with a blank) with the zone, as in the real captures (``Thu Sep 30
    15:29:45 CST 2013``)."""
    return ("-" * 75 + f"\nLABEL:\t\t{entry.label}\nIDENTIFIER:\t{entry.identifier}\n\n"
            f"Date/Time:       {when:%a %b} {when.day:>2} {when:%H:%M:%S} CET {when:%Y}\nSequence Number: {seq}\n"
            f"Machine Id:      {AIX01_MACHINE_ID}\nNode Id:         aix01\nClass:           {entry.error_class}\n"
            f"Type:            {entry.error_type}\nResource Name:   {entry.resource}\n\n{entry.texts}")


class AixHost:
    """aix01: netstat -m, netstat -v, snaadmin query_buffer_availability and query_kernel_memory_limit, lsps -a,
    errpt -a, vmstat."""

    name = "aix01"

    def __init__(self, start: dt.datetime, rng: random.Random):
        self.c = Counters()
        self.rng = rng
        self.booted = start - dt.timedelta(days=9)

    def step(self, t: dt.datetime, seconds: float, start: dt.date) -> None:
        load = load_factor(t) * self.rng.uniform(0.9, 1.1)
        day = (t.date() - start).days
        peak = 11 <= t.hour <= 15
        rates = {f"calls_{s}": 40.0 * load * 2048 / s for s in AIX_SIZES}
        if day == 12 and peak:
            rates["failed_256"] = 0.01
            rates["failed_2048"] = 0.004
        rates.update(tx_packets=900 * load, rx_packets=1100 * load, tx_bytes=900 * load * 700,
                     rx_bytes=1100 * load * 420, rx_crc=0.05 if day == 26 and peak else 0.0)
        self.c.advance(rates, seconds)
        self.load = load
        self.throttle = 30 + (max(0.0, load - 0.95) * 200 if peak else 0)
        if day == 41 and peak:
            self.throttle = 85.0
        self.inuse = {s: int(30 + 900 * load * 256 / s * self.rng.uniform(0.9, 1.1)) for s in AIX_SIZES}
        self.elapsed = (t - self.booted).total_seconds()

    def netstat_m(self) -> str:
        out = ["Kernel malloc statistics:", ""]
        for cpu in (0, 1):
            out += [f"******* CPU {cpu} *******",
                    "By size           inuse     calls failed   delayed    free   hiwat   freed"]
            for s in AIX_SIZES:
                share = 0.55 if cpu == 0 else 0.45
                inuse = int(self.inuse[s] * share)
                out.append(f"{s:<15}{inuse:>8} {int(self.c.values[f'calls_{s}'] * share):>9}"
                           f"{int(self.c.values.get(f'failed_{s}', 0) * share):>7}{0:>10}"
                           f"{max(10, inuse // 3):>8}{max(100, 74240 // s):>8}{0:>8}")
            out.append("")
        return "\n".join(out) + "\n"

    def netstat_v(self) -> str:
        c = self.c
        seconds = int(self.elapsed)
        pairs = [("Packets", c["tx_packets"], "Packets", c["rx_packets"]),
                 ("Bytes", c["tx_bytes"], "Bytes", c["rx_bytes"]),
                 ("Transmit Errors", 0, "Receive Errors", c["rx_crc"]),
                 ("Packets Dropped", 0, "Packets Dropped", 0)]
        lines = [f"{f'{a}: {b}':<46}{c_}: {d}" for a, b, c_, d in pairs]
        head = AIX_V_HEAD.format(days=seconds // 86400, hours=seconds % 86400 // 3600,
                                 minutes=seconds % 3600 // 60, seconds=seconds % 60)
        tail = [
            f"{'':<46}Bad Packets: 0", "",
            "Max Packets on S/W Transmit Queue: 3", "S/W Transmit Queue Overflow: 0",
            "Current S/W+H/W Transmit Queue Length: 0", "",
            f"{'No Carrier Sense: 0':<46}CRC Errors: {c['rx_crc']}",
            f"{'DMA Underrun: 0':<46}DMA Overrun: 0", "",
            "General Statistics:", "-------------------", "No mbuf Errors: 0", "Adapter Reset Count: 0",
            "Adapter Data Rate: 2000", "Driver Flags: Up Broadcast Running ", "\tSimplex 64BitSupport ", "",
        ]
        return head + "\n".join(lines + tail) + "\n"

    @staticmethod
    def lsps(day: int) -> str:
        """lsps -a of its paging space, twice its 256 MB of RAM (seed 002 L428): 1 % used until the memory gets
        tight before the congestion of day 41, then 4, 9 and 17 % on days 39 to 41, held there after (AIX keeps a
        page's paging slot while its process lives). Drawn from no random number: the other captures are unchanged."""
        used = {39: 4, 40: 9}.get(day, 17 if day >= 41 else 1)
        return ("Page Space      Physical Volume   Volume Group    Size %Used   Active    Auto    Type   Chksum\n"
                f"hd6             hdisk0            rootvg         512MB {used:>5}     yes     yes      lv       0\n")

    @staticmethod
    def errpt(t: dt.datetime, start: dt.date) -> str:
        """errpt -a of the error log so far, newest entry first (``ERRPT_ENTRIES``). Drawn from no random number."""
        t0 = dt.datetime.combine(start, dt.time())
        logged = [(seq, t0 + offset, entry) for seq, (offset, entry) in enumerate(ERRPT_ENTRIES, 1) if t0 + offset <= t]
        return "".join(errpt_entry(seq, when, entry) for seq, when, entry in reversed(logged))

    def vmstat(self) -> str:
        """vmstat 300 2 (AIX 5.3 or later, a dedicated 2-way partition with its 256 MB): the first report since
        boot, the second the five minutes to the capture, busy (us + sy) 10 % + 75 % of the load: above seed 002's
        85 % (L1155, rule 002-R27) at the busiest peaks only. Drawn from no random number: the other captures
        are unchanged."""
        busy = min(97, int(10 + 75 * self.load))
        user = busy * 4 // 5
        lines = ["System configuration: lcpu=2 mem=256MB", "",
                 "kthr    memory              page              faults        cpu",
                 "----- ----------- ------------------------ ------------ -----------",
                 " r  b   avm   fre  re  pi  po  fr   sr  cy  in   sy  cs us sy id wa"]
        for r, use, us, sy in ((1, 0.3, 18, 6), (int(1 + 4 * self.load), self.load, user, busy - user)):
            avm, fre = int(38000 + 14000 * use), int(21000 - 14000 * use)
            lines.append(f"{r:>2}  0 {avm:>5} {fre:>5}   0   0   0   0    0   0 {int(60 + 900 * use):>3} "
                         f"{int(400 + 9000 * use):>4} {int(90 + 1200 * use):>3} {us:>2} {sy:>2} {100 - us - sy - 1:>2}  1")
        return "\n".join(lines) + "\n"

    def snaadmin(self) -> str:
        total = int(60 + 300 * self.load)
        status = "CONGESTED" if self.throttle >= 70 else "UNCONGESTED"
        return (
            "aix01:/ > snaadmin query_buffer_availability\n"
            "reset_max_values = NO\nbuf_avail = 25058340\n"
            f"buf_total_count = {total}\nbuf_total_bytes = {total * 460}\n"
            "buf_rsrv_count = 0\nbuf_rsrv_bytes = 0\nbuf_res_use_count = 0\nbuf_res_use_bytes = 0\n"
            f"peak_usage = {min(100, int(40 + 60 * self.load))}\npeak_decay = 0\n"
            f"throttle_status = {int(self.throttle)}\nbuf_use_status = {status}\n"
            f"max_buf_total_count = {int(total * 1.1)}\nmax_buf_total_bytes = {int(total * 1.1) * 460}\n"
            "max_buf_rsrv_count = 0\nmax_buf_rsrv_bytes = 0\nmax_buf_res_use_count = 0\nmax_buf_res_use_bytes = 0\n"
            f"max_peak_usage = {min(100, int(50 + 60 * self.load))}\nmax_throttle_status = {int(self.throttle)}\n"
            f"max_buf_use_status = {status}\n"
            "aix01:/ > snaadmin query_kernel_memory_limit\n"
            f"limit = 0\nactual = {int(200_000 + 90_000 * self.load)}\nmax_used = {int(210_000 + 90_000 * self.load)}\n"
            "reset_max_used = NO\n"
        )


# -- TCP/IP for VSE ------------------------------------------------------------------------------------------


PRTY_HOUR = 6  # the operator looks at the partition priorities each morning
PRTY_DAY = 38  # the day a batch partition is put above TCP/IP


class VseHost:
    """VSE1: QUERY STATS and QUERY ISTATS on the console of partition F7, PRTY on the system console."""

    name = "VSE1"

    def __init__(self, start: dt.datetime, rng: random.Random):
        self.c = Counters()
        self.rng = rng
        self.restart_at = start + dt.timedelta(days=30, hours=6)

    def step(self, t: dt.datetime, seconds: float, start: dt.date) -> None:
        if t - dt.timedelta(seconds=seconds) < self.restart_at <= t:
            self.c.restart()
            seconds = (t - self.restart_at).total_seconds()
        load = load_factor(t) * self.rng.uniform(0.9, 1.1)
        day = (t.date() - start).days
        datagrams = 60 * load
        self.c.advance({
            "rx_blocks": datagrams * 1.01, "rx_datagrams": datagrams, "rx_misrouted": datagrams * 0.0002,
            "rx_non_ip": 0.05 if day == 15 else 0.0, "tx_blocks": datagrams * 0.9, "tx_datagrams": datagrams * 0.9,
            "tcp_inbound_rejections": 0.01 if day == 25 else 0.0,
            "ftp_files_sent": 0.002 * load, "ftp_files_received": 0.0005 * load,
            "ftp_bytes_sent": 900 * load, "ftp_bytes_received": 80 * load, "telnet_bytes_sent": 7000 * load,
            "telnet_bytes_received": 400 * load, "tcp_bytes_sent": 8000 * load, "tcp_bytes_received": 500 * load,
            "dispatches": 40 * load, "complete": 0.02 * load,
        }, seconds)
        self.ftp_active = int(3 * load)
        self.telnet_active = int(2 + 30 * load)
        self.telnet_max = max(getattr(self, "telnet_max", 0), self.telnet_active)

    def console(self) -> str:
        c = self.c
        d = c["dispatches"]
        complete = c["complete"]
        rows = [
            "QUERY STATS", "FTP Daemons: 4", f"Current Active FTP Daemons: {self.ftp_active}",
            "Maximum Active FTP Daemons: 3", "Telnet Daemons: 40",
            f"Current Active Telnet Daemons: {self.telnet_active}", f"Maximum Active Telnet Daemons: {self.telnet_max}",
            f"Maximum Active Telnet Buffers: {max(2, self.telnet_max // 3)}",
            f"Inbound TCP Rejections: {c['tcp_inbound_rejections']}",
            f"FTP Files Sent: {c['ftp_files_sent']:,}   FTP Files Received: {c['ftp_files_received']:,}",
            f"FTP Bytes Sent: {c['ftp_bytes_sent']:,}   FTP Bytes Received: {c['ftp_bytes_received']:,}",
            f"Telnet Bytes Sent: {c['telnet_bytes_sent']:,}   Telnet Bytes Received: {c['telnet_bytes_received']:,}",
            f"TCP Bytes Sent: {c['tcp_bytes_sent']:,}   TCP Bytes Received: {c['tcp_bytes_received']:,}",
            f"Received Blocks      Total: {c['rx_blocks']:,}",
            f"                     Inbound Datagrams: {c['rx_datagrams']:,}",
            f"                     Non-IP: {c['rx_non_ip']:,}",
            f"                     Mis-Routed: {c['rx_misrouted']:,}",
            f"Transmitted Blocks   Total: {c['tx_blocks']:,}",
            f"                     Outbound Datagrams: {c['tx_datagrams']:,}",
            "QUERY ISTATS",
            f"Number of Dispatches: Total {d}",
            f"                      Active {int(d * 0.55)}", "                      Fixed 0", "                      Quick 0",
            f"                      Persistent {int(d * 0.004)}",
            f"                      Passed {d - int(d * 0.55) - int(d * 0.004) - complete}",
            f"                      Complete {complete}",
        ]
        # the echo lines have no message ID; the display lines carry the stack's message number
        return "".join(f"F7 0098 {r}\n" if r.startswith("QUERY") else f"F7 0098 IPN253I {r}\n" for r in rows)

    @staticmethod
    def prty(day: int) -> str:
        """The attention routine's PRTY display, lowest first: seed 004's sequence (L2234: Batch, CICS,
        TCP/IP, VTAM, POWER; CICS in F2, TCP/IP in F7, VTAM in F3, POWER in F1), except on PRTY_DAY, when
        the batch partition FB runs above TCP/IP (the order of the real display in tests/golden)."""
        batch_high = day == PRTY_DAY
        order = ("Z,Y,S,R,P,C,BG,FA," + ("" if batch_high else "FB,") + "F9,F8,F6,F5,F4,F2,F7,"
                 + ("FB," if batch_high else "") + "F3,F1")
        return f"PRTY\nAR 0015 PRTY {order}\nAR 0015\nAR 0015 1I40I  READY\n"


# -- z/OS ---------------------------------------------------------------------------------------------------------


class ZosHost:
    """SYSA: D NET,BFRUSE in the hardcopy log and NETSTAT STATS of stack TCPCS."""

    name = "SYSA"

    def __init__(self, start: dt.datetime, rng: random.Random):
        self.c = Counters()
        self.rng = rng

    def step(self, t: dt.datetime, seconds: float, start: dt.date) -> None:
        load = load_factor(t) * self.rng.uniform(0.9, 1.1)
        surge = (t.date() - start).days == 50 and 11 <= t.hour <= 15  # a batch of file transfers
        self.load = load
        self.io_used = int(200 * load + (110 if surge else 0))
        self.c.advance({"in": 800 * load, "out": 700 * load, "retrans": 700 * load * 0.004,
                        "active": 2 * load, "passive": 6 * load, "rsts": 0.5 * load, "udp_in": 30 * load,
                        "udp_out": 29 * load, "ip_in": 850 * load,
                        "times_exp": 0.0002 if surge else 0.0}, seconds)

    def bfruse(self, t: dt.datetime, mlid: int) -> list[str]:
        total = 355 if self.io_used > 280 else 300  # the pool expands by 55 buffers when short
        avail = total - self.io_used
        julian = f"{t.year % 100:02d}{t.timetuple().tm_yday:03d}"
        prefix = f" SYSA     {julian} {t:%H:%M:%S}"
        body = [
            "IST920I IO00 BUFF SIZE 334 EXP INCREMENT 55",
            f"IST921I TIMES EXP {self.c['times_exp']} EXP/CONT THRESH 36 / 72",
            f"IST922I CURR TOTAL {total} CURR AVAILABLE {avail}",
            f"IST923I MAX TOTAL {total} MAX USED {min(total, int(self.io_used * 1.1))}",
            "IST989I EXP LIMIT 2147483647 BUFFS REQUESTED 0",
            "IST924I " + "-" * 61,
            "IST920I BS00 BUFF SIZE 216 EXP INCREMENT 17",
            "IST921I TIMES EXP 0 EXP/CONT THRESH 17 / *NA*",
            f"IST922I CURR TOTAL 34 CURR AVAILABLE {34 - int(6 * self.load)}",
            f"IST923I MAX TOTAL 34 MAX USED {int(8 * self.load) + 1}",
            "IST924I " + "-" * 61,
            f"IST449I CSALIMIT = NO LIMIT, CURRENT = {2100 + self.io_used}K, MAXIMUM = {2150 + self.io_used}K",
            f"IST790I MAXIMUM CSA USED = {2150 + self.io_used}K",
            "IST595I IRNLIMIT = 0K, CURRENT = 0K, MAXIMUM = 0K",
            f"IST981I VTAM PRIVATE: CURRENT = {5400 + int(20 * self.load)}K, MAXIMUM USED = {5420 + int(20 * self.load)}K",
        ]
        lines = [f"NC0000000{prefix}.02 TSU00042 00000290  D NET,BFRUSE",
                 f"NR0000000{prefix}.04 STC00031 00000290  IST097I DISPLAY ACCEPTED",
                 f"M 0000000{prefix}.05 STC00031 00000290  IST350I DISPLAY TYPE = BUFFER POOL DATA"]
        lines += [f"D {mlid:>44} 00000290  {b}" for b in body]
        lines.append(f"E {mlid:>44} 00000290  IST314I END")
        return lines

    def netstat_stats(self, t: dt.datetime) -> str:
        c = self.c
        return (
            f"MVS TCP/IP NETSTAT CS V2R1       TCPIP Name: TCPCS           {t:%H:%M:%S}\n"
            "IP Statistics (IPv4)\n"
            f"  Packets Received                     = {c['ip_in']}\n"
            "TCP Statistics\n"
            f"  Current Established Connections      = {int(20 + 300 * self.load)}\n"
            f"  Active Connections Opened            = {c['active']}\n"
            f"  Passive Connections Opened           = {c['passive']}\n"
            f"  Segments Received                    = {c['in']}\n"
            f"  Segments Sent                        = {c['out']}\n"
            f"  Segments Retransmitted               = {c['retrans']}\n"
            f"  Reset Segments Sent                  = {c['rsts']}\n"
            "UDP Statistics\n"
            f"  Datagrams Received                   = {c['udp_in']}\n"
            f"  Datagrams Sent                       = {c['udp_out']}\n"
        )


def vm_poolsize(load: float, day: int) -> str:
    """VM1's free pools; from day 45 the data buffers once ran down to 8 free (the low-water mark stays)."""
    pools = [("ACB", 1000, 7, 100), ("CCB", 150, 30, 10), ("Dat buf", 160, 100, 32), ("Env", 750, 40, 75),
             ("Lrg env", 50, 2, 10), ("SCB", 256, 30, 17), ("TCB", 256, 40, 17), ("UCB", 100, 3, 6)]
    rows = [" VM TCP/IP Netstat Level 320", " TCPIP Free pool status:",
            " Object       # alloc     # free      Lo-water    Permit size",
            " ======       =======     ======      ========    ==========="]
    for name, alloc, busy, permit in pools:
        free = alloc - int(busy * load)
        low = 8 if name == "Dat buf" and day >= 45 else alloc - busy
        rows.append(f" {name:<12}{alloc:>8}{free:>12}{low:>12}{permit:>12}")
    return "\n".join(rows) + "\n"


# -- writing -------------------------------------------------------------------------------------------------------


class _Logs:
    """One log file per host, command and month under ``out``."""

    def __init__(self, out: Path):
        self.out = out
        self.files: dict[Path, object] = {}
        self.last_day: dict[Path, dt.date] = {}

    def write(self, host: str, command: str, t: dt.datetime, text: str, header: bool = True) -> None:
        name = host.lstrip("\\")  # a NonStop node's backslash is no part of a file name
        path = self.out / name / command / f"{name}_{command}_{t:%Y-%m}.log"
        f = self.files.get(path)
        if f is None:
            path.parent.mkdir(parents=True, exist_ok=True)
            f = self.files[path] = path.open("w", encoding="utf-8", newline="\n")
        self.last_day[path] = t.date()
        if header:
            f.write(f"# captured: {t:%Y-%m-%dT%H:%M:%S} host: {host}\n")
        f.write(text if text.endswith("\n") else text + "\n")

    def close(self) -> list[Path]:
        for f in self.files.values():
            f.close()
        return [landed(path, self.last_day[path]) for path in sorted(self.files)]


def generate(out: Path, start: dt.date, days: int, every_min: int, seed: int) -> list[Path]:
    """Captures of the hosts every ``every_min`` minutes (POOLSIZE every six hours, FastSort nightly)."""
    rng = random.Random(seed)
    t0 = dt.datetime.combine(start, dt.time())
    hosts = [LinuxHost(t0, rng), AixHost(t0, rng), VseHost(t0, rng), ZosHost(t0, rng)]
    linux, aix, vse, zos = hosts
    logs = _Logs(Path(out))
    step = dt.timedelta(minutes=every_min)
    t = t0
    mlid = 100
    while t < t0 + dt.timedelta(days=days):
        for host in hosts:
            host.step(t, step.total_seconds(), start)
        logs.write(linux.name, "netstat-s", t, linux.netstat_s())
        logs.write(linux.name, "netstat-i", t, linux.netstat_i())
        logs.write(aix.name, "netstat-m", t, aix.netstat_m())
        logs.write(aix.name, "netstat-v", t, aix.netstat_v())
        logs.write(aix.name, "snaadmin", t, aix.snaadmin())
        logs.write(aix.name, "vmstat", t, aix.vmstat())
        if t.hour % 6 == 0 and t.minute == 0:
            logs.write(aix.name, "lsps-a", t, aix.lsps((t.date() - start).days))
        if t.hour == ERRPT_HOUR and t.minute == 0:
            logs.write(aix.name, "errpt-a", t, aix.errpt(t, start))
        logs.write(vse.name, "console", t, vse.console())
        if t.hour == _vse_diagnose.HOUR and t.minute == 0:
            logs.write(vse.name, "diagnose-perform", t, _vse_diagnose.display((t.date() - start).days))
        if t.hour == PRTY_HOUR and t.minute == 0:
            logs.write(vse.name, "prty", t, vse.prty((t.date() - start).days))
        mlid = mlid % 999 + 1
        logs.write(zos.name, "syslog", t, "\n".join(zos.bfruse(t, mlid)), header=False)
        logs.write(zos.name, "netstat-stats", t, zos.netstat_stats(t))
        if t.hour % 6 == 0 and t.minute == 0:
            logs.write("VM1", "netstat-poolsize", t, vm_poolsize(load_factor(t), (t.date() - start).days))
        if t.hour == 0 and t.minute == 0:  # the night's sorts, whatever the interval of the other captures
            for system in _fastsort.SYSTEMS:
                for minute, listing in _fastsort.night(system, (t.date() - start).days):
                    logs.write(system.name, "fastsort", t + dt.timedelta(hours=_fastsort.HOUR, minutes=minute), listing)
        t += step
    return logs.close()


def netstat_s_log(path: Path, captures: int, seed: int, start: dt.date = DEMO_START, every_min: int = 1) -> Path:
    """One host's ``netstat -s`` captures, one a minute, in one log (the ingest benchmark's input)."""
    rng = random.Random(seed)
    t0 = dt.datetime.combine(start, dt.time())
    host = LinuxHost(t0, rng)
    step = dt.timedelta(minutes=every_min)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as f:
        t = t0
        for _ in range(captures):
            host.step(t, step.total_seconds(), start)
            f.write(f"# captured: {t:%Y-%m-%dT%H:%M:%S} host: {host.name}\n{host.netstat_s()}")
            t += step
    return path


def demo(home: Home, seed: int) -> list[Path]:
    """The command captures of the demo period, written into ``home/landing/commands``."""
    return generate(home.landing / "commands", DEMO_START, DEMO_DAYS, DEMO_EVERY_MIN, seed)


# -- command line ----------------------------------------------------------------------------------------------------


def add_parser(subparsers) -> None:
    p = subcommand(subparsers, "commands", cmd_generate_commands, HELP, DESCRIPTION)
    add_generator_options(p, "commands", start=DEMO_START, days=7, days_type=positive_int)
    p.add_argument("--every", type=positive_int, default=DEMO_EVERY_MIN, help="minutes between captures (default %(default)s)")
    p.add_argument("--netstat-s-log", type=positive_int, metavar="N",
                   help="instead: one log of N netstat -s captures, one a minute (benchmark input)")


def cmd_generate_commands(args) -> int:
    out = output_dir(args, "commands")
    make: Callable[[], list[Path]]
    if args.netstat_s_log:
        make = lambda: [netstat_s_log(out / "web01_netstat-s.log", args.netstat_s_log, args.seed, args.start)]  # noqa: E731
    else:
        make = lambda: generate(out, args.start, args.days, args.every, args.seed)  # noqa: E731
    try:
        files = make()
    except OSError as e:
        print(f"perfdb generate commands: {e}", file=sys.stderr)
        return 1
    size = sum(f.stat().st_size for f in files)
    if args.json:
        print(json.dumps({"out": str(out), "files": [str(f) for f in files], "bytes": size}, indent=2))
    else:
        print(f"{len(files)} files, {size / 1e6:.1f} MB in {out}")
    return 0
