"""Claims of the attention article (and the home page's picture), checked against
examples.json. Each is registered with the edit of the values that would make
its sentence false."""

from __future__ import annotations

import math

from sitebuild.claims import claim, require, set_value
from sitebuild.values import lookup

# Exact arithmetic on small numbers still rounds in float64 (0.1 * 3 is not 0.3).
TOLERANCE = 1e-12


def _close(a, b) -> bool:
    return abs(a - b) < TOLERANCE


def _all_close(a, b) -> bool:
    return len(a) == len(b) and all(map(_close, a, b))


def _sentences(values):
    """(language, sentence number from 1, sentence) for every bank sentence."""
    for language, pair in lookup(values, "examples.bank.sentences").items():
        for number, sentence in enumerate(pair, start=1):
            yield language, number, sentence


# ---------------------------------------------------------------------------
# Worked example: two positions, position 2's query
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.two_positions.W_K", [[0.0], [1.0]]))
def worked_key_is_ln3(values) -> str:
    example = lookup(values, "examples.two_positions")
    lower = example["W_K"][1][0]
    return require(_close(lower, math.log(3)) and _close(example["ln3"], math.log(3))
                   and _close(example["k_1"], math.log(3)),
                   f"W_K's lower entry {lower!r}, k_1 = {example['k_1']!r}, "
                   f"ln 3 = {example['ln3']!r}")


@claim(refute=lambda v: set_value(v, "examples.two_positions.exponentials", [math.e, 1.0]))
def worked_exponentials_are_whole(values) -> str:
    example = lookup(values, "examples.two_positions")
    numbers = [*example["exponentials"], example["exponential_sum"]]
    return require(all(_close(x, round(x)) for x in numbers),
                   f"exponentials {example['exponentials']}, sum {example['exponential_sum']}")


@claim(refute=lambda v: set_value(v, "examples.two_positions.d_k", 2))
def worked_example_scale_is_one(values) -> str:
    example = lookup(values, "examples.two_positions")
    raw = [example["q_2"] * example["k_1"], example["q_2"] * example["k_2"]]
    return require(example["d_k"] == 1 and _all_close(raw, example["scores"]),
                   f"d_k = {example['d_k']}, raw dot products {raw}, "
                   f"scores {example['scores']}")


@claim(refute=lambda v: set_value(v, "examples.two_positions.weights", [0.25, 0.75]))
def worked_output_leans_towards_position_1(values) -> str:
    example = lookup(values, "examples.two_positions")
    a_1, a_2 = example["weights"]
    mixed = [a_1 * v1 + a_2 * v2 for v1, v2 in zip(example["v_1"], example["v_2"], strict=True)]
    return require(
        a_1 > a_2 and _close(a_1 + a_2, 1.0) and _all_close(mixed, example["h_2"])
        and example["h_2"] != example["x_2"],
        f"attention weights {example['weights']}, head output {example['h_2']}, "
        f"input {example['x_2']}",
    )


@claim(refute=lambda v: set_value(v, "examples.exercise.weights", [0.6, 0.4]))
def equal_scores_mix_evenly(values) -> str:
    exercise = lookup(values, "examples.exercise")
    example = lookup(values, "examples.two_positions")
    a_1, a_2 = exercise["weights"]
    average = [(v1 + v2) / 2 for v1, v2 in zip(exercise["v_1"], exercise["v_2"], strict=True)]
    same_values = (exercise["v_1"], exercise["v_2"]) == (example["v_1"], example["v_2"])
    return require(
        exercise["scores"][0] == exercise["scores"][1] and _close(a_1, a_2)
        and _all_close(average, exercise["h_2"]) and same_values,
        f"scores {exercise['scores']} give attention weights {exercise['weights']} and "
        f"head output {exercise['h_2']}; value vectors unchanged: {same_values}",
    )


# ---------------------------------------------------------------------------
# Scaling by √d_k
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.scaling.spread.9", 5.0))
def score_spread_grows_like_sqrt_dk(values) -> str:
    scaling = lookup(values, "examples.scaling")
    ratios = [s / math.sqrt(d) for s, d in zip(scaling["spread"], scaling["d_k"], strict=True)]
    return require(all(abs(r - 1) < 0.05 for r in ratios),
                   f"spread / √d_k: {[round(r, 3) for r in ratios]}")


