-- Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
-- Functions with known defects (and some without), for
-- scripts/check-compare.sh: each is created twice, as PL/pgSQL (checked by
-- plpgsql_check) and as plnimble (checked by plnimble_check_function).
-- Trigger functions are checked with relid cmp_t.  Keep one defect kind
-- per function, named after it.
CREATE FUNCTION f_clean(p int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE r cmp_t%ROWTYPE;
BEGIN
  SELECT * INTO r FROM cmp_t WHERE a = p;
  RETURN r.a;
END $$;
CREATE FUNCTION f_missing_table() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO no_such_table VALUES (1);
END $$;
CREATE FUNCTION f_missing_table_select() RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  SELECT count(*) INTO n FROM no_such_table;
  RETURN n;
END $$;
CREATE FUNCTION f_missing_table_perform() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM * FROM no_such_table;
END $$;
CREATE FUNCTION f_missing_table_in_branch(p int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p > 0 THEN
    DELETE FROM no_such_table;
  END IF;
END $$;
CREATE FUNCTION f_missing_table_for() RETURNS int LANGUAGE plpgsql AS $$
DECLARE r record; n int := 0;
BEGIN
  FOR r IN SELECT * FROM no_such_table LOOP
    n := n + 1;
  END LOOP;
  RETURN n;
END $$;
CREATE FUNCTION f_missing_table_return_query() RETURNS SETOF int LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT a FROM no_such_table;
END $$;
CREATE FUNCTION f_missing_table_cursor() RETURNS void LANGUAGE plpgsql AS $$
DECLARE c CURSOR FOR SELECT * FROM no_such_table;
BEGIN
  OPEN c;
  CLOSE c;
END $$;
CREATE FUNCTION f_missing_column_update() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cmp_t SET nosuch = 1;
END $$;
CREATE FUNCTION f_missing_column_select() RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  SELECT nosuch INTO n FROM cmp_t;
  RETURN n;
END $$;
CREATE FUNCTION f_missing_column_where() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM cmp_t WHERE nosuch = 1;
END $$;
CREATE FUNCTION f_missing_column_insert() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cmp_t (a, nosuch) VALUES (1, 2);
END $$;
CREATE FUNCTION f_missing_column_expr() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RETURN (SELECT max(nosuch) FROM cmp_t);
END $$;
CREATE FUNCTION f_missing_function() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RETURN no_such_function(1);
END $$;
CREATE FUNCTION f_missing_function_assign() RETURNS int LANGUAGE plpgsql AS $$
DECLARE x int;
BEGIN
  x := no_such_function(1, 2);
  RETURN x;
END $$;
CREATE FUNCTION f_missing_function_perform() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM no_such_function();
END $$;
CREATE FUNCTION f_wrong_arg_types() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  RETURN substr(1, 'x');
END $$;
CREATE FUNCTION f_missing_operator(p text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RETURN p - 1;
END $$;
CREATE FUNCTION f_missing_operator_if(p text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  IF p > 1 THEN RETURN 1; END IF;
  RETURN 0;
END $$;
CREATE FUNCTION f_missing_operator_while(p date) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  WHILE p * 2 > 0 LOOP
    RETURN 1;
  END LOOP;
  RETURN 0;
END $$;
CREATE FUNCTION f_bad_literal() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RETURN 'abc'::int;
END $$;
CREATE FUNCTION f_bad_literal_date() RETURNS date LANGUAGE plpgsql AS $$
BEGIN
  RETURN '2020-13-45'::date;
END $$;
CREATE FUNCTION f_missing_type() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RETURN 1::no_such_type;
END $$;
CREATE FUNCTION f_ambiguous_column(a int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  SELECT a INTO n FROM cmp_t;
  RETURN n;
END $$;
CREATE FUNCTION f_missing_from_entry() RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  SELECT x.a INTO n FROM cmp_t;
  RETURN n;
END $$;
CREATE FUNCTION f_rowtype_missing_field() RETURNS int LANGUAGE plpgsql AS $$
DECLARE r cmp_t%ROWTYPE;
BEGIN
  RETURN r.nosuch;
END $$;
CREATE FUNCTION f_record_missing_field() RETURNS int LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  SELECT a, b INTO r FROM cmp_t LIMIT 1;
  RETURN r.nosuch;
END $$;
CREATE FUNCTION f_for_record_missing_field() RETURNS int LANGUAGE plpgsql AS $$
DECLARE r record; n int := 0;
BEGIN
  FOR r IN SELECT a FROM cmp_t LOOP
    n := n + r.b;
  END LOOP;
  RETURN n;
END $$;
CREATE FUNCTION f_record_not_assigned() RETURNS int LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  RETURN r.a;
END $$;
CREATE FUNCTION f_raise_param_error(p text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE NOTICE '%', p + 1;
END $$;
CREATE FUNCTION f_assert_error(p text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  ASSERT p > 1;
END $$;
CREATE FUNCTION f_case_error(p text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  CASE WHEN p + 1 > 0 THEN RETURN 1; ELSE RETURN 0; END CASE;
END $$;
CREATE FUNCTION f_fori_bound_error(p text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int := 0;
BEGIN
  FOR i IN 1 .. p * 2 LOOP
    n := n + i;
  END LOOP;
  RETURN n;
END $$;
CREATE FUNCTION f_exit_when_error(p text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  LOOP
    EXIT WHEN p - 1 > 0;
  END LOOP;
  RETURN 0;
END $$;
CREATE FUNCTION f_default_error() RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int := no_such_function();
BEGIN
  RETURN n;
END $$;
CREATE FUNCTION f_handler_error() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RETURN 1;
EXCEPTION WHEN others THEN
  INSERT INTO no_such_table VALUES (1);
  RETURN 0;
END $$;
CREATE FUNCTION f_nested_block_error() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  BEGIN
    UPDATE cmp_t SET nosuch = 2;
  EXCEPTION WHEN unique_violation THEN
    NULL;
  END;
  RETURN 1;
END $$;
CREATE FUNCTION f_no_return() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1;
END $$;
CREATE FUNCTION f_return_query_columns() RETURNS TABLE (x int, y text) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT a FROM cmp_t;
END $$;
CREATE FUNCTION f_return_query_types() RETURNS TABLE (x int, y text) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT b, a FROM cmp_t;
END $$;
CREATE FUNCTION f_return_query_setof() RETURNS SETOF int LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT a, b FROM cmp_t;
END $$;
CREATE FUNCTION f_foreach_error(p text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE x int; n int := 0;
BEGIN
  FOREACH x IN ARRAY p * 2 LOOP
    n := n + x;
  END LOOP;
  RETURN n;
END $$;
CREATE FUNCTION f_fetch_cursor_error() RETURNS int LANGUAGE plpgsql AS $$
DECLARE c CURSOR FOR SELECT nosuch FROM cmp_t; n int;
BEGIN
  OPEN c;
  FETCH c INTO n;
  CLOSE c;
  RETURN n;
END $$;
CREATE FUNCTION f_open_for_error() RETURNS refcursor LANGUAGE plpgsql AS $$
DECLARE c refcursor;
BEGIN
  OPEN c FOR SELECT * FROM no_such_table;
  RETURN c;
END $$;
CREATE FUNCTION f_using_error(p text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'SELECT $1' USING p + 1;
END $$;
CREATE FUNCTION f_execute_string_error() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE no_such_function();
END $$;
CREATE FUNCTION f_subquery_error() RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  n := (SELECT count(*) FROM cmp_t WHERE b IN (SELECT c FROM no_such_table));
  RETURN n;
END $$;
CREATE FUNCTION f_cte_error() RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  WITH w AS (SELECT nosuch FROM cmp_t) SELECT count(*) INTO n FROM w;
  RETURN n;
END $$;
CREATE FUNCTION f_returning_error() RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  INSERT INTO cmp_t (a) VALUES (1) RETURNING nosuch INTO n;
  RETURN n;
END $$;
CREATE FUNCTION f_join_error() RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  SELECT count(*) INTO n FROM cmp_t t JOIN cmp_t u ON t.a = u.nosuch;
  RETURN n;
END $$;
CREATE FUNCTION f_group_by_error() RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  SELECT a INTO n FROM cmp_t GROUP BY b;
  RETURN n;
END $$;
CREATE FUNCTION f_aggregate_in_where() RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  SELECT a INTO n FROM cmp_t WHERE max(a) > 1;
  RETURN n;
END $$;
CREATE FUNCTION f_param_type_error(p int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RETURN length(p);
END $$;
CREATE FUNCTION f_boolean_condition(p text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  IF p THEN RETURN 1; END IF;
  RETURN 0;
END $$;
CREATE FUNCTION f_integer_condition(p int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  IF p THEN RETURN 1; END IF;
  RETURN 0;
END $$;
CREATE FUNCTION f_out_param_error(OUT x int, OUT y int) LANGUAGE plpgsql AS $$
BEGIN
  x := no_such_function();
  y := 1;
END $$;
CREATE FUNCTION f_procedure_error() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  CALL no_such_procedure();
END $$;
CREATE FUNCTION f_set_returning_next_error() RETURNS SETOF int LANGUAGE plpgsql AS $$
BEGIN
  RETURN NEXT no_such_function();
END $$;
CREATE FUNCTION f_getdiag_then_error() RETURNS int LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n + no_such_function();
END $$;
CREATE FUNCTION f_second_error_line() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1;
  PERFORM 2;
  PERFORM * FROM no_such_table;
  RETURN 1;
END $$;
CREATE FUNCTION f_trigger_clean() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.b := NEW.a::text;
  RETURN NEW;
END $$;
CREATE FUNCTION f_trigger_missing_field() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.nosuch := 1;
  RETURN NEW;
END $$;
CREATE FUNCTION f_trigger_bad_query() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO no_such_table VALUES (NEW.a);
  RETURN NEW;
END $$;
CREATE FUNCTION f_clean_loops(p int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE r record; n int := 0;
BEGIN
  FOR r IN SELECT a, b FROM cmp_t WHERE a > p LOOP
    n := n + r.a + length(r.b);
  END LOOP;
  FOR i IN 1 .. p LOOP
    n := n + i;
  END LOOP;
  RETURN n;
END $$;
CREATE FUNCTION f_clean_dynamic(t text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM %I', t) INTO n;
  RETURN n;
END $$;
