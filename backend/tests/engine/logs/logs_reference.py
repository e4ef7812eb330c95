"""A deliberately simple, independent reference parser for Common/Combined lines (tests only)."""

from __future__ import annotations

import re
from datetime import datetime

CLF = re.compile(
    r"^(?:(?P<vhost>\S+):\d+ )?(?P<client>\S+) \S+ \S+ \[(?P<time>[^\]]+)\] "
    r'"(?P<request>(?:[^"\\]|\\.)*)"'
    r" (?P<status>\d{3}) (?P<bytes>\d+|-)"
    r'(?: "(?P<referer>(?:[^"\\]|\\.)*)" "(?P<ua>(?:[^"\\]|\\.)*)"?)?(?: (?P<latency>[\d.]+|-))?$'
)


def parse_line(line: str) -> dict[str, object] | None:
    m = CLF.match(line.rstrip("\r\n"))
    if m is None:
        return None
    when = datetime.strptime(m["time"], "%d/%b/%Y:%H:%M:%S %z")
    parts = m["request"].split(" ")
    target = parts[1] if len(parts) >= 2 else None
    path, _, query = (target or "").partition("?")
    return {
        "ts_ns": int(when.timestamp()) * 1_000_000_000,
        "client": m["client"],
        "method": parts[0] if len(parts) >= 2 else None,
        "path": path if target is not None else None,
        "query": query or None,  # an empty query is no query
        "status": int(m["status"]),
        "bytes": 0 if m["bytes"] == "-" else int(m["bytes"]),
        "referer": None if m["referer"] in (None, "-") else m["referer"],
        "user_agent": None if m["ua"] in (None, "-") else m["ua"],
    }
