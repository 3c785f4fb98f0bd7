"""A build's scratch folders, in the system's temporary folder, named after their owner.

Every folder a build writes outside the site (a computation's output, the
notebook's files, the site before it is published) is
``attention-site-<pid>-<kind>-<random>`` in ``tempfile.gettempdir()``. A build
removes its own when it ends; a build that was killed cannot, so the next one
removes every such folder whose process is gone (``remove_leftovers``). The
folders of a build that still runs stay: builds run side by side in the tests.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

PREFIX = "attention-site-"
_OWNED = re.compile(rf"^{PREFIX}(?P<pid>\d+)-")


def folder(kind: str) -> Path:
    """A new, empty scratch folder of this process for KIND ("experiment", "site", ...)."""
    return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-{kind}-"))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, and belongs to another user
        return True
    return True


def remove_leftovers(temp: Path | None = None) -> list[Path]:
    """Remove the scratch folders in TEMP (the system's) whose owning process has ended;
    return them. A folder whose pid was since taken by another process stays: kept
    too long is harmless, removed while in use is not."""
    temp = Path(temp or tempfile.gettempdir())
    removed = []
    for path in temp.glob(f"{PREFIX}*"):
        owner = _OWNED.match(path.name)
        if owner and path.is_dir() and not path.is_symlink() \
                and not _running(int(owner["pid"])):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed
