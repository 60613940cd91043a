#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs the declarative one-liner cases (*.cases; the format is in README.md)
# as root against the real kernel, the built sidetrace and the example apps:
# one TAP line per case, what differed under each failure, then the closing
# line "N passed, N failed". Exits non-zero when any case failed.
#
#   tests/oneliners/run.sh [FILE.cases...]    (default: every *.cases here)
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$DIR/../.." && pwd)
OUT=$ROOT/.output
SIDETRACE=${SIDETRACE:-$OUT/sidetrace} # tests/asan.sh: the ASan+UBSan build
HTTPD=$OUT/examples/httpd_sim
REQ=$OUT/examples/request_pairs
KV=$OUT/examples/kv_client
LIBKV=$OUT/examples/libkv.so
DEFAULT_TIMEOUT=30
# ONELINERS_ENGINE=inproc: the cases that trace one process (-c, -p) run
# with --in-process, the engine in the process, and must print the same;
# a case whose subject is the kernel path says so (KERNEL_ONLY, why).
ENGINE=${ONELINERS_ENGINE:-kernel}
# The language's oracle: a case with BPFTRACE runs under bpftrace too,
# where it is installed (BPFTRACE_BIN= skips that half).
BPFTRACE_BIN=${BPFTRACE_BIN-$(command -v bpftrace)}

if [ "$(id -u)" != 0 ]; then
	echo "oneliners: the cases attach BPF programs and need root" >&2
	exit 1
fi
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf

WORK=$(mktemp -d /tmp/oneliners.XXXXXX)
BEFORE_PID=""
cleanup() {
	[ -z "$BEFORE_PID" ] || kill "$BEFORE_PID" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
cd "$ROOT" || exit 1

# The decode-error cases need a program that passes damaged arguments.
EDGE=$WORK/side_edge
if ! cc -O2 -Wall -I"$ROOT/include" "$ROOT/tests/fixtures/side_edge.c" -o "$EDGE" \
	"$OUT/libside.a" -lpthread -ldl; then
	echo "oneliners: cannot build tests/fixtures/side_edge.c (make all first?)" >&2
	exit 1
fi

# The whole-value cases read structs and arrays a function is passed.
WHOLE=$WORK/whole_app
WHOLE0=$WORK/whole_app_O0
if ! cc -g -O2 -Wall "$ROOT/tests/fixtures/whole_app.c" -o "$WHOLE" ||
	! cc -g -O0 -Wall "$ROOT/tests/fixtures/whole_app.c" -o "$WHOLE0"; then
	echo "oneliners: cannot build tests/fixtures/whole_app.c" >&2
	exit 1
fi

# The watchpoint cases write at a fixed address and through functions' arguments.
WATCH=$WORK/watch_app
if ! cc -g -O0 -Wall "$ROOT/tests/fixtures/watch_app.c" -o "$WATCH"; then
	echo "oneliners: cannot build tests/fixtures/watch_app.c" >&2
	exit 1
fi

# The register cases read a function's stack arguments and globals, PIE or not.
REGS=$WORK/regs_app
REGS_NOPIE=$WORK/regs_app_nopie
if ! cc -g -O0 -Wall "$ROOT/tests/fixtures/regs_app.c" -o "$REGS" ||
	! cc -g -O0 -no-pie -Wall "$ROOT/tests/fixtures/regs_app.c" -o "$REGS_NOPIE"; then
	echo "oneliners: cannot build tests/fixtures/regs_app.c" >&2
	exit 1
fi

# Ground truth: the lines the example app printed with -v ("EV f=v ...").
TRUTH=/dev/null
truth_values() { # event field: the field's value in each line of the event
	awk -v ev="$1" -v f="$2" '$1 == ev { for (i = 2; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "$TRUTH"
}
truth_fields() { # event field...: per line of the event, the fields' values
	awk -v ev="$1" -v fields="${*:2}" '$1 == ev { out = ""; n = split(fields, want, " ")
		for (w = 1; w <= n; w++) for (i = 2; i <= NF; i++) {
			split($i, kv, "="); if (kv[1] == want[w]) out = out (w > 1 ? " " : "") kv[2] }
		print out }' "$TRUTH"
}
truth_count() { # event
	awk -v ev="$1" '$1 == ev { n++ } END { print n + 0 }' "$TRUTH"
}
truth_sum() { # event field
	truth_values "$@" | awk '{ s += $1 } END { print s + 0 }'
}

