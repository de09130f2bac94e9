import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { expect, vi } from 'vitest';
import { App } from '../App';
import type { PageData } from '../types';

/**
 * Hydrates App over html (a server render of data) in a fresh root and
 * expects no recoverable error and no console error (nor warning, with
 * warnings): what a mismatch between the server's HTML and the browser's
 * render gives.
 */
export async function expectHydratesCleanly(html: string, data: PageData, opts: { name?: string; warnings?: boolean } = {}) {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.appendChild(root);
  const err = vi.spyOn(console, 'error').mockImplementation(() => {});
  const warn = opts.warnings ? vi.spyOn(console, 'warn').mockImplementation(() => {}) : null;
  const recoverable: unknown[] = [];
  let r: ReturnType<typeof hydrateRoot> | undefined;
  try {
    await act(async () => {
      r = hydrateRoot(root, <App data={data} />, { onRecoverableError: (e) => recoverable.push(e) });
    });
    expect(recoverable, opts.name).toEqual([]);
    expect(err, opts.name).not.toHaveBeenCalled();
    if (warn) expect(warn, opts.name).not.toHaveBeenCalled();
  } finally {
    err.mockRestore();
    warn?.mockRestore();
    act(() => r?.unmount());
    root.remove();
  }
}
