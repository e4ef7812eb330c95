"""The S3-compatible store (AWS S3, MinIO, Ceph RGW, Garage), through boto3.

`s3://bucket/prefix` names the bucket and a key prefix; the endpoint, region and
credentials come from boto3's usual settings (`AWS_ENDPOINT_URL`, `AWS_REGION`,
`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, or a profile / instance role). Reads stream
from a ranged GET (a seek starts a new one); writes go up in multipart parts (part_bytes: growing
with the object) and the object appears only when the upload completes (an error aborts it)."""

from __future__ import annotations

import contextlib
import functools
import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any, BinaryIO, TypedDict, cast
from urllib.parse import urlparse

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from headroom.core.object_store import StorageError, checked_key

if TYPE_CHECKING:
    import polars as pl

# Multipart parts: S3 takes at most 10,000 of at most 5 GiB each, so their size grows with
# the object (a writer does not know its size beforehand): 16 MiB for the first
# PARTS_PER_SIZE parts (39 GiB, a 30 GB upload in 1,789 parts), then twice as much for each
# further PARTS_PER_SIZE; the memory a writer holds is one part.
PART_BYTES = 16 * 1024**2
PARTS_PER_SIZE = 2500
PARTS_MAX = 10_000
WINDOW_BYTES_MIN = 1024**2
WINDOW_BYTES_MAX = 64 * 1024**2
# parts of an object assembled request by request (write_part): numbered by their offset
# in steps of S3's smallest part, so a part sent again replaces itself and the numbers rise
PART_BYTES_MIN = 5 * 1024**2
ASSEMBLED_BYTES_MAX = PARTS_MAX * PART_BYTES_MIN  # 48.8 GiB
MISSING = ("404", "NoSuchKey", "NotFound")
# botocore's defaults are 60 s each; a store that stops answering fails a request sooner,
# and the standard retry mode tries it again (5 attempts in all, with backoff)
CONNECT_TIMEOUT_S = 10.0
READ_TIMEOUT_S = 60.0
MAX_ATTEMPTS = 5
# errors that pass: the store is busy or failing for now, not refusing (a job retries)
PASSING = ("InternalError", "ServiceUnavailable", "SlowDown", "RequestTimeout", "Throttling")


