import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  applyFragments,
  createQueue,
  dataFields,
  installAddToCart,
  installRemoveFromCart,
  lastFragments,
  refreshForCurrency,
  storeFragments,
} from './add-to-cart';

function button(id: number) {
  const a = document.createElement('a');
  a.href = `?add-to-cart=${id}`;
  a.className = 'button add_to_cart_button ajax_add_to_cart';
  a.setAttribute('data-product_id', String(id));
  a.setAttribute('data-quantity', '1');
  a.setAttribute('data-success_message', `added ${id}`);
  a.textContent = 'Add to cart';
  document.body.appendChild(a);
  return a;
}

const ok = (count: number) =>
  JSON.stringify({
    fragments: { 'span.header-cart-count': `<span class="header-cart-count"><span class="cart-count">${count}</span></span>` },
    cart_hash: 'h' + count,
  });

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

describe('add to cart', () => {
  it('sends every data attribute as a form field', () => {
    expect(dataFields(button(5)).toString()).toBe('product_id=5&quantity=1&success_message=added+5');
  });

  it('runs queued tasks one at a time, in order', async () => {
    const enqueue = createQueue();
    const log: string[] = [];
    let release!: () => void;
    const first = enqueue(async () => {
      log.push('start 1');
      await new Promise<void>((r) => (release = r));
      log.push('end 1');
    });
    const second = enqueue(async () => {
      log.push('start 2');
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['start 1']);
    release();
    await Promise.all([first, second]);
    expect(log).toEqual(['start 1', 'end 1', 'start 2']);
  });

  it('replaces each element a fragment names', () => {
    document.body.innerHTML = '<p><span class="header-cart-count">0</span></p>';
    applyFragments({ 'span.header-cart-count': '<span class="header-cart-count">3</span>' });
    expect(document.querySelectorAll('.header-cart-count')).toHaveLength(1);
    expect(document.querySelector('.header-cart-count')!.textContent).toBe('3');
  });

  it('queues clicks, marks buttons, inserts one View cart link and announces after 1 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    document.body.insertAdjacentHTML('beforeend', '<span class="header-cart-count">0</span>');
    const a = button(7);
    const b = button(8);
    const resolvers: ((r: Response) => void)[] = [];
    const bodies: string[] = [];
    const fetcher = vi.fn((_url: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(String(init?.body));
      return new Promise<Response>((r) => resolvers.push(r));
    }) as unknown as typeof fetch;
    const remove = installAddToCart({ fetcher });
    a.click();
    b.click();
    expect(a.classList.contains('loading')).toBe(true);
    expect(b.classList.contains('loading')).toBe(true);
    await vi.waitFor(() => expect(resolvers).toHaveLength(1));
    expect(bodies[0]).toContain('product_id=7');
    resolvers[0](new Response(ok(1)));
    await vi.waitFor(() => expect(a.classList.contains('added')).toBe(true));
    expect(a.classList.contains('loading')).toBe(false);
    expect(document.querySelector('.header-cart-count')!.textContent).toBe('1');
    await vi.waitFor(() => expect(resolvers).toHaveLength(2));
    resolvers[1](new Response(ok(2)));
    await vi.waitFor(() => expect(b.classList.contains('added')).toBe(true));
    a.click();
    await vi.waitFor(() => expect(resolvers).toHaveLength(3));
    resolvers[2](new Response(ok(3)));
    await vi.waitFor(() => expect(a.classList.contains('loading')).toBe(false));
    expect(document.querySelectorAll('a.added_to_cart.wc-forward')).toHaveLength(2);
    expect(a.nextElementSibling!.getAttribute('href')).toBe('/cart/');
    const live = document.getElementById('cart-live-region')!;
    expect(live.getAttribute('aria-live')).toBe('polite');
    expect(live.textContent).toBe('');
    vi.advanceTimersByTime(1000);
    expect(live.textContent).toBe('added 7');
    remove();
  });

  it('goes to the product page on a refusal', async () => {
    const a = button(9);
    const navigate = vi.fn();
    const fetcher = vi.fn(async () => new Response('{"error":true,"product_url":"https://shop.example/product/x/"}')) as unknown as typeof fetch;
    const remove = installAddToCart({ fetcher, navigate });
    a.click();
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('https://shop.example/product/x/'));
    expect(a.classList.contains('added')).toBe(false);
    expect(document.querySelector('a.added_to_cart')).toBeNull();
    remove();
  });
});

describe('remove from the mini cart', () => {
  const mini = (body: string) => `<div class="widget_shopping_cart_content">${body}</div>`;
  const line = `<ul><li><a href="/cart/?remove_item=k1" class="remove remove_from_cart_button" data-cart_item_key="k1">×</a></li></ul>`;

  it('blocks the line with "Please wait..." and swaps the fragments', async () => {
    document.body.innerHTML = `<div class="mini-cart-host">${mini(line)}</div>`;
    let resolve!: (r: Response) => void;
    const fetcher = vi.fn(() => new Promise<Response>((r) => (resolve = r))) as unknown as typeof fetch;
    const navigate = vi.fn();
    const remove = installRemoveFromCart({ fetcher, navigate });
    (document.querySelector('a.remove_from_cart_button') as HTMLElement).click();
    expect(document.querySelector('li.is-blocked .blockUI')!.textContent).toBe('Please wait...');
    await vi.waitFor(() => expect(fetcher).toHaveBeenCalled());
    resolve(new Response(JSON.stringify({ fragments: { 'div.widget_shopping_cart_content': mini('<p>No products in the cart.</p>') }, cart_hash: '' })));
    await vi.waitFor(() => expect(document.body.textContent).toBe('No products in the cart.'));
    expect(document.querySelector('.mini-cart-host')!.classList.contains('is-updating')).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
    remove();
  });

  it('follows the link when the answer has no fragments', async () => {
    document.body.innerHTML = mini(line);
    const fetcher = vi.fn(async () => new Response('{"success":false}')) as unknown as typeof fetch;
    const navigate = vi.fn();
    const remove = installRemoveFromCart({ fetcher, navigate });
    (document.querySelector('a.remove_from_cart_button') as HTMLElement).click();
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('http://localhost:3000/cart/?remove_item=k1'));
    remove();
  });
});

