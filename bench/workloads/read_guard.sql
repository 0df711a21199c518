-- read_guard: handler blocks whose work reads catalogs or settings (issue
-- 28), called once per row.  With the read guard none of them needs a
-- subtransaction, whether the lookup fails or not:
--
--   regclass:  begin return t::regclass::oid; exception when others then return null; end
--   regtype:   begin return t::regtype; exception when undefined_object then return null; end
--   privilege: begin return has_table_privilege(t, 'select'); exception when others then return null; end
--   timestamp: begin return t + interval '1 day'; exception when datetime_field_overflow then return null; end
--   setting:   begin return current_setting(t); exception when undefined_object then return null; end
--   strict:    begin select v into strict r from rg_keyed where k = key; return r;
--              exception when no_data_found then return null; end
--   exec:      begin execute format('select v from %I where k = 7', t) into r; return r;
--              exception when undefined_table then return null; end
--
-- Each case has a twin without the EXCEPTION clause (the _noexc cases, on
-- inputs that do not fail), and the derived ratios compare plnimble's time
-- with and without the clause.  Half of the inputs of the _mixed cases
-- fail.
--
-- @desc    read guard: regclass, regtype, has_table_privilege, timestamptz + interval, current_setting per row
-- @group   lazy
-- @order   70
-- @param   N 100000
-- @case    rg_regclass_mixed   | >=1.8 | lazy_off,n=@N@ | SELECT count(v) FROM (SELECT rg_regclass_@LANG@(s) AS v FROM rg_names) q
-- @case    rg_regclass_valid   | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_regclass_@LANG@(s) AS v FROM rg_names_valid) q
-- @case    rg_regclass_noexc   | info  | n=@N@          | SELECT count(v) FROM (SELECT rg_regclass_noexc_@LANG@(s) AS v FROM rg_names_valid) q
-- @case    rg_regtype_mixed    | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_regtype_@LANG@(s) AS v FROM rg_types) q
-- @case    rg_regtype_valid    | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_regtype_@LANG@(s) AS v FROM rg_types_valid) q
-- @case    rg_regtype_noexc    | info  | n=@N@          | SELECT count(v) FROM (SELECT rg_regtype_noexc_@LANG@(s) AS v FROM rg_types_valid) q
-- @case    rg_priv_mixed       | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_priv_@LANG@(s) AS v FROM rg_names) q
-- @case    rg_priv_valid       | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_priv_@LANG@(s) AS v FROM rg_names_valid) q
-- @case    rg_priv_noexc       | info  | n=@N@          | SELECT count(v) FROM (SELECT rg_priv_noexc_@LANG@(s) AS v FROM rg_names_valid) q
-- @case    rg_ts_mixed         | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_ts_@LANG@(t) AS v FROM rg_times) q
-- @case    rg_ts_valid         | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_ts_@LANG@(t) AS v FROM rg_times_valid) q
-- @case    rg_ts_noexc         | info  | n=@N@          | SELECT count(v) FROM (SELECT rg_ts_noexc_@LANG@(t) AS v FROM rg_times_valid) q
-- @case    rg_setting_mixed    | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_setting_@LANG@(s) AS v FROM rg_settings) q
-- @case    rg_setting_valid    | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_setting_@LANG@(s) AS v FROM rg_settings_valid) q
-- @case    rg_setting_noexc    | info  | n=@N@          | SELECT count(v) FROM (SELECT rg_setting_noexc_@LANG@(s) AS v FROM rg_settings_valid) q
-- @case    rg_strict_mixed     | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_strict_@LANG@(k) AS v FROM rg_keys) q
-- @case    rg_strict_valid     | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_strict_@LANG@(k) AS v FROM rg_keys_valid) q
-- @case    rg_strict_noexc     | info  | n=@N@          | SELECT count(v) FROM (SELECT rg_strict_noexc_@LANG@(k) AS v FROM rg_keys_valid) q
-- @case    rg_exec_mixed       | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_exec_@LANG@(s) AS v FROM rg_tables) q
-- @case    rg_exec_valid       | >=1.8 | n=@N@          | SELECT count(v) FROM (SELECT rg_exec_@LANG@(s) AS v FROM rg_tables_valid) q
-- @case    rg_exec_noexc       | info  | n=@N@          | SELECT count(v) FROM (SELECT rg_exec_noexc_@LANG@(s) AS v FROM rg_tables_valid) q
-- @derived rg_regclass_valid / rg_regclass_noexc, plnimble | rg_regclass_valid.plnimble / rg_regclass_noexc.plnimble | <=1.25
-- @derived rg_regtype_valid / rg_regtype_noexc, plnimble | rg_regtype_valid.plnimble / rg_regtype_noexc.plnimble | <=1.25
-- @derived rg_priv_valid / rg_priv_noexc, plnimble | rg_priv_valid.plnimble / rg_priv_noexc.plnimble | <=1.25
-- @derived rg_ts_valid / rg_ts_noexc, plnimble | rg_ts_valid.plnimble / rg_ts_noexc.plnimble | <=1.25
-- @derived rg_setting_valid / rg_setting_noexc, plnimble | rg_setting_valid.plnimble / rg_setting_noexc.plnimble | <=1.25
-- @derived rg_strict_valid / rg_strict_noexc, plnimble | rg_strict_valid.plnimble / rg_strict_noexc.plnimble | <=1.25
-- @derived rg_exec_valid / rg_exec_noexc, plnimble | rg_exec_valid.plnimble / rg_exec_noexc.plnimble | <=1.25
-- @derived rg_regclass_valid / rg_regclass_noexc, plpgsql (context) | rg_regclass_valid.plpgsql / rg_regclass_noexc.plpgsql | info

