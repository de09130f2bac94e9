// The admin's screens. Each is its own chunk, loaded when first opened;
// the app's first load is the frame and the router only. A screen answers
// the addresses under /wp-admin/<base>/; the rest of the path (an id, "new")
// comes to it as params.

import type { ComponentType } from 'react';
import type { AdminData } from './data';
import type { Location } from './router';

export interface ScreenProps {
  data: AdminData;
  /** The address's segments after the screen's base: ["12"] for /wp-admin/products/12/. */
  params: string[];
  location: Location;
}

export interface Screen {
  /** The first segment of its addresses ("" for the dashboard). */
  base: string;
  /** Its name in the menu and its page title. */
  title: string;
  /** In the main menu (false: reached from another screen). */
  nav: boolean;
  load: () => Promise<{ default: ComponentType<ScreenProps> }>;
}

export const screens: Screen[] = [
  { base: '', title: 'Dashboard', nav: true, load: () => import('./screens/Dashboard') },
  { base: 'products', title: 'Products', nav: true, load: () => import('./screens/products/Products') },
  { base: 'categories', title: 'Categories', nav: true, load: () => import('./screens/products/Categories') },
  { base: 'attributes', title: 'Attributes', nav: true, load: () => import('./screens/products/Attributes') },
  { base: 'analytics', title: 'Analytics', nav: true, load: () => import('./analytics/Analytics') },
  { base: 'orders', title: 'Orders', nav: true, load: () => import('./screens/orders/Orders') },
  { base: 'coupons', title: 'Coupons', nav: true, load: () => import('./screens/coupons/Coupons') },
  { base: 'media', title: 'Media', nav: true, load: () => import('./media/MediaLibrary') },
  { base: 'reviews', title: 'Reviews', nav: true, load: () => import('./screens/inbox/Reviews') },
  { base: 'messages', title: 'Messages', nav: true, load: () => import('./screens/inbox/Messages') },
  { base: 'settings', title: 'Settings', nav: true, load: () => import('./screens/Settings') },
  { base: 'payments', title: 'Payments', nav: true, load: () => import('./screens/Payments') },
  { base: 'shipping-tax', title: 'Shipping & tax', nav: true, load: () => import('./screens/ShippingTax') },
  { base: 'currencies', title: 'Currencies', nav: true, load: () => import('./screens/Currencies') },
  { base: 'privacy', title: 'Privacy', nav: true, load: () => import('./screens/Privacy') },
  { base: 'stock-alerts', title: 'Stock alerts', nav: true, load: () => import('./screens/Alerts') },
  { base: 'retention', title: 'Data retention', nav: true, load: () => import('./screens/Retention') },
  { base: 'search', title: 'Search', nav: true, load: () => import('./screens/Search') },
  { base: 'activity', title: 'Activity', nav: true, load: () => import('./screens/Activity') },
];

/** The screen for a path under /wp-admin/, and its params; null: no such screen. */
export function resolve(path: string): { screen: Screen; params: string[] } | null {
  const parts = path.split('/').filter(Boolean);
  const base = parts[0] ?? '';
  const screen = screens.find((s) => s.base === base);
  return screen ? { screen, params: parts.slice(1) } : null;
}
