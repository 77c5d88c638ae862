"""Copies of the same measurements in two files, found when the later file loads.

Raw keeps what arrived, and the manifest knows a file by its bytes: another site's export of the same
system and day, or the same day exported again with other line endings, loads beside the first. Staging
keeps the copy ingested first (``first_copy``), so without a word one copy would hide the other. A row of a
new file whose natural key (``RawTable.natural_key``: system, entity, interval) a row of another file holds
is a copy:

* a duplicate when every value both rows hold is the same: the values as parsed, so line endings, an
  encoding or another form of the same export do not count, nor do the columns saying where in its file a
  record was (``PROVENANCE_COLUMNS``), nor a value one copy lacks (a form without the item). Harmless: the
  marts count the measurement once;
* a conflict when a value both rows hold differs: two copies that cannot both be right. The marts use the
  earlier file's until the user says which is right by removing the other (``perfdb remove``), and
  ``perfdb check`` fails meanwhile (``quality/suites/manifest_copies.py``).

Each (later file, earlier file, table, system) with copies is one row of ``raw.key_conflicts``, written in
the later file's transaction. Set-based and flat with history: one join per raw table the file wrote, of its
rows against those of the files that share a (system, day) with it (``raw.ingest_file_days``), inside the
span of its rows' times; tables without a natural key of their own (command captures, keyed by their file)
or a placement are not compared.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from ingest.formats.base import PROVENANCE_COLUMNS, RawTable
from ingest.formats.measure.meascom_grammar import SOURCE_FORM as MEASCOM_FORM
from ingest.intake.result import FileResult

# Forms whose values are rebuilt from a printed report's rounded figures (MEASCOM prints rates and
# percentages: 363,966,618 us of CPU busy comes back as 363,960,000, 54 swaps as 36). Against another
# form of the same measurements they differ by that rounding, so such a pair is compared by its key only
# (a duplicate); two copies in the same form are compared value by value.
ROUNDED_FORMS = (MEASCOM_FORM,)


@dataclass(frozen=True)
class Copies:
    """The rows of a new file that another file holds too (one ``raw.key_conflicts`` row)."""

    other_file_id: int
    other_path: str
    table: str
    system: str
    duplicate_rows: int
    conflicting_rows: int
    example: str | None

    def message(self, path) -> str:
        if self.conflicting_rows:
            return (f"{path}: {self.conflicting_rows} rows of raw.{self.table} ({self.system}) hold the same "
                    f"measurements as {self.other_path} with other values (e.g. {self.example}); the marts use the "
                    f"copy loaded first until `perfdb remove` takes the wrong one out")
        return (f"{path}: {self.duplicate_rows} rows of raw.{self.table} ({self.system}) duplicate "
                f"{self.other_path} (same values, or a printed report's rounding of them): counted once")


def comparable(table: RawTable) -> bool:
    """Whether the table's rows can be copies of another file's: a natural key not bound to the file, and a
    placement to find the candidates by."""
    return bool(table.natural_key) and "source_file_id" not in table.natural_key and table.placement is not None


def _quoted(name: str) -> str:
    return f'"{name}"'  # `index`, `type` and `error` are SQL keywords


def find(con: duckdb.DuckDBPyConnection, file_id: int, tables) -> list[Copies]:
    """The copies of file ``file_id``'s rows in the files loaded before it (smaller ids), recorded in
    ``raw.key_conflicts``; inside the caller's transaction, after the file's rows and days
    (``record_file_days``) are written. The Spark lake calls it after its job, for each file of the job in
    turn (``ingest.lake.copies``), so a later file of the same job is not yet an earlier copy."""
    others = [r[0] for r in con.execute(
        "select distinct others.source_file_id from raw.ingest_file_days as mine "
        "inner join raw.ingest_file_days as others on others.system_name = mine.system_name and others.day = mine.day "
        "where mine.source_file_id = ? and others.source_file_id < ?", [file_id, file_id]).fetchall()]
    if not others:  # the common case, a file of new days: its rows are not read again
        return []
    found: list[Copies] = []
    for table in sorted({t.name: t for t in tables if comparable(t)}.values(), key=lambda t: t.name):  # told in one order on both targets
        found += _find_in(con, int(file_id), others, table)
    return found


def _find_in(con, file_id: int, others: list[int], table: RawTable) -> list[Copies]:
    system, time = (_quoted(c) for c in table.placement)
    relation = f"raw.{_quoted(table.name)}"
    # the span of the file's rows as constants, so that the scan of the others' rows skips the row groups
    # outside it (DuckDB's min/max per row group); a file wrote rows to a table it declares, not always to each
    first_time, last_time = con.execute(
        f"select min({time}), max({time}) from {relation} where source_file_id = ?", [file_id]).fetchall()[0]
    if first_time is None:
        return []
    optional = {c.name for c in table.columns if c.optional}
    key = " and ".join(
        f"new.{_quoted(k)} {'is not distinct from' if k in optional else '='} old.{_quoted(k)}" for k in table.natural_key)
    values = [c.name for c in table.columns if c.name not in table.natural_key and c.name not in PROVENANCE_COLUMNS]
    # a value one copy lacks is no contradiction: `<>` of a NULL is NULL, counted as alike
    differs = " or ".join(f"coalesce(new.{_quoted(v)} <> old.{_quoted(v)}, false)" for v in values) or "false"
    if "source_form" in {c.name for c in table.columns}:
        rounded = ", ".join(f"'{form}'" for form in ROUNDED_FORMS)
        differs = (f"case when new.source_form <> old.source_form and (new.source_form in ({rounded}) "
                   f"or old.source_form in ({rounded})) then false else ({differs}) end")
    example = "json_object(" + ", ".join(f"'{k}', cast(new.{_quoted(k)} as varchar)" for k in table.natural_key) + ")"
    rows = con.execute(f"""
        insert into raw.key_conflicts (file_id, other_file_id, table_name, system_name, first_day, last_day,
                                       duplicate_rows, conflicting_rows, example)
        with pairs as (
            select old.source_file_id as other_file_id, cast(new.{system} as varchar) as system_name,
                   cast(new.{time} as date) as day, ({differs}) as differs, {example} as example
            from {relation} as new
            inner join {relation} as old on {key}
            where new.source_file_id = $file
                and old.source_file_id in (select unnest($others))
                and old.{time} between $first_time and $last_time
        )
        select $file, other_file_id, '{table.name}', system_name, min(day), max(day),
               count(*) filter (where not differs), count(*) filter (where differs),
               min(example) filter (where differs)
        from pairs
        group by other_file_id, system_name
        returning other_file_id, system_name, duplicate_rows, conflicting_rows, example
    """, {"file": file_id, "others": others, "first_time": first_time, "last_time": last_time}).fetchall()
    if not rows:
        return []
    paths = dict(con.execute("select file_id, path from raw.ingest_files where file_id in (select unnest(?))",
                             [[r[0] for r in rows]]).fetchall())
    return [Copies(other, paths.get(other, f"file {other}"), table.name, system_name, duplicates, conflicts, example)
            for other, system_name, duplicates, conflicts, example in sorted(rows)]


def tell(result: FileResult, found: list[Copies]) -> None:
    """A file's copies added to its result: counted, and told naming the other file."""
    for copy in found:
        result.duplicate_rows += copy.duplicate_rows
        result.conflicting_rows += copy.conflicting_rows
        result.copies.append(copy.message(result.path))
