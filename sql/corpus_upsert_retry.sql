-- Upsert-with-retry helpers, the pre-ON CONFLICT idiom still found in many
-- production schemas: a page-hit counter merged with UPDATE-then-INSERT
-- inside a retry loop, and a unique username allocator that keeps trying
-- suffixed candidates until the INSERT stops raising unique_violation.
-- Exercises: DECLARE with defaults and CONSTANT, LOOP/EXIT, FOUND after
-- UPDATE, BEGIN..EXCEPTION WHEN unique_violation, SQLSTATE/SQLERRM,
-- rollback of the failed sub-block's work, RAISE NOTICE/EXCEPTION with
-- USING HINT, INSERT ... RETURNING INTO, labels.

CREATE TABLE page_hits (
    path    text PRIMARY KEY,
    hits    integer NOT NULL DEFAULT 0
);

CREATE TABLE app_user (
    id        serial PRIMARY KEY,
    username  text NOT NULL UNIQUE,
    email     text NOT NULL UNIQUE
);

CREATE TABLE signup_log (
    username  text,
    note      text
);

CREATE FUNCTION merge_hit(p_path text, p_count integer DEFAULT 1)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    v_total   integer;
    v_tries   integer := 0;
    c_max     CONSTANT integer := 3;
BEGIN
    LOOP
        v_tries := v_tries + 1;
        UPDATE page_hits SET hits = hits + p_count
         WHERE path = p_path
        RETURNING hits INTO v_total;
        IF FOUND THEN
            RETURN v_total;
        END IF;
        BEGIN
            INSERT INTO page_hits(path, hits) VALUES (p_path, p_count)
            RETURNING hits INTO v_total;
            RETURN v_total;
        EXCEPTION WHEN unique_violation THEN
            RAISE NOTICE 'concurrent insert of %, retry %', p_path, v_tries;
        END;
        EXIT WHEN v_tries >= c_max;
    END LOOP;
    RAISE EXCEPTION 'could not merge hit for % after % tries', p_path, v_tries
        USING HINT = 'check for a unique index that does not match the key';
END;
$$;

SELECT merge_hit('/home');
SELECT merge_hit('/home');
SELECT merge_hit('/about', 5);
SELECT merge_hit('/home', 10);
SELECT merge_hit(p_count => 2, p_path => '/about');
SELECT * FROM page_hits ORDER BY path;

-- A NULL key makes the INSERT fail with a not-null violation, which is not
-- handled by the retry block and escapes to the caller.
SELECT merge_hit(NULL);

-- Username allocator: tries base, base2, base3, ... until one is free.
-- The signup_log row written inside the failing sub-block must disappear
-- when the block's exception handler runs.
CREATE FUNCTION allocate_username(p_base text, p_email text)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    v_base      text := lower(regexp_replace(p_base, '[^A-Za-z0-9]+', '', 'g'));
    v_candidate text;
    v_suffix    integer := 1;
    v_id        integer;
BEGIN
    IF v_base = '' THEN
        RAISE EXCEPTION 'username base "%" has no usable characters', p_base
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    <<attempts>>
    LOOP
        v_candidate := CASE WHEN v_suffix = 1 THEN v_base
                            ELSE v_base || v_suffix END;
        BEGIN
            INSERT INTO signup_log VALUES (v_candidate, 'attempt');
            INSERT INTO app_user(username, email)
            VALUES (v_candidate, p_email)
            RETURNING id INTO v_id;
            EXIT attempts;
        EXCEPTION
            WHEN unique_violation THEN
                IF SQLERRM LIKE '%app_user_email_key%' THEN
                    RAISE EXCEPTION 'email % is already registered', p_email
                        USING ERRCODE = SQLSTATE, HINT = 'use password reset instead';
                END IF;
                RAISE NOTICE 'username % taken (%), trying next', v_candidate, SQLSTATE;
                v_suffix := v_suffix + 1;
        END;
        IF v_suffix > 5 THEN
            RAISE EXCEPTION 'no free username for base %', v_base;
        END IF;
    END LOOP attempts;
    INSERT INTO signup_log VALUES (v_candidate, format('created id %s', v_id));
    RETURN v_candidate;
END;
$$;

SELECT allocate_username('Alice', 'alice@example.com');
SELECT allocate_username('alice!', 'alice2@example.com');
SELECT allocate_username('A.L.I.C.E', 'alice3@example.com');
SELECT allocate_username('Bob Smith', 'bob@example.com');
SELECT allocate_username('bobsmith', 'bob@example.com');
SELECT allocate_username('***', 'nobody@example.com');

-- Fill up the remaining suffixes so the allocator gives up.
SELECT allocate_username('carol', 'c' || g || '@example.com') FROM generate_series(1, 5) g;
SELECT allocate_username('carol', 'c6@example.com');

SELECT id, username, email FROM app_user ORDER BY id;
SELECT username, note, count(*) FROM signup_log GROUP BY 1, 2 ORDER BY 1, 2;

-- A caller that swallows the error and reports it instead.
DO $$
DECLARE
    v_name text;
BEGIN
    v_name := allocate_username('bob smith', 'bob@example.com');
    RAISE NOTICE 'got %', v_name;
EXCEPTION WHEN unique_violation THEN
    RAISE NOTICE 'caught [%] %', SQLSTATE, SQLERRM;
END;
$$;
