"""Each exported value traced to the scenario or analysis field it comes from: the field
is changed in the demo's reference scenario (or its analyses) and the value follows, by
the rule worked by hand beside it."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
import yaml

from headroom.engine.export import ExportError, ExportOptions, from_analysis, from_scenario

from .support import demo_capacity, demo_sct, replaced, scenario

DEFAULTS = ExportOptions()


def hpa(**changes: Any) -> dict[str, Any]:
    return yaml.safe_load(from_scenario("hpa", scenario(**changes), DEFAULTS).content)["spec"]


def test_hpa_replicas_from_the_vm_bounds() -> None:
    spec = hpa(cluster={"vms": {"min": 3, "max": 42, "start": 5}})
    assert (spec["minReplicas"], spec["maxReplicas"]) == (3, 42)
    assert (hpa()["minReplicas"], hpa()["maxReplicas"]) == (1, 100)  # the reference's


def test_hpa_replicas_of_the_scaled_tier() -> None:
    tiers = [{"name": "web", "vms": {"min": 2, "max": 2, "start": 2}},
             {"name": "app", "vms": {"min": 4, "max": 9, "start": 4}}]  # fmt: skip
    source = replaced(cluster={"tiers": tiers}, workload=_no_pages())
    spec = yaml.safe_load(from_scenario("hpa", source, DEFAULTS).content)["spec"]
    assert (spec["minReplicas"], spec["maxReplicas"]) == (4, 9)  # the first that can scale


def _no_pages() -> dict[str, Any]:
    return {"arrivals": {"rate_per_s": 1.0}, "service_s": {"dist": "constant", "value": 0.1}}


def _cpu(spec: dict[str, Any]) -> int:
    return spec["metrics"][0]["resource"]["target"]["averageUtilization"]


def test_hpa_cpu_target_from_the_threshold_band_or_the_target() -> None:
    assert _cpu(hpa()) == 60  # (0.4 + 0.8) / 2
    assert _cpu(hpa(autoscaling={"lower": 0.5, "upper": 0.9})) == 70
    assert _cpu(hpa(autoscaling={"policy": "target_tracking", "target": 0.55})) == 55


def test_hpa_behavior_from_steps_interval_and_cooldown() -> None:
    up, down = hpa()["behavior"]["scaleUp"], hpa()["behavior"]["scaleDown"]
    assert up["stabilizationWindowSeconds"] == 240  # time_steps 4 x step_s 60
    assert up["policies"] == [{"type": "Pods", "value": 1, "periodSeconds": 60}]  # cooldown 40
    assert down["policies"] == [{"type": "Pods", "value": 1, "periodSeconds": 60}]
    changed = hpa(autoscaling={"time_steps": 2, "step_s": 30, "cooldown_s": 70, "step_size": 3})
    up, down = changed["behavior"]["scaleUp"], changed["behavior"]["scaleDown"]
    assert up["stabilizationWindowSeconds"] == down["stabilizationWindowSeconds"] == 60
    # decisions every 30 s, none within 70 s of the last: the third decision, 90 s on
    assert up["policies"] == [{"type": "Pods", "value": 3, "periodSeconds": 90}]
    assert down["policies"][0]["value"] == 1  # the threshold policy removes one VM at a time


def test_hpa_behavior_of_target_tracking() -> None:
    spec = hpa(autoscaling={"policy": "target_tracking", "stabilization_s": 420})
    assert spec["behavior"]["scaleDown"] == {"stabilizationWindowSeconds": 420}
    assert spec["behavior"]["scaleUp"] == {"stabilizationWindowSeconds": 0}


def test_hpa_target_names_from_the_options() -> None:
    options = ExportOptions(deployment="shop", namespace="prod")
    document = yaml.safe_load(from_scenario("hpa", scenario(), options).content)
    assert document["metadata"] == {"name": "shop", "namespace": "prod"}
    assert document["spec"]["scaleTargetRef"]["name"] == "shop"


@pytest.mark.parametrize(
    ("policy", "says"),
    [
        ({"policy": "none"}, "no autoscaling"),
        ({"policy": "step"}, "export it as aws"),
        ({"policy": "latency_slo"}, "export it as keda"),
        ({"policy": "scheduled", "schedule": [[0, 2]]}, "no hpa equivalent"),
    ],
)
def test_hpa_refuses_policies_without_a_cpu_target(policy: dict[str, Any], says: str) -> None:
    with pytest.raises(ExportError, match=says):
        from_scenario("hpa", scenario(autoscaling=policy), DEFAULTS)


def aws(options: ExportOptions = DEFAULTS, **changes: Any) -> dict[str, Any]:
    return json.loads(from_scenario("aws", scenario(**changes), options).content)


def test_aws_warmup_from_the_boot_time_and_target_from_the_band() -> None:
    assert aws()["EstimatedInstanceWarmup"] == 30  # the reference's boot_s
    assert aws(cluster={"boot_s": 44.5})["EstimatedInstanceWarmup"] == 45  # whole seconds up
    assert aws()["TargetTrackingConfiguration"]["TargetValue"] == 60.0
    tracking = aws(autoscaling={"policy": "target_tracking", "target": 0.75})
    assert tracking["TargetTrackingConfiguration"]["TargetValue"] == 75.0


def test_aws_step_adjustments_from_the_bands() -> None:
    bands = {"policy": "step", "bands": [[0.0, 0.2, -2], [0.2, 0.35, -1], [0.7, 0.85, 1],
                                          [0.85, 1.0, 4]]}  # fmt: skip
    out = aws(autoscaling=bands)
    assert out["PolicyType"] == "StepScaling"
    # relative to the alarm at 70%: [0, 15) -> +1, [15, inf) -> +4
    assert out["StepAdjustments"] == [
        {"ScalingAdjustment": 1, "MetricIntervalLowerBound": 0.0, "MetricIntervalUpperBound": 15.0},
        {"ScalingAdjustment": 4, "MetricIntervalLowerBound": 15.0},
    ]
    inward = aws(ExportOptions(direction="in"), autoscaling=bands)
    # relative to the alarm at 35%: (-inf, -15) -> -2, [-15, 0) -> -1
    assert inward["StepAdjustments"] == [
        {"ScalingAdjustment": -2, "MetricIntervalUpperBound": -15.0},
        {
            "ScalingAdjustment": -1,
            "MetricIntervalLowerBound": -15.0,
            "MetricIntervalUpperBound": 0.0,
        },
    ]


def keda(**changes: Any) -> dict[str, Any]:
    return yaml.safe_load(from_scenario("keda", scenario(**changes), DEFAULTS).content)["spec"]


def test_keda_latency_trigger_from_the_latency_slo_policy() -> None:
    policy = {"policy": "latency_slo", "percentile": 99, "window_s": 120, "step_s": 20,
              "cooldown_s": 50, "step_size": 2}  # fmt: skip
    spec = keda(autoscaling=policy)
    trigger = spec["triggers"][0]
    assert trigger["metadata"]["threshold"] == "30"  # no threshold_s: the SLA's 30 s
    assert "histogram_quantile(0.99," in trigger["metadata"]["query"]
    assert "[120s]" in trigger["metadata"]["query"]
    assert spec["pollingInterval"] == 20
    up = spec["advanced"]["horizontalPodAutoscalerConfig"]["behavior"]["scaleUp"]
    assert up["policies"] == [{"type": "Pods", "value": 2, "periodSeconds": 60}]  # 3 x 20 >= 50
    assert (spec["minReplicaCount"], spec["maxReplicaCount"]) == (1, 100)
    own = keda(autoscaling={**policy, "threshold_s": 2.5})
    assert own["triggers"][0]["metadata"]["threshold"] == "2.5"


def test_keda_rate_trigger_from_the_capacity_analysis() -> None:
    result = demo_capacity()
    sla = result["classes"]["all"]["sla"]
    spec = yaml.safe_load(from_analysis("keda", "capacity", result, DEFAULTS).content)["spec"]
    assert float(spec["triggers"][0]["metadata"]["threshold"]) == pytest.approx(
        sla["max_rate_per_s"],
        rel=5e-3,  # MaxRate(T) to 3 significant digits
    )
    assert spec["maxReplicaCount"] == 2 * result["classes"]["all"]["servers_needed"]
    sla["max_rate_per_s"] = 12.34
    spec = yaml.safe_load(from_analysis("keda", "capacity", result, DEFAULTS).content)["spec"]
    assert spec["triggers"][0]["metadata"]["threshold"] == "12.3"


def _servers(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip().startswith("server ")]


def test_haproxy_limits_from_maxconn_and_maxrate() -> None:
    result = demo_capacity()
    sla = result["classes"]["all"]["sla"]  # T 0.164 s, MaxRate 76.49/s, MaxConn(T) 4.51
    text = from_analysis("haproxy", "capacity", result, DEFAULTS).content
    servers = _servers(text)
    assert len(servers) == result["classes"]["all"]["servers_needed"] == 2
    assert all(s.endswith("maxconn 4 maxqueue 13") for s in servers)  # floor 4.51; ceil 12.57
    assert math.ceil(sla["max_rate_per_s"] * sla["threshold_s"]) == 13
    assert "timeout queue 165ms" in text  # T = 0.16434 s, whole ms up
    sla.update(max_conn=9.9, max_rate_per_s=100.0, threshold_s=0.5)
    text = from_analysis("haproxy", "capacity", result, ExportOptions(servers=3)).content
    assert len(_servers(text)) == 3 and "maxconn 9 maxqueue 50" in text
    assert "timeout queue 500ms" in text


def test_haproxy_limits_from_the_scenario_admission_or_pool() -> None:
    switch = {"policy": "switch_adm", "maxconn_sla": 18, "maxconn": 26}
    document = {"admission": switch, "cluster": {"accept_queue": 7}}
    text = from_scenario("haproxy", scenario(**document), DEFAULTS).content
    assert len(_servers(text)) == 20  # cluster.vms.start
    assert all(s.endswith("maxconn 18 maxqueue 7") for s in _servers(text))
    assert "timeout queue 30000ms" in text  # sla.threshold_s
    pool = from_scenario("haproxy", scenario(cluster={"pool_limit": 6}), DEFAULTS).content
    assert "maxconn 6 maxqueue 0" in pool
    with pytest.raises(ExportError, match="no per-server connection limit"):
        from_scenario("haproxy", scenario(), DEFAULTS)


def test_nginx_limits_and_rate() -> None:
    text = from_analysis("nginx", "capacity", demo_capacity(), DEFAULTS).content
    assert _servers(text) == [
        "    server 10.0.0.1:8080 max_conns=4;",
        "    server 10.0.0.2:8080 max_conns=4;",
    ]
    assert "rate=152r/s" in text  # floor(76.49 x 2 servers)
    assert "burst=26;" in text  # 13 waiting per server x 2


def test_envoy_breakers_from_the_limits() -> None:
    document = yaml.safe_load(from_analysis("envoy", "capacity", demo_capacity(), DEFAULTS).content)
    breakers = document["static_resources"]["clusters"][0]["circuit_breakers"]
    assert breakers["thresholds"][0] == {"priority": "DEFAULT", "max_connections": 8,
                                         "max_pending_requests": 26, "max_requests": 8}  # fmt: skip
    assert breakers["per_host_thresholds"][0]["max_connections"] == 4


def test_envoy_route_timeout_is_the_sla_threshold() -> None:
    """The route's timeout is T, `sla.threshold_s`, in whole milliseconds rounded up."""
    result = demo_capacity()
    result["classes"]["all"]["sla"]["threshold_s"] = 0.25
    document = yaml.safe_load(from_analysis("envoy", "capacity", result, DEFAULTS).content)
    manager = document["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]
    route = manager["typed_config"]["route_config"]["virtual_hosts"][0]["routes"][0]["route"]
    assert route == {"cluster": "web", "timeout": "0.250s"}


def test_pools_from_the_best_pool_size() -> None:
    result = demo_sct()
    text = from_analysis("pools", "sct", result, ExportOptions(workers=3)).content
    assert 'maxThreads="10"' in text and 'maxThreads="20"' in text  # Q_lower 10 and 20
    assert "maximumPoolSize=10" in text and "maximumPoolSize=20" in text
    assert "workers = 3\nthreads = 3" in text  # 3 x 3 <= 10
    assert "workers = 3\nthreads = 6" in text  # 3 x 6 <= 20
    result["servers"]["app-1"]["q_lower"] = 7
    assert 'maxThreads="7"' in from_analysis("pools", "sct", result, DEFAULTS).content


def test_pools_from_the_scenario_tiers() -> None:
    tiers = [{"name": "web", "pool_limit": 50}, {"name": "db", "pool_limit": 12}]
    source = replaced(cluster={"tiers": tiers}, workload=_no_pages())
    text = from_scenario("pools", source, DEFAULTS).content
    assert 'maxThreads="50"' in text and "maximumPoolSize=12" in text


def test_slo_objective_and_threshold_from_the_sla() -> None:
    source = scenario(sla={"percentile": 99, "threshold_s": 0.25})
    sloth = yaml.safe_load(from_scenario("slo", source, DEFAULTS).content)["slos"][0]
    assert sloth["objective"] == 99
    assert 'le="0.25"' in sloth["sli"]["events"]["error_query"]
    openslo = yaml.safe_load(
        from_scenario("slo", source, ExportOptions(slo_format="openslo")).content
    )
    assert openslo["spec"]["objectives"][0]["target"] == 0.99
    rules = from_scenario("slo", source, ExportOptions(slo_format="rules")).content
    assert "> 0.144)" in rules  # page: burn 14.4 x budget 0.01
    assert "vector(0.01)" in rules
    result = demo_capacity()
    analysed = yaml.safe_load(from_analysis("slo", "capacity", result, DEFAULTS).content)["slos"][0]
    assert (
        analysed["objective"] == 95 and 'le="0.164336"' in analysed["sli"]["events"]["error_query"]
    )


@pytest.mark.parametrize("kind", ["hpa", "aws", "pools"])
def test_capacity_analysis_refuses_what_it_does_not_hold(kind: str) -> None:
    with pytest.raises(ExportError, match="capacity analysis has no"):
        from_analysis(kind, "capacity", demo_capacity(), DEFAULTS)  # type: ignore[arg-type]


def test_sct_analysis_gives_pools_only() -> None:
    with pytest.raises(ExportError, match="pools only"):
        from_analysis("hpa", "sct", demo_sct(), DEFAULTS)
