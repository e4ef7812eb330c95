"""The SLA gate's verdicts from given figures (headroom.client.check): a knee below its limit fails
saying by how much, a skipped check (no knee) is listed with its reason, has no figures,
and does not fail the gate. Reference: the arithmetic done here by hand."""

from headroom.client import check


def test_a_knee_drop_beyond_the_allowed_fraction_fails_by_how_much() -> None:
    dropped = check.knee_regression("all requests", 30.0, 50.0, 0.1)  # limit 45 req/s
    assert dropped.limit == 45.0 and dropped.passed is False
    assert dropped.describe() == (
        "FAIL knee load vs baseline (all requests): 30 req/s, 15 req/s, 33.3% under the limit "
        "45 req/s"
    )
    equal = check.knee_regression("all requests", 50.0, 50.0, 0.1)
    assert equal.passed is True
    assert equal.describe().startswith("PASS knee load vs baseline (all requests): 50 req/s >=")
    assert check.verdict([dropped, equal])["passed"] is False


def test_a_skipped_knee_is_reported_and_does_not_fail_the_gate() -> None:
    skipped = check.knee_skipped("dynamic", "no knee in either dataset: the knee is not compared")
    assert skipped.passed is None
    assert skipped.describe() == (
        "SKIP knee load vs baseline (dynamic): no knee in either dataset: the knee is not compared"
    )
    p95 = check.p95_regression("dynamic", 1.0, 1.0, 0.1)
    result = check.verdict([p95, skipped])
    assert result["passed"] is True
    assert result["checks"] == [
        {
            "name": "p95 latency vs baseline (dynamic)",
            "limit": 1.1,
            "observed": 1.0,
            "unit": "s",
            "passed": True,
        },
        {
            "name": "knee load vs baseline (dynamic)",
            "limit": None,
            "observed": None,
            "unit": "req/s",
            "passed": None,
            "skipped": "no knee in either dataset: the knee is not compared",
        },
    ]
    failing = check.p95_regression("dynamic", 2.0, 1.0, 0.1)
    assert check.verdict([failing, skipped])["passed"] is False
