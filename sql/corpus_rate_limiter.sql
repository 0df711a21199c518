-- API rate limiter backed by a counters table: fixed-window counting per
-- client and endpoint, per-plan limits, a token-bucket variant with
-- fractional refill, and a "check or raise" wrapper that reports
-- Retry-After in the error detail.  Time is always passed in explicitly
-- (fixed timestamps) so results are reproducible.
-- Exercises: SELECT INTO multiple scalar variables, FOUND after UPDATE
-- and SELECT, INSERT ... ON CONFLICT inside PL code, UPDATE ... RETURNING
-- INTO, CASE expressions and CASE statement, date_trunc/extract on
-- timestamps, numeric/integer assignment casts, CONSTANT, RAISE
-- EXCEPTION USING ERRCODE/DETAIL/HINT, catching by SQLSTATE in a caller,
-- integer FOR loop driving simulated traffic, boolean returns.

CREATE TABLE api_client (
    client   text PRIMARY KEY,
    plan     text NOT NULL CHECK (plan IN ('free', 'pro', 'internal'))
);

CREATE TABLE rate_window (
    client       text,
    endpoint     text,
    window_start timestamp,
    hits         integer NOT NULL,
    PRIMARY KEY (client, endpoint, window_start)
);

CREATE TABLE token_bucket (
    client      text PRIMARY KEY,
    tokens      numeric(10,3) NOT NULL,
    refilled_at timestamp NOT NULL
);

INSERT INTO api_client VALUES ('acme', 'free'), ('globex', 'pro'), ('ops', 'internal');

CREATE FUNCTION plan_limit(p_plan text)
RETURNS integer
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    CASE p_plan
        WHEN 'free' THEN RETURN 5;
        WHEN 'pro'  THEN RETURN 20;
        WHEN 'internal' THEN RETURN NULL;   -- unlimited
    END CASE;
END;
$$;

-- Fixed one-minute windows.  Returns true if the call is allowed.
CREATE FUNCTION allow_request(p_client text, p_endpoint text, p_at timestamp)
RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
    v_plan    text;
    v_limit   integer;
    v_window  timestamp := date_trunc('minute', p_at);
    v_hits    integer;
BEGIN
    SELECT plan INTO v_plan FROM api_client WHERE client = p_client;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown API client "%"', p_client
            USING ERRCODE = 'invalid_authorization_specification';
    END IF;
    v_limit := plan_limit(v_plan);
    IF v_limit IS NULL THEN
        RETURN true;
    END IF;

    UPDATE rate_window SET hits = hits + 1
     WHERE client = p_client AND endpoint = p_endpoint AND window_start = v_window
    RETURNING hits INTO v_hits;
    IF NOT FOUND THEN
        INSERT INTO rate_window VALUES (p_client, p_endpoint, v_window, 1)
        ON CONFLICT (client, endpoint, window_start)
        DO UPDATE SET hits = rate_window.hits + 1
        RETURNING hits INTO v_hits;
    END IF;
    RETURN v_hits <= v_limit;
END;
$$;

-- Wrapper used by the API layer: raises a well-known error instead of
-- returning false, with the seconds until the window resets.
CREATE FUNCTION enforce_limit(p_client text, p_endpoint text, p_at timestamp)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    c_window_secs CONSTANT integer := 60;
    v_retry       integer;
BEGIN
    IF NOT allow_request(p_client, p_endpoint, p_at) THEN
        v_retry := c_window_secs - extract(second FROM p_at);
        RAISE EXCEPTION 'rate limit exceeded for % on %', p_client, p_endpoint
            USING ERRCODE = 'RL429',
                  DETAIL = format('Retry-After: %s', v_retry),
                  HINT = CASE (SELECT plan FROM api_client WHERE client = p_client)
                             WHEN 'free' THEN 'upgrade to the pro plan for higher limits'
                             ELSE 'contact support' END;
    END IF;
END;
$$;

