"""Shortcodes fill pages from the run, and fail loudly on anything unknown: every
fault of a page at once, each with its line."""

import pytest

from sitebuild.claims import Evidence, above
from sitebuild.evidence import note, note_html
from sitebuild.heatmaps import level
from sitebuild.numbers import format_value
from sitebuild.shortcodes import expand
from tests.project import DEFAULT, TRANSLATIONS

UK, SV = TRANSLATIONS[-1], TRANSLATIONS[0]  # a translation each, by its number format


def filled(markdown: str, values: dict, language: str) -> str:
    """MARKDOWN expanded, which must hold no fault."""
    result = expand(markdown, values, language)
    assert not result.errors, result.errors
    return result.markdown


def faults(markdown: str, values: dict, language: str = DEFAULT) -> str:
    """Every fault of MARKDOWN, one per line, as the build reports them."""
    result = expand(markdown, values, language)
    assert result.errors, f"no fault in {markdown!r}"
    return "\n".join(f"{e.line}: {e.message}" for e in result.errors)

VALUES = {
    "experiment": {
        "config": {"steps": 1200, "seeds": [0, 1, 2]},
        "summary": {"erase_query": {"min": 0.1391, "max": 0.1532}},
        "seeds": [{"heldout_mse": 1.3e-31}],
    },
    "examples": {"heads": {"reorder_change": 0.0}},
}


def test_values_are_formatted_for_the_page_language_and_marked_with_their_key():
    page = filled("{{ num experiment.seeds.0.heldout_mse sci2 }} after "
                     "{{ num experiment.config.steps int }}", VALUES, UK)
    assert ">1,3\u00a0×\u00a010⁻³¹</span>" in page
    assert 'data-key="experiment.config.steps"' in page and ">1200</span>" in page


def test_a_range_comes_from_min_and_max():
    page = filled("{{ range experiment.summary.erase_query fix3 }}", VALUES, DEFAULT)
    assert ">0.139–0.153</span>" in page


def test_a_list_of_numbers_names_its_ends_for_a_sentence_in_words():
    page = filled("between {{ num experiment.config.seeds.min int }} and "
                  "{{ num experiment.config.seeds.max int }}", VALUES, DEFAULT)
    assert ">0</span> and <span" in page and ">2</span>" in page
    assert 'data-key="experiment.config.seeds.max"' in page
    assert "or .min and .max" in faults("{{ num experiment.config.seeds.mean int }}", VALUES)


def test_table_rows_come_from_the_run():
    page = filled("| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n"
                     "{{ rows bank_row }}", BANK, SV)
    assert page.count("\n| ") == 3 and "| fiskade |" in page and "[0,5; 0,5]" in page


def test_lang_code_is_the_pages_language():
    page = filled("![a](run/bank-teaser-{{ lang code }}.svg)", VALUES, UK)
    assert page == f"![a](run/bank-teaser-{UK}.svg)"
    assert "usage {{ lang code }}" in faults("{{ lang name }}", VALUES, UK)


@pytest.mark.parametrize("markdown", [
    "{{ num experiment.seeds.0.heldout_msee sci2 }}",  # a typo in a result name
    "{{ num experiment.seeds.7.heldout_mse sci2 }}",  # no such seed
    "{{ num experiment.config.steps fancy }}",  # no such style
    "{{ rows nonsense }}",
    "{{ claim nonsense }}",
    "{{ frobnicate experiment.config.steps }}",
    "{{ num experiment.config.steps }}",  # a missing argument
    "{{ num experiment.config.steps int",  # never closed
])
def test_anything_unknown_fails_with_its_name(markdown):
    assert faults(markdown, VALUES).startswith("1: ")


