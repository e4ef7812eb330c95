"""open_log (compression by magic bytes, bomb guard) and iter_chunks (line-exact splitting)."""

from __future__ import annotations

import bz2
import gzip
import io
import zipfile
from pathlib import Path

import polars as pl
import pytest
import zstandard

from headroom.engine.logs import LogInputError, iter_chunks, open_log, parse_chunk

PAYLOAD = b"".join(b"line %d\n" % i for i in range(1000))


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize(
    "pack",
    [
        lambda d: d,
        gzip.compress,
        bz2.compress,
        lambda d: zstandard.ZstdCompressor().compress(d),
        lambda d: _zip({"a.log": d}),
    ],
    ids=["plain", "gzip", "bzip2", "zstd", "zip"],
)
def test_open_log_by_magic_not_extension(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "upload.txt"  # misleading extension on purpose
    path.write_bytes(pack(PAYLOAD))
    with open_log(path) as f:
        assert f.read() == PAYLOAD


def test_zip_all_members_concatenated(tmp_path: Path) -> None:
    path = tmp_path / "x.zip"
    path.write_bytes(_zip({"a": b"1\n", "b": b"2\n"}))
    with open_log(path) as f:
        assert f.read() == b"1\n"
    with open_log(path, zip_members="all") as f:
        assert f.read() == b"1\n2\n"


def test_gzip_bomb_refused_by_ratio(tmp_path: Path) -> None:
    path = tmp_path / "bomb.gz"
    path.write_bytes(gzip.compress(b"\0" * (64 << 20)))  # ~1000:1
    with pytest.raises(LogInputError) as info, open_log(path) as f:
        while f.read(1 << 20):
            pass
    assert info.value.code == "decompression_bomb"


def test_output_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(PAYLOAD * 10))
    with pytest.raises(LogInputError) as info, open_log(path, max_output_bytes=1000) as f:
        f.read()
    assert info.value.code == "decompression_bomb"


def test_unsupported_compression(tmp_path: Path) -> None:
    path = tmp_path / "x.xz"
    path.write_bytes(b"\xfd7zXZ\x00" + b"\0" * 20)
    with pytest.raises(LogInputError) as info:
        open_log(path)
    assert info.value.code == "unsupported_compression"


@pytest.mark.parametrize("size", [1, 7, 64, 4096])
def test_chunks_split_at_newlines_and_number_lines(size: int) -> None:
    data = PAYLOAD + b"no newline at end"
    chunks = list(iter_chunks(io.BytesIO(data), chunk_bytes=size))
    texts = [bytes(c.data) for c in chunks]
    assert b"".join(texts) == data
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert all(text.endswith(b"\n") for text in texts[:-1])
    starts = [sum(len(t) for t in texts[:k]) for k in range(len(texts))]
    assert [c.first_line_number for c in chunks] == [data[:s].count(b"\n") + 1 for s in starts]


def test_chunked_parse_equals_whole_parse(data_dir: Path) -> None:
    data = (data_dir / "apache_combined_elastic.log").read_bytes()
    data += b"broken line\n"
    whole = parse_chunk(data, "combined")
    parts = [parse_chunk(c, "combined") for c in iter_chunks(io.BytesIO(data), 300_000)]
    assert len(parts) > 5
    assert pl.concat([p.table for p in parts]).equals(whole.table)
    assert sum(p.line_count for p in parts) == whole.line_count == 10_001
    assert [r for p in parts for r in p.rejects] == list(whole.rejects)
    assert whole.rejects[0].line_number == 10_001


def test_line_longer_than_the_memory_bound_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from headroom.engine.logs import chunks

    monkeypatch.setattr(chunks, "MIN_LINE_LIMIT", 1000)
    data = b"short\n" + b"x" * 5000 + b"\nshort\n"
    with pytest.raises(LogInputError) as info:
        list(iter_chunks(io.BytesIO(data), chunk_bytes=100))
    assert info.value.code == "line_too_long"
