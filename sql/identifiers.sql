-- identifiers: how names and literals are lexed in function bodies --
-- case folding, quoted identifiers, unreserved PL keywords used as
-- variable names, reserved words that cannot be, and the various string
-- literal forms (E'', dollar quotes with tags, doubled quotes).

-- unquoted names fold to lower case
CREATE FUNCTION id_fold() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    MyVar integer := 1;
BEGIN
    myvar := MYVAR + 1;
    RETURN MyVaR;
END
$$;
SELECT id_fold();

-- quoted identifiers are case-sensitive and may contain spaces
CREATE FUNCTION id_quoted() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    "Mixed Case" text := 'quoted';
    "lower" text := 'plain';
BEGIN
    RETURN "Mixed Case" || ' ' || lower || ' ' || "lower";
END
$$;
SELECT id_quoted();

-- a quoted name differing only in case is a different variable
CREATE FUNCTION id_quoted_miss() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    "Val" text := 'upper';
BEGIN
    RETURN val;
END
$$;
SELECT id_quoted_miss();

-- unreserved PL keywords work as variable names
CREATE FUNCTION id_unreserved() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    message text := 'm';
    hint text := 'h';
    detail text := 'd';
    result text := 'r';
    "constant" text := 'c';
    alias text := 'a';
    reverse integer := 3;
    slice integer := 4;
BEGIN
    RETURN message || hint || detail || result || "constant" || alias || reverse || slice;
END
$$;
SELECT id_unreserved();

-- reserved PL keywords cannot be used as variable names unquoted
CREATE FUNCTION id_reserved_begin() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    begin integer := 1;
BEGIN
    RETURN 1;
END
$$;
CREATE FUNCTION id_reserved_loop() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    loop integer := 1;
BEGIN
    RETURN 1;
END
$$;

-- ...but are fine quoted
CREATE FUNCTION id_reserved_quoted() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    "begin" integer := 1;
    "end" integer := 2;
BEGIN
    "begin" := "begin" + "end";
    RETURN "begin";
END
$$;
SELECT id_reserved_quoted();

-- names with digits, underscores and dollar signs
CREATE FUNCTION id_chars() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    _x1 integer := 1;
    a$b integer := 2;
    x_2_y integer := 3;
BEGIN
    RETURN _x1::text || a$b || x_2_y;
END
$$;
SELECT id_chars();

-- non-ASCII identifiers
CREATE FUNCTION id_unicode() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    größe integer := 5;
    "ÉTÉ" text := 'summer';
BEGIN
    RETURN größe || ' ' || "ÉTÉ";
END
$$;
SELECT id_unicode();

-- string literal forms inside the body
CREATE FUNCTION id_strings() RETURNS void LANGUAGE plnimble AS $func$
DECLARE
    a text := 'it''s';
    b text := E'tab\there, newline-escape \\n stays';
    c text := $$dollar 'quoted'$$;
    d text := $tag$with $$ inside$tag$;
    e text := U&'\0041BC';
BEGIN
    RAISE NOTICE '[%] [%] [%] [%] [%]', a, b, c, d, e;
    RAISE NOTICE 'length of E-string: %', length(E'a\nb');
    RAISE NOTICE $$format string in dollar quotes: %$$, 1;
END
$func$;
SELECT id_strings();

-- the body itself single-quoted, with doubled quotes
CREATE FUNCTION id_single_quoted_body() RETURNS text LANGUAGE plnimble AS '
DECLARE
    s text := ''inner '''' quote'';
BEGIN
    RETURN s;
END
';
SELECT id_single_quoted_body();

-- a variable named like a function
CREATE FUNCTION id_func_name() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    upper text := 'var';
BEGIN
    RETURN upper(upper);
END
$$;
SELECT id_func_name();

-- a variable named like a type
CREATE FUNCTION id_type_name() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    text integer := 7;
BEGIN
    RETURN text * 2;
END
$$;
SELECT id_type_name();

-- keyword-like statement words are case-insensitive everywhere
CREATE FUNCTION id_case_keywords(x integer) RETURNS text LANGUAGE plnimble AS $$
declare
    R TEXT := '';
Begin
    For I In 1..x Loop
        r := r || i;
    End Loop;
    If x > 2 Then Return r || '+'; ElsIf x > 0 Then Return r; End If;
    Return 'none';
END
$$;
SELECT id_case_keywords(3), id_case_keywords(1), id_case_keywords(0);

-- very long identifiers are truncated to 63 bytes, with a notice
CREATE FUNCTION id_long() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    a_very_long_variable_name_that_goes_on_and_on_past_the_limit_of_63 integer := 1;
BEGIN
    RETURN a_very_long_variable_name_that_goes_on_and_on_past_the_limit_of_63;
END
$$;
SELECT id_long();
