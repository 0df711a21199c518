-- trigger_insert: a BEFORE INSERT row trigger that normalizes and computes
-- columns of NEW, fired by one 100k-row INSERT ... SELECT.  The INSERT is
-- run by an SQL function, so only the trigger is in the language measured.
--
-- @desc    100k-row INSERT through a row trigger
-- @group   exec
-- @order   205
-- @param   N 100000
-- @case    trigger_insert | >=1.0 | n=@N@ | SELECT trigger_insert_@LANG@(@N@)

-- @@reset
TRUNCATE orders_plpgsql, orders_plnimble;

-- @@functions
CREATE TABLE orders_@LANG@ (
  id int PRIMARY KEY,
  customer text NOT NULL,
  qty int NOT NULL,
  price numeric(10,2) NOT NULL,
  total numeric(12,2),
  size_class text
) WITH (autovacuum_enabled = off);

CREATE FUNCTION orders_before_@LANG@() RETURNS trigger LANGUAGE @LANG@ AS $$
BEGIN
  NEW.customer := lower(trim(NEW.customer));
  IF NEW.qty <= 0 THEN
    RAISE EXCEPTION 'order % has no quantity', NEW.id;
  END IF;
  NEW.total := NEW.qty * NEW.price;
  NEW.size_class := CASE WHEN NEW.qty >= 100 THEN 'bulk'
                         WHEN NEW.qty >= 10 THEN 'medium'
                         ELSE 'small' END;
  RETURN NEW;
END
$$;

CREATE TRIGGER orders_before BEFORE INSERT ON orders_@LANG@
  FOR EACH ROW EXECUTE FUNCTION orders_before_@LANG@();

CREATE FUNCTION trigger_insert_@LANG@(n int) RETURNS bigint LANGUAGE sql AS $$
  INSERT INTO orders_@LANG@ (id, customer, qty, price)
    SELECT g, ' Customer ' || (g % 1000) || ' ', 1 + g % 150, (g % 5000) / 100.0
    FROM generate_series(1, n) g;
  SELECT count(*) FROM orders_@LANG@ WHERE size_class = 'bulk';
$$;
