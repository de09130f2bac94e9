-- +goose Up
-- At 100,000 products: the category tree's product counts are kept,
-- not computed when the tree is loaded. A category's count is, as in
-- WooCommerce, the number of distinct listed products (the listing's
-- @begin sqlite
-- condition, as in 00028) in the category or any descendant, each product
-- once. Triggers keep it exact on every write:
--   - category_closure holds every (ancestor, descendant) pair of the tree,
--     a category being its own ancestor (a link's ancestors are one index
--     range, not a recursive query per link);
-- @end sqlite
-- @begin postgres
-- condition, as in 00028) in the category or any descendant, each product
-- once. Triggers keep it exact on every write (the same rules as the
-- SQLite migration; see there):
--   - category_closure holds every (ancestor, descendant) pair of the tree,
--     a category being its own ancestor;
-- @end postgres
--   - a listed product gaining or losing a category moves by one the
--     categories above it that its other categories do not already reach;
--   - a product entering or leaving the listing moves by one every category
--     above any of its categories, once;
--   - a category moved to another parent recounts its old and new
--     ancestors (an admin action; the recount reads their products once).
CREATE TABLE category_closure (
    ancestor_id   INTEGER NOT NULL,  -- @sqlite
    ancestor_id   BIGINT NOT NULL,   -- @postgres
    descendant_id INTEGER NOT NULL,  -- @sqlite
    descendant_id BIGINT NOT NULL,   -- @postgres
    PRIMARY KEY (ancestor_id, descendant_id)
);
CREATE INDEX category_closure_descendant ON category_closure (descendant_id, ancestor_id);
CREATE TABLE category_counts (
    category_id INTEGER PRIMARY KEY,  -- @sqlite
    category_id BIGINT PRIMARY KEY,   -- @postgres
    n           INTEGER NOT NULL      -- @sqlite
    n           BIGINT NOT NULL       -- @postgres
);

INSERT INTO category_closure (ancestor_id, descendant_id)
WITH RECURSIVE tree (ancestor_id, descendant_id) AS (
    SELECT id, id FROM categories
    UNION
    SELECT tree.ancestor_id, c.id FROM categories c JOIN tree ON c.parent_id = tree.descendant_id
)
SELECT ancestor_id, descendant_id FROM tree;

-- @begin sqlite
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
-- @end sqlite
-- @begin postgres
-- +goose StatementBegin
CREATE FUNCTION category_count(cat BIGINT) RETURNS BIGINT LANGUAGE sql STABLE AS $$
    SELECT COUNT(DISTINCT pc.product_id) FROM category_closure cc
        JOIN product_categories pc ON pc.category_id = cc.descendant_id
        JOIN products p ON p.id = pc.product_id
        WHERE cc.ancestor_id = cat
          AND p.parent_id IS NULL AND p.status = 'publish' AND p.catalog_visibility IN ('visible', 'catalog')
$$;
-- +goose StatementEnd

INSERT INTO category_counts (category_id, n) SELECT id, category_count(id) FROM categories;

-- +goose StatementBegin
CREATE FUNCTION category_counts_category() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO category_closure (ancestor_id, descendant_id)
            SELECT ancestor_id, NEW.id FROM category_closure WHERE descendant_id = NEW.parent_id
            UNION SELECT NEW.id, NEW.id;
        INSERT INTO category_counts (category_id, n) VALUES (NEW.id, 0);
    ELSIF TG_OP = 'UPDATE' THEN
        IF OLD.parent_id IS DISTINCT FROM NEW.parent_id THEN
            DELETE FROM category_closure
                WHERE descendant_id IN (SELECT descendant_id FROM category_closure WHERE ancestor_id = NEW.id)
                  AND ancestor_id IN (SELECT ancestor_id FROM category_closure WHERE descendant_id = OLD.parent_id);
            INSERT INTO category_closure (ancestor_id, descendant_id)
                SELECT a.ancestor_id, d.descendant_id FROM category_closure a, category_closure d
                WHERE a.descendant_id = NEW.parent_id AND d.ancestor_id = NEW.id;
            UPDATE category_counts SET n = category_count(category_id)
                WHERE category_id IN (SELECT ancestor_id FROM category_closure
                    WHERE descendant_id = OLD.parent_id OR descendant_id = NEW.parent_id);
        END IF;
    ELSE -- DELETE (after): the links went before (category_counts_unlink_category)
        DELETE FROM category_closure WHERE ancestor_id = OLD.id OR descendant_id = OLD.id;
        DELETE FROM category_counts WHERE category_id = OLD.id;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER category_counts_category AFTER INSERT OR DELETE OR UPDATE OF parent_id
    ON categories FOR EACH ROW EXECUTE FUNCTION category_counts_category();

