import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { RichText } from './RichText';
import { MockIO, mockIntersectionObserver } from '../test/intersection';
import { installLazyVideos, LOADED_CLASS, VIDEO_ROOT_MARGIN, VIDEO_THRESHOLD, waitsForTouch } from './lazy-video';

// The markup internal/richtext/video.go writes for one video.
function videoHTML(title = 'Our workshop', dataSrc = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0') {
  return (
    `<div class="lazy-video lazy-video--youtube" data-provider="youtube" data-title="${title}">` +
    `<div class="lazy-video__poster" aria-hidden="true"><span class="lazy-video__title">${title}</span><span class="lazy-video__provider">YouTube</span></div>` +
    `<button type="button" class="lazy-video__play"><span class="lazy-video__icon" aria-hidden="true"></span><span class="lazy-video__label">Play video: ${title}</span></button>` +
    `<a class="lazy-video__link" href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" rel="nofollow">Watch “${title}” on YouTube</a>` +
    `<template class="lazy-video__player"><iframe ${dataSrc ? `data-src="${dataSrc}" ` : ''}title="${title} (YouTube video player)" allow="autoplay; encrypted-media; picture-in-picture; fullscreen" allowfullscreen=""></iframe></template>` +
    `</div>`
  );
}

const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const MAC_SAFARI_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';

const frame = () => document.querySelector('iframe.lazy-video__frame') as HTMLIFrameElement | null;

describe('lazy videos', () => {
  mockIntersectionObserver();
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renders the same markup on the server, with no iframe outside its template', () => {
    const html = renderToString(<RichText html={`<p>Intro</p>${videoHTML()}`} className="product-description" />);
    expect(html).toContain('Play video: Our workshop');
    expect(html.replace(/<template[\s\S]*?<\/template>/g, '')).not.toContain('<iframe');
  });

  it('loads the player only when Play is pressed, autoplaying, then marks the wrapper when it has loaded', async () => {
    const user = userEvent.setup();
    const { container } = render(<RichText html={`<p>Intro</p>${videoHTML()}`} />);
    expect(frame()).toBeNull();
    expect(MockIO.instances).toHaveLength(0); // press mode: no viewport loading
    const play = screen.getByRole('button', { name: 'Play video: Our workshop' });
    await user.click(play);
    const f = frame()!;
    expect(f).not.toBeNull();
    expect(f.src).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0&autoplay=1');
    expect(f).toHaveAttribute('title', 'Our workshop (YouTube video player)');
    expect(f).not.toHaveAttribute('data-src');
    expect(document.activeElement).toBe(f); // focus follows the press
    expect(play).not.toBeVisible();
    const wrapper = container.querySelector('.lazy-video')!;
    expect(wrapper).not.toHaveClass(LOADED_CLASS);
    fireEvent.load(f);
    expect(wrapper).toHaveClass(LOADED_CLASS);
    // A second press does not add a second player.
    fireEvent.click(play);
    expect(document.querySelectorAll('iframe.lazy-video__frame')).toHaveLength(1);
  });

  it('works by keyboard', async () => {
    const user = userEvent.setup();
    render(<RichText html={videoHTML('Dyeing')} />);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Play video: Dyeing' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(frame()).not.toBeNull();
  });

  it('loads on viewport entry in viewport mode on a desktop browser, without autoplay', () => {
    const root = document.createElement('div');
    root.innerHTML = videoHTML();
    document.body.appendChild(root);
    const stop = installLazyVideos(root, { settings: { load: 'viewport', delay_ms: 0 }, userAgent: DESKTOP_UA });
    const io = MockIO.instances.at(-1)!;
    expect(io.options).toEqual({ rootMargin: VIDEO_ROOT_MARGIN, threshold: VIDEO_THRESHOLD });
    expect(VIDEO_ROOT_MARGIN).toBe('0px 0px 200px 0px');
    expect(frame()).toBeNull();
    io.enter(root.querySelector('.lazy-video')!);
    expect(frame()!.src).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0');
    stop();
    root.remove();
  });

  it('on phones and Safari waits for the first touch or press before watching the viewport', () => {
    expect(waitsForTouch(IPHONE_UA)).toBe(true);
    expect(waitsForTouch(MAC_SAFARI_UA)).toBe(true);
    expect(waitsForTouch(DESKTOP_UA)).toBe(false);
    const root = document.createElement('div');
    root.innerHTML = videoHTML();
    document.body.appendChild(root);
    const stop = installLazyVideos(root, { settings: { load: 'viewport', delay_ms: 0 }, userAgent: IPHONE_UA });
    expect(MockIO.instances).toHaveLength(0);
    fireEvent.touchStart(document.body);
    const io = MockIO.instances.at(-1)!;
    expect(io).toBeDefined();
    io.enter(root.querySelector('.lazy-video')!);
    expect(frame()).not.toBeNull();
    stop();
    root.remove();
  });

  it('or for the configured delay', () => {
    vi.useFakeTimers();
    const root = document.createElement('div');
    root.innerHTML = videoHTML();
    const stop = installLazyVideos(root, { settings: { load: 'viewport', delay_ms: 3000 }, userAgent: MAC_SAFARI_UA });
    vi.advanceTimersByTime(2999);
    expect(MockIO.instances).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(MockIO.instances).toHaveLength(1);
    stop();
  });

  it('logs a console error when the play button, the iframe or its data-src is missing', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const root = document.createElement('div');
    root.innerHTML =
      videoHTML('No button').replace(/<button[\s\S]*?<\/button>/, '') +
      videoHTML('No iframe').replace(/<iframe[\s\S]*?<\/iframe>/, '') +
      videoHTML('No data-src', '');
    installLazyVideos(root);
    expect(errors.mock.calls.map((c) => c[0])).toEqual([
      'Lazy video: the play button is missing.',
      'Lazy video: the iframe is missing.',
      'Lazy video: the iframe has no data-src.',
    ]);
    // Nothing was wired: pressing the remaining buttons loads nothing.
    root.querySelectorAll('button').forEach((b) => fireEvent.click(b));
    expect(root.querySelector('iframe.lazy-video__frame')).toBeNull();
    errors.mockRestore();
  });
});
