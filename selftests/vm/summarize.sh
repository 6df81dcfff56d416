#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# summarize.sh DIR...: print and count the suite's results.
#
# Each DIR is named after where its tests ran: "host" for the host-side unit
# tests, otherwise a kernel release (with a suffix, ".half1", when several
# guests ran that kernel) whose guest run-guest.sh booted with DIR as
# OUTDIR. Every *.tap file below DIR is printed, each line prefixed with
# "[DIR's name]", and counted:
#   ok                 passed
#   not ok / Bail out! failed (a file that bailed out needs no plan)
#   ok ... # SKIP      skipped (also "1..0 # SKIP"); a skip is never a pass
#   plan 1..N with fewer than N results: the missing ones failed
# Each guest adds its own checks: no rc file (the guest crashed, hung or was
# stopped by its time limit, which run-guest.sh writes to timed-out), no TAP,
# or a non-zero rc with no failed test each count as one failure, and its
# kernel log must show no splat (one test, "<krel>: kernel log clean").
# The last line is "N passed, N failed[, N skipped]"; the exit status is
# non-zero when anything failed or was skipped. Every failure is named again
# just above it, with what its test printed of it, so that the tail of a long
# log (all a CI page may show) says what failed and why.
set -eu

# Kernel log lines that mean the kernel complained. The out-of-tree module's
# taint notices are expected and filtered first.
SPLAT='WARNING:|BUG:|Oops|general protection|Call Trace|UBSAN|KASAN|[Kk]ernel panic|refcount_t:|list_del corruption'
BENIGN='loading out-of-tree module taints kernel|module verification failed'

PASSED=0 FAILED=0 SKIPPED=0
# The failures and their context, as repeated at the end.
FAILURES=''
# How many lines of them the end shows; the rest are above in the log.
FAILURES_SHOWN=20

# Lines $1 for the list of failures the summary ends with.
remember_failure() {
	FAILURES="$FAILURES$1
"
}

# Keep the failure lines of printed results $1 (of TAP file $2) for the end.
# A failed test is followed by what its test wrote to the stderr log beside
# the TAP: its first two "FILE:LINE:TEST:..." lines (what it saw and
# expected) and the CONTEXT lines just before the first, where a test
# prints what it found (the log is the whole program's, so they may end an
# earlier test's output). Each failure line comes after the two lines its
# test printed before it to the TAP, if any: the harness's own lines (RUN,
# "Test failed", FAIL, an earlier result) are passed over.
note_failures() {
	found=$(printf '%s\n' "$1" | awk -v errlog="${2%.tap}.log" -v context=4 '
	function from_log(line,    name, text, n, i, first) {
		name = line
		sub(/^\[[^]]*\] not ok [0-9]+ /, "", name)
		sub(/ .*/, "", name)
		sub(/.*\./, "", name)
		while (name != "" && (getline text < errlog) > 0) {
			if (index(text, ":" name ":")) {
				if (!first) {
					for (i = n - context + 1; i <= n; i++)
						if (i > 0)
							print "  " seen[i]
					print "  " text "   (" errlog ")"
					first = 1
				} else {
					print "  " text
					break
				}
			} else if (!first) {
				seen[++n] = text
			}
		}
		close(errlog)
	}
	/^\[[^]]*\] (not ok [0-9]|Bail out!|# planned|# no plan)/ {
		if (prev2 != "")
			print "  " prev2
		if (prev1 != "")
			print "  " prev1
		print
		if (/\] not ok [0-9]/)
			from_log($0)
		prev1 = prev2 = ""
		next
	}
	/: Test failed|^\[[^]]*\] # +FAIL / { next }
	/^\[[^]]*\] (ok [0-9]|# +RUN )/ { prev1 = prev2 = ""; next }
	{ prev2 = prev1; prev1 = $0 }')
	[ -z "$found" ] || remember_failure "$found"
}

# Add "P F S" (as printed by tap_file) to the totals.
count() {
	PASSED=$((PASSED + $1)) FAILED=$((FAILED + $2)) SKIPPED=$((SKIPPED + $3))
}

# Report one check the summarizer makes itself, as a TAP-like line.
check() {
	label=$1 name=$2 ok=$3
	if [ "$ok" = yes ]; then
		echo "[$label] ok - $name"
		count 1 0 0
	else
		echo "[$label] not ok - $name"
		remember_failure "[$label] not ok - $name"
		count 0 1 0
	fi
}

