"""Theme templates compiled once per process, not once per build and language.

MkDocs makes a new Jinja environment for every build, and mkdocs-static-i18n builds
every language, so each build compiled Material's templates again for each language.
Jinja's own bytecode cache (its public API) keeps the compiled code here; a template
whose source changes gets a new checksum and is compiled again.
"""

from __future__ import annotations

from jinja2 import BytecodeCache, Environment
from jinja2.bccache import Bucket


class _InMemory(BytecodeCache):
    """Compiled templates by Jinja's key (template name and file), for this process."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])  # checked against the source

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _InMemory()


def reuse_compiled(env: Environment) -> Environment:
    """ENV with the process's compiled templates."""
    env.bytecode_cache = _COMPILED
    return env
