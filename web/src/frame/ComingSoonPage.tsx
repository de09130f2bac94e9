import type { ComingSoonPage as ComingSoonData } from '../types';
import { decodeEntities } from '../lib/format';
import './coming-soon.css';

/**
 * What visitors see while the shop is in coming-soon mode (the server
 * answers it 503 on every storefront path): the shop's name, a short
 * message and the way in for staff. No menu, no search, no cart: the
 * shop is not open.
 */
export function ComingSoonPage({ data }: { data: ComingSoonData }) {
  const name = decodeEntities(data.site.name);
  return (
    <div className="site coming-soon-page">
      <header className="coming-soon-page__header">
        <p className="coming-soon-page__name">{name}</p>
      </header>
      <main id="content" className="coming-soon-page__main" tabIndex={-1}>
        <h1>Coming soon</h1>
        {data.site.tagline && <p className="coming-soon-page__tagline">{decodeEntities(data.site.tagline)}</p>}
        <p>We are getting the shop ready. Please come back soon.</p>
      </main>
      <footer className="coming-soon-page__footer">
        <p>
          Shop staff: <a href="/my-account/">log in</a> to see the shop.
        </p>
      </footer>
    </div>
  );
}
