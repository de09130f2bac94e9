import { useRef, type ReactNode } from 'react';
import type { NavCategory, PageData } from '../types';
import { decodeEntities } from '../lib/format';
import { parseUrl } from '../lib/url';
import { SearchForm } from '../ui/SearchForm';
import { QuickViewHost } from '../quickview/QuickView';
import { CartMenu } from '../cart/CartMenu';
import { AccountLinks } from '../frame/AccountLinks';
import { ComingSoonBanner } from '../frame/ComingSoonBanner';
import { CurrencySwitchers } from '../currency/CurrencySwitcher';

function isCurrent(url: string, path: string): boolean {
  const p = parseUrl(url).path;
  return p === path;
}

function NavItem({ item, path }: { item: NavCategory; path: string }) {
  const hasChildren = item.children && item.children.length > 0;
  return (
    <li className={'menu-item' + (hasChildren ? ' menu-item-has-children' : '')}>
      <a href={item.url} aria-current={isCurrent(item.url, path) ? 'page' : undefined}>
        {decodeEntities(item.name)}
      </a>
      {hasChildren && (
        <ul className="sub-menu">
          {item.children.map((c) => (
            <li key={c.id} className="menu-item">
              <a href={c.url} aria-current={isCurrent(c.url, path) ? 'page' : undefined}>
                {decodeEntities(c.name)}
              </a>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function Layout({ data, children }: { data: Exclude<PageData, { page: 'fragments' }>; children: ReactNode }) {
  const { path, query } = parseUrl(data.url);
  const s = query.find(([k]) => k === 's');
  const cartCount: number = 0; // wired by the cart issue
  const footer = useRef<HTMLElement>(null);
  const user = data.settings?.user;
  return (
    <div className="site">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="site-header">
        <div className="container header-inner">
          <a className="site-title" href="/" rel="home">
            {decodeEntities(data.site.name)}
          </a>
          <SearchForm
            className="header-search"
            defaultValue={s ? s[1] : ''}
            live
            categories={data.nav}
            minChars={data.settings?.search_min_chars}
          />
          <CurrencySwitchers
            currencies={data.settings?.currencies}
            base={data.settings?.base_currency || data.site.currency?.currency_code || 'USD'}
            page={data.page}
          />
          <AccountLinks user={user} />
          <CartMenu count={cartCount} />
        </div>
        {data.nav && data.nav.length > 0 && (
          <nav className="primary-nav" aria-label="Product categories">
            <div className="container">
              <ul className="menu">
                <li className="menu-item">
                  <a href="/shop/" aria-current={path === '/shop/' ? 'page' : undefined}>
                    Shop all
                  </a>
                </li>
                {data.nav.map((item) => (
                  <NavItem key={item.id} item={item} path={path} />
                ))}
              </ul>
            </div>
          </nav>
        )}
      </header>
      <main id="content" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer" ref={footer} tabIndex={-1}>
        <div className="container footer-inner">
          <p className="footer-name">{decodeEntities(data.site.name)}</p>
          {data.site.tagline && <p className="footer-tagline">{decodeEntities(data.site.tagline)}</p>}
          <nav aria-label="Footer">
            <ul className="footer-links">
              <li>
                <a href="/shop/">Shop</a>
              </li>
              <li>
                <a href="/cart/">Cart</a>
              </li>
              <li>
                <a href="/my-account/">My account</a>
              </li>
              <li>
                <a href="/contact/">Contact</a>
              </li>
              {/* The shop's content pages (about, shipping, returns, terms). */}
              {data.pages?.map((p) => (
                <li key={p.url}>
                  <a href={p.url} aria-current={path === p.url ? 'page' : undefined}>
                    {p.title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <ComingSoonBanner user={user} onGone={() => footer.current?.focus()} />
        </div>
      </footer>
      <QuickViewHost />
    </div>
  );
}
