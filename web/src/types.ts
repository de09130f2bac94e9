// The data the Go server inlines into every page (and the Store API shapes
// it reuses). The server is the source of truth: internal/storeapi and
// internal/pages build these objects. Keep both sides in step.

import type { SWVSchema } from './contact/swv';

/** Store API "currency block"; amounts are strings of integer minor units. */
export interface CurrencyBlock {
  currency_code: string;
  currency_symbol: string;
  currency_minor_unit: number;
  currency_decimal_separator: string;
  currency_thousand_separator: string;
  currency_prefix: string;
  currency_suffix: string;
}

export interface StoreImage {
  id: number;
  src: string;
  thumbnail: string;
  srcset: string;
  sizes: string;
  thumbnail_srcset: string;
  thumbnail_sizes: string;
  name: string;
  alt: string;
  /** Our additions: intrinsic size of src, so layout never shifts. */
  width: number;
  height: number;
}

export interface StorePrices extends CurrencyBlock {
  price: string;
  regular_price: string;
  sale_price: string;
  price_range: { min_amount: string; max_amount: string } | null;
}

export interface TermRef {
  id: number;
  name: string;
  slug: string;
  link: string;
}

export interface StoreAttribute {
  id: number; // 0 for a local attribute
  name: string;
  taxonomy: string | null;
  has_variations: boolean;
  terms: { id: number; name: string; slug: string; default: boolean }[];
}

export interface StoreProduct {
  /**
   * A page's cards only (never the Store API): a digest of the product's
   * data, naming its card's cached HTML on the server (cardsKey()).
   */
  card_key?: string;
  id: number;
  name: string;
  slug: string;
  parent: number;
  type: 'simple' | 'variable' | 'grouped' | 'external' | 'variation';
  variation: string;
  permalink: string;
  sku: string;
  short_description: string; // HTML from the catalogue
  description: string; // HTML from the catalogue
  on_sale: boolean;
  prices: StorePrices;
  price_html: string;
  average_rating: string;
  review_count: number;
  images: StoreImage[];
  categories: TermRef[];
  tags: TermRef[];
  brands: TermRef[];
  attributes: StoreAttribute[];
  variations: { id: number; attributes: { name: string; value: string }[] }[];
  grouped_products: number[];
  has_options: boolean;
  is_purchasable: boolean;
  is_in_stock: boolean;
  is_on_backorder: boolean;
  low_stock_remaining: number | null;
  stock_availability: { text: string; class: string };
  sold_individually: boolean;
  weight: string;
  dimensions: { length: string; width: string; height: string };
  formatted_weight: string;
  formatted_dimensions: string;
  add_to_cart: {
    text: string;
    description: string;
    url: string;
    single_text: string;
    minimum: number;
    maximum: number;
    multiple_of: number;
  };
  extensions: Record<string, unknown>;
}

export interface StoreCategory {
  id: number;
  name: string;
  slug: string;
  description: string;
  parent: number;
  count: number;
  image: StoreImage | null;
  review_count: number;
  permalink: string;
}

/** A WooCommerce variation object (get_variation / data-product_variations). */
export interface VariationImage {
  title: string;
  caption: string;
  url: string;
  alt: string;
  src: string;
  srcset: string;
  sizes: string;
  full_src: string;
  full_src_w: number;
  full_src_h: number;
  gallery_thumbnail_src: string;
  gallery_thumbnail_src_w: number;
  gallery_thumbnail_src_h: number;
  thumb_src: string;
  thumb_src_w: number;
  thumb_src_h: number;
  src_w: number;
  src_h: number;
}

export interface Variation {
  attributes: Record<string, string>; // attribute_pa_color -> slug ("" = any)
  availability_html: string;
  backorders_allowed: boolean;
  dimensions: { length: string; width: string; height: string };
  dimensions_html: string;
  display_price: number;
  display_regular_price: number;
  image: VariationImage;
  image_id: number;
  image_link: string;
  image_src: string;
  is_downloadable: boolean;
  is_in_stock: boolean;
  is_purchasable: boolean;
  is_sold_individually: 'yes' | 'no';
  is_virtual: boolean;
  max_qty: number | '';
  min_qty: number;
  price_html: string;
  sku: string;
  variation_description: string;
  variation_id: number;
  variation_is_active: boolean;
  variation_is_visible: boolean;
  variation_stock_left: number | null;
  is_pre_order: 'yes' | 'no';
  pre_order_label: string;
  pre_order_date: string; // RFC 3339, "" when none
  weight: string;
  weight_html: string;
}

