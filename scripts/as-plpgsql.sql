-- Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
-- scripts/as-plpgsql.sql: make the language *named* plpgsql run on
-- plnimble in the current database, as the regression scripts of sql/
-- assume: install plnimble, drop the real plpgsql, and create a language
-- called plpgsql on plnimble's handlers.  Used by scripts/lib.sh
-- (template plnimble_tpl) and scripts/installcheck-launcher.sh.
CREATE EXTENSION plnimble;
DROP EXTENSION plpgsql;
CREATE TRUSTED LANGUAGE plpgsql
	HANDLER plnimble_call_handler
	INLINE plnimble_inline_handler
	VALIDATOR plnimble_validator;
