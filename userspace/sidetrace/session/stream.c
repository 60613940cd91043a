// SPDX-License-Identifier: MIT
/* Per-event records to text or JSON: see stream.h. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "output/record_calls.h"
#include "output/record_text.h"
#include "readout/inproc_read.h"
#include "readout/problems.h"
#include "bpfload/stacks.h"
#include "bpfload/watch.h"
#include "session/stream.h"
#include "util/clock.h"
#include "util/escape.h"
#include "util/grow.h"

/*
 * What one poll takes of each process's records: their text and the time
 * spent on them, before the next process's turn; the rest waits in its
 * ring for the next poll, which comes at once. The session loop gets
 * control back this often, whatever a process writes.
 */
#define POLL_TEXT_MAX (1024 * 1024)
#define POLL_NS (10 * 1000 * 1000ULL)
/*
 * After the session: how long the processes' rings are read for what
 * they sent before its end (an engine stops at once; a process that goes
 * on writing is cut there).
 */
#define DRAIN_NS (250 * 1000 * 1000ULL)

/*
 * A watchpoint's record (bpfload/watch.h): an armed function's address,
 * its breakpoint set, or unwatch()'s, the breakpoints at it removed. 0,
 * -EINVAL when malformed, or a failed write's negative errno.
 */
static int watch_record(struct st_stream *s, const struct st_rec_hdr *h, const uint8_t *data,
			size_t size)
{
	const struct st_printf_layout *lay = NULL;
	const char *msg;
	uint64_t addr;

	if (h->kind == ST_REC_PRINTF)
		lay = &s->view.c->printfs[h->id];
	if (lay ? h->len != lay->size || lay->nr_args != 1 : h->len != sizeof(addr))
		return -EINVAL;
	if (size < sizeof(*h) + h->len)
		return -EINVAL;
	memcpy(&addr, data + sizeof(*h) + (lay ? lay->off[0] : 0), sizeof(addr));
	st_tb_reset(&s->view.text);
	if (lay) {
		st_watch_unset(&s->t->bpf, addr);
		return 0;
	}
	msg = st_watch_set(&s->t->bpf, s->view.c, h->probe, addr, h->pid);
	if (!msg)
		return 0;
	/* bpftrace says it in its output, in order with the events. */
	if (s->view.fmt == ST_OUTPUT_JSON) {
		st_errorf("%s", msg);
		return 0;
	}
	return fprintf(s->r->out, "%s\n", msg) < 0 ? -errno : 0;
}

/* Whether a record of the kernel's is a watchpoint's. */
static bool watch_kind(const struct st_stream *s, const struct st_rec_hdr *h)
{
	return h->kind == ST_REC_WATCH ||
	       (h->kind == ST_REC_PRINTF && h->id < s->view.c->nr_printfs &&
		st_func(s->view.c->printfs[h->id].call->func)->bpf == ST_FC_UNWATCH);
}

/* print(@m), clear(@m), zero(@m) of a probe: its record's call (compile/records.c), or NULL. */
static const struct st_expr *map_action(const struct st_stream *s, const struct st_rec_hdr *h)
{
	const struct st_expr *call;

	if (h->kind != ST_REC_PRINTF || h->id >= s->view.c->nr_printfs || h->len)
		return NULL;
	call = s->view.c->printfs[h->id].call;
	return !call->fmt && call->nr_kids && call->kids[0]->kind == ST_EXPR_MAP ? call : NULL;
}

/*
 * One record printed, its text left in s->view.text: 0, -EINVAL when no
 * writer made it (its text empty), or a failed write's negative errno.
 * inproc: an engine's, whose probes never take stacks.
 */
static int handle(struct st_stream *s, const void *data, size_t size, bool inproc)
{
	const struct st_textbuf *text = &s->view.text;
	const struct st_expr *act;
	struct st_rec_hdr h = {0};
	enum st_text_verdict ret;

	if (size >= sizeof(h)) {
		memcpy(&h, data, sizeof(h));
		if (h.kind == ST_REC_STACK_PID && !inproc) {
			st_tb_reset(&s->view.text);
			return st_stacks_poll(s->t->stacks, &s->t->bpf);
		}
		/* A process's engine runs no watchpoint: its such record is forged. */
		if (watch_kind(s, &h))
			return inproc ? -EINVAL : watch_record(s, &h, data, size);
		/* Nor acts on maps: only the kernel's probes ask for it (st_compiled_probe.acts).
		 */
		act = map_action(s, &h);
		if (act) {
			st_tb_reset(&s->view.text);
			return inproc ? -EINVAL : st_run_map_call(s->r, act);
		}
		/* Only the kernel runs system() and cat(): a process's such record is forged. */
		if (inproc && h.kind == ST_REC_PRINTF && h.id < s->view.c->nr_printfs &&
		    st_call_acts(st_func(s->view.c->printfs[h.id].call->func)->bpf))
			return -EINVAL;
	}
	ret = st_record_text(&s->view, data, size);
	if (ret == ST_TEXT_MALFORMED)
		return -EINVAL;
	/* Only an event's values have a declared type to contradict. */
	if (ret == ST_TEXT_MISMATCH)
		s->label_errs[h.probe]++;
	if (text->len && fwrite(text->s, 1, text->len, s->r->out) != text->len)
		return -errno;
	return 0;
}

