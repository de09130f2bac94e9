/**
 * The lazy video loader. The server writes each YouTube or Vimeo video of a
 * description or content page as a poster with a Play button and the
 * player's iframe inside an inert <template>, its address in data-src
 * (internal/richtext/video.go). Nothing is fetched from the provider until
 * the player is put in the page:
 *
 * - always when the Play button is pressed (the player then autoplays and
 *   takes the focus, so a keyboard user goes on from there);
 * - with the shop's `viewport` setting, also when the video comes near the
 *   viewport (root margin 200 px below, a tenth visible: spec section 9);
 *   on phones and Safari only after the shopper's first touch or key press,
 *   or after the configured delay (spec section 4).
 *
 * The wrapper gets smush-lazyloaded-video once the iframe has loaded. A
 * wrapper without its Play button, its iframe or the iframe's data-src is
 * reported on the console (spec section 8) and left as it is.
 */
import type { Settings } from '../types';

export type VideoSettings = NonNullable<Settings['video']>;

/** Spec section 9: the video observer's root margin and threshold. */
export const VIDEO_ROOT_MARGIN = '0px 0px 200px 0px';
export const VIDEO_THRESHOLD = 0.1;
/** Added to the wrapper once the player's iframe has loaded. */
export const LOADED_CLASS = 'smush-lazyloaded-video';

/** Phones and Safari wait for a first touch or press before viewport loading. */
export function waitsForTouch(ua: string): boolean {
  if (/Android|iPhone|iPad|iPod|Mobi/i.test(ua)) return true;
  return /Safari\//.test(ua) && !/Chrome|Chromium|CriOS|Edg|OPR|Firefox|FxiOS/.test(ua);
}

interface Options {
  settings?: VideoSettings;
  /** The browser's user agent (tests). */
  userAgent?: string;
}

/** The player's address for data-src, with autoplay when a press asked for it. */
function playerURL(dataSrc: string, autoplay: boolean): string {
  if (!autoplay) return dataSrc;
  try {
    const u = new URL(dataSrc);
    u.searchParams.set('autoplay', '1');
    return u.toString();
  } catch {
    return dataSrc;
  }
}

/**
 * Installs the loader on every lazy video under root and answers a
 * function that removes its listeners and observers.
 */
export function installLazyVideos(root: ParentNode, { settings, userAgent }: Options = {}): () => void {
  const cleanups: (() => void)[] = [];
  const viewport = settings?.load === 'viewport' && typeof IntersectionObserver !== 'undefined';
  const toObserve: { wrapper: Element; load: (autoplay: boolean) => void }[] = [];

  for (const wrapper of Array.from(root.querySelectorAll<HTMLElement>('.lazy-video'))) {
    if (wrapper.dataset.lazyVideo === 'on') continue;
    const button = wrapper.querySelector<HTMLButtonElement>('button.lazy-video__play');
    const template = wrapper.querySelector<HTMLTemplateElement>('template.lazy-video__player');
    const frame = template?.content?.querySelector('iframe') ?? null;
    if (!button) {
      console.error('Lazy video: the play button is missing.', wrapper);
      continue;
    }
    if (!frame) {
      console.error('Lazy video: the iframe is missing.', wrapper);
      continue;
    }
    const src = frame.getAttribute('data-src');
    if (!src) {
      console.error('Lazy video: the iframe has no data-src.', wrapper);
      continue;
    }
    wrapper.dataset.lazyVideo = 'on';
    let loaded = false;
    const load = (autoplay: boolean) => {
      if (loaded) return;
      loaded = true;
      const iframe = frame.cloneNode(true) as HTMLIFrameElement;
      iframe.removeAttribute('data-src');
      iframe.className = 'lazy-video__frame';
      iframe.addEventListener('load', () => wrapper.classList.add(LOADED_CLASS), { once: true });
      iframe.src = playerURL(src, autoplay);
      wrapper.classList.add('is-loading');
      wrapper.appendChild(iframe);
      const hadFocus = document.activeElement === button;
      button.hidden = true;
      if (autoplay || hadFocus) iframe.focus();
    };
    const onPress = () => load(true);
    button.addEventListener('click', onPress);
    cleanups.push(() => button.removeEventListener('click', onPress));
    toObserve.push({ wrapper, load });
  }

  if (viewport && toObserve.length > 0) {
    const observe = () => {
      const io = new IntersectionObserver(
        (entries) => {
          for (const e of entries) {
            if (!e.isIntersecting) continue;
            io.unobserve(e.target);
            toObserve.find((v) => v.wrapper === e.target)?.load(false);
          }
        },
        { rootMargin: VIDEO_ROOT_MARGIN, threshold: VIDEO_THRESHOLD },
      );
      for (const v of toObserve) io.observe(v.wrapper);
      cleanups.push(() => io.disconnect());
    };
    const ua = userAgent ?? (typeof navigator !== 'undefined' ? navigator.userAgent : '');
    if (!waitsForTouch(ua)) {
      observe();
    } else {
      // Phones and Safari: the first touch or press (anywhere), or the
      // configured delay, whichever comes first; then viewport entry.
      let started = false;
      const events = ['touchstart', 'pointerdown', 'keydown'] as const;
      const start = () => {
        if (started) return;
        started = true;
        stop();
        observe();
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stop = () => {
        for (const ev of events) document.removeEventListener(ev, start, true);
        if (timer !== undefined) clearTimeout(timer);
      };
      for (const ev of events) document.addEventListener(ev, start, { capture: true, passive: true });
      if (settings && settings.delay_ms > 0) timer = setTimeout(start, settings.delay_ms);
      cleanups.push(stop);
    }
  }
  return () => {
    for (const c of cleanups) c();
    for (const v of toObserve) delete (v.wrapper as HTMLElement).dataset.lazyVideo;
  };
}