@claim(refute=lambda v: set_value(v, "examples.scaling.largest.largest_unscaled", 0.5))
def unscaled_softmax_saturates(values) -> str:
    scaling = lookup(values, "examples.scaling")
    largest = scaling["largest_unscaled"]
    rising = all(a < b for a, b in zip(largest, largest[1:], strict=False))
    last = scaling["largest"]["largest_unscaled"]
    return require(rising and last == largest[-1] and last > 0.9,
                   f"mean largest weight without scaling: {[round(x, 3) for x in largest]}; "
                   f"at the largest d_k {last!r}")


@claim(refute=lambda v: set_value(v, "examples.scaling.largest_scaled.9", 0.9))
def scaled_softmax_stays_spread(values) -> str:
    scaling = lookup(values, "examples.scaling")
    largest = scaling["largest_scaled"]
    return require(max(largest) < 0.5 and max(largest) - min(largest) < 0.1
                   and min(largest) > scaling["uniform_weight"],
                   f"mean largest weight with scaling: {[round(x, 3) for x in largest]}")


# ---------------------------------------------------------------------------
# The bank model: queries and keys in the look plane
# ---------------------------------------------------------------------------
def _dot(a, b) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.en.1.K.0", [1.0, 0.2]))
def clue_key_aligns_with_the_query(values) -> str:
    """"bank"'s query points where the clue's key points; plain words' keys point away
    (a negative score), "bank"'s own key is at right angles (a score of zero)."""
    failures = []
    for language, number, s in _sentences(values):
        q, roles = s["query"], s["roles"]
        dots = [_dot(q, k) for k in s["K"][: s["ambiguous"] + 1]]
        clue = dots[s["clue"]]
        plain = [d for d, r in zip(dots, roles, strict=False) if r == "plain"]
        if not (clue > 0 and all(d < 0 for d in plain) and _close(dots[s["ambiguous"]], 0.0)
                and _all_close(dots, s["dot_products"])):
            failures.append(f"{language} {number}: dot products {dots}")
    return require(not failures, "; ".join(failures) or "clue > 0, plain < 0, self = 0")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.en.1.weights.5",
                                  [0.3, 0.1, 0.2, 0.1, 0.1, 0.2]))
def bank_clue_gets_largest_weight(values) -> str:
    weights, failures = {}, []
    for language, number, s in _sentences(values):
        row = s["weights"][s["ambiguous"]]
        others = [w for j, w in enumerate(row) if j != s["clue"]]
        clue = row[s["clue"]] if s["clue"] is not None else 0.0
        # "Most of its attention": more than half, and more than any other word gets.
        if clue <= max(others) or clue <= 0.5 or not _close(clue, s["clue_weight"]):
            failures.append(f"{language}, sentence {number}: weights {row}, clue {s['clue']}")
        else:
            weights[f"{language} {number}"] = round(row[s["clue"]], 3)
    return require(not failures, "; ".join(failures) or f"the clue's attention weight: {weights}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.uk.1.plain_weights.0", 0.2))
def plain_words_get_little(values) -> str:
    """Each plain word gets less than "bank" itself, whose score is zero."""
    failures = [(language, number, s["plain_weights"], s["self_weight"])
                for language, number, s in _sentences(values)
                if not s["plain_weights"] or max(s["plain_weights"]) >= s["self_weight"]
                or s["self_weight"] >= s["clue_weight"]]
    return require(not failures, f"plain words that get as much as 'bank' itself: {failures}")


# ---------------------------------------------------------------------------
# From scores to weights, and the mask
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.bank.sentences.en.1.clue_to_self", 3.0))
def weight_ratio_is_exp_of_gap(values) -> str:
    wrong = []
    for language, number, s in _sentences(values):
        gap = s["by_kind"]["clue"]["score"] - s["by_kind"]["self"]["score"]
        ratio = s["clue_weight"] / s["self_weight"]
        if not (abs(s["clue_to_self"] - math.exp(gap)) < 1e-9 and _close(ratio, s["clue_to_self"])):
            wrong.append((language, number, s["clue_to_self"], math.exp(gap)))
    return require(not wrong, f"weight ratios that are not e^(score gap): {wrong}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.sv.1.shifted_weights.0", 0.3))
def constant_shift_changes_nothing(values) -> str:
    failures = []
    for language, number, s in _sentences(values):
        row = s["weights"][s["ambiguous"]]
        if not (_all_close(s["shifted_weights"], row) and _all_close(s["unshifted_weights"], row)):
            failures.append(f"{language} {number}")
    return require(not failures and lookup(values, "examples.bank.shift") != 0,
                   f"sentences whose weights move when a constant is added or the maximum "
                   f"subtracted: {failures}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.en.1.weights.0.1", 0.5))
