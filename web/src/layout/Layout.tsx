import { useRef, type ReactNode } from 'react';
import { decodeEntities } from '../lib/format';
import { parseUrl } from '../lib/url';
import { QuickViewHost } from '../quickview/QuickView';
import { ComingSoonBanner } from '../frame/ComingSoonBanner';
import { StoreNotice } from '../frame/StoreNotice';
import { SiteHeader, type FramePage } from './SiteHeader';
import { FooterDetails } from './SiteFooter';
import { ServerFragment } from '../lib/server-fragments';
import { Later } from '../lib/hydrate-later';
import { reopenBanner } from '../consent/consent';
import { ConsentBanner } from '../consent/ConsentBanner';

export function Layout({ data, children }: { data: FramePage; children: ReactNode }) {
  const { path, query } = parseUrl(data.url);
  const s = query.find(([k]) => k === 's');
  const cartCount: number = 0; // wired by the cart issue
  const footer = useRef<HTMLElement>(null);
  const title = useRef<HTMLAnchorElement>(null);
  const user = data.settings?.user;
  // The path as the footer's links see it: a content page's own path, else ''.
  const pagePath = data.pages?.some((p) => p.url === path) ? path : '';
  return (
    <div className="site">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      {/* Next in the tab order while it shows; rendered after hydration only. */}
      <ConsentBanner settings={data.settings?.consent} pages={data.pages} />
      {/* The store notice and the header: layout/SiteHeader.tsx, frame/StoreNotice.tsx. */}
      <StoreNotice notice={data.settings?.store_notice} onGone={() => title.current?.focus()} />
      <SiteHeader data={data} path={path} search={s ? s[1] : ''} cartCount={cartCount} titleRef={title} />
      <main id="content" className="site-main" tabIndex={-1}>
        {children}
      </main>
      {/* The same on every page but for a content page's own link: the
          server renders it once per key (lib/server-fragments.tsx). Hydrated
          after the page, in a task of its own (lib/hydrate-later.tsx). */}
      <Later>
      <ServerFragment
        tag="footer"
        props={{ className: 'site-footer', ref: footer, tabIndex: -1 }}
        cacheKey={() =>
          JSON.stringify([
            'footer',
            data.site.name,
            data.site.tagline,
            data.pages,
            pagePath,
            data.settings?.shop,
            data.year,
            user?.coming_soon_banner,
            data.settings?.consent?.banner,
          ])
        }
      >
        {() => (
          <>
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
                      <a href={p.url} aria-current={pagePath === p.url ? 'page' : undefined}>
                        {p.title}
                      </a>
                    </li>
                  ))}
                  {/* Reopens the consent banner (consent/ConsentBanner.tsx). */}
                  {data.settings?.consent?.banner && (
                    <li>
                      <button
                        type="button"
                        className="footer-link-button"
                        onClick={(e) => reopenBanner(e.currentTarget)}
                      >
                        Cookie settings
                      </button>
                    </li>
                  )}
                </ul>
              </nav>
              <FooterDetails name={data.site.name} shop={data.settings?.shop} pages={data.pages} year={data.year} />
              <ComingSoonBanner user={user} onGone={() => footer.current?.focus()} />
            </div>
          </>
        )}
      </ServerFragment>
      </Later>
      <QuickViewHost />
    </div>
  );
}
