// Test fixtures built from real WooCommerce 11 Store API responses
// (/work/shared/reference/woocommerce-11-responses), plus the fields Vitrine adds.
import raw from './store-api-products.json';
import rawVariation from './wc-ajax-get_variation.json';
import type {
  AccountSecurityPage,
  CartItem,
  ContentPageData,
  CurrencyBlock,
  HeroSlide,
  HomePage,
  ListingPage,
  NotFoundPage,
  PageData,
  ProductPage,
  Settings,
  Site,
  StoreCategory,
  StoreProduct,
  SwatchAttribute,
  Variation,
} from '../types';

type RawProduct = Omit<StoreProduct, 'images'> & { images: Omit<StoreProduct['images'][number], 'width' | 'height'>[] };

/** Store API products with our width/height additions and site-relative permalinks. */
export const products: StoreProduct[] = (raw as unknown as RawProduct[]).map((p) => ({
  ...p,
  permalink: p.permalink.replace('https://shop.example', ''),
  images: p.images.map((im) => ({ ...im, width: 800, height: 800 })),
}));

export function product(id: number): StoreProduct {
  const p = products.find((x) => x.id === id);
  if (!p) throw new Error('no fixture product ' + id);
  return structuredClone(p);
}

export const site: Site = {
  name: 'Vitrine',
  tagline: 'Everyday clothing, made to last.',
  currency: {
    currency_code: 'EUR',
    currency_symbol: '€',
    currency_minor_unit: 2,
    currency_decimal_separator: '.',
    currency_thousand_separator: ',',
    currency_prefix: '€',
    currency_suffix: '',
  },
};

/** US dollars as the Store API describes a currency (the cart and checkout tests' currency). */
export const usd: CurrencyBlock = {
  currency_code: 'USD',
  currency_symbol: '$',
  currency_minor_unit: 2,
  currency_decimal_separator: '.',
  currency_thousand_separator: ',',
  currency_prefix: '$',
  currency_suffix: '',
};

/** Euros written the German way: decimal comma, thousands dot, the symbol after a no-break space. */
export const eurDE: CurrencyBlock = {
  currency_code: 'EUR',
  currency_symbol: '€',
  currency_minor_unit: 2,
  currency_decimal_separator: ',',
  currency_thousand_separator: '.',
  currency_prefix: '',
  currency_suffix: '\u00a0€',
};

/**
 * One Store API cart line in dollars: `price` is the unit price in cents and
 * the line totals are price × quantity; `over` replaces any other field.
 */
export function cartLine(key: string, name: string, quantity: number, price = 2200, over: Partial<CartItem> = {}): CartItem {
  const unit = String(price);
  const total = String(price * quantity);
  return {
    key,
    id: 11,
    quantity,
    name,
    permalink: '/product/x/',
    images: [],
    variation: [],
    prices: { ...usd, price: unit, regular_price: unit, sale_price: unit, price_range: null },
    totals: { ...usd, line_subtotal: total, line_total: total },
    ...over,
  };
}

export const settings: Settings = {
  infinite_scroll: { type: 'spinner', history: 'push', scroll_threshold: 400, fade_in_duration: 300 },
  zoom: false,
  lightbox: true,
  search_min_chars: 3,
  clear_on_reselect: false,
  clickable_out_of_stock: false,
  deselect_conflicting: false,
};

export const nav = [
  {
    id: 15,
    name: 'Clothing',
    url: '/product-category/clothing/',
    count: 14,
    children: [
      { id: 17, name: 'Tshirts', url: '/product-category/clothing/tshirts/', count: 5, children: [] },
      { id: 18, name: 'Hoodies', url: '/product-category/clothing/hoodies/', count: 4, children: [] },
    ],
  },
  { id: 16, name: 'Accessories', url: '/product-category/clothing/accessories/', count: 5, children: [] },
  { id: 19, name: 'Music', url: '/product-category/music/', count: 2, children: [] },
];

export const categories: StoreCategory[] = [
  {
    id: 15,
    name: 'Clothing',
    slug: 'clothing',
    description: '',
    parent: 0,
    count: 14,
    image: { ...products[4].images[0] },
    review_count: 0,
    permalink: '/product-category/clothing/',
  },
  {
    id: 19,
    name: 'Music',
    slug: 'music',
    description: '',
    parent: 0,
    count: 2,
    image: null,
    review_count: 0,
    permalink: '/product-category/music/',
  },
];

