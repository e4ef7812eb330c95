"""Every kind, exported from the demo's reference scenario or its analyses, read by the
tool that will read it: the Kubernetes schema, promtool, haproxy, nginx, the AWS API's own
model; Envoy (not packaged by Debian) and KEDA's and Sloth's resources (custom resources
no schema tool here knows) against schemas written from their documented fields."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import botocore.session
import jsonschema
import kubernetes_validate
import pytest
import yaml

from headroom.engine.export import ExportOptions, from_analysis, from_scenario

from .support import demo_capacity, demo_sct, scenario, tool

K8S = "1.30"
LATENCY_SLO = {"policy": "latency_slo", "cooldown_s": 60, "step_size": 2}


@pytest.mark.parametrize(
    "policy",
    [
        None,  # the reference threshold policy
        {"policy": "target_tracking", "target": 0.7, "stabilization_s": 300},
        {"policy": "threshold", "step_size": "band_middle"},
        {"policy": "predictive"},
    ],
)
def test_hpa_is_a_valid_autoscaling_v2_object(policy: dict[str, Any] | None) -> None:
    source = scenario() if policy is None else scenario(autoscaling=policy)
    document = yaml.safe_load(from_scenario("hpa", source, ExportOptions()).content)
    kubernetes_validate.validate(document, K8S, strict=True)


def test_hpa_validation_catches_a_bad_field() -> None:
    """The check can fail: a misspelt field is refused."""
    document = yaml.safe_load(from_scenario("hpa", scenario(), ExportOptions()).content)
    document["spec"]["maxReplica"] = document["spec"].pop("maxReplicas")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(document, K8S, strict=True)


# KEDA ScaledObject (keda.sh/v1alpha1) fields as KEDA's documentation specifies them.
SCALED_OBJECT = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "keda.sh/v1alpha1"},
        "kind": {"const": "ScaledObject"},
        "metadata": {"type": "object", "required": ["name"]},
        "spec": {
            "type": "object",
            "required": ["scaleTargetRef", "triggers"],
            "additionalProperties": False,
            "properties": {
                "scaleTargetRef": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {"name": {"type": "string"}},
                },
                "pollingInterval": {"type": "integer", "minimum": 1},
                "cooldownPeriod": {"type": "integer", "minimum": 0},
                "minReplicaCount": {"type": "integer", "minimum": 0},
                "maxReplicaCount": {"type": "integer", "minimum": 1},
                "advanced": {
                    "type": "object",
                    "properties": {"horizontalPodAutoscalerConfig": {"type": "object"}},
                },
                "triggers": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "required": ["type", "metadata"],
                        "additionalProperties": False,
                        "properties": {
                            "type": {"const": "prometheus"},
                            "metricType": {"enum": ["AverageValue", "Value", "Utilization"]},
                            "metadata": {
                                "type": "object",
                                "required": ["serverAddress", "query", "threshold"],
                                "additionalProperties": {"type": "string"},
                            },
                        },
                    },
                },
            },
        },
    },
}


def _keda_checked(document: dict[str, Any]) -> None:
    jsonschema.validate(document, SCALED_OBJECT)
    spec = document["spec"]
    assert spec["minReplicaCount"] <= spec["maxReplicaCount"]
    float(spec["triggers"][0]["metadata"]["threshold"])  # KEDA parses it as a number
    behavior = spec.get("advanced", {}).get("horizontalPodAutoscalerConfig", {}).get("behavior")
    if behavior is not None:  # KEDA hands it to the HPA it creates: the Kubernetes schema
        hpa = yaml.safe_load(from_scenario("hpa", scenario(), ExportOptions()).content)
        hpa["spec"]["behavior"] = behavior
        kubernetes_validate.validate(hpa, K8S, strict=True)


def test_keda_from_a_latency_slo_scenario() -> None:
    source = scenario(autoscaling=LATENCY_SLO)
    _keda_checked(yaml.safe_load(from_scenario("keda", source, ExportOptions()).content))


def test_keda_from_the_demo_capacity_analysis() -> None:
    exported = from_analysis("keda", "capacity", demo_capacity(), ExportOptions())
    _keda_checked(yaml.safe_load(exported.content))


def _shape_schema(shape: Any) -> dict[str, Any]:
    """A JSON schema from a botocore shape (the AWS API's own model)."""
    kind = shape.type_name
    if kind == "structure":
        return {
            "type": "object",
            "additionalProperties": False,
            "required": list(shape.required_members),
            "properties": {n: _shape_schema(m) for n, m in shape.members.items()},
        }
    if kind == "list":
        return {"type": "array", "items": _shape_schema(shape.member)}
    if kind == "string":
        out: dict[str, Any] = {"type": "string"}
        if shape.enum:
            out["enum"] = list(shape.enum)
        if "min" in shape.metadata:
            out["minLength"] = shape.metadata["min"]
        if "max" in shape.metadata:
            out["maxLength"] = shape.metadata["max"]
        return out
    bounds = {k: shape.metadata[m] for k, m in (("minimum", "min"), ("maximum", "max"))
              if m in shape.metadata}  # fmt: skip
    types = {"integer": "integer", "double": "number", "boolean": "boolean"}
    return {"type": types[kind], **bounds}


def _put_scaling_policy_schema() -> dict[str, Any]:
    model = botocore.session.get_session().get_service_model("autoscaling")
    return _shape_schema(model.operation_model("PutScalingPolicy").input_shape)


@pytest.mark.parametrize(
    ("policy", "direction"),
    [
        (None, "out"),
        ({"policy": "target_tracking"}, "out"),
        ({"policy": "step"}, "out"),
        ({"policy": "step"}, "in"),
    ],
)
def test_aws_policy_matches_the_put_scaling_policy_input(
    policy: dict[str, Any] | None, direction: str
) -> None:
    import json

    source = scenario() if policy is None else scenario(autoscaling=policy)
    options = ExportOptions(direction=direction)  # type: ignore[arg-type]
    document = json.loads(from_scenario("aws", source, options).content)
    schema = _put_scaling_policy_schema()
    jsonschema.validate(document, schema)
    with pytest.raises(jsonschema.ValidationError):  # the schema does refuse
        jsonschema.validate({**document, "Warmup": 1}, schema)


def test_haproxy_accepts_a_config_including_the_backend(tmp_path: Path) -> None:
    haproxy = tool("haproxy", "the Debian package haproxy")
    snippet = from_analysis("haproxy", "capacity", demo_capacity(), ExportOptions()).content
    config = tmp_path / "haproxy.cfg"
    config.write_text(
        "defaults\n    mode http\n    timeout connect 5s\n    timeout client 30s\n"
        "    timeout server 30s\n\nfrontend www\n    bind 127.0.0.1:8080\n"
        "    default_backend web\n\n" + snippet
    )
    result = subprocess.run([haproxy, "-c", "-f", str(config)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    bad = subprocess.run(
        [haproxy, "-c", "-f", str(_broken(config, "maxqueue", "maxqeue"))], capture_output=True
    )
    assert bad.returncode != 0  # the check can fail


def _broken(path: Path, old: str, new: str) -> Path:
    broken = path.with_name("broken-" + path.name)
    broken.write_text(path.read_text().replace(old, new))
    return broken


def _nginx_conf(tmp_path: Path, snippet: str) -> Path:
    (tmp_path / "upstream.conf").write_text(snippet)
    limit = re.search(r"#\s+(limit_req zone=\S+ burst=\d+;)", snippet)
    assert limit is not None
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\nevents {{}}\nhttp {{\n"
        f"    access_log off;\n    client_body_temp_path {tmp_path};\n"
        f"    include {tmp_path}/upstream.conf;\n"
        "    server {\n        listen 127.0.0.1:8080;\n        location / {\n"
        f"            proxy_pass http://web;\n            {limit.group(1)}\n"
        "        }\n    }\n}\n"
    )
    return conf


def test_nginx_accepts_a_config_including_the_upstream(tmp_path: Path) -> None:
    nginx = tool("nginx", "the Debian package nginx")
    snippet = from_analysis("nginx", "capacity", demo_capacity(), ExportOptions()).content
    conf = _nginx_conf(tmp_path, snippet)
    command = [nginx, "-t", "-q", "-e", "stderr", "-p", str(tmp_path), "-c", str(conf)]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    (tmp_path / "upstream.conf").write_text(snippet.replace("max_conns", "max_conn"))
    assert subprocess.run(command, capture_output=True).returncode != 0  # the check can fail


def test_promtool_accepts_the_slo_rules(tmp_path: Path) -> None:
    promtool = tool("promtool", "the Debian package prometheus")
    for source in ("scenario", "capacity"):
        options = ExportOptions(slo_format="rules")
        if source == "scenario":
            text = from_scenario("slo", scenario(), options).content
        else:
            text = from_analysis("slo", "capacity", demo_capacity(), options).content
        rules = tmp_path / f"{source}.rules.yaml"
        rules.write_text(text)
        result = subprocess.run([promtool, "check", "rules", str(rules)], capture_output=True)
        assert result.returncode == 0, result.stdout + result.stderr
        assert b"11 rules found" in result.stdout  # 7 windows, 2 meta, page and ticket
    broken = _broken(rules, "sum(rate(", "sum(rate((")
    assert subprocess.run([promtool, "check", "rules", str(broken)]).returncode != 0


def test_sloth_and_openslo_specs_hold_their_documented_fields() -> None:
    sloth = yaml.safe_load(from_scenario("slo", scenario(), ExportOptions()).content)
    assert sloth["version"] == "prometheus/v1" and sloth["service"] == "web"
    (slo,) = sloth["slos"]
    assert set(slo) == {"name", "objective", "description", "sli", "alerting"}
    assert set(slo["sli"]["events"]) == {"error_query", "total_query"}
    assert all("{{.window}}" in q for q in slo["sli"]["events"].values())
    options = ExportOptions(slo_format="openslo")
    openslo = yaml.safe_load(from_scenario("slo", scenario(), options).content)
    assert (openslo["apiVersion"], openslo["kind"]) == ("openslo/v1", "SLO")
    spec = openslo["spec"]
    assert spec["budgetingMethod"] in ("Occurrences", "Timeslices", "RatioTimeslices")
    assert set(spec["indicator"]["spec"]["ratioMetric"]) >= {"good", "total"}
    assert 0 < spec["objectives"][0]["target"] < 1


# Envoy v3 Cluster fields as the Envoy API reference (config.cluster.v3) specifies them.
UINT32 = {"type": "integer", "minimum": 0, "maximum": 2**32 - 1}
THRESHOLDS = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "priority": {"enum": ["DEFAULT", "HIGH"]},
        "max_connections": UINT32,
        "max_pending_requests": UINT32,
        "max_requests": UINT32,
        "max_retries": UINT32,
    },
}
ENVOY_CLUSTER = {
    "type": "object",
    "required": ["name", "load_assignment"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "connect_timeout": {"type": "string", "pattern": r"^\d+(\.\d+)?s$"},
        "type": {"enum": ["STATIC", "STRICT_DNS", "LOGICAL_DNS", "EDS", "ORIGINAL_DST"]},
        "lb_policy": {"enum": ["ROUND_ROBIN", "LEAST_REQUEST", "RING_HASH", "RANDOM", "MAGLEV"]},
        "circuit_breakers": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "thresholds": {"type": "array", "items": THRESHOLDS},
                "per_host_thresholds": {"type": "array", "items": THRESHOLDS},
            },
        },
        "load_assignment": {"type": "object", "required": ["cluster_name", "endpoints"]},
    },
}


def test_envoy_cluster_holds_its_documented_fields() -> None:
    document = yaml.safe_load(
        from_analysis("envoy", "capacity", demo_capacity(), ExportOptions()).content
    )
    (cluster,) = document["static_resources"]["clusters"]
    jsonschema.validate(cluster, ENVOY_CLUSTER)
    (per_host,) = cluster["circuit_breakers"]["per_host_thresholds"]
    assert set(per_host) == {"priority", "max_connections"}  # Envoy reads no other per host
    hosts = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"]
    assert cluster["load_assignment"]["cluster_name"] == cluster["name"] and hosts


def test_pools_gunicorn_part_runs_and_tomcat_part_parses() -> None:
    import xml.etree.ElementTree as ET

    text = from_analysis("pools", "sct", demo_sct(), ExportOptions()).content
    for section in text.split("\n\n"):
        if not section.strip():
            continue
        settings: dict[str, Any] = {}
        exec(compile(section, "gunicorn.conf.py", "exec"), settings)  # a gunicorn config
        connector = re.search(r"# (<Connector .*/>)", section)
        assert connector is not None
        ET.fromstring(connector.group(1))
        assert settings["workers"] >= 1 and settings["threads"] >= 1
