"""AIX ``no -a``: the network options, one ``name = value`` per line.

Sample (document-derived: the four options seed 000's Figure 7 tunes on its RS/6000, L1180-L1183, and two more,
as ``no -a`` prints them, right-aligning the names)::

                   thewall = 8192
                    sb_max = 65536
                  lowclust = 256
                   lowmbuf = 256
               mb_cl_hiwat = 512
          net_malloc_police = 0

Output: one row of ``raw.parameter_listings`` per option, the option's name as the parameter (``thewall`` is
in KiB, as ``no`` prints it; the listing gives no unit). A line that is not ``name = value`` (a shell's
error, a stray line) is rejected with its line; the rest loads. The node is the file's (``reader``).
"""

from __future__ import annotations

import re

from ingest.formats.listings.reader import LineListing


class AixNo(LineListing):
    format = "listing.aix_no"
    LINE = re.compile(r"^\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*) = (?P<value>\S+)\s*$")
    expected = "an option as 'name = value'"


PARSER = AixNo()
