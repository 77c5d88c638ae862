"""``ingest_files``: each file parsed, accounted for and committed all or nothing.

A file is parsed completely before any of it is written: its batches are staged (``staging``), its
records counted (records read = loaded + rejected + skipped), and only then are its rows, rejects and
manifest row written in one transaction, which small files share (``_Group``). A file that cannot load is
recorded as rejected or failed; nothing raises for bad input.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import duckdb

from ingest.formats import registry
from ingest.formats.base import BATCH_ROWS, UTF8_BOM, FormatError, ParseContext, Parser, Reject, table_of
from ingest.warehouse import copies, faults, plausibility
from ingest.warehouse.lock import STAGING_PREFIX
from ingest.warehouse.database import (FileResult, delete_files, describe_reject, first_row, identify, next_file_id, record_file,
                                       record_file_days)
from ingest.warehouse.staging import StagedBatches, TableWriter


# Batches a run holds in memory: those of a group's files together, the file being parsed included; the
# rest is spilled to Parquet. The peak memory of an ingest depends on this, not on the size of the files.
HELD_BYTES = 128 * 1024 * 1024


@dataclass
class _ParsedFile:
    """A file parsed and accounted for, its batches staged, waiting for its group's transaction."""

    path: Path
    sha: str
    size: int
    parser: Parser
    ctx: ParseContext
    result: FileResult
    staged: StagedBatches
    retry: bool  # a failed earlier attempt: its manifest row and rejects are replaced
    replaces: list[int] = field(default_factory=list)  # file ids of earlier, shorter copies (``earlier_versions``)


@dataclass
class _Failure:
    """A file that cannot load: recorded (manifest row, reject) once the files before it are committed."""

    path: Path
    sha: str
    size: int
    parser: Parser | None
    status: str  # rejected | failed
    message: str
    offset: int | None = None
    line: int | None = None
    head: bytes = b""

    def record(self, con) -> FileResult:
        """The manifest row (replacing a failed earlier attempt's) and, for a rejected file, its reject."""
        result = FileResult(self.path, self.status, format=self.parser.format if self.parser else None, error=self.message)
        result.rows_rejected = 1 if self.status == "rejected" else 0
        result.records_read = result.rows_rejected
        result.messages = [f"{self.path}: {self.message}"]
        # a rejected file is itself the rejected record; keep its first bytes for diagnosis
        rejects = [Reject(self.message, self.head[:4096], self.offset, self.line)] if self.status == "rejected" else []
        try:
            con.begin()
            _forget_attempt(con, self.sha)
            record_file(con, next_file_id(con), self.sha, self.path, self.size, result, self.parser, rejects)
            con.commit()
        except Exception as e:
            _rollback(con)
            raise faults.translate(e, f"recording {self.path} as {self.status}") or e
        return result


class _Group:
    """Parsed files that commit together.

    Each file is still all-or-nothing: it is parsed, checked and accounted for completely before any of it
    is written, and its rows, rejects and manifest row are in one transaction. Committing many small files
    in one transaction is for speed: DuckDB writes an append of a full row group (122,880 rows) or more
    straight into the database file, compressed, while smaller appends go through the write-ahead log and
    are compressed again at the next checkpoint. Per file, that commit cost more than the parse."""

    COMMIT_BYTES = 512 * 1024 * 1024  # commit once the files hold this much, in memory and spilled
    # ... or once this many files are parsed, so that a run killed part way keeps every group it committed and its
    # retry parses only the rest (the files committed are duplicates to it)
    COMMIT_FILES = 64

    def __init__(self):
        self.files: list[_ParsedFile] = []
        self.shas: set[str] = set()

    def add(self, parsed: _ParsedFile) -> None:
        self.files.append(parsed)
        self.shas.add(parsed.sha)

    @property
    def held_bytes(self) -> int:
        return sum(f.staged.held_bytes for f in self.files)

    @property
    def full(self) -> bool:
        return (len(self.files) >= self.COMMIT_FILES
                or sum(f.staged.held_bytes + f.staged.spilled_bytes for f in self.files) >= self.COMMIT_BYTES)


def ingest_file(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    *,
    format_name: str | None = None,
    options: dict | None = None,
) -> FileResult:
    """Load one file in one transaction. Never raises for bad input: the result says what happened."""
    return next(ingest_files(con, [path], format_name=format_name, options=options))


