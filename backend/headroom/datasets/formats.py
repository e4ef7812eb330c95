"""The format names an upload may give, kept here so that the API process need not load
the parser to list or check them (a test keeps this list equal to the engine's registry)."""

from pydantic import BaseModel

KNOWN_FORMATS: tuple[str, ...] = (
    "caddy",
    "combined",
    "combined_latency_ms",
    "combined_latency_s",
    "combined_latency_us",
    "common",
    "common_latency_ms",
    "common_latency_s",
    "common_latency_us",
    "haproxy",
    "uwsgi",
    "vhost_combined",
    "vhost_combined_latency_ms",
    "vhost_combined_latency_s",
    "vhost_combined_latency_us",
    "vhost_common",
    "vhost_common_latency_ms",
    "vhost_common_latency_s",
    "vhost_common_latency_us",
    "w3c",
)


class KnownFormatsOut(BaseModel):
    """`format` values an upload accepts besides `auto`; any other format is given as a
    `log_format` string (Apache LogFormat or nginx log_format)."""

    formats: list[str]
