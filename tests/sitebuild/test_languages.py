"""The reads of mkdocs-static-i18n's internals (sitebuild.languages) were written for
one version of the plugin: an upgrade must come here first."""

from importlib.metadata import version
from types import SimpleNamespace

from sitebuild import languages

# The version whose `building`, `current_language`, `default_language` and
# `config.languages` the module reads.
PINNED = "1.3.1"


def test_the_plugin_is_the_version_its_internals_were_read_for():
    assert version("mkdocs-static-i18n") == PINNED, (
        "mkdocs-static-i18n changed: check sitebuild/languages.py's reads of its internals, "
        "then update PINNED")


def _config(building=False, current="xb"):
    entries = [SimpleNamespace(locale=code) for code in ("xb", "xa", "xc")]
    i18n = SimpleNamespace(building=building, current_language=current, default_language="xa",
                           config=SimpleNamespace(languages=entries))
    return SimpleNamespace(plugins={"i18n": i18n})


def test_the_default_language_comes_first():
    assert languages.codes(_config()) == ["xa", "xb", "xc"]


def test_only_the_default_language_writes_the_404_page():
    assert not languages.writes_template("404.html", _config(current="xb"))
    assert languages.writes_template("404.html", _config(current="xa"))
    assert languages.writes_template("sitemap.xml", _config(current="xb"))


def test_a_build_of_another_language_is_told_apart():
    assert languages.building_other_language(_config(building=True))
    assert not languages.building_other_language(_config(building=False))
