// SPDX-License-Identifier: MIT
/*
 * A request-serving simulator instrumented with SIDE events. Given a seed
 * it emits the same values every run, and -v prints each event's values so
 * tests can compute exact expected aggregates.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <side/trace.h>

#include "xorshift.h"

static const char *const methods[] = {"GET", "POST", "PUT", "DELETE"};
static const char *const paths[] = {"/", "/index.html", "/api/users", "/api/orders",
				    "/static/app.js"};
static const char *const tables[] = {"users", "orders", "items"};

side_define_struct(peer_type, side_field_list(side_field_u32("addr"), side_field_u16("port"), ));

side_static_event(ev_request, "http", "request", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_string("method"), side_field_string("path"),
				  side_field_u16("status"), side_field_u64("latency_ns"),
				  side_field_u32("bytes"), side_field_struct("peer", peer_type), ),
		  side_attr_list(side_attr("component", side_attr_string("frontend"))));

side_static_event(ev_error, "http", "error", SIDE_LOGLEVEL_ERR,
		  side_field_list(side_field_s32("code"), side_field_string("reason"), ));

/*
 * A log line in the style of a logging library: a static message field,
 * then whatever context the caller has, as dynamic fields.
 */
side_static_event_variadic(ev_log, "app", "log", SIDE_LOGLEVEL_WARNING,
			   side_field_list(side_field_string("msg"), ));

side_static_event(ev_query, "db", "query", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_string("table"), side_field_u32("rows"),
				  side_field_array("shards", side_elem(side_type_u16()), 4),
				  side_field_vla("ids", side_elem(side_type_u32()),
						 side_length(side_type_u32())), ));

side_define_enum(conn_state_labels,
		 side_enum_mapping_list(side_enum_mapping_value("idle", 0),
					side_enum_mapping_value("reading", 1),
					side_enum_mapping_value("writing", 2),
					side_enum_mapping_range("closing", 3, 4), ));

side_static_event(ev_state, "app", "conn_state", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_enum("state", &conn_state_labels,
						  side_elem(side_type_u8())),
				  side_field_bool("keepalive"), ));

struct options {
	long count; /* events to emit, -1: until duration ends */
	double duration; /* seconds, 0: none */
	long rate; /* requests per second, 0: as fast as possible */
	uint64_t seed;
	int verbose;
	int print_pid;
	int timing;
};

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void emit_request(uint64_t *rng, int verbose)
{
	const char *method = methods[next_rand(rng) % 4];
	const char *path = paths[next_rand(rng) % 5];
	uint16_t status = (next_rand(rng) % 10) == 0 ? 500 + next_rand(rng) % 4
						     : (next_rand(rng) % 5 == 0 ? 404 : 200);
	uint64_t latency = 1000 + next_rand(rng) % 2000000;
	uint32_t bytes = next_rand(rng) % 65536;
	uint32_t addr = 0x0a000001 + next_rand(rng) % 8;
	uint16_t port = 40000 + next_rand(rng) % 100;

	if (side_event_enabled(ev_request)) {
		side_arg_define_vec(peer, side_arg_list(side_arg_u32(addr), side_arg_u16(port)));

		side_event_call(ev_request,
				side_arg_list(side_arg_string(method), side_arg_string(path),
					      side_arg_u16(status), side_arg_u64(latency),
					      side_arg_u32(bytes), side_arg_struct(peer), ));
	}
	if (verbose)
		printf("http:request method=%s path=%s status=%u latency_ns=%llu bytes=%u "
		       "peer.addr=%u peer.port=%u\n",
		       method, path, status, (unsigned long long)latency, bytes, addr, port);
	if (status >= 500) {
		int32_t code = -(int32_t)(EIO + status % 4);
		const char *reason = status == 500 ? "internal" : "unavailable";

		/* Derived from values already drawn: the RNG sequence stays as it was. */
		const char *msg = status == 500 ? "request_failed" : "backend_unavailable";
		int64_t attempt = status - 499;

		side_event(ev_error, side_arg_list(side_arg_s32(code), side_arg_string(reason)));
		if (verbose)
			printf("http:error code=%d reason=%s\n", code, reason);
		side_event_variadic(
			ev_log, side_arg_list(side_arg_string(msg)),
			side_arg_list(
				side_arg_dynamic_field("user", side_arg_dynamic_string(method)),
				side_arg_dynamic_field("attempt",
						       side_arg_dynamic_s64(attempt)), ));
		if (verbose)
			printf("app:log msg=%s user=%s attempt=%lld\n", msg, method,
			       (long long)attempt);
	}
}

