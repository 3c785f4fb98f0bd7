"""Every claim holds on this build's default computations, and fails, naming itself,
on the values its refutation makes: no claim passes whatever the data."""

import copy

import pytest

from sitebuild import claims

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", sorted(claims.REGISTRY))
def test_claim_holds_on_the_default_run(name, computed_values):
    assert claims.check(name, computed_values)


@pytest.mark.parametrize("name", sorted(claims.REGISTRY))
def test_claim_fails_on_its_refutation_and_names_itself(name, computed_values):
    refuted = copy.deepcopy(computed_values)
    claims.REGISTRY[name].refute(refuted)
    assert refuted != computed_values, "the refutation changed nothing"
    with pytest.raises(claims.ClaimRefuted, match=rf"^{name}: "):
        claims.check(name, refuted)


def test_an_unknown_claim_is_not_a_refuted_one():
    with pytest.raises(claims.UnknownClaim, match="no_such_claim"):
        claims.check("no_such_claim", {})
