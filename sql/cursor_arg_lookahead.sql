-- cursor_arg_lookahead: at each argument of a bound cursor (OPEN c(...),
-- FOR r IN c(...)) PL/pgSQL reads two tokens ahead, to see whether it is
-- "name := value", whatever the first token is.  So a scanning error in
-- the second token (trailing junk after a number) is reported before the
-- argument itself is found missing or wrong.  (Found by the fuzzer.)
CREATE FUNCTION cal_open_empty() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (hi integer) FOR SELECT hi;
BEGIN
    OPEN c(,1hi);
END$$;
CREATE FUNCTION cal_for_empty() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (hi integer) FOR SELECT hi;
BEGIN
    FOR r IN c(,1hi LOOP
    END LOOP;
END$$;
CREATE FUNCTION cal_second_arg() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    OPEN c(1, ) 2x;
END$$;
CREATE FUNCTION cal_close_paren() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (hi integer) FOR SELECT hi;
BEGIN
    OPEN c() 3y;
END$$;
-- without a scanning error, the argument's own error stays
CREATE FUNCTION cal_plain() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (hi integer) FOR SELECT hi;
BEGIN
    OPEN c(, 1);
END$$;
-- named arguments still work
CREATE FUNCTION cal_named() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo || '-' || hi;
    r text;
BEGIN
    OPEN c(hi := 2, lo := 1);
    FETCH c INTO r;
    RETURN r;
END$$;
SELECT cal_named();
-- the look-ahead reads raw tokens: an identifier as the second token is
-- not followed further, so junk after it is not scanned before the
-- missing argument is found (fuzz case 588a3bcd0a)
CREATE FUNCTION cal_close_paren() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (hi integer) FOR SELECT;
BEGIN
    OPEN c()y3 3DEBUG
END$$;
-- a named argument whose name is a variable, and an unreserved keyword as
-- an argument's name
CREATE FUNCTION cal_named_var() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    hi integer := 5;
    debug integer := 7;
    c CURSOR (hi integer, debug integer) FOR SELECT hi || '/' || debug;
    r text;
BEGIN
    OPEN c(debug := hi, hi := debug);
    FETCH c INTO r;
    RETURN r;
END$$;
SELECT cal_named_var();
