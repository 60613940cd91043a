// SPDX-License-Identifier: MIT
/* Per-event records to text or JSON: see stream.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "discovery/discovery.h"
#include "output/printf_print.h"
#include "output/record_print.h"
#include "runtime/inproc_read.h"
#include "runtime/problems.h"
#include "runtime/stacks.h"
#include "runtime/stream.h"
#include "util/escape.h"

/*
 * print(args) of located fields under -f json: the printf's values as an
 * event's fields, named by the fields its arguments read (a bool's is
 * the field of the ternary that spells it: lang/check_print_args.c).
 */
static int args_json(struct st_stream *s, const struct st_rec_hdr *h,
		     const struct st_printf_layout *lay, struct st_key_val *vals)
{
	const struct st_compiled *c = s->r->compiled;
	const char *names[ST_MAX_PRINTF_ARGS];
	struct st_expr *const *args;
	const struct st_expr *f;
	uint32_t i;

	if (h->probe >= c->nr_probes)
		return -EINVAL;
	st_print_args(lay->call, &args);
	for (i = 0; i < lay->nr_args; i++) {
		f = args[i]->kind == ST_EXPR_TERNARY ? args[i]->kids[0] : args[i];
		names[i] = f->kind == ST_EXPR_FIELD && f->nr_path ? f->path[0].name : "?";
		if (args[i]->kind == ST_EXPR_TERNARY) {
			vals[i].type = ST_VT_BOOL;
			vals[i].u = !strcmp(vals[i].s, "true");
		}
	}
	st_tb_reset(&s->text);
	st_format_fields_json(&s->text, c->probes[h->probe].name, h, names, vals, lay->nr_args);
	if (fwrite(s->text.s, 1, s->text.len, s->r->out) != s->text.len)
		return -errno;
	return 0;
}

/* A printf record's values, as its layout says (compile/records.c). */
static int printf_record(struct st_stream *s, const struct st_rec_hdr *h, const uint8_t *data)
{
	const struct st_compiled *c = s->r->compiled;
	struct st_key_val vals[ST_MAX_PRINTF_ARGS];
	/* Escaped for text, a byte can take 4: \xNN. */
	char strs[ST_MAX_PRINTF_ARGS][4 * ST_STR_LEN];
	const struct st_printf_layout *lay;
	struct st_expr *const *args;
	uint32_t i;

	if (h->id >= c->nr_printfs || h->len != c->printfs[h->id].size)
		return -EINVAL;
	lay = &c->printfs[h->id];
	for (i = 0; i < lay->nr_args; i++) {
		if (lay->is_time[i]) {
			uint64_t ns;

			st_print_args(lay->call, &args);
			memcpy(&ns, data + lay->off[i], sizeof(ns));
			st_strftime_ns(strs[i], sizeof(strs[i]), args[i]->kids[0]->str, ns);
			vals[i].type = ST_VT_STR;
			vals[i].s = strs[i];
		} else if (lay->is_probe[i]) {
			uint64_t probe;

			memcpy(&probe, data + lay->off[i], sizeof(probe));
			vals[i].type = ST_VT_STR;
			vals[i].s = probe < c->nr_probes ? c->probes[probe].name : "?";
		} else if (lay->label_type[i]) {
			const char *label;
			int64_t v;

			memcpy(&v, data + lay->off[i], sizeof(v));
			label = st_type_enum_label(lay->label_type[i], v);
			if (label)
				snprintf(strs[i], sizeof(strs[i]), "%s", label);
			else
				snprintf(strs[i], sizeof(strs[i]), "%" PRId64, v);
			vals[i].type = ST_VT_STR;
			vals[i].s = strs[i];
		} else if (lay->is_str[i]) {
			memcpy(strs[i], data + lay->off[i], ST_STR_LEN);
			strs[i][ST_STR_LEN - 1] = '\0';
			/*
			 * print(args)'s format is sidetrace's: its strings are
			 * escaped as map keys are (JSON: by its own rule).
			 * printf's are the user's (st_format_values()).
			 */
			if (h->kind == ST_REC_ARGS && s->r->fmt != ST_OUTPUT_JSON) {
				st_tb_reset(&s->esc);
				st_escape_text(&s->esc, strs[i]);
				snprintf(strs[i], sizeof(strs[i]), "%s", s->esc.s ? s->esc.s : "");
			}
			vals[i].type = ST_VT_STR;
			vals[i].s = strs[i];
		} else if (lay->float_bits[i]) {
			st_key_val_float(&vals[i], data + lay->off[i], lay->float_bits[i]);
		} else {
			st_print_args(lay->call, &args);
			vals[i].type = args[i]->vtype == ST_VT_INT ? ST_VT_INT : ST_VT_UINT;
			memcpy(&vals[i].u, data + lay->off[i], sizeof(vals[i].u));
		}
	}
	if (h->kind == ST_REC_ARGS && s->r->fmt == ST_OUTPUT_JSON)
		return args_json(s, h, lay, vals);
	st_tb_reset(&s->text);
	st_format_values(&s->text, lay->call->fmt, vals, s->r->term);
	return st_output_printf(s->r->out, s->r->fmt, &s->text);
}