# Expands a value as a here-document would: $VAR, $(cmd), $((expr));
# quotes stay literal, so programs are written as typed.
expand() {
	eval "cat <<__END_OF_VALUE__
$1
__END_OF_VALUE__"
}

# ---- parsing: every case is a run of KEY lines, ended by a blank line.

# Keys that shape the run (at most once a case), and checks (any number).
declare -A RUN_KEY=([NAME]=1 [PROG]=1 [ARGS]=1 [WORKLOAD]=1 [BEFORE]=1 [WRAP]=1
	[TIMEOUT]=1 [STATUS]=1 [FILTER]=1 [KERNEL_ONLY]=1 [BPFTRACE]=1)
declare -A CHECK_KEY=([EXPECT]=1 [EXPECT_REGEX]=1 [EXPECT_NOT]=1 [EXPECT_COUNT]=1
	[EXPECT_FIRST]=1 [EXPECT_TRUTH]=1 [EXPECT_TRUTH_REGEX]=1 [EXPECT_TRUTH_EXACT]=1
	[ASSERT]=1 [STDERR]=1 [STDERR_EMPTY]=1)
KEYS=() VALS=() # every key line of every case, in order
CASE_FIRST=() CASE_LAST=() CASE_AT=() CASE_FILE=()
PARSE_ERRORS=()

parse() { # file
	local f=$1 n=0 line key val open=0 seen=""
	local short=${f##*/}
	close_case() {
		[ $open = 1 ] && CASE_LAST+=($((${#KEYS[@]} - 1)))
		open=0
	}
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case $line in
		'#'*) continue ;;
		'') close_case; continue ;;
		$'\t'*)
			if [ $open = 0 ]; then
				PARSE_ERRORS+=("$short:$n: a continuation line outside a case")
			else
				VALS[-1]+=$'\n'"${line#?}"
			fi
			continue ;;
		esac
		key=${line%% *}
		val=${line#"$key"}
		val=${val# }
		if [ "$key" = NAME ]; then
			close_case
			open=1 seen=" "
			CASE_FIRST+=(${#KEYS[@]})
			CASE_AT+=("$short:$n")
			CASE_FILE+=("${short%.cases}")
		elif [ $open = 0 ]; then
			PARSE_ERRORS+=("$short:$n: $key before the NAME of a case")
			continue
		elif [[ ! "$key" =~ ^[A-Z_]+$ ]] ||
			[ -z "${RUN_KEY[$key]+1}${CHECK_KEY[$key]+1}" ]; then
			PARSE_ERRORS+=("$short:$n: unknown key '$key' (continuations start with a tab)")
			continue
		elif [ -n "${RUN_KEY[$key]+1}" ] && [[ "$seen" == *" $key "* ]]; then
			PARSE_ERRORS+=("$short:$n: $key given twice in one case")
			continue
		fi
		seen+="$key "
		KEYS+=("$key")
		VALS+=("$val")
	done < "$f"
	close_case
}

# ---- checks: each appends what differed to $T/why, "-" wanted, "+" got.

WHO=""
why() { printf '%s\n' "${@/#/$WHO}" >> "$T/why"; }

# A line of the output equals LINE; else show the lines sharing its start
# (the map name, "@x[key]"), which is usually the diff that matters.
expect_line() { # line
	grep -qxF -e "$1" "$T/out" && return
	local p=${1%%:*}
	[ "$p" != "$1" ] || p=${1%% *}
	why "- $1"
	if awk -v p="$p" 'index($0, p) == 1 { found = 1 } END { exit !found }' "$T/out"; then
		awk -v p="$p" 'index($0, p) == 1 { print "+ " $0 }' "$T/out" | head -5 >> "$T/why"
	else
		why "+ (no line begins with \"$p\")"
	fi
}

expect_regex() { # ERE
	grep -qE -e "$1" "$T/out" || why "- a line matching /$1/" "+ (none)"
}

# Runs a case's shell command into $T/cmd.out. A command that fails or
# writes to stderr fails the case; so does an empty result where a check
# over nothing would prove nothing.
command_lines() { # key command [empty-ok]
	if ! (eval "$2") > "$T/cmd.out" 2> "$T/cmd.err" || [ -s "$T/cmd.err" ]; then
		why "$1 failed: $2" && sed 's/^/  /' "$T/cmd.err" >> "$T/why"
		return 1
	fi
	[ -s "$T/cmd.out" ] || [ -n "${3:-}" ] || { why "$1 printed nothing: $2"; return 1; }
}

check() { # key raw-value
	local key=$1 raw=$2 v line want n op
	case $key in
	EXPECT_TRUTH | EXPECT_TRUTH_REGEX)
		command_lines "$key" "$raw" || return
		while IFS= read -r line; do
			if [ $key = EXPECT_TRUTH ]; then expect_line "$line"; else expect_regex "$line"; fi
		done < "$T/cmd.out"
		return ;;
	EXPECT_TRUTH_EXACT)
		command_lines "$key" "$raw" empty-ok || return
		diff -u --label expected --label "$OUT_LABEL" "$T/cmd.out" "$T/out" |
			head -40 >> "$T/why"
		return ;;
	ASSERT)
		(eval "$raw") > /dev/null 2>&1 || why "- ASSERT $raw" "+ (false)"
		return ;;
	STDERR_EMPTY)
		[ -s "$T/stderr" ] && why "- an empty stderr" "+ $(head -1 "$T/stderr")"
		return ;;
	esac
	if ! v=$(expand "$raw" 2> "$T/expand.err") || [ -s "$T/expand.err" ]; then
		why "$key: cannot expand: $raw" && sed 's/^/  /' "$T/expand.err" >> "$T/why"
		return
	fi
	case $key in
	EXPECT)
		while IFS= read -r line; do expect_line "$line"; done <<< "$v" ;;
	EXPECT_REGEX)
		while IFS= read -r line; do expect_regex "$line"; done <<< "$v" ;;
	EXPECT_NOT)
		while IFS= read -r line; do
			grep -qF -e "$line" "$T/out" || continue
			why "- no line containing \"$line\""
			grep -F -e "$line" "$T/out" | head -5 | sed 's/^/+ /' >> "$T/why"
		done <<< "$v" ;;
	EXPECT_COUNT)
		if [[ ! "$v" =~ ^(\>=)?([0-9]+)\ (.*)$ ]]; then
			why "EXPECT_COUNT wants '[>=]N REGEX': $v"
			return
		fi
		op=${BASH_REMATCH[1]} want=${BASH_REMATCH[2]} line=${BASH_REMATCH[3]}
		n=$(grep -cE -e "$line" "$T/out")
		if { [ -z "$op" ] && [ "$n" -ne "$want" ]; } || [ "$n" -lt "$want" ]; then
			why "- $op$want lines matching /$line/" "+ $n"
		fi ;;
	EXPECT_FIRST)
		line=$(head -1 "$T/out")
		[ "$line" = "$v" ] || why "- first line: $v" "+ first line: $line" ;;
	STDERR)
		[[ "$(< "$T/stderr")" == *"$v"* ]] || why "- stderr containing:" "$(sed 's/^/-   /' <<< "$v")" ;;
	esac
}