/** Swatch data for one attribute of a variable product. */
export interface SwatchAttribute {
  key: string; // "pa_color" or sanitized local name
  name: string; // "Color"
  type: 'select' | 'color' | 'image' | 'label';
  options: { slug: string; name: string; color: string; image: string }[];
}

export interface Review {
  id: number;
  reviewer: string;
  review: string; // HTML-escaped plain text paragraphs
  rating: number;
  verified: boolean;
  date_created: string; // RFC 3339
  formatted_date_created: string;
  /** Held for moderation: shown to its author only, with "Your review is awaiting approval". */
  pending?: boolean;
  /** The shop's answer, shown under the review in the shop's name. */
  reply?: ReviewReply;
}

export interface ReviewReply {
  author: string;
  reply: string; // HTML-escaped plain text paragraphs
  date_created: string; // RFC 3339
  formatted_date_created: string;
}

/** The review form's settings; null when the product does not accept reviews. */
export interface ReviewFormSettings {
  /** WordPress's comment endpoint, /wp-comments-post.php. */
  action: string;
  product_id: number;
  ratings_required: boolean;
  /** Only logged-in customers who bought the product may review: guests see the notice. */
  verified_only: boolean;
  /** On a logged-in viewer's page under verified_only: whether they bought
   * the product (false shows the notice instead of the form); null on shared pages. */
  eligible?: boolean | null;
  /** The ALTCHA challenge URL (purpose "review"). */
  botcheck: string;
}

/** Where the page is in the product's approved reviews (10 a page, newest first). */
export interface ReviewPaging {
  page: number;
  pages: number;
  total: number;
  per_page: number;
}

export interface Crumb {
  name: string;
  url: string;
}

export interface NavCategory {
  id: number;
  name: string;
  url: string;
  count: number;
  children: NavCategory[];
}

export interface Site {
  name: string;
  tagline: string;
  currency: CurrencyBlock;
}

/** Storefront behaviour switches (spec sections 3 and 9), set by the shop. */
export interface Settings {
  infinite_scroll: {
    /** spinner: load within scroll_threshold px of the bottom; button: "View more"; off: paging links only. */
    type: 'spinner' | 'button' | 'off';
    /** How the URL follows appended pages. */
    history: 'push' | 'replace';
    scroll_threshold: number;
    fade_in_duration: number;
  };
  /** Hover zoom on the product gallery (spec default off). */
  zoom: boolean;
  /** Full-screen lightbox for gallery images (spec default on). */
  lightbox: boolean;
  /** The page loader overlay (spec section 9; default off). */
  page_loader?: boolean;
  /** Live search starts at this many characters (spec: 3). */
  search_min_chars: number;
  /** Clicking the selected swatch clears the choice (spec section 4; default off). */
  clear_on_reselect: boolean;
  /** Out-of-stock swatches can be picked (default off: crossed out and not clickable). */
  clickable_out_of_stock: boolean;
  /** Choosing a value unavailable with the other choices clears them instead of being refused (default off). */
  deselect_conflicting: boolean;
  /**
   * Order attribution (spec sections 3, 4 and 9): first-party sbjs_* cookies
   * with a 30-minute session; lifetime in 30-day months (may be fractional).
   * Absent: enabled with 6 months. Disabled: the storefront deletes the cookies.
   */
  attribution?: { enabled: boolean; lifetime_months: number };
  /**
   * The consent banner (internal/consent, consent/consent.ts): with it on,
   * nothing non-essential is stored before the shopper accepts. The same
   * for every viewer: the browser reads the shopper's choice.
   */
  consent?: { banner: boolean };
  /** The PayPal wallet is on: its buttons show on the product page, the cart and the checkout. */
  wallet?: boolean;
  /**
   * Multi-currency: the enabled currencies, base first, for the
   * switcher; absent or one entry: no switcher. Identical for every shopper
   * (cached pages are shared by all currencies).
   */
  currencies?: SwitcherCurrency[];
  /** The shop's base currency code (absent: site.currency.currency_code). */
  base_currency?: string;
  /** The page's viewer (spec section 3: user.can_edit_pages is false for visitors). Shared pages carry the visitor value; a logged-in viewer's comes in their part (lib/viewer.tsx). */
  user?: ViewerSettings;
  /**
   * Lazy videos: the player loads on a press of Play (press), or
   * also near the viewport (viewport; phones and Safari after a first touch
   * or delay_ms). Absent: press.
   */
  video?: { load: 'press' | 'viewport'; delay_ms: number };
  /** The stuck header's height in px (spec section 3: sticky_height 70). */
  sticky_height?: number;
  /** Hide the stuck header while scrolling down, show it scrolling up (spec section 4; default off). */
  header_hide_on_scroll?: boolean;
  /** The shop's store notice (absent: none); html is sanitized by the server. */
  store_notice?: StoreNoticeSettings;
  /** The footer's shop details (internal/pages/footer.go). */
  shop?: ShopDetails;
}

