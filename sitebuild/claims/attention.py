"""Claims of the attention article (and the home page's picture), checked against
examples.json. Each is registered with the edit of the values that would make
its sentence false."""

from __future__ import annotations

import math

from sitebuild.claims import above, at_most, below, claim, difference, equal, evidence, set_value
from sitebuild.values import lookup

# Exact arithmetic on small numbers still rounds in float64 (0.1 * 3 is not 0.3).
TOLERANCE = 1e-12


def _sentences(values):
    """(language, sentence number from 1, sentence) for every bank sentence."""
    for language, pair in lookup(values, "examples.bank.sentences").items():
        for number, sentence in enumerate(pair, start=1):
            yield language, number, sentence


def _rounded(numbers, digits: int = 3) -> list[float]:
    return [round(x, digits) for x in numbers]


def _in_sentence(language: int, model: str, path: str, new):
    """A refutation: NEW at PATH of an entry of `examples.<MODEL>.sentences`, in the
    run's LANGUAGE-th language (in the run's order: 0 the first, -1 the last), so that
    the claims are seen to check every language's sentences, not the default's only."""
    def refute(values: dict) -> None:
        code = list(lookup(values, f"examples.{model}.sentences"))[language]
        set_value(values, f"examples.{model}.sentences.{code}.{path}", new)
    return refute


# ---------------------------------------------------------------------------
# Worked example: two positions, position 2's query
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.two_positions.W_K", [[0.0], [1.0]]))
def worked_key_is_ln3(values):
    """W_K's lower entry, the key k_1 and the ln 3 the page prints are all ln 3, to
    rounding."""
    example = lookup(values, "examples.two_positions")
    lower = example["W_K"][1][0]
    error = max(abs(x - math.log(3)) for x in (lower, example["ln3"], example["k_1"]))
    return evidence(below("ln3_error", error, TOLERANCE, "sci1"),
                    detail=f"W_K's lower entry {lower!r}, k_1 = {example['k_1']!r}, "
                           f"ln 3 = {example['ln3']!r}")


@claim(refute=lambda v: set_value(v, "examples.two_positions.exponentials", [math.e, 1.0]))
def worked_exponentials_are_whole(values):
    """The hand check's exponentials and their sum are whole numbers, to rounding."""
    example = lookup(values, "examples.two_positions")
    numbers = [*example["exponentials"], example["exponential_sum"]]
    return evidence(
        below("distance_from_whole_number", max(abs(x - round(x)) for x in numbers),
              TOLERANCE, "sci1"),
        detail=f"exponentials {example['exponentials']}, sum {example['exponential_sum']}")


@claim(refute=lambda v: set_value(v, "examples.two_positions.d_k", 2))
def worked_example_scale_is_one(values):
    """In the hand check d_k is 1, so the scores are the query-key dot products
    themselves."""
    example = lookup(values, "examples.two_positions")
    raw = [example["q_2"] * example["k_1"], example["q_2"] * example["k_2"]]
    return evidence(
        equal("key_dimension", example["d_k"], 1),
        below("dot_product_score_difference", difference(raw, example["scores"]),
              TOLERANCE, "sci1"),
        detail=f"d_k = {example['d_k']}, dot products {raw}, scores {example['scores']}")


@claim(refute=lambda v: set_value(v, "examples.two_positions.weights", [0.25, 0.75]))
def worked_output_leans_towards_position_1(values):
    """In the hand check position 1 gets the larger attention weight, the two weights
    sum to one, and the head output is their mixture of the value vectors, which
    differs from the input."""
    example = lookup(values, "examples.two_positions")
    a_1, a_2 = example["weights"]
    mixed = [a_1 * v1 + a_2 * v2 for v1, v2 in zip(example["v_1"], example["v_2"], strict=True)]
    return evidence(
        above("weight_of_position_1", a_1, a_2, "fix2"),
        below("weight_sum_distance_from_one", abs(a_1 + a_2 - 1.0), TOLERANCE, "sci1"),
        below("head_output_recomputed_difference", difference(mixed, example["h_2"]),
              TOLERANCE, "sci1"),
        above("head_output_input_difference", difference(example["h_2"], example["x_2"]), 0),
        detail=f"attention weights {example['weights']}, head output {example['h_2']}, "
               f"input {example['x_2']}",
    )


@claim(refute=lambda v: set_value(v, "examples.exercise.weights", [0.6, 0.4]))
def equal_scores_mix_evenly(values):
    """In the exercise the two scores are equal, so the two attention weights are, and
    the head output is the plain average of the hand check's value vectors."""
    exercise = lookup(values, "examples.exercise")
    example = lookup(values, "examples.two_positions")
    a_1, a_2 = exercise["weights"]
    average = [(v1 + v2) / 2 for v1, v2 in zip(exercise["v_1"], exercise["v_2"], strict=True)]
    value_change = max(difference(exercise["v_1"], example["v_1"]),
                       difference(exercise["v_2"], example["v_2"]))
    return evidence(
        equal("score_difference", exercise["scores"][0] - exercise["scores"][1], 0, "sig2"),
        below("weight_difference", abs(a_1 - a_2), TOLERANCE, "sci1"),
        below("head_output_recomputed_difference", difference(average, exercise["h_2"]),
              TOLERANCE, "sci1"),
        equal("value_vector_change_from_worked_example", value_change, 0, "sig2"),
        detail=f"scores {exercise['scores']} give attention weights {exercise['weights']} and "
               f"head output {exercise['h_2']}; value vectors {exercise['v_1']}, "
               f"{exercise['v_2']}, in the hand check {example['v_1']}, {example['v_2']}",
    )


