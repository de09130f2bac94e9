#!/usr/bin/env python3
# Shoppers during a bulk price change, through the real binary on a large
# catalogue (docs/benchmarks.md, "Bulk change at 100,000 products").
#   bench-bulk-change.py BASE EMAIL PASSWORD LOAD_TOOL CHANGES PAGES SECONDS
# Staff log in; PAGES product pages and the category listings are cached by
# visitor requests (PAGES small enough for the page cache: the shoppers'
# hot set); CHANGES products are changed, the PAGES first among them; then
# vitrine-load asks for them round robin (c=32) for SECONDS twice: once
# with no change (the baseline), once while staff save a new regular price
# for CHANGES products through the admin API (4 at a time), which marks
# their pages and listings stale and queues them to be rendered ahead.
# Prints one JSON line per run, and how long the saves and the renders
# ahead took (the metrics' counter, read from /metrics if METRICS is set).
import json, os, re, subprocess, sys, threading, time, urllib.error, urllib.parse, urllib.request
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
import shop_login
from concurrent.futures import ThreadPoolExecutor
base, email, password, load = sys.argv[1:5]
changes, npages, secs = int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
staff, _ = shop_login.login(base, email, password)
guest = urllib.request.build_opener()
def call(opener, method, path, body=None, headers={}):
    req = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    with opener.open(req, timeout=60) as r:
        return r.status, r.headers, r.read().decode()
nonce = shop_login.admin_nonce(base, staff)
rest = {"X-WP-Nonce": nonce, "Content-Type": "application/json"}
# The products: simple ones, from the admin list (id, permalink, price).
products = []
pg = 1
while len(products) < max(npages, changes):
    got = json.loads(call(staff, "GET", "/wp-json/wc/v3/products?per_page=100&type=simple&page=%d" % pg, None, rest)[2])
    if not got:
        break
    products += [p for p in got if p.get("regular_price") and p.get("status") == "publish"]
    pg += 1
products = products[:max(npages, changes)]
cats = json.loads(call(guest, "GET", "/wp-json/wc/store/v1/products/categories?per_page=100")[2])
urls = [base + urllib.parse.urlparse(p["permalink"]).path for p in products[:npages]] + [base + urllib.parse.urlparse(c["permalink"]).path for c in cats]
urls.append(base + "/")
urls.append(base + "/shop/")
def get(u):
    try:
        return guest.open(u, timeout=60).read() and u
    except urllib.error.HTTPError as e:
        print("warm: %s %s" % (e.code, u), file=sys.stderr)
        return None
def warm():
    with ThreadPoolExecutor(4) as ex:
        return [u for u in ex.map(get, urls) if u]
urls = warm()
warm()
with open("/tmp/bench-bulk-urls.txt", "w") as f:
    f.write("\n".join(urls) + "\n")
def metric(name):
    m = os.environ.get("METRICS")
    if not m:
        return None
    text = urllib.request.urlopen(m + "/metrics").read().decode()
    v = re.search(r"^%s(?:\{[^}]*\})? ([0-9.e+]+)$" % re.escape(name), text, re.M)
    return float(v.group(1)) if v else None
def run(label):
    out = subprocess.run([load, "-c", "32", "-d", "%ds" % secs, "-warmup", "0", "-json", "-H", "Accept-Encoding: gzip, deflate, br, zstd",
                          "-url-file", "/tmp/bench-bulk-urls.txt"], capture_output=True, text=True, check=True).stdout
    r = json.loads(out)
    return {"run": label, "pages": len(urls), "req_per_s": round(r["req_per_s"]), "latency_ms": r["latency_ms"], "status_errors": r["status_errors"]}
print(json.dumps(run("no change")), flush=True)
def save(p, up):
    # A price rise of up cents: a new regular price above any sale price.
    cur = json.loads(call(staff, "GET", "/wp-json/wc/v3/products/%d" % p["id"], None, rest)[2])
    cents = round(float(cur["regular_price"]) * 100) + up
    body = json.dumps({"regular_price": "%d.%02d" % divmod(cents, 100), "version": cur["version"]}).encode()
    try:
        call(staff, "PUT", "/wp-json/wc/v3/products/%d" % p["id"], body, rest)
    except urllib.error.HTTPError as e:
        sys.exit("save %d: %d %s" % (p["id"], e.code, e.read()[:300]))
done = {}
def bulk():
    time.sleep(1)
    ahead0 = metric("vitrine_page_renders_ahead_total")
    t0 = time.monotonic()
    with ThreadPoolExecutor(4) as ex:
        list(ex.map(lambda ip: save(ip[1], 1 + ip[0] % 50), enumerate(products[:changes])))
    done["saves_s"] = round(time.monotonic() - t0, 1)
    done["ahead_before"] = ahead0
th = threading.Thread(target=bulk)
th.start()
res = run("during %d saves" % changes)
th.join()
res.update(done)
res["ahead_after"] = metric("vitrine_page_renders_ahead_total")
print(json.dumps(res), flush=True)