def test_a_claim_the_values_support_shows_an_evidence_mark_and_its_note():
    result = expand("Renumbering the heads changes nothing.{{ claim head_order_is_free }}",
                    VALUES, SV)
    assert not result.errors and result.claims == ["head_order_is_free"]
    page = result.markdown
    assert '<sup class="evidence" data-claim="head_order_is_free">' in page
    assert 'href="#evidence-head-order-is-free"' in page and 'class="footnote-ref"' in page
    assert '<li id="evidence-head-order-is-free">' in page  # the note the mark links to
    assert '<details class="note evidence-notes"' in page and "Så kontrollerades" in page


def test_a_note_sets_a_subscripted_name_as_a_subscript_not_an_underscore():
    assert (note_html("Change with W_O adjusted: 0 (must be below √d_k)")
            == "Change with <i>W</i><sub>O</sub> adjusted: 0 (must be below √<i>d</i><sub>k</sub>)")
    assert note_html("a < b & c") == "a &lt; b &amp; c"


def test_a_claim_used_twice_has_one_number_and_one_note():
    page = filled("A.{{ claim head_order_is_free }} B.{{ claim head_order_is_free }}",
                  VALUES, DEFAULT)
    assert page.count(">1</a></sup>") == 2 and page.count("<li id=") == 1


def test_an_evidence_mark_sits_right_after_its_word_so_no_line_break_comes_between():
    page = filled("It changes nothing. {{ claim head_order_is_free }} Next.\nOne line\n"
                  "{{ claim head_order_is_free }} ends.\n\n{{ claim head_order_is_free }}",
                  VALUES, DEFAULT)
    assert 'nothing.<sup class="evidence"' in page and '</sup> Next.' in page
    assert 'One line<sup class="evidence"' in page  # the line break before it, gone
    assert 'ends.\n\n<sup class="evidence"' in page  # a new paragraph stays one


def test_a_claim_the_values_refute_is_an_error_naming_it():
    refuted = {**VALUES, "examples": {"heads": {"reorder_change": 0.25}}}
    result = expand("\n\n{{ claim head_order_is_free }}", refuted, DEFAULT)
    [error] = result.errors
    assert error.claim == "head_order_is_free" and error.line == 3


def test_three_faults_on_three_lines_are_three_errors_with_their_lines():
    markdown = ("Held out: {{ num experiment.seeds.0.heldout_mes sci2 }}.\n"
                "Steps: {{ num experiment.config.steps fancy }}.\n"
                "Broken: {{ num experiment.config.steps int }\n")
    result = expand(markdown, VALUES, DEFAULT, first_line=5)
    assert [e.line for e in result.errors] == [5, 6, 7]
    misspelt, style, malformed = (e.message for e in result.errors)
    assert "did you mean `heldout_mse`?" in misspelt
    assert "fix3: 0.332" in style and "sig2: 0.75" in style
    assert "malformed shortcode" in malformed


def test_an_unknown_name_lists_what_exists_where_the_lookup_stopped():
    message = faults("{{ num experiment.summary.erase_qury fix3 }}", VALUES)
    assert "did you mean `erase_query`?" in message
    assert "experiment.summary holds: erase_query" in message and "results.json" in message


BANK = {
    "examples": {
        "bank": {"sentences": {
            language: [{"tokens": tokens, "ambiguous": 2, "clue": 1, "h": [0.8, 0.1],
                        "weights": [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.1, 0.8, 0.1]]},
                       {"tokens": tokens, "ambiguous": 2, "clue": 0, "h": [0.1, 0.8],
                        "weights": [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.8, 0.1, 0.1]],
                        "K": [[-0.6, -0.8], [1.0, 0.0], [0.0, 1.0]],
                        "scores": [-1.27, 2.12, 0.0],
                        "V": [[0.0, 0.0], [1.0, 0.0], [0.5, 0.5]],
                        "contributions": [[0.0, 0.0], [0.8, 0.0], [0.05, 0.05]]}]
            for language, tokens in ((DEFAULT, ["I", "fished", "bank"]),
                                      (SV, ["Jag", "fiskade", "banken"]))}},
    },
}