/** settings.shop: the contact details and profiles staff set, and the payment methods offered. */
export interface ShopDetails {
  /** The postal address, a line each (empty: none). */
  address_lines: string[];
  email?: string;
  phone?: string;
  social: SocialLink[];
  /** Payment method ids the checkout offers: bacs, cod, paypal. */
  payments: string[];
}

export interface SocialLink {
  network: 'facebook' | 'instagram' | 'x' | 'pinterest' | 'youtube' | 'tiktok';
  label: string;
  url: string;
}

/** settings.store_notice: dismissed with the cookie store_notice<id>=hidden (path /). */
export interface StoreNoticeSettings {
  /** WooCommerce's notice id: the MD5 of the notice, so a new text shows again. */
  id: string;
  html: string;
}

/** One enabled currency as the switcher shows it. */
export interface SwitcherCurrency {
  code: string;
  name?: string;
  symbol: string;
  position?: string;
  decimals?: number;
  decimal_separator?: string;
  thousand_separator?: string;
}

/** settings.user: a visitor is { logged_in: false, can_edit_pages: false }. */
export interface ViewerSettings {
  logged_in: boolean;
  /** Shop managers and administrators: content blocks show edit links. */
  can_edit_pages: boolean;
  id?: number;
  display_name?: string;
  /** The header's log-out link, with its nonce. */
  logout_url?: string;
  /** The wp_rest nonce: X-WP-Nonce of the viewer's REST calls (lib/rest.ts). */
  rest_nonce?: string;
  /** Set for staff while the shop is in coming-soon mode and the banner is not dismissed. */
  coming_soon_banner?: { rest_url: string; rest_nonce: string };
}

/** A content block's edit links for staff (spec: a visual builder link and a backend editor link). */
export interface EditLink {
  /** Which block they belong to: the product summary, the category description or a content page. */
  block: 'product' | 'category' | 'page';
  /** "Edit <name>". */
  label: string;
  builder_url: string;
  editor_url: string;
}

interface PageBase {
  site: Site;
  /** Request path and query, e.g. "/shop/page/2/?orderby=price". */
  url: string;
  nav: NavCategory[];
  settings: Settings;
  /** Content blocks' edit links: for staff, in their part of a shared page (lib/viewer.tsx) or on a page rendered for them. */
  edit_links?: EditLink[];
  /** The shop's published content pages, linked from the footer (absent: none). */
  pages?: PageLink[];
  /** The footer's © year, from the server's clock when the page was rendered. */
  year?: number;
}

/** A published content page (about, shipping, returns, terms). */
export interface PageLink {
  title: string;
  url: string;
}

/** One slide of the home's hero carousel (internal/pages/home.go: the top-level categories with a picture). */
export interface HeroSlide {
  /** Catalogue text (HTML entities allowed). */
  title: string;
  /** Plain text. */
  text: string;
  url: string;
  /** The link's text (HTML entities allowed). */
  cta: string;
  image: StoreImage | null;
}

export interface HomePage extends PageBase {
  page: 'home';
  /** The hero carousel's slides; empty: a plain hero. */
  slides: HeroSlide[];
  featured: StoreProduct[];
  latest: StoreProduct[];
  categories: StoreCategory[];
}

export type OrderBy = 'menu_order' | 'popularity' | 'rating' | 'date' | 'price' | 'price-desc';

