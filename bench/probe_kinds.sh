#!/bin/bash
# SPDX-License-Identifier: MIT
# Part 9: the probe kinds beyond SIDE against stock bpftrace, same run:
#  - launch to attached (BEGIN's line) and peak RSS then, on a PostgreSQL
#    USDT probe and on a DWARF uprobe with an argument by name; the Go
#    binary's uprobe for sidetrace alone (bpftrace reads its args wrong);
#  - the peak RSS and time of reading DWARF: `-lv` of one function and of
#    many, in sidetrace's own binary (built with -g) and in a large Go
#    binary, and launch to attached on that one.
# Medians of REPEAT runs; ratios are sidetrace / bpftrace (lower is better).
set -eu
cd "$(dirname "$0")/.."
ST=$PWD/.output/sidetrace
B=$PWD/.output/bench/kinds
REPEAT=${REPEAT:-5}
PG=/usr/lib/postgresql/15/bin/postgres
mkdir -p "$B"
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing

. bench/common.sh

# sidetrace prints "Attaching N probes..." once they are attached; bpftrace
# prints it before attaching, so its marker is BEGIN's output.

compare() { # name sidetrace-program bpftrace-program
	local s b
	s=$(startup Attaching "$ST" -e "$2")
	b=$(startup go bpftrace -e "$3 BEGIN { printf(\"go\\n\"); }")
	awk -v n="$1" -v s="$s" -v b="$b" 'BEGIN { split(s, x, " "); split(b, y, " ")
		printf "%-34s %8.1f ms %8.1f ms %6.2fx %8d KiB %8d KiB %6.2fx\n", n, x[1] * 1000,
			y[1] * 1000, x[1] / y[1], x[2], y[2], x[2] / y[2] }'
}

cc -O2 -g tests/fixtures/dwarf_app.c -o "$B/dwarf_app"
printf '%-34s %11s %11s %7s %12s %12s %7s\n' probe sidetrace bpftrace ratio st_rss bt_rss ratio
[ -x "$PG" ] && compare "usdt: PostgreSQL query__start" \
	"usdt:$PG:postgresql:query__start { @[str(arg0)] = count(); }" \
	"usdt:$PG:postgresql:query__start { @[str(arg0)] = count(); }"
compare "uprobe: DWARF argument by name" \
	"uprobe:$B/dwarf_app:named { @[args.m] = count(); }" \
	"uprobe:$B/dwarf_app:named { @[args->m] = count(); }"
if command -v go > /dev/null; then
	HOME=$B GOCACHE=$B/gocache GO111MODULE=off go build -o "$B/go_app" tests/fixtures/go_app/main.go
	s=$(startup Attaching "$ST" -e "uprobe:$B/go_app:main.work { @ = sum(args.n); }")
	echo "uprobe: Go main.work, args.n        $(awk '{ printf "%8.1f ms, %d KiB", $1 * 1000, $2 }' <<<"$s")"
fi
# Reading DWARF, peak RSS and time of -lv: one function, then many, of
# sidetrace's own binary (built with -g) and of a large one with
# compressed DWARF, Go's own go command built from the GOROOT sources
# Debian ships (Pixie reports 100-150 MB spikes indexing such binaries).
lv() { # binary pattern
	/usr/bin/time -f '%M %e' "$ST" -lv "uprobe:$1:$2" > "$B/lv.txt" 2> "$B/rss.txt" || true
	echo "-lv 'uprobe:$(basename "$1"):$2' ($(grep -c '^uprobe:' "$B/lv.txt") functions, $(du -h "$1" | cut -f1)): $(tail -1 "$B/rss.txt" | awk '{ printf "%d KiB peak RSS, %.2f s", $1, $2 }')"
}
lv "$ST" st_compile
lv "$ST" 'st_*'
if command -v go > /dev/null && [ -d "$(go env GOROOT)/src/cmd/go" ]; then
	HOME=$B GOCACHE=$B/gocache go build -o "$B/gocmd" cmd/go
	lv "$B/gocmd" cmd/go/internal/load.PackagesAndErrors
	lv "$B/gocmd" 'cmd/go/internal/work.*'
	s=$(startup Attaching "$ST" -e "uprobe:$B/gocmd:cmd/go/internal/load.PackagesAndErrors { @ = count(); }")
	echo "uprobe: go command (large Go binary)  $(awk '{ printf "%8.1f ms, %d KiB", $1 * 1000, $2 }' <<<"$s")"
fi
