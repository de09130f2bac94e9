-- +goose Up
-- At 100,000 products: every listing ordering reads an index in
-- order and stops at the page instead of sorting every listed product.
-- The indexes are partial on exactly the shop's listing condition
-- @begin sqlite
-- (QueryProducts' default visibility; the text must match it for SQLite to
-- use them), so they hold only listed products and need no status or
-- visibility columns. The price orders already have theirs (00003).
-- @end sqlite
-- @begin postgres
-- (QueryProducts' default visibility), so they hold only listed products.
-- The price orders already have theirs (00003).
-- @end postgres
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
-- @begin sqlite
-- The product sitemaps: a page of 10,000 is a range of this index, the
-- rows never read.
CREATE INDEX products_sitemap ON products (id, slug, updated_at)
    WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility <> 'hidden';
-- @end sqlite
-- @begin postgres
-- The product sitemaps: a page of 10,000 is a range of this index.
CREATE INDEX products_sitemap ON products (id) INCLUDE (slug, updated_at)
    WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility <> 'hidden';
-- @end postgres

-- Attribute and term counts (COUNT(DISTINCT product_id), which product
-- pages read for their swatches) from the index alone, not the rows.
CREATE INDEX product_attributes_attribute ON product_attributes (attribute_id, product_id);
CREATE INDEX product_attribute_values_term_product ON product_attribute_values (term_id, product_id);
DROP INDEX product_attribute_values_term;

-- @begin sqlite
-- The number of listed products, kept by triggers so the shop's paging
-- never counts the catalogue (QueryProducts reads it for the unfiltered
-- listing). A row changes only when a product enters or leaves the
-- listing, so ordinary saves do not touch it.
-- @end sqlite
-- @begin postgres
-- The number of listed products, kept by a trigger so the shop's paging
-- never counts the catalogue (QueryProducts reads it for the unfiltered
-- listing). The row changes only when a product enters or leaves the
-- listing, so ordinary saves neither write nor lock it.
-- @end postgres
CREATE TABLE catalog_counts (
    name TEXT PRIMARY KEY,
    n    INTEGER NOT NULL  -- @sqlite
    n    BIGINT NOT NULL   -- @postgres
);
INSERT INTO catalog_counts (name, n) SELECT 'listed', COUNT(*) FROM products
    WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility IN ('visible', 'catalog');
-- @begin sqlite
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
-- @end sqlite
-- @begin postgres
-- +goose StatementBegin
CREATE FUNCTION catalog_counts_listed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was BOOLEAN := FALSE;
    now_listed BOOLEAN := FALSE;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        was := OLD.parent_id IS NULL AND OLD.status = 'publish' AND OLD.catalog_visibility IN ('visible', 'catalog');
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        now_listed := NEW.parent_id IS NULL AND NEW.status = 'publish' AND NEW.catalog_visibility IN ('visible', 'catalog');
    END IF;
    IF was <> now_listed THEN
        UPDATE catalog_counts SET n = n + CASE WHEN now_listed THEN 1 ELSE -1 END WHERE name = 'listed';
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER catalog_counts_listed AFTER INSERT OR DELETE OR UPDATE OF parent_id, status, catalog_visibility
    ON products FOR EACH ROW EXECUTE FUNCTION catalog_counts_listed();
-- @end postgres

-- +goose Down
-- @begin sqlite
DROP TRIGGER catalog_counts_update;
DROP TRIGGER catalog_counts_delete;
DROP TRIGGER catalog_counts_insert;
-- @end sqlite
-- @begin postgres
DROP TRIGGER catalog_counts_listed ON products;
DROP FUNCTION catalog_counts_listed();
-- @end postgres
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
