"""The one rule for "which source produced this": a hash of a package's files.

The hash a computation records in its output (and the page prints) is the key
under which the site build caches that computation's run: both come from
source_hash, over the same files.
"""

import ast
import functools
import hashlib
from pathlib import Path

SUFFIXES = {".py", ".json", ".toml"}  # code, schemas, language records
SHARED = "provenance"  # this package: every computation depends on it


def source_folders(root: Path, package: str, *imported: str) -> list[Path]:
    """The folders below ROOT that PACKAGE's source is read from: its own, those of
    the packages it IMPORTED from this project, and this package's. `mkdocs serve`
    watches the same (sitebuild.runs.watched_paths)."""
    return [Path(root) / folder for folder in sorted({package, *imported, SHARED})]


def source_files(root: Path, package: str, *imported: str) -> list[Path]:
    """Every file of source_folders with one of SUFFIXES, sorted."""
    return sorted(
        (path for folder in source_folders(root, package, *imported) for path in folder.rglob("*")
         if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in path.parts),
        key=lambda path: path.relative_to(root).as_posix(),
    )


def source_hash(root: Path, package: str, *imported: str) -> str:
    """sha256 over the relative path and bytes of every file of source_files."""
    digest = hashlib.sha256()
    for path in source_files(root, package, *imported):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def project_imports(root: Path, package: str) -> tuple[str, ...]:
    """The packages of the project at ROOT (its folders with an __init__.py) that
    PACKAGE imports, directly or through another of them, found by reading their
    source: an import added to the code is part of the key at once, with nothing to
    declare by hand."""
    root = Path(root)
    projects = {path.parent.name for path in root.glob("*/__init__.py")}
    found: set[str] = set()
    todo = [package]
    while todo:
        for path in sorted((root / todo.pop()).rglob("*.py")):
            for name in _imported_modules(path.read_text(encoding="utf-8"), str(path)):
                top = name.split(".")[0]
                if top in projects and top not in found | {package, SHARED}:
                    found.add(top)
                    todo.append(top)
    return tuple(sorted(found))


@functools.lru_cache(maxsize=4096)
def _imported_modules(source: str, filename: str) -> tuple[str, ...]:
    """The absolute imports of the module SOURCE. Parsed once per text: the key is asked
    for by every build, and under `serve` once per language and rebuild."""
    names = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return tuple(names)