export interface ListingPage extends PageBase {
  page: 'listing';
  title: string;
  description: string; // HTML (category description)
  breadcrumbs: Crumb[];
  products: StoreProduct[];
  total: number;
  page_number: number;
  total_pages: number;
  orderby: OrderBy;
  /** Base path of the listing ("/shop/" or "/product-category/clothing/"), page links are base + "page/N/". */
  base: string;
  /** Subcategories to show above the products (category pages). */
  subcategories: StoreCategory[];
  /** Search results without any: the query with its typos corrected, when a correction finds products. */
  did_you_mean?: string;
  /** The filter sidebar's options with their counts. */
  filters: ListingFilters;
}

/**
 * A listing's filters. The URL is the state (WooCommerce's names):
 * filter_<slug>=a,b (+ query_type_<slug>=or for "any"), min_price and
 * max_price (major units), rating_filter=4,5, filter_stock_status=instock,
 * on_sale=1. Each option's count is what choosing it would leave given the
 * other filters chosen; disabled options leave none (and are not chosen).
 */
export interface ListingFilters {
  /** Filters chosen: an attribute, the ratings, the stock statuses, on sale and the price each count once. */
  applied: number;
  /** False when the listing was too large to count as it rendered: counts are 0, nothing disabled, the price range null. */
  counted: boolean;
  price_range: ListingPriceRange;
  attributes: ListingFilterAttribute[];
  /** 5 down to 1 star. */
  ratings: ListingFilterOption[];
  /** instock, outofstock, onbackorder. */
  stock_status: ListingFilterOption[];
  on_sale: ListingFilterOption;
}

/** Minor units of the base currency; min/max: the result's range without the price filter (null: nothing priced); chosen_*: the URL's bounds. */
export interface ListingPriceRange {
  min: number | null;
  max: number | null;
  chosen_min: number | null;
  chosen_max: number | null;
}

export interface ListingFilterAttribute {
  id: number;
  name: string;
  /** The URL's filter_<slug>. */
  slug: string;
  taxonomy: string;
  /** Swatch type: 'color' swatches, 'label' chips, else checkboxes. */
  display: 'select' | 'color' | 'image' | 'label';
  /** What a chosen term's link writes: 'or' adds query_type_<slug>=or. */
  query_type: 'or' | 'and';
  options: ListingFilterOption[];
}

export interface ListingFilterOption {
  /** What the URL carries: a term slug, a rating "4", a stock status, "1" for on sale. */
  value: string;
  label: string;
  count: number;
  selected: boolean;
  disabled: boolean;
  /** A colour swatch's colour. */
  color?: string;
}

export interface ProductPage extends PageBase {
  page: 'product';
  product: StoreProduct;
  breadcrumbs: Crumb[];
  /** Full variation objects when the product has at most the threshold (30); otherwise empty and fetched with get_variation. */
  variations: Variation[];
  variations_total: number;
  swatches: SwatchAttribute[];
  /** Attributes shown in the "Additional information" tab. */
  additional: { label: string; value: string }[];
  reviews: Review[];
  review_paging: ReviewPaging;
  /** Approved reviews by stars: [0] is one star. */
  rating_counts: number[];
  review_form: ReviewFormSettings | null;
  /** The viewer's held reviews (pages rendered for them alone). */
  pending_reviews: Review[];
  related: StoreProduct[];
  upsells: StoreProduct[];
  grouped: StoreProduct[];
  /**
   * Above the threshold (variations not embedded): every visible variation's
   * values (attribute key -> slug, "" = any) with its stock status, never a
   * count. Empty when the variations are embedded.
   */
  variation_availability?: VariationAvailability[];
}

/** What a cached product page shows of one variation's stock (status only). */
export interface VariationAvailability {
  id: number;
  attributes: Record<string, string>;
  in_stock: boolean;
  purchasable: boolean;
}

/** The cart page (/cart/): rendered per request with the visitor's cart, never cached. */
export interface CartPage extends PageBase {
  page: 'cart';
  cart: StoreCart;
  /** The Store API nonce of the visitor's session (Nonce header of cart writes). */
  nonce: string;
  /** The session's _wpnonce for the remove links without scripts. */
  remove_nonce?: string;
  /** Notices of the visitor's last cart change without scripts (text with WooCommerce's HTML entities). */
  notices?: { kind: 'message' | 'error'; text: string }[];
  /**
   * "You may also like": the cart lines' cross-sells not in the cart,
   * published, purchasable and in stock, at most 4, as listing cards with
   * prices in the shopper's currency (absent in older test data: none).
   */
  cross_sells?: StoreProduct[];
}

