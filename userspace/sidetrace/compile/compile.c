// SPDX-License-Identifier: MIT
/*
 * Checked program -> BPF configuration. See compile.h and bpf/sidetrace.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "lang/checker.h"
#include "compile/compile.h"

/* State while compiling one clause for one of its events. */
struct cctx {
	const struct st_program *prog;
	struct st_diag *diag;
	struct st_compiled *out;
	struct st_compiled_probe *probe;
	uint32_t probe_idx;
	uint32_t ev_idx; /* index of the event in clause->events */
	unsigned int flags; /* ST_COMPILE_* */
	uint32_t depth; /* stack depth at the current instruction */
};

static int fail(struct cctx *c, struct st_pos pos, const char *msg)
{
	st_diag_set(c->diag, c->prog->filename, pos, "%s", msg);
	return -EINVAL;
}

static int emit(struct cctx *c, struct st_pos pos, uint8_t op, uint8_t a, int64_t imm)
{
	struct st_probe_cfg *cfg = &c->probe->cfg;
	struct st_insn *in;
	int pushes;

	if (cfg->nr_insns >= ST_MAX_INSNS) {
		st_diag_set(c->diag, c->prog->filename, pos,
			    "the clauses of %s need more than %d instructions of the BPF machine",
			    c->probe->name, ST_MAX_INSNS);
		st_diag_hint(c->diag,
			     "split the program, or use fewer keys and conditions per event");
		return -EINVAL;
	}
	/* Net stack effect of each instruction, to bound the machine's stack. */
	switch (op) {
	case ST_I_CONST:
	case ST_I_FIELD:
	case ST_I_STR:
	case ST_I_BUILTIN:
		pushes = 1;
		break;
	case ST_I_FILTER:
	case ST_I_BINARY:
	case ST_I_STREQ:
	case ST_I_STRNE:
	case ST_I_KEY_INT:
	case ST_I_KEY_STR:
	case ST_I_AGG:
		pushes = -1;
		break;
	default:
		pushes = 0;
		break;
	}
	c->depth += pushes;
	if (pushes > 0 && c->depth > ST_STACK_DEPTH)
		return fail(c, pos, "expression too deeply nested for the BPF machine");
	in = &cfg->insns[cfg->nr_insns++];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->a = a;
	in->imm = imm;
	return 0;
}

/* A string literal of the probe; returns its reference or -EINVAL. */
static int str_const(struct cctx *c, const char *s, struct st_pos pos)
{
	struct st_probe_cfg *cfg = &c->probe->cfg;
	uint32_t i;

	if (strlen(s) >= ST_STR_LEN) {
		st_diag_set(c->diag, c->prog->filename, pos,
			    "string longer than %d bytes: the kernel compares at most that many",
			    ST_STR_LEN - 1);
		return -EINVAL;
	}
	for (i = 0; i < c->probe->nr_strs; i++)
		if (!strcmp(cfg->strs[i], s))
			return ST_STR_REF_CONST + i;
	if (i < ST_MAX_STRCONST) {
		/* Slots are zeroed: the copy is NUL-padded as the kernel needs. */
		strcpy(cfg->strs[i], s);
		c->probe->nr_strs++;
		return ST_STR_REF_CONST + i;
	}
	st_diag_set(c->diag, c->prog->filename, pos, "more than %d distinct string literals for %s",
		    ST_MAX_STRCONST, c->probe->name);
	return -EINVAL;
}

/*
 * The argument label of a leaf field and, for bool, its size. The checker
 * let through only what the type table says the kernel side reads.
 */
static int leaf_label(struct cctx *c, const struct st_type *t, struct st_pos pos,
		      struct st_step *step)
{
	const struct st_side_type *info = st_side_type(t->label);

	if (info->unreadable)
		return fail(c, pos, "internal error: the checker let an unreadable type through");
	switch (info->type_class) {
	case ST_TC_BOOL:
		step->label = t->label;
		step->size = t->size;
		return 0;
	case ST_TC_INT:
	case ST_TC_STRING:
		step->label = t->label;
		return 0;
	case ST_TC_ENUM:
		/* The argument is the underlying integer. */
		if (t->elem)
			return leaf_label(c, t->elem, pos, step);
		break;
	default:
		break;
	}
	return fail(c, pos, "internal error: a leaf field without a value");
}