-- Simulated traffic: p_calls calls spaced p_gap seconds apart.
CREATE FUNCTION simulate(p_client text, p_endpoint text, p_start timestamp,
                         p_calls integer, p_gap integer)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    ok       integer := 0;
    limited  integer := 0;
    last_err text;
BEGIN
    FOR i IN 0..p_calls - 1 LOOP
        BEGIN
            PERFORM enforce_limit(p_client, p_endpoint, p_start + i * p_gap * interval '1 second');
            ok := ok + 1;
        EXCEPTION WHEN SQLSTATE 'RL429' THEN
            limited := limited + 1;
            last_err := SQLERRM;
        END;
    END LOOP;
    RETURN format('%s: %s ok, %s limited%s', p_client, ok, limited,
                  CASE WHEN last_err IS NULL THEN '' ELSE ' (' || last_err || ')' END);
END;
$$;

SELECT simulate('acme',   '/search', '2024-05-01 10:00:00', 8, 5);
SELECT simulate('acme',   '/search', '2024-05-01 10:00:40', 6, 5);
SELECT simulate('acme',   '/orders', '2024-05-01 10:00:00', 3, 1);
SELECT simulate('globex', '/search', '2024-05-01 10:00:00', 25, 2);
SELECT simulate('ops',    '/search', '2024-05-01 10:00:00', 100, 0);
SELECT * FROM rate_window ORDER BY client, endpoint, window_start;

SELECT enforce_limit('acme', '/search', '2024-05-01 10:01:45');
SELECT enforce_limit('globex', '/search', '2024-05-01 10:00:59.5');
SELECT enforce_limit('initech', '/search', '2024-05-01 10:00:00');
SELECT plan_limit('pro'), plan_limit('internal') IS NULL AS unlimited;
SELECT plan_limit('gold');

-- Token bucket: capacity 10, refill 0.5 token per second.
CREATE FUNCTION take_token(p_client text, p_at timestamp, p_cost numeric DEFAULT 1)
RETURNS numeric
LANGUAGE plpgsql
AS $$
DECLARE
    c_capacity CONSTANT numeric := 10;
    c_rate     CONSTANT numeric := 0.5;
    v_tokens   numeric(10,3);
    v_last     timestamp;
    v_elapsed  numeric;
BEGIN
    SELECT tokens, refilled_at INTO v_tokens, v_last
      FROM token_bucket WHERE client = p_client FOR UPDATE;
    IF NOT FOUND THEN
        v_tokens := c_capacity;
        v_last := p_at;
        INSERT INTO token_bucket VALUES (p_client, v_tokens, v_last);
    END IF;
    IF p_at < v_last THEN
        RAISE EXCEPTION 'clock went backwards for %: % < %', p_client, p_at, v_last;
    END IF;
    v_elapsed := extract(epoch FROM p_at - v_last);
    v_tokens := least(c_capacity, v_tokens + v_elapsed * c_rate);
    IF v_tokens < p_cost THEN
        UPDATE token_bucket SET tokens = v_tokens, refilled_at = p_at WHERE client = p_client;
        RAISE NOTICE '% throttled: % token(s) left, needs %', p_client, v_tokens, p_cost;
        RETURN -1;
    END IF;
    v_tokens := v_tokens - p_cost;
    UPDATE token_bucket SET tokens = v_tokens, refilled_at = p_at WHERE client = p_client;
    RETURN v_tokens;
END;
$$;

SELECT take_token('acme', '2024-05-01 12:00:00', 4);
SELECT take_token('acme', '2024-05-01 12:00:01', 4);
SELECT take_token('acme', '2024-05-01 12:00:02', 4);
SELECT take_token('acme', '2024-05-01 12:00:03.25', 2.5);
SELECT take_token('acme', '2024-05-01 12:01:00');
SELECT take_token('acme', '2024-05-01 11:00:00');
SELECT client, tokens, refilled_at FROM token_bucket;
