"""What the tests expect of particular languages beyond their records: Material's own
words, searches that must find something, the grammar of a count, the articles'
lengths. The one test module besides tests/project.py that names languages; the
list of languages itself is the records' (tests/project.py: LANGUAGES). A language
without an entry here is simply not among these cases."""

from __future__ import annotations

# A language that Material, lunr and mkdocs-static-i18n all know and the site has not:
# tests/site/test_fourth_language.py adds it to a copy of the project.
FOURTH = {"code": "de", "name": "Deutsch", "search": "de", "material": "de"}

# The copy button of a listing and the message after a copy: Material's words.
COPY = {"en": ("Copy to clipboard", "Copied to clipboard"),
        "uk": ("Копіювати в буфер обміну", "Скопійовано в буфер обміну"),
        "sv": ("Kopiera till urklipp", "Kopierat till urklipp")}

# (language, word typed, a page that contains it); every word is checked to be in that
# page's source, so a search test cannot pass on a word no page has.
SEARCHES = [
    ("en", "softmax", "attention"),
    ("en", "interventions", "feature-recovery"),
    ("uk", "тетраедр", "feature-recovery"),
    ("uk", "ключі", "attention"),
    ("uk", "зерна", "feature-recovery"),
    ("sv", "nycklar", "attention"),
    ("sv", "särdrag", "feature-recovery"),
]
# A word each language's pages have, to make the search show a count.
COUNTED = {"en": "softmax", "uk": "матриц", "sv": "matris"}

# The Cyrillic language, whose search needs lunr's Russian module (its record says so).
CYRILLIC = "uk"
# Its words that lunr's Russian stop-word filter would drop from the index (the
# pipeline of mkdocs.yml is empty), with a page that has each.
STOP_WORDS = [("два", "attention"), ("тут", "feature-recovery"), ("через", "attention")]
# A word its pages write with the apostrophe ’ (GLOSSARY.md), as a keyboard types it.
APOSTROPHE = ("обов’язково", ["обов'язково", "обовʼязково"])
# Searches whose counts must each take the form of their number.
PLURAL_SEARCHES = ["увага", "модель", "матриц", "ключі"]
PLURAL_NOUN = {"one": "збіг", "few": "збіги", "many": "збігів"}
COUNT_PATTERN = r"(Знайдено|Ще) {count} {noun}( на цій сторінці)?"


def plural(language: str, count: int) -> str:
    """CLDR's category of a whole COUNT: the Cyrillic language's one, few and many; the
    others' one and other."""
    if language != CYRILLIC:
        return "one" if count == 1 else "other"
    if count % 10 == 1 and count % 100 != 11:
        return "one"
    return "few" if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14 else "many"


# Material's count of results, as its own script writes it (its one form for every
# count above one), and as a reader of the language must read it.
COUNTS = {
    "en": {1: "1 matching document", 2: "2 matching documents", 5: "5 matching documents"},
    "uk": {1: "Знайдено 1 збіг", 2: "Знайдено 2 збіги", 4: "Знайдено 4 збіги",
           5: "Знайдено 5 збігів", 11: "Знайдено 11 збігів", 12: "Знайдено 12 збігів",
           21: "Знайдено 21 збіг", 22: "Знайдено 22 збіги", 25: "Знайдено 25 збігів"},
    "sv": {1: "1 sökresultat", 2: "2 sökresultat", 5: "5 sökresultat"},
}
MORE = {
    "en": {1: "1 more on this page", 2: "2 more on this page", 5: "5 more on this page"},
    "uk": {1: "Ще 1 збіг на цій сторінці", 3: "Ще 3 збіги на цій сторінці",
           5: "Ще 5 збігів на цій сторінці", 14: "Ще 14 збігів на цій сторінці"},
    "sv": {1: "1 till på denna sida", 2: "2 till på denna sida", 5: "5 till på denna sida"},
}

# The articles' lengths: at most 4,000 words of the attention article in English (the
# second edition had 5,684) and 4,000 of the feature-recovery article; the translations
# in proportion, by the second edition's counts of each language's page (attention:
# Markdown words, 4,949 and 5,214 against 5,175; feature recovery: the built
# <article>'s words, 5,673 and 5,743 against 6,013).
ATTENTION_WORDS = {"en": 4000, "uk": 4000 * 4949 // 5175, "sv": 4000 * 5214 // 5175}
FEATURE_RECOVERY_WORDS = {"en": 4000, "uk": round(4000 * 5673 / 6013),
                          "sv": round(4000 * 5743 / 6013)}
