r"""Columnar reader of MEASCOM ``LIST`` report text: one chunk -> the same tables as the state machine.

Input: a chunk of report text (``meascom_report`` cuts the file into chunks of a few MB) that begins
where the state machine's state is simple, at a command echo or a block start, e.g.::

    2+ LIST PROCESS *
    Process 1,30 ($SAC00) Pri 160
    Program $PROGS.SERVER1.ACCTSRV
    Userid 100,1
    Local System \BENCH From 17 Jan 2026, 00:00:00 For 1.0 Hours
    Cpu-Busy-Time 0.20 % Ready-Time 0.21 %
    Mem-Qtime Dispatches 0.53
    Recv-Qtime 0.00 # Recv-Qlen-Max 2 #
    5+ LIST USERDEF *
    Process $SAC00 Program $PROGS.SERVER1.ACCTSRV
    CPU 1 Pin 30 Priority 160
    Local System \BENCH From 17 Jan 2026, 00:00:00 For 1.0 Hours
    RESP-TIME 0.01 # Max 2 # Queue 0
    THROUGHPUT 0.07 Accum 0

Output: ``ChunkRead``: per raw table the Arrow table the state machine (``meascom_line_reader``) makes
of the same lines (same columns and types, values, ``record_ordinal``s; labels outside the contract as
BIGINT columns after the contract's, in the order first seen in the chunk), the line each record starts
on, and the session (RATE, LIST section) after the chunk. Or None: the chunk holds something this reader
does not reproduce exactly (anything the state machine would reject or keep verbatim, a label colliding
with an identification column, a label twice in one block, tabs, non-ASCII text, ...); the state machine
then reads it, and every message, reject and line number comes from there.

How: NumPy cuts the text into tokens at its spaces and newlines, Arrow dictionary-encodes them, and
everything that depends on a token's text (label or number or unit, a label's column and counter kind,
a number's value) is worked out once per distinct token and gathered back by code. Identification and
``Local System`` lines are read once per distinct text by the state machine's own helpers. Lines, blocks
and label groups are then index arrays: a line's kind from its first token, its block from a running
count of block starts, a label's value from the token after it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ingest.formats.measure.meascom_grammar import (
    LINE_CACHE_SIZE,
    MAX_INT32,
    MAX_INT64,
    NUMBER,
    SOURCE_FORM,
    STARTERS,
    USERDEF_NAME,
    after_command,
    block_entity,
    command_of_echo,
    read_id_line,
    read_local_line,
)
from ingest.formats.measure.meascom_labels import (
    CONVERSIONS,
    ENTITY_SCHEMAS,
    HEADER_SCHEMA,
    LAYOUTS,
    QUEUE,
    TABLES,
    UNITS,
    USERDEF_TYPES,
    column_of,
    label_info,
)

_TWO63 = float(MAX_INT64)  # the state machine's bound: -2**63 < value < 2**63
_TIMESTAMP = pa.timestamp("us")
_ENTITIES = ("cpu", "process", "line", "disc", "file", "discopen", "userdef")
_USERDEF = _ENTITIES.index("userdef")
_KINDS = tuple(CONVERSIONS)
_KIND_OF = {id(conversions): k for k, conversions in enumerate(CONVERSIONS.values())}  # label_info gives the dict
_RESP = _KINDS.index("resp")
_UNIT_NAMES = ("", *sorted(UNITS))
# (factor, per_delta, evidence, valid) of every (counter kind, unit), as lookup tables
_FACTOR = np.array([[CONVERSIONS[k].get(u, (0.0, False, 0))[0] for u in _UNIT_NAMES] for k in _KINDS])
_PER_DELTA = np.array([[CONVERSIONS[k].get(u, (0.0, False, 0))[1] for u in _UNIT_NAMES] for k in _KINDS])
_EVIDENCE = np.array([[CONVERSIONS[k].get(u, (0.0, False, 0))[2] for u in _UNIT_NAMES] for k in _KINDS], np.int8)
_VALID = np.array([[u in CONVERSIONS[k] for u in _UNIT_NAMES] for k in _KINDS])

# kind of a line by its first token
_OTHER, _START, _LOCAL, _ECHO, _SYSTEM = 0, 1, 2, 3, 4
_START_WORDS = [word for word, entity in STARTERS.items() if entity not in (None, "system")]
_SPECIAL_WORDS = ["", *_START_WORDS, "Local", "Remote", "Line", "Max", "#"]
_NUMBER_RE2 = "^" + NUMBER.pattern + "$"  # RE2, ASCII: the same language as the state machine's regex
# token classes in a counter line
_LABEL, _NUM, _UNIT, _LINE_START = 0, 1, 2, 3

# per entity (index in _ENTITIES): raw table, its contract columns, the counter columns among them
_TABLE_NAMES = [TABLES[e.upper()] for e in _ENTITIES]
_SCHEMAS = [HEADER_SCHEMA + ENTITY_SCHEMAS[table] for table in _TABLE_NAMES]
_COUNTERS = [[column_of(label) for row in LAYOUTS.get(e, ()) for label, _kind in row] for e in _ENTITIES]


@dataclass
class ChunkRead:
    tables: dict[str, pa.Table]  # raw table -> its rows from this chunk, in record order
    # the line each record starts on, in ordinal order, counted from the chunk's first line (0)
    record_lines: np.ndarray
    session: tuple[bool, str | None, bool]  # (RATE ON, LIST section, foreign) after the chunk

    @property
    def records(self) -> int:
        """Records of the chunk (ordinals first_ordinal .. first_ordinal + records - 1)."""
        return len(self.record_lines)


@dataclass
class _Labels:
    """The label tokens of the counter lines of generic blocks, in text order."""

    block: np.ndarray  # block of each
    label: np.ndarray  # which label: index into infos
    value: np.ndarray  # int64 as the state machine rounds it, 0 for a label printed without a value
    infos: list  # label_info() of each distinct label
    resp_at: np.ndarray  # RESP labels with a value: their positions among the label tokens,
    resp_time: np.ndarray  # the printed time in µs (before rounding),
    resp_rate_on: np.ndarray  # and whether their block is RATE ON


class _Decline(Exception):
    """The chunk holds something this reader does not reproduce exactly."""


def _need(ok) -> None:
    if not ok:
        raise _Decline


def read_chunk(text: str, first_ordinal: int, rate_on: bool, section: str | None, foreign: bool) -> ChunkRead | None:
    """The tables of ``text`` (starting at a command echo or block start, ending at the end of a block),
    records numbered from ``first_ordinal``, in the session (RATE ON, LIST section, foreign) before it;
    None if the state machine must read it."""
    # only ASCII: there, with no tabs, runs of blanks or blank-padded lines (checked on the bytes),
    # cutting at spaces and newlines is exactly str.split() of each line
    if not text or not text.isascii():
        return None
    try:
        return _Chunk(text if text.endswith("\n") else text + "\n", (rate_on, section, foreign)).read(first_ordinal)
    except _Decline:
        return None


# Identification and Local System texts already read: the same come back every interval, and in every
# file of a system. Emptied when full, so that a garbage file cannot grow them without bound.
_HEADERS: dict[str, tuple[int, dict[int, object]] | None] = {}
_LOCALS: dict[str, tuple[str, int, int] | None] = {}


def _cached(cache: dict, text: str, read):
    found = cache.get(text, False)
    if found is False:
        if len(cache) >= LINE_CACHE_SIZE:
            cache.clear()
        found = cache[text] = read(text)
    return found


def _read_header(text: str) -> tuple[int, dict[int, object]] | None:
    """(entity, schema index -> value) of a block's start and identification lines, as ``LineReader`` reads
    them; None where it finds an error."""
    lines = [" ".join(line.split()) for line in text.split("\n")]
    lines = [line for line in lines if line]
    entity = block_entity(lines[0].split(" "))
    values: dict[int, object] = {}
    id_line = 0
    for line in lines:
        found = read_id_line(entity, id_line, line)
        if type(found) is str:
            return None
        items, id_line = found
        values.update(items)
    return _ENTITIES.index(entity), values


def _word_classes(words: pa.Array) -> np.ndarray:
    """Class of each distinct token in a counter line, as the state machine tells them apart: a number
    starts with a digit or '-', a unit is a known unit or starts lower-case, anything else is a label."""
    _validity, offsets, data = words.buffers()
    starts = np.frombuffer(offsets, np.int32, len(words), words.offset * 4)
    first = np.append(np.frombuffer(data or b"", np.uint8), np.uint8(0))[starts]  # 0 for the empty word
    cls = np.where((first >= ord("a")) & (first <= ord("z")), _UNIT, _LABEL).astype(np.int8)
    cls[pc.is_in(words, value_set=pa.array(sorted(UNITS))).to_numpy(zero_copy_only=False)] = _UNIT
    cls[((first >= ord("0")) & (first <= ord("9"))) | (first == ord("-"))] = _NUM
    return cls


class _Chunk:
    """One chunk's arrays. Tokens: ``codes`` (index into ``words``, the distinct tokens), in text order.
    Lines (blank ones left out): first and last token ``firsts``/``ends``, bytes ``line_start``/``line_end``,
    index among all the chunk's lines (blank ones counted) ``line_numbers``."""

    def __init__(self, text: str, session: tuple[bool, str | None, bool]):
        self.text = text
        self.session = session
        self.buf = text.encode("ascii")
        self._tokenize(self.buf)

    def _tokenize(self, buf: bytes) -> None:
        _need(len(buf) < 2**31)  # int32 offsets
        a = np.frombuffer(buf, np.uint8)
        sep = np.flatnonzero(a < 33)
        sep_bytes = a[sep]
        newline = sep_bytes == 10
        _need(np.all(newline | (sep_bytes == 32)))
        # two separators in a row: a blank line, or blanks that str.split() would merge (not handled)
        adjacent = sep[1:] == sep[:-1] + 1
        _need(a[0] != 32 and not np.any(adjacent & ~(newline[1:] & newline[:-1])))
        n = len(sep)
        # token k is the text between separators k-1 and k; without the separators it starts at sep[k-1]+1-k
        offsets = np.empty(n + 1, np.int32)
        offsets[0] = 0
        np.subtract(sep, np.arange(n), out=offsets[1:], casting="unsafe")
        tokens = pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(buf.translate(None, b" \n")))
        encoded = pc.dictionary_encode(tokens)
        self.codes = encoded.indices.to_numpy()
        self.words = encoded.dictionary
        self.word_class = _word_classes(self.words)
        # the codes of the words that give lines and USERDEF counters their structure (-1: not in the chunk)
        found = pc.index_in(self.words, value_set=pa.array(_SPECIAL_WORDS)).fill_null(-1).to_numpy()
        self.special = dict.fromkeys(_SPECIAL_WORDS, -1)
        for code in np.flatnonzero(found >= 0):
            self.special[_SPECIAL_WORDS[found[code]]] = code
        ends = np.flatnonzero(newline)
        firsts = np.empty_like(ends)
        firsts[0] = 0
        firsts[1:] = ends[:-1] + 1
        keep = self.codes[firsts] != self.special[""]  # a blank line is one empty token
        self.firsts, self.ends = firsts[keep], ends[keep]
        self.line_numbers = np.flatnonzero(keep)
        # bytes where each line starts and ends (its newline)
        self.line_start = np.where(self.firsts > 0, sep[self.firsts - 1] + 1, 0)
        self.line_end = sep[self.ends]

    # -- dictionary lookups ------------------------------------------------------------------------

    def _texts(self, codes: np.ndarray) -> list[str]:
        return self.words.take(pa.array(codes)).to_pylist()

    def _used(self, codes: np.ndarray) -> np.ndarray:
        """The distinct codes among ``codes``, ascending."""
        seen = np.zeros(len(self.words), bool)
        seen[codes] = True
        return np.flatnonzero(seen)

    def _numbers(self, codes: np.ndarray) -> np.ndarray:
        """The values of the number tokens ``codes`` (float64, as float() reads them); declines a token
        the state machine would not read as a well-formed number."""
        used = self._used(codes)
        texts = self.words.take(pa.array(used))
        _need(pc.all(pc.match_substring_regex(texts, _NUMBER_RE2)).as_py() is not False)
        values = np.zeros(len(self.words))
        # Arrow parses decimal text correctly rounded, as float() does
        values[used] = pc.cast(pc.replace_substring(texts, ",", ""), pa.float64()).to_numpy()
        return values[codes]

    def _text_spans(self, starts: np.ndarray, stops: np.ndarray) -> pa.Array:
        """The text from byte ``starts[i]`` to ``stops[i]`` for each i (spans in order, not overlapping)."""
        n = len(starts)
        offsets = np.empty(2 * n + 1, np.int32)
        offsets[0:-1:2], offsets[1::2], offsets[-1] = starts, stops, len(self.text)
        spans = pa.StringArray.from_buffers(2 * n, pa.py_buffer(offsets), pa.py_buffer(self.buf))
        return spans.take(pa.array(np.arange(0, 2 * n, 2)))

    # -- the chunk -----------------------------------------------------------------------------------

    def read(self, first_ordinal: int) -> ChunkRead:
        firsts, ends = self.firsts, self.ends
        _need(len(firsts) > 0)
        n_lines = len(firsts)
        first_codes = self.codes[firsts]
        kind = np.zeros(len(self.words) + 1, np.int8)  # the extra last slot takes the words not in the chunk (-1)
        for word in _START_WORDS:
            kind[self.special[word]] = _START
        kind[self.special["Local"]], kind[self.special["Remote"]] = _LOCAL, _SYSTEM
        kind[:-1][pc.match_substring(self.words, "+").to_numpy(zero_copy_only=False)] = _ECHO
        line_kind = kind[first_codes]
        # SYSTEM blocks are kept verbatim; a starter word alone, or Comm without Line, is no block start
        is_start = line_kind == _START
        _need(not np.any(line_kind == _SYSTEM) and not np.any(is_start & (ends == firsts)))
        comm_lines = firsts[first_codes == self.special["Comm"]]
        _need(np.all(self.codes[comm_lines + 1] == self.special["Line"]))

        # command echoes: the session (RATE, LIST section) after each
        echo_lines = np.flatnonzero(line_kind == _ECHO)
        sessions = []
        session = self.session
        for j in echo_lines:
            toks = self.text[self.line_start[j] : self.line_end[j]].split()
            command = command_of_echo(toks)
            _need(command is not None)
            session = after_command(command, *session)
            sessions.append(session)

        # blocks: a start line, identification lines, one Local System line, counter lines; nothing else
        # (text after an echo and before the next block would be kept verbatim)
        pos = np.arange(n_lines)
        last_start = np.maximum.accumulate(np.where(is_start, pos, -1))
        last_echo = np.maximum.accumulate(np.where(line_kind == _ECHO, pos, -1))
        _need(np.all((last_start > last_echo) | (line_kind == _ECHO)))
        starts = np.flatnonzero(is_start)
        n_blocks = len(starts)
        if n_blocks == 0:  # command echoes only
            return ChunkRead({}, np.empty(0, np.int64), session)
        block_of_line = np.cumsum(is_start) - 1
        governing = np.searchsorted(echo_lines, starts) - 1  # the echo before each block, -1: none
        block_rate = np.array([self.session[0]] + [s[0] for s in sessions], bool)[governing + 1]
        block_foreign = np.array([self.session[2]] + [s[2] for s in sessions], bool)[governing + 1]
        _need(not np.any(block_foreign))
        local_lines = np.flatnonzero(line_kind == _LOCAL)
        _need(np.array_equal(block_of_line[local_lines], np.arange(n_blocks)))  # exactly one per block, in it

        # identification and Local System lines, read once per distinct text
        line_start = self.line_start
        headers = pc.dictionary_encode(self._text_spans(line_start[starts], line_start[local_lines]))
        entity_of, values_of = [], []
        for text in headers.dictionary.to_pylist():
            found = _cached(_HEADERS, text, _read_header)
            _need(found is not None)
            entity_of.append(found[0])
            values_of.append(found[1])
        self.header_code = headers.indices.to_numpy()
        self.header_values = values_of
        block_entity = np.array(entity_of, np.int8)[self.header_code]
        locals_ = pc.dictionary_encode(self._text_spans(line_start[local_lines], self.line_end[local_lines]))
        found_locals = [_cached(_LOCALS, text, read_local_line) for text in locals_.dictionary.to_pylist()]
        _need(None not in found_locals)
        self.local_code = locals_.indices.to_numpy()
        self.local_system = pa.array([f[0] for f in found_locals], pa.string())
        self.local_start = np.array([f[1] for f in found_locals], np.int64)
        self.local_delta = np.array([f[2] for f in found_locals], np.int64)
        delta_s = self.local_delta[self.local_code] / 1e6

        # counter lines: after their block's Local System line (lines before the first block are echoes)
        line_block = np.maximum(block_of_line, 0)
        counter = (line_kind == _OTHER) & (pos > local_lines[line_block])
        userdef_block = block_entity == _USERDEF
        userdef_line = counter & userdef_block[line_block]
        generic_line = counter & ~userdef_block[line_block]

        # record ordinals in file order: a generic block at its start line, a USERDEF counter line each
        is_record = userdef_line.copy()
        is_record[starts] = ~userdef_block
        ordinal_of_line = first_ordinal + np.cumsum(is_record) - 1

        tables: dict[str, pa.Table] = {}
        labels = self._labels(np.flatnonzero(generic_line), block_of_line, delta_s, block_rate)
        entity_of_label = block_entity[labels.block]
        for e in range(len(_ENTITIES)):
            rows = np.flatnonzero(block_entity == e)
            if len(rows) and e != _USERDEF:
                mine = np.flatnonzero(entity_of_label == e)
                tables[_TABLE_NAMES[e]] = self._generic_table(e, rows, ordinal_of_line[starts[rows]], labels, mine)
        lines = np.flatnonzero(userdef_line)
        if len(lines):
            tables[_TABLE_NAMES[_USERDEF]] = self._userdef_table(
                lines, block_of_line[lines], ordinal_of_line[lines], delta_s
            )
        return ChunkRead(tables, self.line_numbers[is_record], session)

    # -- counters of the generic entities ----------------------------------------------------------

    def _labels(self, lines: np.ndarray, block_of_line: np.ndarray, delta_s, block_rate) -> _Labels:
        """The label tokens of counter lines ``lines`` with their values."""
        firsts, ends = self.firsts[lines], self.ends[lines]
        lengths = ends - firsts + 1
        total = int(lengths.sum())
        line_offset = np.cumsum(lengths) - lengths  # where each line's tokens begin among the line tokens
        tok = np.arange(total) - np.repeat(line_offset - firsts, lengths)
        block = np.repeat(block_of_line[lines], lengths)
        code = self.codes[tok]

        cls = self.word_class[code]
        # label [number [unit]] groups: a number follows a label, a unit a number, in the same line
        prev = np.empty_like(cls)
        prev[:1] = _LINE_START
        prev[1:] = cls[:-1]
        prev[line_offset] = _LINE_START
        _need(not np.any(((cls == _NUM) & (prev != _LABEL)) | ((cls == _UNIT) & (prev != _NUM))))
        cls = np.append(cls, [_LINE_START, _LINE_START])  # so that the two tokens after the last label exist

        at = np.flatnonzero(cls[:-2] == _LABEL)
        label_codes = self._used(code[at])
        infos = [label_info(word) for word in self._texts(label_codes)]
        _need(None not in infos)
        label_id = np.full(len(self.words), -1, np.int32)
        label_id[label_codes] = np.arange(len(label_codes))
        label = label_id[code[at]]
        label_kind = np.array([_KIND_OF[id(info[1])] for info in infos], np.int8)

        valued = cls[at + 1] == _NUM
        v = at[valued]
        has_unit = cls[v + 2] == _UNIT
        unit_id = np.zeros(len(v), np.int64)
        if np.any(has_unit):
            unit_of_code = np.full(len(self.words), -1, np.int64)
            unit_codes = self._used(code[v[has_unit] + 2])
            for c, word in zip(unit_codes, self._texts(unit_codes)):
                unit_of_code[c] = _UNIT_NAMES.index(word) if word in _UNIT_NAMES else -1
            unit_id[has_unit] = unit_of_code[code[v[has_unit] + 2]]
        _need(np.all(unit_id >= 0))
        kind = label_kind[label[valued]]
        _need(np.all(_VALID[kind, unit_id]))
        factor = _FACTOR[kind, unit_id]
        # value *= factor * delta_s if per_delta else factor: the same operations in the same order
        value = self._numbers(code[v + 1]) * np.where(_PER_DELTA[kind, unit_id], factor * delta_s[block[v]], factor)
        _need(np.all(np.abs(value) < _TWO63))  # also refuses nan
        rounded = np.zeros(len(at), np.int64)
        rounded[valued] = np.rint(value).astype(np.int64)

        # the block's RATE: from the last unit that tells, else the session's
        evidence = _EVIDENCE[kind, unit_id]
        told = np.flatnonzero(evidence)
        told_block = block[v[told]]
        last = np.ones(len(told), bool)  # the last of its block (tokens come in block order)
        last[:-1] = told_block[1:] != told_block[:-1]
        rate = block_rate.copy()
        rate[told_block[last]] = evidence[told[last]] > 0
        resp = np.flatnonzero(kind == _RESP)
        resp_at = np.flatnonzero(valued)[resp]
        return _Labels(block[at], label, rounded, infos, resp_at, value[resp], rate[block[v[resp]]])

    def _generic_table(
        self, e: int, rows: np.ndarray, ordinals: np.ndarray, labels: _Labels, mine: np.ndarray
    ) -> pa.Table:
        """The rows of entity ``e``'s blocks ``rows``: identification and Local System columns per block, the
        counter matrix (block x column) filled from their label tokens ``mine``."""
        schema = _SCHEMAS[e]
        contract = {name: i for i, (name, _t) in enumerate(schema)}
        counters = _COUNTERS[e]
        columns = list(counters)  # counter columns of the matrix: the contract's, then the extra labels
        index = {name: i for i, name in enumerate(columns)}

        row_of_block = np.full(len(self.header_code), -1, np.int64)
        row_of_block[rows] = np.arange(len(rows))
        row = row_of_block[labels.block[mine]]
        label = labels.label[mine]
        infos = labels.infos

        # the label's column and, for RESP labels, its count column; labels outside the contract add
        # columns in the order first seen (a RESP label's count column right after it, as _Table.label does)
        present = np.flatnonzero(np.bincount(label, minlength=len(infos)))
        adding = [i for i in present if any(name not in index for name in infos[i][::2] if name)]
        adding.sort(key=lambda i: np.argmax(label == i))
        label_column = np.full(len(infos), -1, np.int64)
        count_column = np.full(len(infos), -1, np.int64)
        for i in [i for i in present if i not in adding] + adding:
            column, _conversions, count = infos[i]
            for name in (column, count):
                if name is not None and name not in index:
                    _need(name not in contract)  # an identification or header column: not a counter
                    index[name] = len(columns)
                    columns.append(name)
            label_column[i] = index[column]
            if count is not None:
                count_column[i] = index[count]

        n = len(rows)
        cell = label_column[label] * n + row  # column-major: each column is one contiguous slice
        _need(np.bincount(cell, minlength=len(columns) * n).max(initial=0) <= 1)  # a label twice in a block
        matrix = np.zeros(len(columns) * n, np.int64)
        null = np.ones(len(columns) * n, bool)
        matrix[cell] = labels.value[mine]
        null[cell] = False

        # RESP counters: RATE ON the printed time is an average over the block's count
        resp = np.flatnonzero(row_of_block[labels.block[labels.resp_at]] >= 0)
        if len(resp):
            at = labels.resp_at[resp]
            resp_row = row_of_block[labels.block[at]]
            count_cell = count_column[labels.label[at]] * n + resp_row
            count = np.where(null[count_cell], 0, matrix[count_cell]).astype(np.float64)
            time, rate_on = labels.resp_time[resp], labels.resp_rate_on[resp]
            product = time * count  # round(us * (row[count_i] or 0))
            _need(np.all(np.abs(product[rate_on]) < _TWO63))
            resp_cell = label_column[labels.label[at]] * n + resp_row
            matrix[resp_cell] = np.rint(np.where(rate_on, product, time)).astype(np.int64)

        out = self._block_columns(e, rows, ordinals)
        for i, name in enumerate(columns):
            part = slice(i * n, (i + 1) * n)
            out[name] = pa.array(matrix[part], pa.int64(), mask=null[part])
        names = [name for name, _t in schema] + columns[len(counters) :]
        return pa.table([out[name] for name in names], names=names)

    # -- USERDEF -----------------------------------------------------------------------------------

    def _userdef_table(self, lines: np.ndarray, blocks: np.ndarray, ordinals: np.ndarray, delta_s) -> pa.Table:
        """``NAME [VALUE [UNIT]] TYPEWORD INDEX`` or ``NAME [VALUE [UNIT]] Max N [#] Queue INDEX``, one record
        per line; the checks of ``_userdef_problem``, on arrays."""
        f, e = self.firsts[lines], self.ends[lines]
        n = e - f + 1
        _need(np.all((n >= 3) & (n <= 8)))
        code = self.codes

        names = self._used(code[f])
        name_texts = self._texts(names)
        _need(all(USERDEF_NAME.fullmatch(name) for name in name_texts))
        name_id = np.zeros(len(self.words), np.int64)
        name_id[names] = np.arange(len(names))
        name_column = pa.array([name.upper() for name in name_texts], pa.string()).take(pa.array(name_id[code[f]]))

        index = self._small_ints(code[e], MAX_INT32)
        types = self._used(code[e - 1])
        type_of_code = np.full(len(self.words), -1, np.int64)
        kind_of_code = np.zeros(len(self.words), np.int64)
        for c, word in zip(types, self._texts(types)):
            found = USERDEF_TYPES.get(word.lower())
            _need(found is not None)
            type_of_code[c], kind_of_code[c] = found[0], _KINDS.index(found[1])
        kind = kind_of_code[code[e - 1]]

        # "Max N [#]": at most one Max, followed by its number and maybe '#', right before the type word
        middle = n - 3
        max_code, hash_code = self.special["Max"], self.special["#"]
        is_max = [(middle >= j) & (code[np.minimum(f + j, len(code) - 1)] == max_code) for j in range(1, 6)]
        max_count = np.sum(is_max, axis=0)
        _need(np.all(max_count <= 1))
        max_at = np.sum([j * m for j, m in zip(range(1, 6), is_max)], axis=0)  # 0: no Max
        has_max = max_at > 0
        tail = middle - max_at
        _need(np.all(~has_max | (tail == 1) | ((tail == 2) & (code[e - 2] == hash_code))))
        _need(np.all(~has_max | (kind == _KINDS.index(QUEUE))))
        max_value = np.zeros(len(lines), np.int64)
        max_value[has_max] = self._small_ints(code[(f + max_at + 1)[has_max]], MAX_INT64, commas=True)

        # the value: nothing, a number, or a number and a unit
        value_tokens = np.where(has_max, max_at - 1, middle)
        _need(np.all(value_tokens <= 2))
        valued = value_tokens >= 1
        unit_id = np.zeros(len(lines), np.int64)
        with_unit = value_tokens == 2
        if np.any(with_unit):
            unit_codes = self._used(code[f[with_unit] + 2])
            unit_of_code = np.full(len(self.words), -1, np.int64)
            for c, word in zip(unit_codes, self._texts(unit_codes)):
                unit_of_code[c] = _UNIT_NAMES.index(word) if word in _UNIT_NAMES else -1
            unit_id[with_unit] = unit_of_code[code[f[with_unit] + 2]]
        _need(np.all(unit_id[valued] >= 0) and np.all(_VALID[kind[valued], unit_id[valued]]))
        k, u = kind[valued], unit_id[valued]
        factor = _FACTOR[k, u]
        value = self._numbers(code[f[valued] + 1]) * np.where(
            _PER_DELTA[k, u], factor * delta_s[blocks[valued]], factor
        )
        _need(np.all(np.abs(value) < _TWO63))
        counter_value = np.zeros(len(lines), np.int64)
        counter_value[valued] = np.rint(value).astype(np.int64)

        out = self._block_columns(_USERDEF, blocks, ordinals)
        out["name"] = name_column
        out["type"] = pa.array(type_of_code[code[e - 1]], pa.int32())
        out["index"] = pa.array(index, pa.int32())
        out["max_value"] = pa.array(max_value, pa.int64(), mask=~has_max)
        out["counter_value"] = pa.array(counter_value, pa.int64())
        names = [name for name, _t in _SCHEMAS[_USERDEF]]
        return pa.table([out[name] for name in names], names=names)

    def _small_ints(self, codes: np.ndarray, limit: int, commas: bool = False) -> np.ndarray:
        """Tokens that must be digits (``str.isdigit``, after dropping commas if ``commas``) up to ``limit``."""
        used = self._used(codes)
        of_code = np.zeros(len(self.words), np.int64)
        for c, word in zip(used, self._texts(used)):
            digits = word.replace(",", "") if commas else word
            _need(digits.isdigit() and int(digits) <= limit)
            of_code[c] = int(digits)
        return of_code[codes]

    # -- per block ---------------------------------------------------------------------------------

    def _block_columns(self, e: int, blocks: np.ndarray, ordinals: np.ndarray) -> dict[str, pa.Array]:
        """The columns a row takes from its block: ordinal, header, Local System line, identification."""
        n = len(blocks)
        local = self.local_code[blocks]
        start, delta = self.local_start[local], self.local_delta[local]
        out = {
            "record_ordinal": pa.array(ordinals, pa.int64()),
            "source_form": pa.repeat(SOURCE_FORM, n),
            "system_name": self.local_system.take(pa.array(local)),
            "from_timestamp": pa.array(start, pa.int64()).cast(_TIMESTAMP),
            "to_timestamp": pa.array(start + delta, pa.int64()).cast(_TIMESTAMP),
            "delta_time": pa.array(delta, pa.int64()),
        }
        # identification values: one list per column over the distinct headers of these blocks
        header = self.header_code[blocks]
        distinct = np.flatnonzero(np.bincount(header))
        which = np.zeros(len(self.header_values), np.int64)
        which[distinct] = np.arange(len(distinct))
        take = pa.array(which[header])
        counters = set(_COUNTERS[e])
        for i, (name, t) in enumerate(_SCHEMAS[e]):
            if name in out or name in counters:
                continue
            column = [self.header_values[h].get(i) for h in distinct]
            out[name] = pa.nulls(n, t) if not any(v is not None for v in column) else pa.array(column, t).take(take)
        return out
