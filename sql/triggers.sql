-- triggers: trigger functions (RETURNS trigger) and event trigger functions
-- (RETURNS event_trigger).  Row-level BEFORE triggers that modify NEW,
-- return NULL to skip the row, return OLD / NEW in BEFORE DELETE (NEW is
-- NULL there, unless the function assigned a field of it); every TG_
-- variable (TG_NAME, TG_WHEN, TG_LEVEL, TG_OP, TG_RELID::regclass,
-- TG_RELNAME, TG_TABLE_NAME, TG_TABLE_SCHEMA, TG_NARGS, TG_ARGV whole,
-- subscripted and out of range); NEW and OLD as whole rows and fields;
-- firing order, WHEN clauses, UPDATE OF, INSERT ... RETURNING and
-- ON CONFLICT; AFTER row triggers writing an audit trail and keeping
-- denormalised counters on a parent table; statement-level triggers (NEW
-- and OLD are NULL, NEW.field reads as NULL), TRUNCATE triggers;
-- transition tables (REFERENCING NEW TABLE / OLD TABLE) read by static SQL,
-- FOR loops and EXECUTE; INSTEAD OF triggers on a view; triggers on a
-- partitioned table (fired per partition, row movement); one function on
-- two tables with different row shapes (compiled per table, ALTER TABLE
-- ADD COLUMN seen); the compile-time and run-time errors of trigger
-- functions; event triggers on ddl_command_start, ddl_command_end and
-- sql_drop; exception blocks inside triggers and around statements whose
-- trigger fails.

------------------------------------------------------------------------------
-- 1. row-level BEFORE triggers
------------------------------------------------------------------------------

CREATE TABLE tr_item (id integer PRIMARY KEY, name text, qty integer,
                      note text);

-- every TG_ variable, NEW and OLD as whole rows and as fields
CREATE FUNCTION tr_show() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'TG_NAME=% TG_WHEN=% TG_LEVEL=% TG_OP=%',
        TG_NAME, TG_WHEN, TG_LEVEL, TG_OP;
    RAISE NOTICE 'TG_RELID=% TG_RELNAME=% TG_TABLE_NAME=% TG_TABLE_SCHEMA=%',
        TG_RELID::regclass, TG_RELNAME, TG_TABLE_NAME, TG_TABLE_SCHEMA;
    RAISE NOTICE 'TG_NARGS=% TG_ARGV=% [0]=% [1]=% [5]=% [5] IS NULL=%',
        TG_NARGS, TG_ARGV, TG_ARGV[0], TG_ARGV[1], TG_ARGV[5],
        TG_ARGV[5] IS NULL;
    RAISE NOTICE 'NEW=% OLD=% NEW IS NULL=% OLD IS NULL=%',
        NEW, OLD, NEW IS NULL, OLD IS NULL;
    IF TG_OP = 'DELETE' THEN
        RAISE NOTICE 'OLD.id=% OLD.name=%', OLD.id, OLD.name;
        RETURN OLD;
    END IF;
    RAISE NOTICE 'NEW.id=% NEW.name=% OLD.name=%', NEW.id, NEW.name, OLD.name;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_show_args BEFORE INSERT OR UPDATE OR DELETE ON tr_item
    FOR EACH ROW EXECUTE FUNCTION tr_show('alpha', 'beta');
INSERT INTO tr_item VALUES (1, 'one', 10, NULL);
UPDATE tr_item SET name = 'uno' WHERE id = 1;
DELETE FROM tr_item WHERE id = 1;
DROP TRIGGER tr_show_args ON tr_item;

-- the same function without arguments: TG_NARGS is 0, TG_ARGV is empty
CREATE TRIGGER tr_show_noargs BEFORE INSERT ON tr_item
    FOR EACH ROW EXECUTE FUNCTION tr_show();
INSERT INTO tr_item VALUES (2, 'two', 20, NULL);
DROP TRIGGER tr_show_noargs ON tr_item;
-- a numeric argument arrives as text
CREATE TRIGGER tr_show_num BEFORE DELETE ON tr_item
    FOR EACH ROW EXECUTE FUNCTION tr_show(42, 'x y');
DELETE FROM tr_item WHERE id = 2;
DROP TRIGGER tr_show_num ON tr_item;

-- modifying NEW: normalising a column and setting an audit column; the
-- changed row is what gets stored and what RETURNING shows
CREATE TABLE tr_person (id integer PRIMARY KEY, name text, email text,
                        changes integer, last_op text);
CREATE FUNCTION tr_normalise() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    NEW.name := initcap(btrim(NEW.name));
    NEW.email := lower(NEW.email);
    IF TG_OP = 'INSERT' THEN
        NEW.changes := 0;
    ELSE
        NEW.changes := OLD.changes + 1;
    END IF;
    NEW.last_op := TG_OP || ' by ' || TG_NAME;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_norm BEFORE INSERT OR UPDATE ON tr_person
    FOR EACH ROW EXECUTE FUNCTION tr_normalise();
INSERT INTO tr_person VALUES (1, '  ada LOVELACE ', 'Ada@Example.COM', 99, NULL),
                             (2, 'alan turing', 'ALAN@example.com', NULL, 'x')
    RETURNING *;
UPDATE tr_person SET name = 'grace hopper  ' WHERE id = 2 RETURNING *;
UPDATE tr_person SET email = email;
SELECT * FROM tr_person ORDER BY id;

-- returning NULL skips the row (no error, the row count says 0); returning
-- OLD from BEFORE UPDATE keeps the row unchanged
CREATE FUNCTION tr_guard() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    IF TG_OP = 'INSERT' AND NEW.qty < 0 THEN
        RAISE NOTICE 'skipping insert of % (qty %)', NEW.name, NEW.qty;
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.note = 'locked' THEN
        RAISE NOTICE 'row % is locked, keeping %', OLD.id, OLD;
        RETURN OLD;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.qty IS NULL THEN
        RAISE NOTICE 'update of % skipped', OLD.id;
        RETURN NULL;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_guard BEFORE INSERT OR UPDATE ON tr_item
    FOR EACH ROW EXECUTE FUNCTION tr_guard();
