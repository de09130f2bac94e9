// WooCommerce's own JavaScript REST client (@woocommerce/woocommerce-rest-api)
// against the REAL binary (bin/vitrine, started by web/e2e/server.mjs on a free
// loopback port with a throw-away SQLite store and the demo catalogue). Plain
// HTTP, so the client signs every request with OAuth 1.0a (HMAC-SHA256, the
// oauth_* parameters in the query); the key is made with `vitrine api-key
// create`, as a shop owner would. A webhook for order.created points at a
// listener in this test, which checks the ping and the delivery as a receiver
// would: the signature over the raw body and WooCommerce's headers.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { after, before, test } from 'node:test';
import wcClient from '@woocommerce/woocommerce-rest-api';
import { BINARY, startServer } from '../web/e2e/server.mjs';

// The package's CommonJS build exports the class as its default.
const WooCommerceRestApi = wcClient.default ?? wcClient;
const WAIT_MS = 30_000;
const SECRET = 'a receiver secret, shared with the shop';

let server;
let api;
let listener;
const received = []; // { headers, body } in arrival order
const waiters = new Set();

/** Runs the binary's command line against the server's store; answers stdout. */
function vitrine(args, input = '') {
  const res = spawnSync(BINARY, ['--db', `sqlite:${server.db}`, '--log-level', 'warn', ...args], { input, encoding: 'utf8' });
  assert.equal(res.status, 0, `vitrine ${args.join(' ')}: ${res.stdout}${res.stderr}`);
  return res.stdout;
}

/** The first request the listener got (or gets within WAIT_MS) that match accepts. */
function delivery(match) {
  const seen = received.find(match);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const w = { match, resolve };
    const timer = setTimeout(() => {
      waiters.delete(w);
      reject(new Error(`no matching delivery within ${WAIT_MS / 1000}s; got ${JSON.stringify(received.map((r) => r.headers['x-wc-webhook-topic'] ?? r.body))}`));
    }, WAIT_MS);
    w.resolve = (r) => {
      clearTimeout(timer);
      resolve(r);
    };
    waiters.add(w);
  });
}

/** The refusal an axios call ended with (the client rejects non-2xx answers). */
async function refusal(promise) {
  try {
    const res = await promise;
    assert.fail(`expected a refusal, got ${res.status}`);
  } catch (err) {
    if (!err.response) throw err;
    return err.response;
  }
}

before(async () => {
  server = await startServer({ args: ['--webhooks-allow-private'] });
  vitrine(['user', 'create', '--email', 'api@example.com', '--role', 'shop_manager', '--password-stdin'], 'a long and unguessable password\n');
  const m = /^consumer_key=(ck_[0-9a-f]{40}) consumer_secret=(cs_[0-9a-f]{40})$/m.exec(
    vitrine(['api-key', 'create', '--email', 'api@example.com', '--permissions', 'read_write', '--description', 'JS client test']),
  );
  assert.ok(m, 'api-key create printed the key and secret');
  api = new WooCommerceRestApi({ url: server.baseURL, consumerKey: m[1], consumerSecret: m[2], version: 'wc/v3', queryStringAuth: false });

  listener = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) };
      received.push(r);
      for (const w of waiters) {
        if (w.match(r)) {
          waiters.delete(w);
          w.resolve(r);
        }
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  await new Promise((resolve) => (listener ? listener.close(resolve) : resolve()));
  await server?.stop();
});

test('the client is refused with a wrong secret, in the REST error shape', async () => {
  const wrong = new WooCommerceRestApi({ url: server.baseURL, consumerKey: api.consumerKey, consumerSecret: 'cs_' + '0'.repeat(40), version: 'wc/v3' });
  const res = await refusal(wrong.get('products'));
  assert.equal(res.status, 401);
  assert.equal(res.data.code, 'woocommerce_rest_authentication_error');
  assert.equal(res.data.data.status, 401);
});

test('products: list, get, create, update, delete', async () => {
  const list = await api.get('products', { per_page: 5, orderby: 'id', order: 'asc' });
  assert.equal(list.status, 200);
  assert.equal(list.data.length, 5);
  assert.ok(Number(list.headers['x-wp-total']) > 5, 'X-WP-Total counts the demo catalogue');
  const ids = list.data.map((p) => p.id);
  assert.deepEqual(ids, [...ids].sort((a, b) => a - b), 'orderby=id&order=asc, signed with the other parameters');

  const one = await api.get(`products/${ids[0]}`);
  assert.equal(one.data.id, ids[0]);
  assert.equal(one.data.name, list.data[0].name);

  const made = await api.post('products', { name: 'JS Client Mug', type: 'simple', regular_price: '12.50', status: 'publish', sku: 'JS-MUG' });
  assert.equal(made.status, 201);
  assert.equal(made.data.name, 'JS Client Mug');
  assert.equal(made.data.price, '12.50');
  const id = made.data.id;

  // As WooCommerce's clients do, with no version: a key's edit is based on
  // the current one (docs/api.md, products).
  const changed = await api.put(`products/${id}`, { regular_price: '13.00' });
  assert.equal(changed.status, 200);
  assert.equal(changed.data.regular_price, '13.00');
  assert.equal((await api.get(`products/${id}`)).data.price, '13.00');

  const search = await api.get('products', { search: 'JS Client Mug' });
  assert.deepEqual(search.data.map((p) => p.id), [id]);

  const gone = await api.delete(`products/${id}`, { force: true });
  assert.equal(gone.status, 200);
  assert.equal(gone.data.id, id);
  const missing = await refusal(api.get(`products/${id}`));
  assert.equal(missing.status, 404);
  assert.equal(missing.data.data.status, 404);
});