# ---------------------------------------------------------------------------
# Scaling by √d_k
# ---------------------------------------------------------------------------
@claim(refute=lambda v: set_value(v, "examples.scaling.spread.9", 5.0))
def score_spread_grows_like_sqrt_dk(values):
    """At every d_k, the spread of the dot products is √d_k within five per cent, and
    the square roots the page prints beside them are √d_k."""
    scaling = lookup(values, "examples.scaling")
    ratios = [s / math.sqrt(d) for s, d in zip(scaling["spread"], scaling["d_k"], strict=True)]
    roots = [abs(r - math.sqrt(d)) for r, d in zip(scaling["root_d_k"], scaling["d_k"],
                                                    strict=True)]
    return evidence(
        below("spread_over_sqrt_dk_distance_from_one", max(abs(r - 1) for r in ratios), 0.05,
              "sig2"),
        below("square_root_recomputed_difference", max(roots), TOLERANCE, "sci1"),
        detail=f"spread / √d_k at d_k {scaling['d_k']}: {_rounded(ratios)}")


@claim(refute=lambda v: set_value(v, "examples.scaling.largest.largest_unscaled", 0.5))
def unscaled_softmax_saturates(values):
    """Without scaling, the mean largest attention weight grows with every d_k and, at
    the largest d_k (the value the page quotes), exceeds 0.9."""
    scaling = lookup(values, "examples.scaling")
    largest = scaling["largest_unscaled"]
    not_rising = [d for d, a, b in zip(scaling["d_k"][1:], largest, largest[1:], strict=False)
                  if not a < b]
    last = scaling["largest"]["largest_unscaled"]
    return evidence(
        equal("largest_weight_not_rising", len(not_rising), 0),
        equal("quoted_weight_difference", last - largest[-1], 0, "sig2"),
        above("largest_weight_unscaled_at_largest_dk", last, 0.9, "fix2"),
        detail=f"mean largest weight without scaling: {_rounded(largest)}; at the largest "
               f"d_k {last!r}; d_k where it does not grow: {not_rising or 'none'}",
    )


@claim(refute=lambda v: set_value(v, "examples.scaling.largest_scaled.9", 0.9))
def scaled_softmax_stays_spread(values):
    """With scaling, the mean largest attention weight stays below 0.5 at every d_k,
    varies by less than 0.1 across them, and stays above the uniform weight."""
    scaling = lookup(values, "examples.scaling")
    largest = scaling["largest_scaled"]
    return evidence(
        below("highest_largest_weight_scaled", max(largest), 0.5, "fix2"),
        below("largest_weight_scaled_range", max(largest) - min(largest), 0.1, "fix2"),
        above("lowest_largest_weight_scaled", min(largest), scaling["uniform_weight"], "sig3"),
        detail=f"mean largest weight with scaling: {_rounded(largest)}; uniform weight "
               f"{scaling['uniform_weight']!r}",
    )


# ---------------------------------------------------------------------------
# The bank model: queries and keys in the look plane
# ---------------------------------------------------------------------------
def _dot(a, b) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def _times(x, W) -> list[float]:
    """The row vector x times the matrix W (rows of W are x's coordinates): xW."""
    return [sum(x[r] * W[r][c] for r in range(len(x))) for c in range(len(W[0]))]


def _embeddings(values, s) -> list[list[float]]:
    """The embedding of each word of sentence S, from the model's table, by its role."""
    table = lookup(values, "examples.bank.model.embeddings")
    return [table[role] for role in s["roles"]]


@claim(refute=lambda v: set_value(v, "examples.bank.model.embeddings.clue_2",
                                  [1.0, 0.4, 0.0, 1.0]))
def clues_look_alike_but_differ_in_sense(values):
    """The two clues share one point of the look plane and lie apart in the sense
    plane."""
    embeddings = lookup(values, "examples.bank.model.embeddings")
    first, second = embeddings["clue_1"], embeddings["clue_2"]
    return evidence(
        below("clue_look_difference", difference(first[:2], second[:2]), TOLERANCE, "sci1"),
        above("clue_sense_difference", difference(first[2:], second[2:]), 0),
        detail=f"clue_1 {first}, clue_2 {second}")


def _rows(matrix, rows) -> list[float]:
    """The entries of MATRIX's ROWS (a slice), row by row."""
    return [x for row in matrix[rows] for x in row]


LOOK, SENSE = slice(0, 2), slice(2, 4)  # an embedding's coordinates: the two planes


@claim(refute=lambda v: set_value(v, "examples.bank.model.W_V.0.0", 0.5))
def projections_read_one_plane_each(values):
    """W_Q and W_K read only the look plane (their sense rows are zero), W_V only the
    sense plane (its look rows are zero)."""
    model = lookup(values, "examples.bank.model")
    outside = [abs(x) for name, ignored in (("W_Q", SENSE), ("W_K", SENSE), ("W_V", LOOK))
               for x in _rows(model[name], ignored)]
    return evidence(
        below("largest_entry_outside_its_plane", max(outside), TOLERANCE, "sci1"),
        detail=f"W_Q {model['W_Q']}, W_K {model['W_K']}, W_V {model['W_V']}")


