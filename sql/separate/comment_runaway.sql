-- Second session of blockers_scanner (see sql/separate/run.sh).
-- A block comment whose "/*" is followed by an operator character used to
-- be scanned as an operator of no characters, forever: an endless compile
-- that allocated memory without bound.  The compile runs under a
-- statement_timeout: if the scanner loops again, the timeout (or the
-- runner's time limit) ends it, and the output shows it.
SET statement_timeout = '10s';
CREATE FUNCTION rw_hint() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 1 /*+ hint */; END $$;
CREATE FUNCTION rw_doc() RETURNS int LANGUAGE plnimble AS $$ BEGIN /** doc */ RETURN 2; END $$;
CREATE FUNCTION rw_ops() RETURNS int LANGUAGE plnimble AS $$
BEGIN
  RETURN 3 /**/ + /*%*/ 1 /*-*/ - /*<>*/ 1 /*=*/ * /*!*/ 2 /*~@#&|`?^*/;
END $$;
CREATE FUNCTION rw_banner() RETURNS int LANGUAGE plnimble AS $$
/*------------------------------------------------------------------*/
/* a banner                                                          */
/*******************************************************************/
DECLARE
/*****/ x int := 4; /*-- not a line comment --*/
BEGIN
/*+++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++*/
  RETURN x;
/*=================================================================*/
END $$;
CREATE FUNCTION rw_nested() RETURNS int LANGUAGE plnimble AS $$
BEGIN
  RETURN 5 /*+ outer /** inner */ still /*-- deeper /*/ */ */ outer */;
END $$;
CREATE FUNCTION rw_inside() RETURNS int LANGUAGE plnimble AS $$
BEGIN
  -- slashes and stars inside a comment: "//*" opens a nested one, "**/"
  -- closes one, a lone "/" or "*" does neither
  RETURN 6 /* a //* b **/ c / d * e */;
END $$;
CREATE FUNCTION rw_after_op() RETURNS int LANGUAGE plnimble AS $$
BEGIN
  -- an operator right before a comment stops where the comment starts
  RETURN 7 +/* plus */ 1 */*times*/ 2 -/**/1;
END $$;
DO LANGUAGE plnimble $$ BEGIN /*+ in a DO block */ RAISE NOTICE 'do %', 8 /**/; END $$;
RESET statement_timeout;
SELECT rw_hint(), rw_doc(), rw_ops(), rw_banner(), rw_nested(), rw_inside(),
       rw_after_op();
-- errors keep their positions after such comments
CREATE FUNCTION rw_err1() RETURNS int LANGUAGE plnimble AS $$ BEGIN /**/ RETURN 1 END $$;
CREATE FUNCTION rw_err2() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 1; /*+ never closed $$;
CREATE FUNCTION rw_err3() RETURNS int LANGUAGE plnimble AS $$ BEGIN /*+ /* one closed */ RETURN 1; END $$;
CREATE FUNCTION rw_err4() RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN 1 /*** / nosuch_var; END $$;
