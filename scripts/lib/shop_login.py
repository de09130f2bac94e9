# Logging in to the shop as the browser does, for the benchmark scripts:
# the storefront's login form with a solved ALTCHA proof (what the widget
# computes) and the login nonce from /my-account/. Loopback only.
import base64, hashlib, http.cookiejar, json, re, urllib.parse, urllib.request


def solve(base, opener, purpose="login"):
    """A solved bot-check payload for purpose, as the widget sends it."""
    c = json.load(opener.open(base + "/wp-json/vitrine/v1/botcheck/" + purpose))
    num = next(i for i in range(c["maxnumber"] + 1) if hashlib.sha256((c["salt"] + str(i)).encode()).hexdigest() == c["challenge"])
    return base64.b64encode(json.dumps({"algorithm": c["algorithm"], "challenge": c["challenge"], "number": num,
                                        "salt": c["salt"], "signature": c["signature"]}).encode()).decode()


def login(base, email, password):
    """An opener holding a logged-in session, and its cookie jar."""
    jar = http.cookiejar.CookieJar()
    op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = op.open(base + "/my-account/").read().decode()
    nonce = re.search(r'"login_nonce":"([0-9a-f]+)"', page).group(1)
    body = urllib.parse.urlencode({"username": email, "password": password, "login": "Log in",
                                   "woocommerce-login-nonce": nonce, "wfls-captcha": solve(base, op)}).encode()
    op.open(urllib.request.Request(base + "/my-account/", data=body, headers={"Content-Type": "application/x-www-form-urlencoded"})).read()
    if not any(k.name.startswith("wordpress_logged_in") for k in jar):
        raise SystemExit("login refused for " + email)
    return op, jar


def admin_nonce(base, op):
    """The admin's REST nonce, from the admin shell's data."""
    shell = op.open(base + "/wp-admin/").read().decode()
    return json.loads(re.search(r'id="vitrine-admin-data">(.*?)</script>', shell, re.S).group(1))["nonce"]
