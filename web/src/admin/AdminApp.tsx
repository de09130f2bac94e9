// The admin's frame: a skip link, the header (the shop, who is logged in,
// log out), the main menu and the current screen. A screen's code loads
// when it is first opened. After a move to another screen, focus goes to
// its heading, so keyboard and screen-reader users start there.

import { Component, lazy, Suspense, useEffect, useMemo, useRef, type ComponentType, type ReactNode } from 'react';
import type { AdminData } from './data';
import { BASE, Link, Router, useRouter } from './router';
import { resolve, screens, type Screen, type ScreenProps } from './screens';
import { PageContainer } from '../ui/PageContainer';
import './admin.css';

const loaded = new Map<Screen, ComponentType<ScreenProps>>();
function screenComponent(s: Screen): ComponentType<ScreenProps> {
  let c = loaded.get(s);
  if (!c) {
    c = lazy(s.load);
    loaded.set(s, c);
  }
  return c;
}

export function AdminApp({ data }: { data: AdminData }) {
  return (
    <Router>
      <Frame data={data} />
    </Router>
  );
}

function Frame({ data }: { data: AdminData }) {
  const { location } = useRouter();
  const found = resolve(location.path);
  const title = found ? found.screen.title : 'Not found';
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = `${title} ‹ ${data.site.name} — Shop admin`;
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [location.path, title, data.site.name]);
  const Screen = useMemo(() => (found ? screenComponent(found.screen) : null), [found?.screen]);
  const current = found?.screen.base ?? null;
  return (
    <div className="admin">
      <a className="skip-link screen-reader-text" href="#admin-main">
        Skip to content
      </a>
      <header className="admin-header">
        <a className="admin-header__site" href="/">
          {data.site.name}
          <span className="screen-reader-text"> (visit the shop)</span>
        </a>
        <span className="admin-header__user">
          {data.user.name} ({data.user.role === 'administrator' ? 'Administrator' : 'Shop manager'})
        </span>
        <a className="admin-header__logout" href={data.logout_url}>
          Log out
        </a>
      </header>
      <div className="admin-body">
        <nav className="admin-nav" aria-label="Shop admin">
          <ul>
            {screens
              .filter((s) => s.nav)
              .map((s) => (
                <li key={s.base}>
                  <Link to={BASE + (s.base ? s.base + '/' : '')} aria-current={s.base === current ? 'page' : undefined}>
                    {s.title}
                  </Link>
                </li>
              ))}
          </ul>
        </nav>
        <main id="admin-main" className="admin-main" tabIndex={-1}>
          <PageContainer className="admin-container">
            <h1 ref={heading} tabIndex={-1} className="admin-title">
              {title}
            </h1>
            <ErrorBoundary key={location.path}>
              <Suspense fallback={<p className="admin-loading">Loading…</p>}>
                {Screen && found ? (
                  <Screen data={data} params={found.params} location={location} />
                ) : (
                  <p>
                    There is no admin screen at this address. <Link to={BASE}>Go to the dashboard</Link>.
                  </p>
                )}
              </Suspense>
            </ErrorBoundary>
          </PageContainer>
        </main>
      </div>
    </div>
  );
}

/** A screen that fails to load (a new release replaced its chunk, the network dropped) says so. */
class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="admin-notice admin-notice--error">
        <p>This screen could not be shown. Reload the page to try again.</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
