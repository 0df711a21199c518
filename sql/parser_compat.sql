-- parser_compat: where plnimble's parser must read a body exactly as
-- PL/pgSQL's does.  Every unreserved PL keyword as a variable name (at the
-- start of a statement such a word is a keyword unless an assignment or
-- '[' follows); statements starting with such words next to variables of
-- the same name (RETURN return, COMMENT ON ...); name%TYPE where the name is
-- a data type, and PL/pgSQL's lookup rules for %TYPE and %ROWTYPE;
-- the text of a bad type name in the "invalid type name" context;
-- CREATE FUNCTION / PROCEDURE ... BEGIN ATOMIC ... END and CREATE RULE
-- with a parenthesised list of commands as statements of a body; the
-- SQLSTATEs of FETCH with a multi-row direction and of PERFORM ... INTO.

-- each unreserved keyword as a variable: declared, assigned at the start
-- of a statement, read in an expression (some are reserved in SQL, and the
-- SQL parser then refuses the expression under both languages)
DO $$ DECLARE absolute int := 1; BEGIN absolute := absolute + 1; RAISE NOTICE 'absolute: %', absolute; END $$;
DO $$ DECLARE alias int := 1; BEGIN alias := alias + 1; RAISE NOTICE 'alias: %', alias; END $$;
DO $$ DECLARE and int := 1; BEGIN and := and + 1; RAISE NOTICE 'and: %', and; END $$;
DO $$ DECLARE array int := 1; BEGIN array := array + 1; RAISE NOTICE 'array: %', array; END $$;
DO $$ DECLARE assert int := 1; BEGIN assert := assert + 1; RAISE NOTICE 'assert: %', assert; END $$;
DO $$ DECLARE backward int := 1; BEGIN backward := backward + 1; RAISE NOTICE 'backward: %', backward; END $$;
DO $$ DECLARE call int := 1; BEGIN call := call + 1; RAISE NOTICE 'call: %', call; END $$;
DO $$ DECLARE chain int := 1; BEGIN chain := chain + 1; RAISE NOTICE 'chain: %', chain; END $$;
DO $$ DECLARE close int := 1; BEGIN close := close + 1; RAISE NOTICE 'close: %', close; END $$;
DO $$ DECLARE collate int := 1; BEGIN collate := collate + 1; RAISE NOTICE 'collate: %', collate; END $$;
DO $$ DECLARE column int := 1; BEGIN column := column + 1; RAISE NOTICE 'column: %', column; END $$;
DO $$ DECLARE column_name int := 1; BEGIN column_name := column_name + 1; RAISE NOTICE 'column_name: %', column_name; END $$;
DO $$ DECLARE commit int := 1; BEGIN commit := commit + 1; RAISE NOTICE 'commit: %', commit; END $$;
DO $$ DECLARE constant int := 1; BEGIN constant := constant + 1; RAISE NOTICE 'constant: %', constant; END $$;
DO $$ DECLARE constraint int := 1; BEGIN constraint := constraint + 1; RAISE NOTICE 'constraint: %', constraint; END $$;
DO $$ DECLARE constraint_name int := 1; BEGIN constraint_name := constraint_name + 1; RAISE NOTICE 'constraint_name: %', constraint_name; END $$;
DO $$ DECLARE continue int := 1; BEGIN continue := continue + 1; RAISE NOTICE 'continue: %', continue; END $$;
DO $$ DECLARE current int := 1; BEGIN current := current + 1; RAISE NOTICE 'current: %', current; END $$;
DO $$ DECLARE cursor int := 1; BEGIN cursor := cursor + 1; RAISE NOTICE 'cursor: %', cursor; END $$;
DO $$ DECLARE datatype int := 1; BEGIN datatype := datatype + 1; RAISE NOTICE 'datatype: %', datatype; END $$;
DO $$ DECLARE debug int := 1; BEGIN debug := debug + 1; RAISE NOTICE 'debug: %', debug; END $$;
DO $$ DECLARE default int := 1; BEGIN default := default + 1; RAISE NOTICE 'default: %', default; END $$;
DO $$ DECLARE detail int := 1; BEGIN detail := detail + 1; RAISE NOTICE 'detail: %', detail; END $$;
DO $$ DECLARE diagnostics int := 1; BEGIN diagnostics := diagnostics + 1; RAISE NOTICE 'diagnostics: %', diagnostics; END $$;
DO $$ DECLARE do int := 1; BEGIN do := do + 1; RAISE NOTICE 'do: %', do; END $$;
DO $$ DECLARE dump int := 1; BEGIN dump := dump + 1; RAISE NOTICE 'dump: %', dump; END $$;
DO $$ DECLARE elseif int := 1; BEGIN elseif := elseif + 1; RAISE NOTICE 'elseif: %', elseif; END $$;
DO $$ DECLARE elsif int := 1; BEGIN elsif := elsif + 1; RAISE NOTICE 'elsif: %', elsif; END $$;
DO $$ DECLARE errcode int := 1; BEGIN errcode := errcode + 1; RAISE NOTICE 'errcode: %', errcode; END $$;
DO $$ DECLARE error int := 1; BEGIN error := error + 1; RAISE NOTICE 'error: %', error; END $$;
DO $$ DECLARE exception int := 1; BEGIN exception := exception + 1; RAISE NOTICE 'exception: %', exception; END $$;
DO $$ DECLARE exit int := 1; BEGIN exit := exit + 1; RAISE NOTICE 'exit: %', exit; END $$;
DO $$ DECLARE fetch int := 1; BEGIN fetch := fetch + 1; RAISE NOTICE 'fetch: %', fetch; END $$;
DO $$ DECLARE first int := 1; BEGIN first := first + 1; RAISE NOTICE 'first: %', first; END $$;
DO $$ DECLARE forward int := 1; BEGIN forward := forward + 1; RAISE NOTICE 'forward: %', forward; END $$;
DO $$ DECLARE get int := 1; BEGIN get := get + 1; RAISE NOTICE 'get: %', get; END $$;
DO $$ DECLARE hint int := 1; BEGIN hint := hint + 1; RAISE NOTICE 'hint: %', hint; END $$;
DO $$ DECLARE import int := 1; BEGIN import := import + 1; RAISE NOTICE 'import: %', import; END $$;
DO $$ DECLARE info int := 1; BEGIN info := info + 1; RAISE NOTICE 'info: %', info; END $$;
DO $$ DECLARE insert int := 1; BEGIN insert := insert + 1; RAISE NOTICE 'insert: %', insert; END $$;
DO $$ DECLARE is int := 1; BEGIN is := is + 1; RAISE NOTICE 'is: %', is; END $$;
DO $$ DECLARE last int := 1; BEGIN last := last + 1; RAISE NOTICE 'last: %', last; END $$;
DO $$ DECLARE log int := 1; BEGIN log := log + 1; RAISE NOTICE 'log: %', log; END $$;
DO $$ DECLARE merge int := 1; BEGIN merge := merge + 1; RAISE NOTICE 'merge: %', merge; END $$;
DO $$ DECLARE message int := 1; BEGIN message := message + 1; RAISE NOTICE 'message: %', message; END $$;
DO $$ DECLARE message_text int := 1; BEGIN message_text := message_text + 1; RAISE NOTICE 'message_text: %', message_text; END $$;
DO $$ DECLARE move int := 1; BEGIN move := move + 1; RAISE NOTICE 'move: %', move; END $$;
DO $$ DECLARE next int := 1; BEGIN next := next + 1; RAISE NOTICE 'next: %', next; END $$;
DO $$ DECLARE no int := 1; BEGIN no := no + 1; RAISE NOTICE 'no: %', no; END $$;
DO $$ DECLARE notice int := 1; BEGIN notice := notice + 1; RAISE NOTICE 'notice: %', notice; END $$;
DO $$ DECLARE open int := 1; BEGIN open := open + 1; RAISE NOTICE 'open: %', open; END $$;
DO $$ DECLARE option int := 1; BEGIN option := option + 1; RAISE NOTICE 'option: %', option; END $$;
DO $$ DECLARE perform int := 1; BEGIN perform := perform + 1; RAISE NOTICE 'perform: %', perform; END $$;
DO $$ DECLARE pg_context int := 1; BEGIN pg_context := pg_context + 1; RAISE NOTICE 'pg_context: %', pg_context; END $$;
DO $$ DECLARE pg_datatype_name int := 1; BEGIN pg_datatype_name := pg_datatype_name + 1; RAISE NOTICE 'pg_datatype_name: %', pg_datatype_name; END $$;
DO $$ DECLARE pg_exception_context int := 1; BEGIN pg_exception_context := pg_exception_context + 1; RAISE NOTICE 'pg_exception_context: %', pg_exception_context; END $$;
DO $$ DECLARE pg_exception_detail int := 1; BEGIN pg_exception_detail := pg_exception_detail + 1; RAISE NOTICE 'pg_exception_detail: %', pg_exception_detail; END $$;
DO $$ DECLARE pg_exception_hint int := 1; BEGIN pg_exception_hint := pg_exception_hint + 1; RAISE NOTICE 'pg_exception_hint: %', pg_exception_hint; END $$;
DO $$ DECLARE print_strict_params int := 1; BEGIN print_strict_params := print_strict_params + 1; RAISE NOTICE 'print_strict_params: %', print_strict_params; END $$;
DO $$ DECLARE prior int := 1; BEGIN prior := prior + 1; RAISE NOTICE 'prior: %', prior; END $$;
DO $$ DECLARE query int := 1; BEGIN query := query + 1; RAISE NOTICE 'query: %', query; END $$;
DO $$ DECLARE raise int := 1; BEGIN raise := raise + 1; RAISE NOTICE 'raise: %', raise; END $$;
DO $$ DECLARE relative int := 1; BEGIN relative := relative + 1; RAISE NOTICE 'relative: %', relative; END $$;
DO $$ DECLARE return int := 1; BEGIN return := return + 1; RAISE NOTICE 'return: %', return; END $$;
DO $$ DECLARE returned_sqlstate int := 1; BEGIN returned_sqlstate := returned_sqlstate + 1; RAISE NOTICE 'returned_sqlstate: %', returned_sqlstate; END $$;
DO $$ DECLARE reverse int := 1; BEGIN reverse := reverse + 1; RAISE NOTICE 'reverse: %', reverse; END $$;
DO $$ DECLARE rollback int := 1; BEGIN rollback := rollback + 1; RAISE NOTICE 'rollback: %', rollback; END $$;
DO $$ DECLARE row_count int := 1; BEGIN row_count := row_count + 1; RAISE NOTICE 'row_count: %', row_count; END $$;
DO $$ DECLARE rowtype int := 1; BEGIN rowtype := rowtype + 1; RAISE NOTICE 'rowtype: %', rowtype; END $$;
DO $$ DECLARE schema int := 1; BEGIN schema := schema + 1; RAISE NOTICE 'schema: %', schema; END $$;
DO $$ DECLARE schema_name int := 1; BEGIN schema_name := schema_name + 1; RAISE NOTICE 'schema_name: %', schema_name; END $$;
DO $$ DECLARE scroll int := 1; BEGIN scroll := scroll + 1; RAISE NOTICE 'scroll: %', scroll; END $$;
DO $$ DECLARE slice int := 1; BEGIN slice := slice + 1; RAISE NOTICE 'slice: %', slice; END $$;
DO $$ DECLARE sqlstate int := 1; BEGIN sqlstate := sqlstate + 1; RAISE NOTICE 'sqlstate: %', sqlstate; END $$;
DO $$ DECLARE stacked int := 1; BEGIN stacked := stacked + 1; RAISE NOTICE 'stacked: %', stacked; END $$;
DO $$ DECLARE table int := 1; BEGIN table := table + 1; RAISE NOTICE 'table: %', table; END $$;
DO $$ DECLARE table_name int := 1; BEGIN table_name := table_name + 1; RAISE NOTICE 'table_name: %', table_name; END $$;
DO $$ DECLARE type int := 1; BEGIN type := type + 1; RAISE NOTICE 'type: %', type; END $$;
DO $$ DECLARE use_column int := 1; BEGIN use_column := use_column + 1; RAISE NOTICE 'use_column: %', use_column; END $$;
DO $$ DECLARE use_variable int := 1; BEGIN use_variable := use_variable + 1; RAISE NOTICE 'use_variable: %', use_variable; END $$;
DO $$ DECLARE variable_conflict int := 1; BEGIN variable_conflict := variable_conflict + 1; RAISE NOTICE 'variable_conflict: %', variable_conflict; END $$;
DO $$ DECLARE warning int := 1; BEGIN warning := warning + 1; RAISE NOTICE 'warning: %', warning; END $$;

