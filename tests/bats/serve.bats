#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# sidetrace serve end to end: two exporters (two copies of httpd_sim, two
# "hosts") scraped every second by a real Prometheus (Debian's package, on
# loopback, storage in a temporary directory); what Prometheus stores must
# be the examples' ground truth (-v) exactly.

load helpers
bats_require_minimum_version 1.5.0

# The program both hosts run, on their own copy of the binary.
program() { # binary
	cat <<EOF
side:$1:http:request {
	@requests[args.method, args.status] = count();
	@latency = hist(args.latency_ns);
	@bytes = lhist(args.bytes, 0, 60000, 10000);
	@bytes_stats = stats(args.bytes);
	@slowest_request = max(args.latency_ns);
}
side:$1:http:error { @errors[args.reason] = count(); @error_codes = sum(args.code); }
EOF
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

setup_file() {
	local d=$BATS_FILE_TMPDIR i
	mkdir -p "$d/a/programs" "$d/b" "$d/prom"
	cc -O2 -Wall -I"$ROOT/include" "$BATS_TEST_DIRNAME/../fixtures/side_edge.c" \
		-o "$d/side_edge" "$OUT/libside.a" -lpthread -ldl
	# Uprobes go by inode: each copy is a host of its own.
	cp "$HTTPD" "$d/a/httpd_sim"
	cp "$HTTPD" "$d/b/httpd_sim"
	program "$d/a/httpd_sim" > "$d/a/programs/http.st"
	program "$d/b/httpd_sim" > "$d/b/http.st"
	start_serve "$d/a/serve.log" "$d/a/programs"
	echo "$SERVE_PID $SERVE_ADDR" > "$d/a/serve.id"
	start_serve "$d/b/serve.log" "$d/b/http.st"
	echo "$SERVE_PID $SERVE_ADDR" > "$d/b/serve.id"
	cat > "$d/prom/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: sidetrace
    static_configs:
      - targets: ['$(cut -d' ' -f2 "$d/a/serve.id")', '$(cut -d' ' -f2 "$d/b/serve.id")']
EOF
	echo "127.0.0.1:$(free_port)" > "$d/prom/addr"
	prometheus --config.file="$d/prom/prometheus.yml" --storage.tsdb.path="$d/prom/data" \
		--web.listen-address="$(cat "$d/prom/addr")" --log.level=warn \
		> "$d/prom/log" 2>&1 3>&- &
	echo $! > "$d/prom/pid"
	for i in $(seq 100); do
		curl -sf "http://$(cat "$d/prom/addr")/-/ready" > /dev/null && return 0
		sleep 0.2
	done
	echo "prometheus did not start:" >&2
	cat "$d/prom/log" >&2
	return 1
}

teardown_file() {
	local d=$BATS_FILE_TMPDIR f
	for f in "$d/a/serve.id" "$d/b/serve.id" "$d/prom/pid"; do
		[ -f "$f" ] && kill "$(cut -d' ' -f1 "$f")" 2> /dev/null
	done
	true
}

setup() {
	D=$BATS_FILE_TMPDIR
	A=$D/a/httpd_sim
	B=$D/b/httpd_sim
	A_ADDR=$(cut -d' ' -f2 "$D/a/serve.id")
	B_ADDR=$(cut -d' ' -f2 "$D/b/serve.id")
	PROM=http://$(cat "$D/prom/addr")
}

# A PromQL query's series, one a line: labels (name=value, by name,
# without job and instance) then the value.
prom_query() { # query
	curl -sf --get "$PROM/api/v1/query" --data-urlencode "query=$1" | jq -r '.data.result[] |
		[(.metric | del(.__name__, .job, .instance) | to_entries | sort_by(.key) |
		  map("\(.key)=\(.value)") | join(",")), .value[1]] | join(" ")' | sort
}

# Waits until Prometheus answers query with exactly the lines of file want.
wait_prom() { # want query
	local i
	for i in $(seq 40); do
		prom_query "$2" > "$D/got"
		cmp -s "$1" "$D/got" && return 0
		sleep 0.5
	done
	echo "query: $2" >&2
	diff -u "$1" "$D/got" >&2
	return 1
}

# Cumulative histogram of FIELD of EVENT in the ground truth on stdin:
# "le=X count" for each le given, +Inf counting all.
truth_buckets() { # event field le...
	python3 -c '
import sys
ev, field, les = sys.argv[1], sys.argv[2], sys.argv[3:]
vals = []
for line in sys.stdin:
    w = line.split()
    if w and w[0] == ev:
        vals += [int(kv.split("=", 1)[1]) for kv in w[1:] if kv.split("=", 1)[0] == field]
for le in les:
    print("le=%s %d" % (le, len(vals) if le == "+Inf" else sum(v <= int(le) for v in vals)))
' "$@" | sort
}

# hist(): 0, 1, 3, 7 ... 2^63 - 1, +Inf; lhist(0, 60000, 10000): -1, 9999 ... 59999, +Inf.
HIST_LES=$(python3 -c 'print(*[2**k - 1 for k in range(64)], "+Inf")')
LHIST_LES="-1 9999 19999 29999 39999 49999 59999 +Inf"

# Counts by "NAME=VALUE,NAME=VALUE" of the given fields of EVENT in the truth.
truth_by() { # event field...
	awk -v ev="$1" -v fields="${*:2}" '$1 == ev {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		n_f = split(fields, f, " "); k = ""
		for (j = 1; j <= n_f; j++) k = k (j > 1 ? "," : "") f[j] "=" v[f[j]]
		n[k]++
	} END { for (k in n) print k, n[k] }' | sort
}

