import { useEffect, useState } from 'react';
import './page-loader.css';

/** Spec section 9: the page loader is removed after 1000 ms at most. */
export const PAGE_LOADER_MAX_MS = 1000;
/** Its fade-out, within that time. */
export const PAGE_LOADER_FADE_MS = 300;

type Phase = 'loading' | 'leaving' | 'gone';

/**
 * The page loader (settings.page_loader, off by default): an overlay in the
 * server's HTML that fades out when the page has loaded, and is gone
 * PAGE_LOADER_MAX_MS after navigation started at the latest. It never
 * stands in anyone's way: hidden from assistive technology, transparent to
 * the pointer, and not shown at all under reduced motion. Its CSS fades it
 * out by itself within 1 s too, so it goes even if scripts never run.
 */
export function PageLoader({ enabled }: { enabled?: boolean }) {
  const [phase, setPhase] = useState<Phase>('loading');
  useEffect(() => {
    if (!enabled) return;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const leave = () => {
      setPhase((p) => (p === 'loading' ? 'leaving' : p));
      timers.push(setTimeout(() => setPhase('gone'), PAGE_LOADER_FADE_MS));
    };
    if (document.readyState === 'complete') {
      leave();
    } else {
      const elapsed = typeof performance !== 'undefined' ? performance.now() : 0;
      timers.push(setTimeout(leave, Math.max(0, PAGE_LOADER_MAX_MS - PAGE_LOADER_FADE_MS - elapsed)));
      window.addEventListener('load', leave, { once: true });
    }
    return () => {
      timers.forEach(clearTimeout);
      window.removeEventListener('load', leave);
    };
  }, [enabled]);
  if (!enabled || phase === 'gone') return null;
  return (
    <div className={'page-loader' + (phase === 'leaving' ? ' is-leaving' : '')} aria-hidden="true">
      <span className="page-loader__spinner" />
    </div>
  );
}
