-- Versions of the extension: installing the oldest version (0.1) and
-- updating to the newest gives the same objects as a fresh install; a
-- library newer than the installed SQL objects keeps running them and
-- warns once per session, naming ALTER EXTENSION plnimble UPDATE;
-- plnimble_version() reports the library's version, commit and build time.
-- plnimble-only (listed in oracle-allowlist.txt): the oracle database has
-- no plnimble extension.

-- everything the extension consists of, in a form to compare
CREATE TEMP VIEW ext_objects AS
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS object,
       CASE d.classid
           WHEN 'pg_proc'::regclass THEN pg_get_functiondef(d.objid)
           WHEN 'pg_language'::regclass THEN
               (SELECT format('trusted %s, handler %s, inline %s, validator %s, acl %s',
                              lanpltrusted, lanplcallfoid::regproc, laninline::regproc,
                              lanvalidator::regproc, lanacl)
                  FROM pg_language WHERE oid = d.objid)
       END AS definition,
       (SELECT proacl::text FROM pg_proc WHERE oid = d.objid
           AND d.classid = 'pg_proc'::regclass) AS acl,
       obj_description(d.objid, d.classid::regclass::text) AS comment
  FROM pg_depend d
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'plnimble')
UNION ALL
SELECT 'extension plnimble', format('version %s, schema %s, relocatable %s',
                                    extversion, extnamespace::regnamespace, extrelocatable),
       NULL, obj_description(oid, 'pg_extension')
  FROM pg_extension WHERE extname = 'plnimble';

-- the test database's language named plpgsql runs on plnimble's handlers
-- and goes with the extension
DROP EXTENSION plnimble CASCADE;

CREATE EXTENSION plnimble VERSION '0.1';
SELECT extversion FROM pg_extension WHERE extname = 'plnimble';

-- the 1.0 library runs 0.1's objects, and says once that they are old
CREATE FUNCTION up_blocks(n int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    RETURN 100 / n;
EXCEPTION WHEN division_by_zero THEN
    RETURN -1;
END
$$;
SELECT up_blocks(10), up_blocks(0);
DO LANGUAGE plnimble $$ BEGIN RAISE NOTICE 'still once'; END $$;
SELECT blocks_entered FROM plnimble_savepoint_stats();
-- a parallel worker is a session of its own but not the user's: it does
-- not say it again
CREATE FUNCTION up_safe(n int) RETURNS int LANGUAGE plnimble PARALLEL SAFE
    AS $$ BEGIN RETURN n + 1; END $$;
-- (16 renamed force_parallel_mode to debug_parallel_query)
SELECT CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END AS parallel_guc \gset
SET :parallel_guc = on;
SELECT up_safe(1);
RESET :parallel_guc;
DROP FUNCTION up_safe(int);

ALTER EXTENSION plnimble UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'plnimble';
SELECT up_blocks(10);
CREATE TEMP TABLE updated AS SELECT * FROM ext_objects;

-- a fresh install of the newest version
DROP EXTENSION plnimble CASCADE;
CREATE EXTENSION plnimble;
CREATE TEMP TABLE fresh AS SELECT * FROM ext_objects;

SELECT 'only after update' AS "where", object FROM
    (SELECT * FROM updated EXCEPT SELECT * FROM fresh) d
UNION ALL
SELECT 'only in fresh install', object FROM
    (SELECT * FROM fresh EXCEPT SELECT * FROM updated) d
ORDER BY 1, 2;
SELECT object FROM fresh ORDER BY object;

-- which build is loaded
SELECT library_version, sql_version,
       git_commit ~ '^([0-9a-f]{7,40}(-dirty)?|unknown)$' AS commit_looks_right,
       build_time ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$' AS time_looks_right
  FROM plnimble_version();