def part_bytes(number: int) -> int:
    """The size of part `number` (from 1) of a multipart write."""
    return PART_BYTES << ((number - 1) // PARTS_PER_SIZE)


OBJECT_BYTES_MAX = sum(part_bytes(n) for n in range(1, PARTS_MAX + 1))  # 586 GiB


class StoreUnavailable(ConnectionError):
    """The store still failed after boto3's retries (5xx, throttling, timeouts): transient,
    a worker retries the job later (a ConnectionError, as the job runner counts them)."""


class HeadJson(TypedDict):  # what this store reads of a HeadObject reply
    ContentLength: int
    LastModified: datetime


class PartJson(TypedDict):  # a CompleteMultipartUpload part
    PartNumber: int
    ETag: str


@functools.lru_cache(maxsize=8)
def open_s3_store(url: str) -> S3Store:
    """One client per process and URL; the bucket is checked once, on first use."""
    return S3Store(url)


class S3Store:
    def __init__(self, url: str) -> None:
        parsed = urlparse(url)
        self.url = url
        self.bucket = parsed.netloc
        self.prefix = parsed.path.strip("/")
        config = Config(
            retries={"total_max_attempts": MAX_ATTEMPTS, "mode": "standard"},
            connect_timeout=CONNECT_TIMEOUT_S,
            read_timeout=READ_TIMEOUT_S,
            s3={"addressing_style": "path"},
            # plain requests that every S3-compatible server accepts
            request_checksum_calculation="when_required",
            response_checksum_validation="when_required",
        )
        self.session = boto3.session.Session()
        self.client = self.session.client("s3", config=config)
        self._check_bucket()

    def _check_bucket(self) -> None:
        try:
            self.client.head_bucket(Bucket=self.bucket)
        except (ClientError, BotoCoreError) as error:
            raise StorageError(
                f"the storage bucket {self.bucket!r} cannot be used at "
                f"{self.client.meta.endpoint_url}: {error}"
            ) from error

    def _key(self, key: str) -> str:
        key = checked_key(key)
        return f"{self.prefix}/{key}" if self.prefix else key

    def _folder(self, prefix: str) -> str:
        return self._key(prefix) + "/"

    def _relative(self, full_key: str) -> str:
        return full_key[len(self.prefix) + 1 :] if self.prefix else full_key

    @contextmanager
    def writer(self, key: str) -> Iterator[BinaryIO]:
        upload = _MultipartWriter(self.client, self.bucket, self._key(key))
        try:
            yield cast(BinaryIO, upload)
            upload.finish()
        except (ClientError, BotoCoreError) as error:
            upload.abort()
            raise self._write_error(error, key) from error
        except BaseException:
            upload.abort()
            raise

    def _write_error(self, error: ClientError | BotoCoreError, key: str) -> Exception:
        """A refusal (403, a bucket gone, ...) is the store's answer: StorageError; a store
        failing or silent after the retries is StoreUnavailable. Both name the object."""
        where = f"s3://{self.bucket}/{self._key(key)}"
        if not isinstance(error, ClientError):
            endpoint = self.client.meta.endpoint_url
            return StoreUnavailable(
                f"the store at {endpoint} did not take {where} after {MAX_ATTEMPTS} attempts: "
                f"{error}"
            )
        code = str(error.response.get("Error", {}).get("Code", ""))
        status = int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
        if status >= 500 or code in PASSING:
            return StoreUnavailable(
                f"the store failed to write {where} after {MAX_ATTEMPTS} attempts: {error}"
            )
        return StorageError(f"the store refused to write {key!r} ({where}): {error}")

    def open(self, key: str) -> BinaryIO:
        full_key = self._key(key)
        raw = _RangedReader(
            self.client, self.bucket, full_key, self._head(full_key)["ContentLength"]
        )
        return cast(BinaryIO, io.BufferedReader(raw, 1 << 20))

    def read_range(self, key: str, start: int, end: int) -> bytes:
        if end <= start:
            return b""
        try:
            reply = self.client.get_object(
                Bucket=self.bucket, Key=self._key(key), Range=f"bytes={start}-{end - 1}"
            )
        except ClientError as error:
            raise _missing(error, key) from error
        return cast(bytes, reply["Body"].read())

    def _head(self, full_key: str) -> HeadJson:
        try:
            return cast(HeadJson, self.client.head_object(Bucket=self.bucket, Key=full_key))
        except ClientError as error:
            raise _missing(error, full_key) from error

    def exists(self, key: str) -> bool:
        try:
            self._head(self._key(key))
        except FileNotFoundError:
            return False
        return True

    def size_bytes(self, key: str) -> int:
        return int(self._head(self._key(key))["ContentLength"])

    def move(self, src_key: str, dst_key: str) -> None:
        """A server-side copy (multipart above 5 GB), then the source is removed."""
        source = {"Bucket": self.bucket, "Key": self._key(src_key)}
        self._head(source["Key"])
        self.client.copy(source, self.bucket, self._key(dst_key))
        self.delete(src_key)

    def delete(self, key: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=self._key(key))

    def delete_prefix(self, prefix: str) -> None:
        keys = [self._key(k) for k in self.list(prefix)]
        for start in range(0, len(keys), 1000):
            objects = [{"Key": k} for k in keys[start : start + 1000]]
            self.client.delete_objects(
                Bucket=self.bucket, Delete={"Objects": objects, "Quiet": True}
            )

    def list(self, prefix: str) -> list[str]:
        pages = self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.bucket, Prefix=self._folder(prefix)
        )
        return sorted(self._relative(o["Key"]) for page in pages for o in page.get("Contents", []))

    def modified_at(self, key: str) -> float:
        """Seconds since the epoch of the object's last write (0 if it is gone)."""
        try:
            return float(self._head(self._key(key))["LastModified"].timestamp())
        except FileNotFoundError:
            return 0.0

    def prune_empty_folders(self, changed_before: float) -> None:
        """An object store has no folders to prune."""

    def _multipart_ids(self, full_key: str) -> tuple[str, ...]:
        pages = self.client.get_paginator("list_multipart_uploads").paginate(
            Bucket=self.bucket, Prefix=full_key
        )
        return tuple(
            u["UploadId"] for page in pages for u in page.get("Uploads", []) if u["Key"] == full_key
        )

    def write_part(self, key: str, offset: int, data: bytes, whole_bytes: int) -> None:
        """Uploads data as part offset // PART_BYTES_MIN + 1 of the multipart upload of
        key (started by the first part). Every part but the last holds PART_BYTES_MIN or more
        (ValueError otherwise), as S3 requires."""
        if whole_bytes > ASSEMBLED_BYTES_MAX:
            raise ValueError(f"an object sent in parts holds at most {ASSEMBLED_BYTES_MAX:,} bytes")
        if len(data) < PART_BYTES_MIN and offset + len(data) < whole_bytes:
            raise ValueError(f"every part but the last holds at least {PART_BYTES_MIN:,} bytes")
        full_key = self._key(key)
        try:
            ids = self._multipart_ids(full_key)
            upload_id = (
                ids[0]
                if ids
                else self.client.create_multipart_upload(Bucket=self.bucket, Key=full_key)[
                    "UploadId"
                ]
            )
            self.client.upload_part(
                Bucket=self.bucket,
                Key=full_key,
                UploadId=upload_id,
                PartNumber=offset // PART_BYTES_MIN + 1,
                Body=data,
            )
        except (ClientError, BotoCoreError) as error:
            raise self._write_error(error, key) from error

    def finish_parts(self, key: str, whole_bytes: int) -> None:
        """CompleteMultipartUpload, once the parts are checked to follow each other from
        byte 0 to whole_bytes. FileNotFoundError: no upload under way (finished already);
        OverflowError: bytes are missing."""
        full_key = self._key(key)
        ids = self._multipart_ids(full_key)
        if not ids:
            raise FileNotFoundError(key)
        pages = self.client.get_paginator("list_parts").paginate(
            Bucket=self.bucket, Key=full_key, UploadId=ids[0]
        )
        parts: list[PartJson] = []
        offset = 0
        for part in sorted(
            (p for page in pages for p in page.get("Parts", [])), key=lambda p: p["PartNumber"]
        ):
            if part["PartNumber"] != offset // PART_BYTES_MIN + 1:
                raise OverflowError(offset)  # a gap
            parts.append({"PartNumber": part["PartNumber"], "ETag": part["ETag"]})
            offset += part["Size"]
        if offset != whole_bytes:
            raise OverflowError(offset)
        try:
            self.client.complete_multipart_upload(
                Bucket=self.bucket,
                Key=full_key,
                UploadId=ids[0],
                MultipartUpload={"Parts": parts},
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "NoSuchUpload":
                raise FileNotFoundError(key) from error  # another request finished it
            raise self._write_error(error, key) from error

    def abort_parts(self, key: str) -> None:
        full_key = self._key(key)
        for upload_id in self._multipart_ids(full_key):
            self.client.abort_multipart_upload(Bucket=self.bucket, Key=full_key, UploadId=upload_id)

    def parts_keys(self, prefix: str, started_before: float) -> tuple[str, ...]:
        """The keys under prefix with a multipart upload started before `started_before`
        (seconds since the epoch)."""
        pages = self.client.get_paginator("list_multipart_uploads").paginate(
            Bucket=self.bucket, Prefix=self._folder(prefix)
        )
        started = {
            self._relative(upload["Key"])
            for page in pages
            for upload in page.get("Uploads", [])
            if upload["Initiated"].timestamp() <= started_before
        }
        return tuple(sorted(started))

    def scan_parquet(self, keys: Sequence[str]) -> pl.LazyFrame:
        import polars as pl

        sources = [f"s3://{self.bucket}/{self._key(k)}" for k in keys]
        return pl.scan_parquet(sources, storage_options=self.polars_options())

    def polars_options(self) -> dict[str, str]:
        """The client's endpoint, region and credentials, for polars' own S3 reader."""
        endpoint = str(self.client.meta.endpoint_url)
        options = {
            "aws_endpoint_url": endpoint,
            "aws_allow_http": str(endpoint.startswith("http:")).lower(),
            "aws_region": self.client.meta.region_name or "us-east-1",
        }
        credentials = self.session.get_credentials()
        if credentials is not None:
            frozen = credentials.get_frozen_credentials()
            options["aws_access_key_id"] = frozen.access_key
            options["aws_secret_access_key"] = frozen.secret_key
            if frozen.token:
                options["aws_session_token"] = frozen.token
        return options


def _missing(error: ClientError, key: str) -> Exception:
    code = str(error.response.get("Error", {}).get("Code", ""))
    if code in MISSING:
        return FileNotFoundError(f"no stored object {key!r}")
    return error


class _RangedReader(io.RawIOBase):
    """Reads one object by ranged GETs from the current position: each GET asks for twice
    the bytes of the one before (1 MiB up to 64 MiB), so a stream costs few requests and a
    seek, which starts again at 1 MiB, fetches little it does not need."""

    def __init__(self, client: Any, bucket: str, key: str, size_bytes: int) -> None:
        self.client, self.bucket, self.key, self.size_bytes = client, bucket, key, size_bytes
        self.position = 0
        self.body: Any = None
        self.body_end = 0
        self.window_bytes = WINDOW_BYTES_MIN

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size_bytes}
        target = base[whence] + offset
        if target != self.position:
            self._drop()
            self.position = target
            self.window_bytes = WINDOW_BYTES_MIN
        return self.position

    def readinto(self, buffer: Any) -> int:
        if self.position >= self.size_bytes:
            return 0
        if self.body is None or self.position >= self.body_end:
            self._drop()
            self.body_end = min(self.position + self.window_bytes, self.size_bytes)
            reply = self.client.get_object(
                Bucket=self.bucket, Key=self.key, Range=f"bytes={self.position}-{self.body_end - 1}"
            )
            self.body = reply["Body"]
            self.window_bytes = min(2 * self.window_bytes, WINDOW_BYTES_MAX)
        data = self.body.read(min(len(buffer), self.body_end - self.position))
        if not data:
            raise OSError(f"the store ended the read of {self.key!r} at byte {self.position:,}")
        buffer[: len(data)] = data
        self.position += len(data)
        return len(data)

    def _drop(self) -> None:
        if self.body is not None:
            self.body.close()
            self.body = None

    def close(self) -> None:
        self._drop()
        super().close()


