// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the collector reading back what a process's
 * in-process engine left in their shared memory, which the process may
 * have written anything into: readout/inproc_read.c and every reader
 * after it (dump.c, aggregations.c, addr_keys.c, ro_strings.c,
 * problems.c, output/maps_print.c). For each of a few one-liners,
 * compiled against httpd_sim's events (built in, as in fuzz_inproc.c),
 * the program and memory are made as the collector makes them, the
 * engine runs on the example's events once, and what it left is the
 * baseline that each input changes:
 *
 *   byte 0    bits 0-1: the one-liner; bit 7 set: the rest of the input
 *             overwrites the memory from its start, else it is patches
 *   patches   10 bytes each: a word's index (2 bytes, little-endian,
 *             modulo the words before the ring) and the word (8 bytes)
 *
 * Then the maps are read and printed in text and JSON, the problems
 * read, and zero() and clear() run, as a session's end does. The
 * kernel's maps are real and empty (made at start, as root). ASan, UBSan
 * and libFuzzer's timeout stand for the collector: a crash, a trap, an
 * abort or a read that does not end is a bug.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "compile/compile.h"
#include "events/events.h"
#include "check/checker.h"
#include "parse/parser.h"
#include "readout/aggregations.h"
#include "inproc/inproc.h"
#include "inproc/inproc_prog.h"
#include "readout/problems.h"
#include "lib/inproc/engine.h"

#include "httpd_events.h"

#define T "side:httpd_sim:"
/* Maps without keys; keyed by integers, the pid, the probe; strings and enums; plain values. */
static const char *const programs[] = {
	T "http:request { @a = avg(args.latency_ns); @s = stats(args.bytes); @c = count();"
	  " @h = hist(args.latency_ns); @l = lhist(args.status, 0, 600, 100);"
	  " @mn = min(args.status); @mx = max(args.bytes); @sm = sum(args.bytes); }",
	T "http:request { @c[pid, args.status] = count(); @a[args.status] = avg(args.latency_ns);"
	  " @s[tid] = stats(args.bytes); @h[args.status] = hist(args.bytes);"
	  " @l[pid] = lhist(args.latency_ns, 0, 100000, 1000); @v[pid] = args.bytes;"
	  " @p[probe] = count(); }",
	T "http:request { @[args.method, args.path] = count(); @m[args.method] = sum(args.bytes); }"
	  " " T "app:conn_state { @st[args.state] = count(); }"
	  " " T "db:query { @q[args.table] = max(args.rows); }",
	T "http:error { @e[args.code] = count(); @r[args.reason] = args.code;"
	  " @last = args.reason; } " T "app:log { @lg[args.msg] = count(); @n = count(); }",
};

#define NR_CASES (sizeof(programs) / sizeof(programs[0]))
#define RAW 0x80
#define PATCH_SIZE 10
/* Small hashes: every bucket read in each run. */
#define ENTRIES 16

/* One one-liner: compiled, its session's memory, the collector's tracer over empty maps. */
struct read_case {
	struct st_program *prog;
	struct st_compiled c;
	struct st_tracer t;
	struct st_inproc ip;
	uint8_t *baseline; /* the memory before the ring, as the engine left it */
	size_t len;
};

static struct read_case cases[NR_CASES];
static FILE *devnull;

static void fail(const char *what, const char *why)
{
	fprintf(stderr, "fuzz_inproc_read: %s: %s\n", what, why);
	exit(1);
}

/* Every event of the example, its values drawn from a fixed seed. */
static void emit_all(void)
{
	uint64_t rng = 7;
	int i;

	for (i = 0; i < 40; i++) {
		emit_request(&rng, 0);
		emit_query(&rng, 0);
		emit_state(&rng, 0);
	}
}

/* The kernel's maps the readers add to, empty: root makes them. */
static void kernel_maps(struct read_case *k)
{
	const struct st_compiled *c = &k->c;
	struct st_loader *l = &k->t.bpf;
	uint32_t counters = c->nr_probes * ST_NR_COUNTERS;

	l->ncpus = libbpf_num_possible_cpus();
	l->aggr_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, NULL, c->key_size,
				    sizeof(struct st_val), ENTRIES, NULL);
	l->compact_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, NULL, c->compact_key_size,
				       sizeof(struct st_val), ENTRIES, NULL);
	l->values_fd = bpf_map_create(BPF_MAP_TYPE_HASH, NULL, c->key_size, sizeof(struct st_value),
				      ENTRIES, NULL);
	l->flat_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, NULL, sizeof(uint32_t),
				    sizeof(struct st_val), c->nr_flat ? c->nr_flat : 1, NULL);
	l->counters_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, NULL, sizeof(uint32_t),
					sizeof(uint64_t), counters ? counters : 1, NULL);
	if (l->ncpus <= 0 || l->aggr_fd < 0 || l->compact_fd < 0 || l->values_fd < 0 ||
	    l->flat_fd < 0 || l->counters_fd < 0)
		fail("cannot make the kernel's maps (root?)", strerror(errno));
}

