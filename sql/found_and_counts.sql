-- found_and_counts: FOUND after every kind of statement -- loops of each
-- kind run, skipped and left by EXIT, FOREACH, a cursor's FOR loop,
-- FETCH and MOVE, RETURN QUERY, CALL, GET DIAGNOSTICS, statements in a
-- handler -- and the count forms of MOVE (a bare count expression, ALL,
-- FORWARD/BACKWARD n, ABSOLUTE and RELATIVE with expressions, a negative
-- count) with the ROW_COUNT each leaves.

CREATE TABLE fc_t (a int);
INSERT INTO fc_t VALUES (1), (2);
CREATE PROCEDURE fc_proc() LANGUAGE plnimble AS $$
BEGIN
  PERFORM 1 WHERE false;
END
$$;

CREATE FUNCTION fc_found() returns setof text language plnimble as $$
declare x int; r record; c cursor for select a from fc_t; c2 refcursor;
begin
  perform 1 where false;
  foreach x in array '{}'::int[] loop end loop; return next 'foreach empty ' || found;
  perform 1;
  foreach x in array '{1}'::int[] loop return next 'in foreach ' || found; perform 1 where false; end loop; return next 'foreach 1 ' || found;
  perform 1;
  foreach x in array '{}'::int[] loop end loop; return next 'foreach empty after true ' || found;
  for i in 1..0 loop end loop; return next 'for empty ' || found;
  for i in 1..2 loop perform 1 where false; end loop; return next 'for 2 ' || found;
  for i in 1..2 loop exit; end loop; return next 'for exit ' || found;
  for r in select * from fc_t where false loop end loop; return next 'forq empty ' || found;
  for r in select * from fc_t loop perform 1 where false; end loop; return next 'forq ' || found;
  for r in execute 'select 1 where false' loop end loop; return next 'fore empty ' || found;
  for r in execute 'select 1' loop perform 1 where false; end loop; return next 'fore ' || found;
  for r in c loop perform 1 where false; end loop; return next 'forc ' || found;
  perform 1;
  for r in c loop exit when true; end loop; return next 'forc exit ' || found;
  perform 1 where false;
  while false loop end loop; return next 'while ' || found;
  perform 1;
  loop exit; end loop; return next 'loop ' || found;
  perform 1 where false;
  x := 1; return next 'assign ' || found;
  select 1 into x; return next 'select into ' || found;
  select 1 into x where false; return next 'select into none ' || found;
  execute 'select 1' into x; return next 'execute into ' || found;
  perform 1 where false;
  execute 'select 1' into x; return next 'execute into after false ' || found;
  open c2 for select 1; fetch c2 into x; return next 'fetch ' || found;
  fetch c2 into x; return next 'fetch none ' || found;
  move next in c2; return next 'move ' || found;
  close c2;
  update fc_t set a = a where false; return next 'update none ' || found;
  update fc_t set a = a; return next 'update ' || found;
  return query select 1::text where false; return next 'return query none ' || found;
  return query select 'rq'; return next 'return query ' || found;
  perform 1 where false;
  return query execute 'select ''rqe'''; return next 'return query exec ' || found;
  perform 1;
  call fc_proc(); return next 'call ' || found;
  perform 1 where false;
  get diagnostics x = row_count; return next 'getdiag ' || found;
  perform 1;
  declare y int; begin perform 1/0; exception when others then return next 'in handler ' || found; end;
  perform 1;
  begin perform 1 where false; perform 1/0; exception when others then return next 'in handler 2 ' || found; end;
  insert into fc_t values (5) ; return next 'insert ' || found;
  delete from fc_t where a = 5 returning a into x; return next 'delete returning ' || found;
  delete from fc_t where a = 5 returning a into x; return next 'delete returning none ' || found;
end $$;
SELECT * FROM fc_found();

CREATE TABLE fc_ten (a int);
INSERT INTO fc_ten SELECT generate_series(1, 10);
CREATE FUNCTION fc_moves(n int) RETURNS SETOF text LANGUAGE plnimble AS $$
DECLARE
  c SCROLL CURSOR FOR SELECT a FROM fc_ten ORDER BY a;
  x int;
  k int;
BEGIN
  OPEN c;
  MOVE 2 IN c;
  FETCH c INTO x;
  RETURN NEXT 'move 2: ' || x;
  MOVE 1 + 1 FROM c;
  FETCH c INTO x;
  RETURN NEXT 'move 1 + 1: ' || x;
  MOVE ALL IN c;
  GET DIAGNOSTICS k = ROW_COUNT;
  RETURN NEXT 'move all: ' || k || ' ' || found;
  MOVE ABSOLUTE n IN c;
  FETCH c INTO x;
  RETURN NEXT 'absolute n: ' || x;
  MOVE RELATIVE -n FROM c;
  FETCH c INTO x;
  RETURN NEXT 'relative -n: ' || x;
  MOVE FORWARD n IN c;
  FETCH c INTO x;
  RETURN NEXT 'forward n: ' || x;
  MOVE BACKWARD n IN c;
  FETCH c INTO x;
  RETURN NEXT 'backward n: ' || x;
  MOVE -1 IN c;
  GET DIAGNOSTICS k = ROW_COUNT;
  RETURN NEXT 'move -1: ' || k || ' ' || found;
  MOVE FORWARD -2 FROM c;
  GET DIAGNOSTICS k = ROW_COUNT;
  RETURN NEXT 'forward -2: ' || k || ' ' || found;
  MOVE BACKWARD ALL FROM c;
  GET DIAGNOSTICS k = ROW_COUNT;
  RETURN NEXT 'backward all: ' || k || ' ' || found;
  FETCH RELATIVE (n - n) FROM c INTO x;
  RETURN NEXT 'relative 0 at the start: ' || coalesce(x::text, 'null') || ' ' || found;
  MOVE ABSOLUTE 0 FROM c;
  FETCH c INTO x;
  RETURN NEXT 'absolute 0, then next: ' || x;
END
$$;
SELECT * FROM fc_moves(2);
-- a variable where the count would stand is taken for the cursor
CREATE FUNCTION fc_move_var(n int) RETURNS void LANGUAGE plnimble AS $$
DECLARE
  c SCROLL CURSOR FOR SELECT a FROM fc_ten;
BEGIN
  OPEN c;
  MOVE n IN c;
END
$$;
-- a count without a direction makes FETCH return several rows
CREATE FUNCTION fc_fetch_count() RETURNS void LANGUAGE plnimble AS $$
DECLARE
  c SCROLL CURSOR FOR SELECT a FROM fc_ten;
  x int;
BEGIN
  OPEN c;
  FETCH 1 FROM c INTO x;
END
$$;
