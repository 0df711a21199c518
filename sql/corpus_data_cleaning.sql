-- Data-cleaning helpers for a messy imported contacts table: "try cast"
-- functions that attempt a conversion and fall back to NULL or a default,
-- a phone normaliser, and a cleaning pass that fills typed columns and
-- counts what could not be parsed.
-- Exercises: scalar functions returning integer/date/numeric/boolean,
-- BEGIN..EXCEPTION around casts, WHEN OTHERS, nested blocks with labels
-- and qualified variable references, IF/ELSIF, CASE statement, string
-- functions (btrim, regexp_replace, replace, position, length, left,
-- substr, lower, to_date/to_char), WHILE loop over characters, RAISE
-- DEBUG (not shown), default and named-notation arguments,
-- FOR rec IN query, UPDATE inside loop.

CREATE FUNCTION try_int(p_text text, p_default integer DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    RETURN btrim(p_text)::integer;
EXCEPTION WHEN OTHERS THEN
    RAISE DEBUG 'try_int(%) failed: %', p_text, SQLERRM;
    RETURN p_default;
END;
$$;

CREATE FUNCTION try_numeric(p_text text)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_clean text;
BEGIN
    -- strip currency symbols and thousands separators, accept a comma
    -- as decimal separator when there is no dot
    v_clean := regexp_replace(btrim(p_text), '[$€£ ]', '', 'g');
    IF position('.' IN v_clean) = 0 AND v_clean ~ '^-?[0-9]+,[0-9]{1,2}$' THEN
        v_clean := replace(v_clean, ',', '.');
    ELSE
        v_clean := replace(v_clean, ',', '');
    END IF;
    RETURN v_clean::numeric;
EXCEPTION
    WHEN invalid_text_representation THEN
        RETURN NULL;
END;
$$;

CREATE FUNCTION try_date(p_text text)
RETURNS date
LANGUAGE plpgsql
AS $$
DECLARE
    v_result date;
BEGIN
    IF p_text IS NULL OR btrim(p_text) = '' THEN
        RETURN NULL;
    END IF;
    -- first attempt: ISO
    BEGIN
        v_result := to_date(btrim(p_text), 'YYYY-MM-DD');
        IF to_char(v_result, 'YYYY-MM-DD') = btrim(p_text) THEN
            RETURN v_result;
        END IF;
    EXCEPTION WHEN OTHERS THEN
        NULL;
    END;
    -- second attempt: European day.month.year
    BEGIN
        RETURN to_date(btrim(p_text), 'DD.MM.YYYY');
    EXCEPTION WHEN invalid_datetime_format OR datetime_field_overflow THEN
        RETURN NULL;
    END;
END;
$$;

CREATE FUNCTION try_bool(p_text text)
RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
    v text := lower(btrim(coalesce(p_text, '')));
BEGIN
    CASE v
        WHEN 'y', 'yes', 'true', 't', '1', 'on' THEN
            RETURN true;
        WHEN 'n', 'no', 'false', 'f', '0', 'off' THEN
            RETURN false;
        ELSE
            RETURN NULL;
    END CASE;
END;
$$;

CREATE FUNCTION normalize_phone(p_raw text, p_country text DEFAULT '+1')
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    i       integer := 1;
    ch      text;
    digits  text := '';
BEGIN
    WHILE i <= length(p_raw) LOOP
        ch := substr(p_raw, i, 1);
        IF ch BETWEEN '0' AND '9' THEN
            digits := digits || ch;
        ELSIF ch = '+' AND digits = '' THEN
            digits := '+';
        END IF;
        i := i + 1;
    END LOOP;
    IF left(digits, 1) = '+' THEN
        RETURN digits;
    ELSIF length(digits) = 10 THEN
        RETURN p_country || digits;
    ELSIF length(digits) = 11 AND left(digits, 1) = '1' THEN
        RETURN '+' || digits;
    END IF;
    RETURN NULL;
END;
$$;

SELECT v, try_int(v) AS as_int, try_int(v, -1) AS with_default
  FROM unnest(ARRAY['42', ' 7 ', '3.5', 'x', '', NULL, '99999999999']) AS v;
SELECT v, try_numeric(v)
  FROM unnest(ARRAY['1,234.50', '$ 99', '12,5', '-0,75', 'abc', '€1 000,00']) AS v;
SELECT v, try_date(v)
  FROM unnest(ARRAY['2023-04-01', '2023-13-01', '01.04.2023', '31.02.2023', 'soon', ' ']) AS v;
SELECT v, try_bool(v) FROM unnest(ARRAY['Yes', 'off', 'maybe', NULL]) AS v;
SELECT v, normalize_phone(v)
  FROM unnest(ARRAY['(555) 123-4567', '1-555-123-4567', '+44 20 7946 0958', '12345']) AS v;
SELECT normalize_phone('555.123.4567', p_country => '+52');

CREATE TABLE contact_raw (
    id         integer PRIMARY KEY,
    age_txt    text,
    joined_txt text,
    spend_txt  text,
    optin_txt  text,
    phone_txt  text,
    age        integer,
    joined     date,
    spend      numeric(10,2),
    optin      boolean,
    phone      text
);

INSERT INTO contact_raw(id, age_txt, joined_txt, spend_txt, optin_txt, phone_txt) VALUES
    (1, '34',   '2021-06-15', '$1,200.00', 'yes',   '555-010-9999'),
    (2, 'n/a',  '15.06.2021', '12,5',      'N',     '(555) 010 8888'),
    (3, '230',  'yesterday',  'free',      'maybe', '010'),
    (4, ' 19 ', '',           '0',         '1',     '+49 30 1234567'),
    (5, '-4',   '29.02.2020', '',          NULL,    NULL);

CREATE FUNCTION clean_contacts()
RETURNS void
LANGUAGE plpgsql
AS $$
<<cleaner>>
DECLARE
    r        record;
    age      integer;
    problems integer := 0;
    total    integer := 0;
BEGIN
    FOR r IN SELECT * FROM contact_raw ORDER BY id LOOP
        total := total + 1;
        <<row_block>>
        DECLARE
            problems integer := 0;   -- per-row counter shadows cleaner.problems
        BEGIN
            cleaner.age := try_int(r.age_txt);
            IF cleaner.age IS NULL OR cleaner.age NOT BETWEEN 0 AND 120 THEN
                cleaner.age := NULL;
                problems := problems + 1;
            END IF;
            IF try_date(r.joined_txt) IS NULL THEN
                problems := problems + 1;
            END IF;
            IF try_numeric(r.spend_txt) IS NULL THEN
                problems := problems + 1;
            END IF;
            IF try_bool(r.optin_txt) IS NULL THEN
                problems := problems + 1;
            END IF;
            IF normalize_phone(coalesce(r.phone_txt, '')) IS NULL THEN
                problems := problems + 1;
            END IF;
            UPDATE contact_raw
               SET age = cleaner.age,
                   joined = try_date(r.joined_txt),
                   spend = try_numeric(r.spend_txt),
                   optin = try_bool(r.optin_txt),
                   phone = normalize_phone(coalesce(r.phone_txt, ''))
             WHERE id = r.id;
            IF row_block.problems > 0 THEN
                RAISE NOTICE 'contact %: % field(s) could not be parsed', r.id, row_block.problems;
                cleaner.problems := cleaner.problems + 1;
            END IF;
        END;
    END LOOP;
    RAISE NOTICE '% of % contacts need manual review', problems, total;
END;
$$;

SELECT clean_contacts();
SELECT id, age, joined, spend, optin, phone FROM contact_raw ORDER BY id;
