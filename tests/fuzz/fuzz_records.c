// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the collector's reading of per-event records
 * (output/record_text.c, output/record_print.c), as an in-process
 * engine's process can write them into the memory it shares with the
 * collector. An input is one byte, then a sample as the ring hands it
 * (records, each st_rec_hdr then its bytes, see bpf/sidetrace.h):
 *
 *   bits 0-3  which program of programs[] below the record is read for
 *             (modulo their number)
 *   bits 4-5  the output: text, text to a terminal, JSON
 *
 * The programs are compiled against httpd_sim's events, built into this
 * fuzzer (examples/httpd_sim.c, included below), as the collector
 * compiles them. The text goes to /dev/null; a record's text longer than
 * ST_REC_TEXT_MAX, or a malformed one's not empty, aborts: the budget of
 * output per record holds whatever the record says. ASan and UBSan catch
 * a read outside the record.
 *
 * FUZZ_RECORDS_SEEDS=DIR: writes, as seeds into DIR, the first records
 * the engine (userspace/lib/inproc/) sends for each program on the
 * example's events, then exits (tests/fuzz/fuzz_records/corpus).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/shm_ring.h"
#include "compile/compile.h"
#include "events/events.h"
#include "side/usdt_view.h"
#include "check/checker.h"
#include "parse/parser.h"
#include "output/record_text.h"
#include "inproc/inproc.h"
#include "inproc/inproc_prog.h"
#include "lib/inproc/engine.h"

#include "httpd_events.h"

/* print(args) of every kind of field, and printf of every kind of value. */
static const char *const programs[] = {
	"side:httpd_sim:http:request { print(args); }",
	"side:httpd_sim:db:query { print(args); }",
	"side:httpd_sim:app:log { print(args); }",
	"side:httpd_sim:app:conn_state { print(args); }",
	"side:httpd_sim:http:request { printf(\"%s %-6s|%5d %u %c %x %p %s\\n\", args.method, "
	"args.path, args.status, args.latency_ns, args.status, args.bytes, args.bytes, probe); }",
	"side:httpd_sim:http:error { printf(\"%d %.3s %s\\n\", args.code, args.reason, "
	"strftime(\"%H:%M\", nsecs)); } side:httpd_sim:app:conn_state { printf(\"%s %d\\n\", "
	"args.state, args.keepalive ? 1 : 0); }",
	"side:httpd_sim:http:request { print(args); printf(\"%s\\n\", args.path); } "
	"side:httpd_sim:db:query { print(args); printf(\"%u\\n\", args.rows); }",
	"usdt:httpd_sim:http:request { print(args); }",
};
#define NR_PROGRAMS (sizeof(programs) / sizeof(programs[0]))
#define FMT_SHIFT 4

static struct st_event_list usdt_events;
static struct st_program *parsed[NR_PROGRAMS];
static struct st_compiled compiled[NR_PROGRAMS];
static FILE *devnull;

static const struct st_event_list *own_events(void *ctx, const struct st_probe_query *q, char *err,
					      size_t errlen)
{
	if (q->kind == ST_AP_USDT)
		return usdt_events.events || !st_usdt_view(&events, &usdt_events) ? &usdt_events
										  : NULL;
	return own_side_events(ctx, q, err, errlen);
}

/* Program i, parsed and compiled for good: the compiled one points into the parsed one. */
static void compile(unsigned int i)
{
	struct st_event_source src = {.probe_events = own_events};
	const char *text = programs[i];
	struct st_diag diag;

	if (st_parse(text, "fuzz", &parsed[i], &diag) || st_check(parsed[i], &src, &diag) ||
	    st_compile(parsed[i], 0, &compiled[i], &diag)) {
		fprintf(stderr, "fuzz_records: %s: %s\n", text, diag.msg);
		exit(1);
	}
}

/* Every event of the example: its values drawn from a fixed seed, errors and logs among them. */
static void emit_all(void)
{
	uint64_t rng = 7;
	int i;

	for (i = 0; i < 2; i++) {
		emit_query(&rng, 0);
		emit_state(&rng, 0);
	}
	for (i = 0; i < 40; i++)
		emit_request(&rng, 0);
}

/* Where seeds go: the directory, the program's byte, how many so far. */
struct seeds {
	const char *dir;
	unsigned int prog, n;
};

