-- Batch migration of a legacy customer table into a new schema, the way an
-- operations team runs it: a procedure converts legacy rows in batches of
-- N, COMMITs after every batch and records its position in a job table,
-- so an interrupted or failed run can simply be CALLed again and continues
-- where the last committed batch ended; a finished job makes the next CALL
-- a no-op.  Each row is converted inside its own BEGIN ... EXCEPTION
-- block (the COMMIT stays outside it, as it must); a row that fails is
-- written to an error table and skipped.  A batch with too many bad rows
-- is thrown away with ROLLBACK, its errors written again after the
-- ROLLBACK (variables survive it), and the job stops as 'failed'.  The
-- final step uses COMMIT AND CHAIN and reads the result in the chained
-- transaction.  An INOUT parameter returns the number of rows migrated by
-- the call.  Re-running a finished job from key 0 is idempotent thanks to
-- INSERT ... ON CONFLICT DO NOTHING and GET DIAGNOSTICS ROW_COUNT.
-- Also shown: the errors for CALL inside an explicit transaction block,
-- from a function, and from a block with an exception handler; CALL with
-- an INOUT variable and named arguments from a DO block.
-- Uses: a conversion function returning a table row type, RAISE with
-- custom SQLSTATEs, GET STACKED DIAGNOSTICS, arrays collected across a
-- ROLLBACK, unnest of several arrays, SELECT INTO STRICT a %ROWTYPE.

CREATE TABLE legacy_customer (
    cust_no     integer PRIMARY KEY,
    name        text,          -- 'Last, First' or 'First Last'
    email       text,
    joined      text,          -- 'DD/MM/YYYY'
    balance     text,          -- cents
    country     text
);

CREATE TABLE country (code char(2) PRIMARY KEY, name text NOT NULL);

CREATE TABLE customer (
    id          integer PRIMARY KEY,
    first_name  text NOT NULL,
    last_name   text NOT NULL,
    email       text NOT NULL UNIQUE,
    joined_on   date NOT NULL,
    balance     numeric(12,2) NOT NULL,
    country     char(2) NOT NULL REFERENCES country
);

CREATE TABLE migration_job (
    job         text PRIMARY KEY,
    last_key    integer NOT NULL DEFAULT 0,
    rows_done   integer NOT NULL DEFAULT 0,
    batches     integer NOT NULL DEFAULT 0,
    runs        integer NOT NULL DEFAULT 0,
    status      text NOT NULL DEFAULT 'new'
);

CREATE TABLE migration_log (
    seq         serial PRIMARY KEY,
    job         text NOT NULL,
    batch_no    integer NOT NULL,
    first_key   integer,
    last_key    integer,
    migrated    integer,
    skipped     integer,
    failed      integer,
    outcome     text
);

CREATE TABLE migration_error (
    job         text NOT NULL,
    legacy_key  integer NOT NULL,
    sqlstate    text,
    message     text,
    PRIMARY KEY (job, legacy_key)
);

INSERT INTO country VALUES ('US', 'United States'), ('GB', 'United Kingdom'),
                           ('DE', 'Germany'), ('FR', 'France');

INSERT INTO legacy_customer VALUES
    (1,  'Smith, Anna',     'Anna.Smith@Example.com', '05/01/2019', '1250',  'us'),
    (2,  'Bob Jones',       'bob@example.com',        '17/03/2020', '0',     'GB'),
    (3,  'Lee, Chen',       'chen.lee@example',       '01/06/2020', '300',   'US'),
    (4,  'Maria de la Cruz','maria@example.com',      '28/02/2021', '-450',  'fr'),
    (5,  'Eve',             'eve@example.com',        '03/03/2021', '10',    'DE'),
    (6,  'Miller, Frank',   ' FRANK@example.com ',    '01/12/2021', 'n/a',   'GB'),
    (7,  'Grace Hopper',    'grace@example.com',      '09/12/2022', '99999', 'USA'),
    (8,  'Klum, Heidi',     'heidi@example.com',      '31/02/2022', '700',   'DE'),
    (9,  'Ivan Petrov',     'ivan@example.com',       '10/10/2022', '500',   'DE'),
    (10, 'Jones, Robert',   'BOB@example.com',        '11/11/2022', '5',     'GB'),
    (11, 'Karl Weber',      'karl@example.com',       '12/12/2022', '42',    'DE'),
    (12, 'Zoe Martin',      'zoe@example.com',        '01/01/2023', '1',     'XX'),
    (13, NULL,              'ghost@example.com',      '02/01/2023', '0',     'US');

------------------------------------------------------------------------------
-- conversion of one row
------------------------------------------------------------------------------

CREATE FUNCTION convert_customer(l legacy_customer)
RETURNS customer
LANGUAGE plnimble
AS $$
DECLARE
    c      customer;
    parts  text[];
