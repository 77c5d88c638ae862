"""netstat outputs: Linux ``-s`` and ``-i``, BSD/macOS ``-i``/``-ib``, AIX ``-m`` and ``-v``."""
