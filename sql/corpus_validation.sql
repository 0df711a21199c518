-- Customer-record validation layer from a CRM: field-level checks that
-- raise detailed, machine-readable errors (custom SQLSTATE, DETAIL naming
-- the field, HINT with the fix), a validate-all function that collects
-- every problem instead of stopping at the first one, and a registration
-- function that only inserts valid rows.
-- Exercises: RAISE EXCEPTION with USING MESSAGE/DETAIL/HINT/ERRCODE in
-- all forms (condition name, 5-char SQLSTATE, message from a variable),
-- RAISE with only a condition name, catching with WHEN ... OR ... and
-- SQLSTATE 'xxxxx', SQLSTATE/SQLERRM, re-raising with bare RAISE,
-- RAISE levels (DEBUG/LOG suppressed, INFO/NOTICE/WARNING shown), nested
-- blocks, regexp matching, date checks with fixed dates, NOT NULL
-- variables (assigning NULL is an error), void functions and PERFORM.

CREATE TABLE customer (
    id        serial PRIMARY KEY,
    email     text NOT NULL UNIQUE,
    name      text NOT NULL,
    birthdate date,
    country   char(2) NOT NULL,
    vat_id    text
);

CREATE FUNCTION check_email(p_email text)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    IF p_email IS NULL OR btrim(p_email) = '' THEN
        RAISE EXCEPTION USING
            ERRCODE = 'CV001',
            MESSAGE = 'email is required',
            DETAIL = 'field: email';
    ELSIF p_email !~* '^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$' THEN
        RAISE EXCEPTION 'email "%" is not valid', p_email
            USING ERRCODE = 'CV002', DETAIL = 'field: email',
                  HINT = 'expected something like name@example.com';
    END IF;
END;
$$;

CREATE FUNCTION check_birthdate(p_birth date, p_today date)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    v_age integer NOT NULL := 0;
BEGIN
    IF p_birth IS NULL THEN
        RAISE NOTICE 'birthdate not given, age unknown';
        RETURN NULL;
    END IF;
    IF p_birth > p_today THEN
        RAISE EXCEPTION 'birthdate % is in the future', p_birth
            USING ERRCODE = 'CV003', DETAIL = 'field: birthdate';
    END IF;
    v_age := extract(year FROM age(p_today, p_birth));
    IF v_age < 18 THEN
        RAISE EXCEPTION 'customer must be at least 18 (is %)', v_age
            USING ERRCODE = 'CV004', DETAIL = 'field: birthdate',
                  HINT = 'minors must be registered by a guardian';
    ELSIF v_age > 120 THEN
        RAISE WARNING 'implausible age % for birthdate %', v_age, p_birth;
    END IF;
    RETURN v_age;
END;
$$;

CREATE FUNCTION check_vat(p_country text, p_vat text)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_pattern text;
    v_msg     text;
BEGIN
    IF p_vat IS NULL THEN
        RETURN;
    END IF;
    v_pattern := CASE upper(p_country)
                     WHEN 'DE' THEN '^DE[0-9]{9}$'
                     WHEN 'FR' THEN '^FR[0-9A-Z]{2}[0-9]{9}$'
                     WHEN 'NL' THEN '^NL[0-9]{9}B[0-9]{2}$'
                 END;
    IF v_pattern IS NULL THEN
        RAISE EXCEPTION 'VAT ids are not supported for country %', p_country
            USING ERRCODE = 'feature_not_supported';
    END IF;
    IF upper(replace(p_vat, ' ', '')) !~ v_pattern THEN
        v_msg := format('VAT id %s does not match the %s format', p_vat, upper(p_country));
        RAISE EXCEPTION USING MESSAGE = v_msg, ERRCODE = 'CV005',
            DETAIL = 'field: vat_id', HINT = 'pattern ' || v_pattern;
    END IF;
END;
$$;

-- Collects every validation failure into one text, one line per problem.
CREATE FUNCTION validate_customer(p_email text, p_name text, p_birth date,
                                  p_country text, p_vat text,
                                  p_today date DEFAULT '2024-06-01')
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    problems text := '';
    n        integer := 0;
