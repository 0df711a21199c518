-- Blog engine triggers: posts and their comments, kept consistent by
-- triggers the way a small forum application would do it.
--  * posts keep a valid_from/valid_to version history, written by an AFTER
--    row trigger that opens a new version only when one of the columns
--    named in TG_ARGV changed (counter updates make no new version);
--  * comments are audited generically as old/new jsonb by an AFTER row
--    trigger that takes the key column from TG_ARGV[0] and records only
--    the changed columns of an UPDATE;
--  * posts.comment_count and posts.last_comment_at are denormalised
--    counters kept by an AFTER row trigger on comments: INSERT, DELETE,
--    hiding and unhiding a comment, moving a comment to another post;
--  * a BEFORE row trigger normalises comments (trims, lower-cases the
--    author, collapses blanks), drops empty ones (RETURN NULL) and rejects
--    spam, comments on locked posts and changes of created_at with custom
--    SQLSTATEs, DETAILs and HINTs; a DO block catches some of them and
--    reads them with GET STACKED DIAGNOSTICS;
--  * a statement-level AFTER UPDATE trigger with transition tables
--    summarises each bulk moderation UPDATE.
-- Uses: TG_OP, TG_ARGV, TG_NARGS, TG_TABLE_NAME, TG_WHEN, TG_LEVEL, NEW/OLD
-- (and OLD's fields in an INSERT trigger), to_jsonb of rows, FOREACH over
-- TG_ARGV, SELECT INTO fields of a %ROWTYPE variable, UPDATE ... RETURNING
-- INTO, FOUND and ROW_COUNT after an INSERT skipped by a BEFORE trigger,
-- ON DELETE CASCADE firing the comment triggers.
-- Timestamps come from a one-row app_clock table that the script sets.

CREATE TABLE app_clock (now_ts timestamp NOT NULL);
INSERT INTO app_clock VALUES ('2024-03-01 09:00:00');

CREATE TABLE posts (
    id              integer PRIMARY KEY,
    title           text NOT NULL,
    author          text NOT NULL,
    locked          boolean NOT NULL DEFAULT false,
    comment_count   integer NOT NULL DEFAULT 0,
    last_comment_at timestamp
);

CREATE TABLE post_versions (
    post_id     integer NOT NULL,
    version     integer NOT NULL,
    title       text NOT NULL,
    locked      boolean NOT NULL,
    valid_from  timestamp NOT NULL,
    valid_to    timestamp,
    closed_by   text,
    PRIMARY KEY (post_id, version)
);

CREATE TABLE comments (
    id          integer PRIMARY KEY,
    post_id     integer NOT NULL REFERENCES posts ON DELETE CASCADE,
    author      text NOT NULL,
    body        text NOT NULL,
    status      text NOT NULL DEFAULT 'visible'
                CHECK (status IN ('visible', 'hidden')),
    created_at  timestamp
);

CREATE TABLE audit_log (
    seq       serial PRIMARY KEY,
    tbl       text NOT NULL,
    op        char(1) NOT NULL,
    row_key   text NOT NULL,
    old_row   jsonb,
    new_row   jsonb,
    changed   text[]
);

CREATE TABLE moderation_runs (
    run        serial PRIMARY KEY,
    at         timestamp NOT NULL,
    rows_seen  integer NOT NULL,
    hidden     integer NOT NULL,
    unhidden   integer NOT NULL,
    moved      integer NOT NULL,
    posts_hit  integer[]
);

------------------------------------------------------------------------------
-- post versions: valid_from / valid_to
------------------------------------------------------------------------------

CREATE FUNCTION post_versioning()
RETURNS trigger
LANGUAGE plnimble
AS $$
DECLARE
    v_now   timestamp := (SELECT now_ts FROM app_clock);
    v_ver   integer;
    v_old   jsonb;
    v_new   jsonb;
    v_diff  text := '';
BEGIN
    IF TG_OP = 'UPDATE' THEN
        v_old := to_jsonb(OLD);
        v_new := to_jsonb(NEW);
        FOR i IN 0 .. TG_NARGS - 1 LOOP
            IF v_old -> TG_ARGV[i] IS DISTINCT FROM v_new -> TG_ARGV[i] THEN
                v_diff := v_diff || TG_ARGV[i] || ' ';
            END IF;
        END LOOP;
        IF v_diff = '' THEN
            RETURN NULL;            -- only counters changed: same version
        END IF;
    END IF;

    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE post_versions
           SET valid_to = v_now,
               closed_by = coalesce(nullif(rtrim(v_diff), ''), lower(TG_OP))
         WHERE post_id = OLD.id AND valid_to IS NULL
        RETURNING version INTO v_ver;
        IF NOT FOUND THEN
            RAISE WARNING 'post % had no open version', OLD.id;
        END IF;
    END IF;

    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO post_versions(post_id, version, title, locked, valid_from)
        VALUES (NEW.id, coalesce(v_ver, 0) + 1, NEW.title, NEW.locked, v_now);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER posts_versioning
    AFTER INSERT OR UPDATE OR DELETE ON posts
    FOR EACH ROW EXECUTE FUNCTION post_versioning('title', 'locked');

------------------------------------------------------------------------------
-- generic jsonb audit
------------------------------------------------------------------------------

CREATE FUNCTION audit_row()
RETURNS trigger
LANGUAGE plnimble
AS $$
DECLARE
    v_key     text := TG_ARGV[0];
    v_old     jsonb;
    v_new     jsonb;
    v_changed text[];
BEGIN
    IF TG_OP <> 'INSERT' THEN
        v_old := to_jsonb(OLD);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        v_new := to_jsonb(NEW);
    END IF;

    IF TG_OP = 'UPDATE' THEN
        SELECT array_agg(n.key ORDER BY n.key) INTO v_changed
          FROM jsonb_each(v_new) AS n
         WHERE n.value IS DISTINCT FROM v_old -> n.key;
        IF v_changed IS NULL THEN
            RETURN NULL;            -- nothing really changed
        END IF;
        -- keep only the changed columns, plus the key
        SELECT jsonb_object_agg(key, value) INTO v_old
          FROM jsonb_each(v_old) WHERE key = ANY (v_changed || v_key);
        SELECT jsonb_object_agg(key, value) INTO v_new
          FROM jsonb_each(v_new) WHERE key = ANY (v_changed || v_key);
    END IF;

    INSERT INTO audit_log(tbl, op, row_key, old_row, new_row, changed)
    VALUES (TG_TABLE_NAME, left(TG_OP, 1),
            coalesce(v_new, v_old) ->> v_key, v_old, v_new, v_changed);
    RETURN NULL;
END;
$$;

------------------------------------------------------------------------------
-- BEFORE: normalise and validate comments
------------------------------------------------------------------------------

CREATE FUNCTION comment_normalize()
RETURNS trigger
LANGUAGE plnimble
AS $$
DECLARE
    v_locked boolean;
    v_word   text;
BEGIN
    NEW.author := lower(btrim(NEW.author));
    NEW.body := btrim(regexp_replace(NEW.body, '\s+', ' ', 'g'));
    IF NEW.body = '' THEN
        RAISE NOTICE '% % on %: comment % by % is empty, skipped',
            TG_WHEN, TG_OP, TG_TABLE_NAME, NEW.id, NEW.author;
        RETURN NULL;
    END IF;

    -- TG_ARGV holds the banned words
    FOREACH v_word IN ARRAY TG_ARGV LOOP
        IF position(v_word IN lower(NEW.body)) > 0 THEN
            RAISE EXCEPTION 'comment % looks like spam (contains "%")', NEW.id, v_word
                USING ERRCODE = 'CM001',
                      HINT = format('remove the reference to %s and post again', v_word);
        END IF;
    END LOOP;

    IF TG_OP = 'INSERT' OR NEW.post_id <> OLD.post_id THEN
        SELECT locked INTO v_locked FROM posts WHERE id = NEW.post_id;
        IF v_locked THEN
            RAISE EXCEPTION 'post % is locked', NEW.post_id
                USING ERRCODE = 'CM002',
                      DETAIL = format('comment %s by %s', NEW.id, NEW.author),
                      HINT = 'unlock the post or choose another one';
        END IF;
    END IF;

    IF TG_OP = 'INSERT' THEN
        NEW.created_at := coalesce(NEW.created_at, (SELECT now_ts FROM app_clock));
    ELSIF NEW.created_at IS DISTINCT FROM OLD.created_at THEN
        RAISE EXCEPTION 'created_at of comment % is read-only', OLD.id
            USING ERRCODE = 'CM003';
    END IF;
    RETURN NEW;
END;
$$;

------------------------------------------------------------------------------
-- AFTER: denormalised counters on posts
------------------------------------------------------------------------------

CREATE FUNCTION comment_counters()
RETURNS trigger
LANGUAGE plnimble
AS $$
DECLARE
    -- OLD is all NULLs in an INSERT trigger, NEW in a DELETE trigger
    was_counted boolean := TG_OP <> 'INSERT' AND OLD.status = 'visible';
    is_counted  boolean := TG_OP <> 'DELETE' AND NEW.status = 'visible';
    moved       boolean := TG_OP = 'UPDATE' AND NEW.post_id <> OLD.post_id;
BEGIN
    IF was_counted AND (NOT is_counted OR moved) THEN
        UPDATE posts
           SET comment_count = comment_count - 1,
               last_comment_at = (SELECT max(c.created_at) FROM comments c
                                   WHERE c.post_id = OLD.post_id
                                     AND c.status = 'visible')
         WHERE id = OLD.post_id;
        IF NOT FOUND THEN
            RAISE NOTICE 'post % is gone, counter not updated', OLD.post_id;
        END IF;
    END IF;
    IF is_counted AND (NOT was_counted OR moved) THEN
        UPDATE posts
           SET comment_count = comment_count + 1,
               last_comment_at = greatest(last_comment_at, NEW.created_at)
         WHERE id = NEW.post_id;
    END IF;
    RETURN NULL;
END;
$$;

------------------------------------------------------------------------------
-- AFTER UPDATE statement trigger: moderation summary
------------------------------------------------------------------------------

CREATE FUNCTION comments_moderation_summary()
RETURNS trigger
LANGUAGE plnimble
AS $$
DECLARE
    v_run moderation_runs%ROWTYPE;
BEGIN
    SELECT count(*),
           count(*) FILTER (WHERE o.status = 'visible' AND n.status = 'hidden'),
           count(*) FILTER (WHERE o.status = 'hidden' AND n.status = 'visible'),
           count(*) FILTER (WHERE o.post_id <> n.post_id)
      INTO v_run.rows_seen, v_run.hidden, v_run.unhidden, v_run.moved
      FROM old_rows o JOIN new_rows n USING (id);

    IF v_run.rows_seen = 0 THEN
        RAISE NOTICE '% % trigger on %: no comment changed', TG_WHEN, TG_LEVEL, TG_TABLE_NAME;
        RETURN NULL;
    END IF;

    SELECT array_agg(p ORDER BY p) INTO v_run.posts_hit
      FROM (SELECT post_id FROM old_rows UNION SELECT post_id FROM new_rows) AS s(p);

    INSERT INTO moderation_runs(at, rows_seen, hidden, unhidden, moved, posts_hit)
    VALUES ((SELECT now_ts FROM app_clock), v_run.rows_seen, v_run.hidden,
            v_run.unhidden, v_run.moved, v_run.posts_hit)
    RETURNING run INTO v_run.run;

    RAISE NOTICE 'moderation run %: % rows, % hidden, % unhidden, % moved, posts %',
        v_run.run, v_run.rows_seen, v_run.hidden, v_run.unhidden, v_run.moved,
        v_run.posts_hit;
    RETURN NULL;
END;
$$;

CREATE TRIGGER comments_a_normalize
    BEFORE INSERT OR UPDATE ON comments
    FOR EACH ROW EXECUTE FUNCTION comment_normalize('casino', 'cheap-pills.example');
CREATE TRIGGER comments_b_counters
    AFTER INSERT OR DELETE OR UPDATE OF post_id, status ON comments
    FOR EACH ROW EXECUTE FUNCTION comment_counters();
CREATE TRIGGER comments_c_audit
    AFTER INSERT OR UPDATE OR DELETE ON comments
    FOR EACH ROW EXECUTE FUNCTION audit_row('id');
CREATE TRIGGER comments_d_moderation
    AFTER UPDATE ON comments
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION comments_moderation_summary();

------------------------------------------------------------------------------
-- a day on the forum
------------------------------------------------------------------------------

INSERT INTO posts(id, title, author) VALUES
    (1, 'Hello world', 'alice'),
    (2, 'Trigger tricks', 'bob'),
    (3, 'Release notes 1.0', 'alice');

UPDATE app_clock SET now_ts = '2024-03-01 10:00:00';
INSERT INTO comments(id, post_id, author, body) VALUES
    (10, 1, '  Carol ', 'First!'),
    (11, 1, 'dave', E'Welcome   aboard,\n   alice'),
    (12, 2, 'carol', 'Neat trick with   TG_ARGV.');

UPDATE app_clock SET now_ts = '2024-03-01 11:30:00';
-- a backfilled comment keeps its own timestamp; a blank one is skipped
INSERT INTO comments(id, post_id, author, body, created_at) VALUES
    (13, 2, 'Erin', 'Backfilled from the old forum', '2024-02-15 08:00:00'),
    (14, 2, 'frank', E'   \t  ', NULL);

SELECT id, comment_count, last_comment_at FROM posts ORDER BY id;

-- title and lock changes make new versions; a counter-only update does not
UPDATE app_clock SET now_ts = '2024-03-01 12:00:00';
UPDATE posts SET title = 'Hello, world' WHERE id = 1;
UPDATE posts SET locked = true WHERE id = 3;
UPDATE posts SET comment_count = comment_count WHERE id = 2;

-- spam is rejected with a hint; the whole multi-row INSERT fails
INSERT INTO comments(id, post_id, author, body) VALUES
    (15, 1, 'grace', 'Good point.'),
    (16, 1, 'mallory', 'cheap pills at CHEAP-PILLS.example');

-- a batch of incoming comments: rejected ones are reported, not fatal
UPDATE app_clock SET now_ts = '2024-03-01 13:15:00';
DO LANGUAGE plnimble $$
DECLARE
    c        record;
    v_state  text;
    v_msg    text;
    v_detail text;
    v_hint   text;
    v_rows   integer;
    v_ok     integer := 0;
BEGIN
    FOR c IN
        SELECT * FROM (VALUES
            (20, 1, 'Dora',  'Nice write-up!'),
            (21, 1, 'eve',   'Visit my Casino tonight'),
            (22, 3, 'frank', 'Is this still open?'),
            (23, 99, 'gus',  'wrong post'),
            (24, 2, 'hal',   '    '),
            (25, 2, 'Ivy',   'Thanks,   that fixed it.')) AS v(id, post_id, author, body)
        ORDER BY id
    LOOP
        BEGIN
            INSERT INTO comments(id, post_id, author, body)
            VALUES (c.id, c.post_id, c.author, c.body);
            GET DIAGNOSTICS v_rows = ROW_COUNT;
            IF FOUND THEN
                v_ok := v_ok + v_rows;
            ELSE
                RAISE NOTICE 'comment % not stored (row_count %)', c.id, v_rows;
            END IF;
        EXCEPTION
            WHEN SQLSTATE 'CM001' OR SQLSTATE 'CM002' THEN
                GET STACKED DIAGNOSTICS v_state  = RETURNED_SQLSTATE,
                                        v_msg    = MESSAGE_TEXT,
                                        v_detail = PG_EXCEPTION_DETAIL,
                                        v_hint   = PG_EXCEPTION_HINT;
                RAISE NOTICE 'rejected % [%]: % / detail: % / hint: %',
                    c.id, v_state, v_msg, nullif(v_detail, ''), v_hint;
            WHEN foreign_key_violation THEN
                RAISE NOTICE 'rejected %: post % does not exist', c.id, c.post_id;
        END;
    END LOOP;
    RAISE NOTICE '% of the incoming comments accepted', v_ok;
END
$$;

SELECT id, comment_count, last_comment_at FROM posts ORDER BY id;

-- bulk moderation: hide the "First!" comment and everything by dora
UPDATE app_clock SET now_ts = '2024-03-01 14:00:00';
UPDATE comments SET status = 'hidden'
 WHERE body ILIKE 'first%' OR author = 'dora';

-- moving a comment onto a locked post fails in the BEFORE trigger
UPDATE comments SET post_id = 3 WHERE id = 25;
UPDATE posts SET locked = false WHERE id = 3;
UPDATE comments SET post_id = 3 WHERE id = 25;

-- unhide one comment and move another in the same statement
UPDATE app_clock SET now_ts = '2024-03-01 15:00:00';
UPDATE comments
   SET status  = CASE WHEN id = 10 THEN 'visible' ELSE status END,
       post_id = CASE WHEN id = 12 THEN 1 ELSE post_id END
 WHERE id IN (10, 12);

-- an edit that empties the body is skipped; the statement trigger still fires
UPDATE comments SET body = '   ' WHERE id = 13;
-- an UPDATE that matches nothing fires it too
UPDATE comments SET status = 'hidden' WHERE author = 'nobody';
-- created_at is read-only
UPDATE comments SET created_at = '2020-01-01' WHERE id = 11;
-- an edit that changes nothing but whitespace is not audited
UPDATE comments SET body = E'Welcome aboard,\talice  ' WHERE id = 11;
UPDATE comments SET body = 'Welcome aboard, Alice!' WHERE id = 11;

SELECT id, comment_count, last_comment_at FROM posts ORDER BY id;

-- deleting comments recomputes last_comment_at from what is left
UPDATE app_clock SET now_ts = '2024-03-02 09:00:00';
DELETE FROM comments WHERE id = 20;
DELETE FROM comments WHERE id = 12;

-- deleting a post cascades to its comments; their counter trigger
-- finds the post gone
DELETE FROM posts WHERE id = 2;

SELECT * FROM posts ORDER BY id;
SELECT id, post_id, author, body, status, created_at FROM comments ORDER BY id;
SELECT * FROM post_versions ORDER BY post_id, version;
SELECT seq, op, row_key, changed, old_row, new_row FROM audit_log ORDER BY seq;
SELECT * FROM moderation_runs ORDER BY run;

-- the counters agree with a full recount
SELECT p.id,
       p.comment_count = count(c.id) AS count_ok,
       p.last_comment_at IS NOT DISTINCT FROM max(c.created_at) AS last_ok
  FROM posts p
  LEFT JOIN comments c ON c.post_id = p.id AND c.status = 'visible'
 GROUP BY p.id
 ORDER BY p.id;