static void emit_query(uint64_t *rng, int verbose)
{
	const char *table = tables[next_rand(rng) % 3];
	uint32_t rows = next_rand(rng) % 1000;
	uint16_t shards[4];
	uint32_t ids[8];
	uint32_t nr_ids = 1 + next_rand(rng) % 8;
	uint32_t i;

	for (i = 0; i < 4; i++)
		shards[i] = next_rand(rng) % 16;
	for (i = 0; i < nr_ids; i++)
		ids[i] = next_rand(rng) % 100000;

	if (side_event_enabled(ev_query)) {
		side_arg_define_vec(
			shard_vec, side_arg_list(side_arg_u16(shards[0]), side_arg_u16(shards[1]),
						 side_arg_u16(shards[2]), side_arg_u16(shards[3])));
		struct side_arg id_args[8];
		struct side_arg_vec id_vec = {.sav = SIDE_PTR_INIT(id_args), .len = nr_ids};

		for (i = 0; i < nr_ids; i++)
			id_args[i] = (struct side_arg)side_arg_u32(ids[i]);
		side_event_call(ev_query,
				side_arg_list(side_arg_string(table), side_arg_u32(rows),
					      side_arg_array(shard_vec), side_arg_vla(id_vec), ));
	}
	if (verbose) {
		printf("db:query table=%s rows=%u shards=%u,%u,%u,%u ids=", table, rows, shards[0],
		       shards[1], shards[2], shards[3]);
		for (i = 0; i < nr_ids; i++)
			printf("%s%u", i ? "," : "", ids[i]);
		printf("\n");
	}
}

static void emit_state(uint64_t *rng, int verbose)
{
	uint8_t state = next_rand(rng) % 5;
	int keepalive = next_rand(rng) % 2;

	side_event(ev_state, side_arg_list(side_arg_u8(state), side_arg_bool(keepalive)));
	if (verbose)
		printf("app:conn_state state=%u keepalive=%d\n", state, keepalive);
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [-n COUNT] [-d SECONDS] [-r RATE] [-s SEED] [-v] [-p] [-t]\n"
		"Simulates an HTTP server emitting SIDE events.\n"
		"  -n COUNT    requests to serve (default 1000; with -d, unlimited)\n"
		"  -d SECONDS  run for this long\n"
		"  -r RATE     requests per second (default: as fast as possible)\n"
		"  -s SEED     random seed (default 1): same seed, same events\n"
		"  -v          print every event's values on stdout\n"
		"  -p          print the pid on stdout first\n"
		"  -t          print the time spent serving on stderr (elapsed_ns N)\n",
		prog);
}

static int parse_long(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 0);
	return errno || *end || *out < 0 ? -1 : 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	long v;
	int c;

	while ((c = getopt(argc, argv, "n:d:r:s:vpth")) != -1) {
		switch (c) {
		case 'n':
			if (parse_long(optarg, &o->count))
				goto bad;
			break;
		case 'd':
			o->duration = strtod(optarg, NULL);
			if (o->duration <= 0)
				goto bad;
			if (o->count == 1000)
				o->count = -1;
			break;
		case 'r':
			if (parse_long(optarg, &o->rate))
				goto bad;
			break;
		case 's':
			if (parse_long(optarg, &v) || v == 0)
				goto bad;
			o->seed = v;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'p':
			o->print_pid = 1;
			break;
		case 't':
			o->timing = 1;
			break;
		case 'h':
			usage(stdout, argv[0]);
			exit(0);
		default:
			usage(stderr, argv[0]);
			return -1;
		}
	}
	return 0;
bad:
	fprintf(stderr, "%s: invalid value '%s' for -%c\n", argv[0], optarg, c);
	return -1;
}

int main(int argc, char **argv)
{
	struct options o = {.count = 1000, .seed = 1};
	double start, deadline;
	uint64_t rng;
	long i;

	if (parse_options(argc, argv, &o))
		return 2;
	if (o.print_pid) {
		printf("%d\n", getpid());
		fflush(stdout);
	}
	rng = o.seed * 0x9E3779B97F4A7C15ULL;
	start = now_seconds();
	deadline = o.duration > 0 ? start + o.duration : 0;
	for (i = 0; o.count < 0 || i < o.count; i++) {
		if (deadline && now_seconds() >= deadline)
			break;
		emit_request(&rng, o.verbose);
		if (i % 4 == 0)
			emit_query(&rng, o.verbose);
		if (i % 2 == 0)
			emit_state(&rng, o.verbose);
		if (o.rate) {
			double due = start + (double)(i + 1) / o.rate;
			double wait = due - now_seconds();

			if (wait > 0)
				usleep((useconds_t)(wait * 1e6));
		}
	}
	if (o.verbose)
		printf("served %ld requests\n", i);
	if (o.timing)
		fprintf(stderr, "elapsed_ns %.0f\n", (now_seconds() - start) * 1e9);
	return 0;
}
