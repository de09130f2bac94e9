import { act, render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { PageLoader, PAGE_LOADER_FADE_MS, PAGE_LOADER_MAX_MS } from './PageLoader';
import { App } from '../App';
import { productPage } from '../test/fixtures';

describe('PageLoader', () => {
  let readyState: DocumentReadyState = 'loading';
  beforeEach(() => {
    readyState = 'loading';
    vi.spyOn(document, 'readyState', 'get').mockImplementation(() => readyState);
    vi.useFakeTimers();
    vi.spyOn(performance, 'now').mockReturnValue(200);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  const loader = (c: HTMLElement) => c.querySelector('.page-loader');

  it('is off by default and in the server HTML when on, hidden from assistive technology', () => {
    expect(renderToString(<App data={productPage(16)} />)).not.toContain('page-loader');
    const data = productPage(16);
    data.settings = { ...data.settings, page_loader: true };
    expect(renderToString(<App data={data} />)).toContain('<div aria-hidden="true" class="page-loader">');
  });

  it('fades out on load and is then removed', () => {
    const { container } = render(<PageLoader enabled />);
    expect(loader(container)).not.toHaveClass('is-leaving');
    readyState = 'complete';
    act(() => {
      window.dispatchEvent(new Event('load'));
    });
    expect(loader(container)).toHaveClass('is-leaving');
    act(() => vi.advanceTimersByTime(PAGE_LOADER_FADE_MS));
    expect(loader(container)).toBeNull();
  });

  it('is gone 1000 ms after navigation started at the latest, loaded or not', () => {
    const { container } = render(<PageLoader enabled />);
    // 200 ms have passed: it starts leaving at 700 ms and is gone at 1000.
    act(() => vi.advanceTimersByTime(PAGE_LOADER_MAX_MS - PAGE_LOADER_FADE_MS - 200 - 1));
    expect(loader(container)).not.toHaveClass('is-leaving');
    act(() => vi.advanceTimersByTime(1));
    expect(loader(container)).toHaveClass('is-leaving');
    act(() => vi.advanceTimersByTime(PAGE_LOADER_FADE_MS));
    expect(loader(container)).toBeNull();
  });

  it('leaves at once when the page had loaded before scripts ran', () => {
    readyState = 'complete';
    const { container } = render(<PageLoader enabled />);
    expect(loader(container)).toHaveClass('is-leaving');
  });
});
