# SPDX-License-Identifier: MIT
# Shared by the bats suites: paths and small helpers.
ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
OUT="$ROOT/.output"
HTTPD="$OUT/examples/httpd_sim"
KV="$OUT/examples/kv_client"
LIBKV="$OUT/examples/libkv.so"
# tests/asan.sh points this at the ASan+UBSan build.
SIDETRACE="${SIDETRACE:-$OUT/sidetrace}"

# bpftrace warns that it cannot raise RLIMIT_MEMLOCK here; that is expected.
# A bound on every run, so a tracer that never sees its end fails the test
# instead of hanging the suite.
bpftrace_q() {
	timeout -s INT 60 bpftrace "$@" 2>&1 | grep -v -e RLIMIT_MEMLOCK -e '^Attaching' -e '^$'
}

# Starts a command that prints its pid first (-p), in the background;
# sets APP (the shell's child) and APP_PID once the pid line is written.
start_app() { # pidfile command...
	local f=$1 i
	shift
	"$@" > "$f" &
	APP=$!
	for i in $(seq 100); do
		APP_PID=$(head -1 "$f" 2>/dev/null)
		[ -n "$APP_PID" ] && return 0
		sleep 0.05
	done
	echo "start_app: $1 printed no pid" >&2
	return 1
}

# Sums field N (name=value pairs) of the ground-truth lines printed with -v.
truth_sum() { # event field
	awk -v ev="$1" -v f="$2" '$1 == ev { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) s += kv[2] } } END { print s + 0 }'
}

# tests/fixtures/req_writes, which prints its ground truth: one line per
# request path, "PATH calls=N bytes=M", and "outside ...".
build_req_writes() { # output
	cc -O2 -Wall -I"$ROOT/include" "$BATS_TEST_DIRNAME/../fixtures/req_writes.c" \
		-o "$1" "$OUT/libside.a" -lpthread
}

# req_writes' ground truth: the total of field (calls or bytes) over every line.
truth_total() { # file field
	awk -v f="$2" '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) s += kv[2] } } END { print s + 0 }' "$1"
}

truth_count() { # event
	awk -v ev="$1" '$1 == ev { n++ } END { print n + 0 }'
}

# Reads the 16-bit USDT semaphore of PROVIDER:NAME in process PID.
read_semaphore() { # pid binary provider name
	python3 - "$@" <<'PY'
import re, subprocess, sys
pid, binary, prov, name = sys.argv[1:5]
notes = subprocess.run(["readelf", "-n", binary], capture_output=True, text=True).stdout
sema = None
for block in notes.split("Provider: ")[1:]:
    lines = block.splitlines()
    if lines[0].strip() == prov and lines[1].split(":", 1)[1].strip() == name:
        sema = int(re.search(r"Semaphore: (0x[0-9a-f]+)", block).group(1), 16)
sections = subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True).stdout
# Map the semaphore's virtual address to its file offset through PT_LOAD.
off = None
for l in sections.splitlines():
    f = l.split()
    if f and f[0] == "LOAD":
        o, va, fsz = int(f[1], 16), int(f[2], 16), int(f[4], 16)
        if va <= sema < va + fsz:
            off = sema - va + o
real = subprocess.run(["readlink", "-f", binary], capture_output=True, text=True).stdout.strip()
for l in open(f"/proc/{pid}/maps"):
    f = l.split()
    if len(f) >= 6 and f[5] == real:
        lo, hi = (int(x, 16) for x in f[0].split("-"))
        moff = int(f[2], 16)
        if moff <= off < moff + (hi - lo):
            with open(f"/proc/{pid}/mem", "rb") as m:
                m.seek(lo + off - moff)
                print(int.from_bytes(m.read(2), "little"))
            sys.exit(0)
sys.exit("semaphore not mapped")
PY
}

# Builds SRC with gcc and clang at -O0, -O2 and -O3 (with -g) into
# $BATS_FILE_TMPDIR/NAME_CC_LEVEL: the operand forms and DWARF locations
# that the usdt: and uprobe: suites read exactly, whatever the compiler.
build_matrix() { # src name
	local cc o
	for cc in gcc clang; do
		for o in O0 O2 O3; do
			$cc -$o -g -Wall "$1" -o "$BATS_FILE_TMPDIR/$2_${cc}_$o" || return 1
		done
	done
}

# Runs sidetrace -c "BIN N" with the program that prog() writes for BIN
# and compares its maps, sorted, with what expected() prints.
check_exact() { # bin n
	run timeout 60 "$SIDETRACE" -c "$1 $2" -e "$(prog "$1")"
	echo "$output"
	[ "$status" -eq 0 ]
	diff <(expected) <(grep '^@' <<<"$output" | sort)
}

# Waits until a session in the background has attached: its "Attaching"
# line (bpftrace's BEGIN output when MARKER says so), at most 30 s.
wait_attached() { # file [marker]
	local i
	for i in $(seq 600); do
		grep -q "${2:-^Attaching}" "$1" 2> /dev/null && return 0
		sleep 0.05
	done
	return 1
}

# Waits until a background child, signalled to end, has ended (a zombie
# or gone), at most 120 s; then reaps it. Fails naming it otherwise, so
# that a session that hangs says whose it is. With SIG, sends it again
# every 5 s: bpftrace 0.17 can lose one sent between its check of the
# flag and its wait for events, and then waits for ever (a CI run found
# it asleep in epoll_wait 17 minutes later; a second SIGTERM ended it).
wait_exit() { # pid name [SIG]
	local i state
	for i in $(seq 1200); do
		state=$(awk '{ print $3 }' "/proc/$1/stat" 2> /dev/null || true)
		if [ -z "$state" ] || [ "$state" = Z ]; then
			wait "$1" || true
			return 0
		fi
		if [ -n "${3:-}" ] && [ $((i % 50)) -eq 0 ]; then
			kill -"$3" "$1" 2> /dev/null || true
		fi
		sleep 0.1
	done
	echo "$2 (pid $1) has not exited 120 s after its signal" >&2
	return 1
}

# Starts sidetrace serve ARGS... on a free port; sets SERVE_PID, SERVE_ADDR.
start_serve() { # log args...
	local log=$1 i
	shift
	"$SIDETRACE" serve --listen 127.0.0.1:0 "$@" > "$log" 2>&1 3>&- &
	SERVE_PID=$!
	for i in $(seq 100); do
		SERVE_ADDR=$(sed -n 's|^Serving .* at http://\(.*\)/metrics$|\1|p' "$log")
		[ -n "$SERVE_ADDR" ] && return 0
		kill -0 $SERVE_PID 2> /dev/null || break
		sleep 0.1
	done
	echo "serve did not start:" >&2
	cat "$log" >&2
	return 1
}

# tests/fixtures/hostile.c, which reaches the in-process engine's state.
build_hostile() { # output
	cc -O2 -Wall -Werror -I"$ROOT/include" -I"$ROOT/userspace" -I"$ROOT/userspace/lib" \
		-I"$ROOT/bpf" "$ROOT/tests/fixtures/hostile.c" -o "$1" "$OUT/libside.a" -lpthread
}
