"""A line no parser understands never costs its capture: in every command format, a stray line put
into a real capture is kept in raw.command_unparsed_lines and every value of the capture still loads."""

from __future__ import annotations

import pytest

from command_helpers import GOLDEN, parse_file

STRAY = "%%% 12ab 34cd stray text %%%"
# (capture, line after which the stray line goes: inside the body of the first capture)
CASES = [
    ("linux/devbox__netstat-s__20261121T063246.out", 20),
    ("linux/devbox__netstat-i__20261121T063246.out", 2),
    ("linux/insights_rhel__netstat-i__20170101T000000.out", 5),
    ("bsd/gopsutil_macos__netstat-ibdn__20250101T000000.out", 3),
    ("aix/gopsutil_layout__netstat-s__20250101T000000.out", 30),
    ("aix/snapper__netstat-in__20151225T000000.out", 4),
    ("aix/aixdoc__netstat-m__20260105T100000.out", 7),
    ("aix/snapper_ent22_sea__netstat-v__20151225T000000.out", 12),  # the statistics block
    ("aix/snapper_fcs3__netstat-v__20151225T000000.out", 35),
    ("zos/zos1_netstat_stats.out", 15),
    ("zos/mvs1__netstat-devlinks__19990224T100000.out", 3),
    ("zos/mvs1__netstat-gate__19990224T100000.out", 6),
    ("zos/mvs1_poolsize_relined.out", 8),
    ("vse/vse1_console.out", 8),
    ("vse/vse1__set-record__20010715T100000.out", 0),
    ("vtam/zos1_bfruse_complete_pools.out", 8),
    ("sna/csaix1_session.out", 6),
    ("linux/lkml_lnas4__netstat-s__20040924T111107.out", 20),
    ("linux/tcpmon__netstat-s__20230901T000000.out", 60),
    ("linux/mrvw__netstat-i__20190101T000000.out", 3),
    ("bsd/genie_junos__show-system-statistics__20200101T000000.out", 100),
    ("bsd/scodoc_unixware7__netstat-s-p-ip__19991105T000000.out", 5),
    ("bsd/xymon_sco_sv__netstat-in__20110101T000000.out", 1),
]


def _by_key(rows):
    return {(r["record_ordinal"], r["section"], r["entity"], r["counter_name"], r["counter"]): (r["value"], r["text_value"])
            for r in rows}


@pytest.mark.parametrize("name, after", CASES, ids=[f"{n.split('/')[1].split('__')[0]}:{a}" for n, a in CASES])
def test_a_stray_line_is_kept_and_every_value_loads(tmp_path, name, after):
    source = GOLDEN / name
    lines = source.read_text().split("\n")
    damaged = tmp_path / source.name  # the same name: time and host may come from it
    damaged.write_text("\n".join(lines[:after + 1] + [STRAY] + lines[after + 1:]))
    _, ctx, rows, unparsed = parse_file(damaged)
    _, clean_ctx, clean_rows, clean_unparsed = parse_file(source)
    assert not ctx.rejects and len(ctx.rejects) == len(clean_ctx.rejects)
    assert [u["line_text"] for u in unparsed if u["line_text"] == STRAY] == [STRAY]
    assert len(unparsed) == len(clean_unparsed) + 1
    assert next(u["line_number"] for u in unparsed if u["line_text"] == STRAY) == after + 2
    assert _by_key(rows) == _by_key(clean_rows) and len(rows) == len(clean_rows)
    assert ctx.records_read == clean_ctx.records_read + 1


@pytest.mark.parametrize("name, after", [
    ("linux/devbox__netstat-s__20261121T063246.out", 11),  # between the ICMP input histogram's title and its line
    ("aix/gopsutil_layout__netstat-s__20250101T000000.out", 25),  # among the lines detailing 'packets sent'
    ("aix/snapper_ent22_sea__netstat-v__20151225T000000.out", 70),  # right under the 'Other Statistics:' heading
    ("aix/snapper_ent0_rxq__netstat-v__20151225T000000.out", 68),  # among one receive queue's lines
])
def test_a_stray_line_at_column_0_keeps_the_headings_around_it(tmp_path, name, after):
    test_a_stray_line_is_kept_and_every_value_loads(tmp_path, name, after)
