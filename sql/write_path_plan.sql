-- The write path (issue 18): which INSERTs run without their block's
-- subtransaction, and why the others do not, as plnimble_savepoint_plan()
-- says and as the session counters show when they run: one function per
-- condition, each inserting a new key and then a duplicate.
-- plnimble-only (listed in oracle-allowlist.txt): the plan view and the
-- counters do not exist in PL/pgSQL; sql/write_path_matrix*.sql checks
-- the same statements' results against PL/pgSQL.

CREATE TABLE wp_prev AS
SELECT blocks_entered, savepoints_materialized, errors_caught_lazy,
       errors_caught_subxact, writes_without_savepoint
  FROM plnimble_savepoint_stats();

-- counters since the last call
CREATE FUNCTION wp_delta(OUT savepoints bigint, OUT caught_lazy bigint,
                         OUT caught_subxact bigint, OUT writes bigint)
LANGUAGE sql AS $$
    WITH cur AS (SELECT * FROM plnimble_savepoint_stats()),
         old AS (SELECT * FROM wp_prev),
         upd AS (UPDATE wp_prev SET (blocks_entered, savepoints_materialized,
                                     errors_caught_lazy, errors_caught_subxact,
                                     writes_without_savepoint)
                     = (SELECT blocks_entered, savepoints_materialized,
                               errors_caught_lazy, errors_caught_subxact,
                               writes_without_savepoint FROM cur))
    SELECT cur.savepoints_materialized - old.savepoints_materialized,
           cur.errors_caught_lazy - old.errors_caught_lazy,
           cur.errors_caught_subxact - old.errors_caught_subxact,
           cur.writes_without_savepoint - old.writes_without_savepoint
      FROM cur, old
$$;

-- the write-path lines of a function's plan
CREATE FUNCTION wp_plan(f regprocedure) RETURNS SETOF text LANGUAGE sql AS $$
    SELECT btrim(line) FROM plnimble_savepoint_plan(f) AS line
     WHERE line LIKE '%write path%'
$$;

-- run f(1), f(1) in one transaction (a new key, then its duplicate), show
-- what the calls returned and the counters
CREATE FUNCTION wp_run(f text) RETURNS TABLE (results text, savepoints bigint,
    caught_lazy bigint, caught_subxact bigint, writes bigint)
LANGUAGE plpgsql AS $$
DECLARE r1 text; r2 text;
BEGIN
    PERFORM wp_delta();
    EXECUTE format('SELECT %s(1)::text', f) INTO r1;
    EXECUTE format('SELECT %s(1)::text', f) INTO r2;
    RETURN QUERY SELECT r1 || ', ' || r2, d.* FROM wp_delta() d;
END $$;

CREATE TABLE wp_t (k int PRIMARY KEY, v text);