@claim(refute=lambda v: set_value(v, "examples.bank.model.W_Q.0.1", 3.0))
def keys_copy_and_queries_turn_the_look_plane(values):
    """W_K's look rows are the identity, so a key is its word's look coordinates; W_Q's
    are c times the clockwise quarter turn [[0, -1], [1, 0]] (a row vector times it),
    c > 1: a quarter turn clockwise, stretched."""
    model = lookup(values, "examples.bank.model")
    W_Q, W_K = model["W_Q"][LOOK], model["W_K"][LOOK]
    stretch = W_Q[1][0]
    turn = [[0.0, -stretch], [stretch, 0.0]]
    identity = [[1.0, 0.0], [0.0, 1.0]]
    return evidence(
        below("key_look_rows_departure_from_identity",
              max(difference(row, want) for row, want in zip(W_K, identity, strict=True)),
              TOLERANCE, "sci1"),
        below("query_look_rows_departure_from_quarter_turn",
              max(difference(row, want) for row, want in zip(W_Q, turn, strict=True)),
              TOLERANCE, "sci1"),
        above("query_stretch", stretch, 1),
        detail=f"look rows of W_Q {W_Q}, of W_K {W_K}")


@claim(refute=_in_sentence(0, "bank", "1.Q.0", [1.0, 0.0]))
def bank_projections_are_embeddings_times_weights(values):
    """In every bank sentence each word's query, key and value are its embedding from
    the model's table times W_Q, W_K and W_V: q = xW_Q, k = xW_K, v = xW_V."""
    model = lookup(values, "examples.bank.model")
    differences, shown = [], []
    for language, number, s in _sentences(values):
        X = _embeddings(values, s)
        worst = max(difference(_times(x, model[matrix]), s[letter][i])
                    for i, x in enumerate(X)
                    for letter, matrix in (("Q", "W_Q"), ("K", "W_K"), ("V", "W_V")))
        differences.append(worst)
        shown.append(f"{language} {number}: {worst:.3g}")
    return evidence(
        below("projection_recomputed_difference", max(differences), TOLERANCE, "sci1"),
        detail="largest difference between a recorded query, key or value and the "
               "embedding times its matrix, per sentence: " + ", ".join(shown))


@claim(refute=lambda v: set_value(v, "examples.bank.model.W_O.0.0", 1.0))
def w_o_writes_head_1_into_the_sense_plane(values):
    """Head 1's rows of W_O have one row per coordinate of its output and one column per
    embedding coordinate; they are zero in the look columns and the identity in the
    sense columns: W_O copies h into the sense plane."""
    model = lookup(values, "examples.bank.model")
    W_O = model["W_O"]
    identity = [[1.0, 0.0], [0.0, 1.0]]
    look = max(abs(x) for row in W_O for x in row[LOOK])
    sense = max(difference(row[SENSE], want) for row, want in zip(W_O, identity, strict=True))
    return evidence(
        equal("rows_of_head_1_in_w_o", len(W_O), model["d_v"]),
        equal("columns_of_w_o", min(len(row) for row in W_O), model["d"]),
        below("largest_entry_outside_its_plane", look, TOLERANCE, "sci1"),
        below("sense_columns_departure_from_identity", sense, TOLERANCE, "sci1"),
        detail=f"head 1's rows of W_O {W_O}")


@claim(refute=_in_sentence(0, "bank", "1.scores.2", 3.0))
def bank_scores_are_scaled_dot_products(values):
    """In every bank sentence each score of "bank"'s row is its query's dot product
    with that word's key divided by √d_k, d_k being the keys' length."""
    d_k = lookup(values, "examples.bank.model.d_k")
    dots, scores, lengths, shown = [], [], [], []
    for language, number, s in _sentences(values):
        q = s["Q"][s["ambiguous"]]
        recomputed = [_dot(q, k) for k in s["K"]]
        dots.append(difference(recomputed, s["dot_products"]))
        scores.append(difference([d / math.sqrt(d_k) for d in recomputed], s["scores"]))
        lengths += [abs(len(k) - d_k) for k in s["K"]]
        shown.append(f"{language} {number}: scores {_rounded(s['scores'])}")
    return evidence(
        below("dot_product_recomputed_difference", max(dots), TOLERANCE, "sci1"),
        below("score_recomputed_difference", max(scores), TOLERANCE, "sci1"),
        equal("key_length_difference_from_d_k", max(lengths), 0),
        detail=f"d_k = {d_k}; " + "; ".join(shown))


@claim(refute=_in_sentence(0, "bank", "1.weights.5",
                            [0.1, 0.1, 0.6, 0.1, 0.05, 0.05]))