let simpleProduct;
const billing = { first_name: 'Ada', last_name: 'Client', email: 'ada@example.com', address_1: '1 Main St', city: 'Albany', state: 'NY', postcode: '12207', country: 'US' };

test('orders: create, list, get', async () => {
  const products = await api.get('products', { type: 'simple', status: 'publish', per_page: 20 });
  simpleProduct = products.data.find((p) => p.price !== '' && p.stock_status === 'instock');
  assert.ok(simpleProduct, 'a simple product for sale');

  const made = await api.post('orders', { billing, line_items: [{ product_id: simpleProduct.id, quantity: 2 }] });
  assert.equal(made.status, 201);
  assert.equal(made.data.line_items.length, 1);
  assert.equal(made.data.line_items[0].product_id, simpleProduct.id);
  assert.equal(made.data.line_items[0].quantity, 2);
  assert.equal(made.data.billing.email, 'ada@example.com');

  const list = await api.get('orders', { per_page: 10 });
  assert.equal(list.status, 200);
  assert.ok(list.data.some((o) => o.id === made.data.id), 'the new order is listed');
  const one = await api.get(`orders/${made.data.id}`);
  assert.equal(one.data.id, made.data.id);
  assert.equal(one.data.total, made.data.total);

  const bad = await refusal(api.post('orders', { billing, line_items: [{ product_id: 999999, quantity: 1 }] }));
  assert.equal(bad.status, 400);
  assert.equal(typeof bad.data.code, 'string');
  assert.equal(bad.data.data.status, 400);
});

test('customers and coupons: create, then list', async () => {
  const customer = await api.post('customers', { email: 'grace@example.com', first_name: 'Grace', last_name: 'Client' });
  assert.equal(customer.status, 201);
  const customers = await api.get('customers', { per_page: 10 });
  assert.ok(customers.data.some((c) => c.id === customer.data.id && c.email === 'grace@example.com'), 'the new customer is listed');

  const coupon = await api.post('coupons', { code: 'jsclient10', discount_type: 'percent', amount: '10' });
  assert.equal(coupon.status, 201);
  const coupons = await api.get('coupons', { per_page: 10 });
  assert.ok(coupons.data.some((c) => c.id === coupon.data.id && c.code === 'jsclient10'), 'the new coupon is listed');
});

test('webhooks: order.created is pinged, then delivered signed with WooCommerce headers', async () => {
  const deliveryURL = `http://127.0.0.1:${listener.address().port}/hooks/orders`;
  const hook = await api.post('webhooks', { name: 'JS client orders', topic: 'order.created', delivery_url: deliveryURL, secret: SECRET });
  assert.equal(hook.status, 201);
  assert.equal(hook.data.status, 'active');
  assert.equal(hook.data.topic, 'order.created');
  assert.equal(hook.data.secret, undefined, 'the secret is never shown');

  const ping = await delivery((r) => r.body.toString() === `webhook_id=${hook.data.id}`);
  assert.equal(ping.method, 'POST');
  assert.equal(ping.url, '/hooks/orders');
  assert.match(ping.headers['user-agent'], /^WooCommerce\/\S+ Hookshot \(WordPress\/\S+\)$/);
  assert.equal(ping.headers['content-type'], 'application/x-www-form-urlencoded');

  const order = await api.post('orders', { billing, line_items: [{ product_id: simpleProduct.id, quantity: 1 }] });
  const got = await delivery((r) => r.headers['x-wc-webhook-topic'] === 'order.created');
  const h = got.headers;
  assert.equal(got.method, 'POST');
  assert.equal(h['content-type'], 'application/json');
  assert.match(h['user-agent'], /^WooCommerce\/\S+ Hookshot \(WordPress\/\S+\)$/);
  assert.equal(h['x-wc-webhook-resource'], 'order');
  assert.equal(h['x-wc-webhook-event'], 'created');
  assert.equal(h['x-wc-webhook-id'], String(hook.data.id));
  assert.match(h['x-wc-webhook-delivery-id'], /^[0-9a-f]{32}$/);
  assert.match(h['x-wc-webhook-source'], /^https?:\/\/.+\/$/);
  const want = createHmac('sha256', SECRET).update(got.body).digest('base64');
  assert.equal(h['x-wc-webhook-signature'], want, 'base64 HMAC-SHA256 of the raw body with the secret');
  const wrong = createHmac('sha256', 'another secret').update(got.body).digest('base64');
  assert.notEqual(h['x-wc-webhook-signature'], wrong);

  const body = JSON.parse(got.body.toString());
  assert.equal(body.id, order.data.id);
  assert.equal(body.total, order.data.total);
  assert.deepEqual(body.line_items.map((l) => l.product_id), [simpleProduct.id]);
  assert.equal(received.filter((r) => r.headers['x-wc-webhook-topic'] === 'order.created').length, 1, 'one delivery for one order');

  // The shop's delivery log says the same.
  const log = await api.get(`webhooks/${hook.data.id}/deliveries`);
  assert.ok(log.data.some((d) => String(d.response_code) === '200' && d.topic === 'order.created'), JSON.stringify(log.data));
});