def causal_mask_zeroes_future(values) -> str:
    future = [w for _, _, s in _sentences(values) for head in _patterns(values, s)
              for i, row in enumerate(head) for j, w in enumerate(row) if j > i]
    return require(all(w == 0.0 for w in future),
                   f"largest weight on a future word: {max(future, default=0.0)}")


def _patterns(values, s):
    """Head 1's and head 2's attention matrices of sentence S."""
    language = next(lang for lang, pair in lookup(values, "examples.bank.sentences").items()
                    if any(x is s for x in pair))
    number = lookup(values, f"examples.bank.sentences.{language}").index(s)
    return s["weights"], lookup(values, f"examples.heads.sentences.{language}.{number}.weights_2")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.uk.0.weights.3",
                                  [0.1, 0.1, 0.1, 0.6, 0.0]))
def causal_rows_sum_to_one(values) -> str:
    sums = [sum(row) for _, _, s in _sentences(values) for head in _patterns(values, s)
            for row in head]
    past = [w for _, _, s in _sentences(values) for head in _patterns(values, s)
            for i, row in enumerate(head) for w in row[: i + 1]]
    return require(all(_close(total, 1.0) for total in sums) and min(past) > 0.0,
                   f"row sums from {min(sums)!r} to {max(sums)!r}; smallest weight on a "
                   f"visible word {min(past)!r}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.en.0.prefix_difference", 0.1))
def mask_equals_prefixes(values) -> str:
    differences = [s["prefix_difference"] for _, _, s in _sentences(values)]
    return require(max(differences) < TOLERANCE,
                   f"largest difference between a masked row and its prefix alone: "
                   f"{max(differences):.3g}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.uk.1.order_difference", 0.2))
def word_order_is_invisible(values) -> str:
    differences = [s["order_difference"] for _, _, s in _sentences(values)]
    return require(max(differences) < TOLERANCE,
                   f"largest change of 'bank''s head output when the words before it are "
                   f"reversed: {max(differences):.3g}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.sv.0.clue", 5))
def clues_precede_the_ambiguous_word(values) -> str:
    late = [(language, number) for language, number, s in _sentences(values)
            if s["clue"] is None or s["clue"] >= s["ambiguous"]
            or s["weights"][s["ambiguous"]][s["clue"]] <= 0.0]
    return require(not late, f"sentences whose clue is not visible to the ambiguous word: "
                             f"{late}")


# ---------------------------------------------------------------------------
# Values and the update; the value swap
# ---------------------------------------------------------------------------
def _leans(sense, towards: int) -> bool:
    return sense[towards] > sense[1 - towards]


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.uk.1.h",
                                  [0.8546845764260097, 0.020759346224855764]))
def bank_outputs_differ(values) -> str:
    failures = []
    for language, number, s in _sentences(values):
        row = s["weights"][s["ambiguous"]]
        mixed = [sum(a * v[c] for a, v in zip(row, s["V"], strict=True)) for c in range(2)]
        if not (_all_close(mixed, s["h"]) and _leans(s["h"], number - 1)):
            failures.append(f"{language} {number}: head output {s['h']}")
    return require(not failures, "; ".join(failures) or "each h leans to its own sense")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.sv.0.sense_after", [0.5, 1.3]))
def bank_moves_towards_its_sense(values) -> str:
    wrong = []
    for language, number, s in _sentences(values):
        before, after = s["sense_before"], s["sense_after"]
        added = [b + h for b, h in zip(before, s["h"], strict=True)]
        if not (_close(before[0], before[1]) and _all_close(after, added)
                and _leans(after, number - 1)):
            wrong.append((language, number, before, after))
    return require(not wrong, f"'bank' not moved from the middle to its sense: {wrong}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.en.0.swapped.weights",
                                  [0.2, 0.2, 0.2, 0.2, 0.2]))
def value_swap_keeps_weights(values) -> str:
    moved = [(language, number) for language, number, s in _sentences(values)
             if not _all_close(s["swapped"]["weights"], s["weights"][s["ambiguous"]])
             or not _close(s["swapped"]["clue_weight"], s["clue_weight"])]
    return require(not moved, f"sentences whose weights move with the swap: {moved}")


@claim(refute=lambda v: set_value(v, "examples.bank.sentences.en.1.swapped.sense_after",
                                  [0.548, 1.345]))
