#!/usr/bin/env python3
# Render ahead through the real binary: staff save a product's price through
# the admin API; how long until its page and its category's listing answer
# X-Cache: hit with the new price (polled every 5 ms from the save's answer).
#   bench-render-ahead.py BASE EMAIL PASSWORD [ROUNDS] [IDLE_SECONDS] [FIRST_AFTER_SECONDS]
# IDLE_SECONDS: wait that long after warming before each save (61: the pages
# were not asked for in the last minute). FIRST_AFTER_SECONDS: no request
# until then after the save; the first answer's X-Cache is counted.
import json, os, statistics, sys, time, urllib.request
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
import shop_login
base, email, password = sys.argv[1:4]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 10
idle = float(sys.argv[5]) if len(sys.argv) > 5 else 0
first_after = float(sys.argv[6]) if len(sys.argv) > 6 else 0
staff, _ = shop_login.login(base, email, password)
def call(opener, method, path, body=None, headers={}):
    req = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    with opener.open(req) as r:
        return r.status, r.headers, r.read().decode()
nonce = shop_login.admin_nonce(base, staff)
rest = {"X-WP-Nonce": nonce, "Content-Type": "application/json"}
found = json.loads(call(staff, "GET", "/wp-json/wc/v3/products?search=Mountain+Line+Tee&per_page=100", None, rest)[2])
pid = next(p["id"] for p in found if p["slug"] == "mountain-line-tee")
guest = urllib.request.build_opener()  # no cookies: the cached pages
pages = ["/product/mountain-line-tee/", "/product-category/clothing/t-shirts/"]
waits = {p: [] for p in pages}
stale = {p: 0 for p in pages}
first = {p: {} for p in pages}
for i in range(rounds):
    for p in pages:
        call(guest, "GET", p); call(guest, "GET", p)
    time.sleep(idle)
    cents = 4000 + i * 111
    price = "%d.%02d" % divmod(cents, 100)
    version = json.loads(call(staff, "GET", "/wp-json/wc/v3/products/%d" % pid, None, rest)[2])["version"]
    call(staff, "PUT", "/wp-json/wc/v3/products/%d" % pid, json.dumps({"regular_price": price, "version": version}).encode(), rest)
    saved = time.monotonic()
    time.sleep(first_after)
    todo = set(pages)
    asked = set()
    while todo:
        for p in sorted(todo):
            _, h, b = call(guest, "GET", p)
            if p not in asked:
                asked.add(p)
                first[p][h["X-Cache"]] = first[p].get(h["X-Cache"], 0) + 1
            if h["X-Cache"] == "hit" and "$" + price in b:
                waits[p].append((time.monotonic() - saved) * 1000); todo.discard(p)
            elif h["X-Cache"] == "stale":
                stale[p] += 1
            elif h["X-Cache"] == "miss":
                print("a miss for", p, file=sys.stderr)
        time.sleep(0.005)
        if time.monotonic() - saved > 30:
            sys.exit("no hit with the new price in 30 s")
for p in pages:
    w = sorted(waits[p])
    print(json.dumps({"page": p, "rounds": rounds, "idle_s": idle, "median_ms": round(statistics.median(w), 1),
                      "max_ms": round(w[-1], 1), "stale_answers": stale[p],
                      "first_after_s": first_after, "first_answers": first[p]}))