-- A deleted category's links go first, while the closure still says which
-- categories they counted in (the cascade would run after the row is gone).
-- +goose StatementBegin
CREATE FUNCTION category_counts_unlink_category() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM product_categories WHERE category_id = OLD.id;
    RETURN OLD;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER category_counts_unlink_category BEFORE DELETE
    ON categories FOR EACH ROW EXECUTE FUNCTION category_counts_unlink_category();

-- Links are counted per statement, not per row: PostgreSQL runs AFTER ROW
-- triggers once the statement is done, so a row trigger would see every
-- link the statement added or removed, not only those before it. Per
-- statement, with the links in a transition table: each listed product
-- moves by one the categories above its added (or removed) links that its
-- other links do not reach.
-- +goose StatementBegin
CREATE FUNCTION category_counts_link() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta INT := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
    UPDATE category_counts cn SET n = cn.n + delta * d.k
    FROM (SELECT r.ancestor_id, COUNT(*) AS k FROM (
        SELECT DISTINCT l.product_id, cc.ancestor_id FROM links l
        JOIN products p ON p.id = l.product_id
            AND p.parent_id IS NULL AND p.status = 'publish' AND p.catalog_visibility IN ('visible', 'catalog')
        JOIN category_closure cc ON cc.descendant_id = l.category_id
        WHERE NOT EXISTS (SELECT 1 FROM product_categories pc
            JOIN category_closure c2 ON c2.descendant_id = pc.category_id
            WHERE pc.product_id = l.product_id AND c2.ancestor_id = cc.ancestor_id
              AND NOT EXISTS (SELECT 1 FROM links l2 WHERE l2.product_id = pc.product_id AND l2.category_id = pc.category_id))
        ) r GROUP BY r.ancestor_id) d
    WHERE cn.category_id = d.ancestor_id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER category_counts_link AFTER INSERT ON product_categories
    REFERENCING NEW TABLE AS links FOR EACH STATEMENT EXECUTE FUNCTION category_counts_link();
CREATE TRIGGER category_counts_unlink AFTER DELETE ON product_categories
    REFERENCING OLD TABLE AS links FOR EACH STATEMENT EXECUTE FUNCTION category_counts_link();

-- +goose StatementBegin
CREATE FUNCTION category_counts_listed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was BOOLEAN := FALSE;
    now_listed BOOLEAN := FALSE;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        was := OLD.parent_id IS NULL AND OLD.status = 'publish' AND OLD.catalog_visibility IN ('visible', 'catalog');
    END IF;
    IF TG_OP = 'UPDATE' THEN
        now_listed := NEW.parent_id IS NULL AND NEW.status = 'publish' AND NEW.catalog_visibility IN ('visible', 'catalog');
    END IF;
    IF was <> now_listed THEN
        -- Before a delete: the cascade removes the links after the row,
        -- when the product is no longer there to say it was listed.
        UPDATE category_counts SET n = n + CASE WHEN now_listed THEN 1 ELSE -1 END
            WHERE category_id IN (SELECT cc.ancestor_id FROM product_categories pc
                JOIN category_closure cc ON cc.descendant_id = pc.category_id
                WHERE pc.product_id = OLD.id);
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER category_counts_listed AFTER UPDATE OF parent_id, status, catalog_visibility
    ON products FOR EACH ROW EXECUTE FUNCTION category_counts_listed();
CREATE TRIGGER category_counts_product_delete BEFORE DELETE
    ON products FOR EACH ROW EXECUTE FUNCTION category_counts_listed();
-- @end postgres

-- +goose Down
-- @begin sqlite
DROP TRIGGER category_counts_product_delete;
DROP TRIGGER category_counts_listed;
DROP TRIGGER category_counts_unlink;
DROP TRIGGER category_counts_link;
DROP TRIGGER category_counts_category_delete;
DROP TRIGGER category_counts_category_unlink;
DROP TRIGGER category_counts_category_move;
DROP TRIGGER category_counts_category_insert;
-- @end sqlite
-- @begin postgres
DROP TRIGGER category_counts_product_delete ON products;
DROP TRIGGER category_counts_listed ON products;
DROP FUNCTION category_counts_listed();
DROP TRIGGER category_counts_unlink ON product_categories;
DROP TRIGGER category_counts_link ON product_categories;
DROP FUNCTION category_counts_link();
DROP TRIGGER category_counts_unlink_category ON categories;
DROP FUNCTION category_counts_unlink_category();
DROP TRIGGER category_counts_category ON categories;
DROP FUNCTION category_counts_category();
-- @end postgres
DROP TABLE category_counts;
DROP FUNCTION category_count(BIGINT);  -- @postgres
DROP TABLE category_closure;
