"""How an upload asks to be parsed: a named format or a format string instead of detection,
and which members of a zip archive to read. Checked when the upload arrives, stored in
the dataset's metadata, read back by the ingest."""

from dataclasses import dataclass
from typing import Final, Literal

from headroom.core.errors import InvalidInput
from headroom.datasets.formats import KNOWN_FORMATS
from headroom.datasets.meta import DatasetMetaJson, ParseOptionsJson

ZipMembers = Literal["first", "all"]
ZIP_MEMBERS: tuple[str, ...] = ("first", "all")
AUTO = "auto"
META_KEY: Final = "parse_options"


@dataclass(frozen=True)
class ParseOptions:
    """`format`: a known name or None (detect); `log_format`: an Apache LogFormat or nginx
    log_format string or None; at most one of them is set."""

    format: str | None = None
    log_format: str | None = None
    zip_members: ZipMembers = "first"

    @property
    def parser_name(self) -> str | None:
        """The name the engine parses with; None means detect the format."""
        from headroom.engine.logs.formats import log_format_name

        if self.log_format is not None:
            return log_format_name(self.log_format)
        return self.format

    def to_meta(self) -> ParseOptionsJson:
        return {
            "format": self.format,
            "log_format": self.log_format,
            "zip_members": self.zip_members,
        }


def from_meta(meta: DatasetMetaJson | None) -> ParseOptions:
    """The options stored with a dataset (datasets uploaded before they existed: defaults)."""
    return from_json(meta.get(META_KEY) if meta else None)


def from_json(stored: ParseOptionsJson | None) -> ParseOptions:
    """The options as stored (None or empty: the defaults)."""
    if not stored:
        return ParseOptions()
    return ParseOptions(
        format=stored.get("format"),
        log_format=stored.get("log_format"),
        zip_members=stored.get("zip_members") or "first",
    )


def resolve(
    format: str | None, log_format: str | None, zip_members: str | None = None
) -> ParseOptions:
    """The cheap checks of what an upload asked for (compile_error does the rest);
    InvalidInput (422) names the offending field."""
    name = None if format in (None, "", AUTO) else format
    spec = log_format if log_format and log_format.strip() else None
    if name is not None and spec is not None:
        raise InvalidInput(
            "validation_error", "give format or log_format, not both", field="log_format"
        )
    members = zip_members or "first"
    if members not in ZIP_MEMBERS:
        raise InvalidInput(
            "validation_error",
            f"zip_members must be one of {', '.join(ZIP_MEMBERS)}, not {members!r}",
            field="zip_members",
        )
    if name is not None and name not in KNOWN_FORMATS:
        known = ", ".join([AUTO, *KNOWN_FORMATS])
        raise InvalidInput(
            "unknown_format", f"unknown log format {name!r}; known: {known}", field="format"
        )
    return ParseOptions(name, spec, members)  # type: ignore[arg-type]


def compile_error(options: ParseOptions) -> dict[str, str] | None:
    """Runs in the sniffing process (it loads the parser): why the log_format string does
    not compile, as plain data {code, message, field}, or None."""
    from headroom.engine.logs import LogInputError
    from headroom.engine.logs.formats import get_parser

    if options.log_format is not None:
        try:
            get_parser(options.parser_name or "")
        except LogInputError as error:
            return {"code": error.code, "message": error.message, "field": "log_format"}
    return None


def refusal(error: dict[str, str]) -> InvalidInput:
    return InvalidInput(error["code"], error["message"], field=error["field"])
