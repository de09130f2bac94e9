-- +goose Up
-- Listing filters: whether an attribute is offered as a filter and whether
-- choosing several of its terms shows products with any of them ('or') or
-- all of them ('and'). Every attribute starts filterable, "any".
ALTER TABLE attributes ADD COLUMN filterable INTEGER NOT NULL DEFAULT 1;      -- @sqlite
ALTER TABLE attributes ADD COLUMN filterable BOOLEAN NOT NULL DEFAULT TRUE;   -- @postgres
ALTER TABLE attributes ADD COLUMN filter_query_type TEXT NOT NULL DEFAULT 'or' CHECK (filter_query_type IN ('or', 'and'));

-- Facet counts read a listing's products' terms by product.
CREATE INDEX product_attribute_values_product_term ON product_attribute_values (product_id, term_id);

-- +goose Down
DROP INDEX product_attribute_values_product_term;            -- @sqlite
DROP INDEX IF EXISTS product_attribute_values_product_term;  -- @postgres
ALTER TABLE attributes DROP COLUMN filter_query_type;
ALTER TABLE attributes DROP COLUMN filterable;
