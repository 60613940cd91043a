// SPDX-License-Identifier: MIT
/*
 * request_pairs: requests that begin on one thread and end on another,
 * each a pair of SIDE events (req:begin, req:end) sharing an id: the shape
 * of the latency one-liner
 *
 *   side:./request_pairs:req:begin { @start[args.id] = nsecs; }
 *   side:./request_pairs:req:end /@start[args.id]/ {
 *           @lat[args.path] = hist(nsecs - @start[args.id]); delete(@start[args.id]); }
 *
 * Each event also carries the request's time on a simulated clock (ts_ns:
 * a request begins every millisecond and takes its work time), the same
 * in every run of a seed, so that a test knows the exact latencies.
 * With -v every event is printed as "EVENT field=value ..." (ground truth).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <side/trace.h>

#include "xorshift.h"

side_static_event(ev_begin, "req", "begin", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u64("id"), side_field_string("path"),
				  side_field_u64("ts_ns"), ));

side_static_event(ev_end, "req", "end", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u64("id"), side_field_string("path"),
				  side_field_u16("status"), side_field_u64("ts_ns"), ));

static const char *const paths[] = {"/", "/login", "/api/items", "/static/app.js"};

/* A request in flight, from the thread that begins it to the one that ends it. */
struct request {
	uint64_t id;
	const char *path;
	uint16_t status;
	uint32_t work_us; /* how long it takes */
	uint64_t ts_ns; /* when it began, on the simulated clock */
};

struct options {
	long count;
	uint64_t seed;
	int verbose;
};

static int pipe_fds[2];

/* The ending thread: each request after its work, in the order begun. */
static void *ender(void *arg)
{
	int verbose = *(int *)arg;
	struct request r;
	uint64_t ts;

	while (read(pipe_fds[0], &r, sizeof(r)) == sizeof(r)) {
		usleep(r.work_us);
		ts = r.ts_ns + r.work_us * 1000ULL;
		side_event(ev_end, side_arg_list(side_arg_u64(r.id), side_arg_string(r.path),
						 side_arg_u16(r.status), side_arg_u64(ts)));
		if (verbose)
			printf("req:end id=%llu path=%s status=%u ts_ns=%llu\n",
			       (unsigned long long)r.id, r.path, r.status, (unsigned long long)ts);
	}
	return NULL;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	char *end;
	int c;

	while ((c = getopt(argc, argv, "n:s:vh")) != -1) {
		switch (c) {
		case 'n':
		case 's':
			errno = 0;
			if (c == 'n')
				o->count = strtol(optarg, &end, 0);
			else
				o->seed = strtoull(optarg, &end, 0);
			if (errno || *end || o->count < 0 || !o->seed) {
				fprintf(stderr, "%s: invalid value '%s' for -%c\n", argv[0], optarg,
					c);
				return -1;
			}
			break;
		case 'v':
			o->verbose = 1;
			break;
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"Usage: %s [-n COUNT] [-s SEED] [-v]\n"
				"Requests that begin on one thread and end on another.\n"
				"  -n COUNT  requests (default 200)\n"
				"  -s SEED   random seed (default 1)\n"
				"  -v        print every event's values on stdout\n",
				argv[0]);
			return c == 'h' ? 1 : -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = {.count = 200, .seed = 1};
	struct request r;
	pthread_t thread;
	uint64_t rng;
	int ret;
	long i;

	ret = parse_options(argc, argv, &o);
	if (ret)
		return ret < 0 ? 2 : 0;
	/* Lines of two threads: each printed whole. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pipe(pipe_fds) || pthread_create(&thread, NULL, ender, &o.verbose)) {
		perror("request_pairs");
		return 1;
	}
	rng = o.seed * 0x9E3779B97F4A7C15ULL;
	for (i = 0; i < o.count; i++) {
		r.id = 1000 + i * 7;
		r.path = paths[next_rand(&rng) % 4];
		r.status = next_rand(&rng) % 8 ? 200 : 503;
		r.work_us = 50 + next_rand(&rng) % 400;
		/* Never 0: a latency one-liner tests the stored start for non-zero. */
		r.ts_ns = (i + 1) * 1000000ULL;
		side_event(ev_begin, side_arg_list(side_arg_u64(r.id), side_arg_string(r.path),
						   side_arg_u64(r.ts_ns)));
		if (o.verbose)
			printf("req:begin id=%llu path=%s ts_ns=%llu\n", (unsigned long long)r.id,
			       r.path, (unsigned long long)r.ts_ns);
		if (write(pipe_fds[1], &r, sizeof(r)) != sizeof(r)) {
			perror("request_pairs: write");
			return 1;
		}
		/* Arrivals about as fast as the work: a short queue, not all at once. */
		usleep(250);
	}
	close(pipe_fds[1]);
	pthread_join(thread, NULL);
	return 0;
}
