#!/usr/bin/perl
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/check-suite/transform.pl SIDE KIND < script.sql > out.sql
#
# Prepares one of plpgsql_check's regression scripts for scripts/check-suite.sh.
# SIDE is "pg" (the script as it is, run on PL/pgSQL with plpgsql_check) or
# "nb" (the same script with its language and function names changed
# mechanically, run on plnimble).  KIND is "active" (the check calls, and
# the rows of plpgsql_show_dependency_tb, are compared) or "passive" (every SELECT and DO is compared: its errors and
# warnings, which passive mode raises).
#
# The script is split into statements (quotes, dollar quotes and comments
# respected; psql's backslash commands are one line each) and each compared
# statement is wrapped between psql \echo markers, with the output format
# set so that rows can be read back unambiguously: fields separated by
# \037, rows by \036 (compare.pl reads them).  Both sides get the same
# markers, numbered in the same order.
use strict;
use warnings;

my ($side, $kind, $skipfile) = @ARGV;
die "usage: transform.pl pg|nb active|passive [SKIPFILE]\n"
  unless defined $kind && $side =~ /^(pg|nb)$/ && $kind =~ /^(active|passive)$/;

# statements left out (scripts/check-suite/skip.txt)
my @skip;
if (defined $skipfile)
{
	open my $fh, '<', $skipfile or die "$skipfile: $!";
	while (<$fh>)
	{
		chomp;
		next if /^\s*(#|$)/;
		push @skip, qr/$_/;
	}
	close $fh;
}

local $/;
my $src = <STDIN>;

# --- split into statements ---------------------------------------------------
my @stmts;
my $cur = '';
my $i = 0;
my $n = length $src;
my $blank = 1;			# nothing but white space and comments in $cur yet
while ($i < $n)
{
	my $c = substr($src, $i, 1);
	if ($blank && $c eq '\\')
	{
		# a backslash command: the rest of the line
		my $e = index($src, "\n", $i);
		$e = $n - 1 if $e < 0;
		$cur .= substr($src, $i, $e - $i + 1);
		$i = $e + 1;
		push @stmts, $cur;
		$cur = '';
		next;
	}
	if ($c eq '-' && substr($src, $i, 2) eq '--')
	{
		my $e = index($src, "\n", $i);
		$e = $n - 1 if $e < 0;
		$cur .= substr($src, $i, $e - $i + 1);
		$i = $e + 1;
		next;
	}
	if ($c eq '/' && substr($src, $i, 2) eq '/*')
	{
		my $depth = 0;
		my $j = $i;
		while ($j < $n)
		{
			if (substr($src, $j, 2) eq '/*') { $depth++; $j += 2; next; }
			if (substr($src, $j, 2) eq '*/') { $depth--; $j += 2; last if $depth == 0; next; }
			$j++;
		}
		$cur .= substr($src, $i, $j - $i);
		$i = $j;
		next;
	}
	if ($c eq "'" || $c eq '"')
	{
		my $j = $i + 1;
		while ($j < $n)
		{
			if (substr($src, $j, 1) eq $c)
			{
				if (substr($src, $j + 1, 1) eq $c) { $j += 2; next; }
				last;
			}
			$j++;
		}
		$cur .= substr($src, $i, $j - $i + 1);
		$i = $j + 1;
		$blank = 0;
		next;
	}
	if ($c eq '$' && substr($src, $i) =~ /^(\$[A-Za-z_]*\$)/)
	{
		my $tag = $1;
		my $e = index($src, $tag, $i + length $tag);
		$e = $n - length $tag if $e < 0;
		$cur .= substr($src, $i, $e + length($tag) - $i);
		$i = $e + length $tag;
		$blank = 0;
		next;
	}
	$cur .= $c;
	$i++;
	if ($c eq ';')
	{
		push @stmts, $cur;
		$cur = '';
		$blank = 1;
		next;
	}
	$blank = 0 if $c !~ /\s/;
}
push @stmts, $cur if $cur =~ /\S/;

# --- the mechanical renaming, for plnimble -----------------------------------
sub to_nb
{
	my ($s) = @_;

	$s =~ s/\bplpgsql_check_function_tb\b/plnimble_check_function_tb/g;
	$s =~ s/\bplpgsql_check_function\b/plnimble_check_function/g;
	$s =~ s/\bplpgsql_check_pragma\b/plnimble_check_pragma/g;
	$s =~ s/\bplpgsql_show_dependency_tb\b/plnimble_show_dependency_tb/g;
	$s =~ s/\bplpgsql_check_profiler\b/plnimble_check_profiler/g;
	$s =~ s/\bplpgsql_coverage_statements\b/plnimble_coverage_statements/g;
	$s =~ s/\bplpgsql_coverage_branches\b/plnimble_coverage_branches/g;
	$s =~ s/\blanguage\s+'?plpgsql'?(?=\W)/language plnimble/gi;
	$s =~ s/\bcreate\s+extension\s+(if\s+not\s+exists\s+)?plpgsql_check\b/create extension $1plnimble/gi;
	$s =~ s/^(\s*)load\s+'plpgsql_check'\s*;/$1create extension if not exists plnimble;/mi;
	# passive mode: every_start checks at every call, fresh_start once per
	# compilation
	$s =~ s/\bset\s+plpgsql_check\.mode\s*(=|to)\s*'?every_start'?/set plnimble.check_on_first_call = off; set plnimble.check_on_every_call = on/gi;
	$s =~ s/\bset\s+plpgsql_check\.mode\s*(=|to)\s*'?fresh_start'?/set plnimble.check_on_every_call = off; set plnimble.check_on_first_call = on/gi;
	$s =~ s/\bset\s+plpgsql_check\.mode\s*(=|to)\s*('?disabled'?|default)/set plnimble.check_on_every_call to default; set plnimble.check_on_first_call to default/gi;
	$s =~ s/\bplpgsql_check\.fatal_errors\b/plnimble.check_fatal_errors/gi;
	# a DO block without a language clause is PL/pgSQL's
	$s =~ s/^((?:\s|--[^\n]*\n)*)do(\s+)(?!language\b)(\$)/$1do language plnimble$2$3/i;
	return $s;
}

# --- which statements are compared -------------------------------------------
sub code_of
{
	my ($s) = @_;
	$s =~ s/--[^\n]*//g;
	$s =~ s{/\*.*?\*/}{}gs;
	return $s;
}

sub compared
{
	my ($s) = @_;
	my $code = code_of($s);
	return undef if $code =~ /^\s*\\/;
	if ($kind eq 'active')
	{
		return 'tb' if $code =~ /^\s*select\b.*\bplpgsql_check_function_tb\s*\(/is;
		return 'text' if $code =~ /^\s*select\b.*\bplpgsql_check_function\s*\(/is;
		return 'rows' if $code =~ /^\s*select\b.*\bplpgsql_show_dependency_tb\s*\(/is;
		return undef;
	}
	return 'run' if $code =~ /^\s*(select|do)\b/is;
	return undef;
}

my $ncall = 0;
print "\\set VERBOSITY_SAVED :VERBOSITY\n";
for my $s (@stmts)
{
	if (grep { code_of($s) =~ $_ } @skip)
	{
		print "\n-- left out by scripts/check-suite/skip.txt\n";
		next;
	}
	my $what = compared($s);
	my $out = $side eq 'nb' ? to_nb($s) : $s;
	if (!defined $what)
	{
		print $out;
		next;
	}
	$ncall++;
	print "\n\\set VERBOSITY_SAVED :VERBOSITY\n",
	  "\\set VERBOSITY verbose\n",
	  "\\pset format unaligned\n",
	  "\\pset fieldsep '\\037'\n",
	  "\\pset recordsep '\\036'\n",
	  "\\pset tuples_only on\n",
	  "\\echo '\@\@CALL $ncall $what'\n";
	$out =~ s/^\s+//;
	print $out, "\n",
	  "\\echo '\@\@END $ncall'\n",
	  "\\pset format aligned\n",
	  "\\pset recordsep '\\n'\n",
	  "\\pset fieldsep '|'\n",
	  "\\pset tuples_only off\n",
	  "\\set VERBOSITY :VERBOSITY_SAVED\n";
}