@test "after a workload, Prometheus holds the exact counts, sums and buckets of the truth" {
	local q="{instance=\"$A_ADDR\"}"
	"$A" -n 500 -s 11 -v > "$D/truth_a"
	truth_by http:request method status < "$D/truth_a" > "$D/want"
	wait_prom "$D/want" "sidetrace_requests_total$q"
	truth_buckets http:request latency_ns $HIST_LES < "$D/truth_a" > "$D/want"
	[ "$(wc -l < "$D/want")" = 65 ]
	wait_prom "$D/want" "sidetrace_latency_bucket$q"
	echo " $(truth_sum http:request latency_ns < "$D/truth_a")" > "$D/want"
	wait_prom "$D/want" "sidetrace_latency_sum$q"
	echo " 500" > "$D/want"
	wait_prom "$D/want" "sidetrace_latency_count$q"
	truth_buckets http:request bytes $LHIST_LES < "$D/truth_a" > "$D/want"
	wait_prom "$D/want" "sidetrace_bytes_bucket$q"
	echo " $(truth_sum http:request bytes < "$D/truth_a")" > "$D/want"
	wait_prom "$D/want" "sidetrace_bytes_stats_sum$q"
	wait_prom "$D/want" "sidetrace_bytes_sum$q"
	echo " $(awk '$1 == "http:request" { split($5, kv, "="); if (kv[2] > m) m = kv[2] }
		END { print m }' "$D/truth_a")" > "$D/want"
	wait_prom "$D/want" "sidetrace_slowest_request$q"
	truth_by http:error reason < "$D/truth_a" > "$D/want"
	[ -s "$D/want" ]
	wait_prom "$D/want" "sidetrace_errors_total$q"
	# A sum of signed values is a gauge, negative here.
	echo " $(truth_sum http:error code < "$D/truth_a")" > "$D/want"
	[[ "$(cat "$D/want")" == " -"* ]]
	wait_prom "$D/want" "sidetrace_error_codes$q"
}

@test "the text exposition passes promtool check metrics; OpenMetrics has the same samples" {
	curl -sf "http://$A_ADDR/metrics" > "$D/text"
	run promtool check metrics < "$D/text"
	echo "$output"
	[ "$status" = 0 ]
	[ -z "$output" ]
	grep -q '^# TYPE sidetrace_requests_total counter$' "$D/text"
	grep -q '^# TYPE sidetrace_latency histogram$' "$D/text"
	grep -q '^sidetrace_latency_bucket{le="+Inf"} ' "$D/text"
	curl -sf -D "$D/om_head" -H 'Accept: application/openmetrics-text; version=1.0.0' \
		"http://$A_ADDR/metrics" > "$D/om"
	grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$D/om_head"
	grep -q '^# TYPE sidetrace_requests counter$' "$D/om"
	[ "$(tail -1 "$D/om")" = "# EOF" ]
	diff <(grep -v -e '^#' -e duration "$D/text") <(grep -v -e '^#' -e duration "$D/om")
}

