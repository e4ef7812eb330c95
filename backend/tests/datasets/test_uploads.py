"""File names from users are hostile until proven otherwise."""

from hypothesis import given
from hypothesis import strategies as st

from headroom.datasets.staging import safe_name


@given(st.text(max_size=500))
def test_safe_name_never_escapes_or_surprises(raw: str) -> None:
    name = safe_name(raw)
    assert 0 < len(name) <= 200
    assert "/" not in name and "\\" not in name and "\x00" not in name
    assert not name.startswith(".") and name not in ("..", ".")
    assert all(ch.isalnum() or ch in "._ -" for ch in name)


def test_safe_name_keeps_ordinary_names() -> None:
    assert safe_name("access.log.gz") == "access.log.gz"
    assert safe_name("C:\\logs\\iis 2024.log") == "iis 2024.log"
    assert safe_name("../../etc/passwd") == "passwd"
    assert safe_name("") == "upload.log"