/* st_rec_view.stack_text: a stack's frames, as a map key's are found. */
static char *stack_text(void *ctx, bool user, bool perf, uint64_t v)
{
	const struct st_stream *s = ctx;

	return st_stack_text(s->t->stacks, &s->t->bpf, s->r->compiled, user, perf, v);
}

/* st_rec_view.sym_text: from the stacks' names, as map keys are named. */
static char *sym_text(void *ctx, bool user, uint32_t pid, uint64_t addr)
{
	struct st_stacks *stacks = ctx;

	return user ? st_usym_text(stacks, pid, addr) : st_ksym_text(stacks, addr);
}

/* Whether this poll ends now: the session stops, or the drain's time is up. */
static bool poll_ended(const struct st_stream *s)
{
	return s->drain_until ? st_now_ns() >= s->drain_until : s->stop && *s->stop;
}

/*
 * ring_buffer__consume() callback: a negative return stops consuming,
 * the record it was given consumed. A flood of records (system() at
 * every sched_switch, each one more switches) never empties the buffer:
 * once the session stops, the consume ends after the record at hand,
 * printed, and the drain prints the rest for as long as it may.
 */
static int on_record(void *ctx, void *data, size_t size)
{
	struct st_stream *s = ctx;
	size_t off = 0, rec_size;
	const void *rec;
	int ret;

	while ((rec = st_record_next(data, size, &off, &rec_size))) {
		if (s->write_err)
			return s->write_err;
		s->handled++;
		ret = handle(s, rec, rec_size, false);
		if (ret == -EINVAL)
			s->bad++;
		else if (ret)
			return s->write_err = ret;
		else
			s->records++;
	}
	return poll_ended(s) ? -EINTR : 0;
}

/* One more malformed record of pid, counted. */
static void count_malformed(struct st_stream *s, pid_t pid)
{
	size_t i;

	for (i = 0; i < s->nr_malformed && s->malformed[i].pid != pid; i++)
		;
	if (i == s->nr_malformed) {
		/* Out of memory: the record is dropped all the same, uncounted. */
		if (st_grow(&s->malformed, &s->malformed_cap, i, sizeof(*s->malformed), 4))
			return;
		s->malformed[i] = (struct st_malformed){.pid = pid};
		s->nr_malformed++;
	}
	s->malformed[i].n++;
}

/*
 * Whether the poll goes on with the records of the process at hand: not
 * once the session stops or the drain's time is up (-EINTR), nor past
 * the process's budget for this poll (-EAGAIN: the next process).
 */
static int ip_budget(struct st_stream *s)
{
	uint64_t now = st_now_ns();

	if (poll_ended(s))
		return -EINTR;
	if (s->ip_text < POLL_TEXT_MAX && now < s->ip_until)
		return 0;
	s->backlog = true;
	return -EAGAIN;
}

_Static_assert(ST_REC_BATCH_MAX <= ST_REC_HDR + ST_REC_MAX, "on_shm_record() copies a batch whole");

/* One record of an in-process engine's sample, in the collector's copy. */
static int shm_record(struct st_stream *s, const struct st_inproc *ip, void *rec, size_t size)
{
	__u32 pid = ip->pid;
	int ret;

	s->handled++;
	/* Its usym() names only its own addresses: the header says whose. */
	if (size >= ST_REC_HDR)
		memcpy((char *)rec + offsetof(struct st_rec_hdr, pid), &pid, sizeof(pid));
	ret = handle(s, rec, size, true);
	if (ret == -EINVAL) {
		count_malformed(s, pid);
		return 0;
	}
	if (ret)
		return s->write_err = ret;
	s->ip_text += s->view.text.len;
	s->records++;
	return 0;
}

/*
 * st_inproc_consume() callback: the in-process engine's records are the
 * same, but in memory the traced process can write: decoded from a copy,
 * what no writer makes dropped and counted against the process.
 */
static int on_shm_record(void *ctx, const struct st_inproc *ip, const void *data, uint32_t size)
{
	uint64_t copy[(ST_REC_HDR + ST_REC_MAX) / 8];
	struct st_stream *s = ctx;
	size_t off = 0, rec_size;
	const void *rec;
	int ret;

	if (s->write_err)
		return s->write_err;
	if (ip != s->ip) {
		s->ip = ip;
		s->ip_text = 0;
		s->ip_until = st_now_ns() + POLL_NS;
	}
	if (size > sizeof(copy)) {
		s->handled++;
		count_malformed(s, ip->pid);
		return ip_budget(s);
	}
	/* Split in a copy: the process can write the sample meanwhile. */
	memcpy(copy, data, size);
	while ((rec = st_record_next(copy, size, &off, &rec_size))) {
		ret = shm_record(s, ip, (void *)rec, rec_size);
		if (ret)
			return ret;
	}
	return ip_budget(s);
}