def test_lang_in_a_path_stands_for_the_pages_language():
    page = filled("{{ vec examples.bank.sentences.LANG.0.h fix1 }}", BANK, SV)
    assert f'data-key="examples.bank.sentences.{SV}.0.h"' in page and "[0,8; 0,1]" in page


def test_a_heatmap_heads_rows_and_columns_with_the_pages_tokens_and_shades_each_weight():
    page = filled("{{ heatmap bank_1 }}", BANK, SV)
    assert '<th scope="col">fiskade</th>' in page and '<th scope="row">banken</th>' in page
    assert page.count('<td class="heat heat-') == 9
    assert '<td class="heat heat-8">' in page  # 0.8 → level 8 of 10
    assert page.count("is-masked") == 3  # the three cells right of the diagonal
    assert '<tr class="is-followed"><th scope="row">banken</th>' in page
    assert f'data-key="examples.bank.sentences.{SV}.0.weights.2.1"' in page


def test_a_heatmap_row_shows_only_the_followed_word():
    page = filled("{{ heatmap bank_2_row }}", BANK, DEFAULT)
    assert page.count("<tr") == 2 and "heatmap--row" in page


def test_tiles_are_the_pages_own_sentence():
    page = filled('<ul class="tiles">{{ tiles bank_2 }}</ul>', BANK, DEFAULT)
    assert page == '<ul class="tiles"><li>I</li><li>fished</li><li>bank</li></ul>'


@pytest.mark.parametrize("markdown", [
    "{{ heatmap nonsense }}",
    "{{ tiles bank_3 }}",
    "{{ heatmap worked_example }}",  # gone with the calculator's toy model
    "{{ heatmap }}",
])
def test_a_heatmap_or_tiles_that_cannot_be_drawn_fails_with_its_name(markdown):
    assert faults(markdown, BANK)


def test_a_failed_page_keeps_its_figures_paths_in_its_language():
    from sitebuild.shortcodes import expand_language

    page = expand_language("![a](run/x-{{ lang code }}.svg) {{ num nonsense sig2 }}", SV)
    assert page == "![a](run/x-sv.svg) {{ num nonsense sig2 }}"


MALFORMED = {
    "experiment": {
        "config": {"steps": 1200, "seeds": [0, 1, 2], "name": "", "empty": [],
                   "ragged": [[1, 2], [3]], "nested": [[1, 2], [3, 4]], "flag": True},
        "summary": {"erase_query": {"min": 0.1391, "max": 0.1532}},
    },
}


@pytest.mark.parametrize(("markdown", "why"), [
    # wrong type: a scalar where a list is needed, a list where a number is, a mapping
    ("{{ vec experiment.config.steps fix2 }}", "needs a vector"),
    ("{{ mat experiment.config.steps fix2 }}", "needs a matrix"),
    ("{{ list experiment.summary.erase_query fix2 }}", "needs a list"),
    ("{{ items experiment.config.steps int }}", "needs a list"),
    ("{{ num experiment.config.seeds int }}", "needs a number"),
    ("{{ num experiment.summary.erase_query fix2 }}", "needs a number"),
    ("{{ num experiment.config.seeds text }}", "needs a non-empty string"),
    ("{{ num experiment.config.flag int }}", "needs a number"),
    ("{{ range experiment.config.steps fix2 }}", "neither"),
    # wrong shape: a vector where a matrix is needed, a matrix where a vector is, ragged rows
    ("{{ mat experiment.config.seeds int }}", "needs a vector"),
    ("{{ vec experiment.config.nested int }}", "needs a number"),
    ("{{ mat experiment.config.ragged int }}", "rows of lengths"),
    # empty where a value is needed
    ("{{ items experiment.config.empty int }}", "empty list"),
    ("{{ list experiment.config.empty int }}", "empty list"),
    ("{{ vec experiment.config.empty int }}", "empty list"),
    ("{{ mat experiment.config.empty int }}", "empty list"),
    ("{{ num experiment.config.name text }}", "non-empty string"),
    ("{{ num experiment.config.name short }}", "non-empty string"),
    # unknown style, for every kind
    ("{{ vec experiment.config.seeds fancy }}", "unknown number style"),
    ("{{ items experiment.config.seeds fix }}", "unknown number style"),
    ("{{ range experiment.summary.erase_query sig }}", "unknown number style"),
    ("{{ mat experiment.config.nested sci }}", "unknown number style"),
    ("{{ num experiment.config.steps sig0 }}", "at least one digit"),
])
def test_a_malformed_shortcode_fails_naming_itself_and_why(markdown, why):
    message = faults(f"Some prose {markdown} and more.", MALFORMED)
    assert markdown in message and why in message


