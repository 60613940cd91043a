// SPDX-License-Identifier: MIT
/*
 * Probes that a specialized BPF program serves: count-only, plain statements
 * without the stack machine, and plain maps without keys (flat).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "compile/codegen.h"

/*
 * A probe whose clauses have no filter and only count into maps without
 * keys is served by sidetrace_count: its counts[] are those maps' slots.
 */
void cg_find_count_only(struct st_compiled *out, struct st_compiled_probe *p)
{
	const struct st_probe_cfg *cfg = &p->cfg;
	uint32_t i;

	p->nr_counts = 0;
	/* None at a perf event: its flat program counts. */
	if (st_event_kind(p->event)->family == ST_FAMILY_PERF_EVENT)
		return;
	for (i = 0; i < cfg->nr_insns; i++) {
		const struct st_insn *in = &cfg->insns[i];
		const struct st_map_cfg *mc;

		if (in->op == ST_I_CLAUSE && !in->mask)
			continue;
		if (in->op != ST_I_CONST || i + 1 >= cfg->nr_insns ||
		    cfg->insns[i + 1].op != ST_I_AGG || p->nr_counts >= ST_MAX_COUNTS)
			break;
		mc = &out->maps[cfg->insns[i + 1].a];
		if (mc->kind != ST_K_COUNT || !(mc->flags & ST_MAPF_FLAT))
			break;
		p->counts[p->nr_counts++] = mc->flat_base;
		i++;
	}
	if (i == cfg->nr_insns && p->nr_counts)
		p->special = ST_SPECIAL_COUNT;
}

_Static_assert(ST_MAX_PLAIN_PARTS == ST_MAX_MAP_KEYS, "a plain statement holds every key");

/* What instruction in pushes, as a plain part; false if nothing plain. */
static bool plain_part(const struct st_probe_cfg *cfg, const struct st_insn *in,
		       struct st_plain_part *part)
{
	memset(part, 0, sizeof(*part));
	part->a = in->a;
	switch (in->op) {
	case ST_I_FIELD:
		part->src = ST_P_INT;
		return in->a < cfg->nr_loads;
	case ST_I_STR:
		/* comm, which the program writes into the key itself */
		if (in->a == ST_STR_REF_COMM) {
			part->src = ST_P_COMM;
			return true;
		}
		part->src = ST_P_STR;
		return in->a < cfg->nr_loads; /* not a literal */
	case ST_I_BUILTIN:
		part->src = ST_P_BUILTIN;
		return in->a < ST_BI_FIRST_INTERP;
	case ST_I_CONST:
		part->src = ST_P_CONST;
		return true;
	default:
		return false;
	}
}

/*
 * The filter at insns[i], the first of a clause's code: a field or
 * builtin (push, FILTER) or one compared with a constant (push, CONST,
 * BINARY, FILTER). A plain statement tests it again, so its value is the
 * same at each read (not rand or nsecs). Returns the instructions it
 * takes into st (zeroed first), 0 if it is not such a filter (st zero).
 */
static uint32_t plain_filter(const struct st_probe_cfg *cfg, uint32_t i, struct st_plain_stmt *st)
{
	const struct st_insn *in = &cfg->insns[i];

	memset(st, 0, sizeof(*st));
	if (i + 1 >= cfg->nr_insns || !plain_part(cfg, in, &st->filter) ||
	    (st->filter.src != ST_P_INT && st->filter.src != ST_P_BUILTIN) ||
	    (st->filter.src == ST_P_BUILTIN && (in->a == ST_BI_RAND || in->a == ST_BI_NSECS)))
		goto none;
	st->filtered = 1;
	if (in[1].op == ST_I_FILTER) {
		st->filter_op = ST_B_NE; /* against filter_imm 0 */
		return 2;
	}
	if (i + 3 >= cfg->nr_insns || in[1].op != ST_I_CONST || in[2].op != ST_I_BINARY ||
	    in[2].a < ST_B_EQ || in[2].a > ST_B_UGE || in[3].op != ST_I_FILTER)
		goto none;
	st->filter_op = in[2].a;
	st->filter_imm = in[1].imm;
	return 4;
none:
	memset(st, 0, sizeof(*st));
	return 0;
}

/*
 * Sets where statement st's parts go in a compact key, from its map's
 * layout; false if its parts are not the layout's, in order.
 */
static bool plain_compact_offsets(const struct st_compiled *out, struct st_plain_stmt *st)
{
	const struct st_map_layout *lay;
	uint32_t k;

	if (st->map >= out->nr_maps)
		return false;
	lay = &out->layouts[st->map];
	if (st->nr_parts != lay->nr_parts)
		return false;
	for (k = 0; k < st->nr_parts; k++) {
		if (st->parts[k].off != lay->parts[k].off)
			return false;
		st->parts[k].coff = lay->parts[k].coff;
	}
	return true;
}

