"""DDL text -> record layouts: the byte map of a binary MEASURE structured record.

MEASURE describes its structured files in DDL (the MEASDDLS dictionary). perfdb reads that text instead of
hard-coding offsets, so a user whose Measure version lays records out differently hands over their own DDL
(``perfdb ingest --ddl FILE``). A sample this module reads (the ZMS line record of the Measure Reference
Manual, abridged):

    DEFINITION zmsline-id.
    02 device-name type character 8.
    02 logical-device type binary 32 unsigned.
    ...
    end
    RECORD zmsline. FILE is "zmsline" ENTRY-SEQUENCED.
    02 hdr type zmsheader.
    02 ctr type zmsline-ctrs.
    02 id type zmsline-id.
    end

The subset understood: ``DEFINITION``/``DEF`` and ``RECORD`` blocks closed by ``end`` (or by the next
block), ``DEFINITION a TYPE b.`` aliases, level numbers, ``type binary 8/16/32/64 [unsigned]``,
``type character N`` (also ``pic "X(N)"``), ``type <definition-or-record>``, ``redefines``,
``occurs N [times]``, groups, ``FILE is "..."``; comment lines start with ``*``, ``?`` lines are compiler
directives and are ignored, as are top-level statements that do not describe layouts (``CONSTANT`` ...).

Layout rules: items are packed in declared order with no implicit filler (the manual inserts explicit
``reserved-n`` items wherever alignment needs it); a ``redefines`` item overlays the item it names; a
group's size is the sum of its items. Output: ``Layout`` objects whose ``fields`` are flattened to
snake_case columns -- ``program-file-name.volume`` -> ``program_file_name_volume``; the items of a
``type <definition>`` reference (``02 hdr type zmsheader``) keep their own names (``loadid``, not
``hdr_loadid``) unless that would clash; ``occurs`` copies get the index after the group name (``c0_hits``);
``FILLER`` and ``reserved*`` items take bytes but give no column.

API (used by the binary parser and the generator; keep stable):

    load_layouts(extra_paths: list[Path] = ()) -> dict[str, Layout]   record name -> layout; the shipped
                                                  DDL (ddl/*.ddl, ddl/constructed/*.ddl) overlaid by extra files
    Layout.name, Layout.record_length, Layout.fields, Layout.table ("measure_cpu" ...)
    Layout.encode(record: dict) -> bytes          one record keyed by contract column names (raw units,
                                                  timestamps as datetime); missing items are zero/blank
    Layout.pack(columns: dict[str, list], n) -> bytes   n records from columns keyed by field names
    Layout.decode_columns(buf, n) -> dict[str, np.ndarray | pa.Array]   n whole records -> columns
                                                  (int64 arrays; text padded to the item's width)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import pyarrow as pa

from ingest.formats.measure import normalize

SHIPPED_DDL_DIR = Path(__file__).with_name("ddl")


def snake(name: str) -> str:
    """A DDL name as a column name: lower case, hyphens to underscores (``DBIO-reads`` -> ``dbio_reads``)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


class DdlError(ValueError):
    """DDL text perfdb cannot turn into a layout; names the file and line."""


@dataclass
class _Item:
    level: int
    name: str
    line: int
    type_spec: tuple | None = None  # ("binary", bits, unsigned) | ("character", n) | ("ref", name)
    redefines: str | None = None
    occurs: int = 1
    children: list["_Item"] = field(default_factory=list)


@dataclass
class _Block:
    kind: str  # "record" | "definition"
    name: str
    source: str
    items: list[_Item] = field(default_factory=list)
    alias_of: str | None = None  # DEFINITION a TYPE b.
    file_name: str | None = None


@dataclass(frozen=True)
class Field:
    """One decodable item: column name, byte offset and size inside the record, and how to read it."""

    name: str  # flattened snake_case column name
    offset: int
    size: int
    kind: str  # "int" | "uint" | "char"

    @property
    def numpy_type(self) -> str:
        if self.kind == "char":
            return f"S{self.size}"
        return (">i" if self.kind == "int" else ">u") + str(self.size)