/**
 * The cart's extensions["vitrine/free-shipping"]: how far the items are from
 * the zone's free-shipping minimum, by the rule that offers the rate. Minor
 * units of the cart's currency. Absent when the zone has no minimum.
 */
export interface FreeShippingProgress extends CurrencyBlock {
  min_amount: string;
  amount: string;
  remaining: string;
  reached: boolean;
}

export interface NotFoundPage extends PageBase {
  page: 'notfound';
}

/**
 * The quick-view popup: a product page's data rendered as the quick-view
 * content only (no layout). The server renders it through the same bundle to
 * answer admin-ajax action=flatsome_quickview (protocol-notes section 5).
 */
export interface QuickViewPage extends Omit<ProductPage, 'page'> {
  page: 'quickview';
}

/** One live-search suggestion (admin-ajax action=flatsome_ajax_search_products, protocol-notes section 6). */
export interface SearchSuggestion {
  type?: 'Product' | 'Page' | string;
  /** -1: the "No results" entry, never navigated to. */
  id: number;
  /** The product name (plain text). */
  value: string;
  url: string;
  img?: string;
  /** Price HTML generated by the server. */
  price?: string;
}

/** One line of a Store API cart (the optional fields are sent but not read by the storefront). */
export interface CartItem {
  key: string;
  id: number;
  type?: string;
  quantity: number;
  name: string;
  short_description?: string;
  description?: string;
  sku?: string;
  low_stock_remaining?: number | null;
  backorders_allowed?: boolean;
  show_backorder_badge?: boolean;
  sold_individually?: boolean;
  permalink: string;
  images: StoreImage[];
  variation: { attribute: string; value: string }[];
  item_data?: unknown[];
  /** raw_prices: the amounts at WooCommerce's 6-digit precision. */
  prices: StorePrices & { raw_prices?: { precision: number; price: string; regular_price: string; sale_price: string } };
  totals: CurrencyBlock & { line_subtotal: string; line_subtotal_tax?: string; line_total: string; line_total_tax?: string };
  quantity_limits?: { minimum: number; maximum: number; multiple_of: number; editable: boolean };
  catalog_visibility?: string;
  extensions?: Record<string, unknown>;
}

/** A Store API shipping rate (one choice of one package). */
export interface ShippingRate extends CurrencyBlock {
  rate_id: string;
  name: string;
  description: string;
  delivery_time: string;
  price: string;
  taxes: string;
  instance_id: number;
  method_id: string;
  meta_data?: unknown[];
  selected: boolean;
}

/** A Store API shipping package with its rates. */
export interface ShippingPackage {
  package_id: number;
  name: string;
  destination?: Partial<Address>;
  items: { key: string; name: string; quantity: number }[];
  shipping_rates: ShippingRate[];
}

/** A coupon applied to a Store API cart. */
export interface CartCoupon {
  code: string;
  discount_type: string;
  totals: CurrencyBlock & { total_discount: string; total_discount_tax: string };
}

/**
 * A Store API cart object. The server sends every field on every cart
 * object; the optional ones the storefront does not read, or only some of
 * its tests' data carries.
 */
export interface StoreCart {
  items: CartItem[];
  items_count: number;
  items_weight?: number;
  /** The coupons applied (absent in older test data: none). */
  coupons?: CartCoupon[];
  fees?: unknown[];
  totals: CurrencyBlock & {
    total_items: string;
    total_items_tax?: string;
    total_fees?: string;
    total_fees_tax?: string;
    total_price: string;
    total_discount?: string;
    total_discount_tax?: string;
    /** Checkout reads these (the server sends them on every cart object). */
    total_shipping?: string | null;
    total_shipping_tax?: string;
    total_tax?: string;
    tax_lines?: { name: string; price: string; rate: string }[];
  };
  shipping_address?: Address;
  billing_address?: Address;
  shipping_rates?: ShippingPackage[];
  has_calculated_shipping?: boolean;
  needs_shipping?: boolean;
  needs_payment?: boolean;
  payment_requirements?: string[];
  payment_methods?: string[];
  cross_sells?: unknown[];
  /** Lines left out and coupons dropped since the cart was last read. */
  errors?: { code: string; message: string; data: Record<string, unknown> }[];
  /** Extensions' data by namespace (woo-multi-currency: the currency; see checkout/currency-switch.ts). */
  extensions?: Record<string, unknown>;
}