/*
 * A probe whose loads all come from SDT arguments and whose clauses have
 * no filter and only aggregate a field, builtin or constant keyed by
 * fields, builtins and comm is served by sidetrace_plain: each statement
 * becomes one cfg.plain[], run without the stack machine. The code is
 * then pairs (push, use): CLAUSE, then per statement (push, KEY_*)...
 * and (push, AGG).
 */
void cg_find_plain(const struct st_compiled *out, struct st_compiled_probe *p)
{
	struct st_probe_cfg *cfg = &p->cfg;
	struct st_plain_stmt *st = NULL, filter = {0};
	struct st_plain_part part;
	uint32_t i, mask = 0;

	cfg->nr_plain = 0;
	/* Stacks and mappings are taken at entry by take_stacks(): the interpreters'. */
	if (cfg->stacks)
		return;
	for (i = 0; i < cfg->nr_loads; i++)
		if (cfg->loads[i].src != ST_SRC_SDT)
			return;
	for (i = 0; i < cfg->nr_insns; i++) {
		const struct st_insn *in = &cfg->insns[i], *use = in + 1;

		if (in->op == ST_I_CLAUSE && !st) {
			mask = in->mask;
			i += plain_filter(cfg, i + 1, &filter);
			continue;
		}
		if (i + 1 >= cfg->nr_insns || !plain_part(cfg, in, &part))
			break;
		if (!st) {
			if (cfg->nr_plain >= ST_MAX_PLAIN)
				break;
			st = &cfg->plain[cfg->nr_plain++];
			*st = filter;
			st->mask = mask;
		}
		if (use->op == ST_I_AGG && part.src != ST_P_STR && part.src != ST_P_COMM) {
			st->map = use->a;
			st->value = part;
			st->imm = in->imm;
			if (!plain_compact_offsets(out, st))
				break;
			st = NULL;
		} else if ((use->op == ST_I_KEY_INT &&
			    (part.src == ST_P_INT || part.src == ST_P_BUILTIN)) ||
			   (use->op == ST_I_KEY_STR &&
			    (part.src == ST_P_STR || part.src == ST_P_COMM))) {
			if (st->nr_parts >= ST_MAX_PLAIN_PARTS)
				break;
			part.off = use->imm;
			st->parts[st->nr_parts++] = part;
		} else {
			break;
		}
		i++;
	}
	if (i == cfg->nr_insns && !st && cfg->nr_plain)
		p->special = ST_SPECIAL_PLAIN;
	else
		cfg->nr_plain = 0;
}

/*
 * A plain probe that reads only integers and aggregates only into maps
 * without keys is served by sidetrace_flat, which needs no scratch.
 */
void cg_find_flat(const struct st_compiled *out, struct st_compiled_probe *p)
{
	const struct st_probe_cfg *cfg = &p->cfg;
	bool flat = p->special == ST_SPECIAL_PLAIN;
	uint32_t i;

	for (i = 0; i < cfg->nr_loads; i++)
		flat &= cfg->loads[i].want == ST_WANT_INT;
	for (i = 0; i < cfg->nr_plain; i++)
		flat &= !cfg->plain[i].nr_parts &&
			(out->maps[cfg->plain[i].map].flags & ST_MAPF_FLAT);
	if (flat)
		p->special = ST_SPECIAL_FLAT;
}

/*
 * A plain probe of one statement into a keyed map is served by
 * sidetrace_keyed, which builds the key on its stack, when every key of
 * the session fits there: that program is verified against the largest.
 */
/* A string with its length in another SDT argument (Go's): sidetrace_keyed reads none. */
static bool counted_strings(const struct st_probe_cfg *cfg)
{
	uint32_t i;

	for (i = 0; i < cfg->nr_loads; i++)
		if (cfg->loads[i].len_arg1)
			return true;
	return false;
}

void cg_find_keyed(const struct st_compiled *out, struct st_compiled_probe *p)
{
	const struct st_probe_cfg *cfg = &p->cfg;

	if (p->special == ST_SPECIAL_PLAIN && cfg->nr_plain == 1 && !counted_strings(cfg) &&
	    cfg->nr_loads <= ST_KEYED_MAX_LOADS &&
	    !(out->maps[cfg->plain[0].map].flags & ST_MAPF_FLAT) &&
	    out->key_size <= ST_KEYED_KEY_MAX)
		p->special = ST_SPECIAL_KEYED;
}

/*
 * The string loads of a plain probe that are only key parts of
 * ST_MAPF_READ_WHOLE maps (cg_find_plain() checked that the parts are
 * where the map's layout says, where the collector finds them):
 * cfg.ro_loads.
 */
void cg_find_ro_loads(const struct st_compiled *out, struct st_compiled_probe *p)
{
	struct st_probe_cfg *cfg = &p->cfg;
	uint32_t i, k, bad = 0;

	cfg->ro_loads = 0;
	/* A literal is read back from the file up to its NUL, which Go's have none of. */
	if (!st_special_plain(p) || counted_strings(cfg))
		return;
	for (i = 0; i < cfg->nr_plain; i++) {
		const struct st_plain_stmt *st = &cfg->plain[i];

		for (k = 0; k < st->nr_parts; k++) {
			const struct st_plain_part *pt = &st->parts[k];

			if (pt->src != ST_P_STR)
				continue;
			if (out->maps[st->map].flags & ST_MAPF_READ_WHOLE)
				cfg->ro_loads |= 1U << pt->a;
			else
				bad |= 1U << pt->a;
		}
	}
	cfg->ro_loads &= ~bad;
}

