"""Every claim holds on this build's default computations, and fails, naming itself,
on the values its refutation makes: no claim passes whatever the data. Every claim
says what it checks, and every quantity it measures has words in every language of
the evidence notes."""

import copy

import pytest

from sitebuild import claims
from sitebuild.evidence import words
from tests.project import LANGUAGES

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def evidence_of(computed_values) -> dict[str, claims.Evidence]:
    """Each claim's evidence on the default run, checked once."""
    return {name: claims.check(name, computed_values) for name in claims.REGISTRY}


@pytest.mark.parametrize("name", sorted(claims.REGISTRY))
def test_claim_holds_on_the_default_run(name, evidence_of):
    found = evidence_of[name]
    assert isinstance(found, claims.Evidence)
    assert found.measures and found.holds, found


@pytest.mark.parametrize("name", sorted(claims.REGISTRY))
def test_claim_fails_on_its_refutation_and_names_itself(name, computed_values):
    refuted = copy.deepcopy(computed_values)
    claims.REGISTRY[name].refute(refuted)
    assert refuted != computed_values, "the refutation changed nothing"
    with pytest.raises(claims.ClaimRefuted, match=rf"^{name}: "):
        claims.check(name, refuted)


@pytest.mark.parametrize("name", sorted(claims.REGISTRY))
def test_a_refuted_claim_carries_its_failing_measures(name, computed_values):
    refuted = copy.deepcopy(computed_values)
    claims.REGISTRY[name].refute(refuted)
    with pytest.raises(claims.ClaimRefuted) as raised:
        claims.check(name, refuted)
    found = raised.value.evidence
    assert isinstance(found, claims.Evidence)
    assert any(not measure.holds for measure in found.measures), found


def test_a_claim_that_does_not_say_what_it_checks_is_refused():
    def unexplained(values):
        return claims.evidence()

    with pytest.raises(ValueError, match="needs a docstring"):
        claims.register("unexplained_claim", unexplained, lambda values: None)
    assert "unexplained_claim" not in claims.REGISTRY


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_measured_quantity_has_words_in_every_language(language, evidence_of):
    said = words(language)["quantities"]
    missing = sorted({(measure.quantity, name) for name, found in evidence_of.items()
                      for measure in found.measures
                      if not str(said.get(measure.quantity) or "").strip()})
    assert not missing, f"quantities without {language} words (quantity, claim): {missing}"


def test_an_unknown_claim_is_not_a_refuted_one():
    with pytest.raises(claims.UnknownClaim, match="no_such_claim"):
        claims.check("no_such_claim", {})
