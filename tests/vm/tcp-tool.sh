#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs in the VM guest (tests/vm/run-kernel.sh): one of bpftrace's tcp tools
# under sidetrace while busybox makes TCP traffic on loopback. Prints the
# pids the tool should name ("pid NAME PID"), then the tool's output; exits
# with sidetrace's status.
#
#   tcp-tool.sh SIDETRACE TOOL.bt
#
# The workload, the same for every tool:
# - busybox httpd on 127.0.0.1:8080 (listen backlog 9) accepts one wget of a
#   10240-byte file: an accept, a connect, a lifespan on each side;
# - a wget of the closed port 8089 is refused;
# - an nc server on 8083 sends a file and closes (its socket orphaned at
#   once) before its client, which holds its end open until then, closes:
#   the client's FIN reaches a socket in FIN_WAIT2 that no process owns;
# - six nc clients connect to an nc listener on 8082 (backlog 1) that is
#   stopped: the SYNs past its full accept queue are dropped, and their
#   clients retransmit them after a second.
# The applets run through links named after them, so comm is their name.
set -u
st=$1 tool=$2
b=/bin/busybox
d=$(mktemp -d /run/tcp.XXXXXX)
mkdir "$d/bin" "$d/www"
for a in httpd wget nc; do ln -s $b "$d/bin/$a"; done
head -c 10240 /dev/zero > "$d/www/f"
# The guest boots with lo down; up, it gets 127.0.0.1 from the kernel.
$b ip link set lo up
# An orphaned socket in FIN_WAIT2 stays a full socket while its FIN timeout
# is past TIME_WAIT's 60 s, rather than becoming a timewait socket at once:
# the nc server's socket, closed first, then takes its client's FIN itself
# whether or not the client's ACK of its FIN came apart from it (delayed ACK
# under TCG). httpd cannot be that server: it shuts its socket down for
# writing and exits later, so the client's FIN may come while it still owns
# the socket.
echo 120 > /proc/sys/net/ipv4/tcp_fin_timeout

listening() { # port-in-hex: until a socket listens on it (v4 or v6)
	for _ in $(seq 100); do
		awk -v p=":$1" 'substr($2, length($2) - 4) == p && $4 == "0A" { f = 1 }
			END { exit !f }' /proc/net/tcp /proc/net/tcp6 && return
		sleep 0.1
	done
}

__BPFTRACE_NOTIFY_PROBES_ATTACHED=1 "$st" "$tool" > "$d/out" 2> "$d/err" &
s=$!
for _ in $(seq 1200); do
	grep -q '^__BPFTRACE_NOTIFY_PROBES_ATTACHED$' "$d/err" && break
	kill -0 $s 2> /dev/null || break
	sleep 0.1
done

"$d/bin/httpd" -f -p 127.0.0.1:8080 -h "$d/www" &
h=$!
listening 1F90
"$d/bin/wget" -q -O /dev/null http://127.0.0.1:8080/f &
w=$!
wait $w
"$d/bin/wget" -q -O /dev/null http://127.0.0.1:8089/f 2> /dev/null &
f=$!
wait $f
# nc -e: the server's socket is the program's, closed when it exits. The
# client reads until the server's FIN, then closes (its stdin still open).
"$d/bin/nc" -l -p 8083 -e $b cat "$d/www/f" &
listening 1F93
sleep 3 | "$d/bin/nc" 127.0.0.1 8083 > /dev/null
wait $!

"$d/bin/nc" -l -p 8082 < /dev/null > /dev/null &
l=$!
listening 1F92
kill -STOP $l
c=()
for _ in 1 2 3 4 5 6; do
	"$d/bin/nc" -w 5 127.0.0.1 8082 < /dev/null > /dev/null 2>&1 &
	c+=($!)
done
# Until a client in SYN_SENT has retransmitted its SYN (the retrnsmt column).
for _ in $(seq 100); do
	awk '$3 ~ /:1F92$/ && $4 == "02" && $7 != "00000000" { f = 1 } END { exit !f }' \
		/proc/net/tcp && break
	sleep 0.1
done
sleep 0.5

kill -INT $s
wait $s
rc=$?
kill "${c[@]}" $h 2> /dev/null
kill $l
kill -CONT $l
wait
echo "pid httpd $h"
echo "pid wget $w"
echo "pid refused $f"
cat "$d/out"
cat "$d/err" >&2
rm -rf "$d"
exit $rc
