-- +goose Up
-- At 100,000 products: every listing ordering reads an index in
-- order and stops at the page instead of sorting every listed product.
-- The indexes are partial on exactly the shop's listing condition
-- (QueryProducts' default visibility; the text must match it for SQLite to
-- use them), so they hold only listed products and need no status or
-- visibility columns. The price orders already have theirs (00003).
CREATE INDEX products_listed_menu ON products (menu_order, name, id)
    WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility IN ('visible', 'catalog');
CREATE INDEX products_listed_featured ON products (featured, menu_order, name, id)
    WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility IN ('visible', 'catalog');
CREATE INDEX products_listed_date ON products (created_at, id)
    WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility IN ('visible', 'catalog');
CREATE INDEX products_listed_popularity ON products (total_sales, id)
    WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility IN ('visible', 'catalog');
CREATE INDEX products_listed_rating ON products (average_rating, review_count, id)
    WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility IN ('visible', 'catalog');
-- The product sitemaps: a page of 10,000 is a range of this index, the
-- rows never read.
CREATE INDEX products_sitemap ON products (id, slug, updated_at)
    WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility <> 'hidden';

-- Attribute and term counts (COUNT(DISTINCT product_id), which product
-- pages read for their swatches) from the index alone, not the rows.
CREATE INDEX product_attributes_attribute ON product_attributes (attribute_id, product_id);
CREATE INDEX product_attribute_values_term_product ON product_attribute_values (term_id, product_id);
DROP INDEX product_attribute_values_term;

-- The number of listed products, kept by triggers so the shop's paging
-- never counts the catalogue (QueryProducts reads it for the unfiltered
-- listing). A row changes only when a product enters or leaves the
-- listing, so ordinary saves do not touch it.
CREATE TABLE catalog_counts (
    name TEXT PRIMARY KEY,
    n    INTEGER NOT NULL
);
INSERT INTO catalog_counts (name, n) SELECT 'listed', COUNT(*) FROM products
    WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility IN ('visible', 'catalog');
-- +goose StatementBegin
CREATE TRIGGER catalog_counts_insert AFTER INSERT ON products
    WHEN NEW.parent_id IS NULL AND NEW.status = 'publish' AND NEW.catalog_visibility IN ('visible', 'catalog')
BEGIN
    UPDATE catalog_counts SET n = n + 1 WHERE name = 'listed';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER catalog_counts_delete AFTER DELETE ON products
    WHEN OLD.parent_id IS NULL AND OLD.status = 'publish' AND OLD.catalog_visibility IN ('visible', 'catalog')
BEGIN
    UPDATE catalog_counts SET n = n - 1 WHERE name = 'listed';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER catalog_counts_update AFTER UPDATE OF parent_id, status, catalog_visibility ON products
    WHEN (OLD.parent_id IS NULL AND OLD.status = 'publish' AND OLD.catalog_visibility IN ('visible', 'catalog'))
      <> (NEW.parent_id IS NULL AND NEW.status = 'publish' AND NEW.catalog_visibility IN ('visible', 'catalog'))
BEGIN
    UPDATE catalog_counts SET n = n
        + (NEW.parent_id IS NULL AND NEW.status = 'publish' AND NEW.catalog_visibility IN ('visible', 'catalog'))
        - (OLD.parent_id IS NULL AND OLD.status = 'publish' AND OLD.catalog_visibility IN ('visible', 'catalog'))
        WHERE name = 'listed';
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER catalog_counts_update;
DROP TRIGGER catalog_counts_delete;
DROP TRIGGER catalog_counts_insert;
DROP TABLE catalog_counts;
CREATE INDEX product_attribute_values_term ON product_attribute_values (term_id);
DROP INDEX product_attribute_values_term_product;
DROP INDEX product_attributes_attribute;
DROP INDEX products_sitemap;
DROP INDEX products_listed_rating;
DROP INDEX products_listed_popularity;
DROP INDEX products_listed_date;
DROP INDEX products_listed_featured;
DROP INDEX products_listed_menu;
