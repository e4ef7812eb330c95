import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from headroom.engine.background.series import SeriesError, parse_series

busy = st.floats(0, 1, allow_nan=False)


@given(st.lists(busy, min_size=2, max_size=200), st.sampled_from([0.5, 1.0, 60.0]), st.booleans())
def test_round_trip(values: list[float], step: float, header: bool) -> None:
    lines = [f"{i * step!r},{v!r}" for i, v in enumerate(values)]
    text = ("t_s,busy_fraction\n" if header else "") + "\n".join(lines) + "\n"
    series = parse_series(text)
    assert series.busy_fraction.tolist() == values
    assert series.round_s == step
    assert np.allclose(series.t_s, np.arange(len(values)) * step)


@given(st.lists(busy, min_size=3, max_size=50), st.data())
def test_a_bad_value_is_named_by_its_line(values: list[float], data: st.DataObject) -> None:
    bad = data.draw(st.integers(0, len(values) - 1))
    lines = [f"{i},{v!r}" for i, v in enumerate(values)]
    lines[bad] = data.draw(st.sampled_from([f"{bad},1.5", f"{bad},-0.1", f"{bad},x", "1,2,3"]))
    with pytest.raises(SeriesError, match=f"line {bad + 2}:"):
        parse_series("t_s,busy\n" + "\n".join(lines))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0,0.5\n", "at least 2 rows"),
        ("0,0.5\n0,0.4\n", "line 2: timestamps must increase"),
        ("0,0.5\n1,0.5\n2,0.5\n5,0.5\n", "line 4: rows must be evenly spaced"),
        ("", "at least 2 rows"),
    ],
)
def test_bad_series(text: str, message: str) -> None:
    with pytest.raises(SeriesError, match=message):
        parse_series(text)
