/*-------------------------------------------------------------------------
 *
 * pln_check.h
 *	  plnimble_check_function(): static checking of a function without
 *	  running it (check.c), and the report of its findings
 *	  (check_report.c).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_CHECK_H
#define PLN_CHECK_H

#include "exec/pln_exec.h"

/* How serious a finding is, as plpgsql_check names it */
typedef enum PlnCheckLevel
{
	PLN_CHECK_ERROR,			/* would fail at run time */
	PLN_CHECK_WARNING,			/* other_warnings */
	PLN_CHECK_WARNING_EXTRA,	/* extra_warnings */
	PLN_CHECK_PERFORMANCE,		/* performance_warnings */
	PLN_CHECK_SECURITY,			/* security_warnings */
	PLN_CHECK_COMPATIBILITY		/* compatibility_warnings */
} PlnCheckLevel;

/* One finding */
typedef struct PlnCheckFinding
{
	PlnCheckLevel level;
	int			lineno;			/* 0: none */
	const char *stmtname;		/* or NULL */
	int			sqlerrcode;
	char	   *message;
	char	   *detail;
	char	   *hint;
	int			position;		/* in query, from 1; 0: none */
	char	   *query;
	char	   *context;
} PlnCheckFinding;

/* What to check and report: the arguments of plnimble_check_function */
typedef struct PlnCheckOptions
{
	Oid			relid;			/* a trigger's table, or InvalidOid */
	bool		fatal_errors;	/* stop at the first error */
	bool		other_warnings;
	bool		performance_warnings;
	bool		extra_warnings;
	bool		security_warnings;
	bool		compatibility_warnings;
	bool		use_incomment_options;	/* read -- @plpgsql_check_options: */
	bool		incomment_options_usage_warning;
	List	  **dependencies;	/* if set: collect what the statements
								 * use (check_depend.c) */
	char	   *newtable;		/* transition table names, or NULL */
	char	   *oldtable;
} PlnCheckOptions;

/* A pragma (check_pragma.c) */
typedef enum PlnPragmaKind
{
	PLN_PRAGMA_NONE,			/* not one the checker knows */
	PLN_PRAGMA_SWITCH,			/* disable:what, enable:what */
	PLN_PRAGMA_TYPE,			/* type: record-variable type */
	PLN_PRAGMA_TABLE			/* table: name(definition) */
} PlnPragmaKind;

/* What disable: and enable: switch */
typedef enum PlnPragmaWhat
{
	PLN_PRAGMA_CHECK,
	PLN_PRAGMA_TRACER,
	PLN_PRAGMA_OTHER_WARNINGS,
	PLN_PRAGMA_PERFORMANCE_WARNINGS,
	PLN_PRAGMA_EXTRA_WARNINGS,
	PLN_PRAGMA_SECURITY_WARNINGS,
	PLN_PRAGMA_COMPATIBILITY_WARNINGS,
	PLN_PRAGMA_NWHAT
} PlnPragmaWhat;

typedef struct PlnPragma
{
	PlnPragmaKind kind;
	const char *kindname;		/* the word before the colon */
	bool		on;				/* SWITCH: enable */
	PlnPragmaWhat what;			/* SWITCH */
	char	   *name;			/* TYPE: the variable; TABLE: the table */
	char	   *type;			/* TYPE: a type name, or NULL */
	char	   *columns;		/* TYPE: "a int, b int"; TABLE: "(...)" */
} PlnPragma;

/*
 * The classes of warnings (every finding but an error): the level of their
 * findings, the option that asks for them (its name, as the SQL functions'
 * arguments, the in-comment options and the disable:/enable: pragmas
 * spell it; where it is in PlnCheckOptions) and the pragma that switches
 * them.  One table (check_call.c), read by the checker, the argument and
 * in-comment option readers and the pragma parser.
 */
typedef struct PlnWarningClass
{
	PlnCheckLevel level;
	const char *name;
	size_t		option;			/* offsetof a bool in PlnCheckOptions */
	PlnPragmaWhat pragma;
} PlnWarningClass;

#define PLN_NWARNING_CLASSES 5
extern const PlnWarningClass pln_warning_classes[PLN_NWARNING_CLASSES];

/* The option of opts that asks for the class's warnings */
static inline bool *
pln_warning_option(PlnCheckOptions *opts, const PlnWarningClass *wc)
{
	return (bool *) ((char *) opts + wc->option);
}

/* check_pragma.c */
extern List *pln_pragma_strings(const char *query);
extern bool pln_pragma_parse(const char *str, PlnPragma *pragma,
							 const char **why);
extern PGDLLEXPORT Datum plnimble_check_pragma(PG_FUNCTION_ARGS);
extern void pln_check_incomment_options(Oid funcoid, PlnCheckOptions *opts);

/* check.c */
extern bool pln_check_on_first_call;
extern bool pln_check_on_every_call;
extern bool pln_check_fatal_errors;
extern List *pln_check_function(Oid funcoid, PlnCheckOptions *opts,
								PlnFunction *compiled);
extern void pln_check_at_first_call(PlnFunction *func,
									FunctionCallInfo fcinfo);

/* check_call.c */
extern Oid	pln_check_routine_arg(FunctionCallInfo fcinfo, const char *fname);
extern void pln_check_set_all_warnings(PlnCheckOptions *opts, bool on);

/* check_depend.c */
extern void pln_check_collect_dependencies(List **deps, Query *query);
extern PGDLLEXPORT Datum plnimble_show_dependency_tb(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_check_function(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_check_function_tb(PG_FUNCTION_ARGS);

/* check_report.c */
extern const char *pln_check_level_name(PlnCheckLevel level);
extern List *pln_check_finding_lines(PlnCheckFinding *f);
extern char *pln_check_findings_xml(List *findings);
extern char *pln_check_findings_json(List *findings);

#endif							/* PLN_CHECK_H */