def bank_weights_are_softmax_of_scores(values):
    """In every bank sentence each row of the causal attention matrix is softmax of the
    row's scores, a_j = e^(s_j) / Σ_m e^(s_m) over the words the row may see, with the
    scores recomputed from the recorded queries and keys."""
    d_k = lookup(values, "examples.bank.model.d_k")
    differences, shown = [], []
    for language, number, s in _sentences(values):
        worst = 0.0
        for i, row in enumerate(s["weights"]):
            seen = [_dot(s["Q"][i], k) / math.sqrt(d_k) for k in s["K"][: i + 1]]
            exponentials = [math.exp(x - max(seen)) for x in seen]
            total = sum(exponentials)
            softmax = [e / total for e in exponentials] + [0.0] * (len(row) - i - 1)
            worst = max(worst, difference(softmax, row))
        differences.append(worst)
        shown.append(f"{language} {number}: {worst:.3g}")
    return evidence(
        below("weight_recomputed_difference", max(differences), TOLERANCE, "sci1"),
        detail="largest difference between a recorded attention weight and the softmax "
               "of its row's scores, per sentence: " + ", ".join(shown))


@claim(refute=_in_sentence(-1, "bank", "0.by_kind.self.value",
                            [0.5, 0.5]))
def bank_value_is_twice_its_start(values):
    """In every bank sentence the value of "bank" is twice its starting point in the
    sense plane, so the two are drawn apart, and a clue's value lies on its sense's
    axis."""
    starts, axes, shown = [], [], []
    for language, number, s in _sentences(values):
        value, start = s["by_kind"]["self"]["value"], s["sense_before"]
        starts.append(difference(value, [2 * x for x in start]))
        for j, role in enumerate(s["roles"]):
            if role.startswith("clue"):  # clue_1's value has no sense-2 part
                axes.append(abs(s["V"][j][2 - int(role[-1])]))
        shown.append(f"{language} {number}: value {_rounded(value)}, start {_rounded(start)}")
    return evidence(
        below("value_twice_start_difference", max(starts), TOLERANCE, "sci1"),
        below("clue_value_off_its_axis", max(axes), TOLERANCE, "sci1"),
        detail="; ".join(shown))


@claim(refute=_in_sentence(1, "bank", "1.contributions.3",
                            [0.0, 0.5]))
def bank_head_output_is_weighted_sum(values):
    """In every bank sentence each contribution to "bank"'s head output is a word's
    attention weight times its value, a_j v_j, and the head output h is their sum."""
    contributions, sums, shown = [], [], []
    for language, number, s in _sentences(values):
        row = s["weights"][s["ambiguous"]]
        contributions.append(max(difference([a * x for x in v], c) for a, v, c in
                                 zip(row, s["V"], s["contributions"], strict=True)))
        total = [sum(c[i] for c in s["contributions"]) for i in range(len(s["h"]))]
        sums.append(difference(total, s["h"]))
        shown.append(f"{language} {number}: h = {_rounded(s['h'])}")
    return evidence(
        below("contribution_recomputed_difference", max(contributions), TOLERANCE, "sci1"),
        below("head_output_recomputed_difference", max(sums), TOLERANCE, "sci1"),
        detail="; ".join(shown))


@claim(refute=_in_sentence(0, "bank", "1.K.0", [1.0, 0.2]))
def clue_key_aligns_with_the_query(values):
    """"bank"'s query points where the clue's key points; plain words' keys point away
    (a negative score), "bank"'s own key is at right angles (a score of zero)."""
    clue_dots, plain_dots, own_dots, recorded, shown = [], [], [], [], []
    for language, number, s in _sentences(values):
        q, roles = s["query"], s["roles"]
        dots = [_dot(q, k) for k in s["K"][: s["ambiguous"] + 1]]
        clue_dots.append(dots[s["clue"]])
        plain_dots += [d for d, r in zip(dots, roles, strict=False) if r == "plain"]
        own_dots.append(abs(dots[s["ambiguous"]]))
        recorded.append(difference(dots, s["dot_products"]))
        shown.append(f"{language} {number}: dot products {_rounded(dots)}")
    return evidence(
        above("smallest_clue_dot_product", min(clue_dots), 0),
        below("largest_plain_dot_product", max(plain_dots), 0),
        below("largest_own_dot_product", max(own_dots), TOLERANCE, "sci1"),
        below("recorded_difference", max(recorded), TOLERANCE, "sci1"),
        detail="; ".join(shown),
    )


@claim(refute=_in_sentence(0, "bank", "1.weights.5",
                            [0.3, 0.1, 0.2, 0.1, 0.1, 0.2]))
def bank_clue_gets_largest_weight(values):
    """In every bank sentence the clue gets most of the ambiguous word's attention: more
    than half, and more than any other word gets."""
    leads, clue_weights, recorded, shown = [], [], [], []
    for language, number, s in _sentences(values):
        row = s["weights"][s["ambiguous"]]
        others = [w for j, w in enumerate(row) if j != s["clue"]]
        clue = row[s["clue"]] if s["clue"] is not None else 0.0
        leads.append(clue - max(others))
        clue_weights.append(clue)
        recorded.append(abs(clue - s["clue_weight"]))
        shown.append(f"{language} {number}: attention weights {_rounded(row)}, clue at "
                     f"{s['clue']}")
    return evidence(
        above("clue_weight_lead_over_other_words", min(leads), 0, "sig2"),
        above("smallest_clue_weight", min(clue_weights), 0.5, "fix2"),
        below("recorded_difference", max(recorded), TOLERANCE, "sci1"),
        detail="; ".join(shown),
    )


