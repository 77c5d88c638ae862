"""Captures as they arrive from real machines, damaged on the way: each fault gives its documented outcome
(docs/commands.md, "A line the parser does not understand") and never a traceback:

* CRLF line ends: the same values and unparsed lines as the LF original;
* a truncated last line, NUL bytes (inside a line, or a crashed writer's zero padding), a non-UTF-8 byte,
  a number beyond any 64-bit counter: that line kept in raw.command_unparsed_lines with its number and
  why, every other value as in the clean capture;
* a Tcp section cut short: the capture rejected, the reject naming the file and the line;
* output cut short anywhere, in every family: only values it printed load (none changed), or a reject
  at a line within it, or, with too little left to tell the command, the file is unrecognised;
* an indented paste under a banner, a translated netstat -s, a second capture appended without its
  header: read, loaded under their own names, kept unparsed (never counted twice) respectively;
* an empty file, a file that is only a banner: the file rejected with a message saying what was expected.
"""

from __future__ import annotations

import re

import pytest

from command_helpers import GOLDEN, parse_file
from ingest.formats import registry
from ingest.formats.base import SNIFF_BYTES, FormatError, ParseContext
from ingest.intake.parse import parse_file as parse_whole
from ingest.intake.result import describe_reject
from ingest.intake.staged import StagedBatches

LINUX_S = GOLDEN / "linux/devbox__netstat-s__20261121T063246.out"
NAME = "web01__netstat-s__20260105T100000.out"  # time and host from the name


def _values(rows):
    return {(r["record_ordinal"], r["line_number"], r["section"], r["entity"], r["counter_name"]):
            (r["value"], r["text_value"]) for r in rows}


def _write(tmp_path, data: bytes, name: str = NAME):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _load(path, fmt: str | None = None):
    """The file through the loader's own parse step (as ``perfdb ingest`` runs it): its result or its error."""
    data = path.read_bytes()
    parser = registry.by_format(fmt) if fmt else registry.sniff(data[:SNIFF_BYTES], path.name)
    ctx = ParseContext(path=path)
    staging = path.parent / "staging"
    staging.mkdir()
    try:
        return parse_whole(path, len(data), parser, ctx, StagedBatches(staging, 1 << 24)), ctx
    except FormatError as e:
        return e, ctx


def _number_at(line: str, value: float):
    """The pattern of the value as a whole number in the line, if it is there."""
    pattern = re.compile(rf"(?<![\w.]){int(value)}(?![\w.])")
    return pattern if pattern.search(line) else None


def _without(clean_rows, line: int):
    return {k: v for k, v in _values(clean_rows).items() if k[1] != line}


@pytest.mark.parametrize("name", [
    "linux/devbox__netstat-s__20261121T063246.out",
    "linux/insights_rhel__netstat-i__20170101T000000.out",
    "bsd/genie_junos__show-system-statistics__20200101T000000.out",
    "aix/snapper_ent22_sea__netstat-v__20151225T000000.out",
    "aix/aixdoc__netstat-m__20260105T100000.out",
    "zos/zos1_netstat_stats.out",
    "vse/vse1_console.out",
    "vtam/zos1_bfruse_complete_pools.out",
    "sna/csaix1_session.out",
])
def test_crlf_line_ends_give_the_values_and_unparsed_lines_of_the_lf_capture(tmp_path, name):
    source = GOLDEN / name
    _, clean_ctx, clean_rows, clean_unparsed = parse_file(source)
    damaged = _write(tmp_path, source.read_bytes().replace(b"\n", b"\r\n"), source.name)
    _, ctx, rows, unparsed = parse_file(damaged)
    assert _values(rows) == _values(clean_rows) and len(rows) == len(clean_rows)
    assert [(u["line_number"], u["line_text"]) for u in unparsed] == [
        (u["line_number"], u["line_text"]) for u in clean_unparsed]
    assert len(ctx.rejects) == len(clean_ctx.rejects)


def test_a_last_line_cut_short_is_kept_and_every_other_value_loads(tmp_path):
    # the RHEL 3 capture ends in '   TCPMemoryPressures: 0' (line 64), cut here inside its label
    source = GOLDEN / "linux/lkml_lnas4__netstat-s__20040924T111107.out"
    text = source.read_bytes()
    path = _write(tmp_path, text[: text.rindex(b"Pressures")], source.name)
    _, ctx, rows, unparsed = parse_file(path)
    _, _, clean_rows, _ = parse_file(source)
    assert not ctx.rejects
    assert [(u["line_number"], u["line_text"]) for u in unparsed][-1] == (64, "   TCPMemory")
    assert _values(rows) == _without(clean_rows, 64)