# ---- running a case.

run_case() { # index
	local i=$1 k key raw v words rc
	local prog="" has_prog=0 args=() workload="" wrap=() tmo=$DEFAULT_TIMEOUT status=0
	local -A raw_of=()
	T=$WORK/case$i
	mkdir -p "$T"
	: > "$T/why"
	TRUTH=/dev/null PID=""

	for ((k = CASE_FIRST[i]; k <= CASE_LAST[i]; k++)); do
		[ -z "${RUN_KEY[${KEYS[k]}]+1}" ] || raw_of[${KEYS[k]}]=${VALS[k]}
	done
	OUT_LABEL=stdout
	[ -z "${raw_of[FILTER]+1}" ] || OUT_LABEL="stdout after FILTER"
	# In this order WORKLOAD's $TRUTH and BEFORE's $PID exist before ARGS
	# and PROG can use them.
	for key in WORKLOAD BEFORE TIMEOUT STATUS PROG ARGS WRAP; do
		[ -n "${raw_of[$key]+1}" ] || continue
		raw=${raw_of[$key]}
		case $key in
		ARGS | WRAP) eval "words=($raw)" 2> "$T/expand.err" ;;
		*) v=$(expand "$raw" 2> "$T/expand.err") ;;
		esac
		if [ $? != 0 ] || [ -s "$T/expand.err" ]; then
			why "$key: cannot expand: $raw" && sed 's/^/  /' "$T/expand.err" >> "$T/why"
			stop_before
			return 1
		fi
		case $key in
		WORKLOAD) workload=$v && truth_for "$v" || return 1 ;;
		BEFORE) start_before "$v" || return 1 ;;
		TIMEOUT) tmo=$v ;;
		STATUS) status=$v ;;
		PROG) prog=$v has_prog=1 ;;
		ARGS) args=("${words[@]}") ;;
		WRAP) wrap=("${words[@]}") ;;
		esac
	done

	local cmd=(timeout -k 5 -s INT "$tmo" "${wrap[@]}" "$SIDETRACE" "${args[@]}")
	[ -z "$workload" ] || cmd+=(-c "$workload")
	[ $has_prog = 0 ] || cmd+=(-e "$prog")
	local inproc=0
	# The engine runs side: probes only: a program with none is the kernel's.
	if [ "$ENGINE" = inproc ] && [[ "$prog" == *side:* ]] &&
		{ [ -n "$workload" ] || [[ " ${args[*]} " == *" -p "* ]]; }; then
		cmd+=(--in-process)
		inproc=1
	fi
	WHO=""
	"${cmd[@]}" < /dev/null > "$T/stdout" 2> "$T/stderr"
	rc=$?
	stop_before
	# The session says which process runs the engine, or that none can:
	# not the case's output.
	local said='^sidetrace: (pid [0-9]+ runs the side: probes in the process|--in-process: the kernel runs every probe: .*)$'
	if [ $inproc = 1 ] && [ "$status" = 0 ] && [[ " ${args[*]} " != *" -q "* ]] &&
		! grep -Eq "$said" "$T/stderr"; then
		why "- sidetrace: pid N runs the side: probes in the process" "+ (not said)"
	fi
	sed -i -E "/$said/d" "$T/stderr"

	checks "$i" "$rc" "$status" "$tmo" "${raw_of[FILTER]-}"
	# A BEFORE process's pid is in ARGS already: one run only.
	if [ -n "${raw_of[BPFTRACE]+1}" ] && [ -n "${raw_of[BEFORE]+1}" ]; then
		why "BPFTRACE with BEFORE: the second run would trace a process gone"
	elif [ -n "${raw_of[BPFTRACE]+1}" ] && [ -n "$BPFTRACE_BIN" ] && [ "$ENGINE" = kernel ]; then
		BT_WRAP=("${wrap[@]}")
		same_as_bpftrace "$i" "$status" "$tmo" "${raw_of[BPFTRACE]}" "$workload" \
			"$prog" "${raw_of[FILTER]-}" "${args[@]}"
	fi
	[ ! -s "$T/why" ]
}

