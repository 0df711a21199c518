-- Audit and history triggers for a product catalogue (LATER FEATURES):
-- a BEFORE trigger that normalises and stamps rows, an AFTER row trigger
-- writing an audit trail of changed columns, a history table keeping old
-- row versions, a guard trigger that forbids deleting published rows,
-- and a statement-level trigger counting statements per operation.
-- Later features used: RETURNS trigger, NEW/OLD, TG_OP, TG_WHEN,
-- TG_LEVEL, TG_TABLE_NAME, TG_ARGV, returning NULL from a BEFORE trigger
-- to skip a row, modifying NEW, row_to_json/jsonb of NEW/OLD, %ROWTYPE.
-- Slice features also used: IF/ELSIF on TG_OP, FOR rec IN query over
-- jsonb_each, RAISE ... USING ERRCODE/HINT, exception blocks catching
-- trigger errors.

CREATE TABLE app_clock (now_ts timestamp NOT NULL);
INSERT INTO app_clock VALUES ('2024-02-01 08:00:00');

CREATE TABLE product (
    id          integer PRIMARY KEY,
    name        text NOT NULL,
    price       numeric(8,2) NOT NULL,
    status      text NOT NULL DEFAULT 'draft',
    updated_at  timestamp,
    version     integer NOT NULL DEFAULT 0
);

CREATE TABLE product_history (LIKE product, valid_until timestamp, op text);

CREATE TABLE audit_trail (
    seq       serial PRIMARY KEY,
    tbl       text,
    op        text,
    row_id    integer,
    column_   text,
    old_value text,
    new_value text
);

CREATE TABLE stmt_counter (op text PRIMARY KEY, n integer NOT NULL);

CREATE FUNCTION product_stamp()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    NEW.name := initcap(btrim(NEW.name));
    IF NEW.price < 0 THEN
        RAISE EXCEPTION 'price of % cannot be negative', NEW.name
            USING ERRCODE = 'check_violation';
    END IF;
    IF TG_OP = 'UPDATE' THEN
        IF NEW IS NOT DISTINCT FROM OLD THEN
            RAISE NOTICE 'no-op update of product % skipped', OLD.id;
            RETURN NULL;               -- suppress the row update
        END IF;
        NEW.version := OLD.version + 1;
    END IF;
    NEW.updated_at := (SELECT now_ts FROM app_clock);
    RETURN NEW;
END;
$$;

CREATE FUNCTION product_audit()
RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    o   jsonb;
    n   jsonb;
    kv  record;
    ignored text[] := TG_ARGV;
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO audit_trail(tbl, op, row_id) VALUES (TG_TABLE_NAME, 'I', NEW.id);
        RETURN NULL;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO audit_trail(tbl, op, row_id, old_value)
        VALUES (TG_TABLE_NAME, 'D', OLD.id, row_to_json(OLD)::text);
        INSERT INTO product_history
        SELECT OLD.*, (SELECT now_ts FROM app_clock), 'DELETE';
        RETURN NULL;
    END IF;
    o := to_jsonb(OLD);
    n := to_jsonb(NEW);
    FOR kv IN SELECT key, value FROM jsonb_each(n) ORDER BY key LOOP
        CONTINUE WHEN kv.key = ANY (ignored);
        IF o -> kv.key IS DISTINCT FROM kv.value THEN
            INSERT INTO audit_trail(tbl, op, row_id, column_, old_value, new_value)
            VALUES (TG_TABLE_NAME, 'U', NEW.id, kv.key, o ->> kv.key, n ->> kv.key);
        END IF;
    END LOOP;
    INSERT INTO product_history SELECT OLD.*, NEW.updated_at, 'UPDATE';
    RETURN NULL;
END;
$$;

CREATE FUNCTION product_guard()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF OLD.status = 'published' THEN
        RAISE EXCEPTION 'cannot delete published product % (%)', OLD.id, OLD.name
            USING ERRCODE = 'restrict_violation',
                  HINT = 'set status to retired first';
    END IF;
    RAISE NOTICE '% % trigger on %: deleting %', TG_WHEN, TG_LEVEL, TG_TABLE_NAME, OLD.id;
    RETURN OLD;
END;
$$;

CREATE FUNCTION count_statements()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    INSERT INTO stmt_counter VALUES (TG_OP, 1)
    ON CONFLICT (op) DO UPDATE SET n = stmt_counter.n + 1;
    RETURN NULL;
END;
$$;

CREATE TRIGGER a_stamp BEFORE INSERT OR UPDATE ON product
    FOR EACH ROW EXECUTE FUNCTION product_stamp();
CREATE TRIGGER b_guard BEFORE DELETE ON product
    FOR EACH ROW EXECUTE FUNCTION product_guard();
CREATE TRIGGER c_audit AFTER INSERT OR UPDATE OR DELETE ON product
    FOR EACH ROW EXECUTE FUNCTION product_audit('updated_at', 'version');
CREATE TRIGGER d_count AFTER INSERT OR UPDATE OR DELETE ON product
    FOR EACH STATEMENT EXECUTE FUNCTION count_statements();

INSERT INTO product(id, name, price) VALUES
    (1, '  desk lamp ', 35.00), (2, 'office CHAIR', 120.00), (3, 'stapler', 9.99);
INSERT INTO product(id, name, price) VALUES (4, 'broken', -1);

UPDATE app_clock SET now_ts = '2024-02-02 09:30:00';
UPDATE product SET price = 39.00 WHERE id = 1;
UPDATE product SET status = 'published', price = price WHERE id IN (1, 2);
UPDATE product SET name = 'Stapler' WHERE id = 3;      -- no-op after initcap
UPDATE product SET price = price * 1.1 WHERE price > 100;

UPDATE app_clock SET now_ts = '2024-02-03 17:00:00';
DELETE FROM product WHERE id = 2;
DELETE FROM product WHERE id = 3;

SELECT * FROM product ORDER BY id;
SELECT seq, tbl, op, row_id, column_, old_value, new_value FROM audit_trail ORDER BY seq;
SELECT id, name, price, status, version, valid_until, op FROM product_history ORDER BY id, version;
SELECT * FROM stmt_counter ORDER BY op;

-- A batch job that retires and deletes products, tolerating the guard.
CREATE FUNCTION purge_products(p_ids integer[])
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    v_id    integer;
    n       integer := 0;
    p       product%ROWTYPE;
BEGIN
    FOREACH v_id IN ARRAY p_ids LOOP
        BEGIN
            DELETE FROM product WHERE id = v_id RETURNING * INTO p;
            IF FOUND THEN
                n := n + 1;
                RAISE NOTICE 'purged % (version %)', p.name, p.version;
            ELSE
                RAISE NOTICE 'product % not found', v_id;
            END IF;
        EXCEPTION WHEN restrict_violation THEN
            RAISE NOTICE 'retiring %: %', v_id, SQLERRM;
            UPDATE product SET status = 'retired' WHERE id = v_id;
            DELETE FROM product WHERE id = v_id;
            n := n + 1;
        END;
    END LOOP;
    RETURN n;
END;
$$;

SELECT purge_products(ARRAY[1, 3, 42]);
SELECT count(*) AS remaining FROM product;
SELECT op, row_id, column_, old_value, new_value FROM audit_trail WHERE seq > 8 ORDER BY seq;
SELECT * FROM stmt_counter ORDER BY op;
