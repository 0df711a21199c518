-- Generic maintenance utilities driven by dynamic SQL (LATER FEATURES):
-- a retention purger that deletes old rows from any table listed in a
-- policy table, a monthly partition creator, a table-size census via
-- catalog queries, and a generic "set column where id" helper with
-- proper quoting, all reporting affected row counts.
-- Later features used: EXECUTE format(...) with %I/%L, EXECUTE ... USING,
-- EXECUTE ... INTO (STRICT), GET DIAGNOSTICS ROW_COUNT, FOR rec IN
-- EXECUTE, dynamic DDL, quote_ident, RETURN QUERY EXECUTE and
-- RETURNS TABLE.
-- Slice features also used: FOR rec IN query, exception blocks catching
-- undefined_table / undefined_column from generated SQL, uncaught
-- errors in generated SQL (QUERY/CONTEXT lines), SQLSTATE/SQLERRM,
-- RAISE NOTICE/WARNING/EXCEPTION, CONTINUE, date arithmetic.

CREATE TABLE retention_policy (
    table_name  text PRIMARY KEY,
    date_column text NOT NULL,
    keep_days   integer NOT NULL
);

CREATE TABLE web_log (id serial, logged date, path text);
CREATE TABLE "Email Log" (id serial, sent_on date, recipient text);
CREATE TABLE metrics (id serial, ts date, value numeric);

INSERT INTO web_log(logged, path)
SELECT date '2024-01-01' + g, '/p' || g FROM generate_series(0, 59) g;
INSERT INTO "Email Log"(sent_on, recipient)
SELECT date '2024-02-01' + g * 3, 'u' || g || '@x.test' FROM generate_series(0, 9) g;
INSERT INTO metrics(ts, value)
SELECT date '2023-12-01' + g, g * 1.5 FROM generate_series(0, 99) g;

INSERT INTO retention_policy VALUES
    ('web_log', 'logged', 30),
    ('Email Log', 'sent_on', 7),
    ('metrics', 'timestamp', 10),
    ('gone_table', 'x', 1);

CREATE FUNCTION purge_old(p_today date, p_dry_run boolean DEFAULT false)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    pol     record;
    n       bigint;
    total   integer := 0;
    sql     text;
BEGIN
    FOR pol IN SELECT * FROM retention_policy ORDER BY table_name LOOP
        IF p_dry_run THEN
            sql := format('SELECT count(*) FROM %I WHERE %I < $1', pol.table_name, pol.date_column);
        ELSE
            sql := format('DELETE FROM %I WHERE %I < $1', pol.table_name, pol.date_column);
        END IF;
        BEGIN
            IF p_dry_run THEN
                EXECUTE sql INTO STRICT n USING p_today - pol.keep_days;
            ELSE
                EXECUTE sql USING p_today - pol.keep_days;
                GET DIAGNOSTICS n = ROW_COUNT;
            END IF;
            RAISE NOTICE '%: % row(s) %', pol.table_name, n,
                CASE WHEN p_dry_run THEN 'would be purged' ELSE 'purged' END;
            total := total + n;
        EXCEPTION
            WHEN undefined_table OR undefined_column THEN
                RAISE WARNING 'policy for "%" skipped: % (%)', pol.table_name, SQLERRM, SQLSTATE;
        END;
    END LOOP;
    RETURN total;
END;
$$;

SELECT purge_old('2024-03-01', p_dry_run => true);
SELECT purge_old('2024-03-01');
SELECT 'web_log' AS t, count(*), min(logged) FROM web_log
UNION ALL SELECT 'Email Log', count(*), min(sent_on) FROM "Email Log"
UNION ALL SELECT 'metrics', count(*), min(ts) FROM metrics ORDER BY 1;

-- Monthly partitions for an events table.
CREATE TABLE event (id bigint, happened date NOT NULL, kind text)
    PARTITION BY RANGE (happened);

CREATE FUNCTION ensure_partitions(p_from date, p_months integer)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    created integer := 0;
    m_start date;
    part    text;
BEGIN
    FOR i IN 0..p_months - 1 LOOP
        m_start := date_trunc('month', p_from)::date + make_interval(months => i);
        part := format('event_%s', to_char(m_start, 'YYYY_MM'));
        IF to_regclass(part) IS NOT NULL THEN
            RAISE NOTICE 'partition % exists', part;
            CONTINUE;
        END IF;
        EXECUTE format('CREATE TABLE %I PARTITION OF event FOR VALUES FROM (%L) TO (%L)',
                       part, m_start, (m_start + interval '1 month')::date);
        created := created + 1;
    END LOOP;
    RETURN created;
END;
$$;

SELECT ensure_partitions('2024-01-15', 3);
SELECT ensure_partitions('2024-03-01', 2);
INSERT INTO event VALUES (1, '2024-01-20', 'a'), (2, '2024-03-31', 'b'), (3, '2024-04-01', 'c');
INSERT INTO event VALUES (4, '2024-05-01', 'd');
SELECT tableoid::regclass AS part, id, happened FROM event ORDER BY id;

-- Per-table row counts using FOR ... IN EXECUTE and RETURN QUERY EXECUTE.
CREATE FUNCTION table_census(p_prefix text)
RETURNS TABLE (table_name text, row_count bigint)
LANGUAGE plpgsql
AS $$
DECLARE
    t record;
BEGIN
    FOR t IN EXECUTE 'SELECT c.relname FROM pg_class c
                        JOIN pg_namespace n ON n.oid = c.relnamespace
                       WHERE n.nspname = current_schema()
                         AND c.relkind = ''r'' AND c.relname LIKE $1
                       ORDER BY c.relname'
             USING p_prefix || '%'
    LOOP
        RETURN QUERY EXECUTE format('SELECT %L::text, count(*) FROM %I', t.relname, t.relname);
    END LOOP;
END;
$$;

SELECT * FROM table_census('event');
SELECT * FROM table_census('E');

-- Generic single-column updater used by an admin UI.
CREATE FUNCTION set_field(p_table text, p_column text, p_id integer, p_value text)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    v_old  text;
    n      integer;
BEGIN
    EXECUTE format('SELECT %I::text FROM %I WHERE id = $1', p_column, p_table)
       INTO v_old USING p_id;
    EXECUTE format('UPDATE %I SET %I = $1 WHERE id = $2', p_table, p_column)
      USING p_value, p_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
        RAISE EXCEPTION 'no row % in %', p_id, quote_ident(p_table)
            USING ERRCODE = 'no_data_found';
    END IF;
    RETURN format('%s.%s[%s]: %s -> %s', p_table, p_column, p_id,
                  coalesce(v_old, 'NULL'), p_value);
END;
$$;

SELECT set_field('Email Log', 'recipient', (SELECT min(id) FROM "Email Log"), 'new@x.test');
SELECT set_field('web_log', 'path', 1, '/x');
SELECT set_field('web_log', 'nope', 1, '/x');
SELECT set_field('metrics', 'value', (SELECT max(id) FROM metrics), 'not a number');
SELECT set_field('web_log; DROP TABLE metrics', 'path', 1, 'x');
SELECT count(*) FROM metrics;
