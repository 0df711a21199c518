-- (write_path_handover_edges) exit_on_error turns the duplicate's
-- unique_violation into a FATAL, reported with its DETAIL and CONTEXT
-- lines, also when the write path runs the INSERT (the table is locked
-- by the transaction already)
SET exit_on_error = on;
BEGIN;
INSERT INTO rvw_eoe_t VALUES (1000);
SELECT rvw_eoe(1, 100);
SELECT 'not reached';