/* The slot of load ld, added to the probe unless already there. */
static int put_load(struct cctx *c, const struct st_expr *e, const struct st_load *ld)
{
	struct st_probe_cfg *cfg = &c->probe->cfg;
	uint32_t k;

	for (k = 0; k < cfg->nr_loads; k++)
		if (!memcmp(&cfg->loads[k], ld, sizeof(*ld)))
			return k;
	if (cfg->nr_loads >= ST_MAX_LOADS) {
		st_diag_set(c->diag, c->prog->filename, e->pos,
			    "the clauses of %s read more than %d fields", c->probe->name,
			    ST_MAX_LOADS);
		return -EINVAL;
	}
	cfg->loads[cfg->nr_loads] = *ld;
	if (ld->src == ST_SRC_SDT) {
		cfg->sdt_mask |= 1U << ld->sdt_arg;
	} else if (ld->src == ST_SRC_VEC) {
		cfg->need_vec = 1;
		cfg->sdt_mask |= 1U << cfg->vec_arg;
	}
	if (ld->want == ST_WANT_STR)
		cfg->str_loads |= 1U << cfg->nr_loads;
	return cfg->nr_loads++;
}

/*
 * A dynamic field of a variadic event, found by name in the dynamic struct
 * that add_probe() made the probe read (dyn_arg). Its value carries its
 * own type: one that differs from what the checker inferred is a decode
 * error at run time (ST_C_ERR_DYNTYPE), never a value.
 */
static int add_dyn_load(struct cctx *c, const struct st_expr *e)
{
	const char *name = e->path[0].name;
	struct st_load ld;

	if (!c->probe->cfg.variadic || strlen(name) >= ST_NAME_LEN)
		return fail(c, e->pos, "internal error: dynamic field in a non-variadic event");
	memset(&ld, 0, sizeof(ld));
	ld.src = ST_SRC_DYN;
	ld.want = e->vtype == ST_VT_STR ? ST_WANT_STR : ST_WANT_INT;
	ld.nr_steps = 1;
	ld.steps[0].label = ST_LABEL_ANY_DYNAMIC;
	memcpy(ld.name, name, strlen(name));
	return put_load(c, e, &ld);
}

/* The load slot that reads ref, added to the probe unless already there. */
static int add_load(struct cctx *c, const struct st_expr *e)
{
	const struct st_field_ref *ref;
	const struct st_type *t;
	struct st_load ld;
	uint32_t k;
	int err;

	if (c->ev_idx >= e->nr_refs || !e->refs[c->ev_idx].event)
		return fail(c, e->pos, "internal error: field not resolved for this event");
	ref = &e->refs[c->ev_idx];
	if (!ref->nr_idx)
		return add_dyn_load(c, e);
	if (ref->nr_idx > ST_MAX_STEPS) {
		st_diag_set(c->diag, c->prog->filename, e->pos,
			    "field nested more than %d levels deep", ST_MAX_STEPS);
		return -EINVAL;
	}
	if (ref->idx[0] >= ref->event->nr_fields)
		return fail(c, e->pos, "internal error: field index out of range");
	memset(&ld, 0, sizeof(ld));
	ld.src = ST_SRC_VEC;
	ld.want = e->vtype == ST_VT_STR ? ST_WANT_STR : ST_WANT_INT;
	ld.nr_steps = ref->nr_idx;
	t = &ref->event->fields[ref->idx[0]].type;
	for (k = 0; k < ref->nr_idx; k++) {
		ld.steps[k].index = ref->idx[k];
		if (k + 1 == ref->nr_idx)
			break;
		ld.steps[k].label = t->label;
		if (t->label == SIDE_TYPE_STRUCT) {
			if (ref->idx[k + 1] >= t->nr_fields)
				return fail(c, e->pos, "internal error: member index out of range");
			t = &t->fields[ref->idx[k + 1]].type;
		} else if (st_side_type(t->label)->type_class == ST_TC_ARRAY && t->elem) {
			t = t->elem;
		} else {
			return fail(c, e->pos, "internal error: a path through a leaf field");
		}
	}
	err = leaf_label(c, t, e->pos, &ld.steps[ref->nr_idx - 1]);
	if (err)
		return err;
	if ((ld.want == ST_WANT_STR) != (st_side_type(t->label)->type_class == ST_TC_STRING))
		return fail(c, e->pos, "internal error: field type and value type differ");
	/*
	 * A top-level field among the probe's value arguments is read from
	 * its SDT argument: no read of the argument vector at all.
	 */
	if (ref->nr_idx == 1 && ref->idx[0] < c->probe->nr_sdt_values &&
	    ld.steps[0].label != ST_LABEL_ANY_DYNAMIC && !(c->flags & ST_COMPILE_VECTOR_ONLY)) {
		ld.src = ST_SRC_SDT;
		ld.sdt_arg = ref->idx[0];
	}
	return put_load(c, e, &ld);
}