def ingest_files(
    con: duckdb.DuckDBPyConnection,
    paths: list[Path],
    *,
    format_name: str | None = None,
    options: dict | None = None,
) -> Iterator[FileResult]:
    """Load files, each all-or-nothing, small ones several to a transaction (``_Group``). Yields each file's
    result in the order given, once it is committed. Never raises for bad input."""
    # beside the database; a folder a killed run left is removed by the next writer (``lock.remove_leftovers``)
    with tempfile.TemporaryDirectory(prefix=STAGING_PREFIX, dir=_staging_dir(con)) as staging:
        group = _Group()
        for k, path in enumerate(paths):
            staged = StagedBatches(Path(staging) / f"{k:06d}", budget=max(0, HELD_BYTES - group.held_bytes))
            outcome = _read_file(con, Path(path), staged, format_name, options, group.shas)
            if isinstance(outcome, _ParsedFile):
                group.add(outcome)
                faults.reached("staged")
                if group.full:
                    yield from _commit(con, group.files)
                    group = _Group()
                continue
            # a duplicate or a file that cannot load: the files before it are committed first, so that
            # results and file ids keep the order given
            yield from _commit(con, group.files)
            group = _Group()
            yield outcome.record(con) if isinstance(outcome, _Failure) else outcome
        yield from _commit(con, group.files)


def _read_file(con, path: Path, staged: StagedBatches, format_name, options, pending: set[str]):
    """``_parse_file``, or, for a path that cannot be read (``unreadable``) or that changed while it was read
    (``_still_written``), a failed result that is not recorded in the manifest: a file renamed, removed or
    still being copied while a run goes on costs that file (until the next run), not the run."""
    problem = unreadable(path)
    if problem is None:
        try:
            before = path.stat()
            outcome = _parse_file(con, path, staged, format_name, options, pending)
            problem = _still_written(before, path.stat())
        except FileNotFoundError:
            problem = unreadable(path) or "vanished while it was read: not loaded"
        except OSError as e:
            if faults.no_room(e):  # no room for a copy without a byte order mark: the machine's fault, as in staging
                raise faults.translate(e, f"staging {path}") from None
            problem = f"cannot be read ({e.strerror or e}): not loaded"
    if problem is None:
        if isinstance(outcome, _ParsedFile) and (replaces := earlier_versions(con, path, outcome.size)):
            outcome.replaces = replaces
            outcome.result.messages.append(f"{path}: replaces the earlier, shorter copy of it loaded as file "
                                           f"{', '.join(map(str, replaces))} (its rows are taken out)")
        return outcome
    staged.remove()
    return FileResult(path, "failed", error=problem, messages=[f"{path}: {problem}"])


def _still_written(before: os.stat_result, after: os.stat_result) -> str | None:
    """What "complete" means to ``perfdb ingest``: a file whose size and time of change are the same after it
    was read (hashed and parsed) as before. (The nightly DAG waits for the landing folder's ``_SUCCESS``.)"""
    if (before.st_size, before.st_mtime_ns) == (after.st_size, after.st_mtime_ns):
        return None
    return (f"still being written (it changed while it was read: {before.st_size:,} bytes, then {after.st_size:,}): "
            "not loaded; ingest it again once it is complete")


def earlier_versions(con, path: Path, size: int) -> list[int]:
    """The loaded files that ``path`` replaces: those loaded from the same path whose bytes are all at the start
    of its own, i.e. earlier, shorter copies of it (a capture read while it was still being written, a log
    that has grown since). Their rows go out in the transaction that brings its rows in, so that the marts
    use the complete capture, never both. Files of the same name in other folders are other files (a day's
    cpu.csv, or a damaged copy kept beside the intact one). One read of ``path``'s start, however many
    candidates."""
    candidates = con.execute(
        "select file_id, sha256, size_bytes from raw.ingest_files where path in (?, ?) and size_bytes < ? "
        "and status in ('loaded', 'loaded_with_rejects') order by size_bytes, file_id",
        [str(path), str(path.absolute()), size]).fetchall()
    found, digest, read = [], hashlib.sha256(), 0
    with path.open("rb") as f:
        for file_id, sha, length in candidates:
            while read < length and (chunk := f.read(min(1 << 20, length - read))):
                digest.update(chunk)
                read += len(chunk)
            if digest.copy().hexdigest() == sha:
                found.append(file_id)
    return found


