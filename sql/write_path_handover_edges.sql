-- write_path_handover_edges: adversarial probes of the write path's handing a
-- duplicate to its handler without raising the unique_violation
-- (src/write/write_path.c, src/write/write_direct.c, src/lazy/savepoint.c), compared with
-- PL/pgSQL: once duplicates are common (the key looked up first), a row
-- whose key is a duplicate but that breaks a NOT NULL, a CHECK or a
-- varchar(n) must fail with that error, not go to the handler; sequence
-- values consumed once per attempt; ROW_COUNT, FOUND and a RETURNING INTO
-- target as the error would leave them, read in the handler and after the
-- block; GET DIAGNOSTICS PG_CONTEXT in a function the handler calls; a
-- handler reading SQLSTATE in a nested block and catching an error of its
-- own; EXIT, CONTINUE and RETURN in the handler; DDL on the table between
-- iterations (triggers, CHECK, a second unique index, defaults); FOR over
-- a query and FOREACH loops; temporary, unlogged, partitioned and inherited
-- tables; READ ONLY and SERIALIZABLE transactions; a handler raising a new
-- error or a duplicate of its own; SQLERRM named only in a string; and
-- exit_on_error (in a second session: the FATAL it makes of the duplicate
-- must carry its DETAIL and CONTEXT lines).
-- Functions are LANGUAGE plpgsql: plnimble in the test database.
-- Which path the cases took (issue 27): whe_chk_path(w, s, f) compares the
-- plnimble_savepoint_stats() deltas since the last check, INSERTs run by
-- the write path (w), savepoints started (s) and fast calls (f), with
-- what the cases must have done ("as expected" under PL/pgSQL, which has
-- no counters).  The checks stand between the sections, outside
-- transactions.
CREATE TABLE public.whe_chk_prev (w bigint, s bigint, f bigint, pid int);
INSERT INTO public.whe_chk_prev VALUES (0, 0, 0, 0);
CREATE FUNCTION public.whe_chk_path(want_w bigint, want_s bigint, want_f bigint)
RETURNS text LANGUAGE plpgsql AS $pathcheck$
DECLARE
    cw bigint;
    cs bigint;
    cf bigint;
    p public.whe_chk_prev;