static bool is_unsigned(const struct st_expr *e)
{
	return e->vtype == ST_VT_UINT || e->vtype == ST_VT_BOOL;
}

static int binop(const struct st_expr *e)
{
	bool uns = is_unsigned(e->kids[0]) && is_unsigned(e->kids[1]);

	switch (e->op) {
	case ST_OP_MUL:
		return ST_B_MUL;
	case ST_OP_DIV:
		return e->vtype == ST_VT_UINT ? ST_B_UDIV : ST_B_DIV;
	case ST_OP_MOD:
		return e->vtype == ST_VT_UINT ? ST_B_UMOD : ST_B_MOD;
	case ST_OP_ADD:
		return ST_B_ADD;
	case ST_OP_SUB:
		return ST_B_SUB;
	case ST_OP_SHL:
		return ST_B_SHL;
	case ST_OP_SHR:
		return is_unsigned(e->kids[0]) ? ST_B_SHR : ST_B_SAR;
	case ST_OP_LT:
		return uns ? ST_B_ULT : ST_B_LT;
	case ST_OP_LE:
		return uns ? ST_B_ULE : ST_B_LE;
	case ST_OP_GT:
		return uns ? ST_B_UGT : ST_B_GT;
	case ST_OP_GE:
		return uns ? ST_B_UGE : ST_B_GE;
	case ST_OP_EQ:
		return ST_B_EQ;
	case ST_OP_NE:
		return ST_B_NE;
	case ST_OP_BAND:
		return ST_B_AND;
	case ST_OP_BXOR:
		return ST_B_XOR;
	case ST_OP_BOR:
		return ST_B_OR;
	/* Both sides are evaluated: they have no side effects. */
	case ST_OP_LAND:
		return ST_B_LAND;
	case ST_OP_LOR:
		return ST_B_LOR;
	default:
		return -1;
	}
}

static int cexpr(struct cctx *c, const struct st_expr *e)
{
	int err, ref, op;

	switch (e->kind) {
	case ST_EXPR_INT:
		return emit(c, e->pos, ST_I_CONST, 0, (int64_t)e->uval);
	case ST_EXPR_STR:
		ref = str_const(c, e->str, e->pos);
		if (ref < 0)
			return ref;
		return emit(c, e->pos, ST_I_STR, ref, 0);
	case ST_EXPR_BUILTIN:
		switch (e->builtin) {
		case ST_BUILTIN_PID:
			return emit(c, e->pos, ST_I_BUILTIN, ST_BI_PID, 0);
		case ST_BUILTIN_TID:
			return emit(c, e->pos, ST_I_BUILTIN, ST_BI_TID, 0);
		case ST_BUILTIN_NSECS:
			return emit(c, e->pos, ST_I_BUILTIN, ST_BI_NSECS, 0);
		case ST_BUILTIN_CPU:
			return emit(c, e->pos, ST_I_BUILTIN, ST_BI_CPU, 0);
		case ST_BUILTIN_UID:
			return emit(c, e->pos, ST_I_BUILTIN, ST_BI_UID, 0);
		case ST_BUILTIN_COMM:
			return emit(c, e->pos, ST_I_STR, ST_STR_REF_COMM, 0);
		case ST_BUILTIN_PROBE:
			/* As a value the probe is known here: its name. */
			ref = str_const(c, c->probe->name, e->pos);
			if (ref < 0)
				return ref;
			return emit(c, e->pos, ST_I_STR, ref, 0);
		}
		return fail(c, e->pos, "unknown builtin");
	case ST_EXPR_FIELD:
		ref = add_load(c, e);
		if (ref < 0)
			return ref;
		return emit(c, e->pos, e->vtype == ST_VT_STR ? ST_I_STR : ST_I_FIELD, ref, 0);
	case ST_EXPR_UNARY:
		err = cexpr(c, e->kids[0]);
		if (err)
			return err;
		switch (e->op) {
		case ST_OP_NEG:
			return emit(c, e->pos, ST_I_UNARY, ST_U_NEG, 0);
		case ST_OP_NOT:
			return emit(c, e->pos, ST_I_UNARY, ST_U_LNOT, 0);
		case ST_OP_BNOT:
			return emit(c, e->pos, ST_I_UNARY, ST_U_BNOT, 0);
		default:
			return fail(c, e->pos, "unknown unary operator");
		}
	case ST_EXPR_BINARY:
		err = cexpr(c, e->kids[0]);
		if (!err)
			err = cexpr(c, e->kids[1]);
		if (err)
			return err;
		if (e->kids[0]->vtype == ST_VT_STR || e->kids[1]->vtype == ST_VT_STR) {
			if (e->op == ST_OP_EQ)
				return emit(c, e->pos, ST_I_STREQ, 0, 0);
			if (e->op == ST_OP_NE)
				return emit(c, e->pos, ST_I_STRNE, 0, 0);
			return fail(c, e->pos, "strings can only be compared with == and !=");
		}
		op = binop(e);
		if (op < 0)
			return fail(c, e->pos, "unknown binary operator");
		return emit(c, e->pos, ST_I_BINARY, op, 0);
	case ST_EXPR_CALL:
	case ST_EXPR_MAP:
		break;
	}
	return fail(c, e->pos, "not a value the kernel can compute");
}

