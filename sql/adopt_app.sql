-- Moving an application to plnimble and back, as a new user does it
-- (issue 31): a multi-schema application whose routines name the types
-- and tables of their schema without qualification (shop, ledger), SQL
-- routines next to PL/pgSQL ones, a routine used by a CHECK constraint, a
-- view and a trigger, and a job queue installed with CREATE EXTENSION
-- (regress_adopt_queue, from sql/separate/adopt_app/, copied into the
-- server's share/extension for the test).  Its own test suite
-- (app_suite(), outside the application, in the real PL/pgSQL) runs
-- before adoption, after it and after reverting, with the same results.
-- On the way: the search path adopt and revert re-create routines with
-- and what they say when a name is not found; every routine of a schema
-- reported; extension members moved on request; an upgrade script and
-- ALTER EXTENSION UPDATE turning routines back into PL/pgSQL, seen with
-- plnimble_routines() and the event trigger functions; the plan view's
-- qualified names; what pg_dump writes; what DROP EXTENSION plnimble
-- refuses and what its CASCADE takes; CREATE LANGUAGE plnimble.
-- plnimble-only (listed in oracle-allowlist.txt): the oracle database has
-- no plnimble extension.

SELECT NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'plnimble') AS no_plnimble \gset
\if :no_plnimble
\echo 'no plnimble in this database: nothing to adopt'
\quit
\endif

-- the real PL/pgSQL next to plnimble (in the test database the language
-- named plpgsql runs on plnimble: put the real one back)
DROP LANGUAGE plpgsql;
CREATE EXTENSION plpgsql;
\setenv PGDATABASE :DBNAME
\! sh sql/separate/adopt_app.sh install

CREATE EXTENSION regress_adopt_queue VERSION '1.0';

CREATE SCHEMA shop;
CREATE SCHEMA ledger;
CREATE TYPE shop.item AS (sku text, qty int, price numeric);
CREATE DOMAIN shop.amount AS numeric CHECK (VALUE >= 0);
CREATE TABLE ledger.entry (id serial PRIMARY KEY, order_id int, amount numeric, note text);

-- The application is created as its own scripts do, with its search path.
SET search_path = shop, ledger, queue, public;