@claim(refute=_in_sentence(-1, "bank", "1.plain_weights.0", 0.2))
def plain_words_get_little(values):
    """Each plain word gets less than "bank" itself, whose score is zero, and "bank"
    less than the clue."""
    over_plain, under_clue, shown = [], [], []
    for language, number, s in _sentences(values):
        # A sentence without plain words has none that gets little: no bound holds.
        over_plain.append(s["self_weight"] - max(s["plain_weights"], default=math.inf))
        under_clue.append(s["clue_weight"] - s["self_weight"])
        shown.append(f"{language} {number}: plain words {_rounded(s['plain_weights'])}, "
                     f"'bank' itself {s['self_weight']:.3f}, clue {s['clue_weight']:.3f}")
    return evidence(
        above("own_weight_lead_over_plain_words", min(over_plain), 0, "sig2"),
        above("clue_weight_lead_over_own_weight", min(under_clue), 0, "sig2"),
        detail="; ".join(shown),
    )


# ---------------------------------------------------------------------------
# From scores to weights, and the mask
# ---------------------------------------------------------------------------
@claim(refute=_in_sentence(0, "bank", "1.clue_to_self", 3.0))
def weight_ratio_is_exp_of_gap(values):
    """In every bank sentence the clue's weight over "bank"'s own is e to the power of
    their score gap, and the recorded ratio is that quotient."""
    from_gap, recorded, shown = [], [], []
    for language, number, s in _sentences(values):
        gap = s["by_kind"]["clue"]["score"] - s["by_kind"]["self"]["score"]
        ratio = s["clue_weight"] / s["self_weight"]
        from_gap.append(abs(s["clue_to_self"] - math.exp(gap)))
        recorded.append(abs(ratio - s["clue_to_self"]))
        shown.append(f"{language} {number}: recorded ratio {s['clue_to_self']!r}, "
                     f"e^(score gap) {math.exp(gap)!r}")
    return evidence(
        below("ratio_difference_from_exp_of_gap", max(from_gap), 1e-9, "sci1"),
        below("recorded_difference", max(recorded), TOLERANCE, "sci1"),
        detail="; ".join(shown),
    )


@claim(refute=_in_sentence(1, "bank", "1.shifted_weights.0", 0.3))
def constant_shift_changes_nothing(values):
    """Adding a constant (not zero) to every score, or subtracting the largest, leaves
    every bank sentence's attention weights as they are."""
    changes = {f"{language} {number}": max(difference(s["shifted_weights"], row),
                                            difference(s["unshifted_weights"], row))
               for language, number, s in _sentences(values)
               for row in [s["weights"][s["ambiguous"]]]}
    shift = lookup(values, "examples.bank.shift")
    return evidence(
        below("weight_change_by_shift", max(changes.values()), TOLERANCE, "sci1"),
        above("added_constant", abs(shift), 0),
        detail=f"constant {shift!r}; largest change of a weight per sentence: "
               + ", ".join(f"{k}: {v:.3g}" for k, v in changes.items()),
    )


@claim(refute=_in_sentence(0, "bank", "1.weights.0.1", 0.5))
def causal_mask_zeroes_future(values):
    """With the causal mask, both heads give every later word a weight of exactly zero,
    in every bank sentence."""
    future = [w for _, _, s in _sentences(values) for head in _patterns(values, s)
              for i, row in enumerate(head) for j, w in enumerate(row) if j > i]
    return evidence(equal("largest_future_weight", max(map(abs, future), default=0.0), 0,
                          "sig2"),
                    detail=f"largest weight on a future word: {max(future, default=0.0)!r}")


def _patterns(values, s):
    """Head 1's and head 2's attention matrices of sentence S."""
    language = next(lang for lang, pair in lookup(values, "examples.bank.sentences").items()
                    if any(x is s for x in pair))
    number = lookup(values, f"examples.bank.sentences.{language}").index(s)
    return s["weights"], lookup(values, f"examples.heads.sentences.{language}.{number}.weights_2")


@claim(refute=_in_sentence(-1, "bank", "0.weights.3",
                            [0.1, 0.1, 0.1, 0.6, 0.0]))
def causal_rows_sum_to_one(values):
    """With the causal mask, every row of both heads' attention matrices sums to one,
    and every word a row may see gets some weight."""
    sums = [sum(row) for _, _, s in _sentences(values) for head in _patterns(values, s)
            for row in head]
    past = [w for _, _, s in _sentences(values) for head in _patterns(values, s)
            for i, row in enumerate(head) for w in row[: i + 1]]
    return evidence(
        below("row_sum_distance_from_one", max(abs(total - 1.0) for total in sums),
              TOLERANCE, "sci1"),
        above("smallest_visible_weight", min(past), 0.0),
        detail=f"row sums from {min(sums)!r} to {max(sums)!r}; smallest weight on a "
               f"visible word {min(past)!r}",
    )


@claim(refute=_in_sentence(0, "bank", "0.prefix_difference", 0.1))
def mask_equals_prefixes(values):
    """Each masked row of attention weights is the row its prefix alone gives, to
    rounding."""
    differences = {f"{language} {number}": s["prefix_difference"]
                   for language, number, s in _sentences(values)}
    return evidence(
        below("prefix_difference", max(differences.values()), TOLERANCE, "sci1"),
        detail="largest difference between a masked row and its prefix alone, per "
               "sentence: " + ", ".join(f"{k}: {v:.3g}" for k, v in differences.items()))


