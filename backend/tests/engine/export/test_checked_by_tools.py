"""Every kind, exported from the demo's reference scenario or its analyses, read by the
tool that will read it, or by that tool's own published schema: the Kubernetes schema,
KEDA's and Sloth's own CustomResourceDefinitions, OpenSLO's own JSON schemas, promtool,
haproxy, nginx, the AWS API's own model, and Envoy's own API messages. Each check is also
run on a broken file, to show it can fail."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
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


SCHEMAS = Path(__file__).parent / "schemas"


def _strict(schema: Any) -> Any:
    """A CRD's schema as the API server applies it with strict field validation (what
    `kubectl apply --validate=strict` does): an object that lists its properties refuses
    any other, unless the CRD keeps unknown fields there."""
    if isinstance(schema, list):
        return [_strict(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _strict(v) if k != "properties" else {n: _strict(p) for n, p in v.items()}
           for k, v in schema.items()}  # fmt: skip
    keeps = schema.get("x-kubernetes-preserve-unknown-fields") or "additionalProperties" in schema
    if "properties" in schema and not keeps:
        out["additionalProperties"] = False
    return out


def _crd_schema(name: str) -> dict[str, Any]:
    """The served version's openAPIV3Schema of an upstream CustomResourceDefinition."""
    crd = yaml.safe_load((SCHEMAS / name).read_text())
    (version,) = [v for v in crd["spec"]["versions"] if v["served"] and v["storage"]]
    schema = _strict(version["schema"]["openAPIV3Schema"])
    group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
    schema["properties"]["apiVersion"] = {"const": f"{group}/{version['name']}"}
    schema["properties"]["kind"] = {"const": kind}
    schema["required"] = ["apiVersion", "kind", "metadata", "spec"]
    return schema


def _keda_checked(document: dict[str, Any]) -> None:
    """KEDA's own CRD schema (keda.sh_scaledobjects.yaml), strict; its CEL rule
    (minReplicaCount <= maxReplicaCount) by hand, as no CEL evaluator is at hand."""
    jsonschema.validate(document, _crd_schema("keda.sh_scaledobjects.yaml"))
    spec = document["spec"]
    assert spec["minReplicaCount"] <= spec["maxReplicaCount"]
    float(spec["triggers"][0]["metadata"]["threshold"])  # KEDA parses it as a number


def test_keda_from_a_latency_slo_scenario() -> None:
    source = scenario(autoscaling=LATENCY_SLO)
    _keda_checked(yaml.safe_load(from_scenario("keda", source, ExportOptions()).content))


def test_keda_from_the_demo_capacity_analysis() -> None:
    exported = from_analysis("keda", "capacity", demo_capacity(), ExportOptions())
    _keda_checked(yaml.safe_load(exported.content))


