"""Connections vs streams against hand-worked values (docs/methods/concurrency.md formulas).
Link: RTT 100 ms, 10 MB/s; HTTP/1.1 with k = 6 connections and 500 B headers; HTTP/2
with R = 12 streams on one connection and 50 B headers."""

import pytest

from headroom.engine.background.connections import LinkParams, h1_rate, h2_rate

LINK = LinkParams(rtt_s=0.1, bandwidth_bytes_per_s=10e6, h1_connections=6, h2_streams=12)


def test_latency_limited_small_payloads() -> None:
    # R x S / RTT: 6 x 1000 / 0.1 = 60 kB/s and 12 x 1000 / 0.1 = 120 kB/s
    assert h1_rate(1000, LINK) == pytest.approx(60_000)
    assert h2_rate(1000, LINK) == pytest.approx(120_000)


def test_bandwidth_limited_large_payloads() -> None:
    # B x S / (S + H) for S = 1 MB: 10e6 x 1e6 / 1.0005e6 and / 1.00005e6
    assert h1_rate(1e6, LINK) == pytest.approx(10e6 * 1e6 / 1.0005e6)
    assert h2_rate(1e6, LINK) == pytest.approx(10e6 * 1e6 / 1.00005e6)


def test_sharing_a_bottleneck_moves_the_ratio_toward_the_connection_count() -> None:
    shared = LinkParams(0.1, 10e6, 6, 6, other_connections=94)
    # same inflight (6): small payloads equal; large payloads take 6/100 vs 1/95 of B
    assert h1_rate(100, shared) / h2_rate(100, shared) == pytest.approx(1.0)
    ratio = h1_rate(10e6, shared) / h2_rate(10e6, shared)
    assert ratio == pytest.approx((6 / 100) / (1 / 95) * (10e6 + 50) / (10e6 + 500))
    assert 5.5 < ratio < 6  # approaching k = 6


def test_bad_links_are_refused() -> None:
    with pytest.raises(ValueError, match="rtt_s"):
        LinkParams(0, 1e6, 1, 1)
    with pytest.raises(ValueError, match="h1_connections"):
        LinkParams(0.1, 1e6, 0, 1)
