"""What detection and a given format note about time conventions (the dataset's notes)."""

from headroom.engine.logs import check_format, detect_format
from headroom.engine.logs.detect import DECIMAL_NOTE
from headroom.engine.logs.nginx import COMPLETION_NOTE

LINE = '10.0.0.{i} - - [01/Mar/2026:10:00:{i:02d} +0000] "GET / HTTP/1.1" 200 5 "-" "ua" 0.{i:03d}'
SAMPLE = "".join(LINE.format(i=i) + "\n" for i in range(1, 40)).encode()
NGINX = (
    '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent '
    '"$http_referer" "$http_user_agent" $request_time'
)


def test_detected_decimal_seconds_say_how_the_time_is_read() -> None:
    detection = detect_format(SAMPLE)
    assert detection.format == "combined_latency_s"
    assert DECIMAL_NOTE in detection.notes


def test_a_given_nginx_format_notes_completion_times() -> None:
    detection = check_format(SAMPLE, f"nginx:{NGINX}")
    assert detection.parsed_fraction == 1.0 and detection.format == f"nginx:{NGINX}"
    assert COMPLETION_NOTE in detection.notes
    assert detection.notes[0] == "format given: 100.0% of 39 lines parse"