bool st_compiled_specializable(const struct st_compiled_probe *p)
{
	enum st_prog_family f = st_event_kind(p->event)->family;

	return (f == ST_FAMILY_UPROBE || f == ST_FAMILY_TRACEPOINT || f == ST_FAMILY_PERF_EVENT) &&
	       !p->cfg.stacks;
}

/* Whether p's code has only the instructions in ops, those of a copy of the stack machine. */
static bool only_ops(const struct st_compiled_probe *p, uint64_t ops)
{
	uint32_t i;

	for (i = 0; i < p->cfg.nr_insns && i < ST_MAX_INSNS; i++)
		if (p->cfg.insns[i].op >= ST_NR_OPCODES || !(ops & ST_OP(p->cfg.insns[i].op)))
			return false;
	return true;
}

enum st_prog st_compiled_prog(const struct st_compiled_probe *p)
{
	static const enum st_prog interpreter[] = {
		[ST_FAMILY_KPROBE] = ST_PROG_KPROBE,
		[ST_FAMILY_PERF_EVENT] = ST_PROG_PROFILE,
		/* A breakpoint's perf event, as a sample's. */
		[ST_FAMILY_WATCHPOINT] = ST_PROG_PROFILE,
		[ST_FAMILY_FENTRY] = ST_PROG_FENTRY,
		[ST_FAMILY_FEXIT] = ST_PROG_FEXIT,
		[ST_FAMILY_ITER] = ST_PROG_ITER,
	};
	enum st_prog_family f = st_event_kind(p->event)->family;
	bool tp = f == ST_FAMILY_TRACEPOINT;

	/* A perf event's sample has only the flat program besides the stack machine. */
	if (f == ST_FAMILY_PERF_EVENT && p->special == ST_SPECIAL_FLAT)
		return ST_PROG_PROFILE_FLAT;
	if (f != ST_FAMILY_UPROBE && !tp)
		return interpreter[f];
	switch (p->special) {
	case ST_SPECIAL_COUNT:
		return tp ? ST_PROG_TP_COUNT : ST_PROG_COUNT;
	case ST_SPECIAL_FLAT:
		/* A tracepoint's plain program serves the flat ones too. */
		return tp ? ST_PROG_TP_PLAIN : ST_PROG_FLAT;
	case ST_SPECIAL_KEYED:
		if (tp)
			return ST_PROG_TP_KEYED;
		/* A smaller program verifies sooner: a third of the start-up here. */
		if (p->cfg.plain[0].nr_parts == 1 && p->cfg.nr_loads <= ST_KEYED1_MAX_LOADS)
			return ST_PROG_KEYED1;
		return ST_PROG_KEYED;
	case ST_SPECIAL_PLAIN:
		return tp ? ST_PROG_TP_PLAIN : ST_PROG_PLAIN;
	case ST_SPECIAL_NONE:
		break;
	}
	/* sidetrace_tp_builtins reads no field. */
	if (tp && !p->cfg.nr_loads && only_ops(p, ST_BUILTINS_PRINT_OPS))
		return ST_PROG_TP_BUILTINS;
	if (tp && only_ops(p, ST_PRINT_OPS))
		return ST_PROG_TP_PRINT;
	return tp ? ST_PROG_TP : ST_PROG_EVENT;
}

const char *st_prog_name(enum st_prog prog)
{
	static const char *const names[ST_NR_PROGS] = {
		[ST_PROG_COUNT] = "count",
		[ST_PROG_FLAT] = "flat",
		[ST_PROG_KEYED] = "keyed",
		[ST_PROG_KEYED1] = "keyed1",
		[ST_PROG_PLAIN] = "plain",
		[ST_PROG_EVENT] = "interpreter",
		[ST_PROG_TP] = "tracepoint interpreter",
		[ST_PROG_KPROBE] = "kprobe interpreter",
		[ST_PROG_PROFILE] = "profile interpreter",
		[ST_PROG_TP_COUNT] = "tracepoint count",
		[ST_PROG_TP_PLAIN] = "tracepoint plain",
		[ST_PROG_TP_KEYED] = "tracepoint keyed",
		[ST_PROG_PROFILE_FLAT] = "profile flat",
		[ST_PROG_TP_PRINT] = "tracepoint print",
		[ST_PROG_TP_BUILTINS] = "tracepoint builtins print",
		[ST_PROG_FENTRY] = "fentry interpreter",
		[ST_PROG_FEXIT] = "fexit interpreter",
		[ST_PROG_ITER] = "iterator interpreter",
	};

	return prog < ST_NR_PROGS ? names[prog] : "?";
}
