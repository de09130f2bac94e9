import { categoryOptions, createSuggester, readSuggestions, suggestUrl } from './suggest';
import { nav } from '../test/fixtures';
import type { SearchSuggestion } from '../types';

describe('suggestUrl', () => {
  it('builds the admin-ajax call, with the category only when chosen', () => {
    expect(suggestUrl('hood')).toBe('/wp-admin/admin-ajax.php?action=flatsome_ajax_search_products&query=hood');
    expect(suggestUrl('t shirt&x', '4')).toBe(
      '/wp-admin/admin-ajax.php?action=flatsome_ajax_search_products&query=t%20shirt%26x&product_cat=4',
    );
  });
});

describe('readSuggestions', () => {
  it('keeps well-formed entries', () => {
    expect(
      readSuggestions({
        suggestions: [
          { type: 'Product', id: 3, value: 'Hoodie', url: '/product/hoodie/', img: '/m/h.svg', price: '<span>$1</span>' },
          { id: -1, value: 'No results', url: '' },
          { value: 'no id' },
          null,
        ],
      }),
    ).toEqual([
      { type: 'Product', id: 3, value: 'Hoodie', url: '/product/hoodie/', img: '/m/h.svg', price: '<span>$1</span>' },
      { type: undefined, id: -1, value: 'No results', url: '', img: '', price: '' },
    ]);
    expect(readSuggestions({})).toEqual([]);
    expect(readSuggestions(null)).toEqual([]);
  });
});

describe('categoryOptions', () => {
  it('lists top-level categories each followed by its children', () => {
    expect(categoryOptions(nav).map((o) => [o.id, o.label.trim()])).toEqual([
      [15, 'Clothing'],
      [17, 'Tshirts'],
      [18, 'Hoodies'],
      [16, 'Accessories'],
      [19, 'Music'],
    ]);
  });
});

describe('createSuggester (debounce and cancel)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(minChars = 3) {
    const calls: { query: string; category: string; signal: AbortSignal; resolve: (v: SearchSuggestion[]) => void }[] = [];
    const fetcher = vi.fn(
      (query: string, category: string, signal: AbortSignal) =>
        new Promise<SearchSuggestion[]>((resolve) => calls.push({ query, category, signal, resolve })),
    );
    const onResults = vi.fn();
    const onClear = vi.fn();
    const sg = createSuggester({ minChars, delay: 200, fetcher, onResults, onClear });
    return { sg, calls, fetcher, onResults, onClear };
  }

  it('sends nothing under the minimum and clears', () => {
    const { sg, fetcher, onClear } = setup();
    sg.update('ho');
    sg.update('  ho  ');
    vi.advanceTimersByTime(1000);
    expect(fetcher).not.toHaveBeenCalled();
    expect(onClear).toHaveBeenCalledTimes(2);
  });

  it('waits 200 ms after the last keystroke and sends one request', () => {
    const { sg, fetcher } = setup();
    sg.update('hoo');
    vi.advanceTimersByTime(150);
    sg.update('hood');
    vi.advanceTimersByTime(199);
    expect(fetcher).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher.mock.calls[0].slice(0, 2)).toEqual(['hood', '']);
  });

  it('aborts the request in flight when the text changes; a stale answer is dropped', async () => {
    const { sg, calls, onResults } = setup();
    sg.update('hood', '4');
    vi.advanceTimersByTime(200);
    expect(calls[0].category).toBe('4');
    sg.update('hoodie', '4');
    expect(calls[0].signal.aborted).toBe(true);
    calls[0].resolve([{ id: 1, value: 'stale', url: '/a/' }]);
    await vi.advanceTimersByTimeAsync(200);
    expect(onResults).not.toHaveBeenCalled();
    calls[1].resolve([{ id: 2, value: 'fresh', url: '/b/' }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(onResults).toHaveBeenCalledTimes(1);
    expect(onResults).toHaveBeenCalledWith([{ id: 2, value: 'fresh', url: '/b/' }], 'hoodie');
  });

  it('cancel stops the timer and the request', () => {
    const { sg, calls, fetcher } = setup();
    sg.update('hood');
    sg.cancel();
    vi.advanceTimersByTime(500);
    expect(fetcher).not.toHaveBeenCalled();
    sg.update('hood');
    vi.advanceTimersByTime(200);
    sg.cancel();
    expect(calls[0].signal.aborted).toBe(true);
  });
});
