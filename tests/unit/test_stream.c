// SPDX-License-Identifier: MIT
/*
 * Unit tests of the collector's reading of in-process engines' records
 * (session/stream.c): two processes' rings, in memory made as for a
 * session (inproc/inproc_prog.c), written here as a hostile process
 * writes its own. Records no writer makes are dropped and counted
 * against their process, the other's print exactly; a poll takes a
 * budget of each process's records and comes back at once for the rest;
 * it returns after one record once the session stops; the drain after
 * the session ends in bounded time while a process goes on writing.
 * The kernel's ring buffer is a BPF map: root only, else skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <side/abi/type-argument.h>
#include <side/abi/type-description.h>

#include "compile/compile.h"
#include "common/shm_ring.h"
#include "objfile/sdt_args.h"
#include "check/checker.h"
#include "parse/parser.h"
#include "inproc/inproc_prog.h"
#include "tracer/tracer.h"
#include "session/stream.h"
#include "util/clock.h"

#include "unit.h"
#include "fixed_events.h"

#define HOSTILE 111
#define HONEST 222

static struct st_field tick_fields[] = {
	{"i", {.label = SIDE_TYPE_U64, .size = 8}},
	{"s", {.label = SIDE_TYPE_STRING_UTF8, .size = 1}},
};
static struct st_site site = {.args = "8@%rax 8@%rbx 8@%rcx 8@%rdx"};
static struct st_event events[] = {
	{.path = "/app",
	 .provider = "hs",
	 .name = "tick",
	 .usdt_provider = "hs",
	 .usdt_name = "tick",
	 .has_side = true,
	 .fields = tick_fields,
	 .nr_fields = 2,
	 .sites = &site,
	 .nr_sites = 1},
	{.path = "/app",
	 .provider = "hs",
	 .name = "tock",
	 .usdt_provider = "hs",
	 .usdt_name = "tock",
	 .has_side = true,
	 .fields = tick_fields,
	 .nr_fields = 2,
	 .sites = &site,
	 .nr_sites = 1},
};
static struct st_event_list app = {.events = events, .nr = 2};

/* The session: its program, two processes, the stream and what it printed. */
struct sess {
	struct st_program *prog;
	struct st_compiled c;
	struct st_inproc ip[2];
	uint64_t tail_seen[2];
	struct st_tracer t;
	struct st_runner r;
	struct st_stream s;
	volatile sig_atomic_t stop;
	char *out;
	size_t out_len;
};

static int sess_open(struct sess *x)
{
	struct st_event_source es = {.probe_events = fixed_events, .ctx = &app};
	struct st_diag diag;
	int i, fd;

	memset(x, 0, sizeof(*x));
	st_sdt_args_parse(site.args, &site.sdt);
	if (st_parse("side:/app:hs:tick { print(args); }"
		     "side:/app:hs:tock { printf(\"%d %s\\n\", args.i, args.s); }",
		     "test", &x->prog, &diag) ||
	    st_check(x->prog, &es, &diag) || st_compile(x->prog, 0, &x->c, &diag)) {
		fprintf(stderr, "FAIL the program: %s\n", diag.msg);
		abort();
	}
	for (i = 0; i < 2; i++) {
		x->ip[i].pid = i ? HONEST : HOSTILE;
		x->ip[i].fd = -1;
		st_inproc_shm_params(&x->c, &x->ip[i].params);
		if (st_inproc_memory(&x->ip[i], &fd))
			abort();
		close(fd);
	}
	x->ip[0].next = &x->ip[1];
	x->t.inproc.list = &x->ip[0];
	x->t.bpf.events_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, NULL, 0, 0, 4096, NULL);
	if (x->t.bpf.events_fd < 0)
		return -errno;
	x->r = (struct st_runner){.prog = x->prog, .compiled = &x->c, .fmt = ST_OUTPUT_TEXT};
	x->r.out = open_memstream(&x->out, &x->out_len);
	if (!x->r.out || st_stream_open(&x->s, &x->t, &x->r, &x->stop))
		abort();
	return 0;
}

static void sess_close(struct sess *x)
{
	int i;

	st_stream_close(&x->s);
	fclose(x->r.out);
	free(x->out);
	close(x->t.bpf.events_fd);
	for (i = 0; i < 2; i++)
		munmap(x->ip[i].shm, x->ip[i].lay.size);
	st_compiled_free(&x->c);
	st_program_free(x->prog);
}