_TOKEN = re.compile(r'"[^"]*"|[^\s."]+|\.')
_FILLER = re.compile(r"^(filler|reserved(-\d+)?)$", re.IGNORECASE)


def _tokens(text: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("*", "?")):
            continue
        out.extend((m.group(0), lineno) for m in _TOKEN.finditer(line))
    return out


def _statements(text: str) -> list[tuple[list[str], int]]:
    """Split into statements ending with '.'; a bare END is a statement of its own."""
    statements: list[tuple[list[str], int]] = []
    current: list[str] = []
    start = 0
    for tok, line in _tokens(text):
        if tok == ".":
            if current:
                statements.append((current, start))
            current = []
            continue
        if tok.lower() == "end" and not current:
            statements.append((["end"], line))
            continue
        if not current:
            start = line
        current.append(tok)
    if current:
        statements.append((current, start))
    return statements


def _parse_type(words: list[str], i: int, where: str) -> tuple[tuple, int]:
    kind = words[i].lower()
    if kind == "binary":
        try:
            bits = int(words[i + 1])
        except (IndexError, ValueError):
            raise DdlError(f"{where}: 'type binary' needs a size of 8, 16, 32 or 64") from None
        if bits not in (8, 16, 32, 64):
            raise DdlError(f"{where}: binary {bits}: expected 8, 16, 32 or 64 bits")
        unsigned = i + 2 < len(words) and words[i + 2].lower() == "unsigned"
        return ("binary", bits, unsigned), i + (3 if unsigned else 2)
    if kind in ("character", "char"):
        try:
            return ("character", int(words[i + 1])), i + 2
        except (IndexError, ValueError):
            raise DdlError(f"{where}: 'type character' needs a length") from None
    if kind in ("float", "real", "complex", "logical", "enum", "bit", "timestamp"):
        raise DdlError(f"{where}: type {words[i]} is not supported (binary and character items only)")
    return ("ref", words[i].lower()), i + 1


def _parse_item(words: list[str], line: int, source: str) -> _Item:
    where = f"{source}: line {line}"
    if len(words) < 2:
        raise DdlError(f"{where}: expected 'NN item-name ...', found {' '.join(words)!r}")
    item = _Item(level=int(words[0]), name=words[1], line=line)
    i = 2
    while i < len(words):
        w = words[i].lower()
        if w == "type":
            if i + 1 >= len(words):
                raise DdlError(f"{where}: 'type' without a type")
            item.type_spec, i = _parse_type(words, i + 1, where)
        elif w in ("pic", "picture"):
            pic = words[i + 1].strip('"').upper() if i + 1 < len(words) else ""
            m = re.fullmatch(r"X(?:\((\d+)\))?|(X+)", pic)
            if not m:
                raise DdlError(f"{where}: pic {pic!r}: only character pictures X(n) are supported")
            item.type_spec = ("character", int(m.group(1) or len(m.group(2) or "X")))
            i += 2
        elif w == "redefines":
            if i + 1 >= len(words):
                raise DdlError(f"{where}: 'redefines' without an item name")
            item.redefines = words[i + 1].lower()
            i += 2
        elif w == "occurs":
            try:
                item.occurs = int(words[i + 1])
            except (IndexError, ValueError):
                raise DdlError(f"{where}: 'occurs' needs a count") from None
            i += 3 if i + 2 < len(words) and words[i + 2].lower() == "times" else 2
        else:  # value, heading, display, must be ...: presentation clauses, no effect on layout
            i += 1
    return item