int st_stream_open(struct st_stream *s, struct st_tracer *t, struct st_runner *r,
		   const volatile sig_atomic_t *stop)
{
	memset(s, 0, sizeof(*s));
	s->r = r;
	s->t = t;
	s->stop = stop;
	s->view = (struct st_rec_view){.c = r->compiled,
				       .fmt = r->fmt,
				       .term = r->term,
				       .file = r->prog->filename,
				       .src = r->src};
	if (t) {
		s->view.sym_text = sym_text;
		s->view.sym_ctx = t->stacks;
		s->view.stack_text = stack_text;
		s->view.stack_ctx = s;
	}
	/* A user stack's process (or usym()'s) is announced in the ring buffer too (stacks.h). */
	if (!t || (!st_compiled_streams(r->compiled) && !st_compiled_wants_maps(r->compiled)))
		return 0;
	s->lost_seen = calloc(r->compiled->nr_probes, sizeof(*s->lost_seen));
	s->label_errs = calloc(r->compiled->nr_probes, sizeof(*s->label_errs));
	if (!s->lost_seen || !s->label_errs)
		return -ENOMEM;
	s->rb = ring_buffer__new(t->bpf.events_fd, on_record, s, NULL);
	if (!s->rb)
		return -errno;
	return 0;
}

/* Each process whose malformed records grew past what was said (all: every one). */
static void report_malformed(struct st_malformed *m, size_t n, bool all)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!all && m[i].n == m[i].said)
			continue;
		st_errorf("pid %d: %llu records malformed, dropped", (int)m[i].pid,
			  (unsigned long long)m[i].n);
		m[i].said = m[i].n;
	}
}

void st_stream_report_lost(struct st_stream *s)
{
	struct st_problem *probs;
	int n, i;

	if (!s->rb)
		return;
	n = st_problems_read(s->t, s->r->compiled, &probs);
	for (i = 0; i < n; i++) {
		uint64_t *seen = &s->lost_seen[probs[i].probe];

		if (probs[i].counter != ST_C_LOST || probs[i].count <= *seen)
			continue;
		st_errorf("%llu more events not printed: output buffer full (%s)",
			  (unsigned long long)(probs[i].count - *seen),
			  s->r->compiled->probes[probs[i].probe].name);
		*seen = probs[i].count;
	}
	free(probs);
	report_malformed(s->malformed, s->nr_malformed, false);
}

int st_stream_poll(struct st_stream *s, int timeout_ms)
{
	int ret;

	if (!s->rb)
		return 0;
	s->handled = 0;
	s->ip = NULL;
	/*
	 * Records are mostly sent without a wake-up (see st_events_wakeup),
	 * so the wait ends on the timeout and the consume reads them.
	 */
	ret = ring_buffer__poll(s->rb, s->backlog ? 0 : timeout_ms);
	s->backlog = false;
	if (ret >= 0 || ret == -EINTR)
		ret = ring_buffer__consume(s->rb);
	/* -EINTR: the session stops, or the drain's time is up. */
	if (ret >= 0)
		ret = st_inproc_consume(st_tracer_inprocs(s->t), on_shm_record, s);
	if (s->write_err)
		return s->write_err;
	if (fflush(s->r->out))
		return s->write_err = -errno;
	return ret < 0 && ret != -EINTR ? ret : (int)(s->handled < INT_MAX ? s->handled : INT_MAX);
}

int st_stream_drain(struct st_stream *s)
{
	int ret;

	s->drain_until = st_now_ns() + DRAIN_NS;
	do
		ret = st_stream_poll(s, 0);
	while (ret > 0 && st_now_ns() < s->drain_until);
	s->drain_until = 0;
	return s->write_err;
}

void st_stream_report(struct st_stream *s)
{
	uint32_t i;

	for (i = 0; s->label_errs && i < s->r->compiled->nr_probes; i++)
		if (s->label_errs[i])
			st_errorf("%llu events could not be decoded: %s (%s)",
				  (unsigned long long)s->label_errs[i],
				  st_counter_reason(ST_C_ERR_LABEL),
				  s->r->compiled->probes[i].name);
	report_malformed(s->malformed, s->nr_malformed, true);
}

void st_stream_close(struct st_stream *s)
{
	ring_buffer__free(s->rb);
	st_rec_view_free(&s->view);
	free(s->lost_seen);
	free(s->label_errs);
	free(s->malformed);
	memset(s, 0, sizeof(*s));
}