/* Writes a record (header, then len bytes) into process i's ring; false when it is full. */
static bool put(struct sess *x, int i, struct st_rec_hdr h, const void *data, uint32_t len)
{
	uint8_t rec[ST_REC_HDR + ST_REC_MAX + 64];

	h.len = len;
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + ST_REC_HDR, data, len);
	return !st_shm_ring_output((void *)(x->ip[i].shm + x->ip[i].lay.ring),
				   x->ip[i].params.ring_size, &x->tail_seen[i], rec,
				   ST_REC_HDR + len);
}

/* A record of print(args) of i and s, as an engine writes tick's (probe 0). */
static bool put_tick(struct sess *x, int i, uint32_t probe, uint64_t v, const char *s)
{
	uint8_t b[3 * ST_ITEM_HDR + ST_ITEM_ARG_SIZE + ST_STR_LEN] = {0}, *p = b;
	struct side_arg a = {.type = {.v = SIDE_TYPE_U64}};

	a.u.side_static.integer_value.side_u64 = v;
	memcpy(p, &(struct st_item){.label = SIDE_TYPE_STRUCT, .count = 2}, ST_ITEM_HDR);
	memcpy(p += ST_ITEM_HDR,
	       &(struct st_item){.label = SIDE_TYPE_U64, .size = ST_ITEM_ARG_SIZE}, ST_ITEM_HDR);
	memcpy(p += ST_ITEM_HDR, &a, sizeof(a));
	memcpy(p += ST_ITEM_ARG_SIZE,
	       &(struct st_item){.label = SIDE_TYPE_STRING_UTF8, .size = ST_STR_LEN}, ST_ITEM_HDR);
	strncpy((char *)p + ST_ITEM_HDR, s, ST_STR_LEN - 1);
	return put(x, i, (struct st_rec_hdr){.kind = ST_REC_EVENT, .probe = probe}, b, sizeof(b));
}

/* The nested dynamic vlas of tests/fixtures/hostile.c, the last item cut. */
static bool put_vlas(struct sess *x, int i)
{
	uint8_t b[ST_REC_MAX] = {0};
	uint32_t n = 0;

	memcpy(b, &(struct st_item){.label = SIDE_TYPE_STRUCT}, ST_ITEM_HDR);
	memcpy(b + (n += ST_ITEM_HDR), &(struct st_item){.label = ST_ITEM_NAME, .size = 8},
	       ST_ITEM_HDR);
	for (n += 2 * ST_ITEM_HDR; n < 4000; n += ST_ITEM_HDR)
		memcpy(b + n, &(struct st_item){.label = SIDE_TYPE_DYNAMIC_VLA, .count = 0xffff},
		       ST_ITEM_HDR);
	memcpy(b + n, &(struct st_item){.label = SIDE_TYPE_DYNAMIC_VLA, .size = 64}, ST_ITEM_HDR);
	return put(x, i, (struct st_rec_hdr){.kind = ST_REC_EVENT}, b, n + ST_ITEM_HDR);
}

/* The count of malformed records of pid so far. */
static uint64_t malformed(const struct sess *x, pid_t pid)
{
	size_t i;

	for (i = 0; i < x->s.nr_malformed; i++)
		if (x->s.malformed[i].pid == pid)
			return x->s.malformed[i].n;
	return 0;
}

/* What st_stream_report() writes to stderr. */
static char *report(struct sess *x)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = tmpfile();
	int saved = dup(2);

	if (!f || saved < 0 || dup2(fileno(f), 2) < 0)
		abort();
	st_stream_report(&x->s);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	if (getdelim(&buf, &len, '\0', f) < 0)
		buf = strdup("");
	fclose(f);
	return buf;
}