CREATE FUNCTION valid_status(s text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE
AS $$ BEGIN RETURN s IN ('open', 'paid', 'cancelled'); END $$;
CREATE TABLE orders (id int PRIMARY KEY, customer text NOT NULL, total amount,
                     status text NOT NULL DEFAULT 'open' CHECK (valid_status(status)));
CREATE TABLE order_line (order_id int REFERENCES orders, sku text, qty int, price numeric);
CREATE TABLE order_log (n serial, order_id int, what text);

CREATE FUNCTION line_total(l item) RETURNS amount LANGUAGE plpgsql IMMUTABLE
AS $$ BEGIN RETURN (l.qty * l.price)::amount; END $$;

CREATE FUNCTION ledger.post(o int, a numeric) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    e entry;
BEGIN
    INSERT INTO entry (order_id, amount, note) VALUES (o, a, 'order ' || o)
        RETURNING * INTO e;
    RETURN e.id;
END
$$;

CREATE FUNCTION place_order(o int, who text, lines item[]) RETURNS amount
LANGUAGE plpgsql AS $$
DECLARE
    l item;
    t amount := 0;
BEGIN
    BEGIN
        INSERT INTO orders (id, customer) VALUES (o, who);
    EXCEPTION WHEN unique_violation THEN
        RETURN NULL;
    END;
    FOREACH l IN ARRAY lines LOOP
        INSERT INTO order_line VALUES (o, l.sku, l.qty, l.price);
        BEGIN
            t := t + line_total(l);
        EXCEPTION WHEN check_violation THEN
            RAISE NOTICE 'line % is negative', l.sku;
        END;
    END LOOP;
    UPDATE orders SET total = t WHERE id = o;
    PERFORM post(o, t);
    PERFORM push('ship ' || o);
    RETURN t;
END
$$;

CREATE FUNCTION safe_date(s text) RETURNS date LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN s::date;
EXCEPTION WHEN datetime_field_overflow THEN
    RETURN NULL;
END
$$;

CREATE FUNCTION log_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO order_log (order_id, what) VALUES (NEW.id, TG_OP || ' ' || NEW.status);
    RETURN NEW;
END
$$;
CREATE TRIGGER orders_log AFTER INSERT OR UPDATE OF status ON orders
    FOR EACH ROW EXECUTE FUNCTION log_status();

-- SQL routines, and a view that calls a PL/pgSQL one
CREATE FUNCTION order_count() RETURNS bigint LANGUAGE sql STABLE
AS $$ SELECT count(*) FROM orders $$;
CREATE PROCEDURE set_status(o int, s text) LANGUAGE sql
AS $$ UPDATE shop.orders SET status = s WHERE id = o $$;
CREATE VIEW line_totals AS
SELECT order_id, sku, line_total(ROW(sku, qty, price)::item) AS total FROM order_line;

CREATE FUNCTION ledger.balance() RETURNS numeric LANGUAGE sql STABLE
AS $$ SELECT coalesce(sum(amount), 0) FROM ledger.entry $$;
-- a table of another schema of the application, unqualified
CREATE FUNCTION last_entry() RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
    e entry;
BEGIN
    SELECT * INTO e FROM entry ORDER BY id DESC LIMIT 1;
    RETURN e.note;
END
$$;
RESET search_path;

-- The application's test suite: every routine called, the results as
-- text; the tables emptied first, so that each phase starts alike.
CREATE TABLE suite_result (phase text, item text, result text);
CREATE FUNCTION app_suite(phase text) RETURNS void LANGUAGE plpgsql
SET search_path = shop, ledger, queue, public AS $$
DECLARE
    j queue.job;
BEGIN
    TRUNCATE shop.order_line, shop.orders, shop.order_log, ledger.entry, queue.job
        RESTART IDENTITY;
    INSERT INTO suite_result VALUES
        (phase, 'order 1', place_order(1, 'ann', ARRAY[ROW('a', 2, 1.5)::item, ROW('b', 1, 4)::item])::text),
        (phase, 'order 1 again', coalesce(place_order(1, 'ann', '{}')::text, 'null')),
        (phase, 'order 2', place_order(2, 'bob', ARRAY[ROW('c', 3, 2)::item])::text);
    CALL set_status(1, 'paid');
    BEGIN
        CALL set_status(2, 'lost');
    EXCEPTION WHEN check_violation THEN
        INSERT INTO suite_result VALUES (phase, 'bad status', SQLERRM);
    END;
    j := take();
    INSERT INTO suite_result VALUES
        (phase, 'taken', j.id || ' ' || j.payload || ' ' || j.state),
        (phase, 'finished', finish(j.id, false)::text),
        (phase, 'pending', pending()::text),
        (phase, 'order_count', order_count()::text),
        (phase, 'balance', balance()::text),
        (phase, 'last entry', last_entry()),
        (phase, 'dates', concat_ws(' ', safe_date('2026-12-02'), safe_date('2026-13-40'))),
        (phase, 'log', (SELECT string_agg(order_id || ':' || what, ', ' ORDER BY n) FROM order_log)),
        (phase, 'view', (SELECT string_agg(sku || '=' || total, ', ' ORDER BY sku) FROM line_totals));
END
$$;
-- the application's routines by schema and language
\set app_languages 'SELECT routine_schema, language, count(*), string_agg(routine::text, '', '' ORDER BY routine::text) AS routines FROM plnimble_routines() WHERE routine_schema IN (''shop'', ''ledger'', ''queue'') GROUP BY 1, 2 ORDER BY 1, 2'

SELECT app_suite('before');
:app_languages;

-- 1. The search path.  Under the default one ("$user", public) the
-- application's routines still move: each is re-created with its own
-- schema first on the path.  One names a table of another schema of the
-- application, which only the application's path finds: the row says
-- with which path the name was looked for; with that path it moves.
-- 2. Every routine of the schema is reported, the SQL ones and the
-- procedure too, each skipped one with its reason.
SHOW search_path;
SELECT * FROM plnimble_adopt('shop');
SELECT * FROM plnimble_adopt('ledger');
SET search_path = shop, ledger, queue, public;
SELECT * FROM plnimble_adopt('shop');
RESET search_path;
-- after adopting, a dry run still lists everything
SELECT action, reason, count(*) FROM plnimble_adopt('shop', dry_run => true)
 GROUP BY 1, 2 ORDER BY 1, 2;

-- 3. The queue belongs to an extension: skipped, unless asked for; the
-- row says what the extension's scripts and dumps do with it
SELECT * FROM plnimble_adopt('queue');
SELECT * FROM plnimble_adopt('queue', include_extension_members => true);
-- plnimble's own functions are never switched
SELECT action, reason, count(*)
  FROM plnimble_revert('pg_catalog', dry_run => true, include_extension_members => true)
 WHERE routine::text LIKE 'plnimble%' GROUP BY 1, 2;
:app_languages;

SELECT app_suite('adopted');

-- 6. The plan view names routines schema-qualified, even when their
-- schema is on the search path, and a handler of another condition than
-- unique_violation is called that
SET search_path = shop, ledger, queue, public;
SELECT * FROM plnimble_savepoint_plan('place_order(int, text, item[])');
SELECT btrim(line) FROM plnimble_savepoint_plan('safe_date(text)') AS line
 WHERE line ~ 'write path';
CREATE FUNCTION public.adopt_app_status(s text) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF valid_status(s) THEN
        RETURN s;
    END IF;
    RETURN 'open';
EXCEPTION WHEN others THEN
    RETURN 'open';
END
$$;
SELECT btrim(line) FROM plnimble_savepoint_plan('adopt_app_status(text)') AS line
 WHERE line ~ 'allowlist';
DROP FUNCTION public.adopt_app_status(text);
RESET search_path;

-- 4. An upgrade of the application creates routines again, in the
-- LANGUAGE of its text: back to PL/pgSQL, silently.  plnimble_routines()
-- shows it; event triggers (a superuser's) on plnimble_warn_replaced say
-- so, on plnimble_readopt_replaced move them to plnimble again.
CREATE EVENT TRIGGER adopt_app_watch_start ON ddl_command_start
    WHEN TAG IN ('CREATE FUNCTION', 'CREATE PROCEDURE', 'ALTER EXTENSION')
    EXECUTE FUNCTION plnimble_warn_replaced();
CREATE EVENT TRIGGER adopt_app_watch_end ON ddl_command_end
    WHEN TAG IN ('CREATE FUNCTION', 'CREATE PROCEDURE', 'ALTER EXTENSION')
    EXECUTE FUNCTION plnimble_warn_replaced();
-- the upgrade script, in one transaction: one routine re-created, one new
BEGIN;
SET LOCAL search_path = shop, ledger, queue, public;
CREATE OR REPLACE FUNCTION line_total(l item) RETURNS amount LANGUAGE plpgsql IMMUTABLE
AS $$ BEGIN RETURN (coalesce(l.qty, 0) * l.price)::amount; END $$;
CREATE FUNCTION cancel_order(o int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    UPDATE orders SET status = 'cancelled' WHERE id = o;
    RETURN (SELECT status FROM orders WHERE id = o);
END
$$;
-- a routine of a schema nothing was adopted in: nothing said
CREATE FUNCTION public.adopt_app_helper() RETURNS int LANGUAGE plpgsql
AS $$ BEGIN RETURN 1; END $$;
COMMIT;
ALTER EXTENSION regress_adopt_queue UPDATE TO '1.1';
:app_languages;
-- the same again, with the routines moved back as they come
DROP EVENT TRIGGER adopt_app_watch_start;
DROP EVENT TRIGGER adopt_app_watch_end;
CREATE EVENT TRIGGER adopt_app_readopt_start ON ddl_command_start
    WHEN TAG IN ('CREATE FUNCTION', 'CREATE PROCEDURE', 'ALTER EXTENSION')
    EXECUTE FUNCTION plnimble_readopt_replaced();
CREATE EVENT TRIGGER adopt_app_readopt_end ON ddl_command_end
    WHEN TAG IN ('CREATE FUNCTION', 'CREATE PROCEDURE', 'ALTER EXTENSION')
    EXECUTE FUNCTION plnimble_readopt_replaced();
SELECT * FROM plnimble_adopt_function('queue.finish(integer, boolean)',
                                      include_extension_members => true);
SET search_path = shop, ledger, queue, public;
CREATE OR REPLACE FUNCTION line_total(l item) RETURNS amount LANGUAGE plpgsql IMMUTABLE
AS $$ BEGIN RETURN (coalesce(l.qty, 0) * l.price)::amount; END $$;
CREATE OR REPLACE FUNCTION cancel_order(o int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    UPDATE orders SET status = 'cancelled' WHERE id = o;
    RETURN (SELECT status FROM orders WHERE id = o);
END
$$;
RESET search_path;
-- the next ALTER EXTENSION UPDATE re-creates finish() and retry()
SELECT * FROM plnimble_adopt_function('queue.retry(integer)',
                                      include_extension_members => true);
ALTER EXTENSION regress_adopt_queue UPDATE TO '1.2';
-- plnimble_revert's own re-creations are not taken back
SELECT * FROM plnimble_revert_function('shop.cancel_order(integer)');
DROP EVENT TRIGGER adopt_app_readopt_start;
DROP EVENT TRIGGER adopt_app_readopt_end;
-- the functions are for ddl_command_start and ddl_command_end only
CREATE EVENT TRIGGER adopt_app_wrong ON sql_drop
    EXECUTE FUNCTION plnimble_readopt_replaced();
DROP FUNCTION public.adopt_app_helper();
DROP EVENT TRIGGER adopt_app_wrong;
DROP FUNCTION public.adopt_app_helper();
:app_languages;

SELECT app_suite('adopted, upgraded');

-- What pg_dump writes: the application's routines with LANGUAGE
-- plnimble, the extension's members not at all (CREATE EXTENSION brings
-- them back from its scripts, in PL/pgSQL)
SELECT setting AS bindir FROM pg_config WHERE name = 'BINDIR' \gset
\setenv PLN_BINDIR :bindir
\! "$PLN_BINDIR"/pg_dump --schema-only --no-owner --no-privileges --no-comments | grep -E '^(CREATE (EXTENSION|FUNCTION|PROCEDURE)|    LANGUAGE)' | sed 's/(.*//'

-- 5. DROP EXTENSION plnimble refuses while routines are written in it;
-- its CASCADE takes them and everything that depends on them: the view,
-- the CHECK constraint, the trigger, and the whole queue extension with
-- its table, whose members were moved
DROP EXTENSION plnimble;
BEGIN;
DROP EXTENSION plnimble CASCADE;
SELECT pronamespace::regnamespace AS schema, count(*) FROM pg_proc
 WHERE pronamespace::regnamespace::text IN ('shop', 'ledger', 'queue') GROUP BY 1 ORDER BY 1;
SELECT count(*) AS queue_extension FROM pg_extension WHERE extname = 'regress_adopt_queue';
SELECT to_regclass('queue.job') AS queue_table, to_regclass('shop.line_totals') AS view;
SELECT conname FROM pg_constraint WHERE conrelid = 'shop.orders'::regclass AND contype = 'c';
SELECT tgname FROM pg_trigger WHERE tgrelid = 'shop.orders'::regclass AND NOT tgisinternal;
ROLLBACK;

-- and back: plnimble_revert, the extension's members asked for
SELECT * FROM plnimble_revert('shop');
SELECT * FROM plnimble_revert('ledger');
SET search_path = shop, ledger, queue, public;
SELECT * FROM plnimble_revert_function('last_entry()');
RESET search_path;
SELECT * FROM plnimble_revert('queue');
SELECT * FROM plnimble_revert('queue', include_extension_members => true);
:app_languages;

SELECT app_suite('reverted');

-- the same results in every phase
SELECT b.item, b.result AS before,
       a.result = b.result AS adopted_same,
       u.result = b.result AS upgraded_same,
       r.result = b.result AS reverted_same
  FROM suite_result b
  JOIN suite_result a ON a.item = b.item AND a.phase = 'adopted'
  JOIN suite_result u ON u.item = b.item AND u.phase = 'adopted, upgraded'
  JOIN suite_result r ON r.item = b.item AND r.phase = 'reverted'
 WHERE b.phase = 'before'
 ORDER BY b.item;

-- nothing depends on plnimble now: DROP EXTENSION needs no CASCADE
DROP EXTENSION plnimble;
SELECT count(*) AS queue_extension FROM pg_extension WHERE extname = 'regress_adopt_queue';

-- 8. CREATE LANGUAGE plnimble is CREATE EXTENSION plnimble (the server
-- turns a CREATE LANGUAGE without a handler into it); the language is the
-- extension's, so DROP LANGUAGE is refused and a dump has CREATE
-- EXTENSION
CREATE LANGUAGE plnimble;
SELECT extname, extversion FROM pg_extension WHERE extname = 'plnimble';
CREATE OR REPLACE LANGUAGE plnimble;
DROP LANGUAGE plnimble;
\! "$PLN_BINDIR"/pg_dump --schema-only | grep -E 'plnimble' | grep -v '^--'

DROP EXTENSION regress_adopt_queue;
DROP SCHEMA shop, ledger CASCADE;
DROP FUNCTION app_suite(text);
DROP TABLE suite_result;
\! sh sql/separate/adopt_app.sh remove