-- @@setup
-- A few names that exist and a few that do not, repeated; the same for
-- types and settings.  Times near the end of the timestamp range fail.
CREATE TABLE rg_tab (a int);
CREATE TABLE rg_names (s text);
INSERT INTO rg_names
  SELECT CASE WHEN g % 2 = 0 THEN (ARRAY['rg_tab', 'pg_class', 'pg_type'])[g % 3 + 1]
              ELSE 'rg_missing_' || (g % 7) END
  FROM generate_series(1, @N@) g;
CREATE TABLE rg_names_valid (s text);
INSERT INTO rg_names_valid
  SELECT (ARRAY['rg_tab', 'pg_class', 'pg_type'])[g % 3 + 1] FROM generate_series(1, @N@) g;
CREATE TABLE rg_types (s text);
INSERT INTO rg_types
  SELECT CASE WHEN g % 2 = 0 THEN (ARRAY['int4', 'text', 'timestamptz'])[g % 3 + 1]
              ELSE 'rg_notype_' || (g % 7) END
  FROM generate_series(1, @N@) g;
CREATE TABLE rg_types_valid (s text);
INSERT INTO rg_types_valid
  SELECT (ARRAY['int4', 'text', 'timestamptz'])[g % 3 + 1] FROM generate_series(1, @N@) g;
CREATE TABLE rg_times (t timestamptz);
INSERT INTO rg_times
  SELECT CASE WHEN g % 2 = 0 THEN '2020-01-01'::timestamptz + g * interval '1 minute'
              ELSE '294276-12-31 12:00:00+00'::timestamptz END
  FROM generate_series(1, @N@) g;
CREATE TABLE rg_times_valid (t timestamptz);
INSERT INTO rg_times_valid
  SELECT '2020-01-01'::timestamptz + g * interval '1 minute' FROM generate_series(1, @N@) g;
CREATE TABLE rg_settings (s text);
INSERT INTO rg_settings
  SELECT CASE WHEN g % 2 = 0 THEN (ARRAY['work_mem', 'search_path', 'TimeZone'])[g % 3 + 1]
              ELSE 'rg.missing_' || (g % 7) END
  FROM generate_series(1, @N@) g;
CREATE TABLE rg_settings_valid (s text);
INSERT INTO rg_settings_valid
  SELECT (ARRAY['work_mem', 'search_path', 'TimeZone'])[g % 3 + 1] FROM generate_series(1, @N@) g;
VACUUM ANALYZE rg_names;
VACUUM ANALYZE rg_names_valid;
VACUUM ANALYZE rg_types;
VACUUM ANALYZE rg_types_valid;
VACUUM ANALYZE rg_times;
VACUUM ANALYZE rg_times_valid;
VACUUM ANALYZE rg_settings;
VACUUM ANALYZE rg_settings_valid;
-- A keyed table of 1000 rows; half of rg_keys are missing from it.
CREATE TABLE rg_keyed (k int PRIMARY KEY, v text);
INSERT INTO rg_keyed SELECT g, 'v' || g FROM generate_series(1, 1000) g;
CREATE TABLE rg_keys (k int);
INSERT INTO rg_keys
  SELECT CASE WHEN g % 2 = 0 THEN g % 1000 + 1 ELSE -(g % 1000) - 1 END
  FROM generate_series(1, @N@) g;
