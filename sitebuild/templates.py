"""Compiled theme templates, kept for the life of the process.

mkdocs-static-i18n builds the site once per language, and each build gives the
theme a new Jinja environment, which compiles Material's templates again: about
55 templates, some 0.6 s per language here. Jinja's own remedy is a bytecode
cache (jinja2.BytecodeCache). This one lives in memory only, so that nothing
outlives the process: a clean `mkdocs build` still compiles every template once,
and `mkdocs serve` compiles an edited template again, because Jinja keys each
entry on the template's source checksum.
"""

from __future__ import annotations

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket


class InMemoryBytecodeCache(BytecodeCache):
    """jinja2's BytecodeCache interface over a dict: bucket key -> compiled bytes."""

    def __init__(self) -> None:
        self._compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        compiled = self._compiled.get(bucket.key)
        if compiled is not None:
            bucket.bytecode_from_string(compiled)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._compiled[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self._compiled.clear()


CACHE = InMemoryBytecodeCache()