static int cstmt(struct cctx *c, const struct st_stmt *st)
{
	const struct st_map_layout *lay;
	const struct st_expr *call = st->call;
	uint32_t k;
	int err;

	if (st->kind == ST_STMT_CALL) {
		if (call->func == ST_FN_EXIT)
			return emit(c, st->pos, ST_I_EXIT, 0, 0);
		st_diag_set(c->diag, c->prog->filename, st->pos,
			    "%s() in a side: probe would need event streaming, which sidetrace "
			    "does not do yet",
			    st_func_name(call->func));
		st_diag_hint(
			c->diag,
			"aggregate into a map (@x[...] = count()) and print it in END or interval");
		return -EINVAL;
	}
	if (st->map_id < 0 || (uint32_t)st->map_id >= c->out->nr_maps)
		return fail(c, st->pos, "internal error: map not resolved");
	lay = &c->out->layouts[st->map_id];
	for (k = 0; k < st->nr_keys && k < lay->nr_parts; k++) {
		const struct st_expr *key = st->keys[k];

		if (lay->parts[k].kind == ST_KPART_PROBE)
			err = emit(c, key->pos, ST_I_BUILTIN, ST_BI_PROBE, 0);
		else
			err = cexpr(c, key);
		if (!err)
			err = emit(c, key->pos,
				   lay->parts[k].kind == ST_KPART_STR ? ST_I_KEY_STR : ST_I_KEY_INT,
				   0, lay->parts[k].off);
		if (err)
			return err;
	}
	if (call->func == ST_FN_COUNT)
		err = emit(c, call->pos, ST_I_CONST, 0, 0);
	else if (call->nr_kids >= 1)
		err = cexpr(c, call->kids[0]);
	else
		err = fail(c, call->pos, "internal error: aggregation without value");
	if (err)
		return err;
	return emit(c, st->pos, ST_I_AGG, st->map_id, 0);
}

static int cclause(struct cctx *c, const struct st_clause *cl)
{
	struct st_probe_cfg *cfg = &c->probe->cfg;
	uint32_t start = cfg->nr_insns, i;
	int err;

	c->depth = 0;
	err = emit(c, cl->pos, ST_I_CLAUSE, 0, 0);
	if (!err && cl->filter) {
		err = cexpr(c, cl->filter);
		if (!err)
			err = emit(c, cl->filter->pos, ST_I_FILTER, 0, 0);
	}
	for (i = 0; !err && i < cl->nr_stmts; i++)
		err = cstmt(c, &cl->stmts[i]);
	if (err)
		return err;
	cfg->insns[start].imm = cfg->nr_insns;
	for (i = start; i < cfg->nr_insns; i++) {
		const struct st_insn *in = &cfg->insns[i];

		if ((in->op == ST_I_FIELD || in->op == ST_I_STR) && in->a < ST_MAX_LOADS)
			cfg->insns[start].mask |= 1U << in->a;
	}
	return 0;
}