-- Table names for EXECUTE: rg_keyed, and half of rg_tables missing.
CREATE TABLE rg_tables (s text);
INSERT INTO rg_tables
  SELECT CASE WHEN g % 2 = 0 THEN 'rg_keyed' ELSE 'rg_gone_' || (g % 7) END
  FROM generate_series(1, @N@) g;
CREATE TABLE rg_tables_valid (s text);
INSERT INTO rg_tables_valid SELECT 'rg_keyed' FROM generate_series(1, @N@) g;
CREATE TABLE rg_keys_valid (k int);
INSERT INTO rg_keys_valid SELECT g % 1000 + 1 FROM generate_series(1, @N@) g;
VACUUM ANALYZE rg_keyed;
VACUUM ANALYZE rg_keys;
VACUUM ANALYZE rg_keys_valid;

-- @@functions
CREATE FUNCTION rg_regclass_@LANG@(t text) RETURNS oid LANGUAGE @LANG@ AS $$
BEGIN
  RETURN t::regclass::oid;
EXCEPTION WHEN OTHERS THEN
  RETURN NULL;
END
$$;
CREATE FUNCTION rg_regclass_noexc_@LANG@(t text) RETURNS oid LANGUAGE @LANG@ AS $$
BEGIN
  RETURN t::regclass::oid;
END
$$;
CREATE FUNCTION rg_regtype_@LANG@(t text) RETURNS regtype LANGUAGE @LANG@ AS $$
BEGIN
  RETURN t::regtype;
EXCEPTION WHEN undefined_object THEN
  RETURN NULL;
END
$$;
CREATE FUNCTION rg_regtype_noexc_@LANG@(t text) RETURNS regtype LANGUAGE @LANG@ AS $$
BEGIN
  RETURN t::regtype;
END
$$;
CREATE FUNCTION rg_priv_@LANG@(t text) RETURNS boolean LANGUAGE @LANG@ AS $$
BEGIN
  RETURN has_table_privilege(t, 'select');
EXCEPTION WHEN OTHERS THEN
  RETURN NULL;
END
$$;
CREATE FUNCTION rg_priv_noexc_@LANG@(t text) RETURNS boolean LANGUAGE @LANG@ AS $$
BEGIN
  RETURN has_table_privilege(t, 'select');
END
$$;
CREATE FUNCTION rg_ts_@LANG@(t timestamptz) RETURNS timestamptz LANGUAGE @LANG@ AS $$
BEGIN
  RETURN t + interval '1 day';
EXCEPTION WHEN datetime_field_overflow THEN
  RETURN NULL;
END
$$;
CREATE FUNCTION rg_ts_noexc_@LANG@(t timestamptz) RETURNS timestamptz LANGUAGE @LANG@ AS $$
BEGIN
  RETURN t + interval '1 day';
END
$$;
CREATE FUNCTION rg_setting_@LANG@(t text) RETURNS text LANGUAGE @LANG@ AS $$
BEGIN
  RETURN current_setting(t);
EXCEPTION WHEN undefined_object THEN
  RETURN NULL;
END
$$;
CREATE FUNCTION rg_setting_noexc_@LANG@(t text) RETURNS text LANGUAGE @LANG@ AS $$
BEGIN
  RETURN current_setting(t);
END
$$;
CREATE FUNCTION rg_strict_@LANG@(key int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  r text;
BEGIN
  SELECT v INTO STRICT r FROM rg_keyed WHERE k = key;
  RETURN r;
EXCEPTION WHEN no_data_found THEN
  RETURN NULL;
END
$$;
CREATE FUNCTION rg_exec_@LANG@(t text) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  r text;
BEGIN
  EXECUTE format('SELECT v FROM %I WHERE k = 7', t) INTO r;
  RETURN r;
EXCEPTION WHEN undefined_table THEN
  RETURN NULL;
END
$$;
CREATE FUNCTION rg_exec_noexc_@LANG@(t text) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  r text;
BEGIN
  EXECUTE format('SELECT v FROM %I WHERE k = 7', t) INTO r;
  RETURN r;
END
$$;
CREATE FUNCTION rg_strict_noexc_@LANG@(key int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  r text;
BEGIN
  SELECT v INTO STRICT r FROM rg_keyed WHERE k = key;
  RETURN r;
END
$$;