BEGIN
    RAISE DEBUG 'validating %', p_email;
    RAISE LOG 'validation started for %', p_email;
    BEGIN
        PERFORM check_email(p_email);
    EXCEPTION WHEN SQLSTATE 'CV001' OR SQLSTATE 'CV002' THEN
        problems := problems || format(E'%s: %s\n', SQLSTATE, SQLERRM);
        n := n + 1;
    END;
    IF coalesce(length(btrim(p_name)), 0) < 2 THEN
        problems := problems || E'CV006: name is too short\n';
        n := n + 1;
    END IF;
    BEGIN
        PERFORM check_birthdate(p_birth, p_today);
    EXCEPTION WHEN OTHERS THEN
        IF SQLSTATE LIKE 'CV%' THEN
            problems := problems || format(E'%s: %s\n', SQLSTATE, SQLERRM);
            n := n + 1;
        ELSE
            RAISE;
        END IF;
    END;
    BEGIN
        PERFORM check_vat(p_country, p_vat);
    EXCEPTION
        WHEN feature_not_supported THEN
            RAISE INFO 'skipping VAT check: %', SQLERRM;
        WHEN SQLSTATE 'CV005' THEN
            problems := problems || format(E'%s: %s\n', SQLSTATE, SQLERRM);
            n := n + 1;
    END;
    IF n = 0 THEN
        RETURN 'ok';
    END IF;
    RETURN format(E'%s problem(s):\n%s', n, rtrim(problems, E'\n'));
END;
$$;

SELECT validate_customer('ann@example.com', 'Ann', '1990-04-01', 'DE', 'DE123456789');
SELECT validate_customer('bad address', 'B', '2010-01-01', 'NL', 'NL12345');
SELECT validate_customer('', NULL, '2030-01-01', 'FR', 'FRXX123456789');
SELECT validate_customer('old@example.com', 'Methuselah', '1850-01-01', 'US', 'US1');
SELECT validate_customer('nobirth@example.com', 'Nemo', NULL, 'DE', NULL);

-- Errors reach the client with all their fields when not caught.
SELECT check_email('x@y');
SELECT check_email(NULL);
SELECT check_birthdate('2020-02-29', '2024-06-01');
SELECT check_vat('nl', 'NL 1234 5678 9B01');
SELECT check_vat('nl', 'NL123456789B012');
SELECT check_vat('IT', 'IT1');

-- Registration: validate, then insert; validation failures become a
-- single error with everything in DETAIL.
CREATE FUNCTION register_customer(p_email text, p_name text, p_birth date,
                                  p_country text, p_vat text DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    v_report text;
    v_id     integer;
BEGIN
    v_report := validate_customer(p_email, p_name, p_birth, p_country, p_vat);
    IF v_report <> 'ok' THEN
        RAISE EXCEPTION 'customer % failed validation', coalesce(p_email, '(no email)')
            USING ERRCODE = 'CV000', DETAIL = v_report;
    END IF;
    INSERT INTO customer(email, name, birthdate, country, vat_id)
    VALUES (lower(p_email), btrim(p_name), p_birth, upper(p_country),
            upper(replace(p_vat, ' ', '')))
    RETURNING id INTO v_id;
    RETURN v_id;
EXCEPTION
    WHEN unique_violation THEN
        RAISE EXCEPTION 'email % is already registered', lower(p_email)
            USING ERRCODE = 'CV007';
END;
$$;

SELECT register_customer('Ann@Example.com', ' Ann Lee ', '1990-04-01', 'de', 'de 123456789');
SELECT register_customer('ann@example.com', 'Ann Again', '1991-01-01', 'DE');
SELECT register_customer('kid@example.com', 'K', '2015-01-01', 'FR');
SELECT register_customer('zoe@example.com', 'Zoe', '1980-12-31', 'NL', 'NL123456789B01');
SELECT id, email, name, birthdate, country, vat_id FROM customer ORDER BY id;

-- Condition-name-only RAISE and NOT NULL variable violations.
DO $$
BEGIN
    RAISE division_by_zero;
EXCEPTION WHEN division_by_zero THEN
    RAISE NOTICE 'caught: % / %', SQLSTATE, SQLERRM;
END;
$$;
DO $$
DECLARE
    v_country char(2) NOT NULL := 'DE';
BEGIN
    v_country := (SELECT country FROM customer WHERE id = -1);
END;
$$;
DO $$
BEGIN
    RAISE SQLSTATE 'CV999' USING MESSAGE = 'validation service unavailable',
        HINT = 'retry later';
END;
$$;