CREATE FUNCTION tr_insert_count(n integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    cnt integer;
BEGIN
    INSERT INTO tr_item SELECT i, 'item' || i, CASE WHEN i % 2 = 0 THEN -i ELSE i END, NULL
        FROM generate_series(10, 9 + n) AS i;
    GET DIAGNOSTICS cnt = ROW_COUNT;
    RETURN format('%s rows attempted, ROW_COUNT=%s FOUND=%s', n, cnt, FOUND);
END
$$;
SELECT tr_insert_count(4);
SELECT tr_insert_count(1);
SELECT * FROM tr_item ORDER BY id;
UPDATE tr_item SET note = 'locked' WHERE id = 11;
UPDATE tr_item SET qty = qty * 100, note = 'changed' WHERE id IN (11, 13);
UPDATE tr_item SET qty = NULL WHERE id = 13;
SELECT * FROM tr_item ORDER BY id;

-- BEFORE DELETE: returning OLD lets the delete proceed, returning NEW (which
-- is NULL in a DELETE trigger) skips it; assigning a field of NEW first
-- makes NEW a non-NULL row, and then returning it lets the delete proceed
CREATE FUNCTION tr_before_delete() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'deleting %: NEW IS NULL=% mode=%', OLD.id, NEW IS NULL, TG_ARGV[0];
    IF TG_ARGV[0] = 'old' THEN
        RETURN OLD;
    ELSIF TG_ARGV[0] = 'new' THEN
        RETURN NEW;
    ELSE
        NEW.note := 'assigned';
        RAISE NOTICE 'after the assignment NEW=% NEW IS NULL=%', NEW, NEW IS NULL;
        RETURN NEW;
    END IF;
END
$$;
CREATE TRIGGER tr_bd BEFORE DELETE ON tr_item
    FOR EACH ROW EXECUTE FUNCTION tr_before_delete('new');
DELETE FROM tr_item WHERE id = 11 RETURNING id;
DROP TRIGGER tr_bd ON tr_item;
CREATE TRIGGER tr_bd BEFORE DELETE ON tr_item
    FOR EACH ROW EXECUTE FUNCTION tr_before_delete('old');
DELETE FROM tr_item WHERE id = 11 RETURNING id;
DROP TRIGGER tr_bd ON tr_item;
CREATE TRIGGER tr_bd BEFORE DELETE ON tr_item
    FOR EACH ROW EXECUTE FUNCTION tr_before_delete('assign');
DELETE FROM tr_item WHERE id = 13 RETURNING id, note;
DROP TRIGGER tr_bd ON tr_item;
SELECT * FROM tr_item ORDER BY id;
DROP TRIGGER tr_guard ON tr_item;

-- several BEFORE triggers fire in name order, each one sees the NEW the
-- previous one returned; a WHEN clause keeps the function from being
-- called; UPDATE OF fires only when the column is in the SET list
CREATE FUNCTION tr_chain() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE '% sees note=%', TG_NAME, NEW.note;
    NEW.note := coalesce(NEW.note, '') || TG_ARGV[0];
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_c2 BEFORE INSERT OR UPDATE ON tr_item
    FOR EACH ROW EXECUTE FUNCTION tr_chain('b');
CREATE TRIGGER tr_c1 BEFORE INSERT OR UPDATE ON tr_item
    FOR EACH ROW EXECUTE FUNCTION tr_chain('a');
CREATE TRIGGER tr_c3 BEFORE INSERT ON tr_item
    FOR EACH ROW WHEN (NEW.qty > 100) EXECUTE FUNCTION tr_chain('c');
CREATE TRIGGER tr_c4 BEFORE UPDATE OF qty ON tr_item
    FOR EACH ROW EXECUTE FUNCTION tr_chain('d');
INSERT INTO tr_item VALUES (20, 'small', 5, NULL), (21, 'big', 500, '>')
    RETURNING id, note;
UPDATE tr_item SET name = upper(name) WHERE id = 20 RETURNING id, name, note;
UPDATE tr_item SET qty = 6 WHERE id = 20 RETURNING id, qty, note;
-- ON CONFLICT DO UPDATE: the BEFORE INSERT triggers fire, then the
-- BEFORE UPDATE ones for the conflicting row
INSERT INTO tr_item VALUES (21, 'big', 7, 'x')
    ON CONFLICT (id) DO UPDATE SET qty = EXCLUDED.qty RETURNING id, qty, note;
DROP TRIGGER tr_c1 ON tr_item;
DROP TRIGGER tr_c2 ON tr_item;
DROP TRIGGER tr_c3 ON tr_item;
DROP TRIGGER tr_c4 ON tr_item;

------------------------------------------------------------------------------
-- 2. AFTER row triggers: audit trail, denormalised counters
------------------------------------------------------------------------------

CREATE TABLE tr_account (id integer PRIMARY KEY, owner text, balance numeric);
CREATE TABLE tr_audit (seq integer GENERATED ALWAYS AS IDENTITY, tbl text,
                       op text, trig text, old_row text, new_row text);

-- the AFTER trigger sees the row as stored (after the BEFORE trigger
-- changed it); its return value is ignored (NULL or NEW alike)
CREATE FUNCTION tr_round() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    NEW.balance := round(NEW.balance, 1);
    RETURN NEW;
END
$$;
CREATE FUNCTION tr_audit_row() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO tr_audit (tbl, op, trig, old_row, new_row)
        VALUES (TG_TABLE_NAME, TG_OP, TG_NAME || '/' || TG_WHEN || '/' || TG_LEVEL,
                OLD::text, NEW::text);
    IF TG_OP = 'DELETE' THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_account_round BEFORE INSERT OR UPDATE ON tr_account
    FOR EACH ROW EXECUTE FUNCTION tr_round();
CREATE TRIGGER tr_account_audit AFTER INSERT OR UPDATE OR DELETE ON tr_account
    FOR EACH ROW EXECUTE FUNCTION tr_audit_row();
INSERT INTO tr_account VALUES (1, 'ann', 100.04), (2, 'bob', 50.26), (3, 'cy', 0);
UPDATE tr_account SET balance = balance + 10.55 WHERE id <= 2;
DELETE FROM tr_account WHERE id = 3;
SELECT * FROM tr_account ORDER BY id;
SELECT seq, tbl, op, trig, old_row, new_row FROM tr_audit ORDER BY seq;

-- a history table filled from OLD on UPDATE and DELETE
CREATE TABLE tr_account_hist (id integer, owner text, balance numeric,
                              version integer);
CREATE FUNCTION tr_keep_history() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
    v integer;
BEGIN
    SELECT count(*) + 1 INTO v FROM tr_account_hist WHERE id = OLD.id;
    INSERT INTO tr_account_hist VALUES (OLD.id, OLD.owner, OLD.balance, v);
    RETURN NULL;
END
$$;
CREATE TRIGGER tr_account_hist AFTER UPDATE OR DELETE ON tr_account
    FOR EACH ROW EXECUTE FUNCTION tr_keep_history();
UPDATE tr_account SET balance = balance * 2;
UPDATE tr_account SET owner = 'ann2' WHERE id = 1;
DELETE FROM tr_account WHERE id = 2;
SELECT * FROM tr_account_hist ORDER BY id, version;
DROP TRIGGER tr_account_hist ON tr_account;
DROP TRIGGER tr_account_audit ON tr_account;

-- denormalised counters: AFTER INSERT / DELETE / UPDATE on the child
-- table keep n_lines and total of the parent row up to date
CREATE TABLE tr_order (id integer PRIMARY KEY, n_lines integer NOT NULL DEFAULT 0,
                       total numeric NOT NULL DEFAULT 0);
CREATE TABLE tr_line (id integer PRIMARY KEY, order_id integer REFERENCES tr_order,
                      amount numeric);
CREATE FUNCTION tr_line_counter() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE tr_order SET n_lines = n_lines + 1, total = total + NEW.amount
            WHERE id = NEW.order_id;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE tr_order SET n_lines = n_lines - 1, total = total - OLD.amount
            WHERE id = OLD.order_id;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER tr_line_counter AFTER INSERT OR UPDATE OR DELETE ON tr_line
    FOR EACH ROW EXECUTE FUNCTION tr_line_counter();
INSERT INTO tr_order (id) VALUES (1), (2), (3);
INSERT INTO tr_line VALUES (1, 1, 10), (2, 1, 15.5), (3, 2, 7), (4, 2, 3), (5, 2, 1);
SELECT * FROM tr_order ORDER BY id;
DELETE FROM tr_line WHERE id IN (2, 5);
UPDATE tr_line SET order_id = 3, amount = amount * 10 WHERE id = 4;
SELECT * FROM tr_order ORDER BY id;
SELECT o.id, o.n_lines = count(l.id) AS n_ok, o.total = coalesce(sum(l.amount), 0) AS total_ok
    FROM tr_order o LEFT JOIN tr_line l ON l.order_id = o.id
    GROUP BY o.id ORDER BY o.id;

------------------------------------------------------------------------------
-- 3. statement-level triggers, TRUNCATE triggers
------------------------------------------------------------------------------

-- NEW and OLD are NULL in a statement trigger, and reading a field of them
-- gives NULL (no error: they have the table's row type); the trigger fires
-- once per statement, even when no row is affected
CREATE FUNCTION tr_stmt() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE '% % % % on %: NEW IS NULL=% OLD IS NULL=% NEW.id=% OLD.id=%',
        TG_NAME, TG_WHEN, TG_LEVEL, TG_OP, TG_RELID::regclass,
        NEW IS NULL, OLD IS NULL, NEW.id, OLD.id;
    RETURN NULL;
END
$$;
CREATE TABLE tr_stmt_t (id integer, name text);
CREATE TRIGGER tr_s_before BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON tr_stmt_t
    FOR EACH STATEMENT EXECUTE FUNCTION tr_stmt();
CREATE TRIGGER tr_s_after AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tr_stmt_t
    FOR EACH STATEMENT EXECUTE FUNCTION tr_stmt();
INSERT INTO tr_stmt_t SELECT i, 'n' || i FROM generate_series(1, 3) AS i;
UPDATE tr_stmt_t SET name = 'none' WHERE id > 100;
DELETE FROM tr_stmt_t WHERE id = 1;
TRUNCATE tr_stmt_t;
SELECT count(*) FROM tr_stmt_t;

-- the return value of a BEFORE statement trigger is ignored, and
-- assigning to a field of NEW there is allowed
CREATE FUNCTION tr_stmt_assign() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    NEW.id := 7;
    RAISE NOTICE '% assigned: NEW=%', TG_NAME, NEW;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_s_assign BEFORE INSERT ON tr_stmt_t
    FOR EACH STATEMENT EXECUTE FUNCTION tr_stmt_assign();
INSERT INTO tr_stmt_t VALUES (1, 'kept');
SELECT * FROM tr_stmt_t;
DROP TABLE tr_stmt_t;

------------------------------------------------------------------------------
-- 4. transition tables
------------------------------------------------------------------------------

CREATE TABLE tr_stock (id integer PRIMARY KEY, qty integer);
CREATE TABLE tr_stock_log (op text, n integer, total integer, detail text);
-- static SQL over the transition tables; a FOR loop over them
CREATE FUNCTION tr_stock_summary() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
    n integer;
    s integer;
    r record;
    detail text := '';
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT count(*), sum(qty) INTO n, s FROM newtab;
        FOR r IN SELECT id, qty FROM newtab ORDER BY id LOOP
            detail := detail || r.id || ':' || r.qty || ' ';
        END LOOP;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT count(*), sum(qty) INTO n, s FROM oldtab;
        detail := (SELECT string_agg(id::text, ',' ORDER BY id) FROM oldtab);
    ELSE
        SELECT count(*), sum(nt.qty - ot.qty) INTO n, s
            FROM newtab nt JOIN oldtab ot USING (id);
        FOR r IN SELECT ot.id, ot.qty AS before, nt.qty AS after
                 FROM oldtab ot JOIN newtab nt USING (id) ORDER BY id LOOP
            detail := detail || r.id || ':' || r.before || '->' || r.after || ' ';
        END LOOP;
    END IF;
    INSERT INTO tr_stock_log VALUES (TG_OP, n, s, rtrim(detail));
    RAISE NOTICE '% %: % rows, sum %', TG_NAME, TG_OP, n, s;
    RETURN NULL;
END
$$;
CREATE TRIGGER tr_stock_ins AFTER INSERT ON tr_stock
    REFERENCING NEW TABLE AS newtab
    FOR EACH STATEMENT EXECUTE FUNCTION tr_stock_summary();
CREATE TRIGGER tr_stock_upd AFTER UPDATE ON tr_stock
    REFERENCING OLD TABLE AS oldtab NEW TABLE AS newtab
    FOR EACH STATEMENT EXECUTE FUNCTION tr_stock_summary();
CREATE TRIGGER tr_stock_del AFTER DELETE ON tr_stock
    REFERENCING OLD TABLE AS oldtab
    FOR EACH STATEMENT EXECUTE FUNCTION tr_stock_summary();
INSERT INTO tr_stock SELECT i, i * 10 FROM generate_series(1, 5) AS i;
UPDATE tr_stock SET qty = qty + id WHERE id % 2 = 1;
UPDATE tr_stock SET qty = 0 WHERE id > 100;
DELETE FROM tr_stock WHERE id >= 4;
SELECT * FROM tr_stock_log ORDER BY op, n;

-- EXECUTE can read the transition tables too; the trigger argument names
-- the table to read
CREATE FUNCTION tr_dyn_count() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
    n integer;
    s bigint;
BEGIN
    EXECUTE format('SELECT count(*), sum(qty) FROM %I', TG_ARGV[0]) INTO n, s;
    RAISE NOTICE '% via EXECUTE on %: count=% sum=%', TG_OP, TG_ARGV[0], n, s;
    EXECUTE 'SELECT count(*) FROM ' || quote_ident(TG_ARGV[0]) || ' WHERE qty > $1'
        INTO n USING 15;
    RAISE NOTICE '  rows with qty > 15: %', n;
    RETURN NULL;
END
$$;
CREATE TRIGGER tr_stock_dyn AFTER UPDATE ON tr_stock
    REFERENCING NEW TABLE AS fresh OLD TABLE AS stale
    FOR EACH STATEMENT EXECUTE FUNCTION tr_dyn_count('fresh');
CREATE TRIGGER tr_stock_dyn2 AFTER UPDATE ON tr_stock
    REFERENCING NEW TABLE AS fresh OLD TABLE AS stale
    FOR EACH STATEMENT EXECUTE FUNCTION tr_dyn_count('stale');
UPDATE tr_stock SET qty = qty * 2;
DROP TRIGGER tr_stock_dyn ON tr_stock;
DROP TRIGGER tr_stock_dyn2 ON tr_stock;

-- a statement trigger enforcing an invariant over the whole statement:
-- the error rolls back the statement
CREATE FUNCTION tr_stock_invariant() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
    delta integer;
BEGIN
    SELECT coalesce(sum(qty), 0) - (SELECT coalesce(sum(qty), 0) FROM oldtab)
        INTO delta FROM newtab;
    IF delta <> 0 THEN
        RAISE EXCEPTION 'total stock changed by %', delta
            USING HINT = 'move stock between rows instead';
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER tr_stock_inv AFTER UPDATE ON tr_stock
    REFERENCING OLD TABLE AS oldtab NEW TABLE AS newtab
    FOR EACH STATEMENT EXECUTE FUNCTION tr_stock_invariant();
UPDATE tr_stock SET qty = CASE id WHEN 1 THEN qty - 5 WHEN 2 THEN qty + 5 END
    WHERE id IN (1, 2);
UPDATE tr_stock SET qty = qty + 1 WHERE id = 3;
SELECT * FROM tr_stock ORDER BY id;
-- the same function on a trigger without REFERENCING: no such relation
CREATE TABLE tr_stock2 (id integer, qty integer);
CREATE TRIGGER tr_stock2_inv AFTER UPDATE ON tr_stock2
    FOR EACH STATEMENT EXECUTE FUNCTION tr_stock_invariant();
UPDATE tr_stock2 SET qty = 1;
DROP TABLE tr_stock2;

------------------------------------------------------------------------------
-- 5. INSTEAD OF triggers on a view
------------------------------------------------------------------------------

CREATE TABLE tr_emp (id integer PRIMARY KEY, first text, last text, active boolean);
INSERT INTO tr_emp VALUES (1, 'Ada', 'Lovelace', true), (2, 'Alan', 'Turing', true);
CREATE VIEW tr_emp_v AS
    SELECT id, first || ' ' || last AS full_name FROM tr_emp WHERE active;
CREATE FUNCTION tr_emp_v_dml() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE '% % % on %: NEW=% OLD=%', TG_NAME, TG_WHEN, TG_OP,
        TG_TABLE_NAME, NEW, OLD;
    IF TG_OP = 'INSERT' THEN
        IF NEW.full_name IS NULL THEN
            RETURN NULL;                      -- nothing done: counts 0 rows
        END IF;
        INSERT INTO tr_emp VALUES (NEW.id, split_part(NEW.full_name, ' ', 1),
                                   split_part(NEW.full_name, ' ', 2), true);
        NEW.full_name := upper(NEW.full_name);  -- what RETURNING shows
        RETURN NEW;
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE tr_emp SET first = split_part(NEW.full_name, ' ', 1),
                          last = split_part(NEW.full_name, ' ', 2)
            WHERE id = OLD.id;
        RETURN NEW;
    ELSE
        UPDATE tr_emp SET active = false WHERE id = OLD.id;
        RETURN OLD;
    END IF;
END
$$;
CREATE TRIGGER tr_emp_v_iud INSTEAD OF INSERT OR UPDATE OR DELETE ON tr_emp_v
    FOR EACH ROW EXECUTE FUNCTION tr_emp_v_dml();
INSERT INTO tr_emp_v VALUES (3, 'grace hopper') RETURNING *;
INSERT INTO tr_emp_v VALUES (4, NULL) RETURNING *;
UPDATE tr_emp_v SET full_name = 'Alan Mathison' WHERE id = 2 RETURNING *;
DELETE FROM tr_emp_v WHERE id = 1 RETURNING *;
SELECT * FROM tr_emp ORDER BY id;
SELECT * FROM tr_emp_v ORDER BY id;
-- the row counts seen by a calling function
CREATE FUNCTION tr_view_counts() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    a integer;
    b integer;
    c integer;
BEGIN
    INSERT INTO tr_emp_v VALUES (5, 'Edsger Dijkstra'), (6, NULL), (7, 'Barbara Liskov');
    GET DIAGNOSTICS a = ROW_COUNT;
    UPDATE tr_emp_v SET full_name = full_name WHERE id >= 5;
    GET DIAGNOSTICS b = ROW_COUNT;
    DELETE FROM tr_emp_v WHERE id = 5;
    GET DIAGNOSTICS c = ROW_COUNT;
    RETURN format('inserted %s, updated %s, deleted %s', a, b, c);
END
$$;
SELECT tr_view_counts();
SELECT * FROM tr_emp_v ORDER BY id;

------------------------------------------------------------------------------
-- 6. triggers on a partitioned table
------------------------------------------------------------------------------

CREATE TABLE tr_meas (region text, id integer, val integer) PARTITION BY LIST (region);
CREATE TABLE tr_meas_north PARTITION OF tr_meas FOR VALUES IN ('north');
CREATE TABLE tr_meas_south PARTITION OF tr_meas FOR VALUES IN ('south');
CREATE FUNCTION tr_part_row() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE '% % % % on % (TG_RELID=%, schema %): NEW=% OLD=%',
        TG_NAME, TG_WHEN, TG_LEVEL, TG_OP, TG_TABLE_NAME, TG_RELID::regclass,
        TG_TABLE_SCHEMA, NEW, OLD;
    IF TG_WHEN = 'BEFORE' AND TG_OP IN ('INSERT', 'UPDATE') THEN
        NEW.val := NEW.val + 1000;
        IF NEW.id = 99 THEN
            NEW.region := 'south';           -- not allowed: changes partition
        END IF;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_meas_b BEFORE INSERT OR UPDATE OR DELETE ON tr_meas
    FOR EACH ROW EXECUTE FUNCTION tr_part_row();
CREATE TRIGGER tr_meas_a AFTER INSERT OR UPDATE OR DELETE ON tr_meas
    FOR EACH ROW EXECUTE FUNCTION tr_part_row();
CREATE TRIGGER tr_meas_s AFTER INSERT OR UPDATE OR DELETE ON tr_meas
    FOR EACH STATEMENT EXECUTE FUNCTION tr_stmt();
INSERT INTO tr_meas VALUES ('north', 1, 1), ('south', 2, 2);
-- an UPDATE moving a row to another partition: BEFORE UPDATE on the old
-- partition, then DELETE from the old one and INSERT into the new one
UPDATE tr_meas SET region = 'south' WHERE id = 1;
SELECT tableoid::regclass AS part, * FROM tr_meas ORDER BY id;
-- a BEFORE row trigger may not move the row to another partition
INSERT INTO tr_meas VALUES ('north', 99, 0);
DELETE FROM tr_meas WHERE id = 2;
SELECT tableoid::regclass AS part, * FROM tr_meas ORDER BY id;

------------------------------------------------------------------------------
-- 7. one trigger function on two tables with different row shapes
------------------------------------------------------------------------------

CREATE TABLE tr_shape_a (id integer, v integer, only_a text);
CREATE TABLE tr_shape_b (v numeric, label text, id text, extra boolean);
-- NEW.v is integer on one table and numeric on the other; the function is
-- compiled for each table separately
CREATE FUNCTION tr_shape() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    NEW.v := NEW.v * 2;
    RAISE NOTICE '%: NEW=% id=% v=% (%) json=%', TG_TABLE_NAME, NEW, NEW.id,
        NEW.v, pg_typeof(NEW.v), row_to_json(NEW);
    r := NEW;
    RAISE NOTICE '%: copied into a record: % / %', TG_TABLE_NAME, r, pg_typeof(r.id);
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_shape BEFORE INSERT ON tr_shape_a
    FOR EACH ROW EXECUTE FUNCTION tr_shape();
CREATE TRIGGER tr_shape BEFORE INSERT ON tr_shape_b
    FOR EACH ROW EXECUTE FUNCTION tr_shape();
INSERT INTO tr_shape_a VALUES (1, 21, 'a');
INSERT INTO tr_shape_b VALUES (1.25, 'b', 'id-b', true);
INSERT INTO tr_shape_a VALUES (2, 5, 'aa');
SELECT * FROM tr_shape_a ORDER BY id;
SELECT * FROM tr_shape_b ORDER BY id;

-- a column added to the table later is seen by the trigger
ALTER TABLE tr_shape_a ADD COLUMN later integer DEFAULT 7;
INSERT INTO tr_shape_a VALUES (3, 1, 'aaa');
ALTER TABLE tr_shape_a DROP COLUMN only_a;
INSERT INTO tr_shape_a VALUES (4, 2);
SELECT * FROM tr_shape_a ORDER BY id;
DROP TRIGGER tr_shape ON tr_shape_a;
DROP TRIGGER tr_shape ON tr_shape_b;

-- a column only one table has: an error only when fired on the other table,
-- and only when the statement using it runs
CREATE FUNCTION tr_only_label() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    IF TG_ARGV[0] = 'guarded' AND TG_TABLE_NAME <> 'tr_shape_b' THEN
        RAISE NOTICE '% guarded: label not read', TG_TABLE_NAME;
        RETURN NEW;
    END IF;
    RAISE NOTICE '% label=%', TG_TABLE_NAME, NEW.label;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_lbl BEFORE INSERT ON tr_shape_b
    FOR EACH ROW EXECUTE FUNCTION tr_only_label();
CREATE TRIGGER tr_lbl BEFORE INSERT ON tr_shape_a
    FOR EACH ROW EXECUTE FUNCTION tr_only_label();
INSERT INTO tr_shape_b VALUES (1, 'has a label', 'x', NULL);
INSERT INTO tr_shape_a VALUES (5, 5);
DROP TRIGGER tr_lbl ON tr_shape_a;
CREATE TRIGGER tr_lbl BEFORE INSERT ON tr_shape_a
    FOR EACH ROW EXECUTE FUNCTION tr_only_label('guarded');
INSERT INTO tr_shape_a VALUES (6, 6);
SELECT id, v FROM tr_shape_a ORDER BY id;

------------------------------------------------------------------------------
-- 8. errors
------------------------------------------------------------------------------

CREATE TABLE tr_err (a integer, b text);

-- a row of the wrong shape returned from a BEFORE trigger (run time, at
-- function exit): a wrong column type, a wrong column count
CREATE FUNCTION tr_bad_shape() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    IF TG_ARGV[0] = 'type' THEN
        RETURN ROW(NEW.a, 2);
    ELSIF TG_ARGV[0] = 'count' THEN
        SELECT NEW.a AS a INTO r;
        RETURN r;
    ELSE
        SELECT NEW.a * 10 AS x, NEW.b || '!' AS y INTO r;
        RETURN r;                   -- other names, same types: accepted
    END IF;
END
$$;
CREATE TRIGGER tr_bad BEFORE INSERT ON tr_err
    FOR EACH ROW EXECUTE FUNCTION tr_bad_shape('type');
INSERT INTO tr_err VALUES (1, 'x');
DROP TRIGGER tr_bad ON tr_err;
CREATE TRIGGER tr_bad BEFORE INSERT ON tr_err
    FOR EACH ROW EXECUTE FUNCTION tr_bad_shape('count');
INSERT INTO tr_err VALUES (1, 'x');
DROP TRIGGER tr_bad ON tr_err;
CREATE TRIGGER tr_bad BEFORE INSERT ON tr_err
    FOR EACH ROW EXECUTE FUNCTION tr_bad_shape('names');
INSERT INTO tr_err VALUES (1, 'x');
SELECT * FROM tr_err;
DROP TRIGGER tr_bad ON tr_err;

-- a non-row value: CREATE FUNCTION accepts it, firing the trigger fails,
-- in a BEFORE and also in an AFTER trigger (whose result is ignored)
CREATE FUNCTION tr_ret_scalar() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RETURN 1;
END
$$;
CREATE TRIGGER tr_scalar BEFORE INSERT ON tr_err
    FOR EACH ROW EXECUTE FUNCTION tr_ret_scalar();
INSERT INTO tr_err VALUES (2, 'y');
DROP TRIGGER tr_scalar ON tr_err;
CREATE TRIGGER tr_scalar AFTER INSERT ON tr_err
    FOR EACH ROW EXECUTE FUNCTION tr_ret_scalar();
INSERT INTO tr_err VALUES (2, 'y');
DROP TRIGGER tr_scalar ON tr_err;
-- even in a statement trigger, whose result is never used
CREATE TRIGGER tr_scalar AFTER INSERT ON tr_err
    FOR EACH STATEMENT EXECUTE FUNCTION tr_ret_scalar();
INSERT INTO tr_err VALUES (2, 'y');
DROP TRIGGER tr_scalar ON tr_err;
-- RETURN without a value and RETURN NEXT: rejected by CREATE FUNCTION
CREATE FUNCTION tr_ret_nothing() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RETURN;
END
$$;
CREATE FUNCTION tr_ret_next() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT NEW;
END
$$;

-- falling off the end without RETURN (run time)
CREATE FUNCTION tr_no_return() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'in % for %', TG_NAME, NEW;
END
$$;
CREATE TRIGGER tr_noret BEFORE INSERT ON tr_err
    FOR EACH ROW EXECUTE FUNCTION tr_no_return();
INSERT INTO tr_err VALUES (3, 'z');
DROP TRIGGER tr_noret ON tr_err;
CREATE TRIGGER tr_noret AFTER INSERT ON tr_err
    FOR EACH STATEMENT EXECUTE FUNCTION tr_no_return();
INSERT INTO tr_err VALUES (3, 'z');
DROP TRIGGER tr_noret ON tr_err;

-- calling a trigger function directly
SELECT tr_show();
SELECT * FROM tr_no_return();
DO LANGUAGE plnimble $$
BEGIN
    PERFORM tr_guard();
END
$$;

-- a trigger function with declared arguments
CREATE FUNCTION tr_with_args(integer) RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RETURN NEW;
END
$$;
CREATE FUNCTION tr_with_out(OUT x integer) RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RETURN NEW;
END
$$;

-- assigning to NEW in an AFTER trigger and in a DELETE trigger: no error,
-- the assignment is simply lost (AFTER) or makes NEW a non-NULL row
CREATE FUNCTION tr_assign_new() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE '% %: before NEW=% NEW IS NULL=%', TG_WHEN, TG_OP, NEW, NEW IS NULL;
    NEW.b := 'changed in ' || TG_WHEN;
    RAISE NOTICE '% %: after NEW=%', TG_WHEN, TG_OP, NEW;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_assign AFTER INSERT OR DELETE ON tr_err
    FOR EACH ROW EXECUTE FUNCTION tr_assign_new();
INSERT INTO tr_err VALUES (4, 'original') RETURNING *;
DELETE FROM tr_err WHERE a = 4;
SELECT * FROM tr_err ORDER BY a;
DROP TRIGGER tr_assign ON tr_err;
-- assigning the whole NEW from a NULL OLD in BEFORE INSERT makes NEW NULL:
-- the row is skipped
CREATE FUNCTION tr_new_from_old() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    NEW := OLD;
    RAISE NOTICE 'NEW := OLD gives % (IS NULL=%)', NEW, NEW IS NULL;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_nfo BEFORE INSERT ON tr_err
    FOR EACH ROW EXECUTE FUNCTION tr_new_from_old();
INSERT INTO tr_err VALUES (5, 'skipped') RETURNING *;
DROP TRIGGER tr_nfo ON tr_err;

-- an error raised inside a trigger: the statement fails, the CONTEXT shows
-- the trigger function's line; nothing of the statement stays
CREATE FUNCTION tr_check_b() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    IF NEW.b IS NULL THEN
        RAISE EXCEPTION 'b must not be NULL (a=%)', NEW.a
            USING ERRCODE = 'not_null_violation', DETAIL = 'raised by ' || TG_NAME;
    END IF;
    n := length(NEW.b) / (NEW.a - 7);    -- division by zero when a = 7
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_check BEFORE INSERT OR UPDATE ON tr_err
    FOR EACH ROW EXECUTE FUNCTION tr_check_b();
INSERT INTO tr_err VALUES (6, 'fine'), (8, NULL);
INSERT INTO tr_err VALUES (7, 'seven');
UPDATE tr_err SET b = NULL;
SELECT * FROM tr_err ORDER BY a;

------------------------------------------------------------------------------
-- 9. exception blocks in and around triggers
------------------------------------------------------------------------------

-- the trigger catches a unique violation while writing its audit row; the
-- audit row is dropped, the triggering statement goes on
CREATE TABLE tr_doc (id integer PRIMARY KEY, title text);
CREATE TABLE tr_doc_audit (doc_id integer, op text, PRIMARY KEY (doc_id, op));
CREATE FUNCTION tr_doc_audit() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
    msg text;
    cname text;
BEGIN
    BEGIN
        INSERT INTO tr_doc_audit VALUES (NEW.id, TG_OP);
        RAISE NOTICE 'audited % of %', TG_OP, NEW.id;
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, cname = CONSTRAINT_NAME;
        RAISE NOTICE 'audit row for % of % exists (%, constraint %)',
            TG_OP, NEW.id, SQLSTATE, cname;
    END;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_doc_audit AFTER INSERT OR UPDATE ON tr_doc
    FOR EACH ROW EXECUTE FUNCTION tr_doc_audit();
INSERT INTO tr_doc VALUES (1, 'a'), (2, 'b');
UPDATE tr_doc SET title = title || '2';
UPDATE tr_doc SET title = title || '3' WHERE id = 1;
SELECT * FROM tr_doc ORDER BY id;
SELECT * FROM tr_doc_audit ORDER BY doc_id, op;

-- a BEFORE trigger raises, the calling function's handler catches the
-- error: the row is not inserted, the function goes on
CREATE FUNCTION tr_doc_check() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    IF NEW.title = '' THEN
        RAISE EXCEPTION 'empty title for doc %', NEW.id
            USING ERRCODE = 'check_violation', HINT = 'give it a title';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_doc_check BEFORE INSERT ON tr_doc
    FOR EACH ROW EXECUTE FUNCTION tr_doc_check();
CREATE FUNCTION tr_add_doc(p_id integer, p_title text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    st text;
    msg text;
    hint text;
    ctx text;
BEGIN
    INSERT INTO tr_doc VALUES (p_id, p_title);
    RETURN 'added ' || p_id;
EXCEPTION
    WHEN check_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
                                hint = PG_EXCEPTION_HINT, ctx = PG_EXCEPTION_CONTEXT;
        RAISE NOTICE 'context: %', ctx;
        RETURN format('rejected %s: %s %s (hint: %s)', p_id, st, msg, hint);
    WHEN unique_violation THEN
        RETURN format('duplicate %s: %s', p_id, SQLERRM);
END
$$;
SELECT tr_add_doc(3, 'c');
SELECT tr_add_doc(4, '');
SELECT tr_add_doc(1, 'again');
SELECT * FROM tr_doc ORDER BY id;
SELECT * FROM tr_doc_audit ORDER BY doc_id, op;

-- the handler in a DO block; a second statement in the same block after a
-- caught trigger error sees none of the failed statement's rows
DO LANGUAGE plnimble $$
DECLARE
    n integer;
BEGIN
    BEGIN
        INSERT INTO tr_doc VALUES (10, 'ten'), (11, ''), (12, 'twelve');
    EXCEPTION WHEN check_violation THEN
        RAISE NOTICE 'caught: %', SQLERRM;
    END;
    SELECT count(*) INTO n FROM tr_doc WHERE id >= 10;
    RAISE NOTICE 'rows >= 10 after the failed insert: %', n;
    SELECT count(*) INTO n FROM tr_doc_audit WHERE doc_id >= 10;
    RAISE NOTICE 'audit rows >= 10: %', n;
END
$$;

------------------------------------------------------------------------------
-- 10. event triggers
------------------------------------------------------------------------------

CREATE FUNCTION tr_ev_start() RETURNS event_trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'start: TG_EVENT=% TG_TAG=%', TG_EVENT, TG_TAG;
    IF TG_TAG = 'CREATE SCHEMA' THEN
        RAISE EXCEPTION 'no new schemas, please (%)', TG_TAG;
    END IF;
END
$$;
CREATE FUNCTION tr_ev_end() RETURNS event_trigger LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    RAISE NOTICE 'end: TG_EVENT=% TG_TAG=%', TG_EVENT, TG_TAG;
    FOR r IN SELECT object_type, command_tag, object_identity, in_extension
             FROM pg_event_trigger_ddl_commands() LOOP
        RAISE NOTICE '  command: % % % in_extension=%', r.command_tag,
            r.object_type, r.object_identity, r.in_extension;
    END LOOP;
END
$$;
CREATE FUNCTION tr_ev_drop() RETURNS event_trigger LANGUAGE plnimble AS $$
DECLARE
    r record;
    n integer := 0;
BEGIN
    FOR r IN SELECT object_type, object_identity, original, normal
             FROM pg_event_trigger_dropped_objects()
             WHERE schema_name IS DISTINCT FROM 'pg_toast'
             ORDER BY object_type, object_identity LOOP
        n := n + 1;
        RAISE NOTICE '  dropped: % % original=% normal=%', r.object_type,
            r.object_identity, r.original, r.normal;
    END LOOP;
    RAISE NOTICE 'drop: TG_EVENT=% TG_TAG=% (% objects)', TG_EVENT, TG_TAG, n;
END
$$;
CREATE EVENT TRIGGER tr_ev_start ON ddl_command_start
    EXECUTE FUNCTION tr_ev_start();
CREATE EVENT TRIGGER tr_ev_end ON ddl_command_end
    EXECUTE FUNCTION tr_ev_end();
CREATE EVENT TRIGGER tr_ev_drop ON sql_drop
    EXECUTE FUNCTION tr_ev_drop();
CREATE TABLE tr_ev_t (id serial PRIMARY KEY, name text);
ALTER TABLE tr_ev_t ADD COLUMN qty integer;
CREATE INDEX tr_ev_t_qty ON tr_ev_t (qty);
CREATE VIEW tr_ev_v AS SELECT id FROM tr_ev_t;
DROP VIEW tr_ev_v;
DROP TABLE tr_ev_t;
-- DML does not fire event triggers
INSERT INTO tr_doc VALUES (20, 'dml');
-- the ddl_command_start trigger rejects a command: nothing is created
CREATE SCHEMA tr_ev_schema;
SELECT count(*) FROM pg_namespace WHERE nspname = 'tr_ev_schema';
-- a WHEN TAG IN filter
DROP EVENT TRIGGER tr_ev_start;
CREATE EVENT TRIGGER tr_ev_start ON ddl_command_start
    WHEN TAG IN ('DROP FUNCTION') EXECUTE FUNCTION tr_ev_start();
CREATE FUNCTION tr_ev_victim() RETURNS integer LANGUAGE sql AS 'SELECT 1';
DROP FUNCTION tr_ev_victim();
DROP EVENT TRIGGER tr_ev_start;
DROP EVENT TRIGGER tr_ev_end;
DROP EVENT TRIGGER tr_ev_drop;
SELECT count(*) FROM pg_event_trigger WHERE evtname LIKE 'tr_ev%';

-- errors: calling an event trigger function directly (run time), RETURN
-- with a value (CREATE FUNCTION time), declared arguments, an event
-- trigger function used as a table trigger and the other way round
SELECT tr_ev_end();
CREATE FUNCTION tr_ev_ret() RETURNS event_trigger LANGUAGE plnimble AS $$
BEGIN
    RETURN 1;
END
$$;
CREATE FUNCTION tr_ev_ret_null() RETURNS event_trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'plain RETURN is fine';
    RETURN;
END
$$;
CREATE FUNCTION tr_ev_args(text) RETURNS event_trigger LANGUAGE plnimble AS $$
BEGIN
END
$$;
CREATE TRIGGER tr_wrong BEFORE INSERT ON tr_err
    FOR EACH ROW EXECUTE FUNCTION tr_ev_end();
CREATE EVENT TRIGGER tr_wrong ON ddl_command_end EXECUTE FUNCTION tr_show();
-- NEW, TG_OP are not declared in an event trigger function, TG_TAG is not
-- declared in a trigger function: CREATE FUNCTION accepts them (they could
-- be column names), running the statement fails
CREATE FUNCTION tr_ev_new() RETURNS event_trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE '%', NEW;
END
$$;
CREATE FUNCTION tr_ev_tgop() RETURNS event_trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE '%', TG_OP;
END
$$;
CREATE FUNCTION tr_tg_tag() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE '%', TG_TAG;
    RETURN NULL;
END
$$;
CREATE TRIGGER tr_tag BEFORE INSERT ON tr_err
    FOR EACH ROW EXECUTE FUNCTION tr_tg_tag();
INSERT INTO tr_err VALUES (30, 'tag');
DROP TRIGGER tr_tag ON tr_err;
CREATE EVENT TRIGGER tr_ev_bad ON ddl_command_start
    WHEN TAG IN ('CREATE SEQUENCE') EXECUTE FUNCTION tr_ev_tgop();
CREATE SEQUENCE tr_seq;
DROP EVENT TRIGGER tr_ev_bad;
CREATE EVENT TRIGGER tr_ev_bad ON ddl_command_start
    WHEN TAG IN ('CREATE SEQUENCE') EXECUTE FUNCTION tr_ev_new();
CREATE SEQUENCE tr_seq;
DROP EVENT TRIGGER tr_ev_bad;
-- a plain RETURN ends an event trigger function normally
CREATE EVENT TRIGGER tr_ev_ok ON ddl_command_start
    WHEN TAG IN ('CREATE SEQUENCE') EXECUTE FUNCTION tr_ev_ret_null();
CREATE SEQUENCE tr_seq;
DROP EVENT TRIGGER tr_ev_ok;
SELECT relname FROM pg_class WHERE relname = 'tr_seq';
SELECT count(*) AS event_triggers_left FROM pg_event_trigger;

-- stored generated columns read as NULL in NEW before an UPDATE (they are
-- computed after the BEFORE triggers), whatever the old row or an earlier
-- trigger put there; after the update, and in OLD, they hold their values
CREATE TABLE tr_gen (a int, b int GENERATED ALWAYS AS (a * 2) STORED, c text);
INSERT INTO tr_gen (a, c) VALUES (1, 'one');
CREATE FUNCTION tr_gen_show() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE '% % %: new = %, old = %, new.b is null: %',
        TG_NAME, TG_WHEN, TG_OP, NEW, OLD, NEW.b IS NULL;
    RETURN NEW;
END
$$;
CREATE FUNCTION tr_gen_set() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    NEW.b := 99;
    RETURN NEW;
END
$$;
CREATE TRIGGER tr_gen_1 BEFORE UPDATE ON tr_gen
    FOR EACH ROW EXECUTE FUNCTION tr_gen_show();
CREATE TRIGGER tr_gen_2 AFTER UPDATE ON tr_gen
    FOR EACH ROW EXECUTE FUNCTION tr_gen_show();
UPDATE tr_gen SET a = 2;
UPDATE tr_gen SET c = 'only c';
CREATE TRIGGER tr_gen_0 BEFORE UPDATE ON tr_gen
    FOR EACH ROW EXECUTE FUNCTION tr_gen_set();
UPDATE tr_gen SET a = 3;
CREATE TRIGGER tr_gen_3 BEFORE INSERT ON tr_gen
    FOR EACH ROW EXECUTE FUNCTION tr_gen_show();
INSERT INTO tr_gen (a, c) VALUES (4, 'four');
SELECT * FROM tr_gen ORDER BY a;
