"""Hypothesis: the CLF fast path (clf.py) gives exactly what the generic template steps give,
line by line, on typical, odd and broken lines: same errors, same spans, same table."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.logs import parse_chunk
from headroom.engine.logs.formats import clf_family
from headroom.engine.logs.parse import as_buffer
from headroom.engine.logs.tabulate import TemplateParser

FAST = clf_family()
GENERIC = {name: TemplateParser(name, p.parts) for name, p in FAST.items()}  # clf=False

part = st.sampled_from
line = st.tuples(
    part(["", "host:80 ", "host ", "[::1]:443 "]),
    part(["1.2.3.4", "::1", "", "a\tb"]),
    part([" - - ", " - frank ", " -  ", "  "]),
    part(
        [
            "[10/Oct/2000:13:55:36 -0700]",
            "[10/Mär/2000:13:55:36 +0100]",
            "[10/Okt/2000:13:55:36 +0000]",
            "[1/Oct/2000:13:55:36 -0700]",
            "[10/Oct/2000:25:55:36 -0700]",
            "[10/Oct/2000:13:55:36.25 -0700]",
            "[10/Oct/2000:13:55:36]",
            "[-]",
            "[10/Oct/2000:13:55:36 -0700",
            "[32/Oct/2000:13:55:36 -0700]",
        ]
    ),
    part(
        [
            ' "GET /a?b HTTP/1.1"',
            ' "GET /a\\"b HTTP/1.1"',
            ' "-"',
            ' "GET /x"',
            ' "',
            ' ""',
            " GET /",
        ]
    ),
    part([" 200", " -", " 2000", " 20", " 20x"]),
    part([" 123", " -", " -5", "", " 1x"]),
    part(
        ["", ' "-" "ua"', ' "x\\"y" "a \\"q\\" b"', ' "-" "trunc', ' "-" "ua" x', ' "-"', ' "" ""']
    ),
    part(["", " 0.5", " -", " 12", " 1.2.3", " ", " 7 8"]),
    part(["", "\r", " ", "\t", "\\"]),
)
noise = st.one_of(st.binary(max_size=60), st.just(b""), st.just(b"\r"))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(line.map(lambda t: "".join(t).encode()), noise), min_size=1, max_size=12),
    st.sampled_from(sorted(FAST)),
    st.sampled_from([b"\n", b"\r\n"]),
    st.booleans(),
)
def test_fast_path_equals_generic_steps(
    lines: list[bytes], name: str, newline: bytes, final_newline: bool
) -> None:
    data = newline.join(lines) + (newline if final_newline else b"")
    buf = as_buffer(data)
    fast, generic = FAST[name].scan(buf), GENERIC[name].scan(buf)
    assert np.array_equal(fast.starts, generic.starts)
    assert np.array_equal(fast.ends, generic.ends)
    assert np.array_equal(fast.err, generic.err)
    assert fast.table.equals(generic.table)
    ok = fast.err == 0
    assert [fast.reason(i) for i in np.flatnonzero(~ok)] == [
        generic.reason(i) for i in np.flatnonzero(~ok)
    ]


def test_typical_lines_take_the_fast_path() -> None:
    """A guard that the differential test above compares two paths, not one path twice."""
    good = b'1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 5 "-" "ua" 12\n'
    assert FAST["combined_latency_us"].fast.size and not GENERIC["combined_latency_us"].fast.size
    assert parse_chunk(good * 3, "combined_latency_us").reject_count == 0
