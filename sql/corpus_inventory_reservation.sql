-- Inventory reservation for an order-fulfilment service: reserve stock for
-- order lines across warehouses (preferred warehouse first), release
-- reservations, and an all-or-nothing "reserve whole order" wrapper that
-- undoes partial reservations when any line cannot be satisfied.
-- Exercises: SELECT INTO STRICT with no_data_found (record and scalar),
-- record variables, FOR rec IN query with ORDER BY, LEAST(), loop with
-- EXIT WHEN, UPDATE ... RETURNING INTO, FOUND, RAISE EXCEPTION with
-- USING ERRCODE/DETAIL/HINT, re-raising with bare RAISE, exception
-- blocks rolling back earlier statements of the same block, NOT NULL
-- variables, ALIAS, FOR rec IN DELETE ... RETURNING, PERFORM in a DO block.

CREATE TABLE warehouse (
    code   text PRIMARY KEY,
    city   text NOT NULL
);

CREATE TABLE stock (
    warehouse  text REFERENCES warehouse,
    sku        text,
    on_hand    integer NOT NULL CHECK (on_hand >= 0),
    reserved   integer NOT NULL DEFAULT 0 CHECK (reserved >= 0),
    PRIMARY KEY (warehouse, sku),
    CHECK (reserved <= on_hand)
);

CREATE TABLE order_line (
    order_no  integer,
    line_no   integer,
    sku       text NOT NULL,
    qty       integer NOT NULL,
    PRIMARY KEY (order_no, line_no)
);

CREATE TABLE reservation (
    order_no  integer,
    line_no   integer,
    warehouse text,
    qty       integer NOT NULL
);

INSERT INTO warehouse VALUES ('AMS', 'Amsterdam'), ('BER', 'Berlin'), ('PAR', 'Paris');
INSERT INTO stock(warehouse, sku, on_hand) VALUES
    ('AMS', 'bolt',  100), ('BER', 'bolt',  50),
    ('AMS', 'nut',    10), ('PAR', 'nut',   10), ('BER', 'nut', 5),
    ('PAR', 'gear',    3),
    ('BER', 'spring',  0);

INSERT INTO order_line VALUES
    (1001, 1, 'bolt', 120), (1001, 2, 'nut', 12),
    (1002, 1, 'gear', 2),   (1002, 2, 'spring', 1),
    (1003, 1, 'nut', 13),   (1003, 2, 'gear', 1),
    (1004, 1, 'sprocket', 1);

CREATE FUNCTION available(p_sku text, p_warehouse text)
RETURNS integer
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_free integer;
BEGIN
    SELECT on_hand - reserved INTO STRICT v_free
      FROM stock WHERE sku = p_sku AND warehouse = p_warehouse;
    RETURN v_free;
EXCEPTION
    WHEN no_data_found THEN
        RETURN 0;
END;
$$;

-- Reserve one line; returns the warehouses used as text.
CREATE FUNCTION reserve_line(p_order integer, p_line integer,
                             p_preferred text DEFAULT 'AMS')
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    ln          record;
    s           record;
    remaining   integer NOT NULL := 0;
    take        integer;
    used        text := '';
    pref        ALIAS FOR p_preferred;
BEGIN
    SELECT * INTO STRICT ln FROM order_line
     WHERE order_no = p_order AND line_no = p_line;
    remaining := ln.qty;

    FOR s IN SELECT warehouse, on_hand - reserved AS free
               FROM stock
              WHERE sku = ln.sku AND on_hand > reserved
              ORDER BY warehouse = pref DESC, on_hand - reserved DESC, warehouse
    LOOP
        take := least(s.free, remaining);
        UPDATE stock SET reserved = reserved + take
         WHERE warehouse = s.warehouse AND sku = ln.sku;
        INSERT INTO reservation VALUES (p_order, p_line, s.warehouse, take);
        used := used || format('%s:%s ', s.warehouse, take);
        remaining := remaining - take;
        EXIT WHEN remaining = 0;
    END LOOP;

    IF remaining > 0 THEN
        RAISE EXCEPTION 'cannot reserve % x % for order %/%', ln.qty, ln.sku, p_order, p_line
            USING ERRCODE = 'IN001',
                  DETAIL = format('short by %s unit(s)', remaining),
                  HINT = CASE WHEN remaining = ln.qty THEN 'item is out of stock everywhere'
                              ELSE 'consider a partial shipment' END;
    END IF;
    RETURN rtrim(used);
