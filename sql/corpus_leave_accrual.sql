-- HR vacation-leave accrual: monthly accrual by seniority band, carry-over
-- caps at year end, leave requests that are approved only when the
-- balance covers the working days requested (weekends and public holidays
-- excluded), and a year-end closing run over all employees.
-- Exercises: date arithmetic and extract() on fixed dates, integer FOR
-- over months and days, WHILE over a date range, CONTINUE WHEN for
-- weekends/holidays, PERFORM of an EXISTS query with FOUND, SELECT INTO
-- record with rec.field reads, UPDATE/INSERT RETURNING INTO, numeric(5,2)
-- rounding on assignment, IF/ELSIF bands, RAISE EXCEPTION with USING
-- DETAIL/HINT/ERRCODE, caught errors inside a loop, void functions.

CREATE TABLE employee (
    id        integer PRIMARY KEY,
    name      text NOT NULL,
    hired_on  date NOT NULL,
    part_time numeric(3,2) NOT NULL DEFAULT 1.00
);

CREATE TABLE leave_balance (
    employee_id integer REFERENCES employee,
    year        integer,
    accrued     numeric(5,2) NOT NULL DEFAULT 0,
    taken       numeric(5,2) NOT NULL DEFAULT 0,
    carried_in  numeric(5,2) NOT NULL DEFAULT 0,
    PRIMARY KEY (employee_id, year)
);

CREATE TABLE public_holiday (day date PRIMARY KEY, name text);

CREATE TABLE leave_request (
    id          serial PRIMARY KEY,
    employee_id integer,
    first_day   date,
    last_day    date,
    days        numeric(5,2),
    status      text
);

INSERT INTO employee VALUES
    (1, 'Ines',   '2015-03-01', 1.00),
    (2, 'Tomas',  '2022-09-15', 1.00),
    (3, 'Priya',  '2024-02-10', 0.50),
    (4, 'Walter', '1999-01-04', 0.80);

INSERT INTO public_holiday VALUES
    ('2024-01-01', 'New Year'), ('2024-05-01', 'Labour Day'),
    ('2024-12-25', 'Christmas'), ('2024-12-26', 'Boxing Day');

CREATE FUNCTION monthly_rate(p_hired date, p_on date)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    years integer := extract(year FROM age(p_on, p_hired));
BEGIN
    IF years >= 20 THEN
        RETURN 2.50;
    ELSIF years >= 5 THEN
        RETURN 2.08;
    ELSIF years >= 1 THEN
        RETURN 1.75;
    END IF;
    RETURN 1.50;
END;
$$;

-- Accrues one calendar year for one employee, month by month.
CREATE FUNCTION accrue_year(p_emp integer, p_year integer)
RETURNS numeric
LANGUAGE plpgsql
AS $$
DECLARE
    e        record;
    v_total  numeric(5,2) := 0;
    v_month  date;
BEGIN
    SELECT * INTO e FROM employee WHERE id = p_emp;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'employee % does not exist', p_emp USING ERRCODE = 'HR404';
    END IF;
    FOR m IN 1..12 LOOP
        v_month := make_date(p_year, m, 1);
        -- no accrual for months that end before the hire date
        CONTINUE WHEN (v_month + interval '1 month - 1 day')::date < e.hired_on;
        v_total := v_total + monthly_rate(e.hired_on, v_month) * e.part_time;
    END LOOP;
    INSERT INTO leave_balance(employee_id, year, accrued)
    VALUES (p_emp, p_year, v_total)
    ON CONFLICT (employee_id, year) DO UPDATE SET accrued = EXCLUDED.accrued;
    RETURN v_total;
END;
$$;

CREATE FUNCTION working_days(p_from date, p_to date)
RETURNS integer
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    d     date := p_from;
    n     integer := 0;
BEGIN
    IF p_to < p_from THEN
        RAISE EXCEPTION 'leave ends (%) before it starts (%)', p_to, p_from
            USING ERRCODE = 'HR400';
    END IF;
    WHILE d <= p_to LOOP
        d := d + 1;
        CONTINUE WHEN extract(isodow FROM d - 1) IN (6, 7);
        PERFORM 1 FROM public_holiday WHERE day = d - 1;
        CONTINUE WHEN FOUND;
        n := n + 1;
    END LOOP;
    RETURN n;
END;
$$;

CREATE FUNCTION request_leave(p_emp integer, p_from date, p_to date)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    b        record;
    v_days   numeric(5,2);
    v_left   numeric(5,2);
    v_id     integer;
