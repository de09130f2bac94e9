import { hydrateRoot } from 'react-dom/client';
import { App } from './App';
import type { PageData } from './types';
import { installAddToCart, installFormAddToCart, installRemoveFromCart, refreshOnLoad } from './cart/add-to-cart';
import { setRestNonce } from './lib/rest';
import { expectPageHydration } from './lib/page-hydration';
import './styles/main.css';
import './split/styles';

const el = document.getElementById('vitrine-data');
const root = document.getElementById('root');
if (el && root) {
  const data = JSON.parse(el.textContent || '{}') as PageData;
  if ('settings' in data) setRestNonce(data.settings?.user?.rest_nonce);
  expectPageHydration();
  hydrateRoot(root, <App data={data} />);
  installAddToCart();
  installFormAddToCart();
  installRemoveFromCart();
  void refreshOnLoad();
}
