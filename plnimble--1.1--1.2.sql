-- Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
/*
 * plnimble--1.1--1.2.sql: from 1.1 to 1.2.  One section per change, in the
 * order they were made.
 */

\echo Use "ALTER EXTENSION plnimble UPDATE TO '1.2'" to load this file. \quit

-- (no changes yet)
