import { fetchPageData, PageLoadError, parsePageData } from './page-data';
import { listingPage } from '../test/fixtures';

function pageHtml(json: string): string {
  return `<!doctype html><html><head><title>x</title></head><body><div id="root"><ul class="products"></ul></div>
<script id="vitrine-data" type="application/json">${json}</script></body></html>`;
}

describe('parsePageData', () => {
  it('reads the inlined page data of an HTML page', () => {
    const data = listingPage({ page_number: 2 });
    // The server escapes <, > and & in the JSON (encoding/json).
    const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
    expect(parsePageData(pageHtml(json))).toEqual(data);
  });
  it('is null without the script, with bad JSON or without a page kind', () => {
    expect(parsePageData('<html><body><p>hi</p></body></html>')).toBeNull();
    expect(parsePageData(pageHtml('{"page":'))).toBeNull();
    expect(parsePageData(pageHtml('{"url":"/"}'))).toBeNull();
    expect(parsePageData(pageHtml(''))).toBeNull();
  });
});

describe('fetchPageData', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('GETs the page with X-Requested-With and returns its data', async () => {
    const data = listingPage();
    const fetchMock = vi.fn(async () => new Response(pageHtml(JSON.stringify(data)), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchPageData('/shop/page/2/')).resolves.toEqual(data);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/shop/page/2/');
    expect((init.headers as Record<string, string>)['X-Requested-With']).toBe('XMLHttpRequest');
  });

  it('fails on a non-200 answer, a network error or a page without data', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('oops', { status: 500 })));
    await expect(fetchPageData('/shop/page/2/')).rejects.toMatchObject({ name: 'PageLoadError', status: 500 });
    vi.stubGlobal('fetch', vi.fn(async () => new Response(pageHtml('{}'), { status: 404 })));
    await expect(fetchPageData('/shop/page/9/')).rejects.toBeInstanceOf(PageLoadError);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(fetchPageData('/shop/page/2/')).rejects.toBeInstanceOf(PageLoadError);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<p>no data</p>', { status: 200 })));
    await expect(fetchPageData('/shop/page/2/')).rejects.toBeInstanceOf(PageLoadError);
  });
});
