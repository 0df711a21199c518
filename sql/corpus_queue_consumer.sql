-- Job queue consumer: workers claim the oldest runnable job with
-- SELECT ... FOR UPDATE SKIP LOCKED INTO a record, "execute" it, and mark
-- it done, or schedule a retry with backoff, or bury it after too many
-- attempts.  A drain loop processes the queue until empty.
-- Exercises: SELECT INTO record with FOR UPDATE SKIP LOCKED, FOUND,
-- rec.field reads, CASE statement with ELSE raising, RAISE ... USING
-- ERRCODE with named and custom conditions, nested exception blocks,
-- SQLERRM captured into a table, LOOP/EXIT WHEN, integer FOR, CONSTANT,
-- UPDATE ... RETURNING INTO, interval arithmetic on fixed timestamps.

CREATE TABLE job (
    id          integer PRIMARY KEY,
    kind        text NOT NULL,
    payload     text,
    priority    integer NOT NULL DEFAULT 5,
    run_after   timestamp NOT NULL,
    attempts    integer NOT NULL DEFAULT 0,
    status      text NOT NULL DEFAULT 'queued',
    last_error  text,
    result      text
);

CREATE TABLE mailbox (
    recipient text,
    body      text
);

INSERT INTO job(id, kind, payload, priority, run_after) VALUES
    (1, 'email',   'ann@example.com',  5, '2024-03-01 09:00'),
    (2, 'resize',  '640x480',          1, '2024-03-01 09:00'),
    (3, 'email',   'not-an-address',   5, '2024-03-01 09:01'),
    (4, 'resize',  '100x0',            3, '2024-03-01 09:02'),
    (5, 'webhook', 'https://x.test',   5, '2024-03-01 09:03'),
    (6, 'resize',  'huge',             5, '2024-03-01 12:00'),
    (7, 'email',   'bo@example.com',   9, '2024-03-01 09:05');

-- One unit of work.  Raises on failure; the caller decides what to do.
CREATE FUNCTION execute_job(p_kind text, p_payload text)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    w integer;
    h integer;
BEGIN
    CASE p_kind
        WHEN 'email' THEN
            IF p_payload !~ '^[^@ ]+@[^@ ]+\.[a-z]+$' THEN
                RAISE EXCEPTION 'invalid recipient "%"', p_payload
                    USING ERRCODE = 'data_exception';
            END IF;
            INSERT INTO mailbox VALUES (p_payload, 'Your report is ready');
            RETURN 'sent';
        WHEN 'resize' THEN
            w := split_part(p_payload, 'x', 1);
            h := split_part(p_payload, 'x', 2);
            RETURN format('thumb %sx%s', w * 100 / h, 100);
        ELSE
            RAISE EXCEPTION 'no handler for job kind %', p_kind
                USING ERRCODE = 'JQ404';
    END CASE;
END;
$$;

CREATE FUNCTION work_one(p_now timestamp, p_worker text)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    j            record;
    c_max_tries  CONSTANT integer := 3;
    v_result     text;
    v_status     text;
BEGIN
    SELECT id, kind, payload, attempts INTO j
      FROM job
     WHERE status = 'queued' AND run_after <= p_now
     ORDER BY priority, run_after, id
     LIMIT 1
       FOR UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;

    BEGIN
        v_result := execute_job(j.kind, j.payload);
        UPDATE job SET status = 'done', result = v_result,
                       attempts = attempts + 1, last_error = NULL
         WHERE id = j.id;
        RAISE NOTICE '[%] job % (%) done: %', p_worker, j.id, j.kind, v_result;
    EXCEPTION
        WHEN SQLSTATE 'JQ404' THEN
            UPDATE job SET status = 'buried', last_error = SQLERRM,
                           attempts = attempts + 1
             WHERE id = j.id;
            RAISE NOTICE '[%] job % buried: %', p_worker, j.id, SQLERRM;
        WHEN OTHERS THEN
            v_status := CASE WHEN j.attempts + 1 >= c_max_tries THEN 'failed' ELSE 'queued' END;
            UPDATE job SET attempts = attempts + 1,
                           status = v_status,
                           last_error = format('%s: %s', SQLSTATE, SQLERRM),
                           run_after = p_now + (2 ^ (attempts + 1)) * interval '1 minute'
             WHERE id = j.id
            RETURNING status INTO v_status;
            RAISE NOTICE '[%] job % attempt % failed (%), now %',
                p_worker, j.id, j.attempts + 1, SQLERRM, v_status;
    END;
    RETURN j.id;
END;
$$;

-- Drain the queue at a given instant, stepping the clock forward so that
-- retries with backoff become runnable.
CREATE FUNCTION drain(p_start timestamp, p_steps integer)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    v_now   timestamp := p_start;
    v_id    integer;
    handled integer := 0;
BEGIN
    FOR step IN 1..p_steps LOOP
        LOOP
            v_id := work_one(v_now, 'w' || step);
            EXIT WHEN v_id IS NULL;
            handled := handled + 1;
        END LOOP;
        v_now := v_now + interval '5 minutes';
    END LOOP;
    RAISE NOTICE 'drained % jobs, clock at %', handled, v_now;
    RETURN handled;
END;
$$;

-- Nothing runnable before 09:00.
SELECT work_one('2024-03-01 08:59', 'early');

-- A single worker step.
SELECT work_one('2024-03-01 09:00', 'solo');
SELECT id, status, attempts, result FROM job WHERE id = 2;

SELECT drain('2024-03-01 09:10', 4);
SELECT id, kind, status, attempts, run_after, last_error, result
  FROM job ORDER BY id;
SELECT * FROM mailbox ORDER BY recipient;

-- Requeue the webhook after a handler was "deployed" and run it again.
CREATE OR REPLACE FUNCTION execute_job(p_kind text, p_payload text)
RETURNS text
LANGUAGE plpgsql
AS $$
BEGIN
    IF p_kind = 'webhook' THEN
        RETURN 'POST ' || p_payload || ' -> 200';
    END IF;
    RAISE EXCEPTION 'handler for % is disabled', p_kind;
END;
$$;
UPDATE job SET status = 'queued', attempts = 0 WHERE status = 'buried';
SELECT drain('2024-03-01 13:00', 1);
SELECT id, status, attempts, last_error, result FROM job ORDER BY id;

-- The handler error escapes when called directly.
SELECT execute_job('email', 'x@y.z');
