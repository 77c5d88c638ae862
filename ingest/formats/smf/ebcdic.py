"""EBCDIC code pages for SMF text fields.

SMF text is EBCDIC, blank (X'40') or NUL padded. MVS names (job names, system ids, data set names)
use letters, digits, ``$#@`` and punctuation that every Latin-1 EBCDIC page agrees on, so **cp037**
(Python's built-in codec) is the default. z/OS UNIX path names (e.g. SMF 119 FTP file names starting
with ``/``) are written in **IBM-1047**, which Python does not ship. IBM-1047 differs from cp037 in
six graphic code points only::

    byte    cp037   IBM-1047
    X'5F'   ¬       ^
    X'B0'   ^       ¬
    X'AD'   Ý       [
    X'BD'   ¨       ]
    X'BA'   [       Ý
    X'BB'   ]       ¨

(checked against the IBM1047 table of GNU iconv). z/OS UNIX also treats X'15' (NEL) as its newline
where cp037 text uses X'25' (LF); a path name contains neither, so the table keeps the standard
mapping for both.

Both pages map the 256 byte values one-to-one onto the 256 Latin-1 code points, so a 256-entry
lookup table turns an EBCDIC byte matrix into Latin-1 bytes in one numpy indexing step.
"""

from __future__ import annotations

import numpy as np

CP037_TO_LATIN1 = np.frombuffer(bytes(range(256)).decode("cp037").encode("latin-1"), dtype=np.uint8)

_CP1047_SWAPS = {0x5F: "^", 0xB0: "¬", 0xAD: "[", 0xBD: "]", 0xBA: "Ý", 0xBB: "¨"}
CP1047_TO_LATIN1 = CP037_TO_LATIN1.copy()
for _byte, _char in _CP1047_SWAPS.items():
    CP1047_TO_LATIN1[_byte] = ord(_char)


TABLES = {"cp037": CP037_TO_LATIN1, "cp1047": CP1047_TO_LATIN1}


def decode(raw: bytes, codepage: str = "cp037") -> str:
    """One EBCDIC field to text, blanks and NULs trimmed on both sides."""
    return raw.translate(TABLES[codepage].tobytes()).decode("latin-1").strip(" \x00")


def decode_name(raw: bytes) -> str:
    """A data set name or a z/OS UNIX path: IBM-1047 when it starts with ``/`` (X'61' in both pages)."""
    return decode(raw, "cp1047" if raw[:1] == b"\x61" else "cp037")


def encode(text: str, width: int | None = None, codepage: str = "cp037") -> bytes:
    """Text to EBCDIC, blank padded (or cut) to ``width``; used by the generator and the tests."""
    if codepage == "cp1047":
        reverse = {v: k for k, v in enumerate(CP1047_TO_LATIN1.tolist())}
        out = bytes(reverse[b] for b in text.encode("latin-1"))
    else:
        out = text.encode("cp037")
    if width is not None:
        out = out[:width].ljust(width, b"\x40")
    return out