@test "a malformed or oversized request gets an error; the exporter keeps serving" {
	local port=${A_ADDR##*:} big
	big=$(head -c 100000 /dev/zero | tr '\0' a)
	run curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $big" "http://$A_ADDR/metrics"
	[ "$output" = 431 ]
	run curl -s -o /dev/null -w '%{http_code}' "http://$A_ADDR/metrics?$big"
	[ "$output" = 414 ]
	run curl -s -o /dev/null -w '%{http_code}' -X POST "http://$A_ADDR/metrics"
	[ "$output" = 405 ]
	run curl -s -o /dev/null -w '%{http_code}' --data x=1 -X GET "http://$A_ADDR/metrics"
	[ "$output" = 413 ]
	run curl -s -o /dev/null -w '%{http_code}' "http://$A_ADDR/nothing"
	[ "$output" = 404 ]
	# A header line without a colon, then a request line that is no HTTP.
	exec 4<> /dev/tcp/127.0.0.1/$port
	printf 'GET /metrics HTTP/1.1\r\nHost x\r\n\r\n' >&4
	run timeout 5 head -1 <&4
	exec 4<&-
	[[ "$output" == "HTTP/1.1 400 "* ]]
	exec 4<> /dev/tcp/127.0.0.1/$port
	# Bytes that are no request line at all: 400 too, never silence.
	for req in '\x00\x01\x02garbage\r\n\r\n' 'GARBAGE\r\n\r\n' 'GET /metrics\r\n\r\n'; do
		exec 4<> /dev/tcp/127.0.0.1/$port
		printf "$req" >&4
		run timeout 5 head -1 <&4
		exec 4<&-
		[[ "$output" == "HTTP/1.1 400 "* ]]
	done
	run curl -s -o /dev/null -w '%{http_code}' --http1.0 -H 'Host:' "http://$A_ADDR/metrics"
	[ "$output" = 200 ]
	run curl -s -o /dev/null -w '%{http_code}' -H 'Accept: text/plain;q=1e999, */*;q=nan' \
		"http://$A_ADDR/metrics"
	[ "$output" = 200 ]
	run -0 curl -sf "http://$A_ADDR/metrics"
	[[ "$output" == *"sidetrace_requests_total{"* ]]
}

@test "slow clients: 8 connections an address, 408 for a head not complete in 5 s, scrapes go on" {
	local port=${A_ADDR##*:} pid i
	# 100 clients from 127.0.0.2, each adding a header line every 2 s.
	python3 "$ROOT/tests/fixtures/slow_clients.py" 127.0.0.1 "$port" 100 127.0.0.2 2 15 > "$D/slow" &
	pid=$!
	sleep 1
	for i in 1 2 3; do
		run -0 curl -sf --max-time 2 "http://$A_ADDR/metrics"
		[[ "$output" == *"sidetrace_scrape_duration_seconds "* ]]
	done
	run curl -s -o /dev/null -w '%{http_code}' --interface 127.0.0.2 "http://$A_ADDR/metrics"
	[ "$output" = 503 ]
	wait $pid
	cat "$D/slow"
	# Eight held until their deadline (polled every 0.1 s), the others refused at
	# once: well before the deadline, with room for a loaded machine.
	run awk '$1 == 408 && $2 == 8 && $3 >= 4.9 && $3 <= 6.5 { a = 1 }
		$1 == 503 && $2 == 92 && $3 <= 2.5 { b = 1 } END { exit !(a && b && NR == 2) }' "$D/slow"
	[ "$status" = 0 ]
	run curl -s -o /dev/null -w '%{http_code}' --interface 127.0.0.2 "http://$A_ADDR/metrics"
	[ "$output" = 200 ]
}

@test "two hosts scraped by one Prometheus: sum by (le) merges their histograms exactly" {
	"$B" -n 300 -s 12 -v > "$D/truth_b"
	cat "$D/truth_a" "$D/truth_b" | truth_buckets http:request latency_ns $HIST_LES > "$D/want"
	wait_prom "$D/want" "sum by (le) (sidetrace_latency_bucket)"
	cat "$D/truth_a" "$D/truth_b" | truth_by http:request method > "$D/want"
	wait_prom "$D/want" "sum by (method) (sidetrace_requests_total)"
	echo " 800" > "$D/want"
	wait_prom "$D/want" "sum(sidetrace_latency_count)"
	echo " 300" > "$D/want"
	wait_prom "$D/want" "sidetrace_latency_count{instance=\"$B_ADDR\"}"
}

@test "SIGTERM detaches everything: the semaphore drops to 0, serve exits 0" {
	local c=$D/c/httpd_sim
	mkdir -p "$D/c"
	cp "$HTTPD" "$c"
	start_app "$D/app.pid" "$c" -d 30 -p
	run -0 read_semaphore "$APP_PID" "$c" http request
	[ "$output" = 0 ]
	start_serve "$D/c/serve.log" -e "$(program "$c")"
	run -0 read_semaphore "$APP_PID" "$c" http request
	[ "$output" = 1 ]
	run -0 curl -sf "http://$SERVE_ADDR/metrics"
	[[ "$output" == *"sidetrace_processes{target=\"$c\"} 1"* ]]
	kill -TERM $SERVE_PID
	wait $SERVE_PID
	run -0 read_semaphore "$APP_PID" "$c" http request
	kill $APP
	wait $APP || true
	[ "$output" = 0 ]
}

@test "serve refuses what cannot be a metric, with the reason" {
	run -1 --separate-stderr "$SIDETRACE" serve -e "side:$HTTPD:http:request { @ = count(); }"
	[[ "$stderr" == *"the map @ has no name"* ]]
	run -1 --separate-stderr "$SIDETRACE" serve \
		-e "side:$HTTPD:http:request { @n = count(); } interval:s:1 { clear(@n); }"
	[[ "$stderr" == *"clear(@n): serve exports @n as a Prometheus counter"* ]]
	run -1 --separate-stderr "$SIDETRACE" serve -e "side:$HTTPD:http:request { @n = count(); }" \
		-e "side:$HTTPD:http:error { @n_total = count(); }"
	[[ "$stderr" == *"@n in program1 and @n_total in program2 would both be the metric"* ]]
	run -1 --separate-stderr "$SIDETRACE" serve -e "side:$HTTPD:http:request { @processes = max(args.bytes); }"
	[[ "$stderr" == *"@processes in program would be the metric sidetrace_processes, which is serve's own"* ]]
	run -1 --separate-stderr "$SIDETRACE" serve --listen "$A_ADDR" -e "side:$HTTPD:http:request { @n = count(); }"
	[[ "$stderr" == *"cannot listen on $A_ADDR: Address already in use"* ]]
	run -1 --separate-stderr "$SIDETRACE" serve --listen nonsense -e "side:$HTTPD:http:request { @n = count(); }"
	[[ "$stderr" == *"--listen nonsense: want ADDR:PORT"* ]]
	mkdir -p "$D/empty"
	run -2 --separate-stderr "$SIDETRACE" serve "$D/empty"
	[[ "$stderr" == *"$D/empty holds no program (*.st file)"* ]]
}

@test "clear() of a gauge in an interval: a cleared gauge has no sample until its next value" {
	local prog="side:$HTTPD:http:request { @max_bytes = max(args.bytes); @n = count(); }
		interval:ms:200 { clear(@max_bytes); }"
	start_serve "$D/gauge.log" -e "$prog"
	"$HTTPD" -n 50 -s 3 > /dev/null
	sleep 0.5
	run -0 curl -sf "http://$SERVE_ADDR/metrics"
	kill -TERM $SERVE_PID
	wait $SERVE_PID
	[[ "$output" == *"# TYPE sidetrace_max_bytes gauge"* ]]
	[[ "$output" != *"sidetrace_max_bytes "[0-9]* ]]
	[[ "$output" == *"sidetrace_n_total 50"* ]]
}

@test "decode errors and truncated strings are counted per probe and reason" {
	local edge=$D/side_edge probe
	probe="program=\"program\",probe=\"side:$edge:edge:ev\""
	# A clause with a load that fails is skipped whole: @events has its own.
	start_serve "$D/edge.log" -e "side:$edge:edge:ev { @by_s[args.s] = count(); }
		side:$edge:edge:ev { @events = count(); }"
	"$edge" badstr 7
	"$edge" long 3
	run -0 curl -sf "http://$SERVE_ADDR/metrics"
	kill -TERM $SERVE_PID
	wait $SERVE_PID
	[[ "$output" == *"sidetrace_events_lost_total{$probe,reason=\"string_unreadable\"} 7"* ]]
	[[ "$output" == *"sidetrace_strings_truncated_total{$probe} 3"* ]]
	[[ "$output" == *"sidetrace_events_total 10"* ]]
	[[ "$output" == *"sidetrace_probe_sites{$probe} 1"* ]]
}

@test "--listen: a port past 65535, or a name, is refused with the reason" {
	run -1 --separate-stderr timeout 10 "$SIDETRACE" serve --listen 127.0.0.1:99999 -e "side:$HTTPD:http:request { @n = count(); }"
	[ "$stderr" = "sidetrace: --listen 127.0.0.1:99999: the port is a number from 0 (any free one) to 65535" ]
	run -1 --separate-stderr timeout 10 "$SIDETRACE" serve --listen 127.0.0.1:http -e "side:$HTTPD:http:request { @n = count(); }"
	[ "$stderr" = "sidetrace: --listen 127.0.0.1:http: the port is a number from 0 (any free one) to 65535" ]
}