@claim(refute=_in_sentence(-1, "bank", "1.order_difference", 0.2))
def word_order_is_invisible(values):
    """Reversing the words before "bank" leaves its head output as it is, to rounding."""
    differences = {f"{language} {number}": s["order_difference"]
                   for language, number, s in _sentences(values)}
    return evidence(
        below("head_output_change_by_reversal", max(differences.values()), TOLERANCE, "sci1"),
        detail="largest change of 'bank''s head output when the words before it are "
               "reversed, per sentence: "
               + ", ".join(f"{k}: {v:.3g}" for k, v in differences.items()))


@claim(refute=_in_sentence(1, "bank", "0.clue", 5))
def clues_precede_the_ambiguous_word(values):
    """In every bank sentence the clue comes before the ambiguous word and gets some of
    its attention: the causal mask lets it see the clue."""
    late = [f"{language} {number}" for language, number, s in _sentences(values)
            if s["clue"] is None or s["clue"] >= s["ambiguous"]
            or s["weights"][s["ambiguous"]][s["clue"]] <= 0.0]
    return evidence(equal("sentences_whose_clue_is_not_visible", len(late), 0),
                    detail=f"sentences whose clue is not visible to the ambiguous word: "
                           f"{', '.join(late) or 'none'}")


# ---------------------------------------------------------------------------
# Values and the update; the value swap
# ---------------------------------------------------------------------------
def _lead(sense, towards: int) -> float:
    """How far SENSE leans to coordinate TOWARDS: positive if it does."""
    return sense[towards] - sense[1 - towards]


@claim(refute=_in_sentence(-1, "bank", "1.h",
                            [0.8546845764260097, 0.020759346224855764]))
def bank_outputs_differ(values):
    """"bank"'s head output is the attention-weighted mixture of the value vectors and
    leans to the sentence's own sense: the two sentences of a language give different
    outputs."""
    recomputed, leads, shown = [], [], []
    for language, number, s in _sentences(values):
        row = s["weights"][s["ambiguous"]]
        mixed = [sum(a * v[c] for a, v in zip(row, s["V"], strict=True)) for c in range(2)]
        recomputed.append(difference(mixed, s["h"]))
        leads.append(_lead(s["h"], number - 1))
        shown.append(f"{language} {number}: head output {_rounded(s['h'])}")
    return evidence(
        below("head_output_recomputed_difference", max(recomputed), TOLERANCE, "sci1"),
        above("head_output_lead_to_own_sense", min(leads), 0, "sig2"),
        detail="; ".join(shown),
    )


@claim(refute=_in_sentence(1, "bank", "0.sense_after", [0.5, 1.3]))
def bank_moves_towards_its_sense(values):
    """"bank" starts in the middle of the sense plane and the update (its head output
    added) moves it towards the sentence's own sense."""
    middle, update, leads, shown = [], [], [], []
    for language, number, s in _sentences(values):
        before, after = s["sense_before"], s["sense_after"]
        added = [b + h for b, h in zip(before, s["h"], strict=True)]
        middle.append(abs(before[0] - before[1]))
        update.append(difference(after, added))
        leads.append(_lead(after, number - 1))
        shown.append(f"{language} {number}: sense coordinates before {_rounded(before)}, "
                     f"after {_rounded(after)}")
    return evidence(
        below("sense_imbalance_before_update", max(middle), TOLERANCE, "sci1"),
        below("update_recomputed_difference", max(update), TOLERANCE, "sci1"),
        above("lead_to_own_sense_after_update", min(leads), 0, "sig2"),
        detail="; ".join(shown),
    )


def _move(s) -> float:
    """How far "bank" moves in the sense plane in sentence S: the length of its update."""
    return math.dist(s["sense_after"], s["sense_before"])


@claim(refute=_in_sentence(0, "bank", "0.sense_after", [1.5, 0.6]))
def longer_move_has_fewer_plain_words(values):
    """In every language both clues get the same score from "bank", and "bank" moves
    further in the sentence with fewer plain words to share the weight (as far in
    both where the counts are equal); the two counts differ by at most one."""
    gaps, disordered, counts, shown = [], [], [], []
    for language, pair in lookup(values, "examples.bank.sentences").items():
        plain = [s["roles"].count("plain") for s in pair]
        moves = [_move(s) for s in pair]
        gaps.append(abs(pair[0]["by_kind"]["clue"]["score"] - pair[1]["by_kind"]["clue"]["score"]))
        longer = 0 if abs(moves[0] - moves[1]) < TOLERANCE else (1 if moves[0] > moves[1] else -1)
        fewer = 0 if plain[0] == plain[1] else (1 if plain[0] < plain[1] else -1)
        if longer != fewer:
            disordered.append(language)
        counts.append(abs(plain[0] - plain[1]))
        shown.append(f"{language}: plain words {plain}, moves {_rounded(moves)}")
    return evidence(
        below("clue_score_difference_between_sentences", max(gaps), TOLERANCE, "sci1"),
        equal("languages_whose_longer_move_has_more_plain_words", len(disordered), 0),
        at_most("plain_word_count_difference", max(counts), 1),
        detail="; ".join(shown))


