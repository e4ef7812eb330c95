"""What every export shares: the file it gives, the options a user may set, the refusal."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["hpa", "keda", "aws", "haproxy", "nginx", "envoy", "pools", "slo"]
KINDS: tuple[Kind, ...] = ("hpa", "keda", "aws", "haproxy", "nginx", "envoy", "pools", "slo")
SloFormat = Literal["sloth", "openslo", "rules"]
# Names written into the files: Kubernetes object names (DNS labels), AWS and proxy names,
# Prometheus metric names, a URL; nothing that could break out of its quotes.
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
PLAIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$")
METRIC = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]{0,199}$")
URL = re.compile(r"^https?://[A-Za-z0-9.:_/-]{1,200}$")


class ExportError(ValueError):
    """This source cannot give this kind of file; the message says why and what would."""


@dataclass(frozen=True)
class ExportFile:
    kind: Kind
    content: str
    media_type: str
    filename: str
    note: str  # what this sets, in one or two sentences


@dataclass(frozen=True)
class ExportOptions:
    """Names the exported file refers to (the deployment, its namespace, the Auto Scaling
    group, the proxy backend, the Prometheus labels), and choices of form."""

    deployment: str = "web"
    namespace: str = "default"
    asg: str = "web-asg"
    backend: str = "web"
    service_class: str | None = None  # the analysis' request class (default: "all" or the first)
    servers: int | None = None  # proxy server lines (default: from the source)
    max_replicas: int | None = None  # keda from an analysis (default: twice the servers needed)
    direction: Literal["out", "in"] = "out"  # aws step scaling: which alarm's policy
    slo_format: SloFormat = "sloth"
    workers: int = 2  # gunicorn worker processes
    prometheus_url: str = "http://prometheus.monitoring:9090"
    requests_metric: str = "http_requests_total"
    latency_metric: str = "http_request_duration_seconds"

    def __post_init__(self) -> None:
        checks = [
            ("deployment", DNS_LABEL, "a Kubernetes name (a-z, 0-9, -)"),
            ("namespace", DNS_LABEL, "a Kubernetes name (a-z, 0-9, -)"),
            ("asg", PLAIN_NAME, "a name (letters, digits, . _ -)"),
            ("backend", PLAIN_NAME, "a name (letters, digits, . _ -)"),
            ("requests_metric", METRIC, "a Prometheus metric name"),
            ("latency_metric", METRIC, "a Prometheus metric name"),
            ("prometheus_url", URL, "an http(s) URL"),
        ]
        for name, pattern, what in checks:
            if not pattern.match(getattr(self, name)):
                raise ExportError(f"{name}: {getattr(self, name)!r} is not {what}")
