"""A build writes its site into a scratch folder and puts it in place only once it
has succeeded: a failed build leaves the folder it was given as it was.

mkdocs-static-i18n builds every language into ``site_dir/<lang>`` in one process,
with one config: pointing ``site_dir`` at the scratch folder once, before the
first language, stages them all; the site is put in place once, after the last.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sitebuild import scratch


@dataclass
class Staged:
    target: Path  # where the site is published: the site_dir a user gave
    folder: Path  # where this build writes it meanwhile


def stage(target: Path, dirty: bool) -> Staged:
    """A new scratch folder for the site that TARGET will hold. A dirty build (MkDocs
    rewrites only what changed) starts from a copy of TARGET, modification times kept."""
    staged = Staged(Path(target), scratch.folder("site"))
    if dirty and staged.target.is_dir():
        shutil.copytree(staged.target, staged.folder, symlinks=True, dirs_exist_ok=True)
    return staged


def publish(staged: Staged) -> None:
    """Put the built site in TARGET. As MkDocs' own clean, everything in TARGET
    goes but its dot-entries (a deploy's .git); the folder itself stays, so a
    server or a mount that holds it keeps it."""
    target = staged.target
    target.mkdir(parents=True, exist_ok=True)
    built = {entry.name for entry in staged.folder.iterdir()}
    for entry in target.iterdir():
        if entry.name in built or not entry.name.startswith("."):
            _remove(entry)
    for name in sorted(built):
        shutil.move(staged.folder / name, target / name)  # a copy if TARGET is on another disk
    staged.folder.rmdir()


def discard(staged: Staged) -> None:
    shutil.rmtree(staged.folder, ignore_errors=True)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def served(site_dir: str) -> bool:
    """Whether SITE_DIR is the folder `mkdocs serve` made for itself (a `mkdocs_*`
    in the temporary folder): `serve --clean` starts its plugins as a build's."""
    path = Path(site_dir)
    return path.parent == Path(tempfile.gettempdir()) and path.name.startswith("mkdocs_")