static bool is_side_clause(const struct st_clause *cl)
{
	uint32_t i;

	for (i = 0; i < cl->nr_probes; i++)
		if (cl->probes[i].kind == ST_PROBE_SIDE)
			return true;
	return false;
}

/* BEGIN, END and interval clauses run in user space: actions only. */
static int check_user_clause(const struct st_program *prog, const struct st_clause *cl,
			     struct st_diag *diag)
{
	uint32_t i;

	if (cl->filter) {
		st_diag_set(diag, prog->filename, cl->filter->pos,
			    "BEGIN, END and interval probes take no filter");
		return -EINVAL;
	}
	for (i = 0; i < cl->nr_stmts; i++) {
		if (cl->stmts[i].kind == ST_STMT_AGG) {
			st_diag_set(diag, prog->filename, cl->stmts[i].pos,
				    "maps are updated in side: probes only");
			st_diag_hint(diag, "BEGIN, END and interval can printf(), print(), "
					   "clear(), zero() and exit()");
			return -EINVAL;
		}
	}
	return 0;
}

static int add_probe(const struct st_program *prog, struct st_compiled *out,
		     const struct st_clause *cl, const struct st_event *ev, struct st_diag *diag)
{
	struct st_compiled_probe *p, *probes;
	const char *target = "";
	uint32_t i, j, nargs, fixed;

	for (i = 0; i < out->nr_probes; i++)
		if (out->probes[i].event == ev)
			return i;
	for (i = 0; i < cl->nr_probes; i++)
		for (j = 0; j < cl->probes[i].nr_events; j++)
			if (cl->probes[i].events[j] == ev)
				target = cl->probes[i].target;
	probes = realloc(out->probes, (out->nr_probes + 1) * sizeof(*probes));
	if (!probes)
		return -ENOMEM;
	out->probes = probes;
	p = &probes[out->nr_probes];
	memset(p, 0, sizeof(*p));
	p->event = ev;
	if (asprintf(&p->name, "side:%s:%s:%s", target, ev->provider, ev->name) < 0) {
		p->name = NULL;
		return -ENOMEM;
	}
	out->nr_probes++;
	/*
	 * The argument vector follows the field values and the description
	 * pointer (include/side/probe.h); count the site's actual arguments
	 * so that a binary built with another layout fails here, not with
	 * garbage in the kernel.
	 */
	fixed = ev->variadic ? 3 : 2;
	nargs = ev->nr_sites ? ev->sites[0].sdt.nr : 0;
	if (ev->has_side && nargs < fixed) {
		st_diag_set(
			diag, prog->filename, cl->pos,
			"%s: its probe sites have %u SDT arguments, a SIDE event has at least %u",
			p->name, nargs, fixed);
		return -EINVAL;
	}
	if (ev->has_side && nargs > ST_MAX_SDT_ARGS) {
		st_diag_set(diag, prog->filename, cl->pos,
			    "%s: its probe sites have %u SDT arguments, at most %d can be read",
			    p->name, nargs, ST_MAX_SDT_ARGS);
		return -EINVAL;
	}
	if (ev->has_side) {
		p->cfg.vec_arg = nargs - fixed + 1;
		p->cfg.variadic = ev->variadic;
		p->cfg.dyn_arg = ev->variadic ? nargs - 1 : 0;
		if (ev->variadic)
			p->cfg.sdt_mask |= 1U << p->cfg.dyn_arg;
		/* Only when the site carries what C1 says it does. */
		if (nargs - fixed <= ev->nr_fields)
			p->nr_sdt_values = nargs - fixed;
	}
	return out->nr_probes - 1;
}

/*
 * A map without keys lives in slots of a per-CPU array, one per value or
 * histogram bucket: no key to build, no hashing. Huge linear histograms
 * stay in the hash, whose entries exist only for buckets that were hit.
 */
