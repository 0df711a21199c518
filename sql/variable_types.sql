-- variable_types: variables of many scalar types (integer, smallint,
-- bigint, numeric(p,s), real, float8, text, varchar(n), char(n), boolean,
-- date, timestamp, interval, time, uuid, json, jsonb, bytea, inet, regtype),
-- length/precision limits enforced on assignment and in defaults, %TYPE.

-- many scalar types
CREATE FUNCTION d_types() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    v_int integer := 2147483647;
    v_small smallint := -32768;
    v_big bigint := 9223372036854775807;
    v_num numeric(10,2) := 12345.678;
    v_num_plain numeric := 1.0 / 3;
    v_f4 real := 1.5;
    v_f8 float8 := 2.5e10;
    v_text text := 'some text';
    v_vc varchar(5) := 'abc';
    v_char char(4) := 'ab';
    v_bool boolean := true;
    v_bool2 bool := 'off';
    v_date date := '2024-02-29';
    v_ts timestamp := '2001-02-03 04:05:06.5';
    v_interval interval := '1 day 2 hours';
    v_time time := '13:45';
    v_uuid uuid := 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
    v_json json := '{"a": [1, 2]}';
    v_jsonb jsonb := '{"b": 1, "a": 2}';
    v_bytea bytea := '\x0102ff';
    v_inet inet := '192.168.0.1/24';
    v_oid regtype := 'integer';
BEGIN
    RAISE NOTICE 'int %, smallint %, bigint %', v_int, v_small, v_big;
    RAISE NOTICE 'numeric(10,2) %, numeric %', v_num, v_num_plain;
    RAISE NOTICE 'real %, float8 %', v_f4, v_f8;
    RAISE NOTICE 'text [%], varchar [%], char [%]', v_text, v_vc, v_char;
    RAISE NOTICE 'bool %, bool %', v_bool, v_bool2;
    RAISE NOTICE 'date %, timestamp %, interval %, time %', v_date, v_ts, v_interval, v_time;
    RAISE NOTICE 'uuid %', v_uuid;
    RAISE NOTICE 'json %, jsonb %', v_json, v_jsonb;
    RAISE NOTICE 'bytea %, inet %, regtype %', v_bytea, v_inet, v_oid;
END
$$;
SELECT d_types();

-- varchar(n): explicit-length overflow on assignment
CREATE FUNCTION d_varchar(s text) RETURNS varchar LANGUAGE plnimble AS $$
DECLARE
    v varchar(5);
BEGIN
    v := s;
    RETURN v;
END
$$;
SELECT d_varchar('abcde');
SELECT d_varchar('abcdef');
-- trailing spaces beyond the limit are silently trimmed
SELECT d_varchar('abc      ') || '|' AS trimmed;

-- the same overflow in a declaration default
CREATE FUNCTION d_varchar_default() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v varchar(3) := 'toolong';
BEGIN
    RETURN v;
END
$$;
SELECT d_varchar_default();

-- numeric(10,2) rounds on assignment and overflows past its precision
CREATE FUNCTION d_numeric(x numeric) RETURNS numeric LANGUAGE plnimble AS $$
DECLARE
    v numeric(5,2);
BEGIN
    v := x;
    RETURN v;
END
$$;
SELECT d_numeric(1.005), d_numeric(-999.994);
SELECT d_numeric(1000);

-- %TYPE of a variable and of a table column
CREATE TABLE d_tab (id integer, name varchar(4));
CREATE FUNCTION d_pcttype() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    a numeric(4,1) := 2.25;
    b a%TYPE := 7.77;
    n d_tab.name%TYPE := 'abcd';
BEGIN
    RETURN a || ' ' || b || ' ' || n;
END
$$;
SELECT d_pcttype();


-- invalid input for several types, from a text value at run time
CREATE FUNCTION vt_bad_input(kind text, val text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    u uuid;
    j json;
    jb jsonb;
    ts timestamp;
    iv interval;
    ip inet;
BEGIN
    CASE kind
        WHEN 'uuid' THEN u := val; RETURN u;
        WHEN 'json' THEN j := val; RETURN j;
        WHEN 'jsonb' THEN jb := val; RETURN jb;
        WHEN 'timestamp' THEN ts := val; RETURN ts;
        WHEN 'interval' THEN iv := val; RETURN iv;
        WHEN 'inet' THEN ip := val; RETURN ip;
    END CASE;
END
$$;
SELECT vt_bad_input('uuid', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11');
SELECT vt_bad_input('uuid', 'not-a-uuid');
SELECT vt_bad_input('json', '[1, 2');
SELECT vt_bad_input('jsonb', '{"k": 1, "k": 2}');
SELECT vt_bad_input('timestamp', '2020-13-01 00:00');
SELECT vt_bad_input('interval', '3 fortnights');
SELECT vt_bad_input('inet', '10.0.0.256');

-- special floating-point and numeric values
CREATE FUNCTION vt_special() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    f float8 := 'Infinity';
    g float8 := '-inf';
    n numeric := 'NaN';
    r real := 1.0 / 3;
BEGIN
    RAISE NOTICE 'f=% g=% n=% r=% f>1e308=%', f, g, n, r, f > 1e308;
    f := f - f;
    RAISE NOTICE 'inf - inf = %', f;
END
$$;
SELECT vt_special();

-- date, timestamp and interval arithmetic held in variables
CREATE FUNCTION vt_dates() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    d date := '2024-01-31';
    ts timestamp := '2024-01-31 23:30:00';
    iv interval := '45 minutes';
    diff integer;
BEGIN
    d := d + 30;
    ts := ts + iv;
    diff := d - '2024-01-01'::date;
    RAISE NOTICE 'd=% ts=% diff=% month=%', d, ts, diff, extract(month FROM ts);
END
$$;
SELECT vt_dates();

-- bytea and text conversions
CREATE FUNCTION vt_bytea() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    b bytea := 'abc';
    t text;
BEGIN
    t := b;
    RAISE NOTICE 'bytea as text %, length %, byte 0 = %', t, length(b), get_byte(b, 0);
    b := b || '\x00ff'::bytea;
    RAISE NOTICE 'concatenated %', b;
END
$$;
SELECT vt_bytea();

-- type modifiers on parameter types are ignored: varchar(3) accepts more
CREATE FUNCTION vt_param_typmod(p varchar(3)) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    copy p%TYPE;
BEGIN
    copy := p || '!';
    RETURN copy;
END
$$;
SELECT vt_param_typmod('abcdef');
