#!/usr/bin/env python3
# Webhook delivery through the real binary (docs/benchmarks.md, "Webhook
# delivery"): orders made with the REST API (OAuth 1.0a over plain HTTP, as
# WooCommerce's clients sign) each queue an order.created delivery to a
# listener in this process.
#   latency:    orders at RATE a second for SECONDS; per order, the time from
#               sending the order to the listener's receipt of its delivery,
#               and from the order's answer (0 when the delivery came first:
#               the worker is woken on commit, before the answer is written).
#   throughput: BACKLOG orders made while the listener takes 0.5 s per
#               delivery, so they queue; then it answers at once, and the
#               drain of the queue by the shop's worker is timed (first to
#               last receipt after the switch).
# One JSON line per scenario.
#   bench-webhooks.py BASE CONSUMER_KEY CONSUMER_SECRET [RATE] [SECONDS] [BACKLOG]
import base64, concurrent.futures, hashlib, hmac, http.server, json, os, secrets, statistics, sys, threading, time, urllib.parse, urllib.request

base, ck, cs = sys.argv[1:4]
rate = float(sys.argv[4]) if len(sys.argv) > 4 else 100
seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 10
backlog = int(sys.argv[6]) if len(sys.argv) > 6 else 2000
secret = "bench secret"

def enc(s):
    return urllib.parse.quote(str(s), safe="-._~")

def call(method, path, body=None):
    """A signed REST API call; answers the decoded JSON."""
    params = {"oauth_consumer_key": ck, "oauth_nonce": secrets.token_hex(12), "oauth_signature_method": "HMAC-SHA256",
              "oauth_timestamp": str(int(time.time())), "oauth_version": "1.0"}
    norm = "&".join("%s=%s" % (enc(k), enc(v)) for k, v in sorted(params.items()))
    base_string = "&".join([method, enc(base + path), enc(norm)])
    params["oauth_signature"] = base64.b64encode(hmac.new((cs + "&").encode(), base_string.encode(), hashlib.sha256).digest()).decode()
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path + "?" + urllib.parse.urlencode(params), data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())

lock = threading.Lock()
received = {}       # order id -> monotonic receipt time (first)
copies = 0          # deliveries of an order already received
slow = threading.Event()

class Listener(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        global copies
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        at = time.monotonic()
        if self.headers.get("X-WC-Webhook-Topic") == "order.created":
            want = base64.b64encode(hmac.new(secret.encode(), body, hashlib.sha256).digest()).decode()
            if self.headers.get("X-WC-Webhook-Signature") != want:
                print("bad signature", file=sys.stderr)
            oid = json.loads(body)["id"]
            with lock:
                if oid in received:
                    copies += 1
                else:
                    received[oid] = at
        if slow.is_set():
            time.sleep(0.5)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass

srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Listener)
threading.Thread(target=srv.serve_forever, daemon=True).start()

product = call("POST", "/wp-json/wc/v3/products", {"name": "Bench Mug", "type": "simple", "regular_price": "9.00", "status": "publish"})
call("POST", "/wp-json/wc/v3/webhooks", {"name": "bench", "topic": "order.created", "secret": secret,
                                         "delivery_url": "http://127.0.0.1:%d/hook" % srv.server_address[1]})
seq = iter(range(10**9))

def place():
    """Makes one order; answers (id, monotonic times of the request and of its answer)."""
    n = next(seq)
    sent = time.monotonic()
    o = call("POST", "/wp-json/wc/v3/orders", {
        "billing": {"first_name": "Bench", "last_name": "Buyer", "email": "b%d@example.com" % n, "address_1": "1 Main St",
                    "city": "Albany", "state": "NY", "postcode": "12207", "country": "US"},
        "line_items": [{"product_id": product["id"], "quantity": 1}]})
    return o["id"], sent, time.monotonic()

def wait_for(ids, limit):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with lock:
            if all(i in received for i in ids):
                return True
        time.sleep(0.005)
    return False

def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]

pool = concurrent.futures.ThreadPoolExecutor(max_workers=16)

# Latency at RATE orders a second, paced from a fixed schedule.
n = int(rate * seconds)
start = time.monotonic()
futures = []
for i in range(n):
    delay = start + i / rate - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    futures.append(pool.submit(place))
answers = [f.result() for f in futures]
elapsed = time.monotonic() - start
ok = wait_for([a[0] for a in answers], 60)
with lock:
    got = [(received[oid] - sent, received[oid] - at, at - sent) for oid, sent, at in answers if oid in received]
placed = [g[0] * 1000 for g in got]              # request sent -> delivery received
after = [max(0.0, g[1]) * 1000 for g in got]     # order's answer -> delivery received (0: before it)
answer = [g[2] * 1000 for g in got]              # the order request itself
print(json.dumps({"scenario": "latency", "orders": n, "orders_per_s": round(n / elapsed, 1), "all_delivered": ok,
                  "order_answer_p50_ms": round(pct(answer, 50), 2), "order_answer_p99_ms": round(pct(answer, 99), 2),
                  "placed_to_received_p50_ms": round(pct(placed, 50), 2), "placed_to_received_p99_ms": round(pct(placed, 99), 2),
                  "answer_to_received_p50_ms": round(pct(after, 50), 2), "answer_to_received_p99_ms": round(pct(after, 99), 2),
                  "received_before_answer": sum(1 for g in got if g[1] < 0), "copies": copies}))

# Throughput: a backlog queued behind a slow receiver, then drained.
slow.set()
ids = [a[0] for a in pool.map(lambda _: place(), range(backlog))]
with lock:
    queued = sum(1 for i in ids if i not in received)
slow.clear()
t0 = time.monotonic()
ok = wait_for(ids, 600)
# Timed from the first receipt after the switch (the delivery held by the
# slow answer ends up to 0.5 s later) to the last.
with lock:
    after = sorted(received[i] for i in ids if i in received and received[i] >= t0)
took = after[-1] - after[0] if len(after) > 1 else 0
print(json.dumps({"scenario": "throughput", "queued": queued, "drained": len(after), "all_delivered": ok,
                  "seconds": round(took, 2), "deliveries_per_s": round((len(after) - 1) / took, 1) if took > 0 else None, "copies": copies}))
srv.shutdown()
