"""The demo's TCP/IP for VSE ``SET DIAGNOSE=PERFORM`` displays: VSE1 writes one when its afternoon FTP transfer
ends, in the form of seed 004's sample (L3441-L3466; ``ingest.formats.vse.diagnose_perform``).

Most days the transfer is clean: a little SWS mode, no retransmission or depth mode, fast ACKs. Four days break
one rule each (seed 004): on ``RETRANSMIT_DAY`` the stack enters retransmission mode (L3476), on
``SAMPLE_DAY`` the transfer is the document's own sample, 16.16 s of its 22.52 s in SWS mode (L3457), on
``DEPTH_DAY`` it enters maximum depth mode (L3477), on ``SLOW_ACK_DAY`` a block waits 620 ms for its ACK,
beyond the RFC's 500 ms (L1043). The values are fixed, not drawn: the demo's other captures keep their
random sequence.
"""

from __future__ import annotations

RETRANSMIT_DAY, SAMPLE_DAY, DEPTH_DAY, SLOW_ACK_DAY = 20, 35, 42, 48
HOUR = 14

# label as the display prints it, with its dot leaders, and its unit
FIELDS = (
    ("Connection duration.....", "(usec)"), ("Maximum turn around time.....", '(")'),
    ("Transmission block count.....", ""), ("Maximum depth count.....", ""),
    ("Maximum foreign window.....", "(byte)"), ("Byte count of data sent.....", ""),
    ("Byte count of data resent.....", ""), ("Byte count of data received...", ""),
    ("SWS mode total time.....", "(usec)"), ("Number of times in mode.....", ""),
    ("Retransmission mode total time..", "(usec)"), ("Number of times in mode.....", ""),
    ("Number of retransmissions.....", ""), ("Maximum Depth mode total time...", "(usec)"),
    ("Number of times in mode.....", ""), ("Maximum window achieved.....", "(byte)"),
    ("Segments in window.....", ""),
)
# seed 004's sample display, in the order of FIELDS
SAMPLE = (22519708, 27185, 731, 1, 32768, 10747742, 0, 2, 16160538, 123, 0, 0, 0, 0, 0, 8112, 2)


def values(day: int) -> tuple[int, ...]:
    """The display's numbers on a day of the demo (0 = its first day)."""
    if day == SAMPLE_DAY:
        return SAMPLE
    clean = [20000000 + 10000 * day, 24000, 700, 1, 32768, 10485760, 0, 2, 1000000, 8, 0, 0, 0, 0, 0, 32768, 4]
    if day == RETRANSMIT_DAY:
        clean[6], clean[10], clean[11], clean[12] = 14600, 1800000, 2, 14
    elif day == DEPTH_DAY:
        clean[3], clean[13], clean[14] = 31, 450000, 3
    elif day == SLOW_ACK_DAY:
        clean[1] = 620000
    return tuple(clean)


def display(day: int) -> str:
    """The console lines of the day's display (the capture's header is the log's)."""
    body = [f"{label}\t{value}" + (f" {unit}" if unit else "") for (label, unit), value in zip(FIELDS, values(day))]
    return "\n".join(["FTP Daemon Retrieving File, Count: 131070  Userid: SYSA", "------( Performance Display )-----",
                      "IP: 10.0.0.1 Port: 1030 Local Port: 20", *body]) + "\n"