def test_a_tcp_section_cut_short_rejects_the_capture_naming_file_and_line(tmp_path):
    lines = LINUX_S.read_text().split("\n")
    cut = lines.index("Tcp:") + 4  # the title and three counters: 'segments received' and the rest missing
    path = _write(tmp_path, "\n".join(lines[:cut]).encode())
    result, ctx = _load(path)
    assert result.records_loaded == 0 and len(ctx.rejects) == 1
    message = describe_reject(path, ctx.rejects[0])
    assert message.startswith(f"{path}: line {cut}: ") and "truncated capture" in message and "InSegs" in message


def test_a_nul_byte_inside_a_line_keeps_that_line_and_the_capture_loads(tmp_path):
    text = LINUX_S.read_bytes()
    line = text[: text.index(b" segments received")].count(b"\n") + 1
    path = _write(tmp_path, text.replace(b" segments received", b" segments re\x00ceived", 1))
    _, ctx, rows, unparsed = parse_file(path)
    _, _, clean_rows, _ = parse_file(LINUX_S)
    assert not ctx.rejects  # the Tcp section is not 'cut short': its unreadable line explains the gap
    assert [(u["line_number"], "NUL byte" in u["reason"]) for u in unparsed] == [(line, True)]
    assert unparsed[0]["line_text"].endswith("segments re\x00ceived")
    assert _values(rows) == _without(clean_rows, line)


def test_zero_padding_after_the_capture_is_one_kept_line(tmp_path):
    path = _write(tmp_path, LINUX_S.read_bytes() + b"\x00" * 4096)
    _, ctx, rows, unparsed = parse_file(path)
    _, _, clean_rows, _ = parse_file(LINUX_S)
    assert not ctx.rejects and _values(rows) == _values(clean_rows)
    assert [(u["line_text"], "NUL byte" in u["reason"]) for u in unparsed] == [("\x00" * 4096, True)]


def test_a_non_utf8_byte_in_a_banner_is_kept_and_the_values_load(tmp_path):
    path = _write(tmp_path, b"Netzwerkstatistik f\xfcr web01\n" + LINUX_S.read_bytes())
    _, ctx, rows, unparsed = parse_file(path)
    _, _, clean_rows, _ = parse_file(LINUX_S)
    assert not ctx.rejects
    assert [(u["line_number"], u["line_text"]) for u in unparsed] == [(1, "Netzwerkstatistik f\ufffdr web01")]
    assert {(k[0], k[1] - 1, *k[2:]): v for k, v in _values(rows).items()} == _values(clean_rows)


@pytest.mark.parametrize("number, kept", [
    ("9223372036854775808", True),  # 2^63: beyond int64, yet a 64-bit unsigned counter can hold it
    ("18446744073709551615", True),  # 2^64 - 1: the largest such counter
    ("99999999999999999999999", False),  # beyond any 64-bit counter: a damaged line
    ("9" * 400, False),  # beyond a double
])
def test_a_huge_number_loads_only_where_a_64_bit_counter_can_hold_it(tmp_path, number, kept):
    text = LINUX_S.read_text()
    old = next(ln for ln in text.split("\n") if ln.endswith(" total packets received"))
    line = text.split("\n").index(old) + 1
    path = _write(tmp_path, text.replace(old, f"    {number} total packets received", 1).encode())
    _, ctx, rows, unparsed = parse_file(path)
    _, _, clean_rows, _ = parse_file(LINUX_S)
    assert not ctx.rejects
    got = {r["line_number"]: r["value"] for r in rows if r["counter_name"] == "ip_in_receives"}
    if kept:
        assert got == {line: float(number)} and not unparsed
    else:
        assert got == {} and [u["line_number"] for u in unparsed] == [line]
        assert "64-bit counter" in unparsed[0]["reason"] or "double" in unparsed[0]["reason"]
    assert {k: v for k, v in _values(rows).items() if k[1] != line} == _without(clean_rows, line)


def test_an_empty_file_is_rejected_saying_what_was_expected(tmp_path):
    error, _ = _load(_write(tmp_path, b""))
    assert isinstance(error, FormatError) and str(error) == "empty file: expected at least one record"


