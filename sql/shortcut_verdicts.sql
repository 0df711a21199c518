-- shortcut_verdicts: the plan view (plnimble_savepoint_plan) and the run
-- time read the same tables of conditions for the two shortcuts (issue 27):
-- the write path (src/write/write_path.c, WRITE_BLOCK_CONDITIONS and
-- WRITE_MOMENT_CONDITIONS, with the statement's and the table's checks)
-- and the fast entry (src/exec/pln_fast_conditions.h).  For one case per
-- condition, sv_check asks the plan view for its verdict, runs the
-- function in the same transaction, and compares the verdict with what
-- the run did, by the plnimble_savepoint_stats() deltas
-- (writes_without_savepoint, fast_calls): every line must say "agree".
-- The cases are those of the write-path tests (sql/write_path_*.sql) and
-- the fast-entry tests (sql/fast_call*.sql), one per condition.
-- plnimble-only (listed in oracle-allowlist.txt): PL/pgSQL has neither.

CREATE FUNCTION sv_verdict(fn regprocedure, shortcut text) RETURNS text
LANGUAGE sql AS $$
    SELECT coalesce(string_agg(btrim(l), '; '), shortcut || ': no line (not its shape)')
      FROM plnimble_savepoint_plan(fn) l
     WHERE btrim(l) LIKE shortcut || ':%'
$$;