@pytest.mark.parametrize("markdown", ["{{ heatmap bank_1 }}", "{{ tiles bank_1 }}",
                                      "{{ rows three_keys }}"])
def test_a_run_value_of_the_wrong_shape_fails_a_heatmap_tiles_or_table_naming_it(markdown):
    broken = {"examples": {"bank": {"sentences": {DEFAULT: [
        {"tokens": 3, "ambiguous": 2, "clue": 1, "h": [0.8, 0.1],
         "weights": [["a", "b", "c"]] * 3}]}}},
        "experiment": {"variants": {"three_keys": {"seeds": 3}}}}
    name = markdown.split()[2]
    assert name in faults(markdown, broken)


MODEL = {
    "examples": {"bank": {
        "model": {"embeddings": {"plain": [-0.6, -0.8, 0.0, 0.0],
                                 "ambiguous": [0.0, 1.0, 0.5, 0.5],
                                 "clue_1": [1.0, 0.0, 1.0, 0.0]}},
        "sentences": {SV: [
            {"tokens": ["på", "grund", "på", "banken"],
             "roles": ["plain", "clue_1", "plain", "ambiguous"]},
            {"tokens": ["Jag", "på", "banken"], "roles": ["plain", "plain", "ambiguous"],
             "K": [[-0.6, -0.8], [-0.6, -0.8], [0.0, 1.0]],
             "Q": [[-2.4, 1.8], [-2.4, 1.8], [3.0, 0.0]]}]}}},
}


def test_the_embedding_table_has_a_row_per_kind_of_word_each_word_once():
    page = filled("| a | b | c | d | e |\n|---|---|---|---|---|\n"
                  "{{ rows bank_embeddings }}", MODEL, SV)
    assert page.count("\n| ") == 3 and "| på, Jag | " in page and "| grund | " in page
    assert 'data-key="examples.bank.model.embeddings.ambiguous.3"' in page and ">0,5<" in page


def test_the_queries_table_has_every_word_of_the_second_sentence():
    page = filled("| a | b | c |\n|---|---|---|\n{{ rows bank_queries }}", MODEL, SV)
    assert page.count("\n| ") == 3 and "| Jag | " in page and "[−2,4; 1,8]" in page


def test_a_heat_maps_shade_rounds_halves_up_as_the_calculator_does():
    # 0.25 and 0.05 are the weights of four and of twenty equal scores; Math.round in
    # attention-calculator.js takes a half up, and the page must shade as the widget does.
    assert [level(w) for w in (0.0, 0.05, 0.25, 0.349, 0.35, 1.0, 1.2)] == [0, 1, 3, 3, 4, 10, 10]


def test_a_note_prints_its_bound_in_the_bound_style_where_one_is_given():
    """A determinant of 1.5 reads 1.5, its bound 10⁻¹² reads in scientific notation."""
    found = Evidence((above("det_N_size", 1.5, 1e-12, "sig2", bound_style="sci1"),))
    text = note(found, DEFAULT)
    assert format_value(1.5, "sig2", DEFAULT) in text
    assert format_value(1e-12, "sci1", DEFAULT) in text
