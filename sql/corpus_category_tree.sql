-- Category tree utilities for a shop catalogue stored as an adjacency
-- list: a recursive path builder (function calling itself), a depth
-- calculator with cycle protection, a subtree product counter, and a
-- "move category" operation that refuses to create cycles.
-- Exercises: recursion through SQL function calls, SELECT INTO STRICT with
-- no_data_found handling, record variables, FOR rec IN query, WHILE loop,
-- IF/ELSIF, RAISE EXCEPTION with custom ERRCODE/DETAIL/HINT, exceptions
-- propagating through several recursion levels, stack CONTEXT lines,
-- := with string concatenation, default parameters.

CREATE TABLE category (
    id        integer PRIMARY KEY,
    parent_id integer REFERENCES category,
    name      text NOT NULL
);

CREATE TABLE item (
    sku         text PRIMARY KEY,
    category_id integer NOT NULL REFERENCES category
);

INSERT INTO category VALUES
    (1, NULL, 'All'),
    (2, 1,    'Electronics'),
    (3, 2,    'Computers'),
    (4, 3,    'Laptops'),
    (5, 3,    'Desktops'),
    (6, 2,    'Audio'),
    (7, 1,    'Garden'),
    (8, 7,    'Tools'),
    (9, 4,    'Gaming laptops');

INSERT INTO item VALUES
    ('LAP-1', 4), ('LAP-2', 4), ('GL-1', 9), ('DSK-1', 5),
    ('HP-1', 6), ('HP-2', 6), ('HP-3', 6), ('SHOVEL', 8), ('RAKE', 8);

CREATE FUNCTION category_path(p_id integer, p_sep text DEFAULT ' > ',
                              p_level integer DEFAULT 0)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    c record;
BEGIN
    IF p_level > 20 THEN
        RAISE EXCEPTION 'category tree deeper than 20 levels at %', p_id
            USING ERRCODE = 'CT001';
    END IF;
    SELECT id, parent_id, name INTO STRICT c FROM category WHERE id = p_id;
    IF c.parent_id IS NULL THEN
        RETURN c.name;
    END IF;
    RETURN category_path(c.parent_id, p_sep, p_level + 1) || p_sep || c.name;
EXCEPTION
    WHEN no_data_found THEN
        RAISE EXCEPTION 'category % does not exist', p_id
            USING ERRCODE = 'foreign_key_violation';
END;
$$;

-- Iterative depth with a guard against cycles in bad data.
CREATE FUNCTION category_depth(p_id integer)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    v_current integer := p_id;
    v_parent  integer;
    v_depth   integer := 0;
    c_limit   CONSTANT integer := 50;
BEGIN
    WHILE v_current IS NOT NULL LOOP
        SELECT parent_id INTO v_parent FROM category WHERE id = v_current;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'broken parent link at category %', v_current;
        END IF;
        v_current := v_parent;
        IF v_current IS NOT NULL THEN
            v_depth := v_depth + 1;
        END IF;
        IF v_depth > c_limit THEN
            RAISE EXCEPTION 'category % is part of a cycle', p_id
                USING ERRCODE = 'CT001',
                      DETAIL = format('gave up after %s levels', c_limit);
        END IF;
    END LOOP;
    RETURN v_depth;
END;
$$;

-- Recursive subtree count: items directly in the category plus all of
-- its descendants; prints an indented outline while it goes.
CREATE FUNCTION subtree_items(p_id integer, p_indent integer DEFAULT 0)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    child  record;
    total  integer;
    own    integer;
BEGIN
    SELECT count(*) INTO own FROM item WHERE category_id = p_id;
    total := own;
    RAISE NOTICE '% (% own)',
        repeat('  ', p_indent) || (SELECT name FROM category WHERE id = p_id), own;
    FOR child IN SELECT id FROM category WHERE parent_id = p_id ORDER BY name LOOP
        total := total + subtree_items(child.id, p_indent + 1);
    END LOOP;
    RETURN total;
END;
$$;

CREATE FUNCTION is_descendant(p_id integer, p_ancestor integer)
RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
    v_parent integer;
BEGIN
    IF p_id = p_ancestor THEN
        RETURN true;
    END IF;
    SELECT parent_id INTO v_parent FROM category WHERE id = p_id;
    IF v_parent IS NULL THEN
        RETURN false;
    END IF;
    RETURN is_descendant(v_parent, p_ancestor);
END;
$$;

CREATE FUNCTION move_category(p_id integer, p_new_parent integer)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    v_old text;
BEGIN
    v_old := category_path(p_id);
    IF is_descendant(p_new_parent, p_id) THEN
        RAISE EXCEPTION 'cannot move "%" under "%"', v_old, category_path(p_new_parent)
            USING DETAIL = 'the new parent is inside the subtree being moved',
                  HINT = 'move the subtree to a neutral place first';
    END IF;
    UPDATE category SET parent_id = p_new_parent WHERE id = p_id;
    RETURN v_old || '  =>  ' || category_path(p_id);
END;
$$;

SELECT id, category_path(id) AS path, category_depth(id) AS depth
  FROM category ORDER BY path;
SELECT category_path(9, '/');
SELECT category_path(42);
SELECT subtree_items(1);
SELECT subtree_items(3);

SELECT move_category(6, 7);
SELECT move_category(3, 9);
SELECT move_category(2, 2);
SELECT move_category(8, 42);
SELECT id, category_path(id) FROM category WHERE id IN (6, 8) ORDER BY id;

-- Corrupt the data on purpose: a two-node cycle.
ALTER TABLE category DROP CONSTRAINT category_parent_id_fkey;
INSERT INTO category VALUES (20, 21, 'Loop A'), (21, 20, 'Loop B');
SELECT category_depth(20);
DO $$
BEGIN
    PERFORM category_path(20);
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'path failed: % (SQLSTATE %)', SQLERRM, SQLSTATE;
END;
$$;
-- Uncaught, the error carries one CONTEXT line per recursion level.
SELECT category_path(21, '/');
-- A dangling parent pointer is reported through every recursion level.
UPDATE category SET parent_id = 99 WHERE id = 8;
SELECT category_depth(8);
SELECT category_path(8);
