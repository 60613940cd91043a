#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The USDT probes of Debian's PostgreSQL 15, traced system-wide
# while pgbench runs against a server started in a temporary directory;
# statement kinds exact by pgbench's TPC-B script, transactions equal to
# what stock bpftrace counts on the same run.

bats_require_minimum_version 1.5.0
load helpers

PGBIN=/usr/lib/postgresql/15/bin
PORT=54329

pg() { # command args...
	runuser -u postgres -- "$PGBIN/$1" "${@:2}"
}

setup_file() {
	[ -x "$PGBIN/postgres" ] || return 0
	export PGDIR
	PGDIR=$(mktemp -d /tmp/sidetrace-pg.XXXXXX)
	chown postgres "$PGDIR"
	pg initdb -D "$PGDIR/data" -A trust > "$PGDIR/initdb.log" 2>&1
	pg pg_ctl -D "$PGDIR/data" -o "-k $PGDIR -p $PORT -c listen_addresses=''" \
		-l "$PGDIR/server.log" -w start > /dev/null
	pg pgbench -h "$PGDIR" -p $PORT -i -q postgres > "$PGDIR/init.log" 2>&1
}

teardown_file() {
	[ -n "${PGDIR:-}" ] || return 0
	pg pg_ctl -D "$PGDIR/data" -m immediate stop > /dev/null 2>&1
	rm -rf "$PGDIR"
}

setup() {
	[ -x "$PGBIN/postgres" ] || skip "PostgreSQL 15 is not installed"
}

@test "pgbench -c 2 -t 500: query__start by statement kind and transaction__start, as bpftrace counts" {
	local p=$PGBIN/postgres st bt
	"$SIDETRACE" -e "usdt:$p:query__start { @q[pid] = 1; @[str(arg0, 6)] = count(); }
		usdt:$p:postgresql:transaction__start /@q[pid]/ { @t = count(); }
		usdt:$p:transaction__start { @all = count(); }" > "$BATS_TEST_TMPDIR/st.txt" 2>&1 &
	st=$!
	bpftrace -e "usdt:$p:postgresql:query__start { @q[pid] = 1; }
		usdt:$p:postgresql:transaction__start /@q[pid]/ { @t = count(); }
		usdt:$p:postgresql:transaction__start { @all = count(); }
		BEGIN { printf(\"go\\n\"); } END { clear(@q); }" \
		> "$BATS_TEST_TMPDIR/bt.txt" 2>&1 &
	bt=$!
	wait_attached "$BATS_TEST_TMPDIR/st.txt"
	# bpftrace prints "Attaching" before it attaches, and runs BEGIN after.
	wait_attached "$BATS_TEST_TMPDIR/bt.txt" '^go$'
	pg pgbench -h "$PGDIR" -p $PORT -c 2 -t 500 postgres > "$BATS_TEST_TMPDIR/bench.txt" 2>&1
	# bpftrace started in the background of a script may miss a SIGINT (one
	# CI run waited 15 minutes): SIGTERM ends it the same way.
	kill -INT $st
	kill -TERM $bt
	wait_exit $st sidetrace
	wait_exit $bt bpftrace TERM
	cat "$BATS_TEST_TMPDIR/st.txt" "$BATS_TEST_TMPDIR/bt.txt" "$BATS_TEST_TMPDIR/bench.txt"
	grep -q 'number of transactions actually processed: 1000/1000' "$BATS_TEST_TMPDIR/bench.txt"
	# TPC-B: BEGIN; UPDATE accounts; SELECT abalance; UPDATE tellers; UPDATE branches; INSERT; END;
	grep -qx '@\[BEGIN;\]: 1000' "$BATS_TEST_TMPDIR/st.txt"
	grep -qx '@\[UPDATE\]: 3000' "$BATS_TEST_TMPDIR/st.txt"
	grep -qx '@\[SELECT\]: 1000' "$BATS_TEST_TMPDIR/st.txt"
	grep -qx '@\[INSERT\]: 1000' "$BATS_TEST_TMPDIR/st.txt"
	grep -qx '@\[END;\]: 1000' "$BATS_TEST_TMPDIR/st.txt"
	# Each client's transactions, and its setup's, as bpftrace counted them.
	[ "$(grep '^@t:' "$BATS_TEST_TMPDIR/st.txt")" = "$(grep '^@t:' "$BATS_TEST_TMPDIR/bt.txt")" ]
	[ "$(grep '^@t:' "$BATS_TEST_TMPDIR/st.txt" | awk '{ print $2 }')" -ge 1000 ]
}

@test "-lv lists PostgreSQL's probes with their arguments' types" {
	run -0 "$SIDETRACE" -lv "usdt:$PGBIN/postgres:postgresql:lock__wait__start"
	[ "${lines[0]}" = "usdt:$PGBIN/postgres:postgresql:lock__wait__start" ]
	[ "${#lines[@]}" -eq 7 ]
	[[ "${lines[6]}" =~ ^\ \ \ \ arg5:\ s32\ \( ]]
}