/* Every kind of record no writer makes, beside another process's good ones. */
static void test_malformed(struct sess *x)
{
	uint8_t printf_rec[8 + ST_STR_LEN] = {3};
	char *rep;

	memcpy(printf_rec + 8, "abc", 4);
	put_vlas(x, 0);
	/* tock prints with printf, not print(args). */
	put_tick(x, 0, 1, 1, "x");
	put(x, 0, (struct st_rec_hdr){.kind = ST_REC_STACK_PID}, NULL, 0);
	put(x, 0, (struct st_rec_hdr){.kind = ST_REC_PRINTF}, printf_rec, 8);
	put(x, 0, (struct st_rec_hdr){.kind = 77}, NULL, 0);
	put(x, 0, (struct st_rec_hdr){.kind = ST_REC_PRINTF, .id = 9}, printf_rec,
	    sizeof(printf_rec));
	put_tick(x, 1, 0, 5, "five");
	put(x, 1, (struct st_rec_hdr){.kind = ST_REC_PRINTF, .probe = 1}, printf_rec,
	    sizeof(printf_rec));
	ok(st_stream_poll(&x->s, 0) == 8, "malformed: a poll handles the 8 records");
	ok_str("malformed: the other process's records print exactly", x->out,
	       "{ .i = 5, .s = \"five\" }\n3 abc\n");
	ok(malformed(x, HOSTILE) == 6 && malformed(x, HONEST) == 0,
	   "malformed: 6 counted against their process, none against the other");
	rep = report(x);
	ok_str("malformed: said at the end", rep,
	       "sidetrace: pid 111: 6 records malformed, dropped\n");
	free(rep);
}

/* Lines of the output so far that end with suffix. */
static size_t lines_ending(struct sess *x, const char *suffix)
{
	size_t n = 0, k = strlen(suffix);
	char *p, *nl;

	fflush(x->r.out);
	for (p = x->out; p && (nl = strchr(p, '\n')); p = nl + 1)
		n += (size_t)(nl - p) >= k && !memcmp(nl - k, suffix, k);
	return n;
}

/*
 * One process's records over a poll's budget: the other's are read in
 * the same poll, the rest in the next ones, which wait not.
 */
static void test_budget(struct sess *x)
{
	char s[ST_STR_LEN];
	uint64_t t0;
	int i, polls = 0;

	memset(s, 'h', sizeof(s) - 1);
	s[sizeof(s) - 1] = '\0';
	for (i = 0; i < 20000; i++)
		if (!put_tick(x, 0, 0, 1, s))
			abort();
	put_tick(x, 1, 0, 2, "honest");
	st_stream_poll(&x->s, 0);
	ok(lines_ending(x, "h\" }") < 20000 && lines_ending(x, "\"honest\" }") == 1,
	   "budget: a poll leaves a flood for later, the other process is read");
	t0 = st_now_ns();
	while (lines_ending(x, "h\" }") < 20000 && polls++ < 1000)
		st_stream_poll(&x->s, 5000);
	ok(lines_ending(x, "h\" }") == 20000 && x->s.bad == 0 && malformed(x, HOSTILE) == 6,
	   "budget: every record printed in the next polls");
	ok(st_now_ns() - t0 < 2000000000ULL, "budget: a poll with records left waits not");
}

/* Once the session stops, a poll returns after a record of each process. */
static void test_stop(struct sess *x)
{
	int i, n;

	for (i = 0; i < 1000; i++)
		put_tick(x, 0, 0, 3, "stop");
	x->stop = 1;
	n = st_stream_poll(&x->s, 0);
	x->stop = 0;
	ok(n == 1 && lines_ending(x, "\"stop\" }") == 1, "stop: a poll handles one record more");
	st_stream_drain(&x->s);
	ok(lines_ending(x, "\"stop\" }") == 1000, "stop: the drain prints the rest");
}

static void *flood(void *arg)
{
	struct sess *x = arg;

	while (!x->stop)
		if (!put_vlas(x, 0))
			usleep(100);
	return NULL;
}

/* A process that goes on writing: the drain after the session ends all the same. */
static void test_drain(struct sess *x)
{
	pthread_t t;
	uint64_t t0;

	put_tick(x, 1, 0, 4, "last");
	if (pthread_create(&t, NULL, flood, x))
		abort();
	usleep(10000);
	t0 = st_now_ns();
	ok(st_stream_drain(&x->s) == 0, "drain: no error");
	ok(st_now_ns() - t0 < 1000000000ULL, "drain: ends within a second while a process writes");
	ok(lines_ending(x, "\"last\" }") == 1, "drain: the other process's records printed");
	x->stop = 1;
	pthread_join(t, NULL);
	ok(malformed(x, HOSTILE) > 6, "drain: the flood counted malformed");
}

int main(void)
{
	struct sess x;

	if (sess_open(&x)) {
		printf("skipped: no BPF ring buffer (not root?)\n");
		sess_close(&x);
		return unit_summary();
	}
	test_malformed(&x);
	test_budget(&x);
	test_stop(&x);
	test_drain(&x);
	sess_close(&x);
	return unit_summary();
}
