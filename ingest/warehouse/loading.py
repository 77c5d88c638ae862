"""``ingest_files``: each file read by the intake and committed all or nothing.

A file is parsed completely before any of it is written (``ingest.intake.read.read_file``: staged, its
records counted, records read = loaded + rejected + skipped), and only then are its rows, rejects and
manifest row written in one transaction, which small files share (``_Group``). The warehouse's part is the
manifest: it says which bytes are loaded already (``_read_file``'s ``admit``), which earlier copies a file
replaces, and records a file that cannot load as rejected or failed; nothing raises for bad input.
"""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import duckdb

from ingest import faults
from ingest.intake.read import Intake, read_file
from ingest.intake.result import FileResult
from ingest.intake.staged import HELD_BYTES, StagedBatches
from ingest.intake import copies
from ingest.warehouse.database import delete_files, first_row, next_file_id, record_file, record_file_days
from ingest.warehouse.lock import STAGING_PREFIX
from ingest.warehouse.staging import TableWriter


@dataclass
class _ParsedFile:
    """A file parsed and accounted for, its batches staged, waiting for its group's transaction."""

    read: Intake
    retry: bool  # a failed earlier attempt: its manifest row and rejects are replaced
    replaces: list[int] = field(default_factory=list)  # file ids of earlier, shorter copies (``earlier_versions``)

    @property
    def staged(self) -> StagedBatches:
        return self.read.staged


def _record(con, read: Intake) -> FileResult:
    """A file that cannot load, once the files before it are committed: its manifest row (replacing a failed
    earlier attempt's) and, for a file rejected whole, its reject."""
    path, status = read.result.path, read.result.status
    try:
        con.begin()
        _forget_attempt(con, read.sha)
        record_file(con, next_file_id(con), read.sha, path, read.size, read.result, read.parser, read.rejects)
        con.commit()
    except Exception as e:
        _rollback(con)
        raise faults.translate(e, f"recording {path} as {status}") or e
    return read.result


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
        self.shas.add(parsed.read.sha)

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
            yield outcome.result if outcome.sha is None else _record(con, outcome)
        yield from _commit(con, group.files)


def _read_file(con, path: Path, staged: StagedBatches, format_name, options, pending: set[str]) -> _ParsedFile | Intake:
    """The file read by the intake, the manifest judging its bytes (those of a file loaded, purged, or parsed
    in the group still open are a duplicate): a ``_ParsedFile`` for its group, or the ``Intake`` of a file
    that cannot load (recorded unless it was not read) or of a duplicate."""
    previous = None

    def admit(sha: str) -> FileResult | None:
        nonlocal previous
        previous = first_row(con, "select status, rows_rejected from raw.ingest_files where sha256 = ?", [sha])
        if sha in pending or (previous and previous[0] in ("loaded", "loaded_with_rejects", "purged")):
            return _duplicate(path, previous)
        return None

    read = read_file(path, staged, format_name=format_name, options=options, admit=admit)
    if read.staged is None:
        return read
    parsed = _ParsedFile(read, retry=previous is not None)
    if replaces := earlier_versions(con, path, read.size):
        parsed.replaces = replaces
        read.result.messages.append(f"{path}: replaces the earlier, shorter copy of it loaded as file "
                                    f"{', '.join(map(str, replaces))} (its rows are taken out)")
    return parsed


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
        fault = faults.translate(e, f"committing {len(files)} file(s) ({files[0].read.result.path.name} ...) to the warehouse")
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
        yield _record(con, parsed.read.refused(f"{type(e).__name__}: {e}"))
        return
    for parsed, its_copies in zip(files, found):
        parsed.staged.remove()
        result = parsed.read.result
        copies.tell(result, its_copies)  # told once committed: a group retried file by file finds them again
        yield result


def _write(con, writer: TableWriter, parsed: _ParsedFile) -> list[copies.Copies]:
    """A parsed file's rows, days, copies and manifest row, in the open transaction; returns its copies."""
    read = parsed.read
    if parsed.retry:  # a rejected or failed earlier attempt is retried; its manifest row and rejects are replaced
        _forget_attempt(con, read.sha)
    if parsed.replaces:
        delete_files(con, parsed.replaces)
    file_id = next_file_id(con)
    for table, part, schema in parsed.staged.parts:
        writer.append(table, part, schema, file_id)
    tables = [table for table, _, _ in parsed.staged.parts]
    record_file_days(con, file_id, tables)
    found = copies.find(con, file_id, tables)
    record_file(con, file_id, read.sha, read.result.path, read.size, read.result, read.parser, read.rejects)
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
