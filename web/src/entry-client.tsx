import './lib/preact-options';
import { hydrateRoot } from 'react-dom/client';
import type { PageData } from './types';
import { installAddToCart, installFormAddToCart, installRemoveFromCart, refreshOnLoad } from './cart/add-to-cart';
import { setRestNonce } from './lib/rest';
import { expectPageHydration } from './lib/page-hydration';
import { hydrateInParts, partsHydrated } from './lib/hydrate-later';
import { readViewer, ViewerRoot } from './lib/viewer';
import { preloadPage } from './split/pages';
import './styles/main.css';
import './split/styles';

const el = document.getElementById('vitrine-data');
const root = document.getElementById('root');
if (el && root) {
  const data = JSON.parse(el.textContent || '{}') as PageData;
  // A shared page's viewer comes in their own part (lib/viewer.tsx); a page
  // rendered for its viewer alone carries them in its data.
  const viewer = readViewer();
  if (viewer) setRestNonce(viewer.user.rest_nonce);
  else if ('settings' in data) setRestNonce(data.settings?.user?.rest_nonce);
  expectPageHydration();
  // The page's chunk first (the server preloads it), then a first
  // hydration pass for the layout and the page, and the parts left out of
  // it (<Later>) one per task after it (lib/hydrate-later.tsx). The cart's
  // links and forms are taken over once every part is live (until then a
  // click is held and made again then, and they work without scripts).
  void preloadPage(data.page)
    .catch(() => {}) // a chunk that fails to load suspends the page instead, and is retried there
    .then(() => {
      hydrateInParts(() => hydrateRoot(root, <ViewerRoot data={data} viewer={viewer} />), root);
      return partsHydrated();
    })
    .then(() => {
      installAddToCart();
      installFormAddToCart();
      installRemoveFromCart();
      void refreshOnLoad();
    });
}
