#!/usr/bin/perl
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/check-suite/compare.pl NAME PG.out NB.out
#
# Reads what psql printed for one script of plpgsql_check's suite on both
# sides (prepared by transform.pl) and compares it call by call.  A
# finding is (level, line, SQLSTATE, message); of several errors at one
# line of one call only the first is compared (plpgsql_check's later ones
# are consequences of it: "there are no plan for query" and the like).  A
# call that fails (psql prints ERROR) has one finding of level "call
# error"; a failure on both sides is agreement whatever the messages say.
# For passive scripts (KIND run), the findings are the ERROR and WARNING
# messages the statement raises.
#
# Prints one line for each difference ("missed", "extra", "message",
# "warning-missed", "warning-extra", "call-failed", "call-passed"); a
# difference listed in KNOWN (scripts/check-suite/known.txt: intended, or
# plpgsql_check 2.3's own defects) is printed with "known " before it and
# does not fail its call.  Then a line
#   summary NAME calls failed_calls errors errors_found errors_found_line
#           false_errors warnings warnings_found warnings_extra calls_passed
use strict;
use warnings;

my ($name, $pgfile, $nbfile, $knownfile) = @ARGV;

my %known;
if (defined $knownfile && -f $knownfile)
{
	open my $kh, '<', $knownfile or die "$knownfile: $!";
	while (<$kh>)
	{
		chomp;
		next if /^\s*(#|$)/;
		$known{$_} = 1;
	}
	close $kh;
}

# Print a difference; returns whether it fails the call
sub differ
{
	my ($line) = @_;
	if ($known{$line})
	{
		print "known $line\n";
		return 0;
	}
	print "$line\n";
	return 1;
}

sub parse_findings_text
{
	my ($rec) = @_;
	my @f;
	# format => 'xml' and 'json': one document
	if ($rec =~ /<Function/)
	{
		while ($rec =~ m{<Issue>(.*?)</Issue>}sg)
		{
			my $i = $1;
			my %x;
			$x{$1} = $2 while $i =~ m{<(Level|Sqlstate|Message)>(.*?)</\1>}sg;
			my ($line, $stmt) = $i =~ m{<Stmt lineno="(\d+)">(.*?)</Stmt>} ? ($1, $2) : ('', '');
			for (values %x) { s/&quot;/"/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/&/g; }
			push @f, { level => $x{Level}, line => $line, state => $x{Sqlstate}, msg => $x{Message}, stmt => $stmt };
		}
		return @f;
	}
	if ($rec =~ /^\{ "issues"/)
	{
		while ($rec =~ m{\n  \{\n(.*?)\n  \}}sg)
		{
			my $i = $1;
			my %x;
			$x{$1} = $2 while $i =~ m{"(level|message|sqlState)":"((?:[^"\\]|\\.)*)"}sg;
			my $line = $i =~ m{"statement":\{\n"lineNumber":"(\d+)"} ? $1 : '';
			$x{message} =~ s/\\(.)/$1/g;
			push @f, { level => $x{level}, line => $line, state => $x{sqlState}, msg => $x{message}, stmt => '' };
		}
		return @f;
	}
	for my $line (split /[\n\036]/, $rec)
	{
		next unless $line =~ /^(error|warning extra|warning|performance|security|compatibility):([0-9A-Z]{5}):(.*)$/;
		my ($level, $state, $rest) = ($1, $2, $3);
		my ($lineno, $stmt, $msg) = ('', '', $rest);
		if ($rest =~ /^(\d+):(.*)$/)
		{
			$lineno = $1;
			$msg = $2;
			if ($msg =~ /^([A-Za-z][A-Za-z ]*[A-Za-z]):(.*)$/)
			{
				($stmt, $msg) = ($1, $2);
			}
		}
		push @f, { level => $level, line => $lineno, state => $state, msg => $msg, stmt => $stmt };
	}
	return @f;
}

sub parse
{
	my ($file) = @_;
	open my $fh, '<', $file or die "$file: $!";
	local $/;
	my $all = <$fh>;
	close $fh;
	my %calls;
	while ($all =~ /^\@\@CALL (\d+) (\w+)\n(.*?)^\@\@END \1$/msg)
	{
		my ($n, $what, $body) = ($1, $2, $3);
		my @f;
		# psql's own messages (on standard error, interleaved)
		my $rows = '';
		for my $line (split /\n/, $body)
		{
			if ($line =~ /^psql:[^:]*:\d+: (ERROR|WARNING):\s+([0-9A-Z]{5}): (.*)$/)
			{
				my ($sev, $state, $msg) = ($1, $2, $3);
				if ($what eq 'run')
				{
					push @f, { level => lc $sev, line => '', state => $state, msg => $msg, stmt => '' };
				}
				elsif ($sev eq 'ERROR')
				{
					push @f, { level => 'call error', line => '', state => $state, msg => $msg, stmt => '' };
				}
				next;
			}
			next if $line =~ /^(psql:|LINE \d+:|DETAIL:|HINT:|CONTEXT:|LOCATION:|QUERY:|\s*\^)/;
			$rows .= $line . "\n";
		}
		if ($what eq 'tb')
		{
			for my $rec (split /\036/, $rows)
			{
				$rec =~ s/^\n+//;
				$rec =~ s/\n+$//;
				next if $rec eq '';
				my @c = split /\037/, $rec, -1;
				next unless @c >= 8;
				push @f, { level => $c[7], line => $c[1], state => $c[3], msg => $c[4], stmt => $c[2] };
			}
		}
		elsif ($what eq 'text')
		{
			push @f, parse_findings_text($rows);
		}
		elsif ($what eq 'rows')
		{
			# plpgsql_show_dependency_tb: each row, compared as it is
			for my $rec (split /\036/, $rows)
			{
				$rec =~ s/^\n+//;
				$rec =~ s/\n+$//;
				next if $rec eq '';
				$rec =~ s/\037/|/g;
				push @f, { level => 'row', line => '', state => '', msg => $rec, stmt => '' };
			}
		}
		$calls{$n} = \@f;
	}
	return \%calls;
}

my $pg = parse($pgfile);
my $nb = parse($nbfile);

# the messages plnimble words with its own name
sub norm
{
	my ($m) = @_;
	$m =~ s/PL\/nimble/PL\/pgSQL/g;
	$m =~ s/\bplnimble_/plpgsql_/g;
	$m =~ s/\bplnimble\b/plpgsql/g;
	return $m;
}

my ($calls, $failed, $errors, $found, $found_line, $false, $warnings, $wfound, $wextra, $passed)
  = (0) x 10;
for my $n (sort { $a <=> $b } keys %$pg)
{
	$calls++;
	my @p = @{ $pg->{$n} };
	my @q = @{ $nb->{$n} // [] };
	my $ok = 1;
	my $pfail = grep { $_->{level} eq 'call error' } @p;
	my $qfail = grep { $_->{level} eq 'call error' } @q;
	if ($qfail && !$pfail)
	{
		$failed++;
		my ($e) = grep { $_->{level} eq 'call error' } @q;
		$ok = 0 if differ("call-failed $name #$n $e->{state} $e->{msg}");
	}
	elsif ($pfail && !$qfail)
	{
		my ($e) = grep { $_->{level} eq 'call error' } @p;
		$ok = 0 if differ("call-passed $name #$n (plpgsql_check: $e->{state} $e->{msg})");
	}
	@p = grep { $_->{level} ne 'call error' } @p;
	@q = grep { $_->{level} ne 'call error' } @q;

	my $iserr = sub { $_[0]->{level} eq 'error' };
	# plpgsql_check 2.3's passive mode raises its errors with SQLSTATE
	# 57014 (query_canceled); plnimble keeps each error's own (a
	# difference listed in the user guide)
	for my $f (@p)
	{
		next unless $f->{state} eq '57014' && $iserr->($f);
		my ($m) = grep { $iserr->($_) && norm($_->{msg}) eq $f->{msg} } @q;
		$f->{state} = $m->{state} if $m;
	}
	# errors: the first at each line
	my (%seen, @perr);
	for my $f (grep { $iserr->($_) } @p)
	{
		next if $seen{ $f->{line} }++;
		push @perr, $f;
	}
	my @qerr = grep { $iserr->($_) } @q;
	for my $f (@perr)
	{
		$errors++;
		my @at = grep { $_->{line} eq $f->{line} && $_->{state} eq $f->{state} } @qerr;
		if (grep { norm($_->{msg}) eq $f->{msg} } @at)
		{
			$found++;
			$found_line++;
		}
		elsif (@at)
		{
			$found_line++;
			$ok = 0 if differ("message $name #$n line $f->{line} $f->{state}: \"$f->{msg}\" / \"$at[0]->{msg}\"");
		}
		else
		{
			$ok = 0 if differ("missed $name #$n line $f->{line} $f->{state} $f->{msg}");
		}
	}
	for my $f (@qerr)
	{
		next if grep { $_->{line} eq $f->{line} && $_->{state} eq $f->{state} } grep { $iserr->($_) } @p;
		$false++;
		$ok = 0 if differ("extra $name #$n line $f->{line} $f->{state} $f->{msg}");
	}

	# warnings (every level but error): as a multiset
	my @pw = grep { !$iserr->($_) } @p;
	my @qw = grep { !$iserr->($_) } @q;
	my %left;
	$left{ join "\t", $_->{level}, $_->{line}, $_->{state}, norm($_->{msg}) }++ for @qw;
	for my $f (@pw)
	{
		$warnings++;
		my $k = join "\t", $f->{level}, $f->{line}, $f->{state}, $f->{msg};
		if ($left{$k})
		{
			$left{$k}--;
			$wfound++;
		}
		else
		{
			$ok = 0 if differ("warning-missed $name #$n $f->{level} line $f->{line} $f->{state} $f->{msg}");
		}
	}
	for my $k (sort keys %left)
	{
		next unless $left{$k};
		$wextra += $left{$k};
		my ($l, $line, $s, $m) = split /\t/, $k;
		$ok = 0 if differ("warning-extra $name #$n $l line $line $s $m");
	}
	$passed++ if $ok;
}
print "summary $name $calls $failed $errors $found $found_line $false $warnings $wfound $wextra $passed\n";
