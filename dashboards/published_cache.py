"""Superset's chart-data cache, kept per published warehouse (``DATA_CACHE_CONFIG`` in superset_config.py).

Superset keys a chart's cached result by its query alone, but ``serving.duckdb`` changes under the same
queries at every ``perfdb publish``: it is a link that publish points at the other of two slot files,
``serving-a.duckdb`` and ``serving-b.duckdb``, after bringing that slot up to date. So every key is
prefixed with the identity of the file the link points at now::

    serving-b.duckdb:12845961:1764301234567891234:<Superset's key>

(the slot's name, inode and modification time in nanoseconds). The first view after a publish misses
and reads the new warehouse; the old warehouse's entries are never read again and are deleted by the
file cache's threshold and timeout. The files live under ``$SUPERSET_HOME/chart_data_cache``, shared
by every gunicorn worker.
"""

from __future__ import annotations

import os

from flask_caching.backends.filesystemcache import FileSystemCache


class PublishedWarehouseCache(FileSystemCache):
    def __init__(self, serving: str, cache_dir: str, **kwargs):
        self.serving = serving
        super().__init__(cache_dir, **kwargs)

    @classmethod
    def factory(cls, app, config, args, kwargs):
        kwargs.update(threshold=config["CACHE_THRESHOLD"], ignore_errors=config["CACHE_IGNORE_ERRORS"])
        return cls(config["PERFDB_SERVING"], config["CACHE_DIR"], *args, **kwargs)

    def published(self) -> str:
        """The identity of the warehouse readers see now; ``none`` before the first publish."""
        try:
            st = os.stat(self.serving)  # follows the link
        except OSError:
            return "none"
        return f"{os.path.basename(os.path.realpath(self.serving))}:{st.st_ino}:{st.st_mtime_ns}"

    def _get_filename(self, key: str) -> str:
        # every read, write and delete of an entry finds its file here; the cache's own count of its
        # files is one for all warehouses
        if key != self._fs_count_file:
            key = f"{self.published()}:{key}"
        return super()._get_filename(key)