BEGIN
    c.id := l.cust_no;
    IF l.name LIKE '%,%' THEN
        c.last_name  := btrim(split_part(l.name, ',', 1));
        c.first_name := btrim(split_part(l.name, ',', 2));
    ELSE
        parts := regexp_split_to_array(btrim(l.name), '\s+');
        c.first_name := parts[1];
        c.last_name  := array_to_string(parts[2:], ' ');
    END IF;
    IF coalesce(c.first_name, '') = '' OR coalesce(c.last_name, '') = '' THEN
        RAISE EXCEPTION 'cannot split name "%" of customer %', l.name, l.cust_no
            USING ERRCODE = 'MG001', HINT = 'write it as "Last, First"';
    END IF;

    c.email := lower(btrim(l.email));
    IF c.email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[a-z]+$' THEN
        RAISE EXCEPTION 'invalid email "%"', l.email USING ERRCODE = 'MG002';
    END IF;

    c.joined_on := to_date(l.joined, 'DD/MM/YYYY');
    c.balance   := l.balance::bigint / 100.0;
    c.country   := upper(btrim(l.country));
    RETURN c;
END;
$$;

SELECT (convert_customer(l)).* FROM legacy_customer l
 WHERE cust_no IN (1, 4) ORDER BY cust_no;
SELECT convert_customer(l) FROM legacy_customer l WHERE cust_no = 5;

------------------------------------------------------------------------------
-- the batch procedure
------------------------------------------------------------------------------

CREATE PROCEDURE migrate_customers(
    p_batch_size       integer,
    INOUT p_migrated   integer DEFAULT 0,
    p_max_batches      integer DEFAULT NULL,
    p_max_failed       integer DEFAULT 1)
LANGUAGE plnimble
AS $$
DECLARE
    v_job      migration_job%ROWTYPE;
    r          legacy_customer;
    v_cust     customer;
    v_last     integer;
    v_batch    integer;
    v_here     integer := 0;       -- batches done by this call
    v_first    integer;
    v_ok       integer;
    v_skipped  integer;
    v_n        integer;
    v_state    text;
    v_msg      text;
    bad_keys   integer[];
    bad_states text[];
    bad_msgs   text[];
BEGIN
    p_migrated := coalesce(p_migrated, 0);
    INSERT INTO migration_job(job) VALUES ('customers')
        ON CONFLICT (job) DO NOTHING;
    SELECT * INTO STRICT v_job FROM migration_job WHERE job = 'customers';
    IF v_job.status = 'done' THEN
        RAISE NOTICE 'customers: already migrated (% rows in % batches), nothing to do',
            v_job.rows_done, v_job.batches;
        RETURN;
    END IF;
    IF v_job.status IN ('running', 'failed') THEN
        RAISE NOTICE 'customers: resuming a % job after key %', v_job.status, v_job.last_key;
    END IF;
    UPDATE migration_job SET status = 'running', runs = runs + 1
     WHERE job = 'customers';
    COMMIT;

    v_last  := v_job.last_key;
    v_batch := v_job.batches;
    LOOP
        IF v_here >= p_max_batches THEN
            RAISE NOTICE 'customers: stopping after % batch(es), next key after %',
                v_here, v_last;
            RETURN;                 -- status stays 'running'
        END IF;

        v_first := NULL;
        v_ok := 0;
        v_skipped := 0;
        bad_keys := '{}';
        bad_states := '{}';
        bad_msgs := '{}';
        FOR r IN SELECT * FROM legacy_customer
                  WHERE cust_no > v_last ORDER BY cust_no LIMIT p_batch_size
        LOOP
            v_first := coalesce(v_first, r.cust_no);
            v_last := r.cust_no;
            BEGIN
                v_cust := convert_customer(r);
                INSERT INTO customer SELECT v_cust.*
                    ON CONFLICT (id) DO NOTHING;
                GET DIAGNOSTICS v_n = ROW_COUNT;
                IF v_n = 1 THEN
                    v_ok := v_ok + 1;
                ELSE
                    v_skipped := v_skipped + 1;
                END IF;
                DELETE FROM migration_error
                 WHERE job = 'customers' AND legacy_key = r.cust_no;
            EXCEPTION WHEN OTHERS THEN
                GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE,
                                        v_msg   = MESSAGE_TEXT;
                INSERT INTO migration_error VALUES ('customers', r.cust_no, v_state, v_msg)
                    ON CONFLICT (job, legacy_key)
                    DO UPDATE SET sqlstate = EXCLUDED.sqlstate, message = EXCLUDED.message;
                bad_keys   := bad_keys || r.cust_no;
                bad_states := bad_states || v_state;
                bad_msgs   := bad_msgs || v_msg;
            END;
        END LOOP;
        EXIT WHEN v_first IS NULL;      -- nothing left to migrate
        v_batch := v_batch + 1;
        v_here := v_here + 1;

        IF cardinality(bad_keys) > p_max_failed THEN
            ROLLBACK;
            -- the ROLLBACK also removed the error rows written above
            INSERT INTO migration_error
            SELECT 'customers', k, s, m FROM unnest(bad_keys, bad_states, bad_msgs) AS u(k, s, m)
                ON CONFLICT (job, legacy_key)
                DO UPDATE SET sqlstate = EXCLUDED.sqlstate, message = EXCLUDED.message;
            INSERT INTO migration_log(job, batch_no, first_key, last_key, migrated, skipped, failed, outcome)
            VALUES ('customers', v_batch, v_first, v_last, 0, 0, cardinality(bad_keys), 'rolled back');
            UPDATE migration_job SET status = 'failed' WHERE job = 'customers';
            COMMIT;
            RAISE WARNING 'customers: batch % (keys % to %) rolled back, bad rows %',
                v_batch, v_first, v_last, bad_keys
                USING HINT = 'fix the rows listed in migration_error and CALL again';
            RETURN;
        END IF;

        UPDATE migration_job
           SET last_key = v_last, rows_done = rows_done + v_ok, batches = v_batch
         WHERE job = 'customers';
        INSERT INTO migration_log(job, batch_no, first_key, last_key, migrated, skipped, failed, outcome)
        VALUES ('customers', v_batch, v_first, v_last, v_ok, v_skipped, cardinality(bad_keys),
                CASE WHEN cardinality(bad_keys) > 0 THEN 'committed with errors'
                     ELSE 'committed' END);
        p_migrated := p_migrated + v_ok;
        COMMIT;
        RAISE NOTICE 'customers: batch % committed (keys % to %): % migrated, % skipped, % failed',
            v_batch, v_first, v_last, v_ok, v_skipped, cardinality(bad_keys);
    END LOOP;

    UPDATE migration_job SET status = 'done' WHERE job = 'customers';
    COMMIT AND CHAIN;
    SELECT count(*) INTO v_n FROM customer;
    RAISE NOTICE 'customers: done, % rows in customer, % migrated by this call, read only: %',
        v_n, p_migrated, current_setting('transaction_read_only');
