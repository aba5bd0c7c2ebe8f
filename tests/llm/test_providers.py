"""The providers' reading of what a server sends back, without a server."""

import email.utils
import time

import httpx2 as httpx
import pytest

from sea.llm.providers import _retry_after


def retry_after(value: str | None) -> float | None:
    return _retry_after(httpx.Headers({} if value is None else {"Retry-After": value}))


@pytest.mark.parametrize("value, seconds", [("30", 30.0), ("0", 0.0), ("0.4", 0.4), (" 7 ", 7.0)])
def test_retry_after_in_seconds_is_honoured(value, seconds):
    assert retry_after(value) == seconds


def test_retry_after_as_an_http_date_counts_from_now():
    # The HTTP-date form (RFC 9110) was dropped: the client retried 0.68 s after "30 s from now".
    assert 28 <= retry_after(email.utils.formatdate(time.time() + 30, usegmt=True)) <= 30
    assert 28 <= retry_after(email.utils.formatdate(time.time() + 30)) <= 30  # "-0000": UTC too
    assert retry_after(email.utils.formatdate(time.time() - 3600, usegmt=True)) == 0.0  # past: at once


@pytest.mark.parametrize("value", [None, "inf", "-inf", "nan", "1e400", "-5", "", "soon", "Wed, 32 Foo 2026 99:00:00 GMT"])
def test_a_retry_after_that_is_no_time_falls_back_to_our_own_backoff(value):
    # float() took "inf", "nan" and "1e400": "retrying in inf s", and a hang.
    assert retry_after(value) is None


def test_no_headers():
    assert _retry_after(None) is None
