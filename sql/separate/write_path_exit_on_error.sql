-- exit_on_error turns every ERROR into FATAL: a unique_violation the
-- block would catch ends the session instead, in both languages, with the
-- error's DETAIL and CONTEXT reported in full (run from
-- sql/write_path_handover.sql; the table and functions are its).
SET exit_on_error = on;
SELECT ho_once(100);
SELECT 'not reached';
