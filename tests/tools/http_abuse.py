#!/usr/bin/python3
"""http_abuse.py PORT: what a hostile or broken client does to lattop --listen.

Prints one line per check, "PASS name" or "FAIL name: why", for
tests/e2e_export.sh to turn into TAP.  Every client connects to 127.0.0.1
from a loopback source address of its own kind: the abusers from 127.0.0.1
(one client address, as one hostile host), the honest scraper from
127.0.0.2 (another host), so that the per-address limit is what stands
between them.  Waits for conditions with deadlines; measures no speed.
"""
import socket
import sys
import threading
import time

PORT = int(sys.argv[1])
HEADER_S = float(sys.argv[2]) if len(sys.argv) > 2 else 5   # HTTPD_HEADER_SECONDS
ABUSER, HONEST = "127.0.0.1", "127.0.0.2"
failed = 0


def report(name, ok, why=""):
    global failed
    if ok:
        print("PASS " + name, flush=True)
    else:
        failed += 1
        print("FAIL %s: %s" % (name, why), flush=True)


def connect(src, timeout=5):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((src, 0))
    s.connect(("127.0.0.1", PORT))
    return s


def request(raw, src=HONEST, timeout=5):
    """Send raw bytes, read to the end: (status code or None, headers, body)."""
    try:
        s = connect(src, timeout)
        s.sendall(raw)
        data = b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            data += b
        s.close()
    except OSError as e:
        return None, str(e), b""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    try:
        code = int(lines[0].split()[1])
    except (IndexError, ValueError):
        return None, head[:80], body
    return code, "\n".join(lines[1:]).lower(), body


def get(path="/metrics", method="GET", src=HONEST, extra=b""):
    return request(b"%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n%s\r\n"
                   % (method.encode(), path.encode(), extra), src)


def metrics_ok(src=HONEST):
    code, _, body = get(src=src)
    return code == 200 and b"lattop_up 1" in body


def last_sample():
    code, _, body = get()
    for line in body.decode().splitlines():
        if line.startswith("lattop_last_sample_timestamp_seconds "):
            return float(line.split()[1])
    return None


def wait_for(cond, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


# ---- methods and paths ----
for m in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW"):
    code, hdr, _ = get(method=m, extra=b"Content-Length: 5\r\n\r\nhello" if m in ("POST", "PUT") else b"")
    report("%s /metrics is 405 with Allow: GET, HEAD" % m, code == 405 and "allow: get, head" in hdr,
           "got %r" % (code,))
for p in ("/metric", "/metrics/", "/../etc/passwd", "/metrics?x=1%00", "/" + "a" * 2000):
    code, _, _ = get(p)
    want = 200 if p.startswith("/metrics?") else 404
    report("GET %s is %d" % (p[:40], want), code == want, "got %r" % (code,))
code, hdr, body = get(method="HEAD")
report("HEAD /metrics: 200, a length, no body", code == 200 and "content-length:" in hdr and body == b"",
       "got %r, %d bytes" % (code, len(body)))

# ---- oversized requests ----
code, _, _ = get(extra=b"X-Big: " + b"a" * 100000 + b"\r\n")
report("a 100 kB header is refused (4xx or closed)", code is None or 400 <= code < 500, "got %r" % (code,))
code, _, _ = request(b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
report("a 100 kB request line is refused (4xx or closed)", code is None or 400 <= code < 500,
       "got %r" % (code,))
code, _, _ = request(b"\x00\xff garbage \r\n\r\n")
report("garbage is refused (4xx or closed)", code is None or 400 <= code < 500, "got %r" % (code,))
report("/metrics answers after the oversized requests", metrics_ok())

# ---- hundreds of concurrent connections ----
t0 = last_sample()
w0 = time.time()
results = []
lock = threading.Lock()


def one(i):
    code, _, body = get(src=ABUSER if i % 2 else HONEST)
    with lock:
        results.append(code == 200 and body.startswith(b"# HELP") and
                       b"\nlattop_last_sample_timestamp_seconds " in body)


threads = [threading.Thread(target=one, args=(i,)) for i in range(400)]
for t in threads:
    t.start()
for t in threads:
    t.join(30)
good = sum(results)
report("400 concurrent requests: many answered in full (%d)" % good, good >= 32, "%d whole answers" % good)
report("/metrics answers after 400 concurrent requests", metrics_ok())
w1 = time.time()
# The connection limits refuse most of the flood at once: it can end within
# one interval.  What must hold is that sampling goes on (the exposition
# rounds the time to 0.1 ms).
wait_for(lambda: (last_sample() or 0) >= w1 - 0.001, 5)
t1 = last_sample()
report("sampling goes on after 400 concurrent requests",
       t0 is not None and t1 is not None and t1 > t0 and t1 >= w1 - 0.001,
       "last samples %r then %r, flood %.3f s to %.3f s" % (t0, t1, w0, w1))

# ---- slow clients ----
slow = []
for i in range(100):
    try:
        s = connect(ABUSER)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        slow.append(s)
    except OSError:
        pass
report("slow clients connected (%d)" % len(slow), len(slow) >= 10, "%d" % len(slow))
start = time.monotonic()
# Meanwhile another host is served: the per-address limit holds the hostile one to its share.
report("/metrics answers another host while slow clients hold their connections", metrics_ok(HONEST))
# Trickle one header line a second: never idle, yet cut at the header deadline.
open_ = list(slow)
deadline = start + HEADER_S + 10
while open_ and time.monotonic() < deadline:
    still = []
    for s in open_:
        try:
            s.sendall(b"X-Slow: 1\r\n")
            s.settimeout(0.01)
            try:
                if s.recv(1024) == b"":
                    raise ConnectionResetError
            except socket.timeout:
                pass
            still.append(s)
        except OSError:
            s.close()
    open_ = still
    time.sleep(0.5)
took = time.monotonic() - start
report("trickling slow clients are cut within the header deadline (%d left after %.0f s)" % (len(open_), took),
       not open_ and took < HEADER_S + 8, "%d still open" % len(open_))
for s in open_:
    s.close()
report("/metrics answers after the slow clients", wait_for(metrics_ok, 10))
w2 = time.time()
wait_for(lambda: (last_sample() or 0) >= w2 - 0.001, 5)
t2 = last_sample()
report("sampling goes on after the slow clients",
       t1 is not None and t2 is not None and t2 > t1 and t2 >= w2 - 0.001,
       "last samples %r then %r, slow clients until %.3f s" % (t1, t2, w2))
sys.exit(1 if failed else 0)