def test_keda_validation_catches_a_bad_field() -> None:
    """The check can fail: a misspelt field, or a threshold given as a number where
    KEDA's schema wants a string, is refused."""
    source = scenario(autoscaling=LATENCY_SLO)
    document = yaml.safe_load(from_scenario("keda", source, ExportOptions()).content)
    schema = _crd_schema("keda.sh_scaledobjects.yaml")
    misspelt = copy.deepcopy(document)
    misspelt["spec"]["maxReplicas"] = misspelt["spec"].pop("maxReplicaCount")
    numeric = copy.deepcopy(document)
    numeric["spec"]["triggers"][0]["metadata"]["threshold"] = 30
    for broken in (misspelt, numeric):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema)


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


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z])([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def _snake_keys(schema: Any) -> Any:
    """The CRD's schema with its property names in the plain spec's spelling: Sloth's
    Kubernetes types and its `prometheus/v1` types are the same structure, with camelCase
    JSON names in the first and snake_case in the second (errorQuery / error_query,
    pageAlert / page_alert, sloPlugins / slo_plugins), except overridePrevious, spelt
    alike in both."""
    if isinstance(schema, list):
        return [_snake_keys(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _snake_keys(v) for k, v in schema.items()}
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {(n if n == "overridePrevious" else _snake(n)): _snake_keys(p)
                             for n, p in schema["properties"].items()}  # fmt: skip
    if isinstance(schema.get("required"), list):
        out["required"] = [n if n == "overridePrevious" else _snake(n) for n in schema["required"]]
    return out


def _sloth_spec_schema() -> dict[str, Any]:
    """A Sloth `prometheus/v1` spec file's schema, from Sloth's own CRD
    (sloth.slok.dev_prometheusservicelevels.yaml): its spec with the version line."""
    spec = _snake_keys(_crd_schema("sloth.slok.dev_prometheusservicelevels.yaml"))
    spec = spec["properties"]["spec"]
    spec["properties"]["version"] = {"const": "prometheus/v1"}
    spec["required"] = [*spec["required"], "version"]
    return spec


@pytest.mark.parametrize("source", ["scenario", "capacity"])
def test_sloth_spec_matches_sloths_own_schema(source: str) -> None:
    if source == "scenario":
        text = from_scenario("slo", scenario(), ExportOptions()).content
    else:
        text = from_analysis("slo", "capacity", demo_capacity(), ExportOptions()).content
    document = yaml.safe_load(text)
    jsonschema.validate(document, _sloth_spec_schema())
    assert all("{{.window}}" in q for q in document["slos"][0]["sli"]["events"].values())
    # The same spec as the Kubernetes resource Sloth's controller reads.
    resource = {
        "apiVersion": "sloth.slok.dev/v1",
        "kind": "PrometheusServiceLevel",
        "metadata": {"name": document["service"]},
        "spec": _camel_keys({k: v for k, v in document.items() if k != "version"}),
    }
    jsonschema.validate(resource, _crd_schema("sloth.slok.dev_prometheusservicelevels.yaml"))


def _camel_keys(value: Any) -> Any:
    if isinstance(value, list):
        return [_camel_keys(v) for v in value]
    if not isinstance(value, dict):
        return value
    camel = lambda k: re.sub(r"_([a-z])", lambda m: m.group(1).upper(), k)  # noqa: E731
    return {camel(k): (v if k in ("labels", "annotations") else _camel_keys(v))
            for k, v in value.items()}  # fmt: skip


def test_sloth_validation_catches_a_bad_field() -> None:
    """The check can fail: the Kubernetes spelling in a plain spec file, and an objective
    written as text, are refused."""
    document = yaml.safe_load(from_scenario("slo", scenario(), ExportOptions()).content)
    schema = _sloth_spec_schema()
    camel = copy.deepcopy(document)
    events = camel["slos"][0]["sli"]["events"]
    events["errorQuery"] = events.pop("error_query")
    text = copy.deepcopy(document)
    text["slos"][0]["objective"] = "95%"
    for broken in (camel, text):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema)


def _openslo_validator() -> jsonschema.protocols.Validator:
    """OpenSLO's own v1 JSON schemas (schemas/v1 of the OpenSLO specification), their
    cross-references resolved from the copies here."""
    from referencing import Registry, Resource

    root = SCHEMAS / "openslo" / "v1"
    resources = []
    for path in sorted(root.rglob("*.schema.json")):
        contents = json.loads(path.read_text())
        resources.append((contents["$id"], Resource.from_contents(contents)))
    registry = Registry().with_resources(resources)
    schema = json.loads((root / "openslo.schema.json").read_text())
    return jsonschema.Draft7Validator(schema, registry=registry)


@pytest.mark.parametrize("source", ["scenario", "capacity"])
def test_openslo_matches_openslos_own_schema(source: str) -> None:
    options = ExportOptions(slo_format="openslo")
    if source == "scenario":
        text = from_scenario("slo", scenario(), options).content
    else:
        text = from_analysis("slo", "capacity", demo_capacity(), options).content
    document = yaml.safe_load(text)
    validator = _openslo_validator()
    validator.validate(document)
    assert set(document["spec"]["indicator"]["spec"]["ratioMetric"]) >= {"good", "total"}
    broken = copy.deepcopy(document)  # the check can fail: a percentage as the target
    broken["spec"]["objectives"][0]["target"] = 95
    assert not validator.is_valid(broken)
    broken = copy.deepcopy(document)  # a budgeting method OpenSLO v1 does not have
    broken["spec"]["budgetingMethod"] = "Occurrence"
    assert not validator.is_valid(broken)


ENVOY_API = Path(__file__).resolve().parents[4] / ".venv" / "envoy-api"
ENVOY_PARSE = """
import json, sys
from envoy.config.bootstrap.v3 import bootstrap_pb2
from envoy.extensions.filters.http.router.v3 import router_pb2  # registers the router type
from envoy.extensions.filters.network.http_connection_manager.v3 import (
    http_connection_manager_pb2 as hcm,
)
from google.protobuf import json_format

try:
    bootstrap = json_format.ParseDict(
        json.load(sys.stdin), bootstrap_pb2.Bootstrap(), ignore_unknown_fields=False
    )
except json_format.ParseError as error:
    print(error)
    sys.exit(3)
(listener,) = bootstrap.static_resources.listeners
manager = hcm.HttpConnectionManager()
assert listener.filter_chains[0].filters[0].typed_config.Unpack(manager)
keep = {"preserving_proto_field_name": True}
print(json.dumps({
    "bootstrap": json_format.MessageToDict(bootstrap, **keep),
    "manager": json_format.MessageToDict(manager, **keep),
}))
"""


def _envoy_parse(document: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """The exported file parsed into Envoy's own Bootstrap message (the
    envoy.config.bootstrap.v3 protos Envoy reads its configuration with, generated from
    Envoy's API by the xds-protos package). `make install` puts those protos in a folder of
    their own, read by a separate process: they ship an older copy of the OpenTelemetry
    protos that would shadow the ones the OTLP receiver uses."""
    assert ENVOY_API.is_dir(), "make install puts Envoy's API messages in .venv/envoy-api"
    return subprocess.run(
        [sys.executable, "-c", ENVOY_PARSE],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ENVOY_API)},
        timeout=120,
    )


def test_envoy_cluster_parses_into_envoys_own_messages() -> None:
    document = yaml.safe_load(
        from_analysis("envoy", "capacity", demo_capacity(), ExportOptions()).content
    )
    done = _envoy_parse(document)
    assert done.returncode == 0, done.stdout + done.stderr
    parsed = json.loads(done.stdout)
    (cluster,) = parsed["bootstrap"]["static_resources"]["clusters"]
    (limits,) = cluster["circuit_breakers"]["thresholds"]
    (per_host,) = cluster["circuit_breakers"]["per_host_thresholds"]
    (exported,) = document["static_resources"]["clusters"]
    (want,) = exported["circuit_breakers"]["thresholds"]
    assert limits["max_connections"] == want["max_connections"]
    assert limits["max_pending_requests"] == want["max_pending_requests"]
    assert limits["max_requests"] == want["max_requests"]
    assert per_host["max_connections"] > 0
    assert float(cluster["connect_timeout"].removesuffix("s")) > 0
    assert cluster["load_assignment"]["cluster_name"] == cluster["name"]
    assert len(cluster["load_assignment"]["endpoints"][0]["lb_endpoints"]) >= 1
    (host,) = parsed["manager"]["route_config"]["virtual_hosts"]
    (route,) = host["routes"]
    assert route["route"]["cluster"] == cluster["name"]
    assert float(route["route"]["timeout"].removesuffix("s")) > 0


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("max_pending_requests", "max_pending_request"),  # a field Envoy does not have
        ("LEAST_REQUEST", "LEAST_REQUESTS"),  # an enum value it does not have
        ("connect_timeout: 1s", "connect_timeout: 1 second"),  # not a Duration
        ("prefix: /", "prefixes: /"),  # inside the listener's typed config too
    ],
)
def test_envoy_validation_catches_a_bad_field(old: str, new: str) -> None:
    text = from_analysis("envoy", "capacity", demo_capacity(), ExportOptions()).content
    assert old in text
    done = _envoy_parse(yaml.safe_load(text.replace(old, new)))
    assert done.returncode == 3, done.stdout + done.stderr


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
