-- Gapless document-number allocator, as used for invoices that must be
-- numbered consecutively per series and year (INV-2024-000017), plus a
-- block allocator that hands out ranges of ids to batch importers, and a
-- check-digit generator for customer numbers.
-- Exercises: UPDATE ... RETURNING INTO with FOUND, INSERT ... RETURNING
-- INTO, SELECT INTO STRICT (no_data_found/too_many_rows mapped to custom
-- errors with a subquery in USING DETAIL), exception blocks whose
-- rollback also undoes an allocation, lpad/format with zero padding,
-- integer FOR with REVERSE, modulo arithmetic, substr() digit loops,
-- parameters referenced as $1/$2, ALIAS, CONSTANT, RAISE EXCEPTION USING
-- ERRCODE/HINT, PERFORM.

CREATE TABLE doc_series (
    series    text,
    year      integer,
    next_no   integer NOT NULL DEFAULT 1,
    max_no    integer NOT NULL DEFAULT 999999,
    PRIMARY KEY (series, year)
);

CREATE TABLE invoice (
    number    text PRIMARY KEY,
    customer  text NOT NULL,
    total     numeric(10,2) NOT NULL CHECK (total >= 0)
);

CREATE FUNCTION next_doc_number(text, integer)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    p_series ALIAS FOR $1;
    p_year   ALIAS FOR $2;
    v_no     integer;
    v_max    integer;
BEGIN
    UPDATE doc_series SET next_no = next_no + 1
     WHERE series = p_series AND year = p_year
    RETURNING next_no - 1, max_no INTO v_no, v_max;
    IF NOT FOUND THEN
        INSERT INTO doc_series(series, year, next_no) VALUES ($1, $2, 2)
        RETURNING 1, max_no INTO v_no, v_max;
        RAISE NOTICE 'opened series % for %', $1, $2;
    END IF;
    IF v_no > v_max THEN
        RAISE EXCEPTION 'series %-% is exhausted', p_series, p_year
            USING ERRCODE = 'sequence_generator_limit_exceeded',
                  HINT = 'open a new series or raise max_no';
    END IF;
    RETURN format('%s-%s-%s', p_series, p_year, lpad(v_no::text, 6, '0'));
END;
$$;

-- Creates an invoice; a failed insert must not burn a number, so the
-- allocation happens inside the same sub-block as the insert.
CREATE FUNCTION create_invoice(p_customer text, p_total numeric, p_year integer)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    v_number text;
BEGIN
    BEGIN
        v_number := next_doc_number('INV', p_year);
        INSERT INTO invoice VALUES (v_number, p_customer, p_total);
    EXCEPTION WHEN check_violation OR not_null_violation THEN
        RAISE NOTICE 'invoice for % rejected (%), number % released',
            coalesce(p_customer, '?'), SQLERRM, v_number;
        RETURN NULL;
    END;
    RETURN v_number;
END;
$$;

SELECT create_invoice('acme', 100, 2024);
SELECT create_invoice('globex', 250.5, 2024);
SELECT create_invoice('initech', -5, 2024);
SELECT create_invoice(NULL, 10, 2024);
SELECT create_invoice('umbrella', 75, 2024);
SELECT create_invoice('acme', 20, 2025);
SELECT next_doc_number('CRN', 2024);
SELECT * FROM invoice ORDER BY number;
SELECT * FROM doc_series ORDER BY series, year;

UPDATE doc_series SET max_no = 4 WHERE series = 'INV' AND year = 2024;
SELECT create_invoice('hooli', 1, 2024);
SELECT create_invoice('hooli', 1, 2024);
SELECT next_no FROM doc_series WHERE series = 'INV' AND year = 2024;

-- Block allocator: reserves p_count consecutive ids for an importer.
CREATE TABLE id_block (
    name      text PRIMARY KEY,
    next_id   bigint NOT NULL,
    block_max bigint NOT NULL
);
INSERT INTO id_block VALUES ('customer', 1000, 1100), ('customer_legacy', 1, 10);

CREATE FUNCTION allocate_block(p_name text, p_count integer)
RETURNS bigint
LANGUAGE plpgsql
AS $$
DECLARE
    v_first bigint;
    v_name  text;
BEGIN
    IF p_count < 1 THEN
        RAISE EXCEPTION 'block size must be positive' USING ERRCODE = '22023';
    END IF;
    -- exact name first, otherwise a prefix naming exactly one allocator
    SELECT name INTO v_name FROM id_block WHERE name = p_name;
    IF NOT FOUND THEN
        BEGIN
            SELECT name INTO STRICT v_name FROM id_block
             WHERE name LIKE p_name || '%';
        EXCEPTION
            WHEN no_data_found THEN
                RAISE EXCEPTION 'no allocator named "%"', p_name
                    USING ERRCODE = 'undefined_object';
            WHEN too_many_rows THEN
                RAISE EXCEPTION 'allocator prefix "%" is ambiguous', p_name
                    USING DETAIL = (SELECT 'candidates: ' || string_agg(name, ', ' ORDER BY name)
                                      FROM id_block WHERE name LIKE p_name || '%');
        END;
    END IF;
    UPDATE id_block SET next_id = next_id + p_count
     WHERE name = v_name AND next_id + p_count - 1 <= block_max
    RETURNING next_id - p_count INTO v_first;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'allocator % cannot supply % ids', v_name, p_count
            USING DETAIL = format('%s id(s) left',
                                  (SELECT block_max - next_id + 1 FROM id_block WHERE name = v_name));
    END IF;
    RETURN v_first;
END;
$$;

SELECT allocate_block('customer_l', 4);
SELECT allocate_block('customer_l', 4);
SELECT allocate_block('customer_l', 4);
SELECT allocate_block('customer', 10);
SELECT allocate_block('cust', 10);
SELECT allocate_block('nothing', 1);
SELECT allocate_block('customer_l', 0);
SELECT * FROM id_block ORDER BY name;

-- Customer numbers carry a mod-11 check digit (weights 2..7 from the right).
CREATE FUNCTION with_check_digit(p_base bigint)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    digits  text := p_base::text;
    total   integer := 0;
    weight  integer := 2;
    c_mod   CONSTANT integer := 11;
    check_d integer;
BEGIN
    IF p_base < 0 THEN
        RAISE EXCEPTION 'negative base number %', p_base;
    END IF;
    FOR i IN REVERSE length(digits)..1 LOOP
        total := total + substr(digits, i, 1)::integer * weight;
        weight := CASE WHEN weight = 7 THEN 2 ELSE weight + 1 END;
    END LOOP;
    check_d := c_mod - total % c_mod;
    RETURN digits || '-' || CASE check_d WHEN 10 THEN 'X' WHEN 11 THEN '0'
                                 ELSE check_d::text END;
END;
$$;

CREATE FUNCTION valid_customer_number(p text)
RETURNS boolean
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    RETURN with_check_digit(split_part(p, '-', 1)::bigint) = p;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN false;
END;
$$;

SELECT n, with_check_digit(n) FROM (VALUES (1000), (1001), (1002), (123456789), (0)) v(n);
SELECT p, valid_customer_number(p)
  FROM (VALUES ('1000-6'), ('1000-3'), ('123456789-2'), ('0-0'), ('abc-1'), ('-1')) v(p);
SELECT valid_customer_number('99999999999999999999-1');
SELECT with_check_digit(-7);
