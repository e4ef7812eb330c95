"""Per-server connection limits and a queue with its timeout, from MaxConn(T) and
MaxRate(T) (docs/methods/capacity.md, docs/methods/admission.md), for HAProxy, nginx and
Envoy. Server addresses are placeholders to replace."""

from __future__ import annotations

import math

from headroom.engine.export.figures import ConnectionFigures
from headroom.engine.export.model import ExportFile, ExportOptions
from headroom.engine.export.yaml_text import dump

TEXT = "text/plain"


def _address(i: int) -> str:
    return f"10.0.0.{i + 1}:8080"


def _ms(seconds: float) -> int:
    return max(1, math.ceil(1000 * seconds))


def _limits_note(c: ConnectionFigures) -> str:
    return (
        f"{c.max_conn} requests in service per server (MaxConn(T)), up to {c.queue} waiting per "
        f"server for at most {_ms(c.queue_timeout_s)} ms (T: a request queued longer has "
        f"missed its SLA); {c.servers} server line(s) with placeholder addresses."
    )


def haproxy(c: ConnectionFigures, o: ExportOptions) -> ExportFile:
    lines = [
        f"backend {o.backend}",
        "    balance leastconn",
        f"    timeout queue {_ms(c.queue_timeout_s)}ms",
    ]
    lines += [
        f"    server {o.backend}{i + 1} {_address(i)} maxconn {c.max_conn} maxqueue {c.queue}"
        for i in range(c.servers)
    ]
    note = "HAProxy backend: " + _limits_note(c)
    return ExportFile("haproxy", "\n".join(lines) + "\n", TEXT, f"{o.backend}.haproxy.cfg", note)


def nginx(c: ConnectionFigures, o: ExportOptions) -> ExportFile:
    """Open-source nginx has no upstream queue (``queue`` is NGINX Plus): the queue is a
    limit_req burst at the site's MaxRate(T), when the rate is known."""
    lines = [f"upstream {o.backend} {{", "    least_conn;"]
    lines += [f"    server {_address(i)} max_conns={c.max_conn};" for i in range(c.servers)]
    lines += [
        "    # NGINX Plus only: queue "
        + f"{c.queue * c.servers} timeout={_ms(c.queue_timeout_s)}ms;"
    ]
    lines.append("}")
    note = "nginx upstream: " + _limits_note(c)
    if c.rate_per_s is not None:
        site = max(1, math.floor(c.rate_per_s * c.servers))
        lines += [
            f"limit_req_zone $server_name zone={o.backend}_rate:1m rate={site}r/s;",
            f"# in the location that proxies to {o.backend}:",
            f"#     limit_req zone={o.backend}_rate burst={c.queue * c.servers};",
        ]
        note += f" limit_req admits {site} req/s (MaxRate(T) x servers) and delays a burst."
    return ExportFile("nginx", "\n".join(lines) + "\n", TEXT, f"{o.backend}.nginx.conf", note)


HCM = "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3"
HCM_NAME = "envoy.filters.network.http_connection_manager"
ROUTER = "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router"


def envoy(c: ConnectionFigures, o: ExportOptions) -> ExportFile:
    """An Envoy v3 Cluster: circuit breakers are per cluster (the servers' sum), per host
    only max_connections; pending requests are the queue. Envoy has no timeout for the
    pending queue alone: the listener's route to the cluster times a request out at T,
    queue and service together, as one that took longer has missed its SLA anyway."""
    thresholds = {
        "priority": "DEFAULT",
        "max_connections": c.max_conn * c.servers,
        "max_pending_requests": c.queue * c.servers,
        "max_requests": c.max_conn * c.servers,
    }
    hosts = [
        {
            "endpoint": {
                "address": {
                    "socket_address": {"address": _address(i).split(":")[0], "port_value": 8080}
                }
            }
        }
        for i in range(c.servers)
    ]
    cluster = {
        "name": o.backend,
        "connect_timeout": "1s",
        "type": "STATIC",
        "lb_policy": "LEAST_REQUEST",
        "circuit_breakers": {
            "thresholds": [thresholds],
            "per_host_thresholds": [{"priority": "DEFAULT", "max_connections": c.max_conn}],
        },
        "load_assignment": {"cluster_name": o.backend, "endpoints": [{"lb_endpoints": hosts}]},
    }
    route = {"cluster": o.backend, "timeout": f"{_ms(c.queue_timeout_s) / 1000:.3f}s"}
    manager = {
        "@type": HCM + ".HttpConnectionManager",
        "stat_prefix": o.backend,
        "route_config": {
            "name": o.backend,
            "virtual_hosts": [
                {
                    "name": o.backend,
                    "domains": ["*"],
                    "routes": [{"match": {"prefix": "/"}, "route": route}],
                }
            ],
        },
        "http_filters": [{"name": "envoy.filters.http.router", "typed_config": {"@type": ROUTER}}],
    }
    listener = {
        "name": o.backend,
        "address": {"socket_address": {"address": "0.0.0.0", "port_value": 10000}},
        "filter_chains": [{"filters": [{"name": HCM_NAME, "typed_config": manager}]}],
    }
    document = {"static_resources": {"listeners": [listener], "clusters": [cluster]}}
    note = (
        "Envoy listener and cluster: " + _limits_note(c) + " Circuit breakers count the whole "
        f"cluster; the route's timeout of {_ms(c.queue_timeout_s)} ms bounds the wait and "
        "the service together."
    )
    return ExportFile("envoy", dump(document), "application/yaml", f"{o.backend}.envoy.yaml", note)
