-- +goose Up
-- The catalogue. Prices are integer minor units of the shop currency. Times
-- are declared TIMESTAMP so the driver reads them back as time values; they
-- are always written in UTC. Times
-- are stored as RFC 3339 text in UTC (SQLite has no timestamp type).

CREATE TABLE images (
    id         INTEGER PRIMARY KEY,
    src        TEXT NOT NULL,
    width      INTEGER NOT NULL DEFAULT 0,
    height     INTEGER NOT NULL DEFAULT 0,
    alt        TEXT NOT NULL DEFAULT '',
    caption    TEXT NOT NULL DEFAULT '',
    name       TEXT NOT NULL DEFAULT '',
    sizes      TEXT NOT NULL DEFAULT '[]' -- JSON list of {src,width,height}
);
CREATE INDEX images_src ON images (src);

CREATE TABLE media_files (
    path         TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    data         BLOB NOT NULL,
    created_at   TIMESTAMP NOT NULL
);

CREATE TABLE categories (
    id          INTEGER PRIMARY KEY,
    parent_id   INTEGER REFERENCES categories (id) ON DELETE SET NULL,
    name        TEXT NOT NULL,
    slug        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    image_id    INTEGER REFERENCES images (id) ON DELETE SET NULL,
    menu_order  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX categories_parent ON categories (parent_id);

CREATE TABLE tags (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE
);

CREATE TABLE attributes (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL,
    slug         TEXT NOT NULL UNIQUE,
    type         TEXT NOT NULL DEFAULT 'select' CHECK (type IN ('select', 'color', 'image', 'label')),
    order_by     TEXT NOT NULL DEFAULT 'menu_order',
    has_archives INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE attribute_terms (
    id           INTEGER PRIMARY KEY,
    attribute_id INTEGER NOT NULL REFERENCES attributes (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    slug         TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    color        TEXT NOT NULL DEFAULT '',
    image_url    TEXT NOT NULL DEFAULT '',
    menu_order   INTEGER NOT NULL DEFAULT 0,
    UNIQUE (attribute_id, slug)
);

CREATE TABLE products (
    id                 INTEGER PRIMARY KEY,
    parent_id          INTEGER REFERENCES products (id) ON DELETE CASCADE,
    type               TEXT NOT NULL CHECK (type IN ('simple', 'variable', 'grouped', 'external', 'variation')),
    name               TEXT NOT NULL,
    slug               TEXT NOT NULL,
    sku                TEXT,
    status             TEXT NOT NULL DEFAULT 'publish',
    catalog_visibility TEXT NOT NULL DEFAULT 'visible',
    featured           INTEGER NOT NULL DEFAULT 0,
    short_description  TEXT NOT NULL DEFAULT '',
    description        TEXT NOT NULL DEFAULT '',
    regular_price      INTEGER,
    sale_price         INTEGER,
    sale_from          TIMESTAMP,
    sale_to            TIMESTAMP,
    -- The price a listing sorts and filters by: sale price when on sale (ignoring dates), else regular;
    -- for variable products the lowest variation price. Kept up to date by the writer.
    sort_price         INTEGER,
    manage_stock       INTEGER NOT NULL DEFAULT 0,
    stock_quantity     INTEGER,
    stock_status       TEXT NOT NULL DEFAULT 'instock',
    backorders         TEXT NOT NULL DEFAULT 'no',
    low_stock_amount   INTEGER,
    weight             TEXT NOT NULL DEFAULT '',
    length             TEXT NOT NULL DEFAULT '',
    width              TEXT NOT NULL DEFAULT '',
    height             TEXT NOT NULL DEFAULT '',
    min_qty            INTEGER NOT NULL DEFAULT 0,
    max_qty            INTEGER NOT NULL DEFAULT 0,
    step               INTEGER NOT NULL DEFAULT 1,
    sold_individually  INTEGER NOT NULL DEFAULT 0,
    purchasable        INTEGER NOT NULL DEFAULT 1,
    visible            INTEGER NOT NULL DEFAULT 1,
    active             INTEGER NOT NULL DEFAULT 1,
    pre_order          INTEGER NOT NULL DEFAULT 0,
    pre_order_at       TIMESTAMP,
    pre_order_label    TEXT NOT NULL DEFAULT '',
    menu_order         INTEGER NOT NULL DEFAULT 0,
    external_url       TEXT NOT NULL DEFAULT '',
    button_text        TEXT NOT NULL DEFAULT '',
    tax_status         TEXT NOT NULL DEFAULT 'taxable',
    tax_class          TEXT NOT NULL DEFAULT '',
    average_rating     REAL NOT NULL DEFAULT 0,
    review_count       INTEGER NOT NULL DEFAULT 0,
    total_sales        INTEGER NOT NULL DEFAULT 0,
    created_at         TIMESTAMP NOT NULL,
    updated_at         TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX products_sku ON products (sku) WHERE sku IS NOT NULL AND sku <> '';
CREATE UNIQUE INDEX products_slug ON products (slug) WHERE parent_id IS NULL;
CREATE INDEX products_parent ON products (parent_id, menu_order, id);
CREATE INDEX products_list ON products (status, catalog_visibility, menu_order, name);
CREATE INDEX products_price ON products (sort_price, id) WHERE parent_id IS NULL;
CREATE INDEX products_date ON products (created_at, id) WHERE parent_id IS NULL;

CREATE TABLE product_images (
    product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    image_id   INTEGER NOT NULL REFERENCES images (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    PRIMARY KEY (product_id, position)
);

CREATE TABLE product_categories (
    product_id  INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    category_id INTEGER NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    PRIMARY KEY (product_id, category_id)
);
CREATE INDEX product_categories_category ON product_categories (category_id, product_id);

CREATE TABLE product_tags (
    product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    tag_id     INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (product_id, tag_id)
);
CREATE INDEX product_tags_tag ON product_tags (tag_id, product_id);

-- Attributes of a parent product: global (attribute_id set) or local (name only).
CREATE TABLE product_attributes (
    product_id   INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    attribute_id INTEGER REFERENCES attributes (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    visible      INTEGER NOT NULL DEFAULT 1,
    variation    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (product_id, position)
);

CREATE TABLE product_attribute_values (
    product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL, -- the attribute's position
    value_pos  INTEGER NOT NULL,
    term_id    INTEGER REFERENCES attribute_terms (id) ON DELETE CASCADE,
    value      TEXT NOT NULL, -- the term name (global) or the value text (local)
    PRIMARY KEY (product_id, position, value_pos)
);
CREATE INDEX product_attribute_values_term ON product_attribute_values (term_id);

-- A variation's value per attribute; '' means any value.
CREATE TABLE variation_attributes (
    variation_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    value        TEXT NOT NULL,
    PRIMARY KEY (variation_id, name)
);

-- Grouped children, up-sells and cross-sells.
CREATE TABLE product_links (
    product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('child', 'upsell', 'crosssell')),
    linked_id  INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    PRIMARY KEY (product_id, kind, linked_id)
);

CREATE TABLE product_meta (
    product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    meta_key   TEXT NOT NULL,
    value      TEXT NOT NULL,
    PRIMARY KEY (product_id, meta_key)
);

CREATE TABLE reviews (
    id         INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    author     TEXT NOT NULL,
    email      TEXT NOT NULL DEFAULT '',
    rating     INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    content    TEXT NOT NULL,
    verified   INTEGER NOT NULL DEFAULT 0,
    approved   INTEGER NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX reviews_product ON reviews (product_id, created_at);

-- Every catalogue write appends here in the same transaction. Servers poll it
-- to invalidate exactly the cached pages a change touches, across processes
-- (an import run while the shop serves) and instances.
CREATE TABLE catalog_changes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    product_id INTEGER NOT NULL, -- 0 for category/attribute changes
    kind       TEXT NOT NULL,    -- product, stock, taxonomy
    at         TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE catalog_changes;
DROP TABLE reviews;
DROP TABLE product_meta;
DROP TABLE product_links;
DROP TABLE variation_attributes;
DROP TABLE product_attribute_values;
DROP TABLE product_attributes;
DROP TABLE product_tags;
DROP TABLE product_categories;
DROP TABLE product_images;
DROP TABLE products;
DROP TABLE attribute_terms;
DROP TABLE attributes;
DROP TABLE tags;
DROP TABLE categories;
DROP TABLE media_files;
DROP TABLE images;