describe('product form add to cart', () => {
  it('posts the variation id and quantity through the queue; loading until the answer; pageshow clears loading', async () => {
    const { installFormAddToCart } = await import('./add-to-cart');
    document.body.innerHTML = `<span class="header-cart-count"><span class="cart-count">0</span></span>
      <form class="variations_form cart" method="post" action="/product/x/" data-success_message="added x">
        <input name="quantity" value="3"><button type="submit" class="single_add_to_cart_button">Add</button>
        <input type="hidden" name="add-to-cart" value="7"><input type="hidden" name="variation_id" value="9">
      </form>`;
    let resolve!: (r: Response) => void;
    const fetcher = vi.fn(() => new Promise<Response>((r) => (resolve = r)));
    const remove = installFormAddToCart({ fetcher: fetcher as unknown as typeof fetch, navigate: vi.fn() });
    const form = document.querySelector('form')!;
    const button = form.querySelector('button')!;
    const ev = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(ev);
    expect(ev.defaultPrevented).toBe(true);
    expect(button.classList.contains('loading')).toBe(true);
    await vi.waitFor(() => expect(fetcher).toHaveBeenCalled());
    const body = (fetcher.mock.calls[0] as unknown as [string, RequestInit])[1].body as string;
    expect(body).toBe('product_id=9&quantity=3');
    resolve(new Response(ok(3)));
    await vi.waitFor(() => expect(document.querySelector('.cart-count')!.textContent).toBe('3'));
    expect(button.classList.contains('loading')).toBe(false);
    button.classList.add('loading');
    window.dispatchEvent(new Event('pageshow'));
    expect(button.classList.contains('loading')).toBe(false);
    remove();
  });

  it('an error answer navigates to product_url; a cancelled submit is left alone', async () => {
    const { installFormAddToCart } = await import('./add-to-cart');
    document.body.innerHTML = `<form class="cart" method="post" action="/product/p/">
        <input name="quantity" value="1"><button type="submit" name="add-to-cart" value="5" class="single_add_to_cart_button">Add</button>
      </form>`;
    const fetcher = vi.fn(async () => new Response(JSON.stringify({ error: true, product_url: 'https://s/product/p/' })));
    const navigate = vi.fn();
    const remove = installFormAddToCart({ fetcher: fetcher as unknown as typeof fetch, navigate });
    const form = document.querySelector('form')!;
    const cancelled = new Event('submit', { bubbles: true, cancelable: true });
    form.addEventListener('submit', (e) => e.preventDefault(), { once: true });
    form.dispatchEvent(cancelled);
    expect(fetcher).not.toHaveBeenCalled();
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('https://s/product/p/'));
    remove();
  });
});

describe('fragments and the shopper currency', () => {
  afterEach(() => {
    sessionStorage.clear();
    for (const c of ['wmc_current_currency', 'woocommerce_cart_hash', 'woocommerce_items_in_cart']) document.cookie = `${c}=; Path=/; Max-Age=0`;
  });

  it('stored fragments are reused only in the currency they were asked in', () => {
    document.cookie = 'woocommerce_cart_hash=h1; Path=/';
    document.cookie = 'wmc_current_currency=EUR; Path=/';
    storeFragments({ fragments: { 'span.header-cart-count': '<span class="header-cart-count">20,24 €</span>' }, cart_hash: 'h1' });
    expect(lastFragments()).not.toBeNull();
    // Switched where the fragments were not asked again (the checkout): the hash cookie is the same, the prices are not.
    document.cookie = 'wmc_current_currency=GBP; Path=/';
    expect(lastFragments()).toBeNull();
    document.cookie = 'wmc_current_currency=EUR; Path=/';
    expect(lastFragments()).not.toBeNull();
  });

  it('a switch asks the fragments again when the cart has items, and not for an empty cart', async () => {
    document.body.innerHTML = '<span class="header-cart-count">$22.00</span>';
    const euros = { 'span.header-cart-count': '<span class="header-cart-count">20,24 €</span>' };
    const fetcher = vi.fn(async () => new Response(JSON.stringify({ fragments: euros, cart_hash: 'h2' })));
    await refreshForCurrency(fetcher);
    expect(fetcher).not.toHaveBeenCalled();
    document.cookie = 'woocommerce_items_in_cart=1; Path=/';
    document.cookie = 'wmc_current_currency=EUR; Path=/';
    await refreshForCurrency(fetcher);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect((fetcher.mock.calls[0] as unknown as [string])[0]).toBe('/?wc-ajax=get_refreshed_fragments');
    expect(document.querySelector('.header-cart-count')!.textContent).toBe('20,24 €');
    document.cookie = 'woocommerce_cart_hash=h2; Path=/';
    expect(lastFragments()).toEqual(euros);
  });
});
