import type { HomePage as HomeData } from '../types';
import { decodeEntities } from '../lib/format';
import { CategoryTiles } from '../ui/CategoryTiles';
import { ProductGrid } from '../listing/ProductGrid';
import { HeroCarousel } from './HeroCarousel';
import { PageContainer } from '../ui/PageContainer';
import { Later } from '../lib/hydrate-later';

/**
 * The home page. In the browser it is a chunk of its own (split/pages.ts),
 * with Embla: a product page never loads either. Its CSS (home.css) is in
 * the first stylesheet, so the server's HTML is laid out at first paint.
 */
export function HomePage({ data }: { data: HomeData }) {
  const slides = data.slides || [];
  const name = decodeEntities(data.site.name);
  const tagline = data.site.tagline ? decodeEntities(data.site.tagline) : '';
  return (
    <>
      {slides.length > 0 ? (
        <div className="home-hero">
          <PageContainer>
            <div className="home-intro">
              <h1 className="home-intro__title">{name}</h1>
              {tagline && <p className="home-intro__tagline">{tagline}</p>}
              <a className="home-intro__link" href="/shop/">
                Shop now
              </a>
            </div>
            <Later>
              <HeroCarousel slides={slides} />
            </Later>
          </PageContainer>
        </div>
      ) : (
        <section className="hero" aria-labelledby="hero-title">
          <PageContainer className="hero-inner">
            <p className="hero-eyebrow">New season</p>
            <h1 id="hero-title" className="hero-title">
              {name}
            </h1>
            {tagline && <p className="hero-tagline">{tagline}</p>}
            <a className="button button-primary hero-cta" href="/shop/">
              Shop now
            </a>
          </PageContainer>
        </section>
      )}
      <PageContainer className="home">
        {/* Each section, and each card in it, hydrates in a task of its own
            after the page's first pass (lib/hydrate-later.tsx). */}
        {data.featured.length > 0 && (
          <Later>
          <section className="home-section" aria-labelledby="home-featured">
            <div className="section-head">
              <h2 id="home-featured">Featured</h2>
              <a href="/shop/" className="section-link">
                View all<span className="screen-reader-text"> products</span>
              </a>
            </div>
            {/* Below the hero: its images wait (the hero's first image is the page's largest paint). */}
            <ProductGrid products={data.featured} headingLevel={3} eagerCount={slides.length > 0 ? 0 : 4} />
          </section>
          </Later>
        )}
        {data.categories.length > 0 && (
          <Later>
          <section className="home-section" aria-labelledby="home-categories">
            <div className="section-head">
              <h2 id="home-categories">Shop by category</h2>
            </div>
            <CategoryTiles categories={data.categories} headingLevel={3} />
          </section>
          </Later>
        )}
        {data.latest.length > 0 && (
          <Later>
          <section className="home-section" aria-labelledby="home-latest">
            <div className="section-head">
              <h2 id="home-latest">New arrivals</h2>
              <a href="/shop/?orderby=date" className="section-link">
                View all<span className="screen-reader-text"> new arrivals</span>
              </a>
            </div>
            <ProductGrid products={data.latest} headingLevel={3} eagerCount={slides.length === 0 && data.featured.length === 0 ? 4 : 0} />
          </section>
          </Later>
        )}
      </PageContainer>
    </>
  );
}