def value_swap_sends_bank_to_the_other_sense(values) -> str:
    wrong = []
    for language, number, s in _sentences(values):
        swapped = s["swapped"]
        if not (_all_close(swapped["h"], s["h"][::-1])
                and _leans(swapped["sense_after"], 2 - number)):
            wrong.append((language, number, swapped["sense_after"]))
    return require(not wrong, f"swaps that do not send 'bank' to the other sense: {wrong}")


# ---------------------------------------------------------------------------
# Two heads; what the weights do not determine
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.heads.sentences.en.1.weights_2.5",
                                  [0.1, 0.1, 0.5, 0.1, 0.1, 0.1]))
def second_head_looks_at_words_like_itself(values) -> str:
    failures = []
    for language, pair in lookup(values, "examples.heads.sentences").items():
        for number, (s, s2) in enumerate(zip(lookup(values, f"examples.bank.sentences."
                                                           f"{language}"), pair,
                                             strict=True), start=1):
            roles = s["roles"]
            for i, row in enumerate(s2["weights_2"]):
                best = max(row[: i + 1])
                if any(_close(w, best) and roles[j] != roles[i] for j, w in enumerate(row)):
                    failures.append((language, number, i))
            own = s2["weights_2"][s["ambiguous"]][s["ambiguous"]]
            if own <= 0.5 or not _close(own, s2["self_weight_2"]):
                failures.append((language, number, "bank", own))
    return require(not failures, f"rows of head 2 whose largest weight is not on a word of "
                                 f"the same kind: {failures}")


@claim(refute=lambda v: set_value(v, "examples.heads.sentences.sv.1.updated.2", 0.9))
def second_head_leaves_the_sense(values) -> str:
    wrong = []
    for language, number, s in _sentences(values):
        both = lookup(values, f"examples.heads.sentences.{language}.{number - 1}.updated")
        if not _all_close(both[2:], s["sense_after"]):
            wrong.append((language, number, both[2:], s["sense_after"]))
    return require(not wrong, f"senses that head 2 changes: {wrong}")


@claim(refute=lambda v: set_value(v, "examples.heads.score_change", 0.5))
def basis_change_keeps_scores(values) -> str:
    heads = lookup(values, "examples.heads")
    moved = max(abs(a - b) for a, b in zip(heads["query"], heads["query_new"], strict=True))
    return require(heads["score_change"] < TOLERANCE and moved > 0.1
                   and abs(heads["det_M"]) > TOLERANCE,
                   f"the query moved by {moved:.3g}, the dot products by "
                   f"{heads['score_change']:.3g}; det M = {heads['det_M']!r}")


@claim(refute=lambda v: set_value(v, "examples.heads.output_change", 0.3))
def value_side_change_keeps_output(values) -> str:
    heads = lookup(values, "examples.heads")
    moved = heads["weight_change"]
    return require(heads["output_change"] < TOLERANCE and min(moved.values()) > 0.1
                   and abs(heads["det_N"]) > TOLERANCE and abs(heads["det_M"]) > TOLERANCE,
                   f"weights moved by up to {moved}, the layer's output by "
                   f"{heads['output_change']:.3g}")


@claim(refute=lambda v: set_value(v, "examples.heads.product_change.W_V_W_O", 0.2))
def only_products_are_pinned(values) -> str:
    heads = lookup(values, "examples.heads")
    products = heads["product_change"]
    return require(max(products.values()) < TOLERANCE
                   and heads["largest_product_change"] == max(products.values()) and
                   min(heads["weight_change"].values()) > 0.1,
                   f"products moved by {products}, the factors by {heads['weight_change']}")


@claim(refute=lambda v: set_value(v, "examples.heads.reorder_change", 0.2))
def head_order_is_free(values) -> str:
    change = lookup(values, "examples.heads.reorder_change")
    return require(change < TOLERANCE, f"renumbering the heads moves the output by {change:.3g}")


@claim(refute=lambda v: set_value(v, "examples.heads.swap_undone_change", 0.4))
def w_o_undoes_the_swap(values) -> str:
    heads = lookup(values, "examples.heads")
    return require(heads["swap_alone_change"] > 0.1 and heads["swap_undone_change"] < TOLERANCE,
                   f"the swap alone moves the output by at least "
                   f"{heads['swap_alone_change']:.3g}; with W_O adjusted by "
                   f"{heads['swap_undone_change']:.3g}")
