"""OS/2 Communications Manager/2 node definitions (an ``.NDF`` file): the modes and links seed 000's CM/2
section tunes (L486-L553): a mode's RU size, receive pacing window and class of service.

Sample (document-derived: the #BATCH mode as seed 000 tunes it, RU size 16,384 (L500) and a receive pacing
window of 63 (L510), in the statements of a CM/2 .NDF; each statement ends with ``;``)::

    DEFINE_LOCAL_CP  FQ_CP_NAME(USIBMRA.OS2A)
                     CP_ALIAS(OS2A)
                     NODE_TYPE(EN);
    DEFINE_MODE  MODE_NAME(#BATCH)
                 COS_NAME(#BATCH)
                 DEFAULT_RU_SIZE(NO)
                 MAX_RU_SIZE_UPPER_BOUND(16384)
                 RECEIVE_PACING_WINDOW(63);

Output: one row of ``raw.parameter_listings`` per operand, the keyword as the parameter, on the line it is
written. A ``DEFINE_MODE``'s operands are the node ``<host>/<mode>`` (``OS2A/#BATCH``): each mode is checked on
its own; the other statements' are the host's (``reader``). An operand that is not ``KEYWORD(value)`` is
rejected with its line, and a statement never ended by ``;`` on the line it starts; the rest loads.
"""

from __future__ import annotations

import re

from ingest.formats.listings.keyword_statements import sniffs, statements
from ingest.formats.listings.reader import ListingParser, Parsed
from ingest.formats.listings.settings import setting

VERB = re.compile(r"^\s*(?:DEFINE|START)_[A-Z_]+(?:\s|;|$)")


class Os2Ndf(ListingParser):
    format = "listing.os2_ndf"

    def sniff(self, head: bytes, name: str) -> bool:
        return sniffs(head, VERB)

    def settings(self, text: str, node: str) -> Parsed:
        for stmt in statements(text, terminator=";"):
            if isinstance(stmt, tuple):
                yield stmt
                continue
            mode = next((o.value for o in stmt.operands if o.name == "MODE_NAME"), None)
            where = f"{node}/{mode}" if stmt.verb == "DEFINE_MODE" and mode else node
            for o in stmt.operands:
                yield o.line, setting(where, o.name, o.value, None, o.line), stmt.line


PARSER = Os2Ndf()