def test_a_capture_that_is_only_a_banner_is_rejected(tmp_path):
    banner = b"lnas4 Fri Sep 24 11:11:07 CDT 2004\n"
    error, _ = _load(_write(tmp_path, banner))
    assert isinstance(error, FormatError) and str(error).startswith("unrecognised format: the content matches none")
    # named as netstat -s output (perfdb ingest --format netstat.linux_s): the capture is the reject
    forced = tmp_path / "forced"
    forced.mkdir()
    result, ctx = _load(_write(forced, banner), "netstat.linux_s")
    assert result.records_loaded == 0 and len(ctx.rejects) == 1
    assert describe_reject(ctx.path, ctx.rejects[0]).endswith(
        "line 1: capture 0 (line 1): line 1: no counters found: expected netstat -s output")


@pytest.mark.parametrize("name", ["linux/bgera__netstat-s__20190601T000000.out",
                                  "aix/bgera__netstat-s__20190601T000000.out"])
def test_an_indented_paste_under_a_banner_at_column_0_reads_as_without_it(tmp_path, name):
    # the paste keeps its indent (the banner leaves the lines no common one); titles are found at it
    source = GOLDEN / name
    path = _write(tmp_path, b"netstat -s output of 2019-06-01, as pasted:\n" + source.read_bytes(), source.name)
    _, ctx, rows, unparsed = parse_file(path)
    _, _, clean_rows, clean_unparsed = parse_file(source)
    assert not ctx.rejects
    assert [(u["line_number"], u["line_text"]) for u in unparsed] == [
        (1, "netstat -s output of 2019-06-01, as pasted:"),
        *((u["line_number"] + 1, u["line_text"]) for u in clean_unparsed)]
    assert {(k[0], k[1] - 1, *k[2:]): v for k, v in _values(rows).items()} == _values(clean_rows)


def test_a_translated_netstat_s_loads_under_its_own_names_not_as_cut_short(tmp_path):
    # net-tools run without LANG=C: no Tcp label is the English one, so none can be missing
    text = ("Tcp:\n    1648 aktive Verbindungsöffnungen\n    1525 passive Verbindungsöffnungen\n"
            "    2886370 Segmente empfangen\n    2890303 Segmente ausgesendet\n    428 Segmente erneut übertragen\n")
    _, ctx, rows, unparsed = parse_file(_write(tmp_path, text.encode()))
    assert not ctx.rejects and not unparsed
    assert {r["counter_name"]: r["value"] for r in rows} == {
        "tcp_aktive_verbindungsoffnungen": 1648, "tcp_passive_verbindungsoffnungen": 1525,
        "tcp_segmente_empfangen": 2886370, "tcp_segmente_ausgesendet": 2890303, "tcp_segmente_erneut_ubertragen": 428}


@pytest.mark.parametrize("name", ["linux/lkml_lnas4__netstat-s__20040924T111107.out",
                                  "aix/gopsutil_layout__netstat-s__20250101T000000.out"])
def test_a_second_capture_appended_without_its_header_is_kept_not_counted_twice(tmp_path, name):
    source = GOLDEN / name
    text = source.read_bytes()
    path = _write(tmp_path, text + text, source.name)
    _, ctx, rows, unparsed = parse_file(path)
    _, _, clean_rows, clean_unparsed = parse_file(source)
    assert not ctx.rejects and _values(rows) == _values(clean_rows)  # the first capture's values, once
    lines = text.count(b"\n")
    again = [u for u in unparsed if u["line_number"] > lines]
    # every line of the copy that gave a value is kept, as is every line the first copy kept
    assert {u["line_number"] - lines for u in again} == (
        {r["line_number"] for r in clean_rows} | {u["line_number"] for u in clean_unparsed})
    assert all("already given" in u["reason"] for u in again if u["line_number"] - lines in
               {r["line_number"] for r in clean_rows})


EVERY_FAMILY = [
    "linux/devbox__netstat-i__20261121T063246.out",
    "bsd/gopsutil_macos__netstat-ibdn__20250101T000000.out",
    "bsd/genie_junos__show-system-statistics__20200101T000000.out",
    "aix/snapper_ent22_sea__netstat-v__20151225T000000.out",
    "aix/aixdoc__netstat-m__20260105T100000.out",
    "zos/zos1_netstat_stats.out",
    "zos/mvs1__netstat-devlinks__19990224T100000.out",
    "vse/vse1_console.out",
    "vtam/zos1_bfruse_complete_pools.out",
    "sna/csaix1_session.out",
]


