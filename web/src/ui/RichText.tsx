import { useEffect, useRef } from 'react';
import { installLazyVideos, type VideoSettings } from './lazy-video';
import './media.css';

/**
 * Rich text from the shop (descriptions, content pages) whose videos are
 * lazy: the server wrote each as a poster with a Play button
 * (internal/richtext/video.go) and the loader here puts the player in when
 * asked. Same markup on the server and at hydration; the loader runs after.
 */
export function RichText({ html, className, video }: { html: string; className?: string; video?: VideoSettings }) {
  const ref = useRef<HTMLDivElement>(null);
  const load = video?.load;
  const delay = video?.delay_ms ?? 0;
  useEffect(() => {
    const el = ref.current;
    if (!el || !html.includes('lazy-video')) return;
    return installLazyVideos(el, { settings: load ? { load, delay_ms: delay } : undefined });
  }, [html, load, delay]);
  if (!html) return null;
  return <div ref={ref} className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
