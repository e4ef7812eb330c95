"""A report item of a trace's traffic summary: no status chart of zeros, null error rates."""

from headroom.datasets.schemas import TrafficSummaryOut
from headroom.reports.snapshots import traffic

POINTS = [
    {"t": "2026-01-01T00:00:00Z", "requests": 10, "rate_per_min": 10.0}
    | {f"s{c}xx": 0 for c in range(1, 6)}
]


def _summary(**overrides: object) -> TrafficSummaryOut:
    return TrafficSummaryOut.model_validate(
        {
            "dataset_id": 1,
            "format": "trace_csv",
            "format_confidence": 1.0,
            "rejected_count": 0,
            "rejects": [],
            "notes": [],
            "first_ts": None,
            "last_ts": None,
            "span_s": 60.0,
            "bucket_s": 60,
            "request_count": 10,
            "mean_rate_per_s": 10 / 60,
            "peak_rate_per_min": 10.0,
            "error_rate": None,
            "client_error_rate": None,
            "status_counts": None,
            "bytes_total": None,
            "latency": None,
            "series": POINTS,
        }
        | overrides
    )


def test_a_log_without_status_codes_has_no_status_chart_and_null_error_rates() -> None:
    item = traffic(_summary())
    assert [c.key for c in item.charts] == ["rate"]
    figures = {f.key: f.value for f in item.figures}
    assert figures["error_rate"] is None and figures["client_error_rate"] is None


def test_a_log_with_status_codes_keeps_its_status_chart_and_zero_errors() -> None:
    counts = {"1xx": 0, "2xx": 10, "3xx": 0, "4xx": 0, "5xx": 0}
    item = traffic(_summary(error_rate=0.0, client_error_rate=0.0, status_counts=counts))
    assert [c.key for c in item.charts] == ["rate", "status"]
    assert {f.key: f.value for f in item.figures}["error_rate"] == 0.0