static int write_seed(void *ctx, const void *data, uint32_t len)
{
	struct seeds *s = ctx;
	char path[4096];
	uint8_t sel = s->prog;
	FILE *f;

	/* A few: the ring's records are alike. */
	if (s->n >= 6)
		return 0;
	snprintf(path, sizeof(path), "%s/seed-%u-%u", s->dir, s->prog, s->n++);
	f = fopen(path, "w");
	if (!f || fwrite(&sel, 1, 1, f) != 1 || fwrite(data, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
	return 0;
}

/* The records the engine sends for program p, run on every event of the example, as seeds. */
static void seeds_of(const char *dir, unsigned int p)
{
	const struct st_compiled *c = &compiled[p];
	struct st_inproc ip = {.fd = -1};
	struct seeds s = {.dir = dir, .prog = p};
	struct st_ip_reply reply;
	void *prog = NULL;
	int memfd = -1;
	size_t len = 0;
	uint32_t i;

	ip.served = calloc(c->nr_probes + 1, sizeof(*ip.served));
	if (!ip.served)
		exit(1);
	for (i = 0; i < c->nr_probes; i++)
		ip.served[i] = st_probe_served_in_process(&c->probes[i]);
	st_inproc_shm_params(c, &ip.params);
	if (st_inproc_memory(&ip, &memfd))
		exit(1);
	prog = st_inproc_program(&ip, c, false, &len);
	if (prog && !st_engine_attach(prog, len, memfd, &reply)) {
		emit_all();
		st_engine_detach();
		st_shm_ring_consume((void *)(ip.shm + ip.lay.ring), ip.params.ring_size, write_seed,
				    &s);
	}
	/* print(args) of a usdt: probe, kernel only: a record of its size, zeroed. */
	for (i = 0; i < c->nr_printfs; i++) {
		struct st_rec_hdr h = {.kind = ST_REC_ARGS, .id = i, .len = c->printfs[i].size};
		uint8_t rec[ST_REC_HDR + ST_REC_MAX] = {0};

		memcpy(rec, &h, sizeof(h));
		if (c->printfs[i].call->print_args)
			write_seed(&s, rec, ST_REC_HDR + h.len);
	}
	munmap(ip.shm, ip.lay.size);
	close(memfd);
	free(prog);
	free(ip.served);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *seeds = getenv("FUZZ_RECORDS_SEEDS");
	unsigned int i;

	(void)argc;
	(void)argv;
	own_events_read("fuzz_records");
	for (i = 0; i < NR_PROGRAMS; i++)
		compile(i);
	if (seeds) {
		for (i = 0; i < NR_PROGRAMS; i++)
			seeds_of(seeds, i);
		exit(0);
	}
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		exit(1);
	return 0;
}

/* One record of the sample, in memory of its own size: ASan sees a read past it. */
static void one_record(struct st_rec_view *v, const void *data, size_t size)
{
	enum st_text_verdict ret;
	uint8_t *rec;

	rec = malloc(size ? size : 1);
	if (!rec)
		return;
	memcpy(rec, data, size);
	ret = st_record_text(v, rec, size);
	if (v->text.len > ST_REC_TEXT_MAX || (ret == ST_TEXT_MALFORMED && v->text.len)) {
		fprintf(stderr, "fuzz_records: %zu bytes of text from a record (%s)\n", v->text.len,
			ret == ST_TEXT_MALFORMED ? "malformed" : "printed");
		abort();
	}
	if (v->text.len)
		fwrite(v->text.s, 1, v->text.len, devnull);
	free(rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum st_output_format fmts[] = {ST_OUTPUT_TEXT, ST_OUTPUT_TEXT, ST_OUTPUT_JSON,
						     ST_OUTPUT_JSON};
	size_t off = 0, rec_size;
	struct st_rec_view v;
	const void *rec;

	/* The collector copies a sample of at most this much. */
	if (!size || size - 1 > ST_REC_HDR + ST_REC_MAX)
		return 0;
	v = (struct st_rec_view){.c = &compiled[(data[0] & 0xf) % NR_PROGRAMS],
				 .fmt = fmts[(data[0] >> FMT_SHIFT) & 3],
				 .term = ((data[0] >> FMT_SHIFT) & 3) == 1};
	while ((rec = st_record_next(data + 1, size - 1, &off, &rec_size)))
		one_record(&v, rec, rec_size);
	st_rec_view_free(&v);
	return 0;
}
