-- Money transfer between bank accounts: balance and limit checks, frozen
-- accounts, custom SQLSTATEs raised with RAISE ... USING ERRCODE, and a
-- batch runner that applies a list of transfers and records failures.
-- Exercises: parameters by name and by $n, ALIAS FOR, SELECT INTO with
-- FOR UPDATE, SELECT INTO STRICT (no_data_found), record variables and
-- rec.field reads, UPDATE ... RETURNING INTO, custom ERRCODE values and
-- catching them by SQLSTATE, RAISE ... USING MESSAGE/DETAIL/HINT,
-- exception blocks rolling back partial work, FOR rec IN query, numeric
-- assignment casts.

CREATE TABLE account (
    id         integer PRIMARY KEY,
    owner      text NOT NULL,
    balance    numeric(12,2) NOT NULL,
    overdraft  numeric(12,2) NOT NULL DEFAULT 0,
    frozen     boolean NOT NULL DEFAULT false
);

CREATE TABLE ledger (
    seq        serial PRIMARY KEY,
    account_id integer NOT NULL REFERENCES account,
    amount     numeric(12,2) NOT NULL,
    memo       text
);

CREATE TABLE transfer_request (
    id       integer PRIMARY KEY,
    src      integer,
    dst      integer,
    amount   text,
    status   text DEFAULT 'pending'
);

INSERT INTO account VALUES
    (1, 'alice', 500.00, 0,      false),
    (2, 'bob',   120.50, 100.00, false),
    (3, 'carol',   0.00, 0,      true),
    (4, 'dave',   75.25, 0,      false);

CREATE FUNCTION transfer(p_from integer, p_to integer, p_amount numeric,
                         p_memo text DEFAULT NULL)
RETURNS numeric
LANGUAGE plpgsql
AS $$
DECLARE
    src        record;
    dst_owner  text;
    new_bal    numeric(12,2);
    amt        ALIAS FOR $3;
BEGIN
    IF amt IS NULL OR amt <= 0 THEN
        RAISE EXCEPTION 'transfer amount must be positive, got %', coalesce(amt::text, 'NULL')
            USING ERRCODE = 'BK001';
    END IF;
    IF $1 = $2 THEN
        RAISE EXCEPTION USING
            MESSAGE = format('cannot transfer from account %s to itself', p_from),
            ERRCODE = 'BK002';
    END IF;

    SELECT id, owner, balance, overdraft, frozen INTO src
      FROM account WHERE id = p_from FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'source account % does not exist', p_from
            USING ERRCODE = 'BK003';
    END IF;

    BEGIN
        SELECT owner INTO STRICT dst_owner FROM account WHERE id = p_to;
    EXCEPTION WHEN no_data_found THEN
        RAISE EXCEPTION 'destination account % does not exist', p_to
            USING ERRCODE = 'BK003', HINT = 'check the account number';
    END;

    IF src.frozen THEN
        RAISE EXCEPTION 'account % (%) is frozen', src.id, src.owner
            USING ERRCODE = 'BK004';
    END IF;
    IF src.balance + src.overdraft < amt THEN
        RAISE EXCEPTION 'insufficient funds in account %', src.id
            USING ERRCODE = 'BK005',
                  DETAIL = format('balance %s, overdraft %s, requested %s',
                                  src.balance, src.overdraft, amt),
                  HINT = 'reduce the amount or raise the overdraft limit';
    END IF;

    UPDATE account SET balance = balance - amt WHERE id = p_from
    RETURNING balance INTO new_bal;
    UPDATE account SET balance = balance + amt WHERE id = p_to;
    INSERT INTO ledger(account_id, amount, memo)
    VALUES (p_from, -amt, coalesce(p_memo, 'transfer to ' || dst_owner)),
           (p_to,    amt, coalesce(p_memo, 'transfer from ' || src.owner));

    IF new_bal < 0 THEN
        RAISE WARNING 'account % is overdrawn: %', p_from, new_bal;
    END IF;
    RETURN new_bal;
END;
$$;

SELECT transfer(1, 2, 100);
SELECT transfer(2, 4, 200.499, 'rent share');
SELECT transfer(4, 1, 0);
SELECT transfer(4, 4, 5);
SELECT transfer(9, 1, 5);
SELECT transfer(1, 9, 5);
SELECT transfer(3, 1, 5);
SELECT transfer(2, 1, 50);
SELECT transfer(p_to => 3, p_from => 1, p_amount => 12.345);
SELECT * FROM account ORDER BY id;
SELECT account_id, amount, memo FROM ledger ORDER BY seq;

-- Batch runner: each request is applied in its own sub-transaction so one
-- failure does not undo the others.  Errors are classified by SQLSTATE.
CREATE FUNCTION run_transfer_batch()
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    r        record;
    ok       integer := 0;
    failed   integer := 0;
    v_amount numeric;
    v_status text;
BEGIN
    FOR r IN SELECT * FROM transfer_request WHERE status = 'pending' ORDER BY id LOOP
        BEGIN
            v_amount := r.amount;      -- text to numeric, may fail
            PERFORM transfer(r.src, r.dst, v_amount, format('batch #%s', r.id));
            v_status := 'done';
            ok := ok + 1;
        EXCEPTION
            WHEN SQLSTATE 'BK005' THEN
                v_status := 'rejected: funds';
                failed := failed + 1;
            WHEN SQLSTATE 'BK003' OR SQLSTATE 'BK004' THEN
                v_status := 'rejected: ' || SQLERRM;
                failed := failed + 1;
            WHEN invalid_text_representation THEN
                v_status := 'bad amount';
                failed := failed + 1;
            WHEN OTHERS THEN
                v_status := format('error %s: %s', SQLSTATE, SQLERRM);
                failed := failed + 1;
        END;
        UPDATE transfer_request SET status = v_status WHERE id = r.id;
        RAISE NOTICE 'request %: %', r.id, v_status;
    END LOOP;
    RETURN format('%s ok, %s failed', ok, failed);
END;
$$;

INSERT INTO transfer_request(id, src, dst, amount) VALUES
    (1, 1, 4, '25.00'),
    (2, 4, 2, 'ten'),
    (3, 2, 1, '1000'),
    (4, 3, 2, '1'),
    (5, 4, 7, '1'),
    (6, 1, 1, '3'),
    (7, 4, 1, '-2'),
    (8, 1, 2, '99.999');

SELECT run_transfer_batch();
SELECT id, src, dst, amount, status FROM transfer_request ORDER BY id;
SELECT * FROM account ORDER BY id;
SELECT sum(balance) AS total_money FROM account;
SELECT account_id, amount, memo FROM ledger WHERE memo LIKE 'batch%' ORDER BY seq;

-- Uncaught custom error: the SQLSTATE reaches the client unchanged.
SELECT transfer(4, 2, 1000000);
\set VERBOSITY sqlstate
SELECT transfer(4, 2, 1000000);
SELECT transfer(4, 4, 1);
\set VERBOSITY default
