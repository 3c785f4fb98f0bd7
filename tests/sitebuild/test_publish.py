"""The site is put in place only by a build that succeeded (sitebuild.publish)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from sitebuild import publish
from tests.project import TRANSLATIONS


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


OLD, NEW = TRANSLATIONS[-1], TRANSLATIONS[0]  # a language's folder in each site


def previous_site(target: Path) -> None:
    (target / OLD).mkdir(parents=True)
    (target / "index.html").write_text("old", encoding="utf-8")
    (target / OLD / "index.html").write_text("старий", encoding="utf-8")
    (target / ".git").mkdir()
    (target / ".git" / "HEAD").write_text("ref", encoding="utf-8")


def build_into(staged: publish.Staged) -> None:
    (staged.folder / NEW).mkdir()
    (staged.folder / "index.html").write_text("new", encoding="utf-8")
    (staged.folder / NEW / "index.html").write_text("ny", encoding="utf-8")


def test_a_published_site_replaces_the_old_one_and_keeps_dot_entries_as_mkdocs_does(tmp_path):
    target = tmp_path / "site"
    previous_site(target)
    staged = publish.stage(target, dirty=False)
    assert staged.folder != target and not any(staged.folder.iterdir())
    build_into(staged)
    publish.publish(staged)
    assert tree(target) == {".git/HEAD": b"ref", "index.html": b"new", f"{NEW}/index.html": b"ny"}
    assert not staged.folder.exists()


def test_a_discarded_site_leaves_the_target_as_it_was(tmp_path):
    target = tmp_path / "site"
    previous_site(target)
    before = tree(target)
    staged = publish.stage(target, dirty=False)
    build_into(staged)
    publish.discard(staged)
    assert tree(target) == before and not staged.folder.exists()


def test_a_dirty_build_starts_from_the_published_site(tmp_path):
    target = tmp_path / "site"
    previous_site(target)
    staged = publish.stage(target, dirty=True)
    try:
        assert tree(staged.folder) == tree(target)
    finally:
        publish.discard(staged)


def test_a_site_into_a_new_folder_creates_it(tmp_path):
    target = tmp_path / "new" / "site"
    staged = publish.stage(target, dirty=False)
    build_into(staged)
    publish.publish(staged)
    assert tree(target) == {"index.html": b"new", f"{NEW}/index.html": b"ny"}


def test_only_the_folder_mkdocs_serve_makes_for_itself_counts_as_a_preview(tmp_path):
    temp = Path(tempfile.gettempdir())
    assert publish.served(str(temp / "mkdocs_abc123"))
    assert not publish.served(str(tmp_path / "mkdocs_abc123"))  # not in the temp folder
    assert not publish.served(str(temp / "site"))