/* Sites numbered as the loader numbers them, the literals of the example's object read. */
static void sites(struct read_case *k)
{
	const struct st_compiled *c = &k->c;
	struct st_loader *l = &k->t.bpf;
	uint32_t i;

	l->site_base = calloc(c->nr_probes + 1, sizeof(*l->site_base));
	k->ip.lit_site = calloc(c->nr_probes + 1, sizeof(*k->ip.lit_site));
	l->flat_kept = calloc(c->nr_maps + 1, sizeof(*l->flat_kept));
	if (!l->site_base || !k->ip.lit_site || !l->flat_kept)
		fail("sites", "out of memory");
	for (i = 0; i < c->nr_probes; i++) {
		l->site_base[i] = l->nr_sites;
		l->nr_sites += c->probes[i].event->nr_sites;
		/* What the engine was handed to key literals by: a site of its object. */
		k->ip.lit_site[i] = l->site_base[i];
	}
	if (st_ro_strings_open(&l->ro, l->nr_sites) ||
	    st_ro_strings_add(&l->ro, c, NULL, l->site_base, 0))
		fail("sites", "cannot read the literals' object");
}

/* The session's memory, the engine run once over it: the baseline. */
static void session(struct read_case *k)
{
	struct st_inproc *ip = &k->ip;
	struct st_ip_reply reply;
	size_t len = 0;
	void *prog;
	int memfd = -1;
	uint32_t i;

	ip->pid = getpid();
	ip->fd = -1;
	ip->served = calloc(k->c.nr_probes + 1, sizeof(*ip->served));
	if (!ip->served)
		fail("session", "out of memory");
	for (i = 0; i < k->c.nr_probes; i++)
		ip->served[i] = st_probe_served_in_process(&k->c.probes[i]);
	st_inproc_shm_params(&k->c, &ip->params);
	ip->params.aggr_entries = ip->params.values_entries = ENTRIES;
	if (ip->params.compact_entries > 1)
		ip->params.compact_entries = ENTRIES;
	if (st_inproc_memory(ip, &memfd))
		fail("session", "cannot make the memory");
	prog = st_inproc_program(ip, &k->c, false, &len);
	if (!prog || st_engine_attach(prog, len, memfd, &reply))
		fail("session", prog ? reply.err : "out of memory");
	emit_all();
	st_engine_detach();
	free(prog);
	close(memfd);
	k->len = ip->lay.ring;
	k->baseline = malloc(k->len);
	if (!k->baseline)
		fail("session", "out of memory");
	memcpy(k->baseline, ip->shm, k->len);
	k->t.bpf.pid = -1;
	k->t.bpf.leave_served = true;
	k->t.inproc.list = ip;
	k->t.stacks = st_stacks_new();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct st_event_source src = {.probe_events = own_side_events};
	struct st_diag diag;
	size_t i;

	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		fail("cannot open /dev/null", strerror(errno));
	own_events_read("fuzz_inproc_read");
	for (i = 0; i < NR_CASES; i++) {
		struct read_case *k = &cases[i];

		if (st_parse(programs[i], "fuzz", &k->prog, &diag) ||
		    st_check(k->prog, &src, &diag) || st_compile(k->prog, 0, &k->c, &diag))
			fail(programs[i], diag.msg);
		kernel_maps(k);
		sites(k);
		session(k);
	}
	return 0;
}

/* What a session's end does with the maps: read, printed both ways, problems, zero(), clear(). */
static void read_back(struct read_case *k)
{
	struct st_maps_snapshot snap;
	struct st_problem *probs;

	memset(k->t.bpf.flat_kept, 0, k->c.nr_maps * sizeof(*k->t.bpf.flat_kept));
	if (!st_maps_read(&k->t, k->prog, &k->c, -1, &snap)) {
		st_output_exit_maps(devnull, ST_OUTPUT_TEXT, snap.maps, snap.nr_maps);
		st_output_exit_maps(devnull, ST_OUTPUT_JSON, snap.maps, snap.nr_maps);
		st_maps_snapshot_free(&snap);
	}
	if (st_problems_read(&k->t, &k->c, &probs) >= 0)
		free(probs);
	st_maps_zero(&k->t, &k->c, -1);
	st_maps_clear(&k->t, &k->c, -1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct read_case *k;
	uint64_t word;
	uint16_t at;
	size_t i;

	if (!size)
		return 0;
	k = &cases[(data[0] & 3) % NR_CASES];
	memcpy(k->ip.shm, k->baseline, k->len);
	if (data[0] & RAW) {
		memcpy(k->ip.shm, data + 1, size - 1 < k->len ? size - 1 : k->len);
	} else {
		for (i = 1; i + PATCH_SIZE <= size; i += PATCH_SIZE) {
			memcpy(&at, data + i, sizeof(at));
			memcpy(&word, data + i + sizeof(at), sizeof(word));
			memcpy(k->ip.shm + (at % (k->len / 8)) * 8, &word, sizeof(word));
		}
	}
	read_back(k);
	return 0;
}
