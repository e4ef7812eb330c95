"""Request bodies of the receivers: read whole (they are batches, not files) up to a limit,
and gunzipped (Content-Encoding: gzip) up to a limit of their own, so a small compressed body
cannot expand without bound."""

import zlib

from starlette.requests import Request

from headroom.core.errors import FileTooLarge, HeadroomError

MAX_BODY_BYTES = 16 * 1024**2
MAX_DECODED_BYTES = 64 * 1024**2


class BadPayload(HeadroomError):
    status_code, code = 400, "bad_payload"


class UnsupportedMediaType(HeadroomError):
    status_code, code = 415, "unsupported_media_type"


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
    return decoded(b"".join(chunks), request.headers.get("content-encoding", ""))


def decoded(body: bytes, encoding: str, limit: int = MAX_DECODED_BYTES) -> bytes:
    """The body without its Content-Encoding (identity or gzip)."""
    encoding = encoding.strip().lower()
    if encoding in ("", "identity"):
        return body
    if encoding not in ("gzip", "x-gzip"):
        raise UnsupportedMediaType(
            f"Content-Encoding {encoding!r} is not supported: send gzip or none",
            field="content-encoding",
        )
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(body, limit + 1)
    except zlib.error as error:
        raise BadPayload(f"the gzip body is corrupt: {error}") from error
    if len(out) > limit or inflater.unconsumed_tail:
        raise _too_large(limit, "once decompressed")
    if not inflater.eof:
        raise BadPayload("the gzip body is truncated")
    return out


def _too_large(limit: int, how: str = "") -> FileTooLarge:
    said = f" {how}" if how else ""
    return FileTooLarge(
        f"the request body{said} is larger than the limit of {limit:,} bytes; send smaller batches",
        detail={"max_bytes": limit},
    )


def media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()
