// @vitest-environment node
// The server's render of a lazy image, where there is no document: as the
// server bundle renders it (a browser's render leaves out a noscript's content).
import { renderToString } from 'react-dom/server';
import { LazyImage } from './LazyImage';

describe('LazyImage on the server', () => {
  it('server-renders without src, with its size, the lazyload class and a noscript copy', () => {
    const html = renderToString(<LazyImage src="/m/a.jpg" srcSet="/m/a-300.jpg 300w" sizes="50vw" width={600} height={400} alt="A tee" />);
    const first = html.slice(0, html.indexOf('<noscript>'));
    expect(first).toContain('data-src="/m/a.jpg"');
    expect(first).toContain('data-srcset="/m/a-300.jpg 300w"');
    expect(first).not.toMatch(/\ssrc=/);
    expect(first).not.toMatch(/\ssrcSet=|\ssrcset=/);
    expect(first).toContain('class="lazyload"');
    expect(first).toContain('width="600"');
    expect(first).toContain('height="400"');
    expect(first).toContain('aspect-ratio:600 / 400');
    // Without scripts: the real image, natively lazy.
    expect(html).toMatch(/<noscript><img src="\/m\/a.jpg" srcset="\/m\/a-300.jpg 300w" sizes="50vw" width="600" height="400" alt="A tee" loading="lazy"/);
  });

});