/* A print(args) record: the event decoded with its description. */
static int event_record(struct st_stream *s, const struct st_rec_hdr *h, const uint8_t *data)
{
	const struct st_compiled *c = s->r->compiled;

	if (h->probe >= c->nr_probes)
		return -EINVAL;
	st_tb_reset(&s->text);
	if (!st_format_event(&s->text, s->r->fmt, c->probes[h->probe].event,
			     c->probes[h->probe].name, h, data, h->len))
		s->label_errs[h->probe]++;
	if (s->text.len && fwrite(s->text.s, 1, s->text.len, s->r->out) != s->text.len)
		return -errno;
	return 0;
}

/* ring_buffer__consume() callback: a negative return stops consuming. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct st_stream *s = ctx;
	struct st_rec_hdr h;
	int ret = -EINVAL;

	if (s->write_err)
		return s->write_err;
	if (size < sizeof(h)) {
		s->bad++;
		return 0;
	}
	memcpy(&h, data, sizeof(h));
	if (h.len <= size - sizeof(h) && (h.kind == ST_REC_PRINTF || h.kind == ST_REC_ARGS))
		ret = printf_record(s, &h, (const uint8_t *)data + sizeof(h));
	else if (h.len <= size - sizeof(h) && h.kind == ST_REC_EVENT)
		ret = event_record(s, &h, (const uint8_t *)data + sizeof(h));
	else if (h.kind == ST_REC_STACK_PID)
		ret = st_stacks_poll((struct st_loader *)s->l);
	if (ret == -EINVAL) {
		s->bad++;
		return 0;
	}
	if (ret) {
		s->write_err = ret;
		return ret;
	}
	s->records++;
	return 0;
}

/*
 * st_shm_ring_consume() callback: the in-process engine's records are the
 * same, but in memory the traced process can write: decoded from a copy.
 */
static int on_shm_record(void *ctx, const void *data, uint32_t size)
{
	uint64_t copy[(ST_REC_HDR + ST_REC_MAX) / 8];

	if (size > sizeof(copy)) {
		((struct st_stream *)ctx)->bad++;
		return 0;
	}
	memcpy(copy, data, size);
	return on_record(ctx, copy, size);
}

int st_stream_open(struct st_stream *s, const struct st_loader *l, struct st_runner *r)
{
	memset(s, 0, sizeof(*s));
	s->r = r;
	s->l = l;
	/* A user stack's process (or usym()'s) is announced in the ring buffer too (stacks.h). */
	if (!l || (!st_compiled_streams(r->compiled) && !st_compiled_wants_maps(r->compiled)))
		return 0;
	s->lost_seen = calloc(r->compiled->nr_probes, sizeof(*s->lost_seen));
	s->label_errs = calloc(r->compiled->nr_probes, sizeof(*s->label_errs));
	if (!s->lost_seen || !s->label_errs)
		return -ENOMEM;
	s->rb = ring_buffer__new(l->events_fd, on_record, s, NULL);
	if (!s->rb)
		return -errno;
	return 0;
}

void st_stream_report_lost(struct st_stream *s)
{
	struct st_problem *probs;
	int n, i;

	if (!s->rb)
		return;
	n = st_problems_read(s->l, s->r->compiled, &probs);
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
}

int st_stream_poll(struct st_stream *s, int timeout_ms)
{
	int ret;

	if (!s->rb)
		return 0;
	/*
	 * Records are mostly sent without a wake-up (see st_events_wakeup),
	 * so the wait ends on the timeout and the consume reads them.
	 */
	ret = ring_buffer__poll(s->rb, timeout_ms);
	if (ret >= 0 || ret == -EINTR)
		ret = ring_buffer__consume(s->rb);
	if (ret >= 0)
		ret += st_inproc_consume(st_loader_inprocs(s->l), on_shm_record, s);
	if (s->write_err)
		return s->write_err;
	if (fflush(s->r->out))
		return s->write_err = -errno;
	return ret;
}

void st_stream_report(const struct st_stream *s)
{
	uint32_t i;

	for (i = 0; s->label_errs && i < s->r->compiled->nr_probes; i++)
		if (s->label_errs[i])
			st_errorf("%llu events could not be decoded: %s (%s)",
				  (unsigned long long)s->label_errs[i],
				  st_counter_reason(ST_C_ERR_LABEL),
				  s->r->compiled->probes[i].name);
}

void st_stream_close(struct st_stream *s)
{
	ring_buffer__free(s->rb);
	st_tb_free(&s->text);
	st_tb_free(&s->esc);
	free(s->lost_seen);
	free(s->label_errs);
	memset(s, 0, sizeof(*s));
}