@claim(refute=_in_sentence(0, "bank", "0.swapped.weights",
                            [0.2, 0.2, 0.2, 0.2, 0.2]))
def value_swap_keeps_weights(values):
    """Swapping W_V's columns leaves every bank sentence's attention weights as they
    are, to rounding."""
    moved = {f"{language} {number}": max(
        difference(s["swapped"]["weights"], s["weights"][s["ambiguous"]]),
        abs(s["swapped"]["clue_weight"] - s["clue_weight"]))
        for language, number, s in _sentences(values)}
    return evidence(
        below("weight_change_by_swap", max(moved.values()), TOLERANCE, "sci1"),
        detail="largest change of a weight with the swap, per sentence: "
               + ", ".join(f"{k}: {v:.3g}" for k, v in moved.items()))


@claim(refute=_in_sentence(0, "bank", "1.swapped.sense_after",
                            [0.548, 1.345]))
def value_swap_sends_bank_to_the_other_sense(values):
    """With W_V's columns swapped, "bank"'s head output is the original with its two
    coordinates swapped, and the update moves "bank" towards the other sense."""
    swapped_output, leads, shown = [], [], []
    for language, number, s in _sentences(values):
        swapped = s["swapped"]
        swapped_output.append(difference(swapped["h"], s["h"][::-1]))
        leads.append(_lead(swapped["sense_after"], 2 - number))
        shown.append(f"{language} {number}: sense coordinates after the swap "
                     f"{_rounded(swapped['sense_after'])}")
    return evidence(
        below("swapped_head_output_difference", max(swapped_output), TOLERANCE, "sci1"),
        above("lead_to_other_sense_after_swap", min(leads), 0, "sig2"),
        detail="; ".join(shown),
    )


# ---------------------------------------------------------------------------
# Two heads; what the weights do not determine
# ---------------------------------------------------------------------------
@claim(refute=_in_sentence(0, "heads", "1.weights_2.5",
                            [0.1, 0.1, 0.5, 0.1, 0.1, 0.1]))
def second_head_looks_at_words_like_itself(values):
    """In every row of head 2, the largest weight falls only on words of the row's own
    kind, and "bank" gives more than half of it to itself."""
    off_kind, own_weights, recorded = [], [], []
    for language, pair in lookup(values, "examples.heads.sentences").items():
        for number, (s, s2) in enumerate(zip(lookup(values, f"examples.bank.sentences."
                                                           f"{language}"), pair,
                                             strict=True), start=1):
            roles = s["roles"]
            for i, row in enumerate(s2["weights_2"]):
                best = max(row[: i + 1])
                if any(abs(w - best) < TOLERANCE and roles[j] != roles[i]
                       for j, w in enumerate(row)):
                    off_kind.append(f"{language} {number}, row {i + 1}")
            own = s2["weights_2"][s["ambiguous"]][s["ambiguous"]]
            own_weights.append(own)
            recorded.append(abs(own - s2["self_weight_2"]))
    return evidence(
        equal("head_2_rows_off_kind", len(off_kind), 0),
        above("smallest_own_weight_head_2", min(own_weights), 0.5, "fix2"),
        below("recorded_difference", max(recorded), TOLERANCE, "sci1"),
        detail=f"rows of head 2 whose largest weight is not on a word of the same kind: "
               f"{', '.join(off_kind) or 'none'}; 'bank''s weight on itself: "
               f"{_rounded(own_weights)}",
    )


@claim(refute=_in_sentence(0, "bank", "1.weights.1",
                            [0.6, 0.4, 0.0, 0.0, 0.0, 0.0]))
def first_head_rows_follow_the_quarter_turn(values):
    """In head 1 every word's query is at right angles to its own key; so a row that sees
    only words of its own kind (plain words) splits its weight evenly, and the clue,
    whose query leans towards the plain words' keys, gives each of them more than
    itself."""
    own_dots, spreads, leads, shown = [], [], [], []
    for language, number, s in _sentences(values):
        roles = s["roles"]
        own_dots += [abs(_dot(q, k)) for q, k in zip(s["Q"], s["K"], strict=True)]
        for i, row in enumerate(s["weights"]):
            seen = row[: i + 1]
            if all(roles[j] == roles[i] for j in range(i + 1)):
                spreads.append(max(seen) - min(seen))
        clue = s["clue"]
        # A sentence without a plain word before its clue has no such row: no bound holds.
        leads.append(min((w - s["weights"][clue][clue] for j, w in
                          enumerate(s["weights"][clue][:clue]) if roles[j] == "plain"),
                         default=-math.inf))
        shown.append(f"{language} {number}: the clue's row {_rounded(s['weights'][clue])}")
    return evidence(
        below("own_key_dot_product_head_1", max(own_dots), TOLERANCE, "sci1"),
        below("weight_spread_among_own_kind", max(spreads), TOLERANCE, "sci1"),
        above("plain_weight_lead_in_clue_row", min(leads), 0),
        detail="; ".join(shown),
    )