static void flat_slots(struct st_compiled *out, struct st_map_cfg *mc, uint32_t nr_keys)
{
	uint64_t len = 1;

	if (nr_keys)
		return;
	if (mc->kind == ST_K_HIST)
		len = ST_HIST_BUCKETS;
	else if (mc->kind == ST_K_LHIST)
		len = st_lhist_buckets(mc->lmin, mc->lmax, mc->lstep);
	if (len > ST_MAX_FLAT_SLOTS - out->nr_flat)
		return;
	mc->flags |= ST_MAPF_FLAT;
	mc->flat_base = out->nr_flat;
	mc->flat_len = len;
	out->nr_flat += len;
}

/* Key layouts and map configurations, from the checker's map table. */
static int layout_maps(const struct st_program *prog, struct st_compiled *out, struct st_diag *diag)
{
	uint32_t m, k, i, j, largest = st_key_len(ST_K_HIST, 0);

	if (prog->nr_maps > ST_MAX_MAPS) {
		st_diag_set(diag, prog->filename, prog->maps[ST_MAX_MAPS].pos, "more than %d maps",
			    ST_MAX_MAPS);
		return -EINVAL;
	}
	out->nr_maps = prog->nr_maps;
	for (m = 0; m < prog->nr_maps; m++) {
		const struct st_map_info *mi = &prog->maps[m];
		struct st_map_layout *lay = &out->layouts[m];
		struct st_map_cfg *mc = &out->maps[m];
		uint32_t off = 0, need;

		lay->nr_parts = mi->nr_keys;
		for (k = 0; k < mi->nr_keys; k++) {
			bool all_probe = true;

			/* A key that is always "probe" is stored as its index. */
			for (i = 0; i < prog->nr_clauses; i++) {
				const struct st_clause *cl = &prog->clauses[i];

				for (j = 0; j < cl->nr_stmts; j++) {
					const struct st_stmt *st = &cl->stmts[j];

					if (st->kind != ST_STMT_AGG || st->map_id != (int)m ||
					    k >= st->nr_keys)
						continue;
					if (st->keys[k]->kind != ST_EXPR_BUILTIN ||
					    st->keys[k]->builtin != ST_BUILTIN_PROBE)
						all_probe = false;
				}
			}
			lay->parts[k].off = off;
			if (all_probe && mi->key_types[k] == ST_VT_STR) {
				lay->parts[k].kind = ST_KPART_PROBE;
				off += 8;
			} else if (mi->key_types[k] == ST_VT_STR) {
				lay->parts[k].kind = ST_KPART_STR;
				off += ST_STR_LEN;
			} else {
				lay->parts[k].kind = ST_KPART_INT;
				off += 8;
			}
		}
		if (off > ST_KEY_PARTS_MAX) {
			st_diag_set(diag, prog->filename, mi->pos,
				    "the keys of %s take %u bytes; the kernel allows %d", mi->name,
				    off, ST_KEY_PARTS_MAX);
			st_diag_hint(diag, "each string key takes %d bytes, other keys 8",
				     ST_STR_LEN);
			return -EINVAL;
		}
		lay->parts_size = off;
		mc->key_size = off;
		mc->flags = mi->value_signed ? ST_MAPF_SIGNED : 0;
		mc->kind = mi->agg;
		mc->lmin = mi->lhist_min;
		mc->lmax = mi->lhist_max;
		mc->lstep = mi->lhist_step;
		need = st_key_len(mc->kind, off);
		if (need > largest)
			largest = need;
		flat_slots(out, mc, mi->nr_keys);
	}
	out->key_size = largest;
	return 0;
}

/*
 * A probe whose clauses have no filter and only count into maps without
 * keys is served by sidetrace_count: its counts[] are those maps' slots.
 */
static void find_count_only(struct st_compiled *out, struct st_compiled_probe *p)
{
	const struct st_probe_cfg *cfg = &p->cfg;
	uint32_t i;

	p->nr_counts = 0;
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
	p->count_only = i == cfg->nr_insns && p->nr_counts;
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
		part->src = ST_P_STR;
		return in->a < cfg->nr_loads; /* not comm, not a literal */
	case ST_I_BUILTIN:
		part->src = ST_P_BUILTIN;
		return true;
	case ST_I_CONST:
		part->src = ST_P_CONST;
		return true;
	default:
		return false;
	}
}

