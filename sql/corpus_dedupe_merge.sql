-- Duplicate-customer merge job from a data-quality toolkit: finds groups
-- of customers sharing a normalised e-mail, picks a survivor (most
-- orders, then oldest), re-points child rows, fills the survivor's empty
-- fields from the duplicates, deletes the duplicates, and logs each
-- merge.  Groups marked "do not merge" are skipped.
-- Exercises: nested FOR rec IN query loops with labels, CONTINUE to an
-- outer label, EXIT WHEN, non-STRICT SELECT INTO that keeps the first
-- row, SELECT INTO with fewer columns than targets (extra targets set to
-- NULL), DELETE ... RETURNING INTO, UPDATE with FOUND checks, coalesce
-- field merging, a void function that RETURNs early, exception block
-- per group with the failed group's work rolled back, integer FOR with
-- an empty range.

CREATE TABLE contact (
    id        integer PRIMARY KEY,
    email     text NOT NULL,
    name      text,
    phone     text,
    created   date NOT NULL,
    no_merge  boolean NOT NULL DEFAULT false
);

CREATE TABLE purchase (
    id          integer PRIMARY KEY,
    contact_id  integer NOT NULL REFERENCES contact,
    amount      numeric(8,2) NOT NULL
);

CREATE TABLE merge_log (
    survivor  integer,
    merged    integer,
    moved     integer,
    note      text
);

INSERT INTO contact VALUES
    (1, 'Ann@Example.com',   'Ann',      NULL,       '2020-01-10', false),
    (2, 'ann@example.com ',  NULL,       '555-0101', '2021-03-02', false),
    (3, 'ANN@EXAMPLE.COM',   'Ann Lee',  NULL,       '2019-07-30', false),
    (4, 'bob@example.com',   'Bob',      '555-0202', '2020-05-05', false),
    (5, 'carl@example.com',  'Carl',     NULL,       '2022-01-01', true),
    (6, 'Carl@example.com',  'Carl B',   '555-0303', '2022-02-02', false),
    (7, 'dee@example.com',   NULL,       NULL,       '2023-01-01', false),
    (8, ' dee@example.com',  'Dee',      NULL,       '2023-01-01', false),
    (9, 'Eve@Example.com',   'Eve',      NULL,       '2023-06-01', false),
    (10, 'eve@example.com',  NULL,       'n/a',      '2023-06-02', false);

INSERT INTO purchase VALUES
    (100, 1, 10), (101, 2, 20), (102, 2, 30), (103, 3, 5),
    (104, 4, 99), (105, 6, 12), (106, 7, 1), (107, 8, 2),
    (108, 9, 7);

-- phone numbers must look like 555-0000; the merge of group "eve" fails
ALTER TABLE contact ADD CONSTRAINT phone_format
    CHECK (phone ~ '^[0-9]{3}-[0-9]{4}$') NOT VALID;

