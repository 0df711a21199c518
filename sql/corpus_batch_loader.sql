-- CSV-style batch loader: raw text rows land in a staging table, a loader
-- function converts and inserts them one at a time, skipping bad rows
-- inside an exception block, logging why each was rejected, and returning
-- a summary string.  A second pass re-runs only previously rejected rows
-- after they have been fixed.
-- Exercises: FOR rec IN query, nested BEGIN..EXCEPTION per row with
-- several WHEN clauses (invalid_text_representation, datetime errors,
-- check_violation, foreign_key_violation, unique_violation, OTHERS),
-- SQLSTATE/SQLERRM, counters, CONTINUE, := with implicit text casts
-- (text -> date/integer/numeric(10,2)), INSERT RETURNING INTO, SET LOCAL
-- inside a function, RAISE NOTICE/INFO/WARNING, format() with %L.

CREATE TABLE product (
    sku     text PRIMARY KEY,
    name    text NOT NULL
);

CREATE TABLE sale (
    id        serial PRIMARY KEY,
    sku       text NOT NULL REFERENCES product,
    sold_on   date NOT NULL,
    qty       integer NOT NULL CHECK (qty > 0),
    price     numeric(10,2) NOT NULL,
    ext_ref   text UNIQUE
);

CREATE TABLE sale_staging (
    line_no   integer PRIMARY KEY,
    raw_sku   text,
    raw_date  text,
    raw_qty   text,
    raw_price text,
    raw_ref   text,
    state     text NOT NULL DEFAULT 'new',
    error     text
);

INSERT INTO product VALUES ('A-100', 'widget'), ('B-200', 'gadget'), ('C-300', 'doohickey');

INSERT INTO sale_staging(line_no, raw_sku, raw_date, raw_qty, raw_price, raw_ref) VALUES
    (1,  'A-100', '2023-01-05', '3',    '9.99',   'R1'),
    (2,  ' b-200 ', '2023-01-06', '1', '24.50',   'R2'),
    (3,  'A-100', '2023-02-30', '2',    '9.99',   'R3'),
    (4,  'Z-999', '2023-01-07', '1',    '1.00',   'R4'),
    (5,  'C-300', '2023-01-08', 'two',  '5.00',   'R5'),
    (6,  'C-300', '2023-01-08', '0',    '5.00',   'R6'),
    (7,  'A-100', '2023-01-09', '5',    '$12.00', 'R7'),
    (8,  'B-200', '2023-01-10', '1',    '24.50',  'R1'),
    (9,  '',      '2023-01-10', '1',    '1',      'R9'),
    (10, 'C-300', '10/01/2023', '4',    '5',      NULL),
    (11, 'A-100', '2023-01-11', '99999999999', '1', 'R11'),
    (12, 'B-200', '2023-01-12', '2',    '1e3',    'R12');

CREATE FUNCTION load_sales(p_only_state text DEFAULT 'new')
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    r          record;
    v_sku      text;
    v_date     date;
    v_qty      integer;
    v_price    numeric(10,2);
    v_id       integer;
    n_loaded   integer := 0;
    n_skipped  integer := 0;
    n_blank    integer := 0;
    v_reason   text;
BEGIN
    SET LOCAL datestyle = 'ISO, YMD';
    FOR r IN SELECT * FROM sale_staging
              WHERE state = p_only_state ORDER BY line_no
    LOOP
        v_sku := upper(btrim(r.raw_sku));
        IF v_sku = '' THEN
            n_blank := n_blank + 1;
            UPDATE sale_staging SET state = 'ignored', error = 'blank sku'
             WHERE line_no = r.line_no;
            CONTINUE;
        END IF;

        v_reason := NULL;
        BEGIN
            v_date  := r.raw_date;
            v_qty   := r.raw_qty;
            v_price := r.raw_price;
            INSERT INTO sale(sku, sold_on, qty, price, ext_ref)
            VALUES (v_sku, v_date, v_qty, v_price, r.raw_ref)
            RETURNING id INTO v_id;
            UPDATE sale_staging SET state = 'loaded', error = NULL
             WHERE line_no = r.line_no;
            n_loaded := n_loaded + 1;
        EXCEPTION
            WHEN invalid_text_representation OR numeric_value_out_of_range THEN
                v_reason := 'bad number: ' || SQLERRM;
            WHEN invalid_datetime_format OR datetime_field_overflow THEN
                v_reason := 'bad date: ' || SQLERRM;
            WHEN check_violation THEN
                v_reason := format('rule broken (%s)', SQLSTATE);
            WHEN foreign_key_violation THEN
                v_reason := format('unknown sku %L', v_sku);
            WHEN unique_violation THEN
                v_reason := format('duplicate reference %s', r.raw_ref);
            WHEN OTHERS THEN
                v_reason := SQLSTATE || ' ' || SQLERRM;
        END;

        IF v_reason IS NOT NULL THEN
            n_skipped := n_skipped + 1;
            UPDATE sale_staging SET state = 'rejected', error = v_reason
             WHERE line_no = r.line_no;
            RAISE NOTICE 'line % skipped: %', r.line_no, v_reason;
        ELSE
            RAISE INFO 'line % -> sale %', r.line_no, v_id;
        END IF;
    END LOOP;

    IF n_skipped > n_loaded THEN
        RAISE WARNING 'more rows rejected (%) than loaded (%)', n_skipped, n_loaded;
    END IF;
    RETURN format('loaded=%s skipped=%s blank=%s', n_loaded, n_skipped, n_blank);
END;
$$;

SELECT load_sales();
SELECT id, sku, sold_on, qty, price, ext_ref FROM sale ORDER BY id;
SELECT line_no, state, error FROM sale_staging ORDER BY line_no;

-- Running again over 'new' rows finds nothing to do.
SELECT load_sales();

-- Operators fix some rejected rows and re-run the loader for them.
UPDATE sale_staging SET raw_date = '2023-02-28' WHERE line_no = 3;
UPDATE sale_staging SET raw_qty = '2' WHERE line_no = 5;
UPDATE sale_staging SET raw_price = '12.00' WHERE line_no = 7;
UPDATE sale_staging SET raw_ref = 'R8' WHERE line_no = 8;
INSERT INTO product VALUES ('Z-999', 'mystery box');

SELECT load_sales('rejected');
SELECT line_no, state, error FROM sale_staging ORDER BY line_no;
SELECT sku, count(*) AS sales, sum(qty) AS units, sum(qty * price) AS revenue
  FROM sale GROUP BY sku ORDER BY sku;

-- A loader that refuses to start on an empty staging table.
CREATE FUNCTION require_pending(p_state text)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    n integer;
BEGIN
    SELECT count(*) INTO n FROM sale_staging WHERE state = p_state;
    IF n = 0 THEN
        RAISE EXCEPTION 'nothing to load in state "%"', p_state
            USING DETAIL = 'the staging table has no matching rows',
                  HINT = 'load a file first';
    END IF;
    RETURN n;
END;
$$;

SELECT require_pending('rejected');
SELECT require_pending('new');
