"""Alert rules against the figures the product stores: the traffic summary's p95 and 5xx
share, the capacity analysis' knee and SLA target. References: the log's own latencies
and statuses (alerts.conftest builds it), and the analysis report as the API serves it."""

from typing import Any

import numpy as np
import pytest
from alerts.conftest import AlertWorld

from support.alert_data import error_share, latencies_s


def rule(world: AlertWorld, dataset_id: int, **body: Any) -> dict[str, Any]:
    response = world.clients["editor"].post(
        f"/api/v1/datasets/{dataset_id}/alert-rules", json={"name": "r", **body}
    )
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def evaluate(world: AlertWorld, dataset_id: int, rule_id: int) -> dict[str, Any]:
    """Evaluates the dataset's rules now; this rule's evaluation."""
    response = world.clients["editor"].post(f"/api/v1/datasets/{dataset_id}/alert-rules/evaluate")
    assert response.status_code == 200, response.text
    (found,) = [e for e in response.json() if e["rule_id"] == rule_id]
    return dict(found)


def disable(world: AlertWorld, rule_id: int) -> None:
    """So that later tests' evaluations of the same dataset leave this rule alone."""
    response = world.clients["editor"].patch(
        f"/api/v1/alert-rules/{rule_id}", json={"enabled": False}
    )
    assert response.status_code == 200 and response.json()["enabled"] is False


def test_p95_rule_reads_the_p95_of_the_log(world: AlertWorld) -> None:
    ordered = latencies_s(world.table)
    rank = 0.95 * ordered.size
    # any usual definition of the 95th percentile lies between these order statistics
    low, high = ordered[int(np.floor(rank)) - 1], ordered[min(int(np.ceil(rank)), ordered.size - 1)]
    above = rule(world, world.plain_id, kind="p95_above_sla", threshold=low / 2)
    fired = evaluate(world, world.plain_id, above["id"])
    assert fired["outcome"] == "fired" and fired["limit_value"] == low / 2
    assert low - 1e-6 <= fired["value"] <= high + 1e-6
    summary = world.clients["viewer"].get(f"/api/v1/datasets/{world.plain_id}/summary").json()
    assert fired["value"] == summary["latency"]["p95_s"]
    assert "above the threshold" in fired["message"]
    disable(world, above["id"])
    within = rule(world, world.plain_id, kind="p95_above_sla", threshold=high * 2)
    assert evaluate(world, world.plain_id, within["id"])["outcome"] == "ok"
    disable(world, within["id"])


def test_p95_rule_without_seconds_needs_an_sla_target(world: AlertWorld) -> None:
    bare = rule(world, world.plain_id, kind="p95_above_sla")
    skipped = evaluate(world, world.plain_id, bare["id"])
    assert skipped["outcome"] == "not_evaluated"
    assert skipped["message"].startswith("not evaluated: no SLA target")
    disable(world, bare["id"])


def test_p95_rule_takes_the_sla_target_of_the_capacity_analysis(world: AlertWorld) -> None:
    sla = world.report["classes"]["all"]["sla"]
    assert sla is not None and sla["threshold_s"] > 0
    bare = rule(world, world.analysed_id, kind="p95_above_sla")
    done = evaluate(world, world.analysed_id, bare["id"])
    assert done["limit_value"] == pytest.approx(sla["threshold_s"], rel=1e-12)
    assert done["outcome"] == ("fired" if done["value"] > sla["threshold_s"] else "ok")
    assert "the SLA target" in done["message"]
    disable(world, bare["id"])


def test_knee_rule_without_a_capacity_analysis_is_not_evaluated(world: AlertWorld) -> None:
    knee = rule(world, world.plain_id, kind="knee_below_baseline", threshold=10.0)
    skipped = evaluate(world, world.plain_id, knee["id"])
    assert skipped["outcome"] == "not_evaluated"
    assert skipped["message"] == "not evaluated: no capacity analysis"
    assert skipped["deliveries"] == []
    disable(world, knee["id"])


def test_knee_rule_against_a_stored_baseline(world: AlertWorld) -> None:
    knee = world.report["classes"]["all"]["knee"]["load_per_s"]
    lower = rule(world, world.analysed_id, kind="knee_below_baseline", threshold=knee * 1.5)
    fired = evaluate(world, world.analysed_id, lower["id"])
    assert fired["outcome"] == "fired"
    assert fired["value"] == pytest.approx(knee, rel=1e-12)
    assert fired["limit_value"] == pytest.approx(knee * 1.5)
    disable(world, lower["id"])
    higher = rule(world, world.analysed_id, kind="knee_below_baseline", threshold=knee * 0.5)
    assert evaluate(world, world.analysed_id, higher["id"])["outcome"] == "ok"
    disable(world, higher["id"])


def test_knee_rule_against_the_previous_evaluation(world: AlertWorld) -> None:
    knee = world.report["classes"]["all"]["knee"]["load_per_s"]
    previous = rule(world, world.analysed_id, kind="knee_below_baseline")
    first = evaluate(world, world.analysed_id, previous["id"])
    assert first["outcome"] == "not_evaluated" and "no baseline yet" in first["message"]
    assert first["value"] == pytest.approx(knee, rel=1e-12)
    second = evaluate(world, world.analysed_id, previous["id"])
    assert second["outcome"] == "ok" and second["limit_value"] == first["value"]
    disable(world, previous["id"])


def test_error_rate_rule_reads_the_5xx_share(world: AlertWorld) -> None:
    share = error_share(world.table)
    above = rule(world, world.plain_id, kind="error_rate_above", threshold=share * 0.9)
    fired = evaluate(world, world.plain_id, above["id"])
    assert fired["outcome"] == "fired" and fired["value"] == pytest.approx(share, rel=1e-12)
    disable(world, above["id"])
    within = rule(world, world.plain_id, kind="error_rate_above", threshold=share * 1.1)
    assert evaluate(world, world.plain_id, within["id"])["outcome"] == "ok"
    disable(world, within["id"])


@pytest.mark.parametrize("threshold", [None, 1.5])
def test_error_rate_rule_needs_a_share(world: AlertWorld, threshold: float | None) -> None:
    response = world.clients["editor"].post(
        f"/api/v1/datasets/{world.plain_id}/alert-rules",
        json={"name": "e", "kind": "error_rate_above", "threshold": threshold},
    )
    assert response.status_code == 422


def test_history_is_newest_first_and_disabled_rules_are_left_alone(world: AlertWorld) -> None:
    made = rule(world, world.plain_id, kind="error_rate_above", threshold=0.5)
    ids = [evaluate(world, world.plain_id, made["id"])["id"] for _ in range(3)]
    disable(world, made["id"])
    world.clients["editor"].post(f"/api/v1/datasets/{world.plain_id}/alert-rules/evaluate")
    page = (
        world.clients["viewer"]
        .get(f"/api/v1/alert-rules/{made['id']}/evaluations", params={"limit": 2})
        .json()
    )
    assert page["total"] == 3 and [e["id"] for e in page["items"]] == ids[::-1][:2]
    listed = world.clients["viewer"].get(f"/api/v1/datasets/{world.plain_id}/alert-rules").json()
    (mine,) = [r for r in listed if r["id"] == made["id"]]
    assert mine["last_evaluation"]["id"] == ids[-1]