-- qualifies
CREATE FUNCTION wp_yes(n int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        INSERT INTO wp_t (k, v) VALUES (n, 'v' || n::text);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'dup ' || SQLERRM;
    END;
    RETURN 'new';
END $$;
SELECT * FROM wp_plan('wp_yes(int)');
SELECT * FROM wp_run('wp_yes');

-- SQLSTATE '23505' is the same condition
CREATE FUNCTION wp_sqlstate(n int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        INSERT INTO wp_t VALUES (n + 100, 'x');
    EXCEPTION WHEN SQLSTATE '23505' THEN
        RETURN 'dup';
    END;
    RETURN 'new';
END $$;
SELECT * FROM wp_plan('wp_sqlstate(int)');
SELECT * FROM wp_run('wp_sqlstate');

-- handlers that catch more than unique_violation
CREATE FUNCTION wp_others(n int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        INSERT INTO wp_t VALUES (n + 200, 'x');
    EXCEPTION WHEN OTHERS THEN
        RETURN 'dup';
    END;
    RETURN 'new';
END $$;
SELECT * FROM wp_plan('wp_others(int)');
SELECT * FROM wp_run('wp_others');

CREATE FUNCTION wp_two_conditions(n int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        INSERT INTO wp_t VALUES (n + 300, 'x');
    EXCEPTION WHEN unique_violation OR division_by_zero THEN
        RETURN 'dup';
    END;
    RETURN 'new';
END $$;
SELECT * FROM wp_plan('wp_two_conditions(int)');

CREATE FUNCTION wp_class(n int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        INSERT INTO wp_t VALUES (n + 400, 'x');
    EXCEPTION WHEN integrity_constraint_violation THEN
        RETURN 'dup';
    END;
    RETURN 'new';
END $$;
SELECT * FROM wp_plan('wp_class(int)');

-- the INSERT is not the block's last statement, or not its statement
CREATE FUNCTION wp_not_last(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE c int := 0;
BEGIN
    BEGIN
        INSERT INTO wp_t VALUES (n + 500, 'x');
        c := c + 1;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'dup';
    END;
    RETURN 'new';
END $$;
SELECT * FROM wp_plan('wp_not_last(int)');
SELECT * FROM wp_run('wp_not_last');

CREATE FUNCTION wp_in_loop(n int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        FOR i IN 1..2 LOOP
            INSERT INTO wp_t VALUES (n + 600 + i, 'x');
        END LOOP;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'dup';
    END;
    RETURN 'new';
END $$;
SELECT * FROM wp_plan('wp_in_loop(int)');

CREATE FUNCTION wp_update(n int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        UPDATE wp_t SET v = 'y' WHERE k = n;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'dup';
    END;
    RETURN 'new';
END $$;
SELECT * FROM wp_plan('wp_update(int)');

-- statements of other shapes
CREATE FUNCTION wp_shapes(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE x int; big bigint; r record;
BEGIN
    BEGIN
        INSERT INTO wp_t VALUES (n + 700, 'a'), (n + 701, 'b');
    EXCEPTION WHEN unique_violation THEN NULL;
    END;
    BEGIN
        INSERT INTO wp_t SELECT n + 710, 'a';
    EXCEPTION WHEN unique_violation THEN NULL;
    END;
    BEGIN
        WITH s AS (SELECT 1) INSERT INTO wp_t VALUES (n + 720, 'a');
    EXCEPTION WHEN unique_violation THEN NULL;
    END;
    BEGIN
        INSERT INTO wp_t VALUES (n + 730, 'a') ON CONFLICT DO NOTHING;
    EXCEPTION WHEN unique_violation THEN NULL;
    END;
    BEGIN
        INSERT INTO wp_t VALUES (n + 740, 'a') RETURNING k + 1 INTO x;
    EXCEPTION WHEN unique_violation THEN NULL;
    END;
    BEGIN
        INSERT INTO wp_t VALUES (n + 750, 'a') RETURNING k INTO big;
    EXCEPTION WHEN unique_violation THEN NULL;
    END;
    BEGIN
        INSERT INTO wp_t VALUES (n + 760, 'a') RETURNING * INTO r;
    EXCEPTION WHEN unique_violation THEN NULL;
    END;
    BEGIN
        INSERT INTO wp_t VALUES (n + 770, wp_label(n));
    EXCEPTION WHEN unique_violation THEN NULL;
    END;
    BEGIN
        INSERT INTO wp_t VALUES (n + 780, (SELECT 'a'));
    EXCEPTION WHEN unique_violation THEN NULL;
    END;
    BEGIN
        INSERT INTO wp_t VALUES (n + 790, 'a') RETURNING k INTO x;
    EXCEPTION WHEN unique_violation THEN NULL;
    END;
    RETURN coalesce(x::text, 'no x');
END $$;
CREATE FUNCTION wp_label(int) RETURNS text LANGUAGE sql AS $$ SELECT 'l' || $1 $$;
SELECT * FROM wp_plan('wp_shapes(int)');
SELECT * FROM wp_run('wp_shapes');

-- tables the path does not take
CREATE TABLE wp_trig (k int PRIMARY KEY, v text);
CREATE FUNCTION wp_trig_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RETURN NEW; END $$;
CREATE TRIGGER wp_trig_t BEFORE INSERT ON wp_trig FOR EACH ROW EXECUTE FUNCTION wp_trig_fn();
CREATE TABLE wp_parent (k int PRIMARY KEY);
INSERT INTO wp_parent VALUES (1);
CREATE TABLE wp_child (k int PRIMARY KEY, p int REFERENCES wp_parent);
CREATE TABLE wp_rule (k int PRIMARY KEY, v text);
CREATE RULE wp_rule_r AS ON INSERT TO wp_rule DO ALSO NOTIFY wp_rule;
CREATE TABLE wp_rls (k int PRIMARY KEY, v text);
ALTER TABLE wp_rls ENABLE ROW LEVEL SECURITY;
CREATE VIEW wp_view AS SELECT * FROM wp_t;
CREATE TABLE wp_parted (k int PRIMARY KEY, v text) PARTITION BY RANGE (k);
CREATE TABLE wp_part1 PARTITION OF wp_parted FOR VALUES FROM (0) TO (1000);
CREATE TABLE wp_deferrable (k int UNIQUE DEFERRABLE, v text);
CREATE TABLE wp_exclusion (k int PRIMARY KEY, c circle, EXCLUDE USING gist (c WITH &&));
CREATE TABLE wp_two_unique (k int PRIMARY KEY, v text UNIQUE);
CREATE TABLE wp_expr_index (k int, v text);
CREATE UNIQUE INDEX ON wp_expr_index (k);
CREATE INDEX ON wp_expr_index (lower(v));
CREATE TABLE wp_partial (k int PRIMARY KEY, v text);
CREATE INDEX ON wp_partial (v) WHERE v <> '';
CREATE TABLE wp_no_unique (k int, v text);
CREATE INDEX ON wp_no_unique (k);
CREATE FUNCTION wp_positive(int) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT $1 > 0 $$;
CREATE TABLE wp_check_fn (k int PRIMARY KEY, v text, CHECK (wp_positive(k)));
CREATE TABLE wp_check_plain (k int PRIMARY KEY, v text, CHECK (k > 0 AND v <> ''));
CREATE DOMAIN wp_dom AS text CHECK (VALUE <> 'bad');
CREATE TABLE wp_domain (k int PRIMARY KEY, v wp_dom);
CREATE TABLE wp_serial (id serial PRIMARY KEY, v text);
CREATE TABLE wp_defaults (k int PRIMARY KEY, n bigserial, at timestamptz DEFAULT now(), v text DEFAULT 'd');
CREATE TABLE wp_generated (k int PRIMARY KEY, v text, g int GENERATED ALWAYS AS (k * 2) STORED);

CREATE FUNCTION wp_tables(n int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN INSERT INTO wp_trig VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_child VALUES (n, 1);
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_rule VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_rls VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_view VALUES (n + 800, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_parted VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_part1 VALUES (n + 1, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_deferrable VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_exclusion VALUES (n, NULL);
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_two_unique VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_expr_index VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_partial VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_no_unique VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_check_fn VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_check_plain VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_domain VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_serial (v) VALUES ('a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_defaults (k) VALUES (n);
    EXCEPTION WHEN unique_violation THEN NULL; END;
    BEGIN INSERT INTO wp_generated (k, v) VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN NULL; END;
    RETURN 'done';
END $$;
SELECT * FROM wp_plan('wp_tables(int)');
SELECT * FROM wp_run('wp_tables');
-- the sequence behind a default advanced once per attempt, as it does
-- with a subtransaction: two attempts
SELECT last_value FROM wp_defaults_n_seq;

-- a table's conditions are checked again when the table changes
CREATE TABLE wp_alter (k int PRIMARY KEY, v text);
CREATE FUNCTION wp_alter_ins(n int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        INSERT INTO wp_alter VALUES (n, 'a');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'dup';
    END;
    RETURN 'new';
END $$;
SELECT * FROM wp_run('wp_alter_ins');
CREATE TRIGGER wp_alter_t BEFORE INSERT ON wp_alter FOR EACH ROW EXECUTE FUNCTION wp_trig_fn();
SELECT * FROM wp_run('wp_alter_ins');
DROP TRIGGER wp_alter_t ON wp_alter;
SELECT * FROM wp_run('wp_alter_ins');
-- the table dropped and made again (another OID), with a trigger, then
-- without
DROP TABLE wp_alter;
CREATE TABLE wp_alter (k int PRIMARY KEY, v text);
CREATE TRIGGER wp_alter_t BEFORE INSERT ON wp_alter FOR EACH ROW EXECUTE FUNCTION wp_trig_fn();
SELECT * FROM wp_run('wp_alter_ins');
DROP TABLE wp_alter;
CREATE TABLE wp_alter (k int PRIMARY KEY, v text);
SELECT * FROM wp_run('wp_alter_ins');

-- run-time conditions: the isolation level, lazy savepoints off, a
-- read-only transaction
TRUNCATE wp_t;
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT * FROM wp_run('wp_yes');
COMMIT;
TRUNCATE wp_t;
SET plnimble.lazy_savepoints = off;
SELECT * FROM wp_run('wp_yes');
RESET plnimble.lazy_savepoints;
BEGIN READ ONLY;
SELECT wp_yes(2);
ROLLBACK;
SELECT * FROM wp_delta();
-- plnimble.write_path = off: the block takes its subtransaction
TRUNCATE wp_t;
SET plnimble.write_path = off;
SELECT * FROM wp_run('wp_yes');
RESET plnimble.write_path;
SELECT * FROM wp_run('wp_yes');

-- inside a block that catches more, both take their subtransactions (no
-- write path with a subtransaction open), and the outer one undoes the
-- inner insert when it catches
TRUNCATE wp_t;
CREATE FUNCTION wp_nested(n int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        BEGIN
            INSERT INTO wp_t VALUES (n, 'inner');
        EXCEPTION WHEN unique_violation THEN
            RAISE NOTICE 'inner dup';
        END;
        PERFORM 1 / (n - n);
    EXCEPTION WHEN division_by_zero THEN
        RETURN 'outer caught';
    END;
    RETURN 'none';
END $$;
SELECT * FROM wp_run('wp_nested');
SELECT count(*) FROM wp_t;

-- 1,000 blocks in one transaction: no subtransaction and no
-- subtransaction ID (all IDs come from one counter: the next
-- transaction's ID is one past this one's)
TRUNCATE wp_t;
CREATE FUNCTION wp_many(n int) RETURNS int LANGUAGE plnimble AS $$
DECLARE dups int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO wp_t VALUES (i % 500, 'x');
        EXCEPTION WHEN unique_violation THEN
            dups := dups + 1;
        END;
    END LOOP;
    RETURN dups;
END $$;
SELECT pg_current_xact_id()::text::bigint AS before_xid \gset
SELECT wp_many(1000), pg_current_xact_id()::text::bigint - :before_xid AS own_xid_offset;
SELECT pg_current_xact_id()::text::bigint - :before_xid AS next_xid_offset;
SELECT * FROM wp_delta();