# Print TAP file $2 prefixed with [$1], then a last line "P F S".
tap_file() {
	awk -v label="$1" '
	{ print "[" label "] " $0 }
	/^1\.\.[0-9]+/ {
		split($1, plan, /\.\./)
		planned = plan[2] + 0
		has_plan = 1
		if (planned == 0 && /# *[Ss][Kk][Ii][Pp]/)
			skip++
		next
	}
	/^not ok( |$)/ { results++; fail++; next }
	/^ok( |$)/ {
		results++
		if (/# *[Ss][Kk][Ii][Pp]/)
			skip++
		else
			pass++
		next
	}
	/^Bail out!/ { fail++; bailed = 1 }
	END {
		if (!has_plan) {
			# A bail-out has already failed the file.
			if (!bailed) {
				print "[" label "] # no plan line: counted as one failure"
				fail++
			}
		} else if (results < planned) {
			print "[" label "] # planned " planned ", got " results ": " \
				planned - results " missing, counted as failed"
			fail += planned - results
		} else if (results > planned) {
			print "[" label "] # planned " planned ", got " results ": counted as one failure"
			fail++
		}
		print pass + 0, fail + 0, skip + 0
	}' "$2"
}

# Print and count every TAP file below $1; leave in DIR_FILES how many there
# were and in DIR_FAILED how many of their tests failed.
tap_dir() {
	dir=$1 label=$(basename "$1")
	DIR_FILES=0 DIR_FAILED=0
	[ -d "$dir" ] || return 0
	for tap in $(find "$dir" -name '*.tap' -type f | sort); do
		DIR_FILES=$((DIR_FILES + 1))
		echo "[$label] ==== ${tap#"$dir"/}"
		out=$(tap_file "$label" "$tap")
		results=$(printf '%s\n' "$out" | sed '$d')
		printf '%s\n' "$results"
		note_failures "$results" "$tap"
		read -r pass fail skip <<-EOF
			$(printf '%s\n' "$out" | tail -n 1)
		EOF
		count "$pass" "$fail" "$skip"
		DIR_FAILED=$((DIR_FAILED + fail))
	done
}

# Where the vCPUs of guest $1 were just before its limit (file $2, from
# run-guest.sh): the line of each vCPU, here and with the failure at the end.
vcpus_at_limit() {
	[ -f "$2" ] || return 0
	found=$(grep -E '^CPU [0-9]+:' "$2" | sed "s/^/[$1] # at the limit: /")
	[ -n "$found" ] || return 0
	printf '%s\n' "$found"
	remember_failure "$found"
}

# The guest-only checks for results folder $1, after tap_dir. Finishing is
# only reported when it did not happen, so passes count real tests.
guest_checks() {
	dir=$1 krel=$(basename "$1")
	if [ -f "$dir/console-early-crash.log" ]; then
		echo "[$krel] # the first boot died before the job started; see console-early-crash.log"
	fi
	if [ ! -f "$dir/rc" ] && [ -f "$dir/timed-out" ]; then
		check "$krel" "$krel: guest finished (stopped by its limit, NICTL_VM_TIMEOUT=$(cat "$dir/timed-out"); see console.log)" no
		vcpus_at_limit "$krel" "$dir/vcpus.txt"
	elif [ ! -f "$dir/rc" ]; then
		check "$krel" "$krel: guest finished (no rc: it crashed, hung or never booted; see console.log)" no
	elif [ "$DIR_FILES" -eq 0 ]; then
		check "$krel" "$krel: guest wrote TAP results (none found)" no
	elif [ "$(cat "$dir/rc")" != 0 ] && [ "$DIR_FAILED" -eq 0 ]; then
		check "$krel" "$krel: guest suite exited with $(cat "$dir/rc") but no test failed" no
	fi
	# A guest that died leaves no dmesg.txt; its console has the kernel log.
	log=$dir/dmesg.txt
	[ -f "$log" ] || log=$dir/console.log
	if [ ! -f "$log" ]; then
		check "$krel" "$krel: kernel log clean" no
	elif grep -E "$SPLAT" "$log" | grep -vE "$BENIGN" | sed "s/^/[$krel] # /" | grep .; then
		check "$krel" "$krel: kernel log clean" no
	else
		check "$krel" "$krel: kernel log clean" yes
	fi
}

main() {
	[ $# -gt 0 ] || {
		echo "usage: summarize.sh DIR..." >&2
		exit 2
	}
	for dir in "$@"; do
		tap_dir "$dir"
		[ "$(basename "$dir")" = host ] || guest_checks "$dir"
	done
	if [ -n "$FAILURES" ]; then
		echo
		echo "What failed:"
		printf '%s' "$FAILURES" | head -n "$FAILURES_SHOWN"
		lines=$(printf '%s' "$FAILURES" | wc -l)
		[ "$lines" -le "$FAILURES_SHOWN" ] ||
			echo "  ... and $((lines - FAILURES_SHOWN)) more lines of it above"
	fi
	line="$PASSED passed, $FAILED failed"
	[ "$SKIPPED" -eq 0 ] || line="$line, $SKIPPED skipped"
	echo "$line"
	[ "$FAILED" -eq 0 ] && [ "$SKIPPED" -eq 0 ]
}

main "$@"