def _parse_file(con, path: Path, staged: StagedBatches, format_name, options, pending: set[str]):
    """The file parsed into ``staged``: a ``_ParsedFile``, a ``_Failure``, or a duplicate's ``FileResult``."""
    sha, size, head, parser = identify(path, format_name)
    previous = first_row(con, "select status, rows_rejected from raw.ingest_files where sha256 = ?", [sha])
    if sha in pending or (previous and previous[0] in ("loaded", "loaded_with_rejects", "purged")):
        return _duplicate(path, previous)

    head, source = text_source(path, head, staged.directory.with_name(f"{staged.directory.name}.text"))
    ctx = ParseContext(path=source, options=dict(options or {}))
    try:
        result = parse_file(path, size, parser, ctx, staged, source=source)
    except FormatError as e:
        staged.remove()
        return _Failure(path, sha, size, parser, "rejected", f"{e} (at {e.position()})", e.offset, e.line, head)
    except Exception as e:  # a parser bug must not take the batch down: keep the file's story, go on
        staged.remove()
        if faults.no_room(e):  # not the file's fault, and every file after it would fail the same way
            raise faults.translate(e, f"staging {path}") from None
        return _Failure(path, sha, size, parser, "failed", f"{type(e).__name__}: {e}")
    finally:
        if source != path:
            shutil.rmtree(source.parent, ignore_errors=True)
    return _ParsedFile(path, sha, size, parser, ctx, result, staged, retry=previous is not None)


def text_source(path: Path, head: bytes, scratch: Path) -> tuple[bytes, Path]:
    """The bytes to sniff and the file the parser reads: ``path`` itself, or, when it starts with the byte
    order mark a Windows editor writes (no part of the data), a copy without it in the folder ``scratch``
    (the caller removes the folder after the parse)."""
    if not head.startswith(UTF8_BOM):
        return head, path
    return head[len(UTF8_BOM):], without_bom(path, scratch / path.name)


def without_bom(path: Path, copy: Path) -> Path:
    """A copy of ``path`` less its first three bytes (a UTF-8 byte order mark), under the same name and with the
    same times, for the parsers, which read every text as UTF-8 without one: lines keep their numbers, byte
    offsets are 3 less than in the file."""
    copy.parent.mkdir(parents=True, exist_ok=True)
    with path.open("rb") as f, copy.open("wb") as out:
        f.seek(len(UTF8_BOM))
        shutil.copyfileobj(f, out, 1 << 20)
    shutil.copystat(path, copy)
    return copy


def parse_file(path: Path, size: int, parser: Parser | None, ctx: ParseContext, staged: StagedBatches, *,
               source: Path | None = None) -> FileResult:
    """The whole file parsed into ``staged`` and accounted for (records read = loaded + rejected + skipped):
    its result, ``loaded`` or with rejects. Raises ``FormatError`` for a file that cannot be read at all and
    any other exception for a parser bug. The DuckDB path and the Spark job (``ingest.lake.job``) share it.
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


def _commit(con, files: list[_ParsedFile]) -> Iterator[FileResult]:
    """One transaction for ``files``. If it fails (a disc error, a column type a file contradicts), each
    file is tried again on its own, so that only the file at fault fails."""
    if not files:
        return
    try:
        con.begin()
        writer = TableWriter(con)
        found = [_write(con, writer, parsed) for parsed in files]
        faults.reached("commit")
        con.commit()
        faults.reached("committed")
    except Exception as e:
        _rollback(con)
        fault = faults.translate(e, f"committing {len(files)} file(s) ({files[0].path.name} ...) to the warehouse")
        if fault is not None:  # the machine's fault, not a file's: retrying each file alone would fail again
            for parsed in files:
                parsed.staged.remove()
            raise fault from None
        if len(files) > 1:
            for parsed in files:
                yield from _commit(con, [parsed])
            return
        parsed = files[0]
        parsed.staged.remove()
        yield _Failure(parsed.path, parsed.sha, parsed.size, parsed.parser, "failed", f"{type(e).__name__}: {e}").record(con)
        return
    for parsed, its_copies in zip(files, found):
        parsed.staged.remove()
        for copy in its_copies:  # told once committed: a group retried file by file finds them again
            parsed.result.duplicate_rows += copy.duplicate_rows
            parsed.result.conflicting_rows += copy.conflicting_rows
            parsed.result.copies.append(copy.message(parsed.path))
        yield parsed.result


def _write(con, writer: TableWriter, parsed: _ParsedFile) -> list[copies.Copies]:
    """A parsed file's rows, days, copies and manifest row, in the open transaction; returns its copies."""
    if parsed.retry:  # a rejected or failed earlier attempt is retried; its manifest row and rejects are replaced
        _forget_attempt(con, parsed.sha)
    if parsed.replaces:
        delete_files(con, parsed.replaces)
    file_id = next_file_id(con)
    for table, part, schema in parsed.staged.parts:
        writer.append(table, part, schema, file_id)
    tables = [table for table, _, _ in parsed.staged.parts]
    record_file_days(con, file_id, tables)
    found = copies.find(con, file_id, tables)
    record_file(con, file_id, parsed.sha, parsed.path, parsed.size, parsed.result, parsed.parser, parsed.ctx.rejects)
    return found


