-- insert_orders: the orders table of issue 30 and the loop that loads it,
-- half of its rows duplicates of an earlier external reference.  The
-- table has what application tables have: an identity primary key, a
-- second unique index on text, a foreign key to a customer table, a CHECK
-- on a numeric column, a default of now() and an index on the foreign key
-- column.  Each INSERT is the last statement of a block whose handler
-- catches only unique_violation, the shape the write path runs without a
-- subtransaction (issue 30: at least 2x PL/pgSQL with half duplicates).
-- Cases:
--   insert_orders_half      keys ref-0, ref-0, ref-1, ref-1, ...: every
--                           other INSERT is a duplicate of ext_ref
--   insert_orders_new       every row new (each one checks its customer)
--
-- @desc    issue 30: 100k INSERTs into an orders table with identity key, text unique, foreign key; half duplicates
-- @group   write
-- @order   62
-- @param   N 100000
-- @case    insert_orders_half | >=2.0 | lazy_off,n=@N@ | SELECT insert_orders_half_@LANG@(@N@)
-- @case    insert_orders_new  | info  | n=@N@          | SELECT insert_orders_new_@LANG@(@N@)
-- @derived insert_orders_half µs/iter, plpgsql | 1000 * insert_orders_half.plpgsql / @N@ | info
-- @derived insert_orders_half µs/iter, plnimble | 1000 * insert_orders_half.plnimble / @N@ | info

-- @@setup
CREATE TABLE bo_customer (id int PRIMARY KEY, name text NOT NULL);
INSERT INTO bo_customer SELECT g, 'customer ' || g FROM generate_series(1, 1000) g;
CREATE TABLE bo_orders (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ext_ref text NOT NULL UNIQUE,
    customer_id int REFERENCES bo_customer (id),
    amount numeric(12,2) CHECK (amount >= 0),
    created timestamptz DEFAULT now()) WITH (autovacuum_enabled = off);
CREATE INDEX bo_orders_customer ON bo_orders (customer_id);
VACUUM ANALYZE bo_customer;

-- @@reset
TRUNCATE bo_orders;

-- @@functions
CREATE FUNCTION insert_orders_half_@LANG@(n int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  dup int := 0;
  ref text;
  cust int;
  amt numeric;
BEGIN
  FOR i IN 1..n LOOP
    ref := 'ref-' || (i / 2);
    cust := 1 + i % 1000;
    amt := i * 0.5;
    BEGIN
      INSERT INTO bo_orders (ext_ref, customer_id, amount) VALUES (ref, cust, amt);
    EXCEPTION WHEN unique_violation THEN
      dup := dup + 1;
    END;
  END LOOP;
  RETURN (n - dup) || ' inserted, ' || dup || ' duplicates';
END
$$;

CREATE FUNCTION insert_orders_new_@LANG@(n int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  dup int := 0;
  ref text;
  cust int;
  amt numeric;
BEGIN
  FOR i IN 1..n LOOP
    ref := 'ref-' || i;
    cust := 1 + i % 1000;
    amt := i * 0.5;
    BEGIN
      INSERT INTO bo_orders (ext_ref, customer_id, amount) VALUES (ref, cust, amt);
    EXCEPTION WHEN unique_violation THEN
      dup := dup + 1;
    END;
  END LOOP;
  RETURN (n - dup) || ' inserted, ' || dup || ' duplicates';
END
$$;