# The exit status and every check of case i, on $T/stdout and $T/stderr.
checks() { # index rc status timeout filter
	local i=$1 rc=$2 status=$3 k
	if [ "$rc" = 124 ]; then
		why "- exit status $status" "+ timed out after ${4}s (TIMEOUT)"
	elif [ "$rc" != "$status" ]; then
		why "- exit status $status" "+ exit status $rc"
	fi
	if [ -n "$5" ]; then
		(eval "$5") < "$T/stdout" > "$T/out" 2> "$T/filter.err" ||
			why "FILTER failed: $5" "$(sed 's/^/  /' "$T/filter.err")"
	else
		cp "$T/stdout" "$T/out"
	fi
	for ((k = CASE_FIRST[i]; k <= CASE_LAST[i]; k++)); do
		[ -n "${RUN_KEY[${KEYS[k]}]+1}" ] || check "${KEYS[k]}" "${VALS[k]}"
	done
}

# BPFTRACE checks: the same program under bpftrace (and WRAP, in BT_WRAP)
# passes the same checks with the same exit status; "same" also wants
# sidetrace's output (after FILTER) to be bpftrace's, line for line.
same_as_bpftrace() { # index status timeout how workload prog filter args...
	local i=$1 status=$2 tmo=$3 how=$4 workload=$5 prog=$6 filter=$7
	shift 7
	local cmd=(timeout -k 5 -s INT "$tmo" "${BT_WRAP[@]}" "$BPFTRACE_BIN" "$@")
	cp "$T/out" "$T/sidetrace.out"
	[ -z "$workload" ] || cmd+=(-c "$workload")
	[ -z "$prog" ] || cmd+=(-e "$prog")
	WHO="bpftrace: "
	"${cmd[@]}" < /dev/null > "$T/stdout" 2> "$T/stderr"
	local rc=$?
	# Not the program's: this host's memlock limit cannot be raised.
	sed -i '/couldn.t set RLIMIT_MEMLOCK/d' "$T/stderr"
	checks "$i" "$rc" "$status" "$tmo" "$filter"
	if [ "$how" = same ]; then
		diff -u --label bpftrace --label sidetrace "$T/out" "$T/sidetrace.out" |
			head -40 | sed 's/^/  /' > "$T/diff"
		[ ! -s "$T/diff" ] || { why "output differs:"; cat "$T/diff" >> "$T/why"; }
	elif [ "$how" != checks ]; then
		why "BPFTRACE wants 'same' or 'checks': $how"
	fi
	WHO=""
}

