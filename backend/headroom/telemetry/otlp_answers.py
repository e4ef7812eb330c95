"""OTLP/HTTP answers: the ExportTraceServiceResponse, and errors as a google.rpc.Status
(code, message) in the request's encoding, as the OTLP specification asks."""

import json
from typing import Any

from fastapi.responses import Response

from headroom.core.errors import HeadroomError

PROTOBUF = "application/x-protobuf"
JSON = "application/json"
GRPC_CODES = {400: 3, 401: 16, 403: 7, 404: 5, 413: 8, 415: 3, 422: 3, 429: 8}  # google.rpc.Code


def success(message: Any, is_json: bool) -> Response:
    from google.protobuf import json_format

    if is_json:
        body = json_format.MessageToJson(message, indent=None).encode()
        return Response(body, media_type=JSON)
    return Response(message.SerializeToString(), media_type=PROTOBUF)


def failure(error: HeadroomError, is_json: bool) -> Response:
    code = GRPC_CODES.get(error.status_code, 2)
    message = f"{error.code}: {error.message}"
    headers = {"Retry-After": str(error.retry_after_s)} if hasattr(error, "retry_after_s") else None
    if is_json:
        body = json.dumps({"code": code, "message": message}).encode()
        return Response(body, error.status_code, headers, media_type=JSON)
    return Response(status_bytes(code, message), error.status_code, headers, media_type=PROTOBUF)


def status_bytes(code: int, message: str) -> bytes:
    """google.rpc.Status in protobuf: field 1 (code, varint), field 2 (message, bytes)."""
    text = message.encode()
    return b"\x08" + _varint(code) + b"\x12" + _varint(len(text)) + text


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)
