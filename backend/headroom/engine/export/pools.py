"""Thread and connection pool sizes (docs/methods/concurrency.md: past the best pool size
Q_lower, more requests in a server add waiting, not throughput): gunicorn, Tomcat and
HikariCP settings per server or tier."""

from __future__ import annotations

from headroom.engine.export.model import ExportFile, ExportOptions


def gunicorn(size: int, workers: int) -> tuple[int, int]:
    """Workers x threads at most ``size`` (and at least one thread per worker)."""
    w = max(1, min(workers, size))
    return w, max(1, size // w)


def _section(name: str, size: int, o: ExportOptions) -> list[str]:
    workers, threads = gunicorn(size, o.workers)
    return [
        f"# {name}: best pool size {size}",
        "# gunicorn.conf.py",
        f"workers = {workers}",
        f"threads = {threads}",
        "# Tomcat server.xml",
        f'# <Connector port="8080" protocol="HTTP/1.1" maxThreads="{size}" />',
        "# HikariCP (the pool of connections to this server, in its clients)",
        f"# maximumPoolSize={size}",
        "",
    ]


def pools(sizes: dict[str, int], o: ExportOptions, source: str) -> ExportFile:
    lines: list[str] = []
    for name, size in sizes.items():
        lines += _section(name, size, o)
    listed = ", ".join(f"{n} {s}" for n, s in sizes.items())
    note = (
        f"Pool sizes ({listed}, {source}): gunicorn workers x threads, Tomcat maxThreads and "
        "HikariCP maximumPoolSize; use the lines of the server you run."
    )
    return ExportFile("pools", "\n".join(lines), "text/plain", "pools.txt", note)
