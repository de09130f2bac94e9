// Testing Library marks the environment as one that supports act.
import '@testing-library/react';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { expectHydratesCleanly } from '../test/hydrate';
import { App } from '../App';
import { allPages, contentPage, listingPage, notFoundPage, productPage, nav } from '../test/fixtures';
import type { PageData } from '../types';
import { Tabs } from '../product/Tabs';
import { cardsKey, clearFragments, fragmentStats, renderWithFragments, ServerFragment } from './server-fragments';

const withFragments = (data: PageData) => renderWithFragments(renderToString, <App data={data} />);
const plain = (data: PageData) => renderToString(<App data={data} />);

describe('server fragments', () => {
  beforeEach(() => clearFragments());

  it('write every page byte for byte as a plain render, cold and warm', () => {
    for (const [name, data] of allPages()) {
      clearFragments();
      const want = plain(data);
      expect(withFragments(data), `${name}, cold`).toBe(want);
      const before = fragmentStats().hits;
      expect(withFragments(data), `${name}, warm`).toBe(want);
      expect(fragmentStats().hits, `${name} reuses its header`).toBeGreaterThan(before);
    }
  });

  it('write a grid whose cards are all cached as one string, the same HTML; a grid with a new card renders its cards', () => {
    const page = listingPage({ url: '/shop/' });
    expect(page.products.length).toBeGreaterThan(3);
    const want = plain(page);
    expect(withFragments(page)).toBe(want); // cold: the cards render and fill the cache
    expect(fragmentStats().lists).toBe(0);
    expect(withFragments(page)).toBe(want);
    expect(fragmentStats().lists).toBe(1); // warm: the grid as one string
    // A card not seen yet (another product): the grid renders its cards, and is whole again after.
    const other = listingPage({ url: '/shop/', products: [{ ...page.products[0], id: 999, card_key: 'new-card', name: 'New <b>"card"</b> & co' }, ...page.products.slice(1)] });
    const wantOther = plain(other);
    expect(withFragments(other)).toBe(wantOther);
    expect(fragmentStats().lists).toBe(1);
    expect(withFragments(other)).toBe(wantOther);
    expect(fragmentStats().lists).toBe(2);
    expect(wantOther).toContain('New &lt;b>&quot;card&quot;&lt;/b> &amp; co');
  });

  it('make a cached fragment’s content only when it is rendered', () => {
    let made = 0;
    const page = (text: string) => (
      <ServerFragment tag="div" props={{ className: 'f' }} cacheKey={() => 'made-' + text}>
        {() => {
          made++;
          return <p>{text}</p>;
        }}
      </ServerFragment>
    );
    const html = renderWithFragments(renderToString, page('one'));
    expect(html).toBe('<div class="f"><p>one</p></div>');
    expect(made).toBe(1); // the page's render; the cache is filled from the same elements
    expect(renderWithFragments(renderToString, page('one'))).toBe(html);
    expect(made).toBe(1); // cached: the content was not made again
    expect(renderToString(page('two'))).toBe('<div class="f"><p>two</p></div>'); // a plain render makes it
    expect(made).toBe(2);
  });

  it('share the header and the cards between pages, and still write each page exactly', () => {
    const pages = allPages();
    for (const [, data] of pages) withFragments(data);
    const { entries, hits } = fragmentStats();
    expect(entries).toBeGreaterThan(2);
    expect(hits).toBeGreaterThan(0);
    for (const [name, data] of [...pages].reverse()) expect(withFragments(data), name).toBe(plain(data));
  });

  it('give a category page its own header, with the menu link marked current', () => {
    const cat = nav[0];
    const shop = listingPage({ url: '/shop/' });
    const category = listingPage({ url: cat.url, title: cat.name });
    withFragments(shop);
    withFragments(productPage(16));
    const html = withFragments(category);
    expect(html).toBe(plain(category));
    expect(html).toContain(`href="${cat.url}" aria-current="page"`);
    expect(withFragments(productPage(16))).toContain(`<a href="${cat.url}">`);
  });

  it('share the footer between pages, and mark a content page’s own footer link current', () => {
    const about = contentPage();
    const terms = contentPage({ url: '/terms/' });
    const footer = (html: string) => html.slice(html.indexOf('<footer'));
    // A page without cards, rendered again: the header and the footer come from the cache.
    const missing = { ...notFoundPage(), pages: about.pages };
    withFragments(missing);
    const before = fragmentStats().hits;
    const again = withFragments(missing);
    expect(fragmentStats().hits - before).toBe(2);
    expect(again).toBe(plain(missing));
    expect(footer(again)).not.toContain('aria-current');
    // Each content page gets its own footer, its link marked.
    const a = withFragments(about);
    const t = withFragments(terms);
    expect(a).toBe(plain(about));
    expect(t).toBe(plain(terms));
    expect(footer(a)).toContain('<a href="/about/" aria-current="page">');
    expect(footer(t)).toContain('<a href="/terms/" aria-current="page">');
    expect(footer(t)).toContain('<a href="/about/">');
  });

  it('share the product tab bar and accordion headings, and never cache a heading whose label is not text', () => {
    const tabs = (reviews: number, extra?: ReactElement) => [
      { key: 'description', label: 'Description', content: <p>About it</p> },
      { key: 'reviews', label: extra ?? `Reviews (${reviews})`, content: <p>None yet</p> },
    ];
    const node = (reviews: number, extra?: ReactElement) => <Tabs tabs={tabs(reviews, extra)} label="Product details" />;
    const first = renderWithFragments(renderToString, node(2));
    expect(first).toBe(renderToString(node(2)));
    let before = fragmentStats().hits;
    expect(renderWithFragments(renderToString, node(2))).toBe(first);
    expect(fragmentStats().hits - before).toBe(3); // the tab bar and both headings
    // Another count is another bar and heading; the description's heading is shared.
    before = fragmentStats().hits;
    const other = renderWithFragments(renderToString, node(3));
    expect(other).toBe(renderToString(node(3)));
    expect(other).toContain('Reviews (3)');
    expect(fragmentStats().hits - before).toBe(1);
    // A label that is an element: neither the bar nor its heading is kept.
    const rich = <em>Reviews</em>;
    renderWithFragments(renderToString, node(0, rich));
    before = fragmentStats().hits;
    expect(renderWithFragments(renderToString, node(0, rich))).toBe(renderToString(node(0, rich)));
    expect(fragmentStats().hits - before).toBe(1); // the description's heading only
  });

  it('share the related products’ section between product pages with the same four', () => {
    const related = productPage(16).related;
    const a = productPage(59, { related });
    const b = productPage(34, { related });
    const section = (html: string) => {
      const at = html.search(/<section[^>]* class="related/);
      return html.slice(at, html.indexOf('</section>', at));
    };
    expect(withFragments(a)).toBe(plain(a));
    const before = fragmentStats().hits;
    const html = withFragments(b);
    expect(html).toBe(plain(b));
    expect(section(html)).toBe(section(plain(a)));
    const same = fragmentStats().hits - before;
    // The same four in another order: another section, whose four cards hit one by one.
    clearFragments();
    withFragments(a);
    const reordered = productPage(34, { related: [...related].reverse() });
    const before2 = fragmentStats().hits;
    expect(withFragments(reordered)).toBe(plain(reordered));
    expect(fragmentStats().hits - before2 - same).toBe(related.length - 1);
    const renamed = productPage(34, { related: related.map((p, i) => (i === 0 ? { ...p, name: 'Renamed in the admin' } : p)) });
    const changed = withFragments(renamed);
    expect(changed).toBe(plain(renamed));
    expect(section(changed)).toContain('Renamed in the admin');
  });

  it('show a changed product at once: the key is the card’s data', () => {
    const before = listingPage();
    withFragments(before);
    withFragments(before);
    const changed = listingPage();
    const p = changed.products[changed.products.length - 1];
    changed.products[changed.products.length - 1] = { ...p, name: 'Renamed in the admin' };
    const html = withFragments(changed);
    expect(html).toContain('Renamed in the admin');
    expect(html).toBe(plain(changed));
  });

  it('cache eager cards apart from the same product’s lazy card', () => {
    const data = listingPage();
    withFragments(data);
    const before = fragmentStats().hits;
    const html = withFragments(data);
    expect(html).toBe(plain(data));
    expect(fragmentStats().hits - before).toBeGreaterThanOrEqual(data.products.length);
    // The first cards' images load at once, the others lazily, warm as cold.
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const imgs = [...doc.querySelectorAll('ul.products > li img:not(noscript img)')];
    expect(imgs[0].getAttribute('src')).toBeTruthy();
    expect(imgs[imgs.length - 1].hasAttribute('data-src')).toBe(true);
  });

  it('keep the page when a part fails to render alone', () => {
    // Renders in the page's own render but throws when rendered alone
    // (a render nested in the page's: the fragment's miss).
    let depth = 0;
    const Needs = () => {
      if (depth > 1) throw new Error('rendered outside its page');
      return <span>ok</span>;
    };
    const Part = () => (
      <ServerFragment tag="div" props={{}} cacheKey={() => 'fails-alone'}>
        <Needs />
      </ServerFragment>
    );
    const render = (n: Parameters<typeof renderToString>[0]) => {
      depth++;
      try {
        return renderToString(n);
      } finally {
        depth--;
      }
    };
    expect(renderWithFragments(render, <Part />)).toBe('<div><span>ok</span></div>');
    expect(fragmentStats().entries).toBe(0);
    expect(renderWithFragments(render, <Part />)).toBe('<div><span>ok</span></div>');
  });

  it('render a missed part once, alone, and write the page from that HTML', () => {
    let renders = 0;
    const Counted = ({ text }: { text: string }) => {
      renders++;
      return <p>{text}</p>;
    };
    const page = (text: string) => (
      <main>
        <ServerFragment tag="div" props={{ className: 'f' }} cacheKey={() => 'once-' + text}>
          {() => <Counted text={text} />}
        </ServerFragment>
      </main>
    );
    expect(renderWithFragments(renderToString, page('a'))).toBe('<main><div class="f"><p>a</p></div></main>');
    expect(renders).toBe(1); // a miss: one render of the part, not one in the page and one to fill the cache
    expect(renderWithFragments(renderToString, page('a'))).toBe('<main><div class="f"><p>a</p></div></main>');
    expect(renders).toBe(1); // a hit: none
  });

  it('stay within their bound, dropping the least recently used first', () => {
    clearFragments(20_000);
    const data = listingPage();
    for (let i = 0; i < 5; i++) {
      const d = listingPage({ products: data.products.map((p) => ({ ...p, name: `${p.name} ${i}` })) });
      expect(withFragments(d)).toBe(plain(d));
      expect(fragmentStats().units).toBeLessThanOrEqual(20_000);
    }
    expect(fragmentStats().entries).toBeGreaterThan(0);
  });

  it('hydrate without a mismatch from the warm HTML', async () => {
    for (const [name, data] of allPages()) {
      withFragments(data);
      await expectHydratesCleanly(withFragments(data), data, { name, warnings: true });
    }
  }, 30_000); // every page hydrated in turn: seconds on a loaded machine
});

describe('card keys', () => {
  it('names cards by their card_key, with the flags, and serialises products that have none', () => {
    const a = { id: 1, card_key: 'a'.repeat(32) };
    const b = { id: 2, card_key: 'b'.repeat(32) };
    expect(cardsKey('related', [], [a, b])).toBe(`["related"]|${a.card_key}|${b.card_key}`);
    expect(cardsKey('card', [3, true], [a])).not.toBe(cardsKey('card', [3, false], [a]));
    expect(cardsKey('card', [3, true], [a])).not.toBe(cardsKey('card', [3, true], [b]));
    const bare: { id: number; name: string; card_key?: string } = { id: 3, name: 'Mug' };
    expect(cardsKey('related', [], [a, bare])).toBe(JSON.stringify(['related', [a, bare]]));
    expect(cardsKey('card', [2, false], [bare])).toBe(JSON.stringify(['card', 2, false, [bare]]));
  });

  it('renders a listing the same whether its cards have keys or not, and keyed cards are found again', () => {
    const data = listingPage();
    const keyed = { ...data, products: data.products.map((p, i) => ({ ...p, card_key: String(i).padStart(32, '0') })) } as PageData;
    clearFragments();
    const plain = renderWithFragments(renderToString, <App data={data} />);
    clearFragments();
    expect(renderWithFragments(renderToString, <App data={keyed} />)).toBe(plain);
    const misses = fragmentStats().misses;
    expect(renderWithFragments(renderToString, <App data={keyed} />)).toBe(plain);
    expect(fragmentStats().misses).toBe(misses);
  });
});
