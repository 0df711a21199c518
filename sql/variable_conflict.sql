-- variable_conflict: a PL variable or parameter named like a table column
-- used in a query gives the default "column reference ... is ambiguous"
-- error with its DETAIL; qualifying the column with the table or the
-- variable with its block label or function name resolves it; the
-- #variable_conflict directive and the plnimble.variable_conflict setting.

CREATE TABLE vc_people (id integer, name text, age integer);
INSERT INTO vc_people VALUES (1, 'ann', 30), (2, 'bob', 40);

-- a local variable with a column's name
CREATE FUNCTION vc_local() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    name text;
BEGIN
    SELECT name INTO name FROM vc_people WHERE id = 1;
    RETURN name;
END
$$;
SELECT vc_local();

-- a parameter with a column's name, in WHERE
CREATE FUNCTION vc_param(id integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    result text;
BEGIN
    SELECT vc_people.name INTO result FROM vc_people WHERE vc_people.id = id;
    RETURN result;
END
$$;
SELECT vc_param(2);

-- the same conflict in UPDATE and in an expression with a subquery
CREATE FUNCTION vc_update(age integer) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    UPDATE vc_people SET age = age + 1 WHERE id = 1;
END
$$;
SELECT vc_update(5);
CREATE FUNCTION vc_expr(age integer) RETURNS bigint LANGUAGE plnimble AS $$
BEGIN
    RETURN (SELECT count(*) FROM vc_people WHERE age > 35);
END
$$;
SELECT vc_expr(1);

-- qualifying the column with the table name (or an alias) still leaves
-- the unqualified variable reference ambiguous...
CREATE FUNCTION vc_half_qualified(id integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text;
BEGIN
    SELECT p.name INTO r FROM vc_people p WHERE p.id = id;
    RETURN r;
END
$$;
SELECT vc_half_qualified(1);

-- ...but qualifying the variable with the function name resolves it
CREATE FUNCTION vc_func_qualified(id integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text;
BEGIN
    SELECT p.name INTO r FROM vc_people p WHERE p.id = vc_func_qualified.id;
    RETURN r;
END
$$;
SELECT vc_func_qualified(1);

-- and so does qualifying a local variable with its block label
CREATE FUNCTION vc_label_qualified() RETURNS integer LANGUAGE plnimble AS $$
<<fn>>
DECLARE
    age integer := 35;
    n integer;
BEGIN
    SELECT count(*) INTO n FROM vc_people p WHERE p.age > fn.age;
    RETURN n;
END
$$;
SELECT vc_label_qualified();

-- INTO targets and names in the SELECT list that are not columns
-- never conflict
CREATE FUNCTION vc_into_only() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    name text;
    extra text := '!';
BEGIN
    SELECT p.name || extra INTO name FROM vc_people p WHERE p.id = 2;
    RETURN name;
END
$$;
SELECT vc_into_only();

-- column aliases in the query do not clash with variables
CREATE FUNCTION vc_alias() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    total integer := 1000;
    s integer;
BEGIN
    SELECT sum(x.total) INTO s FROM (SELECT age AS total FROM vc_people) x;
    RETURN s + total;
END
$$;
SELECT vc_alias();

-- #variable_conflict use_variable: the variable wins
CREATE FUNCTION vc_use_variable(age integer) RETURNS bigint LANGUAGE plnimble AS $$
#variable_conflict use_variable
BEGIN
    RETURN (SELECT count(*) FROM vc_people WHERE age > 35);
END
$$;
SELECT vc_use_variable(1), vc_use_variable(100);

-- #variable_conflict use_column: the column wins
CREATE FUNCTION vc_use_column(age integer) RETURNS bigint LANGUAGE plnimble AS $$
#variable_conflict use_column
BEGIN
    RETURN (SELECT count(*) FROM vc_people WHERE age > 35);
END
$$;
SELECT vc_use_column(1), vc_use_column(100);

-- #variable_conflict error is the default behaviour
CREATE FUNCTION vc_error(age integer) RETURNS bigint LANGUAGE plnimble AS $$
#variable_conflict error
BEGIN
    RETURN (SELECT count(*) FROM vc_people WHERE age > 35);
END
$$;
SELECT vc_error(1);

-- an unknown directive value
CREATE FUNCTION vc_bad_directive() RETURNS integer LANGUAGE plnimble AS $$
#variable_conflict use_whatever
BEGIN
    RETURN 1;
END
$$;

-- the GUC sets the default for functions compiled afterwards
SET plnimble.variable_conflict = use_column;
CREATE FUNCTION vc_guc(age integer) RETURNS bigint LANGUAGE plnimble AS $$
BEGIN
    RETURN (SELECT count(*) FROM vc_people WHERE age > 35);
END
$$;
SELECT vc_guc(100);
RESET plnimble.variable_conflict;

-- a conflict inside a DO block
DO LANGUAGE plnimble $$
DECLARE
    id integer := 1;
    n text;
BEGIN
    SELECT name INTO n FROM vc_people WHERE id = id;
    RAISE NOTICE '%', n;
END
$$;
