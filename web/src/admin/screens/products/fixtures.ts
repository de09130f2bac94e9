// Answers of the products API for the screens' tests.
import type { Category, GlobalAttribute, Product, Variation } from './types';

export const categories: Category[] = [
  { id: 4, name: 'Clothing', slug: 'clothing', parent: 0, description: '', menu_order: 0, count: 3, image: null },
  { id: 5, name: 'Hoodies', slug: 'hoodies', parent: 4, description: '<p>Warm</p>', menu_order: 0, count: 1, image: null },
];

export const attributes: GlobalAttribute[] = [
  {
    id: 1,
    name: 'Color',
    slug: 'pa_color',
    type: 'color',
    filterable: true,
    filter_query_type: 'or',
    terms: [
      { id: 11, name: 'Red', slug: 'red', color: '#b91c1c', image_url: '', menu_order: 1 },
      { id: 12, name: 'Blue', slug: 'blue', color: '#1d4ed8', image_url: '', menu_order: 2 },
    ],
  },
];

export function product(over: Partial<Product> = {}): Product {
  return {
    id: 7,
    name: 'Enamel Mug',
    slug: 'enamel-mug',
    permalink: '/product/enamel-mug/',
    type: 'simple',
    status: 'publish',
    featured: false,
    catalog_visibility: 'visible',
    description: '<p>Tough.</p>',
    short_description: '',
    sku: 'MUG-1',
    price: '10.00',
    regular_price: '10.00',
    sale_price: '',
    date_on_sale_from_gmt: null,
    date_on_sale_to_gmt: null,
    external_url: '',
    button_text: '',
    grouped_products: [],
    upsell_ids: [],
    cross_sell_ids: [],
    low_stock_amount: null,
    quantity_rules: { minimum: 0, maximum: 0, multiple_of: 0 },
    sold_individually: false,
    tax_status: 'taxable',
    tax_class: '',
    manage_stock: false,
    stock_quantity: null,
    stock_status: 'instock',
    categories: [{ id: 4, name: 'Clothing', slug: 'clothing' }],
    tags: [],
    images: [{ id: 3, src: '/media/demo/mug.jpg', name: 'mug.jpg', alt: 'Mug' }],
    attributes: [],
    variations: [],
    date_created_gmt: '2026-11-20T09:00:00',
    date_modified_gmt: '2026-11-24T09:00:00',
    date_publish_gmt: null,
    version: 3,
    ...over,
  };
}

export function variation(id: number, option: string, price = ''): Variation {
  return {
    id,
    sku: '',
    price,
    regular_price: price,
    sale_price: '',
    date_on_sale_from_gmt: null,
    date_on_sale_to_gmt: null,
    manage_stock: false,
    stock_quantity: null,
    stock_status: 'instock',
    status: 'publish',
    enabled: true,
    image: null,
    attributes: [{ name: 'Color', slug: 'pa_color', option }],
    low_stock_amount: null,
    quantity_rules: { minimum: 0, maximum: 0, multiple_of: 0 },
    pre_order: false,
    pre_order_date_gmt: null,
    pre_order_label: '',
  };
}
