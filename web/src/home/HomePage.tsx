import type { HomePage as HomeData } from '../types';
import { decodeEntities } from '../lib/format';
import { CategoryTiles } from '../ui/CategoryTiles';
import { ProductGrid } from '../listing/ProductGrid';

export function HomePage({ data }: { data: HomeData }) {
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-inner">
          <p className="hero-eyebrow">New season</p>
          <h1 id="hero-title" className="hero-title">
            {decodeEntities(data.site.name)}
          </h1>
          {data.site.tagline && <p className="hero-tagline">{decodeEntities(data.site.tagline)}</p>}
          <a className="button button-primary hero-cta" href="/shop/">
            Shop now
          </a>
        </div>
      </section>
      <div className="container home">
        {data.categories.length > 0 && (
          <section className="home-section" aria-labelledby="home-categories">
            <div className="section-head">
              <h2 id="home-categories">Shop by category</h2>
            </div>
            <CategoryTiles categories={data.categories} headingLevel={3} />
          </section>
        )}
        {data.featured.length > 0 && (
          <section className="home-section" aria-labelledby="home-featured">
            <div className="section-head">
              <h2 id="home-featured">Featured</h2>
              <a href="/shop/" className="section-link">
                View all<span className="screen-reader-text"> products</span>
              </a>
            </div>
            <ProductGrid products={data.featured} headingLevel={3} />
          </section>
        )}
        {data.latest.length > 0 && (
          <section className="home-section" aria-labelledby="home-latest">
            <div className="section-head">
              <h2 id="home-latest">New arrivals</h2>
              <a href="/shop/?orderby=date" className="section-link">
                View all<span className="screen-reader-text"> new arrivals</span>
              </a>
            </div>
            <ProductGrid products={data.latest} headingLevel={3} eagerCount={data.featured.length > 0 ? 0 : 4} />
          </section>
        )}
      </div>
    </>
  );
}
