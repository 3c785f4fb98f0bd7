"""Files that readers never see half-written."""

import contextlib
import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, content: bytes) -> None:
    """Write via a temporary file in the same directory and os.replace: readers see
    the old file or the complete new one, never a partial one."""
    path = Path(path)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            os.fchmod(file.fileno(), 0o644)  # mkstemp creates 0600
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
