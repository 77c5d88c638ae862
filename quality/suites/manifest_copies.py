"""The manifest's copies: no file holds measurements another file holds with other values.

Two files may hold the same measurements (another site's export of the same system and day): the loader
counts, per pair of files, the rows whose natural key both hold (``raw.key_conflicts``,
``ingest/intake/copies.py``). Alike, they are duplicates, and the marts count them once. Different, they
are a conflict: the marts use the copy loaded first, which may be the wrong one, so the check fails until the
user takes the wrong copy out (``perfdb remove``). The frame is one row per loaded file, with the rows of it
that contradict an earlier file's and the files they contradict, so a failure names both; it is the
manifest's size, read whole every night, because a conflict stays until it is resolved.
"""

from __future__ import annotations

import great_expectations.expectations as gxe

from quality.suite import Suite, check

QUERY = """
select
    files.file_id,
    files.path,
    coalesce(sum(copies.conflicting_rows), 0) as conflicting_rows,
    coalesce(sum(copies.duplicate_rows), 0) as duplicate_rows,
    string_agg(distinct case when copies.conflicting_rows > 0 then others.path end, ', ') as conflicts_with
from raw.ingest_files as files
left join raw.key_conflicts as copies on copies.file_id = files.file_id
left join raw.ingest_files as others on others.file_id = copies.other_file_id
where files.status in ('loaded', 'loaded_with_rejects')
group by files.file_id, files.path
"""


def expectations():
    return [
        check(
            "no_conflicting_copies",
            "no file holds measurements (system, entity, interval) that an earlier file holds with other values: "
            "remove the wrong copy",
            gxe.ExpectColumnValuesToBeBetween(column="conflicting_rows", min_value=0, max_value=0),
        ),
    ]


SUITES = [
    Suite(
        name="raw.key_conflicts",
        relation="raw.ingest_files",
        requires=("raw.key_conflicts",),
        query=QUERY,
        expectations=expectations,
        description="copies of the same measurements in two files, with other values",
        row_id=("file_id", "path", "conflicts_with"),
    ),
]
