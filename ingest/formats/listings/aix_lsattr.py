"""AIX ``lsattr -El <device>``: a device's attributes, one ``name value description user_settable`` per line.

Sample (document-derived: ``lsattr -El tok0`` of seed 000's RS/6000 before tuning, its queues of 30 from
L1119-L1120; the other attributes and the layout as AIX prints them)::

    busio         0x86a0         Bus I/O address                    False
    busintr       3              Bus interrupt level                False
    xmt_que_size  30             TRANSMIT queue size                True
    rec_que_size  30             RECEIVE queue size                 True
    ring_speed    4              RING speed                         True
    attn_mac      no             Receive ATTENTION MAC frame        True

Output: one row of ``raw.parameter_listings`` per attribute, its name as the parameter and its value (the
description and the settable flag are what ``lsattr`` says of every device of the type, not a setting). A
line without a value and the closing ``True``/``False`` is rejected with its line; the rest loads. The node is
the file's (``reader``): name the file ``<host>__lsattr-El-tok0__<YYYYmmddTHHMMSS>.out``.
"""

from __future__ import annotations

import re

from ingest.formats.listings.reader import LineListing


class AixLsattr(LineListing):
    format = "listing.aix_lsattr"
    LINE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s+(?P<value>\S+)\s+\S.*?\s(?:True|False)\s*$")
    expected = "an attribute as 'name value description True|False'"


PARSER = AixLsattr()