-- RETURN followed by a variable named return
CREATE FUNCTION pc_return() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  return int := 1;
BEGIN
  return := return + 41;
  RETURN return;
END $$;
SELECT pc_return();

-- COMMENT ON is SQL even with a variable named comment
CREATE FUNCTION pc_comment() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  comment text := 'noted';
BEGIN
  comment on function pc_comment() is 'set from the body';
  comment := comment || '!';
  RETURN comment;
END $$;
SELECT pc_comment();
SELECT obj_description('pc_comment'::regproc, 'pg_proc');

-- statement keywords that are also variables, after THEN, ELSE, LOOP, BEGIN
CREATE FUNCTION pc_keywords(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  raise int := n;
  exit int := 0;
  open text := 'o';
  insert int[] := '{1,2,3}';
  get int := 7;
BEGIN
  IF raise > 1 THEN raise NOTICE 'raise is %', raise; ELSE raise := raise * 10; END IF;
  LOOP exit := exit + 1; EXIT WHEN exit >= 3; END LOOP;
  insert[2] := exit;
  BEGIN open := open || get; END;
  RETURN format('%s %s %s %s', raise, exit, open, insert);
END $$;
SELECT pc_keywords(1), pc_keywords(5);

-- a variable named like a statement keyword, at the start of a statement
-- without an assignment, is the keyword
DO $$ DECLARE perform int := 1; BEGIN perform perform; RAISE NOTICE '%', perform; END $$;
DO $$ DECLARE fetch int := 1; BEGIN fetch = 2; END $$;
DO $$ DECLARE close int := 1; BEGIN close; END $$;

-- name%TYPE: a variable, else a data type of that name
DO $$
DECLARE
  t text%TYPE := 'text';
  c refcursor%TYPE;
  i int4%TYPE := 3;
  j i%TYPE := 4;
BEGIN
  RAISE NOTICE '% % % % %', t, c, i, j, pg_typeof(j);
END $$;
CREATE TYPE pc_pair AS (a int, b int);
CREATE TABLE pc_tab (a int, b varchar(5));
CREATE INDEX pc_tab_a ON pc_tab (a);
CREATE DOMAIN pc_dom AS int CHECK (VALUE > 0);
DO $$ DECLARE d pc_dom%TYPE := 5; BEGIN RAISE NOTICE '% %', d, pg_typeof(d); END $$;
-- a row type or a record variable is no %TYPE
DO $$ DECLARE x pc_pair%TYPE; BEGIN END $$;
DO $$ DECLARE r record; x r%TYPE; BEGIN END $$;
DO $$ DECLARE x no_such_name%TYPE; BEGIN END $$;
-- table.column%TYPE and schema.table.column%TYPE, label.variable%TYPE
DO $$
<<outer>>
DECLARE
  v numeric(4,1) := 1.25;
BEGIN
  DECLARE
    a pc_tab.a%TYPE := 5;
    b public.pc_tab.b%TYPE := 'abcde';
    w outer.v%TYPE := 2.25;
  BEGIN
    RAISE NOTICE '% % %', a, b, w;
  END;
END $$;
-- an index has columns but no %TYPE; label.variable.x is no variable
DO $$ DECLARE x pc_tab_a.a%TYPE; BEGIN END $$;
DO $$ <<l>> DECLARE v int; BEGIN DECLARE x l.v.w%TYPE; BEGIN END; END $$;
-- %ROWTYPE
DO $$ DECLARE r pc_tab%ROWTYPE; s public.pc_tab%ROWTYPE; BEGIN RAISE NOTICE '% %', r, s; END $$;
DO $$ DECLARE r no_such_table%ROWTYPE; BEGIN END $$;
DO $$ DECLARE r public.no_such_table%ROWTYPE; BEGIN END $$;
DO $$ DECLARE r pc_tab_a%ROWTYPE; BEGIN END $$;
DO $$ DECLARE r x.public.pc_tab%ROWTYPE; BEGIN END $$;

-- the text of a bad type name runs up to what follows it, spaces included
DO $$ DECLARE x foo bar := 1; BEGIN END $$;
DO $$ DECLARE x int%foo   := 1; BEGIN END $$;
DO $$ DECLARE x no_such_type ; BEGIN END $$;
DO $$ DECLARE x no_such_type
  NOT NULL := 1; BEGIN END $$;

-- SQL-standard bodies and rules with several commands inside a body
CREATE TABLE pc_log (n int, s text);
DO $$
BEGIN
  CREATE FUNCTION pc_atomic(x int) RETURNS int LANGUAGE sql
  BEGIN ATOMIC
    SELECT CASE WHEN x > 0 THEN x ELSE -x END;
  END;
  CREATE OR REPLACE PROCEDURE pc_atomic_proc(x int) LANGUAGE sql
  BEGIN ATOMIC
    INSERT INTO pc_log VALUES (x, 'first');
    INSERT INTO pc_log VALUES (x + 1, 'second');
  END;
  create procedure pc_empty() language sql begin atomic; end;
  CREATE RULE pc_log_upd AS ON UPDATE TO pc_log DO INSTEAD
    (INSERT INTO pc_log VALUES (-1, 'rule'); INSERT INTO pc_log VALUES (-2, 'rule'));
  RAISE NOTICE 'pc_atomic(-7) = %', pc_atomic(-7);
END $$;
CALL pc_atomic_proc(10);
CALL pc_empty();
UPDATE pc_log SET n = 0;
SELECT * FROM pc_log ORDER BY n;
-- an unfinished body is still an unfinished statement
DO $$ BEGIN CREATE FUNCTION pc_bad() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; $$;

-- SQLSTATEs
\set VERBOSITY sqlstate
DO $$ DECLARE c CURSOR FOR SELECT 1; x int; BEGIN OPEN c; FETCH 2 FROM c INTO x; END $$;
DO $$ DECLARE c CURSOR FOR SELECT 1; x int; BEGIN OPEN c; FETCH ALL FROM c INTO x; END $$;
DO $$ DECLARE x int; BEGIN PERFORM 1 INTO x; END $$;
\set VERBOSITY default
DO $$ DECLARE c CURSOR FOR SELECT 1; x int; BEGIN OPEN c; FETCH 2 FROM c INTO x; END $$;
DO $$ DECLARE x int; BEGIN PERFORM 1 INTO x; END $$;

-- syntax errors name what PL/pgSQL names: CALL and DO read up to a ';'
-- outside parentheses, dotted names are shown unquoted, the expected
-- terminator of a cursor argument
CREATE PROCEDURE pc_proc(a int) LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'pc_proc %', a; END $$;
DO $$ BEGIN CALL pc_proc(1; END $$;
DO $$ BEGIN CALL pc_proc 1); END $$;
DO $$ BEGIN CALL pc_proc((2)); END $$;
DO $$ BEGIN DO 'BEGIN RAISE NOTICE ''nested''; END'; END $$;
DO $$ BEGIN NEW.ARRAY := 1; END $$;
DO $$ <<"Outer">> DECLARE x int; BEGIN "Outer".nosuch := 1; END $$;
DO $$ DECLARE c CURSOR (a int, b int) FOR SELECT a, b; BEGIN OPEN c (1, 2; END $$;

-- quoted strings continued after a newline, bit, hex and Unicode strings as
-- tokens of their own
DO $$ declare x int; begin x := length('ab'-- c
 'cd'); raise notice '% %', x, 'a' || 'b'-- x
 ; end $$;
DO $$ begin raise notice 'a'
-- only a comment

  'b'
  'c'; end $$;
DO $$ begin raise notice '%', 'a'-'1'; end $$;
DO $$ begin raise notice '%', 'x' = 'x'; end $$;
DO $$ declare b bit(4) := B'1010'; h bit(8) := X'1F'; begin raise notice '% %', b, h; end $$;
DO $$ begin raise notice '%', B'10'
'01'; end $$;
DO $$ begin raise notice '%', B'10; end $$;
DO $$ begin raise notice '%', X'1F; end $$;
DO $$ begin raise notice '%', U&'a\0061; end $$;
DO $$ begin raise notice '%', U&'a\0061' UESCAPE '!'; end $$;
DO $$ begin raise notice '%', U&"a"; end $$;
DO $$ declare "a" int; begin U&"a" := 1; end $$;
DO $$ begin raise notice '%', U&""; end $$;
set standard_conforming_strings = off;
DO $$ begin raise notice '%', U&'a'; end $$;
DO $$ begin raise notice 'e\tf'
 'g\th'; end $$;
DO $$ begin raise notice 'q\'
 ''r'; end $$;
reset standard_conforming_strings;

-- cursor arguments by name: a reserved word or a dotted name is no name
DO $$ declare ca cursor (lo int, hi int) for select lo, hi; r record; begin for r in ca(not := 8, lo := 7) loop end loop; end $$;
DO $$ declare ca cursor (lo int, hi int) for select lo, hi; r record; begin for r in ca(hi := 8, lo := 7) loop raise notice '%', r; end loop; end $$;
DO $$ declare ca cursor ("in" int, hi int) for select 1; r record; begin for r in ca("in" := 8, hi := 7) loop raise notice '%', r; end loop; end $$;
DO $$ declare ca cursor (query int, hi int) for select query, hi; r record; begin for r in ca(query := 8, hi := 7) loop raise notice '%', r; end loop; end $$;
DO $$ declare hi int := 3; ca cursor (lo int, hi int) for select lo, hi; r record; begin open ca(hi := 8, lo := hi); fetch ca into r; raise notice '%', r; end $$;
DO $$ <<b>> declare hi int := 3; ca cursor (lo int, hi int) for select lo, hi; r record; begin open ca(b.hi := 8, lo := hi); end $$;

-- compile errors at the first call name the line PL/pgSQL names
SET check_function_bodies = off;
CREATE FUNCTION pc_late_execute() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RETURN 1;
  EXECUTE 'SELECT 1'
END $$;
SELECT pc_late_execute();
RESET check_function_bodies;

-- FOR ... IN EXECUTE reads its query before judging its target; a single
-- scalar target reads nothing more
DO $$ declare i int; begin for i in execute 'select 1' loop raise notice '%', i; end loop; end $$;
DO $$ declare i int; j int; begin for i, j in execute 'select 1, 2' loop raise notice '% %', i, j; end loop; end $$;
DO $$ begin for i in execute 1..2_0 loop end loop; end $$;
DO $$ declare i int; begin for i in select 1 loop raise notice '%', i; end loop; end $$;
DO $$ declare i int; begin for i in select 1 loop , end loop; end $$;

-- Unicode escapes in E'' strings: surrogate pairs, invalid values and forms
DO $$ begin raise notice E'\u00e9 \U0001F600'; end $$;
DO $$ begin raise notice E'\u0000'; end $$;
DO $$ begin raise notice E'\uD83D\uDE00'; end $$;
DO $$ begin raise notice E'\uD83D'; end $$;
DO $$ begin raise notice E'\uDE00'; end $$;
DO $$ begin raise notice E'\u12'; end $$;
DO $$ begin raise notice E'\U1234'; end $$;
DO $$ begin raise notice E'\uD83Dx'; end $$;
DO $$ begin raise notice E'\x'; end $$;
DO $$ begin raise notice E'\777'; end $$;
DO $$ begin raise notice U&'\0061'; end $$;
