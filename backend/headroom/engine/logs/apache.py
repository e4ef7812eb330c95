"""Apache `LogFormat` strings compiled into one line template.

Directives read: %h %a %l %u %t %{fmt}t %r %s %<s %>s %b %B %O %I %D %T %{ms|us|s}T
%{X}i %{X}o %v %V %p %U %q %m %H %%, plus the other mod_log_config letters as skipped
fields; status conditions (`%400r`, `%!200T`) and `<`/`>` modifiers are accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .records import LogInputError
from .strftime import APACHE_NAMED, compile_strftime
from .tabulate import TemplateParser
from .template import Field, join

_DIRECTIVE = re.compile(r"%([<>!,0-9]*)(?:\{([^}]*)\})?([<>!,0-9]*)([a-zA-Z%])")
_SKIPPED = set("AeCfklLnPRX") | {"I"}
_KNOWN = set("ahlutrsbBODTivVpUqmHo%") | _SKIPPED
_PARAM_OK = set("tTiopCenPa")  # letters that take a {param}
_PARAM_REQUIRED = set("Cenio")
_COLUMNS = {"client", "time", "time_pattern", "request", "url", "status", "bytes", "latency",
            "referer", "user_agent", "server", "method", "path", "query"}  # fmt: skip


@dataclass(frozen=True)
class _Orig:
    source_id: int  # id() of the field in the parts list
    field: Field


@dataclass(frozen=True)
class _Dir:
    letter: str
    param: str | None
    text: str


def _tokens(fmt: str) -> list[str | _Dir]:
    out: list[str | _Dir] = []
    pos = 0
    while pos < len(fmt):
        i = fmt.find("%", pos)
        if i < 0:
            out.append(fmt[pos:])
            break
        if i > pos:
            out.append(fmt[pos:i])
        m = _DIRECTIVE.match(fmt, i)
        if m is None:
            raise LogInputError("bad_log_format", f"malformed directive at {fmt[i : i + 12]!r}")
        letter, param = m.group(4), m.group(2)
        bad_param = param is not None and letter not in _PARAM_OK
        if letter not in _KNOWN or bad_param or (param is None and letter in _PARAM_REQUIRED):
            raise LogInputError("bad_log_format", f"unknown directive {m.group(0)!r}")
        if letter == "a" and param not in (None, "c"):
            raise LogInputError("bad_log_format", f"unknown directive {m.group(0)!r}")
        out.append("%" if letter == "%" else _Dir(letter, param, m.group(0)))
        pos = m.end()
    return out


def _time_field(param: str | None) -> tuple[Field | None, bool]:
    """(pattern field, or None for the bracketed default; True when it is the end time)."""
    p = param or ""
    end = p.startswith("end:") or p == "end"
    p = p.removeprefix("begin").removeprefix("end").removeprefix(":")
    if not p:
        return None, end
    ops = [APACHE_NAMED[p]] if p in APACHE_NAMED else compile_strftime(p)
    return Field("time_pattern", pattern=tuple(ops)), end


def _role(d: _Dir) -> Field:
    p = (d.param or "").lower()
    simple = {"h": "client", "a": "client", "r": "request", "url": "url", "m": "method",
              "U": "path", "q": "query", "v": "server", "V": "server"}  # fmt: skip
    if d.letter in simple:
        return Field(simple[d.letter])
    if d.letter in "bB":
        return Field("bytes")
    if d.letter == "O":
        return Field("bytes_out")
    if d.letter == "D":
        return Field("latency", "us")
    if d.letter == "T":
        unit = {"": "s", "s": "s", "ms": "ms", "us": "us"}.get(p)
        if unit is None:
            raise LogInputError("bad_log_format", f"unknown unit in {d.text!r}")
        return Field("latency", unit)
    if d.letter == "i" and p in ("referer", "user-agent"):
        return Field("referer" if p == "referer" else "user_agent")
    return Field("skip")


_CLF_PATTERN = compile_strftime("[%d/%b/%Y:%H:%M:%S %z]")


def _merge_url(tokens: list[str | _Dir]) -> list[str | _Dir]:
    """`%U%q` (path then query, adjacent) reads as one url field."""
    out: list[str | _Dir] = []
    for tok in tokens:
        prev = out[-1] if out else None
        if (
            isinstance(tok, _Dir)
            and tok.letter == "q"
            and isinstance(prev, _Dir)
            and prev.letter == "U"
        ):
            out[-1] = _Dir("url", None, prev.text + tok.text)
            continue
        out.append(tok)
    return out


def _merge_times(tokens: list[str | _Dir]) -> list[str | _Dir | Field]:
    """Join adjacent custom-time directives (and the text between) into one pattern."""
    out: list[str | _Dir | Field] = []
    for tok in tokens:
        custom = isinstance(tok, _Dir) and tok.letter == "t" and _time_field(tok.param)[0]
        if not custom:
            out.append(tok)
            continue
        assert isinstance(tok, _Dir)
        field, _ = _time_field(tok.param)
        assert field is not None
        if len(out) >= 2 and isinstance(out[-2], Field) and isinstance(out[-1], str):
            glue = tuple(op for op in compile_strftime(out[-1].replace("%", "%%")))
            out[-2] = Field("time_pattern", pattern=out[-2].pattern + glue + field.pattern)
            out.pop()
        elif out and isinstance(out[-1], Field):
            out[-1] = Field("time_pattern", pattern=out[-1].pattern + field.pattern)
        else:
            out.append(field)
    return out


_PRIORITY = {
    "status": ("status_final", "status", "status_orig"),
    "bytes": ("bytes", "bytes_out"),
}


def _choose(fields: list[Field]) -> dict[str, _Orig]:
    """role -> the field that supplies it: the best-ranked source, unconditional before
    conditional (`%400r`), the finest latency, otherwise the first."""
    plain = sorted(fields, key=lambda f: f.role.startswith("cond_"))  # stable
    fields = [Field(f.role.removeprefix("cond_"), f.unit, f.pattern) for f in plain]
    ids = {id(new): id(old) for new, old in zip(fields, plain, strict=True)}
    chosen: dict[str, Field] = {}
    for role, ranked in _PRIORITY.items():
        for source in ranked:
            found = [f for f in fields if f.role == source]
            if found:
                chosen[role] = found[0]
                break
    latencies = [f for f in fields if f.role == "latency"]
    if latencies:
        chosen["latency"] = min(latencies, key=lambda f: {"us": 0, "ms": 1}.get(f.unit or "", 2))
    for f in fields:
        chosen.setdefault(f.role, f)
    return {role: _Orig(ids[id(f)], f) for role, f in chosen.items()}


def _dedupe(parts: list[bytes | Field]) -> list[bytes | Field]:
    """Keep one field per request-table column; the others become skipped fields."""
    chosen = _choose([p for p in parts if isinstance(p, Field)])
    by_id: dict[int, str] = {}
    for role, f in chosen.items():
        by_id.setdefault(f.source_id, role)
    out: list[bytes | Field] = []
    for part in parts:
        if isinstance(part, Field):
            role = by_id.get(id(part), "skip")
            part = Field(role if role in _COLUMNS else "skip", part.unit, part.pattern)
        out.append(part)
    return out


def compile_log_format(fmt: str, name: str | None = None) -> TemplateParser:
    """One parser for an Apache LogFormat string; raises LogInputError when malformed."""
    raw = _tokens(fmt)
    end_time = any(isinstance(t, _Dir) and t.letter == "t" and _time_field(t.param)[1] for t in raw)
    tokens = _merge_times(_merge_url(raw))
    parts: list[bytes | Field] = []
    for tok in tokens:
        if isinstance(tok, str):
            parts.append(tok.encode())
        elif isinstance(tok, Field):
            parts.append(tok)
        elif tok.letter == "t":
            if any(c.isdigit() for c in tok.text):  # conditional: may be a bare `-`
                parts.append(Field("time_pattern", pattern=tuple(_CLF_PATTERN)))
            else:
                parts.extend([b"[", Field("time"), b"]"])
        elif tok.letter == "s":
            kind = "final" if ">" in tok.text else ("orig" if "<" in tok.text else "")
            parts.append(Field(f"status_{kind}" if kind else "status"))  # never conditional
        else:
            field = _role(tok)
            # conditional (`%400r`) or original-request (`%<r`) values are second choices
            cond = any(c.isdigit() or c == "<" for c in tok.text) and field.role != "skip"
            parts.append(Field("cond_" + field.role, field.unit) if cond else field)
    if not any(isinstance(p, Field) for p in parts):
        raise LogInputError("bad_log_format", f"no directive in {fmt!r}")
    final = _dedupe(parts)
    return TemplateParser(name or f"apache:{fmt}", join(tuple(final)), time_is_completion=end_time)