def _rollback(con) -> None:
    """Roll back the open transaction, if any: a COMMIT that failed has already ended it (DuckDB then says
    "cannot rollback - no transaction is active"), and the files are retried one by one all the same."""
    try:
        con.rollback()
    except duckdb.TransactionException:
        pass


def _forget_attempt(con, sha: str) -> None:
    """The manifest row and rejects of an earlier attempt at the same bytes that loaded nothing."""
    con.execute("delete from raw.rejects where file_id in (select file_id from raw.ingest_files where sha256 = ?)", [sha])
    con.execute("delete from raw.ingest_files where sha256 = ?", [sha])


def _duplicate(path: Path, previous: tuple | None) -> FileResult:
    """The same bytes again: nothing added. Bytes that were partly rejected before are said to be so and are
    not a success (``FileResult.ok``): the rejected records are still missing."""
    if previous and previous[0] == "loaded_with_rejects":
        return FileResult(path, "duplicate", rows_rejected=0, previously_rejected=previous[1], messages=[
            f"{path}: already ingested (same sha256) with {previous[1]} records rejected (see raw.rejects); "
            "nothing added: correct the file, or `perfdb remove` it and ingest it again"])
    purged = " (purged by retention)" if previous and previous[0] == "purged" else ""
    return FileResult(path, "duplicate", messages=[f"{path}: already ingested{purged} (same sha256), nothing added"])


def _staging_dir(con: duckdb.DuckDBPyConnection) -> str | None:
    """Beside the database file (same disc as the data it will hold); the system's temp dir for :memory:."""
    row = first_row(con, "select path from duckdb_databases() where database_name = current_database()")
    return str(Path(row[0]).parent) if row and row[0] else None


COMPLETE_MARKER = "_SUCCESS"  # written last into a landing folder by whoever fills it (docs/stack.md)


def iter_input_files(paths: list[Path]) -> list[Path]:
    """Files named, and every file below directories named, in a stable order (by path); hidden files and the
    ``_SUCCESS`` markers that say a landing folder is complete (they hold no data) skipped.

    Symbolic links are followed (a day folder linked into landing/ from another disc is read), except a link
    back to a folder that holds it (a loop): that link is listed itself, as is a link that leads nowhere, so
    that the reader reports it (``unreadable``) instead of the listing skipping it without a word."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            _list_folder(p, {p.resolve()}, out)
        elif p.exists() or p.is_symlink():
            out.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or directory")
    return out


def _list_folder(folder: Path, holding: set[Path], out: list[Path]) -> None:
    """``folder``'s files into ``out``, depth first by name (the order of sorted paths); ``holding``: the real
    folders on the way down, which a link must not lead back to."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except FileNotFoundError:  # removed while listed: nothing of it to load, nothing to report
        return
    for entry in entries:
        path = Path(entry.path)
        if entry.name.startswith(".") or entry.name == COMPLETE_MARKER:
            continue
        if entry.is_dir() and path.resolve() not in holding:
            _list_folder(path, holding | {path.resolve()}, out)
        elif entry.is_file() or entry.is_symlink():  # a loop or a dangling link: told by ``unreadable``
            out.append(path)


def unreadable(path: Path) -> str | None:
    """Why a listed ``path`` cannot be read, or None: it vanished (renamed or removed since it was listed), it
    is a symbolic link that leads nowhere, or one back to a folder that holds it. Not recorded in the manifest
    (there are no bytes to record); the other files load."""
    if path.is_symlink() and not path.exists():
        return f"a symbolic link to {os.readlink(path)}, which does not exist: not loaded"
    if not path.exists():
        return "vanished (renamed or removed) after it was listed: not loaded"
    if path.is_dir():
        return f"a symbolic link to {path.resolve()}, a folder that holds it (a loop): not followed"
    return None
