-- Plain-text report builder used for nightly e-mails: a monthly sales
-- report assembled line by line with format() (padding, alignment,
-- literal/identifier quoting), section headers, subtotals, a text bar
-- chart and a footer, returned as one text value and also echoed with
-- RAISE NOTICE.
-- Exercises: accumulating text in a variable with E'\n', format() with
-- %s/%I/%L, width and left-justify flags, positional arguments (%1$s),
-- rpad/lpad/repeat/to_char, nested FOR rec IN query loops, running
-- totals, IF inside loops, CONTINUE WHEN and plain CONTINUE, RAISE
-- NOTICE of a multi-line message, numeric-to-integer assignment rounding,
-- defaults called by name, format() errors (NULL identifier, too few
-- arguments) escaping from RETURN.

CREATE TABLE region (
    code  text PRIMARY KEY,
    name  text NOT NULL
);

CREATE TABLE monthly_sales (
    region  text REFERENCES region,
    rep     text,
    month   date,
    amount  numeric(12,2),
    PRIMARY KEY (region, rep, month)
);

INSERT INTO region VALUES ('N', 'North'), ('S', 'South'), ('W', 'West'), ('E', 'East');
INSERT INTO monthly_sales VALUES
    ('N', 'Ann',   '2024-01-01', 12000.50), ('N', 'Ann',   '2024-02-01', 9000.00),
    ('N', 'Bill',  '2024-01-01',  3000.00), ('N', 'Bill',  '2024-02-01', 4500.25),
    ('S', 'Cleo',  '2024-01-01', 20000.00), ('S', 'Cleo',  '2024-02-01',    0.00),
    ('S', 'O''Hara', '2024-02-01', 7777.77),
    ('W', 'Dan',   '2024-01-01',   150.00);

CREATE FUNCTION bar(p_value numeric, p_max numeric, p_width integer DEFAULT 20)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    n integer;
BEGIN
    IF p_max IS NULL OR p_max = 0 THEN
        RETURN '';
    END IF;
    n := p_value / p_max * p_width;       -- rounds to nearest
    RETURN rpad(repeat('#', n), p_width, '.');
END;
$$;

CREATE FUNCTION sales_report(p_month date, p_title text DEFAULT 'Sales report',
                             p_show_empty boolean DEFAULT false)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    c_width   CONSTANT integer := 48;
    rpt       text;
    reg       record;
    line      record;
    reg_total numeric(12,2);
    grand     numeric(12,2) := 0;
    top       numeric;
    n_regions integer := 0;
BEGIN
    rpt := repeat('=', c_width) || E'\n'
        || format('%s for %s', p_title, to_char(p_month, 'FMMonth YYYY')) || E'\n'
        || repeat('=', c_width);

    SELECT max(amount) INTO top FROM monthly_sales WHERE month = p_month;

    FOR reg IN SELECT r.code, r.name,
                      (SELECT count(*) FROM monthly_sales s
                        WHERE s.region = r.code AND s.month = p_month) AS reps
                 FROM region r ORDER BY r.name
    LOOP
        CONTINUE WHEN reg.reps = 0 AND NOT p_show_empty;
        n_regions := n_regions + 1;
        rpt := rpt || E'\n' || format('[%s] %s', reg.code, upper(reg.name));
        reg_total := 0;
        IF reg.reps = 0 THEN
            rpt := rpt || E'\n  (no sales)';
            CONTINUE;
        END IF;
        FOR line IN SELECT rep, amount FROM monthly_sales
                     WHERE region = reg.code AND month = p_month
                     ORDER BY amount DESC, rep
        LOOP
            rpt := rpt || E'\n' || format('  %-10s %12s %s', line.rep,
                                          to_char(line.amount, 'FM999,999,990.00'),
                                          bar(line.amount, top));
            reg_total := reg_total + line.amount;
        END LOOP;
        rpt := rpt || E'\n' || format('  %-10s %12s', 'subtotal', to_char(reg_total, 'FM999,999,990.00'));
        grand := grand + reg_total;
    END LOOP;

    rpt := rpt || E'\n' || repeat('-', c_width) || E'\n'
        || format('%1$s region(s), total %2$s, average %3$s per region',
                  n_regions, to_char(grand, 'FM999,999,990.00'),
                  CASE WHEN n_regions = 0 THEN 'n/a'
                       ELSE to_char(grand / n_regions, 'FM999,999,990.00') END);
    RETURN rpt;
END;
$$;

SELECT sales_report('2024-01-01');
SELECT sales_report('2024-02-01', p_show_empty => true, p_title => 'Monthly figures');
SELECT sales_report('2023-12-01');

-- Same report sent to the log as a NOTICE.
DO $$
DECLARE
    body text := sales_report('2024-02-01', 'February');
BEGIN
    RAISE NOTICE E'report follows\n%', body;
    RAISE NOTICE 'lines: %, longest: %',
        array_length(string_to_array(body, E'\n'), 1),
        (SELECT max(length(x)) FROM unnest(string_to_array(body, E'\n')) x);
END;
$$;

-- SQL generation for the export job: identifiers and literals quoted by
-- format(), never by hand.
CREATE FUNCTION export_statement(p_table text, p_rep text, p_month date)
RETURNS text
LANGUAGE plpgsql
AS $$
BEGIN
    RETURN format('COPY (SELECT * FROM %I WHERE rep = %L AND month = %L) TO STDOUT',
                  p_table, p_rep, p_month);
END;
$$;

SELECT export_statement('monthly_sales', 'O''Hara', '2024-02-01');
SELECT export_statement('Monthly Sales', NULL, NULL);
SELECT export_statement(NULL, 'x', '2024-01-01');

-- A mistake in a report template: format() complains at run time.
CREATE FUNCTION broken_header(p_month date)
RETURNS text
LANGUAGE plpgsql
AS $$
BEGIN
    RETURN format('%s: %s .. %s', 'Period', p_month);
END;
$$;
SELECT broken_header('2024-01-01');
