#!/usr/bin/python3
"""om_check.py openmetrics|text FILE: parse an exposition with the Python
Prometheus client's parsers (Debian python3-prometheus-client), the
OpenMetrics one strict about the format (# EOF, UNIT a suffix of the name,
counters' _total samples, one block per family).  Prints "FAMILIES SAMPLES";
exits 1 with the parser's message when the text is refused."""
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse_om
from prometheus_client.parser import text_string_to_metric_families as parse_text

fmt, path = sys.argv[1], sys.argv[2]
try:
    fams = list((parse_om if fmt == "openmetrics" else parse_text)(open(path).read()))
except Exception as e:  # the parsers raise ValueError and others
    print("refused: %s" % e)
    sys.exit(1)
print(len(fams), sum(len(f.samples) for f in fams))
