-- Loan amortization and savings interest schedules computed into tables,
-- as used by a small lending back office: annuity payment formula,
-- month-by-month schedule with rounding and a final balloon correction,
-- early repayment recalculation, and a compound-interest projector.
-- Exercises: numeric arithmetic with rounding, assignment casts into
-- numeric(12,2)/numeric(14,2) variables, CONSTANT, NOT NULL, integer FOR
-- loops (also REVERSE and BY), WHILE, EXIT WHEN, CONTINUE, date arithmetic
-- on fixed dates, INSERT in a loop, SELECT INTO STRICT and multi-target
-- SELECT INTO, custom validation errors, RAISE NOTICE, to_char().

CREATE TABLE loan (
    id          integer PRIMARY KEY,
    principal   numeric(12,2) NOT NULL,
    annual_rate numeric(6,4) NOT NULL,
    months      integer NOT NULL,
    first_due   date NOT NULL
);

CREATE TABLE loan_schedule (
    loan_id    integer,
    n          integer,
    due        date,
    payment    numeric(12,2),
    interest   numeric(12,2),
    principal  numeric(12,2),
    balance    numeric(12,2),
    PRIMARY KEY (loan_id, n)
);

CREATE FUNCTION annuity_payment(p_principal numeric, p_annual_rate numeric, p_months integer)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    r numeric := p_annual_rate / 12;
BEGIN
    IF p_months <= 0 THEN
        RAISE EXCEPTION 'term must be at least one month (got %)', p_months
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF r = 0 THEN
        RETURN round(p_principal / p_months, 2);
    END IF;
    RETURN round(p_principal * r / (1 - (1 + r) ^ (-p_months)), 2);
END;
$$;

CREATE FUNCTION build_schedule(p_loan integer)
RETURNS numeric
LANGUAGE plpgsql
AS $$
DECLARE
    l             record;
    c_monthly     CONSTANT numeric := 12;
    v_payment     numeric(12,2);
    v_interest    numeric(12,2);
    v_principal   numeric(12,2);
    v_balance     numeric(12,2) NOT NULL := 0;
    v_total_int   numeric(12,2) := 0;
BEGIN
    SELECT * INTO STRICT l FROM loan WHERE id = p_loan;
    DELETE FROM loan_schedule WHERE loan_id = p_loan;

    v_payment := annuity_payment(l.principal, l.annual_rate, l.months);
    v_balance := l.principal;
    FOR i IN 1..l.months LOOP
        v_interest  := v_balance * l.annual_rate / c_monthly;
        v_principal := v_payment - v_interest;
        IF i = l.months OR v_principal > v_balance THEN
            -- last instalment absorbs the rounding difference
            v_principal := v_balance;
            v_payment   := v_principal + v_interest;
        END IF;
        v_balance   := v_balance - v_principal;
        v_total_int := v_total_int + v_interest;
        INSERT INTO loan_schedule
        VALUES (p_loan, i, l.first_due + (i - 1) * interval '1 month',
                v_payment, v_interest, v_principal, v_balance);
        EXIT WHEN v_balance = 0;
    END LOOP;
    RAISE NOTICE 'loan %: % payments, total interest %',
        p_loan, (SELECT count(*) FROM loan_schedule WHERE loan_id = p_loan), v_total_int;
    RETURN v_total_int;
END;
$$;

INSERT INTO loan VALUES
    (1, 10000.00, 0.0600, 12, '2024-01-31'),
    (2,  2500.00, 0.0000,  6, '2024-02-15'),
    (3,  1000.00, 0.1999,  3, '2024-03-01'),
    (4,  5000.00, 0.0450,  0, '2024-03-01');

SELECT annuity_payment(10000, 0.06, 12), annuity_payment(2500, 0, 6),
       annuity_payment(200000, 0.035, 360);
SELECT build_schedule(1);
SELECT build_schedule(2);
SELECT build_schedule(3);
SELECT build_schedule(4);
SELECT build_schedule(5);
SELECT loan_id, n, due, payment, interest, principal, balance
  FROM loan_schedule WHERE loan_id IN (1, 3) ORDER BY loan_id, n;
