"""Multipart writes to S3 at any size: parts grow so that 10,000 of them (S3's limit) hold
the largest upload, a 30 GB file goes up in parts of 16 MiB, a writer holds one part in
memory, and an object past the last part is a clear error, not S3's."""

import hashlib
import math
import tracemalloc
from typing import Any

import pytest

from headroom.core import storage_s3
from headroom.core.settings import Settings
from headroom.core.storage import StorageError

GB30 = 30 * 10**9
MiB = 1024**2


class FakeS3:
    """Records the size and hash of each part; keeps none of their bytes."""

    def __init__(self) -> None:
        self.parts: list[int] = []
        self.sha = hashlib.sha256()
        self.completed = False

    def create_multipart_upload(self, **_: Any) -> dict[str, str]:
        return {"UploadId": "u"}

    def upload_part(self, Body: Any, PartNumber: int, **_: Any) -> dict[str, str]:
        assert PartNumber == len(self.parts) + 1
        self.parts.append(len(Body))
        self.sha.update(Body)
        return {"ETag": str(PartNumber)}

    def complete_multipart_upload(self, **_: Any) -> None:
        self.completed = True


def test_part_sizes_hold_the_largest_upload_within_s3_limits() -> None:
    sizes = [storage_s3.part_bytes(n) for n in range(1, 10_001)]
    assert min(sizes) >= 5 * MiB and max(sizes) <= 5 * 1024**3  # S3's smallest and largest
    assert sum(sizes) == storage_s3.OBJECT_BYTES_MAX >= 4 * Settings().max_upload_bytes
    # 30 GB: every part 16 MiB, 1,789 of them
    parts, total = 0, 0
    while total < GB30:
        parts += 1
        total += storage_s3.part_bytes(parts)
    assert parts == math.ceil(GB30 / (16 * MiB)) == 1789
    assert storage_s3.part_bytes(parts) == 16 * MiB


def test_a_writer_sends_growing_parts_and_refuses_past_the_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(storage_s3, "PART_BYTES", 10)
    monkeypatch.setattr(storage_s3, "PARTS_PER_SIZE", 2)
    client = FakeS3()
    writer = storage_s3._MultipartWriter(client, "b", "k")
    data = bytes(range(256)) * 4
    for start, step in zip(range(0, 130, 13), [13] * 10, strict=True):
        writer.write(data[start : start + step])  # 130 bytes in writes across part edges
    writer.finish()
    assert client.parts == [10, 10, 20, 20, 40, 30] and client.completed
    assert client.sha.hexdigest() == hashlib.sha256(data[:130]).hexdigest()
    monkeypatch.setattr(storage_s3, "PARTS_MAX", 3)
    full = storage_s3._MultipartWriter(FakeS3(), "b", "k")
    with pytest.raises(StorageError, match=r"at most .* bytes"):
        full.write(data[:41])  # parts of 10, 10, 20: the 41st byte needs a fourth part
        full.finish()


def test_a_writer_holds_one_part_whatever_it_writes() -> None:
    client = FakeS3()
    writer = storage_s3._MultipartWriter(client, "b", "k")
    block = b"0123456789abcdef" * (MiB // 16 * 3)  # 3 MiB writes, across part edges
    tracemalloc.start()
    try:
        for _ in range(64):  # 192 MiB
            writer.write(block)
        writer.finish()
        peak_bytes = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert client.parts == [16 * MiB] * 12
    assert peak_bytes < 1.5 * storage_s3.PART_BYTES, f"{peak_bytes:,} bytes at the peak"
