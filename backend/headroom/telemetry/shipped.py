"""The bodies log shippers send, made into log lines: NDJSON (Vector's http sink with
`encoding.codec = "json"` and newline-delimited framing, Fluent Bit's http output with
`format json_lines`), a JSON array (Fluent Bit's `format json`), or raw lines (text/plain,
Vector's `text` codec). A JSON record's line is its `message` (Vector) or `log` (Fluent
Bit) field; a record with neither is itself the line (a JSON access log)."""

import io

import polars as pl

from headroom.telemetry.bodies import BadPayload

MESSAGE_KEYS = ("message", "log")
JSON_TYPES = frozenset({"application/json", "application/x-ndjson", "application/jsonlines",
                        "application/json-lines", "application/x-jsonlines"})  # fmt: skip


def lines_of(body: bytes, media_type: str) -> bytes:
    """Whole lines (each ending in a newline) for the dataset's parser."""
    text = body.decode("utf-8", "replace")
    head = text.lstrip()[:1]
    if media_type in JSON_TYPES and head == "[":
        messages = _array_messages(body)
    elif media_type in JSON_TYPES or head == "{":
        messages = _ndjson_messages(text)
    else:
        messages = pl.Series(text.splitlines(), dtype=pl.String)
    cleaned = messages.str.strip_chars_end("\r\n").str.replace_all("\n", " ", literal=True)
    kept = cleaned.filter(cleaned.str.len_chars() > 0)
    return ("\n".join(kept.to_list()) + "\n").encode() if kept.len() else b""


def _array_messages(body: bytes) -> pl.Series:
    schema = dict.fromkeys(MESSAGE_KEYS, pl.String())
    try:
        records = pl.read_json(io.BytesIO(body), schema=schema)
    except Exception as error:  # polars raises several kinds for a bad document
        raise BadPayload(f"the body is not a JSON array of records: {error}") from error
    return records.select(pl.coalesce(*MESSAGE_KEYS)).to_series().drop_nulls()


def _ndjson_messages(text: str) -> pl.Series:
    lines = pl.Series(text.splitlines(), dtype=pl.String).str.strip_chars()
    lines = lines.filter(lines.str.len_chars() > 0)
    frame = pl.DataFrame({"line": lines})
    is_record = pl.col("line").str.starts_with("{")
    fields = [pl.col("line").str.json_path_match(f"$.{key}") for key in MESSAGE_KEYS]
    picked = pl.when(is_record).then(pl.coalesce(*fields, pl.col("line"))).otherwise("line")
    return frame.select(picked.alias("line")).to_series()
