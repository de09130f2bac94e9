import './ssr-polyfills';
import './lib/preact-options';
import { renderToString } from 'react-dom/server.browser';
import { App } from './App';
import { renderWithFragments } from './lib/server-fragments';
import { installServerVnodeHook, withoutTeardownHooks } from './lib/server-vnode';
import type { PageData } from './types';

// Host elements' props go to the renderer as written (lib/server-vnode.ts).
installServerVnodeHook();

export function render(url: string, json: string): string {
  const data = JSON.parse(json) as PageData;
  if (!data.url) data.url = url;
  // Shared parts (the header, product cards) come from the engine's
  // fragment cache once rendered (lib/server-fragments.tsx).
  // No effect runs and nothing stays mounted: the teardown hooks are left out.
  return withoutTeardownHooks(() => renderWithFragments(renderToString, <App data={data} />));
}

(globalThis as unknown as { render: typeof render }).render = render;
