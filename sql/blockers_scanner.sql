-- blockers_scanner: comments and numbers as PostgreSQL 15's SQL lexer reads
-- them.  A "/*" followed by an operator character ("/*+", "/**", a
-- "/*-----*/" banner) used to loop the compile forever; those run in a
-- second session (sql/separate/comment_runaway.sql) under a
-- statement_timeout.  Here: comments before the token that ends an
-- expression ("WHEN 1 -- one" then THEN, before ";", LOOP, "..", ","):
-- the expression's text ends at its last token, so that a comment does
-- not swallow what is put after it ("x IN (1 -- one)") and error
-- contexts show the text without it; bound cursor arguments with
-- comments (they used to become NULL); nested comments.  Numbers:
-- PostgreSQL 15 has no 0x/0o/0b prefixes and no underscores, a number
-- running into a name is "trailing junk", in every place a number can
-- stand (expressions, FOR bounds, SLICE, after the final END); the text
-- quoted by lexical errors.
\setenv PGDATABASE :DBNAME
\! sh sql/separate/run.sh comment_runaway
\c
-- comments before the end of an expression
CREATE FUNCTION cm_case(x int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
  CASE x WHEN 1 -- one
  THEN RETURN 'one';
  WHEN 2 /* two */ THEN RETURN 'two';
  WHEN 3, 4 -- three or four
  THEN RETURN 'three or four';
  ELSE -- other
    RETURN (CASE x WHEN 5 -- five
            THEN 'five' ELSE 'other' END);
  END CASE;
END $$;
SELECT cm_case(1), cm_case(2), cm_case(4), cm_case(5), cm_case(6);
CREATE FUNCTION cm_flow(x int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
  n int := 0 -- start
  ;
BEGIN
  IF x = 1 -- one
  THEN RETURN 'one';
  ELSIF x = 2 -- two
  THEN RETURN 'two';
  END IF;
  WHILE n < 3 -- three times
  LOOP
    n := n + 1 -- step
    ;
    EXIT WHEN n > 10 -- never
    ;
  END LOOP;
  FOR i IN 1 -- from
  .. 2 -- to
  BY 1 -- step
  LOOP n := n + i; END LOOP;
  RAISE NOTICE 'n = %, x = %', n -- first
  , x /* second */;
  RETURN 'other' -- x
  ;
END $$;
SELECT cm_flow(1), cm_flow(2), cm_flow(3);
-- the texts of failing expressions end at their last token
CREATE FUNCTION cm_errors(k int) RETURNS int LANGUAGE plnimble AS $$
DECLARE x int;
BEGIN
  IF k = 1 THEN x := 1/0 -- assigned
  ; END IF;
  IF k = 2 THEN
    CASE k WHEN 1/0 -- when
    THEN NULL; END CASE;
  END IF;
  IF k = 3 THEN
    FOR i IN 1 .. 1/0 -- upper bound
    LOOP NULL; END LOOP;
  END IF;
  IF k = 4 THEN RETURN 1/0 /* returned */ ; END IF;
  IF k = 5 THEN PERFORM 1/0 -- performed
  ; END IF;
  IF k = 6 THEN INSERT INTO nosuch VALUES (1) -- statement
  ; END IF;
  RETURN 0;
END $$;
SELECT cm_errors(1);
SELECT cm_errors(2);
SELECT cm_errors(3);
SELECT cm_errors(4);
SELECT cm_errors(5);
SELECT cm_errors(6);
-- bound cursor arguments with comments between them
CREATE FUNCTION cm_cursor() RETURNS text LANGUAGE plnimble AS $$
DECLARE
  c CURSOR (a int, b int) FOR SELECT a || ',' || b AS r;
  r text;
  s text := '';
BEGIN
  OPEN c (10 -- first
  , 20 -- second
  );
  FETCH c INTO r; CLOSE c;
  s := r;
  OPEN c (b := 2 -- second, by name
  , a := 1 /* first */);
  FETCH c INTO r; CLOSE c;
  s := s || ';' || r;
  FOR q IN c (5 -- x
  , 6) LOOP s := s || ';' || q.r; END LOOP;
  RETURN s;
END $$;
SELECT cm_cursor();
CREATE FUNCTION cm_cursor_err() RETURNS text LANGUAGE plnimble AS $$
DECLARE
  c CURSOR (a int, b int) FOR SELECT a || ',' || b AS r;
BEGIN
  OPEN c (b := 10 -- first
  , a := 1/0 -- second
  );
  RETURN 'opened';
END $$;
SELECT cm_cursor_err();
-- nested comments, comments in strings and names
CREATE FUNCTION cm_nested() RETURNS text LANGUAGE plnimble AS $$
DECLARE "a /* b" text := '/* not a comment */';
BEGIN
  /* outer /* inner */ still a comment; END; */
  RETURN "a /* b" || ' -- nor this' /* a /* b */ c */;
END $$;
SELECT cm_nested();
-- numbers
CREATE FUNCTION num_ok() RETURNS text LANGUAGE plnimble AS $$
DECLARE a int[] := '{{1,2},{3,4}}'; s int[];
BEGIN
  FOR i IN 1..2 LOOP NULL; END LOOP;
  FOREACH s SLICE 1 IN ARRAY a LOOP NULL; END LOOP;
  RETURN 1e3 || ' ' || 1.e2 || ' ' || .5 || ' ' || 2.5E-1 || ' ' || 007;
END $$;
SELECT num_ok();
CREATE FUNCTION num1() RETURNS int LANGUAGE plnimble AS $$ BEGIN IF false THEN RETURN 0x1F; END IF; RETURN 1; END $$;
CREATE FUNCTION num2() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 0o17; END $$;
CREATE FUNCTION num3() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 0b101; END $$;
CREATE FUNCTION num4() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 1_000; END $$;
CREATE FUNCTION num5() RETURNS int LANGUAGE plnimble AS $$ BEGIN FOR i IN 1_000..2000 LOOP END LOOP; RETURN 1; END $$;
CREATE FUNCTION num6() RETURNS int LANGUAGE plnimble AS $$ BEGIN FOR i IN 1..2_0 LOOP END LOOP; RETURN 1; END $$;
CREATE FUNCTION num7() RETURNS int LANGUAGE plnimble AS $$ DECLARE a int[]; x int[]; BEGIN FOREACH x SLICE 0x1 IN ARRAY a LOOP END LOOP; RETURN 1; END $$;
CREATE FUNCTION num8() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 1; END; 0x1F $$;
CREATE FUNCTION num9() RETURNS int LANGUAGE plnimble AS $$ DECLARE x int := 0x1F; BEGIN RETURN x; END $$;
CREATE FUNCTION num10() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 123abc; END $$;
CREATE FUNCTION num11() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 1e; END $$;
CREATE FUNCTION num12() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 1.5e+; END $$;
CREATE FUNCTION num13() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN .5e3x; END $$;
CREATE FUNCTION num14() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 1.x; END $$;
CREATE FUNCTION num15() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 0x; END $$;
CREATE FUNCTION num16() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN $1abc; END $$;
CREATE FUNCTION num17() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 12.34.5; END $$;
CREATE FUNCTION num18() RETURNS int LANGUAGE plnimble AS $$ BEGIN RAISE NOTICE '%', 1..2; END $$;
DO LANGUAGE plnimble $$ BEGIN RAISE NOTICE '%', 0x1F; END $$;
-- what lexical errors quote
CREATE FUNCTION lex1() RETURNS int LANGUAGE plnimble AS $$ DECLARE "" int; BEGIN RETURN 1; END $$;
CREATE FUNCTION lex2() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 'abc; END $$;
CREATE FUNCTION lex3() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN "abc; END $$;
CREATE FUNCTION lex4() RETURNS int LANGUAGE plnimble AS $q$ BEGIN RETURN $x$abc; END $q$;
CREATE FUNCTION lex5() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 1; /* open $$;