/** A Store API address (billing has email too). */
export interface Address {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  phone: string;
  email?: string;
}

export type CountryFieldKey = 'state' | 'postcode' | 'city' | 'address_2' | 'company';

/** One country of the checkout's country list with its address-field rules. */
export interface CheckoutCountry {
  code: string;
  name: string;
  states: { code: string; name: string }[];
  fields: Record<CountryFieldKey, { label: string; required: boolean; hidden: boolean }>;
}

export interface PaymentMethod {
  id: string;
  title: string;
  /** HTML written by the shop owner. */
  description: string;
  kind: 'offline' | 'wallet';
}

/** The checkout page (/checkout/): per visitor, never cached. */
export interface CheckoutPage extends PageBase {
  page: 'checkout';
  cart: StoreCart;
  /** Store API nonce for the visitor. */
  nonce: string;
  checkout: {
    billing_address: Address;
    shipping_address: Address;
    customer_note: string;
    payment_method: string;
    ship_to_different_address: boolean;
    /** A visitor's "Create an account?" after a refused no-script submit. */
    create_account?: boolean;
  };
  countries: CheckoutCountry[];
  payment_methods: PaymentMethod[];
  terms: { title: string; html: string } | null;
  /** The no-script re-render after a refused classic POST; field keys are classic names (billing_first_name). */
  errors: { notices: string[]; fields: Record<string, string> } | null;
  /** woocommerce-process-checkout-nonce of the classic form. */
  process_nonce: string;
  /** Wallet endpoint nonces by endpoint name (ppc-validate-checkout, ppc-create-order); null without the wallet. */
  wallet?: { nonces: Record<string, string> } | null;
  /** The billing phone is required (the shop's setting); absent: true. */
  phone_required?: boolean;
  /** Offer "Create an account?" (the viewer is a visitor). */
  can_create_account?: boolean;
}

/** The order-received page (/checkout/order-received/{id}/?key=...). */
export interface OrderReceivedPage extends PageBase {
  page: 'order-received';
  /** null: no order or a wrong key (nothing is shown). */
  order: null | {
    id: number;
    number: string;
    key: string;
    status: string;
    /** RFC 3339, for <time>. */
    date_created: string;
    /** The date as shown ("March 1, 2026"), the server's (the mails say the same). */
    date: string;
    currency: CurrencyBlock;
    payment_method: string;
    payment_method_title: string;
    /** Payment instructions (the settings' text): plain text with line breaks, never HTML. */
    instructions: string;
    /** A bank transfer's accounts, each a list of labelled details (Bank, Account name, Account number, sort code, IBAN, BIC); [] otherwise. */
    bank_accounts: { details: { label: string; value: string }[] }[];
    customer_note: string;
    lines: { name: string; quantity: number; variation: { attribute: string; value: string }[]; total: string }[];
    totals: { label: string; value: string }[];
    billing_address: Address;
    shipping_address: Address;
    /** The addresses as their countries write them (the server's formatter), one text line each; shipping [] when none. */
    billing_address_lines: string[];
    shipping_address_lines: string[];
    /** A test order: paid (or to be paid) in a payment sandbox, no money taken. */
    test_order?: boolean;
    /** The sentence shown for a test order. */
    test_notice?: string;
  };
}

export type AccountOrderView = NonNullable<OrderReceivedPage['order']>;

/** A refused form's messages: notices, and per field by the form's field name. */
export interface FormErrors {
  notices: string[];
  fields: Record<string, string>;
}

/** The customer's account pages (/my-account/...): per customer, never cached. */
export interface AccountPage extends PageBase {
  page: 'account';
  section: 'dashboard' | 'orders' | 'view-order' | 'edit-address' | 'edit-account';
  logout_url: string;
  customer: { display_name: string; email: string; email_verified: boolean };
  /** A success notice, shown once after a redirect. */
  notice: string;
  errors: FormErrors | null;
  orders?: {
    rows: {
      id: number;
      number: string;
      date_created: string;
      date: string;
      status: string;
      status_label: string;
      total: string;
      url: string;
    }[];
    page: number;
    pages: number;
    total: number;
    prev_url: string;
    next_url: string;
  };
  order?: AccountOrderView;
  /** The saved addresses, and the same as their countries write them (the server's formatter), one text line each. */
  addresses?: { billing: Address | null; shipping: Address | null; billing_lines: string[]; shipping_lines: string[] };
  address_form?: { kind: 'billing' | 'shipping'; values: Address; nonce: string };
  countries?: CheckoutCountry[];
  phone_required?: boolean;
  account_form?: {
    first_name: string;
    last_name: string;
    display_name: string;
    email: string;
    nonce: string;
    delete_nonce: string;
    /** The privacy request form's nonce (privacy-request-nonce). */
    privacy_nonce: string;
  };
}