BEGIN
    IF extract(year FROM p_from) <> extract(year FROM p_to) THEN
        RAISE EXCEPTION 'leave may not span two years'
            USING ERRCODE = 'HR400', HINT = 'split the request at 31 December';
    END IF;
    v_days := working_days(p_from, p_to);
    IF v_days = 0 THEN
        RAISE NOTICE 'request % .. % contains no working days, nothing booked', p_from, p_to;
        RETURN NULL;
    END IF;
    SELECT accrued + carried_in - taken AS available, taken INTO b
      FROM leave_balance
     WHERE employee_id = p_emp AND year = extract(year FROM p_from)
       FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no leave balance for employee % in %', p_emp, extract(year FROM p_from)
            USING ERRCODE = 'HR404';
    END IF;
    IF b.available < v_days THEN
        INSERT INTO leave_request(employee_id, first_day, last_day, days, status)
        VALUES (p_emp, p_from, p_to, v_days, 'rejected')
        RETURNING id INTO v_id;
        RAISE EXCEPTION 'insufficient leave: % day(s) requested, % available', v_days, b.available
            USING ERRCODE = 'HR409',
                  DETAIL = format('request #%s recorded as rejected', v_id);
    END IF;
    UPDATE leave_balance SET taken = taken + v_days
     WHERE employee_id = p_emp AND year = extract(year FROM p_from)
    RETURNING accrued + carried_in - taken INTO v_left;
    INSERT INTO leave_request(employee_id, first_day, last_day, days, status)
    VALUES (p_emp, p_from, p_to, v_days, 'approved')
    RETURNING id INTO v_id;
    RAISE NOTICE 'request #% approved: % day(s), % left', v_id, v_days, v_left;
    RETURN v_id;
END;
$$;

-- Year-end: carry unused days (capped) into next year for everybody.
CREATE FUNCTION close_year(p_year integer, p_cap numeric DEFAULT 5)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    r       record;
    v_carry numeric(5,2);
BEGIN
    FOR r IN SELECT e.id, e.name, lb.accrued + lb.carried_in - lb.taken AS unused
               FROM employee e LEFT JOIN leave_balance lb
                 ON lb.employee_id = e.id AND lb.year = p_year
              ORDER BY e.id
    LOOP
        IF r.unused IS NULL THEN
            RAISE WARNING 'employee % (%) has no % balance, skipped', r.id, r.name, p_year;
            CONTINUE;
        END IF;
        v_carry := least(greatest(r.unused, 0), p_cap);
        PERFORM accrue_year(r.id, p_year + 1);
        UPDATE leave_balance SET carried_in = v_carry
         WHERE employee_id = r.id AND year = p_year + 1;
        RAISE NOTICE '% carries % of % unused day(s) into %', r.name, v_carry, r.unused, p_year + 1;
    END LOOP;
END;
$$;

SELECT monthly_rate('2015-03-01', '2024-01-01'), monthly_rate('2023-06-01', '2024-01-01'),
       monthly_rate('2004-01-01', '2024-01-01');
SELECT id, name, accrue_year(id, 2024) FROM employee WHERE id <> 4 ORDER BY id;
SELECT accrue_year(7, 2024);
SELECT working_days('2024-04-29', '2024-05-03'), working_days('2024-12-21', '2024-12-29');
SELECT working_days('2024-05-03', '2024-04-29');

SELECT request_leave(1, '2024-04-29', '2024-05-03');
SELECT request_leave(2, '2024-07-01', '2024-07-19');
SELECT request_leave(3, '2024-08-01', '2024-08-30');
SELECT request_leave(1, '2024-12-28', '2024-12-29');
SELECT request_leave(1, '2024-12-30', '2025-01-03');
SELECT request_leave(4, '2024-03-04', '2024-03-05');

-- Batch booking from an HR spreadsheet; failures are logged, not fatal.
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT * FROM (VALUES (1, '2024-08-05'::date, '2024-08-16'::date),
                                   (2, '2024-10-07', '2024-10-11'),
                                   (3, '2024-12-23', '2024-12-31'),
                                   (1, '2024-11-11', '2024-11-10')) v(emp, f, t)
    LOOP
        BEGIN
            PERFORM request_leave(r.emp, r.f, r.t);
        EXCEPTION WHEN SQLSTATE 'HR409' OR SQLSTATE 'HR400' THEN
            RAISE NOTICE 'employee %: %', r.emp, SQLERRM;
        END;
    END LOOP;
END;
$$;

SELECT close_year(2024);
SELECT * FROM leave_balance ORDER BY employee_id, year;
SELECT employee_id, first_day, last_day, days, status FROM leave_request ORDER BY id;