CREATE FUNCTION norm_email(p text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    RETURN lower(btrim(p));
END;
$$;

CREATE FUNCTION merge_pair(p_survivor integer, p_dup integer)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    v_moved    integer := 0;
    v_name     text;
    v_phone    text;
    v_gone     integer;
    p          record;
BEGIN
    IF p_survivor = p_dup THEN
        RETURN 0;
    END IF;
    FOR p IN SELECT id FROM purchase WHERE contact_id = p_dup ORDER BY id LOOP
        UPDATE purchase SET contact_id = p_survivor WHERE id = p.id;
        v_moved := v_moved + 1;
    END LOOP;
    SELECT name, phone INTO v_name, v_phone FROM contact WHERE id = p_dup;
    UPDATE contact
       SET name = coalesce(name, v_name),
           phone = coalesce(phone, v_phone)
     WHERE id = p_survivor;
    DELETE FROM contact WHERE id = p_dup RETURNING id INTO v_gone;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'duplicate % vanished during merge', p_dup;
    END IF;
    INSERT INTO merge_log VALUES (p_survivor, v_gone, v_moved, NULL);
    RETURN v_moved;
END;
$$;

CREATE FUNCTION merge_duplicates(p_dry_run boolean DEFAULT false)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    g          record;
    d          record;
    v_survivor integer;
    v_count    integer;
    v_extra    text;
    groups_ok  integer := 0;
BEGIN
    <<groups>>
    FOR g IN SELECT norm_email(email) AS key, count(*) AS n
               FROM contact GROUP BY 1 HAVING count(*) > 1 ORDER BY 1
    LOOP
        -- first row wins: the ORDER BY decides, no STRICT needed
        SELECT c.id INTO v_survivor
          FROM contact c LEFT JOIN purchase p ON p.contact_id = c.id
         WHERE norm_email(c.email) = g.key
         GROUP BY c.id, c.created
         ORDER BY count(p.id) DESC, c.created, c.id;

        -- two targets, one column: v_extra becomes NULL
        v_extra := 'stale';
        SELECT min(c.id) INTO v_count, v_extra
          FROM contact c WHERE norm_email(c.email) = g.key;

        FOR d IN SELECT id, no_merge FROM contact
                  WHERE norm_email(email) = g.key ORDER BY id
        LOOP
            IF d.no_merge THEN
                RAISE NOTICE 'group % skipped: contact % is marked no_merge', g.key, d.id;
                CONTINUE groups;
            END IF;
        END LOOP;

        IF p_dry_run THEN
            RAISE NOTICE 'would merge % contacts into % (%), lowest id %, extra=%',
                g.n, v_survivor, g.key, v_count, coalesce(v_extra, '<null>');
            CONTINUE;
        END IF;

        BEGIN
            v_count := 0;
            FOR d IN SELECT id FROM contact
                      WHERE norm_email(email) = g.key AND id <> v_survivor ORDER BY id
            LOOP
                v_count := v_count + merge_pair(v_survivor, d.id);
            END LOOP;
            groups_ok := groups_ok + 1;
            RAISE NOTICE 'merged group % into %, % purchase(s) moved',
                g.key, v_survivor, v_count;
        EXCEPTION WHEN check_violation THEN
            RAISE WARNING 'group % not merged: %', g.key, SQLERRM;
        END;
    END LOOP groups;

    IF groups_ok = 0 THEN
        RAISE NOTICE 'nothing merged';
        RETURN;
    END IF;
    UPDATE contact SET email = norm_email(email) WHERE email <> norm_email(email);
    RAISE NOTICE '% group(s) merged', groups_ok;
END;
$$;

SELECT merge_duplicates(true);
SELECT count(*) FROM merge_log;
SELECT merge_duplicates();
SELECT id, email, name, phone, created FROM contact ORDER BY id;
SELECT contact_id, count(*), sum(amount) FROM purchase GROUP BY 1 ORDER BY 1;
SELECT * FROM merge_log ORDER BY survivor, merged;

-- Second run: only the blocked groups remain.
SELECT merge_duplicates();

-- Helper used by the UI: merge an explicit list of ids "a,b,c" into the
-- first one.  An empty list iterates zero times.
CREATE FUNCTION merge_list(p_ids text)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    n        integer := coalesce(array_length(string_to_array(p_ids, ','), 1), 0);
    v_first  integer;
    total    integer := 0;
BEGIN
    v_first := split_part(p_ids, ',', 1);
    FOR i IN 2..n LOOP
        total := total + merge_pair(v_first, split_part(p_ids, ',', i)::integer);
    END LOOP;
    RETURN total;
END;
$$;

UPDATE contact SET no_merge = false WHERE id = 5;
SELECT merge_list('5,6');
SELECT merge_list('4');
SELECT merge_list('4,99');
SELECT merge_list('');
SELECT id, email, name, phone FROM contact ORDER BY id;
