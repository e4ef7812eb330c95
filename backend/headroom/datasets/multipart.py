"""Streams the `file` part of a multipart/form-data body, chunk by chunk, without spooling
the whole upload to a temporary file first (python-multipart's push parser)."""

from collections.abc import AsyncIterator

from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

from headroom.core.errors import InvalidInput

FILE_FIELD = b"file"
TEXT_FIELDS = frozenset({"format", "log_format", "zip_members"})
TEXT_FIELD_BYTES_MAX = 64 * 1024


class MultipartFile:
    """Async iterator over the bytes of the form field `file`; `filename` once known, and
    the small text fields named in TEXT_FIELDS in `fields` once the body is read."""

    def __init__(self, body: AsyncIterator[bytes], content_type: str) -> None:
        _, params = parse_options_header(content_type)
        boundary = params.get(b"boundary")
        if not boundary:
            raise InvalidInput(
                "validation_error", "the multipart body has no boundary", field="file"
            )
        self.body = body
        self.filename: str | None = None
        self.found = False
        self._pending: list[bytes] = []
        self._header_field, self._header_value = b"", b""
        self._in_file = False
        self._text: str | None = None  # the text field being read
        self._text_bytes: dict[str, bytearray] = {}
        self.parser = MultipartParser(
            boundary,
            {
                "on_part_begin": self._part_begin,
                "on_header_field": self._collect_field,
                "on_header_value": self._collect_value,
                "on_header_end": self._header_end,
                "on_part_data": self._data,
            },
        )

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.body:
            self._parse(chunk)
            while self._pending:
                yield self._pending.pop(0)
        self._parse(None)
        while self._pending:
            yield self._pending.pop(0)
        if not self.found:
            raise InvalidInput(
                "validation_error", "the multipart body needs a field 'file'", field="file"
            )

    def _parse(self, chunk: bytes | None) -> None:
        """Feeds the parser (None: the body ended); a malformed body is a 422."""
        try:
            if chunk is None:
                self.parser.finalize()
            else:
                self.parser.write(chunk)
        except MultipartParseError as error:
            raise InvalidInput(
                "invalid_multipart",
                f"the multipart/form-data body is malformed: {error}",
                field="file",
            ) from None

    @property
    def fields(self) -> dict[str, str]:
        return {k: v.decode("utf-8", "replace") for k, v in self._text_bytes.items()}

    def _part_begin(self) -> None:
        self._in_file = False
        self._text = None

    def _collect_field(self, data: bytes, start: int, end: int) -> None:
        self._header_field += data[start:end]

    def _collect_value(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def _header_end(self) -> None:
        if self._header_field.lower() == b"content-disposition":
            _, params = parse_options_header(self._header_value)
            field_name = params.get(b"name")
            if field_name == FILE_FIELD and not self.found:
                self._in_file = self.found = True
                raw_name = params.get(b"filename")
                self.filename = raw_name.decode("utf-8", "replace") if raw_name else None
            elif field_name is not None and field_name.decode("latin-1") in TEXT_FIELDS:
                self._text = field_name.decode("latin-1")
                self._text_bytes[self._text] = bytearray()
        self._header_field, self._header_value = b"", b""

    def _data(self, data: bytes, start: int, end: int) -> None:
        if self._in_file:
            self._pending.append(bytes(data[start:end]))
        elif self._text is not None:
            self._text_data(data[start:end])

    def _text_data(self, data: bytes) -> None:
        assert self._text is not None
        held = self._text_bytes[self._text]
        if len(held) + len(data) > TEXT_FIELD_BYTES_MAX:
            raise InvalidInput(
                "validation_error", f"the field {self._text!r} is too long", field=self._text
            )
        held.extend(data)