/**
 * One cart fragment (wc-ajax add_to_cart, remove_from_cart,
 * get_refreshed_fragments): the server renders the named element alone and
 * answers its outer HTML under the fragment's selector.
 */
export interface FragmentsPage {
  page: 'fragments';
  fragment: 'mini_cart' | 'cart_count';
  cart: StoreCart;
  /** The session's _wpnonce for the mini cart's remove links. */
  remove_nonce?: string;
  url?: string;
}

/** A notice above the login or registration form; html is the server's own markup. */
export interface LoginNotice {
  kind: 'error' | 'message';
  html: string;
}

/** The login and registration page (/my-account/ for a visitor). */
export interface AccountLoginPage extends PageBase {
  page: 'account-login';
  login_nonce: string;
  register_nonce: string;
  /** admin-ajax.php: wordfence_ls_authenticate and wordfence_ls_register_support. */
  ajax_url: string;
  /** The bot-check challenge URL per purpose (login, register). */
  botcheck: Record<string, string>;
  /** Show "Remember for 30 days" in the code overlay. */
  remember_device: boolean;
  lost_password_url: string;
  /** A same-site path to go to after logging in ("" = the account page). */
  redirect: string;
  /** Entered values kept after a refused submit (never passwords). */
  values: { username: string; reg_email: string };
  /** The form the notices belong to. */
  form: 'login' | 'register';
  notices: LoginNotice[];
  /** wfls-message-nonce: set after the bot-check refused a registration ("Message to Support"). */
  support_nonce: string;
}

/** Asks a logged-in customer to confirm logging out (a log-out link without a valid nonce). */
export interface AccountLogoutPage extends PageBase {
  page: 'account-logout';
  logout_url: string;
}


/** The lost-password page (/my-account/lost-password/), in its stages. */
export interface LostPasswordPage extends PageBase {
  page: 'account-lost-password';
  /** request: the form; sent: the neutral notice; reset: the new-password form; done: reset; invalid: a dead link. */
  stage: 'request' | 'sent' | 'reset' | 'done' | 'invalid';
  /** woocommerce-lost-password-nonce (request) or woocommerce-reset-password-nonce (reset). */
  nonce: string;
  /** request: what was typed; reset: the account being reset. */
  login: string;
  /** A refusal, and the field it is about ("" or absent: the whole form). */
  error?: string;
  field?: string;
}

/** The email verification page (/my-account/verify-email/). */
export interface VerifyEmailPage extends PageBase {
  page: 'account-verify-email';
  outcome: 'pending' | 'verified' | 'invalid' | 'sent' | 'limited';
  logged_in: boolean;
  /** The resend form's _wpnonce (logged in and not verified). */
  nonce?: string;
  error?: string;
}

/** A remembered device on the security page (label: the browser's User-Agent when it was remembered, plain text). */
export interface RememberedDevice {
  id: number;
  label: string;
  created: string;
  expires: string;
}

/**
 * The my-account security page (/my-account/security/): two-factor setup and
 * status, recovery codes, remembered devices. Per customer, never cached.
 */
export interface AccountSecurityPage extends PageBase {
  page: 'account-security';
  logout_url: string;
  email: string;
  two_factor: boolean;
  recovery_codes_left: number;
  /** A started setup (only in the answer that started it, or to a wrong confirming code). */
  enrollment: { secret: string; secret_groups: string[]; qr: string; otpauth_url: string } | null;
  /** New recovery codes: only in the answer that made them, never again. */
  recovery_codes: string[] | null;
  devices: RememberedDevice[];
  /** A _wpnonce per form: enroll, confirm, new-codes, disable, forget-device, forget-all. */
  nonces: Record<string, string>;
  notice: { kind: 'message' | 'error'; text: string } | null;
  /** Field errors by field: enroll_password, confirm_code, new_codes_code, new_codes_password, disable_password, disable_code. */
  errors: Record<string, string>;
}

