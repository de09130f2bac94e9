-- +goose Up
-- At 100,000 products: the category tree's product counts are kept,
-- not computed when the tree is loaded. A category's count is, as in
-- WooCommerce, the number of distinct listed products (the listing's
-- condition, as in 00028) in the category or any descendant, each product
-- once. Triggers keep it exact on every write:
--   - category_closure holds every (ancestor, descendant) pair of the tree,
--     a category being its own ancestor (a link's ancestors are one index
--     range, not a recursive query per link);
--   - a listed product gaining or losing a category moves by one the
--     categories above it that its other categories do not already reach;
--   - a product entering or leaving the listing moves by one every category
--     above any of its categories, once;
--   - a category moved to another parent recounts its old and new
--     ancestors (an admin action; the recount reads their products once).
CREATE TABLE category_closure (
    ancestor_id   INTEGER NOT NULL,
    descendant_id INTEGER NOT NULL,
    PRIMARY KEY (ancestor_id, descendant_id)
);
CREATE INDEX category_closure_descendant ON category_closure (descendant_id, ancestor_id);
CREATE TABLE category_counts (
    category_id INTEGER PRIMARY KEY,
    n           INTEGER NOT NULL
);

INSERT INTO category_closure (ancestor_id, descendant_id)
WITH RECURSIVE tree (ancestor_id, descendant_id) AS (
    SELECT id, id FROM categories
    UNION
    SELECT tree.ancestor_id, c.id FROM categories c JOIN tree ON c.parent_id = tree.descendant_id
)
SELECT ancestor_id, descendant_id FROM tree;

INSERT INTO category_counts (category_id, n)
SELECT c.id, (SELECT COUNT(DISTINCT pc.product_id) FROM category_closure cc
        JOIN product_categories pc ON pc.category_id = cc.descendant_id
        JOIN products p ON p.id = pc.product_id
        WHERE cc.ancestor_id = c.id
          AND p.parent_id IS NULL AND p.status = 'publish' AND p.catalog_visibility IN ('visible', 'catalog'))
FROM categories c;

-- +goose StatementBegin
CREATE TRIGGER category_counts_category_insert AFTER INSERT ON categories
BEGIN
    INSERT INTO category_closure (ancestor_id, descendant_id)
        SELECT ancestor_id, NEW.id FROM category_closure WHERE descendant_id = NEW.parent_id
        UNION SELECT NEW.id, NEW.id;
    INSERT INTO category_counts (category_id, n) VALUES (NEW.id, 0);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER category_counts_category_move AFTER UPDATE OF parent_id ON categories
    WHEN OLD.parent_id IS NOT NEW.parent_id
BEGIN
    DELETE FROM category_closure
        WHERE descendant_id IN (SELECT descendant_id FROM category_closure WHERE ancestor_id = NEW.id)
          AND ancestor_id IN (SELECT ancestor_id FROM category_closure WHERE descendant_id = OLD.parent_id);
    INSERT INTO category_closure (ancestor_id, descendant_id)
        SELECT a.ancestor_id, d.descendant_id FROM category_closure a, category_closure d
        WHERE a.descendant_id = NEW.parent_id AND d.ancestor_id = NEW.id;
    UPDATE category_counts SET n = (SELECT COUNT(DISTINCT pc.product_id) FROM category_closure cc
            JOIN product_categories pc ON pc.category_id = cc.descendant_id
            JOIN products p ON p.id = pc.product_id
            WHERE cc.ancestor_id = category_counts.category_id
              AND p.parent_id IS NULL AND p.status = 'publish' AND p.catalog_visibility IN ('visible', 'catalog'))
        WHERE category_id IN (SELECT ancestor_id FROM category_closure WHERE descendant_id IN (OLD.parent_id, NEW.parent_id));
