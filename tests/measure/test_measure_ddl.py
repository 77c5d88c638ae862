"""DDL reader and Julian timestamps of the MEASURE structured-record decoder."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from ingest.formats.measure import binary_records, ddl, julian, normalize

FIXTURES = Path(__file__).parents[1] / "fixtures" / "measure"


# -- Julian timestamps (worked examples of the format notes) ------------------------------------------

def test_julian_worked_example_of_the_sqlmx_manual():
    assert julian.from_datetime(datetime(1996, 4, 21, 8, 15)) == 211_696_834_500_000_000
    assert julian.to_datetime(211_696_834_500_000_000) == datetime(1996, 4, 21, 8, 15)


def test_julian_constants_of_the_format_notes():
    assert julian.from_datetime(datetime(1970, 1, 1)) == 210_866_760_000_000_000
    assert julian.from_datetime(datetime(1974, 12, 31)) == 211_024_440_000_000_000
    assert julian.from_datetime(datetime(2000, 1, 1)) == 211_813_444_800_000_000
    # the USERDEF report header "From 8 Nov 1990, 14:49:27"
    assert julian.from_datetime(datetime(1990, 11, 8, 14, 49, 27)) == 211_524_835_767_000_000


def test_julian_column_conversion_keeps_microseconds_and_nulls():
    import pyarrow as pa

    col = julian.to_timestamps(pa.array([211_696_834_500_000_001, None], pa.int64()))
    assert col.to_pylist() == [datetime(1996, 4, 21, 8, 15, 0, 1), None]
    assert julian.to_timestamps(np.array([211_813_444_800_000_000])).to_pylist() == [datetime(2000, 1, 1)]


# -- the shipped DDL ------------------------------------------------------------------------------------

def test_zms_header_offsets_as_listed_in_header_ddl():
    header = ddl.header_layout()
    offsets = {f.name: (f.offset, f.size) for f in header.fields}
    assert header.record_length == 80
    assert offsets == {
        "loadid": (0, 8),
        "load_id_prefix_id": (0, 4),  # redefines loadid: ZMS splits 4 + 4
        "load_id_interval_id": (4, 4),
        "system_name": (8, 8),
        "cpu_num": (16, 2),
        "os_version_letter": (18, 1),
        "os_version_number": (19, 1),
        "object_uid": (24, 16),  # reserved (20, 4) takes bytes but gives no column
        "from_timestamp": (40, 8),
        "to_timestamp": (48, 8),
        "delta_time": (56, 8),
        "template_version": (64, 8),
        "format_version_letter": (72, 1),
        "format_version_number": (73, 1),
        "data_version_letter": (74, 1),
        "data_version_number": (75, 1),
        "subsystem_version": (76, 2),
        "error": (78, 2),
    }
    kinds = {f.name: f.kind for f in header.fields}
    assert (kinds["cpu_num"], kinds["error"], kinds["from_timestamp"], kinds["system_name"]) == ("uint", "int", "int", "char")


def test_every_shipped_record_parses_with_its_length():
    layouts = ddl.load_layouts()
    assert {name: layout.record_length for name, layout in layouts.items()} == {
        "zmscpu": 272,
        "zmsproc": 360,
        "zmsdisc": 912,
        "zmsdopen": 240,
        "zmsfile": 488,
        "zmsline": 208,
        "zmsterm": 160,
        "zmsudef": 248,
    }
    header = {(f.name, f.offset) for f in ddl.header_layout().fields}
    for layout in layouts.values():
        assert header <= {(f.name, f.offset) for f in layout.fields}, layout.name  # hdr first, no prefix
        assert max(f.offset + f.size for f in layout.fields) <= layout.record_length


def test_constructed_records_are_labelled_and_published_ones_are_not():
    constructed = sorted(p.name for p in (ddl.SHIPPED_DDL_DIR / "constructed").glob("*.ddl"))
    assert constructed == ["cpu.ddl", "disc.ddl", "discopen.ddl", "process.ddl", "userdef.ddl"]
    for name in constructed:
        text = (ddl.SHIPPED_DDL_DIR / "constructed" / name).read_text()
        assert text.startswith("* CONSTRUCTED BY PERFDB -- NOT A PUBLISHED MEASURE RECORD.")
        assert "perfdb ingest --ddl FILE" in text
    for path in ddl.SHIPPED_DDL_DIR.glob("*.ddl"):
        assert "CONSTRUCTED" not in path.read_text() and "manualshelf.com" in path.read_text()


def test_shipped_layouts_cover_every_contract_column():
    layouts = ddl.load_layouts()
    derivable = {"program_file_name", "userid", "file_name", "os_version", "counter_value", "cache_hits", "cache_misses", "opener_cpu",
                 *normalize.TERMINAL_NAME_ITEMS}
    for table, record in binary_records.LAYOUT_FOR_TABLE.items():
        layout = layouts[record]
        assert layout.table == table
        columns = {f.name for f in layout.fields}
        missing = set(normalize.ENTITY_COLUMNS[table]) - columns - derivable
        assert not missing, (record, missing)


def test_published_zms_line_record_offsets():
    line = ddl.load_layouts()["zmsline"]
    at = {f.name: f.offset for f in line.fields}
    # 80-byte header, 12 counters of 8 bytes, then the id group
    assert (at["read_busy_time"], at["response_time"]) == (80, 168)
    assert (at["device_name"], at["logical_device"], at["pin"], at["trackid"], at["line"]) == (176, 184, 192, 194, 202)


def test_redefines_overlay_the_item_they_name():
    disc = ddl.load_layouts()["zmsdisc"].by_name
    assert disc["plpt_flags"].offset == disc["scsi_id"].offset
    assert (disc["plpt_lun"].offset, disc["plpt_target_id"].offset) == (disc["scsi_id"].offset + 2, disc["scsi_id"].offset + 6)
    assert disc["config_name"].offset == disc["scsi_id"].offset + 8  # the overlay adds no bytes
    udef = ddl.load_layouts()["zmsudef"].by_name
    assert udef["gmom_full_id"].offset == udef["gmom_node"].offset == 184  # GMOM.GMOM-node -> gmom_node
    assert udef["gmom_sysname"].offset == 192


def test_occurs_repeats_a_group_per_cache_block_size():
    disc = ddl.load_layouts()["zmsdisc"].by_name
    hits = [disc[f"c{i}_hits"].offset for i in range(4)]
    assert hits == [328, 416, 504, 592]  # 88 bytes per cache block size
    assert "c4_hits" not in disc and "reserved_1" not in disc


def test_published_legacy_userdef_record():
    """The complete legacy USERDEF body as printed: COUNTS (FILLER + COUNT-VALUE) redefines TIME-VALUE."""
    text = (FIXTURES / "published_ddl" / "userdef.ddl").read_text()
    layout = ddl.Dictionary(ddl.parse_ddl(text, "userdef.ddl")).layout("userdef")
    at = {f.name: f.offset for f in layout.fields}
    assert (at["loadid"], at["load_id_interval_id"], at["cpu_num"], at["pin"]) == (0, 5, 8, 10)
    assert (at["program_file_name_volume"], at["priority"], at["name"], at["type"]) == (20, 44, 46, 62)
    assert (at["time_value"], at["counts_count_value"]) == (68, 72)  # low half of the 8 bytes
    assert "counts_filler" not in at
    assert (at["gmom_full_id"], at["gmom_process_name"], layout.record_length) == (128, 144, 152)
    assert layout.table == "measure_userdef"


def test_published_zms_line_record_parses():
    text = (FIXTURES / "published_ddl" / "line.ddl").read_text()
    published = ddl.shipped_dictionary().overlay(ddl.parse_ddl(text, "line.ddl")).layout("zmsline")
    assert published.fields == ddl.load_layouts()["zmsline"].fields


def test_a_user_ddl_overrides_the_shipped_record_of_the_same_name():
    layouts = ddl.load_layouts([FIXTURES / "site_zmscpu.ddl"])
    cpu = layouts["zmscpu"]
    assert cpu.record_length == 80 + 5 * 8 + 8
    assert cpu.by_name["native_busy_time"].offset == 112
    assert "zmsline" in layouts  # the other shipped records stay
    assert ddl.load_layouts()["zmscpu"].record_length == 272  # and the shipped one is untouched


def test_ddl_syntax_subset():
    text = """
    * comment line
    ?SECTION perf
    CONSTANT max-cpus VALUE 16.
    DEF counters.
    02 busy type binary 64.
    02 hist type binary 32 unsigned occurs 3 times.
    end
    DEFINITION hdr TYPE counters.
    RECORD thing. FILE is "thing" ENTRY-SEQUENCED.
    02 from-timestamp type binary 64.
    02 label pic "X(6)".
    02 label-parts redefines label.
       03 head type character 2.
       03 tail type character 4.
    02 c type hdr.
    02 small type binary 8.
    end
    """
    layout = ddl.Dictionary(ddl.parse_ddl(text, "t.ddl")).layout("thing")
    at = {f.name: (f.offset, f.size, f.kind) for f in layout.fields}
    assert at["label"] == (8, 6, "char")
    assert at["label_parts_tail"] == (10, 4, "char")
    assert at["busy"] == (14, 8, "int")
    assert [at[f"hist{i}"][0] for i in range(3)] == [22, 26, 30]
    assert at["small"] == (34, 1, "int")
    assert layout.record_length == 35
    assert layout.table == "measure_thing"


@pytest.mark.parametrize(
    "text, message",
    [
        ("RECORD r.\n02 a type binary 12.\nend", "t.ddl: line 2: binary 12: expected 8, 16, 32 or 64 bits"),
        ("RECORD r.\n02 a type nosuch.\nend", "t.ddl: line 2: a: type 'nosuch' is not defined"),
        ("RECORD r.\n02 a type binary 16.\n02 b type binary 16 redefines zz.\nend", "t.ddl: line 3: b: redefines 'zz'"),
        ("RECORD r.\n02 a type float 64.\nend", "t.ddl: line 2: type float is not supported"),
        ("02 a type binary 16.", "t.ddl: line 1: item outside a DEFINITION or RECORD"),
        ("RECORD r.\n02 g.\nend", "t.ddl: line 2: g: an item needs a type or subordinate items"),
    ],
)
def test_ddl_errors_name_file_and_line(text, message):
    with pytest.raises(ddl.DdlError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ddl.Dictionary(ddl.parse_ddl(text, "t.ddl")).layout("r")


def test_encode_writes_big_endian_items_at_their_offsets():
    cpu = ddl.load_layouts()["zmscpu"]
    raw = cpu.encode(
        {
            "system_name": "\\TAHITI",
            "cpu_num": 2,
            "loadid": "DT0381",
            "os_version": "G06",
            "from_timestamp": datetime(1996, 4, 21, 8, 15),
            "delta_time": 43_600_000,
            "cpu_busy_time": 1_530_360,
        }
    )
    assert len(raw) == 272
    assert raw[0:16] == b"DT0381  \\TAHITI "
    assert raw[16:20] == b"\x00\x02G\x06"
    assert int.from_bytes(raw[40:48], "big") == 211_696_834_500_000_000
    assert int.from_bytes(raw[56:64], "big") == 43_600_000
    assert int.from_bytes(raw[80:88], "big") == 1_530_360
    with pytest.raises(KeyError, match="no item for 'cpu_busy_pct'"):
        cpu.encode({"cpu_busy_pct": 3.5})
