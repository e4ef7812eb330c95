"""The storage contract: the same suite on a local directory and on a real S3 API server."""

import io
import time
from pathlib import Path

import polars as pl
import pytest

from headroom.core import storage_s3
from headroom.core.storage import ObjectStore, StorageError, open_store


@pytest.fixture(params=["file", "s3"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> ObjectStore:
    if request.param == "file":
        return open_store(f"file://{tmp_path / 'storage'}")
    return open_store(request.getfixturevalue("s3_url"))


def put(store: ObjectStore, key: str, data: bytes) -> None:
    with store.writer(key) as handle:
        handle.write(data)


def test_written_objects_read_back_whole_streamed_and_by_range(store: ObjectStore) -> None:
    data = bytes(range(256)) * 5000
    put(store, "a/b/c.log", data)
    assert store.exists("a/b/c.log") and store.size_bytes("a/b/c.log") == len(data)
    with store.open("a/b/c.log") as handle:
        assert handle.read() == data
        handle.seek(1000)
        assert handle.read(10) == data[1000:1010]
        assert handle.seek(-5, io.SEEK_END) == len(data) - 5
        assert handle.read() == data[-5:]
    assert store.read_range("a/b/c.log", 70_000, 70_300) == data[70_000:70_300]
    assert store.read_range("a/b/c.log", len(data) - 3, len(data) + 10) == data[-3:]


def test_a_large_object_goes_up_in_parts(
    store: ObjectStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage_s3, "PART_BYTES", 5 * 1024**2)  # S3's smallest part
    block = bytes(range(256)) * 4096  # 1 MiB
    with store.writer("big") as handle:
        for i in range(12):
            handle.write(block[i:] + block[:i])
    with store.open("big") as handle:
        for i in range(12):
            assert handle.read(len(block)) == block[i:] + block[:i]
    assert store.size_bytes("big") == 12 * len(block)


def test_a_failed_write_leaves_nothing(store: ObjectStore) -> None:
    put(store, "kept", b"old")
    with pytest.raises(RuntimeError), store.writer("kept") as handle:
        handle.write(b"half of the new")
        raise RuntimeError("the writer died")
    with pytest.raises(RuntimeError), store.writer("never") as handle:
        handle.write(b"x" * 100)
        raise RuntimeError("the writer died")
    assert store.read_range("kept", 0, 10) == b"old"
    assert not store.exists("never")
    assert store.list("kept") == [] and store.list("never") == []


def test_listing_moving_and_deleting(store: ObjectStore) -> None:
    for key in ("d/1/x", "d/1/y/z", "d/10/x", "e"):
        put(store, key, key.encode())
    assert store.list("d/1") == ["d/1/x", "d/1/y/z"]  # not d/10
    assert store.list("nothing") == []
    store.move("d/1/x", "f/moved")
    assert not store.exists("d/1/x") and store.read_range("f/moved", 0, 99) == b"d/1/x"
    store.delete_prefix("d/1")
    assert store.list("d") == ["d/10/x"]
    store.delete("e")
    store.delete("e")  # deleting what is gone is no error
    assert not store.exists("e")
    assert store.modified_at("e") == 0.0
    assert abs(store.modified_at("d/10/x") - time.time()) < 3600  # a clock, not a counter


def test_missing_objects_are_file_not_found(store: ObjectStore) -> None:
    with pytest.raises(FileNotFoundError):
        store.open("gone")
    with pytest.raises(FileNotFoundError):
        store.size_bytes("gone")
    with pytest.raises(FileNotFoundError):
        store.move("gone", "there")


@pytest.mark.parametrize("key", ["", "/", "../up", "a/../../b", "a//b"])
def test_keys_stay_inside_the_store(store: ObjectStore, key: str) -> None:
    with pytest.raises(ValueError, match="invalid storage key"):
        store.exists(key)


def test_polars_scans_parquet_parts_from_the_store(store: ObjectStore) -> None:
    keys = []
    for i in range(3):
        key = f"t/part-{i}.parquet"
        with store.writer(key) as handle:
            pl.DataFrame({"ts": [i * 10 + j for j in range(5)]}).write_parquet(handle)
        keys.append(key)
    table = store.scan_parquet(keys).select(pl.col("ts").sum()).collect()
    assert table["ts"][0] == sum(i * 10 + j for i in range(3) for j in range(5))


def test_a_bucket_that_does_not_exist_is_a_clear_error(s3_url: str) -> None:
    with pytest.raises(StorageError, match="'no-such-bucket' cannot be used"):
        open_store("s3://no-such-bucket/headroom")


def test_a_local_prefix_delete_tolerates_a_job_still_writing_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dataset deleted while its job writes: the folder is not empty when removed (the
    job's new object is the janitor's); the objects there before are gone, no error."""
    import errno
    import os

    store = open_store(f"file://{tmp_path}")
    with store.writer("datasets/30/parts/0.parquet") as handle:
        handle.write(b"old")
    real_rmdir = os.rmdir

    def written_meanwhile(path: str, *args: object, **kwargs: object) -> None:
        if str(path).endswith("datasets/30"):
            raise OSError(errno.ENOTEMPTY, "Directory not empty", path)
        real_rmdir(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "rmdir", written_meanwhile)
    store.delete_prefix("datasets/30")
    assert store.list("datasets/30") == []


PART = 5 * 1024**2  # S3's smallest part, the size every part but the last has at least


def test_parts_sent_one_at_a_time_become_the_object_byte_for_byte(store: ObjectStore) -> None:
    data = (bytes(range(256)) * (2 * PART // 256 + 100))[: 2 * PART + 777]
    store.write_part("parts/whole", 0, data[:PART], len(data))
    store.write_part("parts/whole", PART, data[PART : 2 * PART], len(data))
    store.write_part("parts/whole", PART, data[PART : 2 * PART], len(data))  # sent again
    assert not store.exists("parts/whole")  # nothing at the key before it is finished
    with pytest.raises(OverflowError):  # the last part is missing
        store.finish_parts("parts/whole", len(data))
    store.write_part("parts/whole", 2 * PART, data[2 * PART :], len(data))
    store.finish_parts("parts/whole", len(data))
    with store.open("parts/whole") as handle:
        assert handle.read() == data
    with pytest.raises(FileNotFoundError):  # finished already
        store.finish_parts("parts/whole", len(data))


def test_aborted_parts_leave_nothing(store: ObjectStore) -> None:
    store.write_part("parts/aborted", 0, b"x" * PART, PART + 10)
    store.abort_parts("parts/aborted")
    with pytest.raises(FileNotFoundError):
        store.finish_parts("parts/aborted", PART + 10)
    assert not store.exists("parts/aborted") and store.list("parts") == []


def test_a_small_part_before_the_last_is_refused_by_s3(s3_url: str) -> None:
    store = open_store(s3_url)
    with pytest.raises(ValueError, match="at least"):
        store.write_part("parts/small", 0, b"x" * 1000, 2000)
    store.write_part("parts/small", 0, b"x" * 1000, 1000)  # the only part is the last
    store.finish_parts("parts/small", 1000)
    assert store.read_range("parts/small", 0, 2000) == b"x" * 1000