def parse_ddl(text: str, source: str = "<ddl>") -> list[_Block]:
    """DDL text -> DEFINITION and RECORD blocks (not yet laid out)."""
    blocks: list[_Block] = []
    block: _Block | None = None
    stack: list[_Item] = []
    for words, line in _statements(text):
        head = words[0].lower()
        if head in ("definition", "def", "record"):
            if len(words) < 2:
                raise DdlError(f"{source}: line {line}: {words[0]} without a name")
            block = _Block("record" if head == "record" else "definition", words[1].lower(), source)
            rest = [w.lower() for w in words[2:]]
            if "type" in rest and rest.index("type") + 1 < len(rest):
                block.alias_of = rest[rest.index("type") + 1]
            elif rest[:2] == ["def", "is"] and len(rest) > 2:
                block.alias_of = rest[2]
            blocks.append(block)
            stack = []
        elif head == "end":
            block, stack = None, []
        elif head == "file" and block is not None and block.kind == "record":
            names = [w.strip('"') for w in words[1:] if w.lower() != "is"]
            block.file_name = names[0].lower() if names else None
        elif head.isdigit():
            if block is None:
                raise DdlError(f"{source}: line {line}: item outside a DEFINITION or RECORD")
            item = _parse_item(words, line, source)
            while stack and stack[-1].level >= item.level:
                stack.pop()
            (stack[-1].children if stack else block.items).append(item)
            stack.append(item)
        # anything else at top level (CONSTANT, OUTPUT, SPI declarations ...) does not shape a layout
    return blocks


@dataclass(frozen=True)
class _Path:
    parts: tuple[tuple[str, bool], ...]  # (name, came from a type reference)

    def column(self, with_refs: bool) -> str:
        names = [snake(n) for n, is_ref in self.parts if with_refs or not is_ref]
        # a group whose items repeat its name (GMOM.GMOM-node) gives gmom_node, not gmom_gmom_node
        kept = [n for n, nxt in zip(names, names[1:] + [""]) if not nxt.startswith(n + "_")]
        return "_".join(kept)


class Dictionary:
    """Parsed DDL files; later files override earlier ones by block name."""

    def __init__(self, blocks: Iterable[_Block] = ()):
        self.blocks: dict[str, _Block] = {}
        for b in blocks:
            self.blocks[b.name] = b

    def overlay(self, blocks: Iterable[_Block]) -> "Dictionary":
        d = Dictionary(self.blocks.values())
        for b in blocks:
            d.blocks[b.name] = b
        return d

    def records(self) -> list[str]:
        return [n for n, b in self.blocks.items() if b.kind == "record"]

    def layout(self, name: str) -> "Layout":
        block = self._block(name.lower(), f"layout {name}")
        raw: list[tuple[_Path, int, int, str]] = []
        length = self._place(self._items_of(block), 0, (), raw, (name.lower(),), block.source)
        counts: dict[str, int] = {}
        for p, *_ in raw:
            counts[p.column(False)] = counts.get(p.column(False), 0) + 1
        fields = []
        seen: set[str] = set()
        for p, offset, size, kind in raw:
            col = p.column(False) if counts[p.column(False)] == 1 else p.column(True)
            if col in seen:
                raise DdlError(f"{block.source}: record {name}: two items both become column {col!r}")
            seen.add(col)
            fields.append(Field(col, offset, size, kind))
        file_name = block.file_name or name.lower()
        return Layout(name.lower(), length, tuple(fields), file_name)

    def _block(self, name: str, where: str) -> _Block:
        if name not in self.blocks:
            raise DdlError(f"{where}: type {name!r} is not defined in any DDL file read")
        return self.blocks[name]

    def _items_of(self, block: _Block, depth: int = 0) -> list[_Item]:
        if block.alias_of:
            if depth > 16:
                raise DdlError(f"{block.source}: {block.name}: TYPE aliases loop")
            return self._items_of(self._block(block.alias_of, f"{block.source}: {block.name}"), depth + 1)
        return block.items

    def _place(self, items, base, prefix, out, active, source) -> int:
        """Lay ``items`` out from ``base``; append leaves to ``out``; return the bytes they span."""
        offset = base
        end = base
        starts: dict[str, tuple[int, int]] = {}
        for item in items:
            where = f"{source}: line {item.line}: {item.name}"
            if item.redefines:
                if item.redefines not in starts:
                    raise DdlError(
                        f"{where}: redefines {item.redefines!r}, which is not an earlier item of the same group"
                    )
                start = starts[item.redefines][0]
            else:
                start = offset
            unit = self._unit_size(item, active, source)
            for k in range(item.occurs):
                index = str(k) if item.occurs > 1 else ""
                is_ref = item.type_spec is not None and item.type_spec[0] == "ref" and not index
                path = prefix + ((item.name + index, is_ref),)
                at = start + k * unit
                if item.type_spec is None:
                    if not item.children:
                        raise DdlError(f"{where}: an item needs a type or subordinate items")
                    self._place(item.children, at, path, out, active, source)
                elif item.type_spec[0] == "ref":
                    ref = item.type_spec[1]
                    block = self._block(ref, where)
                    self._place(self._items_of(block), at, path, out, active + (ref,), block.source)
                elif not _FILLER.match(item.name):
                    kind = "char" if item.type_spec[0] == "character" else ("uint" if item.type_spec[2] else "int")
                    out.append((_Path(path), at, unit, kind))
            starts[item.name.lower()] = (start, unit * item.occurs)
            if not item.redefines:
                offset = start + unit * item.occurs
            end = max(end, start + unit * item.occurs)
        return end - base

    def _unit_size(self, item: _Item, active: tuple, source: str) -> int:
        """Bytes of one occurrence of ``item``."""
        spec = item.type_spec
        where = f"{source}: line {item.line}: {item.name}"
        if spec is None:
            return self._place(item.children, 0, (), [], active, source)
        if spec[0] == "binary":
            return spec[1] // 8
        if spec[0] == "character":
            return spec[1]
        if spec[1] in active:
            raise DdlError(f"{where}: type {spec[1]} includes itself")
        block = self._block(spec[1], where)
        return self._place(self._items_of(block), 0, (), [], active + (spec[1],), block.source)