/** What every page's data has: its kind, the site, its address, the category menu and the settings. */
export function pageFrame<P extends PageData['page']>(page: P, url: string, shop: Site = site) {
  return { page, site: shop, url, nav, settings };
}

export function homePage(): HomePage {
  return {
    ...pageFrame('home', '/'),
    slides: heroSlides,
    featured: products.slice(0, 6),
    latest: products.slice(6, 12),
    categories,
  };
}

export const heroSlides: HeroSlide[] = [
  { title: 'Clothing', text: 'Everyday clothes.', url: '/product-category/clothing/', cta: 'Shop Clothing', image: { ...products[4].images[0] } },
  { title: 'Caf&#233; things', text: 'For the table.', url: '/product-category/cafe/', cta: 'Shop Caf&#233; things', image: { ...products[5].images[0] } },
  { title: 'Prints', text: '', url: '/product-category/prints/', cta: 'Shop Prints', image: { ...products[6].images[0] } },
];

export function listingPage(over: Partial<ListingPage> = {}): ListingPage {
  return {
    ...pageFrame('listing', '/shop/page/2/?orderby=price'),
    title: 'Shop',
    description: '<p>All our <strong>things</strong>.</p>',
    breadcrumbs: [
      { name: 'Home', url: '/' },
      { name: 'Shop', url: '/shop/' },
    ],
    products: products.slice(0, 9),
    total: 40,
    page_number: 2,
    total_pages: 5,
    orderby: 'price',
    base: '/shop/',
    subcategories: [],
    filters: {
      applied: 0,
      counted: true,
      price_range: { min: 1000, max: 4500, chosen_min: null, chosen_max: null },
      attributes: [],
      ratings: [],
      stock_status: [],
      on_sale: { value: '1', label: 'On sale', count: 0, selected: false, disabled: true },
    },
    ...over,
  };
}

const baseVariation = rawVariation as unknown as Variation;

/** A purchasable, in-stock, visible colour × size variation built on the real get_variation answer. */
export const colourSizeVariation = (id: number, color: string, size: string, over: Partial<Variation> = {}): Variation => ({
  ...baseVariation,
  variation_id: id,
  attributes: { attribute_pa_color: color, attribute_pa_size: size },
  is_in_stock: true,
  is_purchasable: true,
  variation_is_visible: true,
  is_pre_order: 'no',
  pre_order_label: '',
  pre_order_date: '',
  variation_stock_left: null,
  ...over,
});

/** The swatches of a colour × size product: colours as [slug, name, hex], sizes as slugs (named in capitals). */
export function colourSizeSwatches(colours: [slug: string, name: string, hex: string][], sizes: string[]): SwatchAttribute[] {
  return [
    { key: 'pa_color', name: 'Color', type: 'color', options: colours.map(([slug, name, color]) => ({ slug, name, color, image: '' })) },
    { key: 'pa_size', name: 'Size', type: 'label', options: sizes.map((s) => ({ slug: s, name: s.toUpperCase(), color: '', image: '' })) },
  ];
}

