-- Statement export and paging utilities for a billing system (LATER
-- FEATURES): a bound cursor with parameters walks transactions to build
-- running balances, a refcursor is handed back to the client for paging,
-- an unbound cursor is opened on a dynamic query, rows are fixed up with
-- UPDATE ... WHERE CURRENT OF, and set-returning functions expose
-- statements with RETURN NEXT / RETURN QUERY and OUT parameters.
-- Later features used: DECLARE cursor FOR query (with arguments), OPEN /
-- FETCH / MOVE / CLOSE, FETCH directions (NEXT, PRIOR, ABSOLUTE,
-- RELATIVE, LAST), FOR rec IN bound cursor, refcursor return values,
-- OPEN ... FOR EXECUTE ... USING, WHERE CURRENT OF, RETURNS SETOF /
-- RETURNS TABLE, RETURN NEXT, RETURN QUERY, OUT parameters.
-- Slice features also used: FOUND after FETCH, LOOP/EXIT WHEN NOT FOUND,
-- RAISE NOTICE, numeric running totals, exceptions on misuse of cursors.

CREATE TABLE txn (
    id        integer PRIMARY KEY,
    account   text NOT NULL,
    booked    date NOT NULL,
    amount    numeric(10,2) NOT NULL,
    memo      text
);

INSERT INTO txn VALUES
    (1, 'A', '2024-01-02',  1000.00, 'opening'),
    (2, 'A', '2024-01-05',  -250.00, 'rent'),
    (3, 'B', '2024-01-05',   500.00, 'opening'),
    (4, 'A', '2024-01-09',   -75.50, NULL),
    (5, 'A', '2024-01-15',   320.00, 'salary'),
    (6, 'B', '2024-01-20',  -600.00, 'car'),
    (7, 'A', '2024-01-31',    -4.50, NULL),
    (8, 'B', '2024-02-01',    20.00, 'refund');

-- Running balance with a bound, parameterised cursor.
CREATE FUNCTION statement_lines(p_account text, p_from date, p_to date,
                                OUT booked date, OUT amount numeric, OUT balance numeric,
                                OUT memo text)
RETURNS SETOF record
LANGUAGE plpgsql
AS $$
DECLARE
    cur CURSOR (acc text, d1 date, d2 date) FOR
        SELECT t.booked, t.amount, t.memo FROM txn t
         WHERE t.account = acc AND t.booked BETWEEN d1 AND d2
         ORDER BY t.booked, t.id;
    running numeric := 0;
BEGIN
    SELECT coalesce(sum(t.amount), 0) INTO running
      FROM txn t WHERE t.account = p_account AND t.booked < p_from;
    FOR r IN cur(p_account, p_from, p_to) LOOP
        running := running + r.amount;
        booked := r.booked;
        amount := r.amount;
        balance := running;
        memo := coalesce(r.memo, '(no memo)');
        RETURN NEXT;
    END LOOP;
END;
$$;

SELECT * FROM statement_lines('A', '2024-01-01', '2024-01-31');
SELECT * FROM statement_lines('B', '2024-01-10', '2024-12-31');

-- Hand a cursor to the client for paging.
CREATE FUNCTION open_txn_page(p_cursor refcursor, p_account text)
RETURNS refcursor
LANGUAGE plpgsql
AS $$
BEGIN
    OPEN p_cursor SCROLL FOR
        SELECT id, booked, amount FROM txn WHERE account = p_account ORDER BY id;
    RETURN p_cursor;
END;
$$;

BEGIN;
SELECT open_txn_page('page_a', 'A');
FETCH 2 FROM page_a;
FETCH 2 FROM page_a;
FETCH PRIOR FROM page_a;
FETCH LAST FROM page_a;
CLOSE page_a;
COMMIT;

-- Cursor navigation inside PL code.
CREATE FUNCTION cursor_tour(p_account text)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    c       refcursor;
    r       record;
    visited text := '';
BEGIN
    OPEN c SCROLL FOR EXECUTE
        'SELECT id, amount FROM txn WHERE account = $1 ORDER BY id' USING p_account;
    FETCH LAST FROM c INTO r;
    visited := visited || 'last=' || r.id;
    FETCH ABSOLUTE 2 FROM c INTO r;
    visited := visited || ' abs2=' || r.id;
    MOVE FORWARD 2 IN c;
    FETCH RELATIVE 0 FROM c INTO r;
    visited := visited || ' after move=' || coalesce(r.id::text, '-');
    FETCH NEXT FROM c INTO r;
    visited := visited || ' next=' || CASE WHEN FOUND THEN r.id::text ELSE 'none' END;
    FETCH NEXT FROM c INTO r;
    visited := visited || ' next=' || CASE WHEN FOUND THEN r.id::text ELSE 'none' END;
    CLOSE c;
    RETURN visited;
END;
$$;

SELECT cursor_tour('A');
SELECT cursor_tour('B');

-- Fill in missing memos in place with WHERE CURRENT OF.
CREATE FUNCTION fill_memos(p_default text)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    cur CURSOR FOR SELECT id, amount, memo FROM txn ORDER BY id FOR UPDATE;
    r   record;
    n   integer := 0;
BEGIN
    OPEN cur;
    LOOP
        FETCH cur INTO r;
        EXIT WHEN NOT FOUND;
        CONTINUE WHEN r.memo IS NOT NULL;
        UPDATE txn SET memo = format('%s (%s)', p_default,
                                     CASE WHEN r.amount < 0 THEN 'debit' ELSE 'credit' END)
         WHERE CURRENT OF cur;
        n := n + 1;
    END LOOP;
    CLOSE cur;
    RETURN n;
END;
$$;

SELECT fill_memos('card payment');
SELECT id, memo FROM txn ORDER BY id;

-- Per-account summaries with RETURN QUERY.
CREATE FUNCTION account_summary(p_min_txns integer DEFAULT 0)
RETURNS TABLE (account text, txns bigint, balance numeric, last_booked date)
LANGUAGE plpgsql
AS $$
BEGIN
    RETURN QUERY
        SELECT t.account, count(*), sum(t.amount), max(t.booked)
          FROM txn t GROUP BY t.account
        HAVING count(*) >= p_min_txns
         ORDER BY t.account;
    IF NOT FOUND THEN
        RAISE NOTICE 'no account has at least % transactions', p_min_txns;
    END IF;
END;
$$;

SELECT * FROM account_summary();
SELECT * FROM account_summary(4);
SELECT * FROM account_summary(10);

-- Cursor misuse errors.
DO $$
DECLARE
    c CURSOR FOR SELECT id FROM txn;
BEGIN
    OPEN c;
    OPEN c;
EXCEPTION WHEN duplicate_cursor THEN
    RAISE NOTICE 'caught: %', SQLERRM;
END;
$$;
DO $$
DECLARE
    c refcursor := 'never_opened';
    r record;
BEGIN
    FETCH c INTO r;
END;
$$;