class _MultipartWriter(io.RawIOBase):
    """Buffers one part at a time (part_bytes); a small object is one PUT."""

    def __init__(self, client: Any, bucket: str, key: str) -> None:
        self.client, self.bucket, self.key = client, bucket, key
        self.buffer = bytearray()
        self.written = 0
        self.upload_id: str | None = None
        self.parts: list[PartJson] = []

    def writable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.written

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        taken = 0
        while taken < len(view):
            room = part_bytes(len(self.parts) + 1) - len(self.buffer)
            self.buffer += view[taken : taken + room]
            taken += min(room, len(view) - taken)
            if len(self.buffer) == part_bytes(len(self.parts) + 1):
                self._send()
        self.written += len(view)
        return len(view)

    def _send(self) -> None:
        number = len(self.parts) + 1
        if number > PARTS_MAX:
            raise StorageError(
                f"an object in S3 holds at most {OBJECT_BYTES_MAX:,} bytes "
                f"({PARTS_MAX:,} parts); s3://{self.bucket}/{self.key} is larger"
            )
        if self.upload_id is None:
            reply = self.client.create_multipart_upload(Bucket=self.bucket, Key=self.key)
            self.upload_id = reply["UploadId"]
        reply = self.client.upload_part(
            Bucket=self.bucket,
            Key=self.key,
            UploadId=self.upload_id,
            PartNumber=number,
            Body=self.buffer,
        )
        self.parts.append({"PartNumber": number, "ETag": reply["ETag"]})
        self.buffer = bytearray()

    def finish(self) -> None:
        if self.upload_id is None:
            self.client.put_object(Bucket=self.bucket, Key=self.key, Body=self.buffer)
            return
        if self.buffer:
            self._send()
        self.client.complete_multipart_upload(
            Bucket=self.bucket,
            Key=self.key,
            UploadId=self.upload_id,
            MultipartUpload={"Parts": self.parts},
        )

    def abort(self) -> None:
        """Drops the parts sent so far (best effort: the write has failed already)."""
        if self.upload_id is not None:
            with contextlib.suppress(ClientError, BotoCoreError):
                self.client.abort_multipart_upload(
                    Bucket=self.bucket, Key=self.key, UploadId=self.upload_id
                )