-- (no exception block here: the runs must see no subtransaction of ours)
CREATE FUNCTION sv_check(fn regprocedure, shortcut text, run text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    verdict text := sv_verdict(fn, shortcut);
    counter text := CASE shortcut WHEN 'write path' THEN 'writes_without_savepoint'
                                  ELSE 'fast_calls' END;
    before bigint;
    after bigint;
    taken boolean;
    said_yes boolean;
BEGIN
    EXECUTE format('SELECT %I FROM plnimble_savepoint_stats()', counter) INTO before;
    EXECUTE run;
    EXECUTE format('SELECT %I FROM plnimble_savepoint_stats()', counter) INTO after;
    taken := after > before;
    said_yes := verdict NOT LIKE '%: no%';
    RETURN CASE WHEN taken = said_yes THEN 'agree, ' ELSE 'DISAGREE, ' END ||
           CASE WHEN taken THEN 'taken' ELSE 'not taken' END || ' -- ' || verdict;
END
$$;

-- 1. The write path --------------------------------------------------------------

CREATE TABLE sv_t (k int PRIMARY KEY, v int);
CREATE TABLE sv_trig (k int PRIMARY KEY, v int);
CREATE FUNCTION sv_trig_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RETURN NEW; END $$;
CREATE TRIGGER sv_trig_t BEFORE INSERT ON sv_trig FOR EACH ROW EXECUTE FUNCTION sv_trig_fn();
CREATE TABLE sv_two (k int PRIMARY KEY, v int UNIQUE);
CREATE DOMAIN sv_dom AS int CHECK (VALUE IS NULL OR VALUE > 0);
CREATE TABLE sv_domt (k int PRIMARY KEY, d sv_dom);

CREATE FUNCTION sv_w_ok(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO sv_t VALUES (p, p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END $$;
CREATE FUNCTION sv_w_others(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO sv_t VALUES (p, p);
    EXCEPTION WHEN OTHERS THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END $$;
CREATE FUNCTION sv_w_not_last(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    n int;
BEGIN
    BEGIN
        INSERT INTO sv_t VALUES (p, p);
        n := 1;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END $$;
CREATE FUNCTION sv_w_empty(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    INSERT INTO sv_t VALUES (p, p) ON CONFLICT DO NOTHING;
    RETURN 'inserted';
END $$;
CREATE FUNCTION sv_w_nested(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        BEGIN
            INSERT INTO sv_t VALUES (p, p);
        EXCEPTION WHEN unique_violation THEN
            RETURN 'duplicate';
        END;
    EXCEPTION WHEN division_by_zero THEN
        RETURN 'division';
    END;
    RETURN 'inserted';
END $$;
CREATE FUNCTION sv_w_savepoint_first(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        PERFORM count(*) FROM sv_t;
        INSERT INTO sv_t VALUES (p, p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END $$;
CREATE FUNCTION sv_w_returning_expr(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x int;
BEGIN
    BEGIN
        INSERT INTO sv_t VALUES (p, p) RETURNING v + 1 INTO x;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END $$;
CREATE FUNCTION sv_w_trigger(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO sv_trig VALUES (p, p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END $$;
CREATE FUNCTION sv_w_two_unique(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO sv_two VALUES (p, p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END $$;
CREATE FUNCTION sv_w_domain(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO sv_domt (k) VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END $$;

-- block conditions
BEGIN;
SELECT sv_check('sv_w_ok(int)', 'write path', 'SELECT sv_w_ok(1), sv_w_ok(1)');
SELECT sv_check('sv_w_others(int)', 'write path', 'SELECT sv_w_others(2), sv_w_others(2)');
SELECT sv_check('sv_w_not_last(int)', 'write path', 'SELECT sv_w_not_last(3), sv_w_not_last(3)');
SELECT sv_check('sv_w_empty(int)', 'write path', 'SELECT sv_w_empty(4)');
SELECT sv_check('sv_w_nested(int)', 'write path', 'SELECT sv_w_nested(5), sv_w_nested(5)');
SELECT sv_check('sv_w_savepoint_first(int)', 'write path', 'SELECT sv_w_savepoint_first(6), sv_w_savepoint_first(6)');
-- the statement and the table
SELECT sv_check('sv_w_returning_expr(int)', 'write path', 'SELECT sv_w_returning_expr(7), sv_w_returning_expr(7)');
SELECT sv_check('sv_w_trigger(int)', 'write path', 'SELECT sv_w_trigger(8), sv_w_trigger(8)');
SELECT sv_check('sv_w_two_unique(int)', 'write path', 'SELECT sv_w_two_unique(9), sv_w_two_unique(9)');
SELECT sv_check('sv_w_domain(int)', 'write path', 'SELECT sv_w_domain(10), sv_w_domain(10)');
COMMIT;
-- the moment: the setting, a subtransaction open, the isolation level
BEGIN;
SET LOCAL plnimble.write_path = off;
SELECT sv_check('sv_w_ok(int)', 'write path', 'SELECT sv_w_ok(11), sv_w_ok(11)');
COMMIT;
BEGIN;
SAVEPOINT s;
SELECT sv_check('sv_w_ok(int)', 'write path', 'SELECT sv_w_ok(12), sv_w_ok(12)');
COMMIT;
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT sv_check('sv_w_ok(int)', 'write path', 'SELECT sv_w_ok(13), sv_w_ok(13)');
COMMIT;
BEGIN;
SELECT sv_check('sv_w_ok(int)', 'write path', 'SELECT sv_w_ok(14), sv_w_ok(14)');
COMMIT;

-- 2. The fast entry --------------------------------------------------------------

CREATE FUNCTION sv_f_ok(s text) RETURNS int LANGUAGE plpgsql AS $$
begin
    return s::int;
exception when invalid_text_representation then
    return null;
end $$;
CREATE FUNCTION sv_f_plain(a int) RETURNS int LANGUAGE plpgsql AS $$
begin
    return a * 2;
end $$;
CREATE FUNCTION sv_f_setof(a int) RETURNS SETOF int LANGUAGE plpgsql AS $$
begin
    return next a;
end $$;
CREATE FUNCTION sv_f_out(a int, OUT b int) LANGUAGE plpgsql AS $$
begin
    b := a;
end $$;
CREATE FUNCTION sv_f_decl(a int) RETURNS int LANGUAGE plpgsql AS $$
declare
    b int := 1;
begin
    return a + b;
end $$;
CREATE FUNCTION sv_f_two(a int) RETURNS int LANGUAGE plpgsql AS $$
begin
    a := a + 1;
    return a;
end $$;
CREATE FUNCTION sv_f_impure(a int) RETURNS int LANGUAGE plpgsql AS $$
begin
    return a + length(pg_typeof(a)::text);
end $$;
CREATE FUNCTION sv_f_query(a int) RETURNS int LANGUAGE plpgsql AS $$
begin
    return (SELECT count(*) FROM sv_t WHERE k = a);
end $$;
CREATE FUNCTION sv_f_type(a int) RETURNS numeric LANGUAGE plpgsql AS $$
begin
    return a + 1;
end $$;
CREATE FUNCTION sv_f_var(a int) RETURNS int LANGUAGE plpgsql AS $$
begin
    return a;
end $$;

BEGIN;
SELECT sv_check('sv_f_ok(text)', 'fast entry', 'SELECT count(sv_f_ok(i::text)) FROM generate_series(1, 5) i');
SELECT sv_check('sv_f_plain(int)', 'fast entry', 'SELECT count(sv_f_plain(i)) FROM generate_series(1, 5) i');
SELECT sv_check('sv_f_setof(int)', 'fast entry', 'SELECT count(*) FROM generate_series(1, 5) i, sv_f_setof(i)');
SELECT sv_check('sv_f_out(int)', 'fast entry', 'SELECT count(sv_f_out(i)) FROM generate_series(1, 5) i');
SELECT sv_check('sv_f_decl(int)', 'fast entry', 'SELECT count(sv_f_decl(i)) FROM generate_series(1, 5) i');
SELECT sv_check('sv_f_two(int)', 'fast entry', 'SELECT count(sv_f_two(i)) FROM generate_series(1, 5) i');
SELECT sv_check('sv_f_impure(int)', 'fast entry', 'SELECT count(sv_f_impure(i)) FROM generate_series(1, 5) i');
SELECT sv_check('sv_f_query(int)', 'fast entry', 'SELECT count(sv_f_query(i)) FROM generate_series(1, 5) i');
SELECT sv_check('sv_f_type(int)', 'fast entry', 'SELECT count(sv_f_type(i)) FROM generate_series(1, 5) i');
SELECT sv_check('sv_f_var(int)', 'fast entry', 'SELECT count(sv_f_var(i)) FROM generate_series(1, 5) i');
COMMIT;
-- the settings: lazy savepoints off (a block with handlers), the profiler on
BEGIN;
SET LOCAL plnimble.lazy_savepoints = off;
SELECT sv_check('sv_f_ok(text)', 'fast entry', 'SELECT count(sv_f_ok(i::text)) FROM generate_series(1, 5) i');
SELECT sv_check('sv_f_plain(int)', 'fast entry', 'SELECT count(sv_f_plain(i)) FROM generate_series(1, 5) i');
COMMIT;
BEGIN;
SET LOCAL plnimble.profiler = on;
SELECT sv_check('sv_f_ok(text)', 'fast entry', 'SELECT count(sv_f_ok(i::text)) FROM generate_series(1, 5) i');
COMMIT;
