"""Deterministic generator of a Combined + %D (microseconds) access log for benchmarks.

    python bench/gen_combined.py [--lines 2000000] [--out bench/out/combined_d_2m.log] [--seed 7]

Same seed and line count -> byte-identical file. Columns are drawn with numpy and joined
with polars, so 2,000,000 lines take a few seconds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import polars as pl

DEFAULT_OUT = Path(__file__).resolve().parent / "out" / "combined_d_2m.log"
START_NS = 1_709_251_200 * 10**9  # 2024-03-01T00:00:00Z
UAS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/122.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_3) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.3 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    'curl/8.5.0 \\"scripted\\"',
    "-",
]
STATIC = [".png", ".jpg", ".css", ".js", ".gif", ".woff2", ".svg", ".ico"]
DYNAMIC = ["", ".php", "/", ".html"]


def _paths(rng: np.random.Generator, n: int) -> np.ndarray:
    kinds = rng.random(n) < 0.6
    ext = np.where(
        kinds, rng.choice(STATIC, n), rng.choice(DYNAMIC, n)
    )  # 60% static objects, 40% pages
    dirs = rng.choice(["/static/img", "/assets", "/blog/2024", "/api/v1/items", "/docs"], n)
    return np.char.add(np.char.add(np.char.add(dirs, "/p"), np.arange(n).astype(str)), ext)


def generate(lines: int, seed: int = 7) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    n = lines
    pool = _paths(rng, 5000)
    path = pool[np.minimum(rng.zipf(1.3, n) - 1, pool.size - 1)]
    query = np.where(
        rng.random(n) < 0.2, np.char.add("?id=", rng.integers(0, 10**6, n).astype(str)), ""
    )
    v4 = [".".join(map(str, rng.integers(1, 255, 4))) for _ in range(40_000)]
    v6 = [f"2001:db8::{i:x}:{(i * 7919) % 65536:x}" for i in range(500)]
    clients = np.array(v4 + v6)[rng.integers(0, 40_500, n)]
    ts = START_NS + np.cumsum(rng.exponential(86_400e9 / n, n)).astype(np.int64)
    status = rng.choice([200, 304, 404, 301, 206, 500], n, p=[0.86, 0.07, 0.03, 0.02, 0.01, 0.01])
    size = rng.lognormal(8.2, 1.4, n).astype(np.int64)
    micros = rng.lognormal(9.0, 1.0, n).astype(np.int64)
    method = rng.choice(["GET", "POST", "HEAD"], n, p=[0.9, 0.08, 0.02])
    referer = np.where(rng.random(n) < 0.5, "-", np.char.add("https://example.org", path))
    ua = np.array(UAS)[rng.integers(0, len(UAS), n)]
    return pl.DataFrame(
        {
            "client": clients,
            "ts": pl.Series(ts).cast(pl.Datetime("ns", "UTC")).dt.convert_time_zone("Etc/GMT+5"),
            "method": method,
            "target": np.char.add(path, query),
            "status": status,
            "size": np.where(status == 304, "-", size.astype(str)),
            "referer": referer,
            "ua": ua,
            "micros": micros,
        }
    )


def render(df: pl.DataFrame) -> pl.Series:
    return df.select(
        pl.format(
            '{} - - [{}] "{} {} HTTP/1.1" {} {} "{}" "{}" {}',
            "client",
            pl.col("ts").dt.strftime("%d/%b/%Y:%H:%M:%S %z"),
            "method",
            "target",
            "status",
            "size",
            "referer",
            "ua",
            "micros",
        )
    ).to_series()


def write(lines: int, out: Path, seed: int = 7, batch: int = 500_000) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    df = generate(lines, seed)
    with out.open("wb") as f:
        for start in range(0, lines, batch):
            text = "\n".join(render(df.slice(start, batch)).to_list()) + "\n"
            f.write(text.encode())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--lines", type=int, default=2_000_000)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    path = write(args.lines, args.out, args.seed)
    print(f"wrote {args.lines} lines, {path.stat().st_size} bytes to {path}")


if __name__ == "__main__":
    main()
