"""The MEASURE parser's Julian timestamps against the conversion of Glasstone 1986 (seed 001 L2289-L2290): the
Process Disc File Activity query turns a Julian FROM-TIMESTAMP (µs) into the 48-bit timestamp TIMESTAMP-TIME
reads by ((JTS - 211024440000000000) / 10000) * 65536, so its constant is the 48-bit timestamp's zero and
(JTS - constant) / 10000 counts centiseconds from it."""

from __future__ import annotations

from datetime import datetime

from ingest.formats.measure import julian

TANDEM_EPOCH_JTS = 211_024_440_000_000_000  # the document's constant


def tandem_timestamp_48(jts: int) -> int:
    """The document's formula, in integers (the query's own arithmetic)."""
    return (jts - TANDEM_EPOCH_JTS) // 10_000 * 65_536


def test_the_documents_constant_is_the_48_bit_timestamps_zero_31_december_1974():
    assert julian.to_datetime(TANDEM_EPOCH_JTS) == datetime(1974, 12, 31)
    assert julian.from_datetime(datetime(1974, 12, 31)) == TANDEM_EPOCH_JTS
    assert tandem_timestamp_48(TANDEM_EPOCH_JTS) == 0


def test_the_formula_counts_the_centiseconds_the_parser_reads_since_then():
    # the Julian example of the parser's docstring (SQL/MX reference manual): 1996-04-21 08:15:00
    jts = 211_696_834_500_000_000
    since = julian.to_datetime(jts) - datetime(1974, 12, 31)
    centiseconds = (since.days * 86_400 + since.seconds) * 100 + since.microseconds // 10_000
    assert tandem_timestamp_48(jts) == centiseconds * 65_536 == 4_406_604_595_200_000
    # a hundredth of a second later is one step of the 48-bit timestamp (65,536 in its 64-bit word); less is none
    assert tandem_timestamp_48(jts + 10_000) - tandem_timestamp_48(jts) == 65_536
    assert tandem_timestamp_48(jts + 9_999) == tandem_timestamp_48(jts)