@pytest.mark.parametrize("name", EVERY_FAMILY, ids=[n.split("/")[1].split("__")[0] for n in EVERY_FAMILY])
def test_zero_padding_after_any_capture_is_one_kept_line(tmp_path, name):
    source = GOLDEN / name
    text = source.read_bytes()
    path = _write(tmp_path, text + (b"" if text.endswith(b"\n") else b"\n") + b"\x00" * 512, source.name)
    _, ctx, rows, unparsed = parse_file(path)
    _, clean_ctx, clean_rows, clean_unparsed = parse_file(source)
    assert len(ctx.rejects) == len(clean_ctx.rejects) and _values(rows) == _values(clean_rows)
    assert [u["line_text"] for u in unparsed] == [u["line_text"] for u in clean_unparsed] + ["\x00" * 512]


@pytest.mark.parametrize("name", EVERY_FAMILY, ids=[n.split("/")[1].split("__")[0] for n in EVERY_FAMILY])
def test_a_number_beyond_any_counter_keeps_its_line_in_every_format(tmp_path, name):
    source = GOLDEN / name
    _, clean_ctx, clean_rows, clean_unparsed = parse_file(source)
    lines = source.read_text().split("\n")
    first = next(r for r in clean_rows if r["kind"] != "text" and r["value"] and r["value"] >= 1
                 and float(r["value"]).is_integer() and _number_at(lines[r["line_number"] - 1], r["value"]))
    at = first["line_number"] - 1
    lines[at] = _number_at(lines[at], first["value"]).sub("9" * 25, lines[at], count=1)
    _, ctx, rows, unparsed = parse_file(_write(tmp_path, "\n".join(lines).encode(), source.name))
    assert len(ctx.rejects) == len(clean_ctx.rejects)
    assert [u["line_number"] for u in unparsed if u["line_number"] == first["line_number"]] == [first["line_number"]]
    assert all(r["value"] is None or abs(r["value"]) <= 2.0 ** 64 for r in rows)
    assert {k: v for k, v in _values(rows).items() if k[1] != first["line_number"]} == _without(
        clean_rows, first["line_number"])


@pytest.mark.parametrize("name", EVERY_FAMILY, ids=[n.split("/")[1].split("__")[0] for n in EVERY_FAMILY])
def test_output_cut_short_anywhere_loads_only_what_it_printed_or_is_rejected_at_a_line(tmp_path, name):
    source = GOLDEN / name
    text = source.read_bytes()
    _, _, clean_rows, _ = parse_file(source)
    clean = _values(clean_rows)
    for cut in (len(text) * 2 // 5, len(text) * 3 // 5 + 1, len(text) * 4 // 5 + 2):
        folder = tmp_path / str(cut)
        folder.mkdir()
        path = _write(folder, text[:cut], source.name)
        if registry.sniff(text[:cut], path.name) is None:  # too little left to tell the command
            error, _ = _load(path)
            assert str(error).startswith("unrecognised format")
            continue
        _, ctx, rows, unparsed = parse_file(path)
        last = text[:cut].count(b"\n") + 1  # the line the cut fell in
        got = _values(rows)
        assert {k: v for k, v in got.items() if k[1] != last} == {
            k: v for k, v in clean.items() if k in got and k[1] != last}
        assert all(r.line is not None and 1 <= r.line <= last for r in ctx.rejects)
        assert rows or ctx.rejects or unparsed


def test_a_terminal_log_with_colours_and_a_pager_prompt_reads_as_the_plain_text(tmp_path):
    # 'script' or a colouring wrapper around netstat: escape sequences around the titles, a pager prompt
    text = LINUX_S.read_text()
    coloured = "\n".join(f"\x1b[1;34m{ln}\x1b[0m" if ln.endswith(":") and not ln.startswith(" ") else ln
                         for ln in text.split("\n"))
    path = _write(tmp_path, ("\x1b[7m--More--\x1b[m\n" + coloured).encode())
    _, ctx, rows, unparsed = parse_file(path)
    _, _, clean_rows, _ = parse_file(LINUX_S)
    assert not ctx.rejects
    assert {(k[0], k[1] - 1, *k[2:]): v for k, v in _values(rows).items()} == _values(clean_rows)
    assert [(u["line_number"], u["line_text"]) for u in unparsed] == [(1, "\x1b[7m--More--\x1b[m")]
