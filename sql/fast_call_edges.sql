-- fast_call_edges: adversarial probes of the fast entry (src/entry/fast_call.c),
-- compared with PL/pgSQL: SET clauses and SECURITY DEFINER, the search path
-- changed between rows, varchar(n)/numeric(p,s) arguments and results,
-- default arguments, VARIADIC, polymorphic arguments, arrays (expanded
-- arguments and results), TOAST-ed arguments, uncaught errors with
-- VERBOSITY verbose, PG_EXCEPTION_CONTEXT read by the handler in calls
-- from another function's SQL statement and RETURN NEXT, RAISE and bare
-- RAISE in handlers, CHECK constraints, index expressions, cursors fetched
-- later across a search path change, prepared statements, failed
-- transactions and rolled back subtransactions, statement_timeout,
-- force_parallel_mode, an uncaught error after a caller caught one,
-- collations, redefinition in the middle of a query, ALTER DOMAIN, enum
-- values added, SQL functions wrapping it, DISCARD PLANS and ALTER
-- FUNCTION between calls, ASSERT and statement_timeout under WHEN OTHERS,
-- memory of long loops, the savepoint counters against the same workload with the fast entry
-- defeated, and exit_on_error (in second sessions: the FATAL it makes of
-- an error a handler would have caught must carry its CONTEXT line).
-- Functions are LANGUAGE plpgsql: plnimble in the test database.
-- Which path the cases took (issue 27): fe_chk_path(w, s, f) compares the
-- plnimble_savepoint_stats() deltas since the last check, INSERTs run by
-- the write path (w), savepoints started (s) and fast calls (f), with
-- what the cases must have done ("as expected" under PL/pgSQL, which has
-- no counters).  The checks stand between the sections, outside
-- transactions.
CREATE TABLE public.fe_chk_prev (w bigint, s bigint, f bigint, pid int);
INSERT INTO public.fe_chk_prev VALUES (0, 0, 0, 0);
CREATE FUNCTION public.fe_chk_path(want_w bigint, want_s bigint, want_f bigint)
RETURNS text LANGUAGE plpgsql AS $pathcheck$
DECLARE
    cw bigint;
    cs bigint;
    cf bigint;
    p public.fe_chk_prev;