@dataclass(frozen=True)
class Layout:
    """The byte map of one structured record."""

    name: str  # record name, lower case (``zmscpu``)
    record_length: int
    fields: tuple[Field, ...]
    file_name: str = ""  # FILE is "..." (the Enscribe file the record lives in)

    @cached_property
    def by_name(self) -> dict[str, Field]:
        return {f.name: f for f in self.fields}

    @property
    def table(self) -> str:
        return normalize.table_for_record(self.name)

    @cached_property
    def numpy_dtype(self) -> np.dtype:
        return np.dtype(
            {
                "names": [f.name for f in self.fields],
                "formats": [f.numpy_type for f in self.fields],
                "offsets": [f.offset for f in self.fields],
                "itemsize": self.record_length,
            }
        )

    def decode_columns(self, buf, n: int) -> dict[str, object]:
        """``n`` whole records -> {column: int64 ndarray | fixed-width Arrow string array}."""
        arr = np.frombuffer(buf, dtype=self.numpy_dtype, count=n)
        return {
            f.name: _decode_chars(arr[f.name], f.size) if f.kind == "char" else arr[f.name].astype(np.int64)
            for f in self.fields
        }

    def pack(self, columns: dict[str, Sequence], n: int) -> bytes:
        """``n`` records from columns keyed by field name; absent items are zero (numbers) or blank (text)."""
        unknown = set(columns) - set(self.by_name)
        if unknown:
            raise KeyError(f"record {self.name} has no item(s) {sorted(unknown)}")
        arr = np.zeros(n, dtype=self.numpy_dtype)
        for f in self.fields:
            if f.kind == "char":
                values = columns.get(f.name)
                others = [g for g in self.fields if g is not f and _overlaps(f, g)]
                if values is None and any(g.name in columns or g.kind != "char" for g in others):
                    continue  # its bytes belong to an item that was given, or to a number: leave them
                texts = values if values is not None else [""] * n
                arr[f.name] = np.array(
                    [(t or "").encode("ascii", "replace")[: f.size].ljust(f.size) for t in texts], dtype=f"S{f.size}"
                )
        for f in self.fields:
            if f.kind != "char" and f.name in columns:
                values = np.array([0 if v is None else int(v) for v in columns[f.name]], dtype=np.int64)
                lo, hi = _int_range(f)
                bad = (values < lo) | (values > hi)
                if bad.any():
                    raise ValueError(
                        f"record {self.name}: item {f.name} ({f.kind} {f.size * 8}) cannot hold {int(values[bad][0])}"
                    )
                arr[f.name] = values
        return arr.tobytes()

    def encode(self, record: dict) -> bytes:
        """One record keyed by contract column names (raw units, timestamps as datetime) -> bytes."""
        return self.pack(normalize.to_items(self, [record]), 1)