END;
-- +goose StatementEnd
-- +goose StatementBegin
-- A deleted category's links go first, while the closure still says
-- which categories they counted in (the cascade would run too late).
CREATE TRIGGER category_counts_category_unlink BEFORE DELETE ON categories
BEGIN
    DELETE FROM product_categories WHERE category_id = OLD.id;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER category_counts_category_delete AFTER DELETE ON categories
BEGIN
    DELETE FROM category_closure WHERE ancestor_id = OLD.id OR descendant_id = OLD.id;
    DELETE FROM category_counts WHERE category_id = OLD.id;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER category_counts_link AFTER INSERT ON product_categories
    WHEN EXISTS (SELECT 1 FROM products p WHERE p.id = NEW.product_id
        AND p.parent_id IS NULL AND p.status = 'publish' AND p.catalog_visibility IN ('visible', 'catalog'))
BEGIN
    UPDATE category_counts SET n = n + 1
        WHERE category_id IN (SELECT ancestor_id FROM category_closure WHERE descendant_id = NEW.category_id)
          AND category_id NOT IN (SELECT cc.ancestor_id FROM product_categories pc
              JOIN category_closure cc ON cc.descendant_id = pc.category_id
              WHERE pc.product_id = NEW.product_id AND pc.category_id <> NEW.category_id);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER category_counts_unlink AFTER DELETE ON product_categories
    WHEN EXISTS (SELECT 1 FROM products p WHERE p.id = OLD.product_id
        AND p.parent_id IS NULL AND p.status = 'publish' AND p.catalog_visibility IN ('visible', 'catalog'))
BEGIN
    UPDATE category_counts SET n = n - 1
        WHERE category_id IN (SELECT ancestor_id FROM category_closure WHERE descendant_id = OLD.category_id)
          AND category_id NOT IN (SELECT cc.ancestor_id FROM product_categories pc
              JOIN category_closure cc ON cc.descendant_id = pc.category_id
              WHERE pc.product_id = OLD.product_id);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER category_counts_listed AFTER UPDATE OF parent_id, status, catalog_visibility ON products
    WHEN (OLD.parent_id IS NULL AND OLD.status = 'publish' AND OLD.catalog_visibility IN ('visible', 'catalog'))
      <> (NEW.parent_id IS NULL AND NEW.status = 'publish' AND NEW.catalog_visibility IN ('visible', 'catalog'))
BEGIN
    UPDATE category_counts SET n = n
        + (NEW.parent_id IS NULL AND NEW.status = 'publish' AND NEW.catalog_visibility IN ('visible', 'catalog'))
        - (OLD.parent_id IS NULL AND OLD.status = 'publish' AND OLD.catalog_visibility IN ('visible', 'catalog'))
        WHERE category_id IN (SELECT cc.ancestor_id FROM product_categories pc
            JOIN category_closure cc ON cc.descendant_id = pc.category_id
            WHERE pc.product_id = NEW.id);
END;
-- +goose StatementEnd
-- +goose StatementBegin
-- Before the row goes: the cascade deletes its links after it, when the
-- product is no longer there to say it was listed.
CREATE TRIGGER category_counts_product_delete BEFORE DELETE ON products
    WHEN OLD.parent_id IS NULL AND OLD.status = 'publish' AND OLD.catalog_visibility IN ('visible', 'catalog')
BEGIN
    UPDATE category_counts SET n = n - 1
        WHERE category_id IN (SELECT cc.ancestor_id FROM product_categories pc
            JOIN category_closure cc ON cc.descendant_id = pc.category_id
            WHERE pc.product_id = OLD.id);
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER category_counts_product_delete;
DROP TRIGGER category_counts_listed;
DROP TRIGGER category_counts_unlink;
DROP TRIGGER category_counts_link;
DROP TRIGGER category_counts_category_delete;
DROP TRIGGER category_counts_category_unlink;
DROP TRIGGER category_counts_category_move;
DROP TRIGGER category_counts_category_insert;
DROP TABLE category_counts;
DROP TABLE category_closure;
