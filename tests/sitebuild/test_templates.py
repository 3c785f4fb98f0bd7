"""The theme's templates are compiled once per process, whatever the number of language
builds, and again when their source changes."""

from __future__ import annotations

from jinja2 import DictLoader, Environment

from sitebuild.templates import InMemoryBytecodeCache


class CountingEnvironment(Environment):
    compiled = 0

    def _compile(self, source, filename):
        CountingEnvironment.compiled += 1
        return super()._compile(source, filename)


def environment(templates: dict, cache) -> Environment:
    """A fresh environment, as each language's build makes one."""
    return CountingEnvironment(loader=DictLoader(templates), bytecode_cache=cache)


def test_a_second_environment_loads_what_the_first_compiled_and_an_edit_compiles_again():
    cache, templates = InMemoryBytecodeCache(), {"page.html": "Hello {{ name }}"}
    CountingEnvironment.compiled = 0
    first = environment(templates, cache).get_template("page.html").render(name="en")
    second = environment(templates, cache).get_template("page.html").render(name="uk")
    assert (first, second) == ("Hello en", "Hello uk")
    assert CountingEnvironment.compiled == 1

    templates["page.html"] = "Hej {{ name }}"
    assert environment(templates, cache).get_template("page.html").render(name="sv") == "Hej sv"
    assert CountingEnvironment.compiled == 2


def test_without_the_cache_every_environment_compiles():
    CountingEnvironment.compiled = 0
    for _ in range(3):
        environment({"page.html": "x"}, None).get_template("page.html")
    assert CountingEnvironment.compiled == 3
