"""constraints.txt pins what pyproject.toml needs, all of it and nothing else: a package
that nothing requires any more (a removed plugin, a left-over pin) fails here, and so
does a package that a fresh install would take unpinned.

What a package requires is read from its installed metadata, so the check is complete
where every extra is installed, as `make lock` (which runs this file) makes sure; in a
.venv without some extra, a pin that is not installed here cannot be judged."""

from __future__ import annotations

import tomllib
from importlib import metadata

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.project import ROOT

VENV_OWN = {"pip", "setuptools"}  # come with the venv; `make lock` leaves them out


def pins() -> dict[str, str]:
    lines = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    pairs = (line.split("==") for line in lines if line.strip() and not line.startswith("#"))
    return {canonicalize_name(name): version for name, version in pairs}


def project_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project.get("optional-dependencies", {}).values()
    return [Requirement(text) for text in project["dependencies"] + sum(extras, [])]


def installed(name: str) -> bool:
    try:
        metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return False
    return True


def required_packages() -> tuple[set[str], bool]:
    """Every package the project's requirements pull in on this machine, all extras
    included, and whether that is all of them (False: some package is not installed
    here, so what it requires in turn is unknown)."""
    needed: set[str] = set()
    complete = True
    queue = [(requirement, "") for requirement in project_requirements()]
    while queue:
        requirement, extra = queue.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        if name in needed and not requirement.extras:
            continue
        needed.add(name)
        if not installed(requirement.name):
            complete = False
            continue
        for text in metadata.requires(requirement.name) or []:
            for wanted in ("", *requirement.extras):
                queue.append((Requirement(text), wanted))
    return needed, complete


def test_every_pin_is_needed_by_the_project():
    needed, complete = required_packages()
    unneeded = sorted(name for name in set(pins()) - needed if complete or installed(name))
    assert not unneeded, (f"constraints.txt pins what nothing requires: {unneeded}; "
                          "uninstall them from .venv and run `make lock`")


def test_every_package_the_project_needs_is_pinned():
    needed, _ = required_packages()
    unpinned = sorted(needed - set(pins()) - VENV_OWN)
    assert not unpinned, f"not pinned in constraints.txt: {unpinned}; run `make lock`"


def test_torch_is_pinned_exactly_in_pyproject_as_in_constraints():
    # An unpinned torch resolves to a multi-GB CUDA build, with or without -c constraints.txt.
    torch = next(r for r in project_requirements() if r.name == "torch")
    assert str(torch.specifier) == f"=={pins()['torch']}"