# Prints why case i is the kernel path's alone (its KERNEL_ONLY), if it is.
kernel_only() { # index
	local k
	for ((k = CASE_FIRST[$1]; k <= CASE_LAST[$1]; k++)); do
		[ "${KEYS[k]}" != KERNEL_ONLY ] || { echo "${VALS[k]}"; return 0; }
	done
	return 1
}

# Runs WORKLOAD once with -v per distinct command line; cases share it.
declare -A TRUTHS=()
truth_for() { # workload
	local w
	if [ -z "${TRUTHS[$1]+set}" ]; then
		TRUTHS[$1]=$WORK/truth${#TRUTHS[@]}
		read -ra w <<< "$1"
		if ! timeout 60 "${w[@]}" -v > "${TRUTHS[$1]}" 2> "$T/truth.err" < /dev/null; then
			why "the ground truth run failed: $1 -v"
			sed 's/^/  /' "$T/truth.err" | head -3 >> "$T/why"
			unset "TRUTHS[$1]"
			return 1
		fi
	fi
	TRUTH=${TRUTHS[$1]}
}

# Starts BEFORE in the background; it prints its pid first (-p).
start_before() { # command line
	local w _
	read -ra w <<< "$1"
	"${w[@]}" < /dev/null > "$T/before.out" 2> "$T/before.err" &
	BEFORE_PID=$!
	for _ in $(seq 100); do
		PID=$(head -1 "$T/before.out")
		[ -n "$PID" ] && return 0
		sleep 0.05
	done
	why "BEFORE printed no pid: $1"
	sed 's/^/  /' "$T/before.err" | head -3 >> "$T/why"
	stop_before
	return 1
}

stop_before() {
	[ -n "$BEFORE_PID" ] || return 0
	kill "$BEFORE_PID" 2>/dev/null
	wait "$BEFORE_PID" 2>/dev/null
	BEFORE_PID=""
}

# Shows what a failed case printed, so that a diff has its context.
show_output() {
	sed 's/^/#   /' "$T/why"
	if [ -s "$T/out" ]; then
		echo "# $OUT_LABEL:"
		head -40 "$T/out" | sed 's/^/# | /'
		[ "$(wc -l < "$T/out")" -le 40 ] || echo "# | ..."
	fi
	if [ -s "$T/stderr" ]; then
		echo "# stderr:"
		head -20 "$T/stderr" | sed 's/^/# | /'
	fi
}

[ $# -gt 0 ] || set -- "$DIR"/*.cases
for f in "$@"; do
	if [ -r "$f" ]; then
		parse "$f"
	else
		PARSE_ERRORS+=("$f: cannot read")
	fi
done

n=0 pass=0 fail=0
echo "1..$((${#CASE_FIRST[@]} + ${#PARSE_ERRORS[@]}))"
for e in "${PARSE_ERRORS[@]}"; do
	n=$((n + 1)) fail=$((fail + 1))
	echo "not ok $n $e"
done
for i in "${!CASE_FIRST[@]}"; do
	n=$((n + 1))
	name="${CASE_FILE[i]}: ${VALS[CASE_FIRST[i]]}"
	if [ "$ENGINE" = inproc ] && kernel_only "$i"; then
		pass=$((pass + 1))
		echo "ok $n $name # SKIP in-process: $(kernel_only "$i")"
	elif run_case "$i"; then
		pass=$((pass + 1))
		echo "ok $n $name"
	else
		fail=$((fail + 1))
		echo "not ok $n $name"
		echo "# at ${CASE_AT[i]}"
		show_output
	fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