def _overlaps(a: Field, b: Field) -> bool:
    return a.offset < b.offset + b.size and b.offset < a.offset + a.size


def _int_range(f: Field) -> tuple[int, int]:
    bits = f.size * 8
    if f.kind == "uint":
        return 0, min(2**bits - 1, 2**63 - 1)
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def _decode_chars(col: np.ndarray, width: int) -> pa.Array:
    """Fixed-width text (blank or NUL padded, ASCII) -> Arrow strings of ``width`` characters (the
    normalizer trims the padding and turns blank items into NULL)."""
    n = len(col)
    m = np.ascontiguousarray(col).view(np.uint8).reshape(n, width).copy()
    m[m == 0] = 0x20  # zero-filled items (absent in the data file) read as blanks
    m[m > 0x7E] = 0x3F  # not ASCII: keep the position visible as '?' rather than fail the batch
    m[m < 0x20] = 0x3F
    offsets = np.arange(0, (n + 1) * width, width, dtype=np.int32)
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(m))


@lru_cache(maxsize=1)
def shipped_dictionary() -> Dictionary:
    """The DDL that ships with perfdb (published records + the constructed ones in ddl/constructed/)."""
    blocks: list[_Block] = []
    names: dict[str, str] = {}
    for path in sorted(SHIPPED_DDL_DIR.rglob("*.ddl")):
        for b in parse_ddl(path.read_text(encoding="utf-8"), path.name):
            if b.name in names:
                raise DdlError(f"{path.name}: {b.name} is also defined in {names[b.name]}")
            names[b.name] = path.name
            blocks.append(b)
    return Dictionary(blocks)


def read_ddl_files(paths: Iterable[Path]) -> list[_Block]:
    blocks: list[_Block] = []
    for p in paths:
        p = Path(p)
        try:
            text = p.read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            raise DdlError(f"{p}: cannot read DDL file: {e.strerror}") from None
        blocks.extend(parse_ddl(text, str(p)))
    return blocks


def load_layouts(extra_paths: Iterable[Path] = ()) -> dict[str, Layout]:
    """Record name -> Layout for every RECORD in the shipped DDL, overlaid by ``extra_paths``."""
    stamped = []
    for p in extra_paths:
        try:
            stamped.append((str(p), Path(p).stat().st_mtime_ns))
        except OSError as e:
            raise DdlError(f"{p}: cannot read DDL file: {e.strerror}") from None
    return dict(_layouts(tuple(stamped)))


@lru_cache(maxsize=32)
def _layouts(extra: tuple[tuple[str, int], ...]) -> dict[str, Layout]:
    dictionary = shipped_dictionary().overlay(read_ddl_files(Path(p) for p, _ in extra))
    return {name: dictionary.layout(name) for name in dictionary.records()}


def header_layout() -> Layout:
    """The ZMS common header alone (``zmsheader``): what sniffing looks for at the start of a file."""
    return _header_layout()


@lru_cache(maxsize=1)
def _header_layout() -> Layout:
    return shipped_dictionary().layout("zmsheader")
