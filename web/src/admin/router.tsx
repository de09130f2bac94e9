// The admin's router: screens are addresses under /wp-admin/, routed in
// the browser with the History API, so every screen has a link that can be
// bookmarked, opened in a new tab and reloaded (the server answers the
// shell for every /wp-admin/ address). WordPress's edit links
// (post.php?post=ID&action=edit, term.php?taxonomy=product_cat&tag_ID=ID)
// are rewritten to the screens that edit those objects.

import { createContext, useCallback, useContext, useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const BASE = '/wp-admin/';

export interface Location {
  /** The path under /wp-admin/, without slashes at its ends: "products/12". */
  path: string;
  search: URLSearchParams;
}

function read(): Location {
  const rel = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '';
  return { path: rel.replace(/^\/+|\/+$/g, ''), search: new URLSearchParams(window.location.search) };
}

/** The screen address WordPress's own edit links stand for, or null. */
export function legacyTarget(loc: Location): string | null {
  if (loc.path === 'post.php') {
    const id = loc.search.get('post');
    return id && /^\d+$/.test(id) ? `${BASE}products/${id}/` : `${BASE}products/`;
  }
  if (loc.path === 'term.php') {
    const id = loc.search.get('tag_ID');
    return id && /^\d+$/.test(id) ? `${BASE}categories/${id}/` : `${BASE}categories/`;
  }
  if (loc.path === 'edit.php' && loc.search.get('post_type') === 'product') return `${BASE}products/`;
  return null;
}

interface RouterValue {
  location: Location;
  /** keepScroll: the change is within the screen (a list's sort or filter), so the page stays where it is. */
  navigate: (to: string, opts?: { replace?: boolean; keepScroll?: boolean }) => void;
}

const RouterContext = createContext<RouterValue | null>(null);

export function useRouter(): RouterValue {
  const v = useContext(RouterContext);
  if (!v) throw new Error('useRouter outside <Router>');
  return v;
}

export function Router({ children }: { children: React.ReactNode }) {
  const [location, setLocation] = useState<Location>(() => {
    const loc = read();
    const to = legacyTarget(loc);
    if (to) {
      window.history.replaceState(null, '', to);
      return read();
    }
    return loc;
  });
  useEffect(() => {
    const onPop = () => setLocation(read());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((to: string, opts: { replace?: boolean; keepScroll?: boolean } = {}) => {
    if (opts.replace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
    setLocation(read());
    if (!opts.keepScroll) window.scrollTo?.(0, 0);
  }, []);
  return <RouterContext.Provider value={{ location, navigate }}>{children}</RouterContext.Provider>;
}

/** A link to another admin address: followed in the page, or as usual with a modifier key. */
export function Link({ to, onClick, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const { navigate } = useRouter();
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || rest.target) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={click} {...rest} />;
}
