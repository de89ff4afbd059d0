"""Which HTTP statuses are retried: the list ``labeler.providers.base`` documents."""

import pytest

from labeler.providers.base import TransientError, classify_http_status
from labeler.status import ResponseStatus


@pytest.mark.parametrize("code", [408, 409, 429, 500, 502, 503, 529])
def test_timeouts_conflicts_rate_limits_and_server_errors_are_retried(code):
    with pytest.raises(TransientError) as raised:
        classify_http_status(code, "busy", "7")
    assert raised.value.retry_after == 7.0 and f"HTTP {code}" in str(raised.value)


@pytest.mark.parametrize("code", [400, 401, 403, 404, 413, 422])
def test_other_client_errors_are_stored_as_api_errors_without_text(code):
    result = classify_http_status(code, "bad request", None)
    assert result.status == ResponseStatus.API_ERROR and result.text is None
    assert result.error == f"HTTP {code}: bad request"
