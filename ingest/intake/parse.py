"""A whole file parsed into its staged batches and accounted for: records read = loaded + rejected + skipped.

Each batch a parser yields meets its raw table here: it is screened for values no measurement can have
(``plausibility``: a record with ``cpu-busy-time`` ``-5`` becomes the reject ``line 3: implausible: ...``),
conformed and staged (``staged``). A file whose counts do not add up is a parser bug, never a silent loss.
"""

from __future__ import annotations

from pathlib import Path

from ingest.formats import registry
from ingest.formats.base import BATCH_ROWS, FormatError, ParseContext, Parser, table_of
from ingest.intake import plausibility
from ingest.intake.result import FileResult, describe_reject
from ingest.intake.staged import StagedBatches


def parse_file(path: Path, size: int, parser: Parser | None, ctx: ParseContext, staged: StagedBatches, *,
               source: Path | None = None) -> FileResult:
    """The whole file parsed into ``staged`` and accounted for (records read = loaded + rejected + skipped):
    its result, ``loaded`` or with rejects. Raises ``FormatError`` for a file that cannot be read at all and
    any other exception for a parser bug (``read.read_file`` tells both as the file's result).
    ``source``: what the parser reads, when not ``path`` itself (``without_bom``)."""
    result = FileResult(path, "loaded", format=parser.format if parser else None)
    if size == 0:
        raise FormatError("empty file: expected at least one record")
    if parser is None:
        known = ", ".join(p.format for p in registry.all_parsers())
        raise FormatError(f"unrecognised format: the content matches none of the known formats ({known})")
    screen = plausibility.Screen(plausibility.latest_time(path))
    try:
        for batch in parser.parse(source or path, ctx):
            n = batch.rows.num_rows
            if n == 0:
                continue
            if n > BATCH_ROWS * 4:
                raise RuntimeError(f"parser {parser.format} yielded a batch of {n} rows; stream smaller batches")
            table = table_of(parser, batch.table)
            if batch.skipped:
                staged.add(table, batch.rows)
                result.rows_skipped += n
                continue
            rows = screen.check(table, batch.rows)
            staged.add(table, rows)
            result.rows_loaded += rows.num_rows
            result.records_loaded += n if batch.records is None else batch.records
    finally:
        staged.close()
    if screen.rejected:  # each implausible record counted once as loaded: it is a reject instead
        result.rows_loaded -= staged.drop_records(screen.rejected)
        result.records_loaded -= len(screen.rejected)
        for reject in screen.rejected.values():
            if reject.offset is None and reject.line is None and ctx.place is not None:
                reject.offset, reject.line = ctx.place(reject.record_ordinal)
        ctx.rejects.extend(screen.rejected.values())
    result.records_read = ctx.records_read
    result.rows_rejected = len(ctx.rejects)
    if result.records_read == 0:
        raise FormatError("no records: the file holds no record of its format (a header alone, or a header cut short)")
    accounted = result.records_loaded + result.rows_rejected + result.rows_skipped
    if accounted != result.records_read:
        raise RuntimeError(
            f"accounting mismatch: {result.records_read} records read but {result.records_loaded} loaded + "
            f"{result.rows_rejected} rejected + {result.rows_skipped} skipped = {accounted}"
        )
    if result.rows_rejected:
        result.messages = [describe_reject(path, r) for r in ctx.rejects]
        if result.records_loaded or result.rows_skipped:
            result.status = "loaded_with_rejects"
        else:  # every record rejected: the file is rejected, and keeps nothing but its rejects (not the
            # labels of captures that were all rejected), so that it can be tried again when re-sent
            result.status = "rejected"
            result.rows_loaded = 0
            staged.remove()
    return result