END;
$$;

-- the state of the job, in one line
CREATE VIEW job_state AS
    SELECT j.status, j.last_key, j.rows_done, j.batches, j.runs,
           (SELECT count(*) FROM customer) AS customers,
           (SELECT string_agg(legacy_key::text, ',' ORDER BY legacy_key)
              FROM migration_error) AS error_keys
      FROM migration_job j;

-- 1. first run, interrupted after one batch: row 3 fails, the batch is kept
CALL migrate_customers(3, 0, p_max_batches => 1);
SELECT * FROM job_state;

-- 2. a CALL inside an explicit transaction block cannot COMMIT
BEGIN;
CALL migrate_customers(3);
ROLLBACK;

-- 3. neither can a procedure called from a function
CREATE FUNCTION nightly_migration() RETURNS integer
LANGUAGE plnimble
AS $$
DECLARE
    n integer := 0;
BEGIN
    CALL migrate_customers(3, n);
    RETURN n;
END;
$$;
SELECT nightly_migration();

-- 4. ... nor one called inside a block with an exception handler
DO LANGUAGE plnimble $$
DECLARE
    n integer := 0;
BEGIN
    CALL migrate_customers(3, n);
EXCEPTION WHEN invalid_transaction_termination THEN
    RAISE NOTICE 'caught: % (%), n = %', SQLERRM, SQLSTATE, n;
END
$$;
SELECT * FROM job_state;

-- 5. the second run resumes at key 4; batch 4..6 has two bad rows and is
--    rolled back, customer 4 with it
CALL migrate_customers(3, 0);
SELECT * FROM job_state;
SELECT legacy_key, sqlstate, message FROM migration_error ORDER BY legacy_key;

-- 6. the operators fix rows 5 and 6 and run it again from a DO block with
--    a larger error budget; it runs to the end
UPDATE legacy_customer SET name = 'Eve Adams' WHERE cust_no = 5;
UPDATE legacy_customer SET balance = '0' WHERE cust_no = 6;
DO LANGUAGE plnimble $$
DECLARE
    n integer := 0;
BEGIN
    CALL migrate_customers(3, n, p_max_failed => 2);
    RAISE NOTICE 'DO block: % rows migrated', n;
END
$$;
SELECT * FROM job_state;
SELECT legacy_key, sqlstate, message FROM migration_error ORDER BY legacy_key;

-- 7. a finished job is not run again
CALL migrate_customers(3, 0);

-- 8. after more fixes the job is reset to key 0 and run again: rows that
--    are already there are skipped, the fixed ones migrate
UPDATE legacy_customer SET email = 'chen.lee@example.com' WHERE cust_no = 3;
UPDATE legacy_customer SET country = 'US' WHERE cust_no = 7;
UPDATE legacy_customer SET joined = '28/02/2022' WHERE cust_no = 8;
UPDATE legacy_customer SET email = 'robert.jones@example.com' WHERE cust_no = 10;
UPDATE migration_job SET status = 'new', last_key = 0 WHERE job = 'customers';
CALL migrate_customers(5, 100, p_max_failed => 2);
SELECT * FROM job_state;

SELECT * FROM customer ORDER BY id;
SELECT legacy_key, sqlstate, message FROM migration_error ORDER BY legacy_key;
SELECT * FROM migration_log ORDER BY seq;
SELECT * FROM migration_job;
