"""HTTP/1.1 connections versus HTTP/2 streams (docs/methods/concurrency.md): payload rate against
payload size, alone on a link and sharing a congested bottleneck.

A client keeps `inflight` requests outstanding; HTTP/1.1 carries one per connection over
k connections, HTTP/2 multiplexes R streams over one connection with compressed headers.
Per protocol: payload rate = min(latency-limited inflight x S / RTT, bandwidth-limited
share x B x S / (S + H)), where share = 1 alone, and its connections / all connections on
a bottleneck shared with `other_connections` (TCP shares bandwidth per connection)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class LinkParams:
    rtt_s: float
    bandwidth_bytes_per_s: float
    h1_connections: int  # k
    h2_streams: int  # R, on one connection
    h1_header_bytes: float = 500.0
    h2_header_bytes: float = 50.0  # HPACK-compressed
    other_connections: int = 0  # competing flows on the bottleneck; 0 = alone

    def __post_init__(self) -> None:
        if not (self.rtt_s > 0 and self.bandwidth_bytes_per_s > 0):
            raise ValueError("rtt_s and bandwidth_bytes_per_s must be > 0")
        if self.h1_connections < 1 or self.h2_streams < 1 or self.other_connections < 0:
            raise ValueError("need h1_connections >= 1, h2_streams >= 1, other_connections >= 0")
        if self.h1_header_bytes < 0 or self.h2_header_bytes < 0:
            raise ValueError("header sizes must be >= 0")


def payload_rate(
    payload_bytes: ArrayLike,
    inflight: float,
    connections: int,
    header_bytes: float,
    link: LinkParams,
) -> FloatArray:
    """Payload bytes/s for one client holding `inflight` requests on `connections`."""
    s = np.asarray(payload_bytes, dtype=np.float64)
    share = connections / (connections + link.other_connections)
    latency_limited = inflight * s / link.rtt_s
    bandwidth_limited = share * link.bandwidth_bytes_per_s * s / (s + header_bytes)
    return np.minimum(latency_limited, bandwidth_limited)


def h1_rate(payload_bytes: ArrayLike, link: LinkParams) -> FloatArray:
    k = link.h1_connections
    return payload_rate(payload_bytes, k, k, link.h1_header_bytes, link)


def h2_rate(payload_bytes: ArrayLike, link: LinkParams) -> FloatArray:
    return payload_rate(payload_bytes, link.h2_streams, 1, link.h2_header_bytes, link)