BEGIN
    IF to_regproc('pg_catalog.plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT writes_without_savepoint, savepoints_materialized, fast_calls FROM pg_catalog.plnimble_savepoint_stats()'
        INTO cw, cs, cf;
    SELECT * INTO p FROM public.fe_chk_prev;
    -- (a new session, after a reconnection, counts from zero)
    IF p.pid <> pg_backend_pid() THEN
        p.w := 0;
        p.s := 0;
        p.f := 0;
    END IF;
    UPDATE public.fe_chk_prev SET w = cw, s = cs, f = cf, pid = pg_backend_pid();
    IF want_w IS NULL OR (cw - p.w = want_w AND cs - p.s = want_s AND cf - p.f = want_f) THEN
        RETURN 'as expected';
    END IF;
    RETURN format('writes %s, savepoints %s, fast calls %s (expected %s, %s, %s)',
                  cw - p.w, cs - p.s, cf - p.f, want_w, want_s, want_f);
END
$pathcheck$;
SELECT public.fe_chk_path(NULL, NULL, NULL) AS reset;

create function rv_si(s text) returns int language plpgsql as $$
begin
    return s::int;
exception when invalid_text_representation then
    return null;
end $$;
SELECT public.fe_chk_path(0, 0, 0);
-- SET clause and SECURITY DEFINER
create schema s1;
create function s1.plus(a int, b int) returns int language sql immutable as 'select a * b';
create operator s1.+ (leftarg = int, rightarg = int, function = s1.plus);
create function addp(a int, b int) returns int language plpgsql set search_path = s1, pg_catalog as $$
begin return a + b; exception when others then return -1; end $$;
create function addq(a int, b int) returns int language plpgsql security definer as $$
begin return a + b; end $$;
select i, addp(i, 10), addq(i, 10) from generate_series(1,4) i;
select i, addq(i, 10), set_config('search_path', case when i % 2 = 0 then 's1, pg_catalog' else 'public' end, true) from generate_series(1,5) i;
reset search_path;
SELECT public.fe_chk_path(0, 1, 7);
-- varchar(n)/numeric(p,s) arguments and results
create function vc(s varchar(3)) returns varchar(2) language plpgsql as $$
begin return s || 'xyz'; exception when string_data_right_truncation then return 'T'; end $$;
select vc('ab'), vc('abcdef'), vc(null) from generate_series(1,3);
create function nm(x numeric(5,2)) returns numeric(4,1) language plpgsql as $$
begin return x * 1000; exception when numeric_value_out_of_range then return -1; end $$;
select nm(1.234), nm(99999.999) from generate_series(1,3);
SELECT public.fe_chk_path(0, 0, 5);
-- default arguments, VARIADIC
create function dflt(a int, b int default 7) returns int language plpgsql as $$
begin return a * b; end $$;
select dflt(i), dflt(i, i) from generate_series(1,3) i;
create function vd(variadic a int[]) returns int language plpgsql as $$
begin return array_length(a, 1) + a[1]; exception when others then return -9; end $$;
select vd(i, 2, 3), vd(variadic array[i]), vd(variadic '{}'::int[]) from generate_series(1,3) i;
SELECT public.fe_chk_path(0, 0, 5);
-- polymorphic
create function pm(a anyelement, b anyelement) returns anyelement language plpgsql as $$
begin return coalesce(a, b); end $$;
select pm(i, 5), pm(null::text, i::text), pm(null::numeric, 2.5) from generate_series(1,3) i;
SELECT public.fe_chk_path(0, 0, 6);
-- array results and arguments
create function arr(a int[], x int) returns int[] language plpgsql as $$
begin return a || x; exception when others then return null; end $$;
select arr(array[i], i), arr(null, i) from generate_series(1,3) i;
create function arrsum(a int[]) returns int language plpgsql as $$
begin return a[1] + a[2]; end $$;
create function useexp(n int) returns int language plpgsql as $$
declare a int[] := '{}'; r int := 0;
begin
  for i in 1..n loop a := a || i; end loop;
  for i in 1..n-1 loop r := r + arrsum(a[i:i+1]) + coalesce(arrsum(a), 0); end loop;
  return r + array_length(arr(a, 0), 1);
end $$;
select useexp(50);
SELECT public.fe_chk_path(0, 0, 48);
-- TOAST
create table big (id int, t text);
alter table big alter column t set storage external;
insert into big select i, repeat(i::text, 5000) from generate_series(1,3) i;
insert into big select 4, lpad('7', 9000, ' ');
create function tl(t text) returns int language plpgsql as $$
begin return length(t) + t::int; exception when invalid_text_representation or numeric_value_out_of_range then return -length(t); end $$;
select id, tl(t) from big order by id;
SELECT public.fe_chk_path(0, 0, 0);
-- errors not caught, verbose
\set VERBOSITY verbose
select rv_si(x) from (values ('1'), ('2'), ('3000000000')) v(x);
create function nz(a int, b int) returns int language plpgsql as $$
begin return a / b; end $$;
select nz(4, i) from generate_series(2, -1, -1) i;
\set VERBOSITY default
SELECT public.fe_chk_path(0, 0, 4);
-- handler reading PG_EXCEPTION_CONTEXT and the detail, called from a plpgsql caller in a SQL statement
create function sic(s text) returns text language plpgsql as $$
begin
    return (s::int)::text;
exception when invalid_text_representation then
    declare c text; m text; d text; st text;
    begin
      get stacked diagnostics c = pg_exception_context, m = message_text, st = returned_sqlstate;
      -- (the language's name out of the result: psql pads columns to it)
      return st || ':' || m || ':' || regexp_replace(c, 'PL/[a-zA-Z]+ function', 'PL function', 'g');
    end;
end $$;
create function caller(n int) returns setof text language plpgsql as $$
begin
  return query select sic(case when i % 2 = 0 then 'x' || i else i::text end) from generate_series(1, n) i;
  for i in 1..n loop
    return next sic(case when i % 2 = 0 then 'y' || i else i::text end);
  end loop;
end $$;
select * from caller(4);
SELECT public.fe_chk_path(0, 0, 0);
-- RAISE in the handler, and bare RAISE
create function sir(s text) returns int language plpgsql as $$
begin
    return s::int;
exception when invalid_text_representation then
    raise notice 'bad %', s;
    if s = 'raise' then raise; end if;
    return 0;
end $$;
select sir(x) from (values ('1'), ('a'), ('2'), ('b')) v(x);
select sir(x) from (values ('1'), ('2'), ('raise')) v(x);
SELECT public.fe_chk_path(0, 0, 1);
-- CHECK constraint, index expression, trigger
create table ck (s text check (rv_si(s) is not null or s = 'null'));
insert into ck values ('1'), ('2'), ('null');
insert into ck values ('3'), ('x');
create table ix (s text);
create function sim(s text) returns int immutable language plpgsql as $$
begin return s::int; exception when invalid_text_representation then return null; end $$;
create index on ix ((sim(s)));
insert into ix select case when i % 3 = 0 then 'a' else i::text end from generate_series(1,10) i;
set enable_seqscan = off;
select count(*) from ix where sim(s) = 4;
select count(*) from ix where sim(s) is null;
reset enable_seqscan;
SELECT public.fe_chk_path(0, 0, 2);
-- cursors fetched later
begin;
declare c cursor for select i, rv_si(case when i % 2 = 0 then 'z' else i::text end) from generate_series(1,6) i;
fetch 2 from c;
set local search_path = s1, public;
fetch 2 from c;
select addq(1, 2), addq(2, 2);
fetch all from c;
commit;
SELECT public.fe_chk_path(0, 1, 1);
-- prepared statement, many executions
prepare p(text) as select rv_si($1), addq(rv_si($1), 1);
execute p('1'); execute p('x'); execute p('2'); execute p('3'); execute p('y'); execute p('4'); execute p('5'); execute p('6');
SELECT public.fe_chk_path(0, 1, 6);
-- after a failed transaction, and in a rolled back subtransaction
begin;
select rv_si('1'), rv_si('q');
select 1/0;
rollback;
begin;
select rv_si('1');
savepoint a;
select rv_si('2'), rv_si('x'), rv_si('3');
select rv_si('99999999999');
rollback to a;
select rv_si('4'), rv_si('x'), rv_si('5');
commit;
SELECT public.fe_chk_path(0, 0, 1);
-- statement_timeout around a pg_sleep in the caller
set statement_timeout = '200ms';
select rv_si(i::text), pg_sleep(case when i = 3 then 1 else 0 end) from generate_series(1, 5) i;
reset statement_timeout;
SELECT public.fe_chk_path(0, 0, 2);
-- parallel
create table par as select i from generate_series(1,2000) i;
alter function rv_si(text) parallel safe;
alter function nz(int, int) parallel safe;
-- (16 renamed force_parallel_mode to debug_parallel_query)
SELECT CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END AS parallel_guc \gset
set :parallel_guc = on;
set parallel_setup_cost = 0; set parallel_tuple_cost = 0;
select sum(nz(i, 1)) from par;
select sum(rv_si(i::text)) from par;
select rv_si('x');
reset :parallel_guc;
create function rv_nz(a int, b int) returns int language plpgsql as $$
begin return a / b; end $$;
create function catcher(n int) returns text language plpgsql as $$
declare r text := '';
begin
  for i in 1..n loop
    begin
      r := r || rv_nz(10, i % 3) || ' ';
    exception when division_by_zero then
      r := r || '[z] ';
    end;
  end loop;
  return r || rv_nz(1, 0);
end $$;
select rv_nz(1,1), rv_nz(2,1);
select catcher(5);
begin;
select rv_nz(1,1), rv_nz(2,1);
select catcher(4);
commit;
SELECT public.fe_chk_path(0, 9, 7);
-- the same with a handler that does not catch the error
create function nz2(a int, b int) returns int language plpgsql as $$
begin return a / b; exception when numeric_value_out_of_range then return -1; end $$;
create function catcher2(n int) returns text language plpgsql as $$
declare r text := '';
begin
  for i in 1..n loop
    begin
      r := r || nz2(10, i % 3) || ' ' || nz2(-2147483648, -1) || ' ';
    exception when division_by_zero then
      r := r || '[z] ';
    end;
  end loop;
  return r || nz2(1, 0);
end $$;
select catcher2(5);
SELECT public.fe_chk_path(0, 5, 0);
-- collations
create function rv_lt(a text, b text) returns boolean language plpgsql as $$
begin return a < b; end $$;
select rv_lt('a', 'B'), rv_lt('a' collate "C", 'B'), rv_lt('a', 'B' collate "C"), rv_lt('a', 'B') from generate_series(1,2);
SELECT public.fe_chk_path(0, 0, 6);
-- replaced while a query calls it
create function rv_si2(s text) returns int language plpgsql as $$
begin return s::int; exception when invalid_text_representation then return null; end $$;
create function redefine(i int) returns int language plpgsql as $$
begin
  if i = 3 then
    execute $f$create or replace function rv_si2(s text) returns int language plpgsql as $b$
      begin return s::int * 100; exception when invalid_text_representation then return -1; end $b$ $f$;
  end if;
  return i;
end $$;
select redefine(i), rv_si2(case when i % 2 = 0 then 'x' else i::text end) from generate_series(1,6) i;
select rv_si2('x'), rv_si2('2');
SELECT public.fe_chk_path(0, 0, 0);
-- ALTER DOMAIN between calls of a function casting to a domain
create domain rv_pos as int check (value > 0);
create function tp(s text) returns int language plpgsql as $$
begin return s::rv_pos; exception when check_violation then return -1; end $$;
begin;
select tp('1'), tp('-1'), tp('5');
alter domain rv_pos add constraint small check (value < 10);
select tp('1'), tp('-1'), tp('50');
rollback;
select tp('1'), tp('-1'), tp('50');
SELECT public.fe_chk_path(0, 9, 0);
-- type changed under it: an enum
create type rv_color as enum ('red', 'green');
create function col(s text) returns text language plpgsql as $$
begin return s::rv_color::text; exception when invalid_text_representation then return 'bad'; end $$;
select col('red'), col('blue'), col('green');
alter type rv_color add value 'blue';
select col('red'), col('blue'), col('green');
SELECT public.fe_chk_path(0, 6, 0);
-- a SQL function inlined into a caller
create function sqlw(s text) returns int language sql as 'select rv_si2(s) + 1';
select sqlw(i::text) from generate_series(1,3) i;
create or replace function sqlw(s text) returns int language sql as 'select coalesce(rv_si2(s), 0) + 2';
select sqlw(x) from (values ('1'), ('x'), ('3')) v(x);
SELECT public.fe_chk_path(0, 0, 2);
-- profiler on between calls (plnimble only functions exist? skip)
-- memory of a long loop in one caller
create function memloop(n int) returns text language plpgsql as $$
declare s bigint; e bigint; k int := 0;
begin
  select sum(total_bytes) into s from pg_backend_memory_contexts;
  for i in 1..n loop
    k := k + coalesce(rv_si2(case when i % 3 = 0 then 'q' else i::text end), 0) % 7 + coalesce(rv_lt(i::text, 'x')::int, 0);
  end loop;
  select sum(total_bytes) into e from pg_backend_memory_contexts;
  return k::text || ' ' || (e - s < 1000000)::text;
end $$;
select memloop(200000);
select count(rv_si2(case when i % 3 = 0 then 'q' else i::text end)) from generate_series(1, 300000) i;
SELECT public.fe_chk_path(0, 0, 200001);
-- a bare RAISE re-throwing a handed-over error, verbose: every field
-- (integers: the LOCATION of numeric's input error moves between minor
-- releases of the server)
create function rv_rr(s text) returns int language plpgsql as $$
begin
    return s::int / 0;
exception when division_by_zero or invalid_text_representation then
    if s = 'raise' then raise; end if;
    return -1;
end $$;
\set VERBOSITY verbose
select rv_rr(x) from (values ('1'), ('2'), ('raise')) v(x);
select rv_rr(x) from (values ('1'), ('x'), ('2'), ('3')) v(x);
\set VERBOSITY default
SELECT public.fe_chk_path(0, 0, 0);
-- memory of a long loop after an uncaught error of a function without
-- handlers was caught by the caller (its expression then runs as SPI
-- would for the rest of the transaction)
create function rv_mnz(a int, b int) returns int language plpgsql as $$
begin return a / b; end $$;
create function rv_msi(s text) returns int language plpgsql as $$
begin return s::int; exception when invalid_text_representation then return null; end $$;
create function rv_memafter(n int) returns text language plpgsql as $$
declare s bigint; e bigint; k bigint := 0;
begin
  begin
    k := rv_mnz(1, 0);
  exception when division_by_zero then
    k := 0;
  end;
  k := k + coalesce(rv_msi('x'), 0);
  select sum(total_bytes) into s from pg_backend_memory_contexts;
  for i in 1..n loop
    k := k + rv_mnz(i, 1) + coalesce(rv_msi(case when i % 2 = 0 then 'q' else '1' end), 0);
  end loop;
  select sum(total_bytes) into e from pg_backend_memory_contexts;
  return k::text || ' ' || (e - s < 2000000)::text;
end $$;
select rv_memafter(100000);
select rv_memafter(200000);
SELECT public.fe_chk_path(0, 2, 0);
-- DISCARD PLANS, ALTER FUNCTION (STRICT, RENAME, SET search_path, SET
-- SCHEMA) between calls of one transaction: CONTEXT names the function as
-- it is now
create function rv_a(s text) returns int language plpgsql as $$
begin return s::int; exception when invalid_text_representation then return -1; end $$;
begin;
select rv_a('1'), rv_a('2'), rv_a('x');
discard plans;
select rv_a('1'), rv_a('2'), rv_a('x');
alter function rv_a(text) strict;
select rv_a('1'), rv_a(null), rv_a('x');
alter function rv_a(text) called on null input;
select rv_a('1'), rv_a(null), rv_a('x');
alter function rv_a(text) rename to rv_b;
select rv_b('1'), rv_b('2'), rv_b('99999999999');
rollback;
begin;
select rv_a('1'), rv_a('2');
alter function rv_a(text) set search_path = pg_catalog;
select rv_a('1'), rv_a('2'), rv_a('99999999999');
rollback;
SELECT public.fe_chk_path(0, 1, 7);
-- a schema-qualified rename, and the function moved to another schema
create schema rv_s;
begin;
select rv_a('1'), rv_a('2');
alter function rv_a(text) set schema rv_s;
select rv_s.rv_a('3'), rv_s.rv_a('4'), rv_s.rv_a('99999999999');
rollback;
SELECT public.fe_chk_path(0, 0, 3);
-- errors OTHERS does not catch (an ASSERT, a statement timeout) go up
-- with their CONTEXT line from a block entered without its subtransaction
create function rv_as(n int) returns int language plpgsql as $$
begin
  assert n > 0, 'n must be positive';
  return n;
exception when others then
  return -1;
end $$;
select rv_as(1), rv_as(2);
select rv_as(i) from generate_series(1, -1, -1) i;
create function rv_to(n int) returns int language plpgsql as $$
declare x int := 0;
begin
  for i in 1..n loop x := x + 1; end loop;
  return x;
exception when others then
  return -1;
end $$;
\set VERBOSITY terse
set statement_timeout = '300ms';
select rv_to(2000000000);
reset statement_timeout;
\set VERBOSITY default
-- (no savepoint: the loop bound, a bare variable, is first evaluated under
-- the guard that checks its plan)
SELECT public.fe_chk_path(0, 0, 0);
-- calls counted by track_functions as under PL/pgSQL
create function rv_t(s text) returns int language plpgsql as $$
begin return s::int; exception when invalid_text_representation then return null; end $$;
create function rv_tc(n int) returns int language plpgsql as $$
declare k int := 0;
begin
  for i in 1..n loop k := k + coalesce(rv_t(case when i % 4 = 0 then 'x' else i::text end), 0); end loop;
  return k;
end $$;
set track_functions = 'pl';
begin;
select count(rv_t(i::text)) from generate_series(1, 50) i;
select rv_tc(30);
select funcname, calls from pg_stat_xact_user_functions where funcname like 'rv_t%' order by 1;
commit;
reset track_functions;
SELECT public.fe_chk_path(0, 0, 52);
-- the savepoint counters (plnimble only; true under PL/pgSQL): a workload
-- through the fast entry counts what the ordinary path counts
create function rv_fast(s text) returns int language plpgsql as $$
begin return s::int; exception when invalid_text_representation then return null; end $$;
create function rv_slow(s text) returns int language plpgsql as $$
begin null; return s::int; exception when invalid_text_representation then return null; end $$;
create function rv_div(a int, b int) returns int language plpgsql as $$
begin return a / b; exception when invalid_text_representation then return null; end $$;
create function rv_div_slow(a int, b int) returns int language plpgsql as $$
begin null; return a / b; exception when invalid_text_representation then return null; end $$;
create function rv_delta(q text) returns bigint[] language plpgsql as $$
declare a bigint[]; b bigint[];
  s text := 'select array[blocks_entered, savepoints_materialized, errors_caught_lazy, errors_caught_subxact] from plnimble_savepoint_stats()';
begin
  execute s into a;
  begin
    execute q;
  exception when division_by_zero then
    null;
  end;
  execute s into b;
  return array[b[1]-a[1], b[2]-a[2], b[3]-a[3], b[4]-a[4]];
end $$;
create function rv_same_counts(fast text, slow text) returns boolean language plpgsql as $$
begin
  if to_regproc('plnimble_savepoint_stats') is null then return true; end if;
  return rv_delta(fast) = rv_delta(slow);
end $$;
select rv_fast('1'), rv_slow('1'), rv_div(1, 1), rv_div_slow(1, 1);
begin;
select rv_same_counts('select count(rv_fast(case when i % 3 = 0 then ''x'' else i::text end)) from generate_series(1,300) i',
                      'select count(rv_slow(case when i % 3 = 0 then ''x'' else i::text end)) from generate_series(1,300) i');
select rv_same_counts('select count(rv_div(1, 50 - i)) from generate_series(1,300) i',
                      'select count(rv_div_slow(1, 50 - i)) from generate_series(1,300) i');
commit;
SELECT public.fe_chk_path(0, 4, 100);
-- exit_on_error, in second sessions
create function rv_si_slow(s text) returns int language plpgsql as $$
begin null; return s::int; exception when invalid_text_representation then return null; end $$;
\setenv PGDATABASE :DBNAME
\! sh sql/separate/run.sh exit_on_error_fast_call
\! sh sql/separate/run.sh exit_on_error_lazy_block
\c
select rv_si('1'), rv_si('y');
SELECT public.fe_chk_path(0, 0, 0);
