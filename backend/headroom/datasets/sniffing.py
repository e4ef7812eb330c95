"""A first look at an uploaded file, in a helper process (core.heavy_calls): the parser
(numba, polars) stays out of the API process. The child returns plain data."""

from dataclasses import dataclass
from typing import Any, BinaryIO, TypedDict

from headroom.core import heavy_calls
from headroom.core.storage import open_store
from headroom.datasets import otlp_files
from headroom.datasets.parse_options import ParseOptions, compile_error, refusal

SNIFF_BYTES = 1 << 20


class UnrecognisedJson(TypedDict):  # the 422's detail when no format matches
    line_number: int | None
    line: str | None
    closest_format: str | None


@dataclass(frozen=True)
class Sniffed:
    format: str | None = None
    confidence: float = 0.0
    notes: tuple[str, ...] = ()
    error_code: str | None = None
    error_message: str | None = None
    error_detail: UnrecognisedJson | None = None


def sniff_file(store_url: str, key: str, options: ParseOptions | None = None) -> Sniffed:
    """Runs in the child: detect the log format from the first megabyte of the stored
    object, or check the format the uploader named against it."""
    from headroom.engine.logs import LogInputError, UnrecognisedLogError

    options = options or ParseOptions()
    try:
        detection = _detection(open_store(store_url).open(key), options)
    except UnrecognisedLogError as error:
        detail: UnrecognisedJson = {
            "line_number": error.line_number,
            "line": error.line,
            "closest_format": error.closest_format,
        }
        message = _unparseable(error, options.parser_name)
        return Sniffed(error_code=error.code, error_message=message, error_detail=detail)
    except LogInputError as error:
        return Sniffed(error_code=error.code, error_message=error.message)
    return Sniffed(
        format=detection.format, confidence=detection.confidence, notes=tuple(detection.notes)
    )


def _detection(stored: BinaryIO, options: ParseOptions) -> Any:
    from headroom.engine.logs import check_format, detect_format, open_log

    with open_log(stored, zip_members=options.zip_members) as stream:
        sample = _whole_lines(stream.read(SNIFF_BYTES))
    name = options.parser_name
    if name is None and (otlp := otlp_files.detection(sample)) is not None:
        return otlp
    return detect_format(sample) if name is None else check_format(sample, name)


def check_options(options: ParseOptions) -> dict[str, str] | None:
    """Runs in the child: why the options cannot be used (plain data), or None."""
    return compile_error(options)


def _whole_lines(sample: bytes) -> bytes:
    if len(sample) < SNIFF_BYTES:
        return sample
    cut = sample.rfind(b"\n")
    return sample[: cut + 1] if cut > 0 else sample


def _unparseable(error: Any, given: str | None = None) -> str:
    where = f" (line {error.line_number})" if error.line_number else ""
    if given is not None:
        return f"fewer than half of the first lines parse as {given}{where}"
    closest = f"; the closest format is {error.closest_format}" if error.closest_format else ""
    return f"no supported log format matches this file{where}{closest}"


async def sniff_in_pool(store_url: str, key: str, options: ParseOptions | None = None) -> Sniffed:
    return await heavy_calls.run(sniff_file, store_url, key, options)


async def checked_options(options: ParseOptions) -> ParseOptions:
    """The options, once the parser has compiled them (in the child); else a 422."""
    if options.log_format is None:
        return options
    error = await heavy_calls.run(check_options, options)
    if error is not None:
        raise refusal(error)
    return options
