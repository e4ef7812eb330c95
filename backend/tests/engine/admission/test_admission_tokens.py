import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from headroom.engine.admission import tokens
from headroom.engine.admission.tokens import Ticket, Verdict, issue, verify

KEY = b"k" * 32
clients = st.text(st.characters(exclude_characters="|"), min_size=1, max_size=20)


def test_valid_token_is_admitted_in_its_second() -> None:
    ticket = issue(KEY, "10.0.0.1", 1_000, 30)
    assert len(ticket.token) == 32  # 128 bits in hex
    assert verify(KEY, ticket, now_s=1_030.5, tolerance_s=0) is Verdict.ADMITTED


def test_token_matches_an_independent_hmac() -> None:
    import hashlib

    expected = hmac.new(KEY, b"c|5|7", hashlib.sha256).hexdigest()[:32]
    assert tokens.sign(KEY, "c", 5, 7) == expected


@given(clients, st.integers(0, 2**40), st.integers(0, 3600), st.integers(1, 3600))
def test_tampered_ts_or_wait_is_rejected(client: str, ts: int, w: int, shift: int) -> None:
    ticket = issue(KEY, client, ts, w)
    earlier_ts = Ticket(client, max(ts - shift, 0), w, ticket.token)
    shorter_w = Ticket(client, ts, max(w - shift, 0), ticket.token)
    for forged in (earlier_ts, shorter_w):
        if forged != ticket:  # a shift clamped to the same value is no forgery
            now = forged.checkin_s + forged.wait_s
            assert verify(KEY, forged, now_s=now) is Verdict.BAD_TOKEN


def test_other_client_or_key_is_rejected() -> None:
    ticket = issue(KEY, "alice", 100, 5)
    assert verify(KEY, Ticket("bob", 100, 5, ticket.token), 105) is Verdict.BAD_TOKEN
    assert verify(b"other", ticket, 105) is Verdict.BAD_TOKEN


@given(st.integers(0, 2**31), st.integers(0, 3600), st.floats(0, 5))
def test_replay_outside_the_slot_is_rejected(ts: int, w: int, tolerance: float) -> None:
    ticket = issue(KEY, "c", ts, w)
    slot = ts + w
    assert verify(KEY, ticket, slot + 1 + tolerance, tolerance) is Verdict.TOO_LATE
    assert verify(KEY, ticket, slot + 1 + tolerance + 3600, tolerance) is Verdict.TOO_LATE
    assert verify(KEY, ticket, slot - tolerance - 0.001, tolerance) is Verdict.TOO_EARLY
    assert verify(KEY, ticket, slot - tolerance, tolerance) is Verdict.ADMITTED
    assert verify(KEY, ticket, slot + 1 + tolerance - 0.001, tolerance) is Verdict.ADMITTED


def test_comparison_is_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []
    original = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return original(a, b)

    monkeypatch.setattr(tokens.hmac, "compare_digest", spy)
    ticket = issue(KEY, "c", 1, 2)
    verify(KEY, ticket, 3)
    verify(KEY, Ticket("c", 1, 2, "0" * 32), 3)
    assert [b for _, b in calls] == [ticket.token, "0" * 32]


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="client"):
        issue(KEY, "a|b", 1, 2)
    with pytest.raises(ValueError, match="tolerance_s"):
        verify(KEY, issue(KEY, "a", 1, 2), 3, tolerance_s=-1)
    assert verify(KEY, Ticket("a|b", 1, 2, "0" * 32), 3) is Verdict.BAD_TOKEN
