"""The site's languages: one record per language, `locales/<code>.toml`.

A record holds everything the build knows about its language; nothing else in the
product keeps a table by language. Its fields:

    search          lunr's language for the search index (Material's search plugin)
    quote           a quoted word, "{}" for the word: “bank”, «крана», ”banken”
    material        the language of Material for MkDocs' own words (its partials),
                    corrected where [material_words] gives a word of its own
    numbers         decimal and group signs, the word "and" of an enumeration, and
                    what stands between the ends of a range of scientific numbers
                    (sitebuild.numbers; common.js receives the signs in the page)
    bank            the bank model's two sentences, each a list of [token, role]
                    pairs, and the names of its two senses (examples.bank)
    figures         the few words the bank model's figures print (examples.bank_figures)
    words           the words of the site's scripts, one table per widget; the page
                    carries its language's words as JSON (overrides/main.html). The
                    companion notebook's training curve takes the training
                    playground's, whose loss chart it is (companion/show.py)
    evidence        the evidence marks' words: the notes' box, the relations a measure
                    states, and every measured quantity (sitebuild.evidence)

A language is its record, its pages (`page.<code>.md`) and its entry under
mkdocs.yml's i18n plugin, whose `default: true` marks the site's default language
(default_code() reads it there for what runs outside MkDocs). The computations that
read a record (the examples, the companion notebook) import this package, which makes
it part of their source hash (sitebuild/runs.py reads their imports), so that an edit
of a record runs them again.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
ROLES = ("plain", "ambiguous", "clue_1", "clue_2")  # examples.bank.EMBEDDINGS' keys


class LanguageError(ValueError):
    """A record that is missing, or lacks a field the build reads."""


@dataclass(frozen=True)
class Numbers:
    decimal: str
    group: str
    and_: str
    scientific_range: str


@dataclass(frozen=True)
class Language:
    code: str
    search: str
    quote: str
    material: str
    material_words: dict[str, str]
    numbers: Numbers
    sentences: tuple[tuple[tuple[str, str], ...], ...]  # two sentences of (token, role)
    senses: tuple[str, str]
    figures: dict[str, str]
    words: dict[str, dict]
    evidence: dict

    def for_page(self) -> dict:
        """What a page's scripts read (common.js): the code, the quote, the word "and"
        of an enumeration, the words, and every language's signs, since a script may
        print a number for another language."""
        return {"code": self.code, "quote": self.quote, "and": self.numbers.and_,
                "words": self.words,
                "numbers": {code: {"decimal": record.numbers.decimal,
                                   "group": record.numbers.group}
                            for code, record in records().items()}}


def _load(path: Path) -> Language:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        numbers, bank = data["numbers"], data["bank"]
        sentences = tuple(tuple((token, role) for token, role in sentence)
                          for sentence in bank["sentences"])
        language = Language(
            code=path.stem, search=data["search"], quote=data["quote"],
            material=data["material"], material_words=dict(data.get("material_words", {})),
            numbers=Numbers(numbers["decimal"], numbers["group"], numbers["and"],
                            numbers["scientific_range"]),
            sentences=sentences, senses=tuple(bank["senses"]),
            figures=dict(data["figures"]), words=dict(data["words"]),
            evidence=dict(data["evidence"]))
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as error:
        raise LanguageError(f"{path.name}: {type(error).__name__}: {error}") from error
    unknown = {role for sentence in sentences for _, role in sentence} - set(ROLES)
    if len(sentences) != 2 or len(language.senses) != 2 or unknown:
        raise LanguageError(f"{path.name}: [bank] needs two sentences and two senses, "
                            f"with roles from {ROLES}; unknown roles: {sorted(unknown)}")
    return language


@functools.cache
def records(folder: Path = FOLDER) -> dict[str, Language]:
    """Every language's record, by code, in the order of the codes."""
    return {path.stem: _load(path) for path in sorted(folder.glob("*.toml"))}


def codes() -> tuple[str, ...]:
    return tuple(records())


@functools.cache
def default_code(config: Path = FOLDER.parent / "mkdocs.yml") -> str:
    """The locale of the default entry of CONFIG's i18n plugin, read without loading
    MkDocs (its tags, !ENV and !!python, are left unresolved)."""
    import yaml  # MkDocs' own dependency: the computations that read records need none

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    settings = yaml.load(config.read_text(encoding="utf-8"), Loader=Loader)
    i18n = next(p["i18n"] for p in settings["plugins"] if isinstance(p, dict) and "i18n" in p)
    return next(language["locale"] for language in i18n["languages"] if language.get("default"))


def record(code: str) -> Language:
    try:
        return records()[code]
    except KeyError:
        raise LanguageError(f"no record for language {code!r} in {FOLDER.name}/ "
                            f"(there are {', '.join(codes())})") from None