/*
 * A probe whose loads all come from SDT arguments and whose clauses have
 * no filter and only aggregate a field, builtin or constant keyed by
 * fields and builtins is served by sidetrace_plain: each statement
 * becomes one cfg.plain[], run without the stack machine. The code is
 * then pairs (push, use): CLAUSE, then per statement (push, KEY_*)...
 * and (push, AGG).
 */
static void find_plain(struct st_compiled_probe *p)
{
	struct st_probe_cfg *cfg = &p->cfg;
	struct st_plain_stmt *st = NULL;
	struct st_plain_part part;
	uint32_t i, mask = 0;

	cfg->nr_plain = 0;
	for (i = 0; i < cfg->nr_loads; i++)
		if (cfg->loads[i].src != ST_SRC_SDT)
			return;
	for (i = 0; i < cfg->nr_insns; i++) {
		const struct st_insn *in = &cfg->insns[i], *use = in + 1;

		if (in->op == ST_I_CLAUSE && !st) {
			mask = in->mask;
			continue;
		}
		if (i + 1 >= cfg->nr_insns || !plain_part(cfg, in, &part))
			break;
		if (!st) {
			if (cfg->nr_plain >= ST_MAX_PLAIN)
				break;
			st = &cfg->plain[cfg->nr_plain++];
			memset(st, 0, sizeof(*st));
			st->mask = mask;
		}
		if (use->op == ST_I_AGG && part.src != ST_P_STR) {
			st->map = use->a;
			st->value = part;
			st->imm = in->imm;
			st = NULL;
		} else if ((use->op == ST_I_KEY_INT &&
			    (part.src == ST_P_INT || part.src == ST_P_BUILTIN)) ||
			   (use->op == ST_I_KEY_STR && part.src == ST_P_STR)) {
			if (st->nr_parts >= ST_MAX_PLAIN_PARTS)
				break;
			part.off = use->imm;
			st->parts[st->nr_parts++] = part;
		} else {
			break;
		}
		i++;
	}
	p->plain = i == cfg->nr_insns && !st && cfg->nr_plain;
	if (!p->plain)
		cfg->nr_plain = 0;
}

/*
 * A plain probe that reads only integers and aggregates only into maps
 * without keys is served by sidetrace_flat, which needs no scratch.
 */
static void find_flat(const struct st_compiled *out, struct st_compiled_probe *p)
{
	const struct st_probe_cfg *cfg = &p->cfg;
	uint32_t i;

	p->flat = p->plain;
	for (i = 0; i < cfg->nr_loads; i++)
		p->flat &= cfg->loads[i].want == ST_WANT_INT;
	for (i = 0; i < cfg->nr_plain; i++)
		p->flat &= !cfg->plain[i].nr_parts &&
			   (out->maps[cfg->plain[i].map].flags & ST_MAPF_FLAT);
}

int st_compile(const struct st_program *prog, unsigned int flags, struct st_compiled *out,
	       struct st_diag *diag)
{
	struct cctx c = {.prog = prog, .diag = diag, .out = out, .flags = flags};
	uint32_t i, e;
	int err, idx;

	memset(out, 0, sizeof(*out));
	err = layout_maps(prog, out, diag);
	if (err)
		return err;
	for (i = 0; i < prog->nr_clauses; i++) {
		const struct st_clause *cl = &prog->clauses[i];

		if (!is_side_clause(cl)) {
			err = check_user_clause(prog, cl, diag);
			if (err)
				return err;
			continue;
		}
		for (e = 0; e < cl->nr_events; e++) {
			idx = add_probe(prog, out, cl, cl->events[e], diag);
			if (idx < 0)
				return idx;
			c.probe = &out->probes[idx];
			c.probe_idx = idx;
			c.ev_idx = e;
			err = cclause(&c, cl);
			if (err)
				return err;
		}
	}
	for (i = 0; i < out->nr_probes; i++) {
		find_count_only(out, &out->probes[i]);
		if (out->probes[i].count_only)
			continue;
		find_plain(&out->probes[i]);
		find_flat(out, &out->probes[i]);
	}
	return 0;
}

void st_compiled_free(struct st_compiled *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		free(c->probes[i].name);
	free(c->probes);
	memset(c, 0, sizeof(*c));
}