EXCEPTION
    WHEN no_data_found THEN
        RAISE EXCEPTION 'order line %/% not found', p_order, p_line
            USING ERRCODE = 'IN002';
END;
$$;

CREATE FUNCTION reserve_order(p_order integer)
RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
    l       record;
    v_used  text;
    n_lines integer := 0;
BEGIN
    BEGIN
        FOR l IN SELECT line_no FROM order_line WHERE order_no = p_order ORDER BY line_no LOOP
            v_used := reserve_line(p_order, l.line_no);
            n_lines := n_lines + 1;
            RAISE NOTICE 'order % line % reserved from %', p_order, l.line_no, v_used;
        END LOOP;
    EXCEPTION
        WHEN SQLSTATE 'IN001' THEN
            RAISE NOTICE 'order % not reservable: % (% line(s) undone)',
                p_order, SQLERRM, n_lines;
            RETURN false;
    END;
    IF n_lines = 0 THEN
        RAISE EXCEPTION 'order % has no lines', p_order USING ERRCODE = 'IN002';
    END IF;
    RETURN true;
END;
$$;

CREATE FUNCTION release_order(p_order integer)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    r       record;
    n       integer := 0;
BEGIN
    FOR r IN DELETE FROM reservation WHERE order_no = p_order
             RETURNING warehouse, line_no, qty
    LOOP
        UPDATE stock s SET reserved = s.reserved - r.qty
          FROM order_line ol
         WHERE ol.order_no = p_order AND ol.line_no = r.line_no
           AND s.sku = ol.sku AND s.warehouse = r.warehouse;
        n := n + r.qty;
    END LOOP;
    IF n = 0 THEN
        RAISE WARNING 'order % had nothing reserved', p_order;
    END IF;
    RETURN n;
END;
$$;

SELECT sku, available(sku, 'AMS') AS ams, available(sku, 'PAR') AS par
  FROM (VALUES ('bolt'), ('nut'), ('gear'), ('sprocket')) v(sku);

SELECT reserve_line(1001, 1);
SELECT reserve_line(1001, 2, 'PAR');
SELECT reserve_line(1001, 9);
SELECT reserve_line(1002, 2);
SELECT * FROM reservation ORDER BY order_no, line_no, warehouse;

SELECT reserve_order(1002);
SELECT reserve_order(1003);
SELECT reserve_order(1004);
SELECT reserve_order(1005);
SELECT warehouse, sku, on_hand, reserved FROM stock ORDER BY sku, warehouse;
SELECT * FROM reservation ORDER BY order_no, line_no, warehouse;

SELECT release_order(1001);
SELECT release_order(1001);
SELECT reserve_order(1003);
SELECT warehouse, sku, on_hand, reserved FROM stock ORDER BY sku, warehouse;

-- A caller that converts the custom error into a rejection message but
-- lets anything unexpected propagate with bare RAISE.
DO $$
DECLARE
    ord integer;
BEGIN
    FOR ord IN 1001..1004 LOOP
        BEGIN
            PERFORM reserve_line(ord, 2);
            RAISE NOTICE 'line %/2 ok', ord;
        EXCEPTION WHEN OTHERS THEN
            IF SQLSTATE = 'IN001' THEN
                RAISE NOTICE 'line %/2 rejected: %', ord, SQLERRM;
            ELSE
                RAISE;
            END IF;
        END;
    END LOOP;
END;
$$;