/** A contact form field (internal/contactform Field). */
export interface ContactField {
  name: string;
  label: string;
  kind: 'text' | 'email' | 'url' | 'tel' | 'number' | 'date' | 'time' | 'textarea' | 'select' | 'checkbox' | 'acceptance' | 'file';
  required?: boolean;
  minlength?: number;
  maxlength?: number;
  min?: string;
  max?: string;
  step?: string;
  days_of_week?: number[];
  options?: string[];
  multiple?: boolean;
  exclusive?: boolean;
  min_items?: number;
  max_items?: number;
  accept?: string[];
  min_size?: number;
  max_size?: number;
}

/** A contact form as the page renders it (internal/pages ContactForm). */
export interface ContactFormData {
  id: number;
  /** "wpcf7-f<id>-o<n>": the wrapper's id and _wpcf7_unit_tag. */
  unit_tag: string;
  action: string;
  locale: string;
  /** The hidden fields in CF7's order (_wpcf7, _wpcf7_version, …, _wpcf7_recaptcha_response). */
  hidden: { name: string; value: string }[];
  fields: ContactField[];
  /** CF7's message texts by key (mail_sent_ok, validation_error, …). */
  messages: Record<string, string>;
  /** The SWV schema, the one .../feedback/schema serves. */
  schema: SWVSchema;
  feedback_url: string;
  refill_url: string;
  /** A fresh ALTCHA challenge (purpose contact) for every submit. */
  botcheck_url: string;
  /** On the page answering a form posted without scripts (POST /contact/): the feedback route's answer. */
  answer?: {
    status: string;
    message: string;
    posted_data_hash?: string;
    invalid_fields?: { field: string; message: string; idref: string | null; error_id: string }[];
  };
  /** The values that post brought back, by field name (none after mail_sent). */
  values?: Record<string, string[]>;
}

/** The contact page (/contact/): the same for everyone, cached. */
export interface ContactPage extends PageBase {
  page: 'contact';
  title: string;
  breadcrumbs: Crumb[];
  form: ContactFormData;
}

/** A content page (/<slug>/): the same for everyone, cached. */
export interface ContentPageData extends PageBase {
  page: 'content';
  breadcrumbs: Crumb[];
  content: {
    slug: string;
    /** Plain text. */
    title: string;
    /** Sanitized HTML; its videos are lazy video markup (ui/lazy-video.ts). */
    html: string;
    /** The last change's date as the page shows it ("May 1, 2026"). */
    modified: string;
  };
}

export type PageData =
  | ContentPageData
  | HomePage
  | ListingPage
  | ProductPage
  | CartPage
  | NotFoundPage
  | QuickViewPage
  | FragmentsPage
  | CheckoutPage
  | OrderReceivedPage
  | LostPasswordPage
  | VerifyEmailPage
  | AccountPage
  | AccountLoginPage
  | AccountLogoutPage
  | AccountSecurityPage
  | ContactPage
  | ReviewErrorPage
  | ComingSoonPage
  | WishlistPage;

/** One item of a wishlist page: the product's card, the chosen variation, the price (minor units) when added. */
export interface WishlistItem {
  product: StoreProduct;
  variation: StoreProduct | null;
  price_added: number;
  added_at: string;
  /** The variation's chosen attributes as the product names them ("" value: any). */
  attributes: { name: string; value: string }[];
  /** What the item names: the variation's id, else the product's. */
  id: number;
}

/** /wishlist/ (per visitor, never cached) and /wishlist/view/{token}/ (shared, read-only, noindex). */
export interface WishlistPage extends PageBase {
  page: 'wishlist';
  items: WishlistItem[];
  shared: boolean;
  share_enabled: boolean;
  /** The share link made by this request (only its hash is kept: shown once). */
  share_url: string;
  notices: { kind: string; text: string }[];
}

/** What visitors see while the shop is in coming-soon mode (answered 503; no menu, no products). */
export interface ComingSoonPage extends PageBase {
  page: 'coming-soon';
}

/** A review post refused without scripts: WordPress's "Comment Submission Failure" page. */
export interface ReviewErrorPage extends PageBase {
  page: 'review-error';
  title: string;
  message: string;
  field: string;
  /** The product page ("" when the product is unknown). */
  back: string;
}