BEGIN
    IF to_regproc('pg_catalog.plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT writes_without_savepoint, savepoints_materialized, fast_calls FROM pg_catalog.plnimble_savepoint_stats()'
        INTO cw, cs, cf;
    SELECT * INTO p FROM public.whe_chk_prev;
    -- (a new session, after a reconnection, counts from zero)
    IF p.pid <> pg_backend_pid() THEN
        p.w := 0;
        p.s := 0;
        p.f := 0;
    END IF;
    UPDATE public.whe_chk_prev SET w = cw, s = cs, f = cf, pid = pg_backend_pid();
    IF want_w IS NULL OR (cw - p.w = want_w AND cs - p.s = want_s AND cf - p.f = want_f) THEN
        RETURN 'as expected';
    END IF;
    RETURN format('writes %s, savepoints %s, fast calls %s (expected %s, %s, %s)',
                  cw - p.w, cs - p.s, cf - p.f, want_w, want_s, want_f);
END
$pathcheck$;
SELECT public.whe_chk_path(NULL, NULL, NULL) AS reset;

create table rvw_t (k int primary key, v int not null, c int check (c > 0), s varchar(3), n bigserial);
create function rvw_ins(lo int, hi int, vv int, cc int, ss text) returns text language plpgsql as $$
declare dup int := 0; i int;
begin
  for i in lo..hi loop
    begin
      insert into rvw_t(k, v, c, s) values (i % 5, vv, cc, ss);
    exception when unique_violation then
      dup := dup + 1;
    end;
  end loop;
  return dup::text;
end $$;
select rvw_ins(1, 200, 1, 1, 'a');
select count(*), max(n) from rvw_t;
SELECT public.whe_chk_path(200, 0, 0);
-- duplicates common now; a row whose key is a duplicate but a NOT NULL fails
begin;
select rvw_ins(1, 200, 1, 1, 'a');
select rvw_ins(1, 3, null, 1, 'a');
rollback;
begin;
select rvw_ins(1, 200, 1, 1, 'a');
select rvw_ins(1, 3, 1, -1, 'a');
rollback;
begin;
select rvw_ins(1, 200, 1, 1, 'a');
select rvw_ins(1, 3, 1, 1, 'abcd');
rollback;
select currval('rvw_t_n_seq');
begin;
select rvw_ins(1, 200, 1, 1, 'a');
select currval('rvw_t_n_seq');
commit;
select currval('rvw_t_n_seq');
drop table rvw_t;
create table rvw_t (k int primary key, v text default 'd', n bigserial);
insert into rvw_t(k) select g from generate_series(0,4) g;
create function rvw_ctx() returns text language plpgsql as $$
declare c text; begin get diagnostics c = pg_context; return regexp_replace(c, 'PL/[a-zA-Z]+ function', 'PL function', 'g'); end $$;
create function rvw_f1(m int) returns text language plpgsql as $$
declare r text := ''; i int; x int := -1; rc bigint;
begin
  for i in 1..m loop
    begin
      insert into rvw_t(k) values (i % 7) returning k into x;
    exception when unique_violation then
      r := r || 'd';
      get diagnostics rc = row_count;
      r := r || rc || found::text || x || ',';
      if i = m then r := r || rvw_ctx(); end if;
    end;
  end loop;
  get diagnostics rc = row_count;
  return r || ' rc=' || rc || ' found=' || found::text || ' x=' || x;
end $$;
begin;
select rvw_f1(40);
select count(*), max(n) from rvw_t;
rollback;
SELECT public.whe_chk_path(843, 0, 0);
-- handler reading SQLSTATE in a nested block, and a nested handler
create function rvw_f2(m int) returns text language plpgsql as $$
declare r text := ''; i int;
begin
  for i in 1..m loop
    begin
      insert into rvw_t(k) values (i % 9);
    exception when unique_violation then
      begin
        r := r || sqlstate || ' ';
        begin
          perform 1/0;
        exception when division_by_zero then
          r := r || 'z ';
        end;
      end;
    end;
  end loop;
  return r;
end $$;
begin;
select rvw_f2(30);
rollback;
SELECT public.whe_chk_path(30, 26, 0);
-- exit, continue, return from the handler
create function rvw_f3(m int, how text) returns text language plpgsql as $$
declare r text := ''; i int;
begin
  <<lp>>
  for i in 1..m loop
    begin
      insert into rvw_t(k) values (i + 2);
    exception when unique_violation then
      if how = 'exit' and i > 1 then exit lp; end if;
      if how = 'continue' then r := r || 'c' || i; continue; end if;
      if how = 'return' and i > 1 then return r || 'ret' || i; end if;
      r := r || 'h' || i;
    end;
    r := r || '.';
  end loop;
  return r;
end $$;
begin;
select rvw_f3(6, 'exit');
rollback;
begin;
select rvw_f3(6, 'continue');
rollback;
begin;
select rvw_f3(6, 'return');
rollback;
begin;
select rvw_f3(6, 'none');
rollback;
SELECT public.whe_chk_path(16, 0, 0);
-- a handler that raises a new error, with its context
create function rvw_f4(m int) returns int language plpgsql as $$
declare i int;
begin
  for i in 1..m loop
    begin
      insert into rvw_t(k) values (i % 3 + 10);
    exception when unique_violation then
      if i > 20 then raise exception 'dup at %', i using errcode = 'P0009'; end if;
    end;
  end loop;
  return 0;
end $$;
\set VERBOSITY default
begin;
select rvw_f4(30);
rollback;
\set VERBOSITY default
SELECT public.whe_chk_path(21, 0, 0);
-- a handler whose only statement is NULL, in a while loop, row counts via stats of the xact
create function rvw_f5(m int) returns int language plpgsql as $$
declare i int := 0;
begin
  while i < m loop
    i := i + 1;
    begin
      insert into rvw_t(k) values (i % 4);
    exception when unique_violation then
      null;
    end;
  end loop;
  return i;
end $$;
begin;
select rvw_f5(100);
select count(*) from rvw_t;
commit;
SELECT public.whe_chk_path(100, 0, 0);
-- SQLSTATE named only in a comment, and sqlerrm named in a string constant
create function rvw_f6(m int) returns text language plpgsql as $$
declare i int; r text := '';
begin
  for i in 1..m loop
    begin
      insert into rvw_t(k) values (i % 4);
    exception when unique_violation then
      r := r || 'x';  -- not reading sqlstate here
    end;
  end loop;
  return r || ' sqlerrm';
end $$;
begin;
select rvw_f6(20);
rollback;
SELECT public.whe_chk_path(20, 0, 0);
-- the error raised in a handler of the same kind goes up
create function rvw_f7(m int) returns text language plpgsql as $$
declare i int;
begin
  for i in 1..m loop
    begin
      insert into rvw_t(k) values (i % 4);
    exception when unique_violation then
      if i = m then insert into rvw_t(k) values (0); end if;
    end;
  end loop;
  return 'no';
end $$;
begin;
select rvw_f7(20);
rollback;
SELECT public.whe_chk_path(20, 0, 0);
-- DDL between iterations of a loop whose duplicates go to the handler
-- (from a function the handler calls): a trigger created and dropped, a
-- CHECK added, a second unique index created and dropped, a default
-- changed; and a trigger created between two calls
create table rvw_d (k int primary key, v int default 0);
create table rvw_log (msg text);
create function rvw_trg() returns trigger language plpgsql as $$
begin insert into rvw_log values ('trg ' || new.k); new.v := new.v + 1000; return new; end $$;
create function rvw_ddl(i int) returns void language plpgsql as $$
begin
  if i = 31 then
    create trigger rvw_d_t before insert on rvw_d for each row execute function rvw_trg();
  elsif i = 61 then
    drop trigger rvw_d_t on rvw_d;
    alter table rvw_d add constraint rvw_d_v check (v < 150) not valid;
  elsif i = 91 then
    create unique index rvw_d_v_u on rvw_d (v);
  elsif i = 121 then
    drop index rvw_d_v_u;
    alter table rvw_d alter column v set default 7;
  end if;
end $$;
create function rvw_ddl_loop(n int) returns text language plpgsql as $$
declare dup int := 0; i int;
begin
  for i in 1..n loop
    begin
      insert into rvw_d(k, v) values (case when i % 10 = 0 then 1000 + i else i % 25 end, case when i > 140 and i % 10 = 0 then 500 else i end);
    exception when unique_violation then
      dup := dup + 1;
      perform rvw_ddl(i);
    end;
  end loop;
  return dup::text;
end $$;
begin;
insert into rvw_d values (1000, -1);
select rvw_ddl_loop(200);
select count(*), sum(v) from rvw_d;
select msg, count(*) from rvw_log group by msg order by 1;
rollback;
begin;
insert into rvw_d values (1000, -1);
select rvw_ddl_loop(145);
select count(*), sum(v) from rvw_d;
select msg, count(*) from rvw_log group by msg order by 1;
rollback;
SELECT public.whe_chk_path(235, 60, 0);
-- a trigger created between two calls, in one transaction
begin;
insert into rvw_d values (1000, -1);
select rvw_ddl_loop(20);
create trigger rvw_d_t2 before insert on rvw_d for each row execute function rvw_trg();
insert into rvw_d values (1001, -2);
select rvw_ddl_loop(29);
select count(*), sum(v) from rvw_d;
select count(*) from rvw_log;
rollback;
SELECT public.whe_chk_path(20, 29, 0);
-- FOR over a query and FOREACH around the block; temporary, unlogged,
-- partitioned and inherited tables; READ ONLY and SERIALIZABLE
create table rvw_q (k int primary key, v text);
create table rvw_src as select g as k, 'v' || g as v from generate_series(1, 300) g;
insert into rvw_q select k % 40, v from rvw_src where k <= 40;
create function rvw_forq() returns text language plpgsql as $$
declare r record; d int := 0; n int := 0; a int[] := '{}';
begin
  for r in select k, v from rvw_src order by k loop
    begin
      insert into rvw_q values (r.k % 97, r.v);
    exception when unique_violation then
      d := d + 1;
    end;
    n := n + 1;
  end loop;
  foreach n in array array[1, 2, 500, 3, 501] loop
    begin
      insert into rvw_q values (n, 'f');
    exception when unique_violation then
      a := a || n;
    end;
  end loop;
  return d || ' ' || n || ' ' || a::text;
end $$;
begin;
insert into rvw_q values (-1, 'x');
select rvw_forq();
select count(*), string_agg(v, ',' order by k) filter (where k > 90 or k < 2) from rvw_q;
rollback;
create temp table rvw_tmp (k int primary key);
create unlogged table rvw_unl (k int primary key);
create table rvw_par (k int primary key) partition by range (k);
create table rvw_par1 partition of rvw_par for values from (0) to (50);
create table rvw_par2 partition of rvw_par for values from (50) to (100);
create table rvw_inh (k int primary key);
create table rvw_inh_c (extra int) inherits (rvw_inh);
create function rvw_many(tab text, n int) returns int language plpgsql as $$
declare d int := 0;
begin
  for i in 1..n loop
    begin
      if tab = 'tmp' then insert into rvw_tmp values (i % 7);
      elsif tab = 'unl' then insert into rvw_unl values (i % 7);
      elsif tab = 'par' then insert into rvw_par values (i % 70);
      elsif tab = 'inh' then insert into rvw_inh values (i % 7);
      end if;
    exception when unique_violation then
      d := d + 1;
    end;
  end loop;
  return d;
end $$;
create function rvw_tmp_only(n int) returns int language plpgsql as $$
declare d int := 0;
begin
  for i in 1..n loop
    begin
      insert into rvw_tmp values (i % 7);
    exception when unique_violation then
      d := d + 1;
    end;
  end loop;
  return d;
end $$;
begin;
insert into rvw_tmp values (100); insert into rvw_unl values (100); insert into rvw_par values (99); insert into rvw_inh values (100);
select rvw_many('tmp', 50), rvw_many('unl', 50), rvw_many('par', 200), rvw_many('inh', 50), rvw_tmp_only(100);
select (select count(*) from rvw_tmp), (select count(*) from rvw_unl), (select count(*) from rvw_par), (select count(*) from rvw_inh);
commit;
begin read only;
select rvw_tmp_only(10);
rollback;
begin isolation level serializable;
select rvw_tmp_only(10);
insert into rvw_unl values (1000);
select rvw_many('unl', 20);
commit;
SELECT public.whe_chk_path(405, 390, 0);
-- exit_on_error, in a second session
create table rvw_eoe_t (k int primary key);
insert into rvw_eoe_t select g from generate_series(0, 4) g;
create function rvw_eoe(lo int, hi int) returns int language plpgsql as $$
declare dup int := 0;
begin
  for i in lo..hi loop
    begin
      insert into rvw_eoe_t(k) values (i % 5);
    exception when unique_violation then
      dup := dup + 1;
    end;
  end loop;
  return dup;
end $$;
\setenv PGDATABASE :DBNAME
\! sh sql/separate/run.sh exit_on_error_write_path
\c
select count(*) from rvw_eoe_t;
SELECT public.whe_chk_path(0, 0, 0);
