import './lib/preact-options';
import { hydrateRoot } from 'react-dom/client';
import type { PageData } from './types';
import { installAddToCart, installFormAddToCart, installRemoveFromCart, refreshOnLoad } from './cart/add-to-cart';
import { setRestNonce } from './lib/rest';
import { expectPageHydration } from './lib/page-hydration';
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
  // The page's chunk first (the server preloads it), then one hydration
  // pass for the layout and the page.
  void preloadPage(data.page)
    .catch(() => {}) // a chunk that fails to load suspends the page instead, and is retried there
    .then(() => {
      hydrateRoot(root, <ViewerRoot data={data} viewer={viewer} />);
      installAddToCart();
      installFormAddToCart();
      installRemoveFromCart();
      void refreshOnLoad();
    });
}