SELECT loan_id, sum(payment) AS paid, sum(principal) AS repaid, min(due), max(due)
  FROM loan_schedule GROUP BY loan_id ORDER BY loan_id;

-- Early repayment: applies an extra amount after instalment p_after and
-- shortens the term, keeping the instalment unchanged.
CREATE FUNCTION early_repayment(p_loan integer, p_after integer, p_extra numeric)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    v_balance   numeric(12,2);
    v_payment   numeric(12,2);
    v_rate      numeric;
    v_interest  numeric(12,2);
    v_due       date;
    n           integer := p_after;
BEGIN
    SELECT s.balance, s.payment, l.annual_rate / 12, s.due
      INTO v_balance, v_payment, v_rate, v_due
      FROM loan_schedule s JOIN loan l ON l.id = s.loan_id
     WHERE s.loan_id = p_loan AND s.n = p_after;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'loan % has no instalment %', p_loan, p_after;
    END IF;
    IF p_extra >= v_balance THEN
        RAISE EXCEPTION 'extra payment % would overpay the balance %', p_extra, v_balance
            USING HINT = 'use a full settlement instead';
    END IF;
    DELETE FROM loan_schedule WHERE loan_id = p_loan AND loan_schedule.n > p_after;
    v_balance := v_balance - p_extra;
    WHILE v_balance > 0 LOOP
        n := n + 1;
        v_due := v_due + interval '1 month';
        v_interest := v_balance * v_rate;
        IF v_payment - v_interest >= v_balance THEN
            v_payment := v_balance + v_interest;
        END IF;
        v_balance := v_balance - (v_payment - v_interest);
        INSERT INTO loan_schedule
        VALUES (p_loan, n, v_due, v_payment, v_interest, v_payment - v_interest, v_balance);
    END LOOP;
    RETURN n;
END;
$$;

SELECT early_repayment(1, 6, 2000);
SELECT n, due, payment, interest, principal, balance
  FROM loan_schedule WHERE loan_id = 1 AND n >= 6 ORDER BY n;
SELECT early_repayment(1, 8, 5000);
SELECT early_repayment(1, 20, 1);

-- Savings projector: monthly deposits with interest credited yearly;
-- deposits pause in one optional year, year-end balances go into a table
-- and every other year is echoed with NOTICEs, latest year first.
CREATE TABLE savings_year (
    year     integer PRIMARY KEY,
    balance  numeric(14,2)
);

CREATE FUNCTION project_savings(p_monthly numeric, p_rate numeric, p_years integer,
                                p_pause_year integer DEFAULT NULL)
RETURNS numeric
LANGUAGE plpgsql
AS $$
DECLARE
    bal     numeric(14,2) := 0;
    y       integer;
    v_end   numeric;
BEGIN
    DELETE FROM savings_year;
    FOR y IN 1..p_years LOOP
        IF y = p_pause_year THEN
            bal := bal * (1 + p_rate);
            INSERT INTO savings_year VALUES (y, bal);
            CONTINUE;
        END IF;
        FOR m IN 1..12 LOOP
            bal := bal + p_monthly;
        END LOOP;
        bal := bal * (1 + p_rate);
        INSERT INTO savings_year VALUES (y, bal);
    END LOOP;
    FOR y IN REVERSE p_years..1 BY 2 LOOP
        SELECT balance INTO v_end FROM savings_year WHERE year = y;
        RAISE NOTICE 'year %: %', y, to_char(v_end, 'FM999,990.00');
    END LOOP;
    RETURN bal;
END;
$$;

SELECT project_savings(100, 0.03, 5);
SELECT project_savings(100, 0.03, 4, p_pause_year => 2);
SELECT * FROM savings_year ORDER BY year;
SELECT project_savings(50.555, 0.015, 1);
SELECT project_savings(100, 0.03, 0);