@claim(refute=_in_sentence(1, "heads", "1.updated.2", 0.9))
def second_head_leaves_the_sense(values):
    """With both heads, "bank"'s sense coordinates are those head 1 alone gives: head 2
    leaves them as they are."""
    changes, shown = [], []
    for language, number, s in _sentences(values):
        both = lookup(values, f"examples.heads.sentences.{language}.{number - 1}.updated")
        changes.append(difference(both[2:], s["sense_after"]))
        shown.append(f"{language} {number}: sense coordinates with both heads "
                     f"{_rounded(both[2:])}, head 1 alone {_rounded(s['sense_after'])}")
    return evidence(below("sense_change_by_head_2", max(changes), TOLERANCE, "sci1"),
                    detail="; ".join(shown))


@claim(refute=lambda v: set_value(v, "examples.heads.score_change", 0.5))
def basis_change_keeps_scores(values):
    """An invertible change of basis M moves the query visibly but leaves every dot
    product as it is, to rounding."""
    heads = lookup(values, "examples.heads")
    moved = max(abs(a - b) for a, b in zip(heads["query"], heads["query_new"], strict=True))
    return evidence(
        below("dot_product_change", heads["score_change"], TOLERANCE, "sci1"),
        above("query_change", moved, 0.1, "fix2"),
        above("det_M_size", abs(heads["det_M"]), TOLERANCE, "sig2", bound_style="sci1"),
        detail=f"the query moved by {moved:.3g}, the dot products by "
               f"{heads['score_change']:.3g}; det M = {heads['det_M']!r}",
    )


def _key_grows(values) -> None:
    set_value(values, "examples.heads.clue_key_new", [2.0, 0.0])


@claim(refute=_key_grows)
def basis_change_trades_query_length_for_key_length(values):
    """Under the change of basis M the query of "bank" grows longer and the clue's key
    shorter (the figure's "grows", "shrinks"), the dot product staying as it was."""
    heads = lookup(values, "examples.heads")
    length = {name: math.hypot(*heads[name])
              for name in ("query", "query_new", "clue_key", "clue_key_new")}
    return evidence(
        above("query_length_after", length["query_new"], length["query"], "sig3"),
        below("key_length_after", length["clue_key_new"], length["clue_key"], "sig3"),
        detail=f"|q| {length['query']:.3g} -> {length['query_new']:.3g}, |k| "
               f"{length['clue_key']:.3g} -> {length['clue_key_new']:.3g}",
    )


@claim(refute=lambda v: set_value(v, "examples.heads.output_change", 0.3))
def value_side_change_keeps_output(values):
    """Invertible changes of basis on both sides move every weight matrix visibly but
    leave the layer's output as it is, to rounding."""
    heads = lookup(values, "examples.heads")
    moved = heads["weight_change"]
    return evidence(
        below("output_change", heads["output_change"], TOLERANCE, "sci1"),
        above("smallest_weight_matrix_change", min(moved.values()), 0.1, "fix2"),
        above("det_N_size", abs(heads["det_N"]), TOLERANCE, "sig2", bound_style="sci1"),
        above("det_M_size", abs(heads["det_M"]), TOLERANCE, "sig2", bound_style="sci1"),
        detail=f"weights moved by up to {moved}, the layer's output by "
               f"{heads['output_change']:.3g}; det M = {heads['det_M']!r}, "
               f"det N = {heads['det_N']!r}",
    )


@claim(refute=lambda v: set_value(v, "examples.heads.product_change.W_V_W_O", 0.2))
def only_products_are_pinned(values):
    """The changes of basis move every weight matrix visibly but leave the products
    W_Q W_Kᵀ and W_V W_O as they are, to rounding."""
    heads = lookup(values, "examples.heads")
    products = heads["product_change"]
    return evidence(
        below("product_change", max(products.values()), TOLERANCE, "sci1"),
        equal("recorded_difference", abs(heads["largest_product_change"]
                                         - max(products.values())), 0, "sci1"),
        above("smallest_weight_matrix_change", min(heads["weight_change"].values()), 0.1,
              "fix2"),
        detail=f"products moved by {products} (recorded largest "
               f"{heads['largest_product_change']!r}), the factors by {heads['weight_change']}",
    )


@claim(refute=lambda v: set_value(v, "examples.heads.reorder_change", 0.2))
def head_order_is_free(values):
    """Renumbering the heads (and W_O's blocks with them) leaves the output as it is, to
    rounding."""
    change = lookup(values, "examples.heads.reorder_change")
    return evidence(below("output_change_by_renumbering", change, TOLERANCE, "sci1"),
                    detail=f"renumbering the heads moves the output by {change:.3g}")


@claim(refute=lambda v: set_value(v, "examples.heads.swap_undone_change", 0.4))
def w_o_undoes_the_swap(values):
    """Swapping W_V's columns alone moves the output visibly; with W_O adjusted to
    match, the output is as it was, to rounding."""
    heads = lookup(values, "examples.heads")
    return evidence(
        above("output_change_by_swap_alone", heads["swap_alone_change"], 0.1, "fix2"),
        below("output_change_with_w_o_adjusted", heads["swap_undone_change"], TOLERANCE,
              "sci1"),
        detail=f"the swap alone moves the output by {heads['swap_alone_change']:.3g}; with "
               f"W_O adjusted by {heads['swap_undone_change']:.3g}",
    )