export function productPage(id = 16, over: Partial<ProductPage> = {}): ProductPage {
  const p = product(id);
  const variations: Variation[] =
    p.type === 'variable'
      ? p.variations.slice(0, 3).map((v) => ({
          ...baseVariation,
          variation_id: v.id,
          attributes: Object.fromEntries(
            v.attributes.map((a) => ['attribute_pa_' + a.name.toLowerCase(), a.value]),
          ),
        }))
      : [];
  return {
    ...pageFrame('product', new URL(p.permalink, 'https://x').pathname),
    product: p,
    breadcrumbs: [
      { name: 'Home', url: '/' },
      ...p.categories.map((c) => ({ name: c.name, url: c.link.replace('https://shop.example', '') })),
      { name: p.name, url: p.permalink },
    ],
    variations,
    variations_total: p.variations.length,
    swatches: p.attributes
      .filter((a) => a.has_variations)
      .map((a) => ({
        key: a.taxonomy || a.name.toLowerCase(),
        name: a.name,
        type: 'select' as const,
        options: a.terms.map((t) => ({ slug: t.slug, name: t.name, color: '', image: '' })),
      })),
    additional: [
      { label: 'Weight', value: p.formatted_weight || '0.2 lbs' },
      ...p.attributes.map((a) => ({ label: a.name, value: a.terms.map((t) => t.name).join(', ') })),
    ],
    reviews: [
      {
        id: 101,
        reviewer: 'Ana &amp; Bo',
        review: '<p>Lovely fabric, fits well.</p>',
        rating: 4,
        verified: true,
        date_created: '2026-11-02T09:30:00+00:00',
        formatted_date_created: '',
      },
    ],
    review_paging: { page: 1, pages: 1, total: 1, per_page: 10 },
    rating_counts: [0, 0, 0, 1, 0],
    review_form: { action: '/wp-comments-post.php', product_id: p.id, ratings_required: true, verified_only: false, botcheck: '/wp-json/vitrine/v1/botcheck/review' },
    pending_reviews: [],
    related: products.filter((x) => x.id !== id).slice(0, 4),
    upsells: products.filter((x) => x.id !== id).slice(4, 7),
    grouped: p.type === 'grouped' ? p.grouped_products.map((g) => product(g)) : [],
    ...over,
  };
}

/** The two-factor security page of a customer without two-factor, with overrides. */
export function securityPage(over: Partial<AccountSecurityPage> = {}): AccountSecurityPage {
  return {
    ...pageFrame('account-security', '/my-account/security/'),
    logout_url: '/my-account/customer-logout/?_wpnonce=abc',
    email: 'ada@example.com',
    two_factor: false,
    recovery_codes_left: 0,
    enrollment: null,
    recovery_codes: null,
    devices: [],
    nonces: { enroll: 'n-enroll', confirm: 'n-confirm', 'new-codes': 'n-codes', disable: 'n-disable', 'forget-device': 'n-dev', 'forget-all': 'n-all' },
    notice: null,
    errors: {},
    ...over,
  };
}

/** A two-factor enrolment in progress, as the security page shows it. */
export const securityEnrollment = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  secret_groups: ['JBSW', 'Y3DP', 'EHPK', '3PXP', 'JBSW', 'Y3DP', 'EHPK', '3PXP'],
  qr: 'data:image/png;base64,iVBORw0KGgo=',
  otpauth_url: 'otpauth://totp/Vitrine:ada@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Vitrine',
};

export function notFoundPage(): NotFoundPage {
  return pageFrame('notfound', '/nope/');
}

/** A content page with a lazy video, as internal/pages.Content shapes it, and footer page links. */
export function contentPage(over: Partial<ContentPageData> = {}): ContentPageData {
  const video =
    '<div class="lazy-video lazy-video--youtube" data-provider="youtube" data-title="About us">' +
    '<div class="lazy-video__poster" aria-hidden="true"><span class="lazy-video__title">About us</span><span class="lazy-video__provider">YouTube</span></div>' +
    '<button type="button" class="lazy-video__play"><span class="lazy-video__icon" aria-hidden="true"></span><span class="lazy-video__label">Play video: About us</span></button>' +
    '<a class="lazy-video__link" href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" rel="nofollow">Watch “About us” on YouTube</a>' +
    '<template class="lazy-video__player"><iframe data-src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0" title="About us (YouTube video player)"></iframe></template></div>';
  return {
    ...pageFrame('content', '/about/'),
    pages: [
      { title: 'About us', url: '/about/' },
      { title: 'Terms and conditions', url: '/terms/' },
    ],
    breadcrumbs: [
      { name: 'Home', url: '/' },
      { name: 'About us', url: '/about/' },
    ],
    content: { slug: 'about', title: 'About us', html: '<p>We sew &amp; knit.</p>' + video, modified: 'May 1, 2026' },
    ...over,
  };
}

export function allPages(): [string, PageData][] {
  return [
    ['home', homePage()],
    ['listing', listingPage()],
    ['listing-empty', listingPage({ products: [], total: 0, total_pages: 0, page_number: 1 })],
    ['product-simple', productPage(16)],
    ['product-variable', productPage(59)],
    ['product-grouped', productPage(34)],
    ['product-external', productPage(35)],
    ['notfound', notFoundPage()],
    ['content', contentPage()],
  ];
}
