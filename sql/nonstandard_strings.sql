-- nonstandard_strings: bodies read with standard_conforming_strings off,
-- where '...' literals are escape strings as in E'...': backslash escapes
-- in RAISE format strings and options, the "nonstandard use of ..."
-- warning once per such literal as the body is scanned (and again when the
-- server parses the SQL that holds it, as under PL/pgSQL), warnings at a
-- later compilation (no excerpt of the body), escape_string_warning off,
-- backslash_quote off, and lexical errors at a first-call compilation.
SET standard_conforming_strings = off;
CREATE FUNCTION ns_raise() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  RAISE NOTICE 'a\\b\041c\x41\u0042 %', 'x\\y';
  RAISE NOTICE E'e\\e \'q\' %', E'f\\f';
  RAISE NOTICE 'it''s \'q\'';
  RAISE NOTICE 'oct \101\102 tab[\t] other[\q]';
  RAISE NOTICE 'line\
break';
  -- a comment with 'a\\b' is no literal
  RETURN 'r\\r';
END $$;
SELECT ns_raise();
DO $$ BEGIN RAISE NOTICE 'in DO: \\ %', '\x41'; END $$;
DO $$ BEGIN RAISE EXCEPTION USING MESSAGE = 'm\\m', DETAIL = 'd\td'; END $$;
DO $$ DECLARE t text := 'x\ty'; BEGIN RAISE NOTICE '[%]', t; END $$;
-- a new session compiles the function at its first call
\c
SET standard_conforming_strings = off;
SELECT ns_raise();
SET escape_string_warning = off;
DO $$ BEGIN RAISE NOTICE 'quiet \\ %', 'q\tq'; END $$;
RESET escape_string_warning;
SET backslash_quote = off;
DO $$ BEGIN RAISE NOTICE 'no \' here'; END $$;
DO $$ BEGIN RAISE NOTICE E'no \' here'; END $$;
DO $$ BEGIN RAISE NOTICE 'fine '' here'; END $$;
RESET backslash_quote;
-- \' does not end the literal
DO $$ BEGIN RAISE EXCEPTION 'unterminated \'; END $$;
-- lexical errors found when the body is compiled at its first call
SET check_function_bodies = off;
CREATE FUNCTION ns_unterminated() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  RETURN 'abc;
END $$;
SELECT ns_unterminated();
CREATE FUNCTION ns_warned() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  RAISE NOTICE 'a\\b';
  RETURN 'x';
END $$;
SELECT ns_warned();
RESET check_function_bodies;
-- with standard_conforming_strings on, backslashes are plain characters
SET standard_conforming_strings = on;
SELECT ns_raise();
DO $$ BEGIN RAISE NOTICE 'a\\b %', 'c\\d'; END $$;

-- escapes that make a zero byte or invalid text are refused by the scanner
SET standard_conforming_strings = off;
DO $$ declare b bytea; begin b := '\x00ff'::bytea; end $$;
DO $$ begin raise notice 'x\000y'; end $$;
DO $$ begin raise notice E'\xff'; end $$;
DO $$ begin raise notice E'\303\251 ok'; end $$;
RESET standard_conforming_strings;
DO $$ begin raise notice E'\x00'; end $$;
