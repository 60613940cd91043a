// SPDX-License-Identifier: MIT
/*
 * Field loads: how the BPF program reads each args.* of a probe, from an SDT
 * argument, an index path into the argument vector or a dynamic field.
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
 * The argument label of a leaf field and, for bool, its size. The checker
 * let through only what the type table says the kernel side reads.
 */
static int leaf_label(struct cctx *c, const struct st_type *t, struct st_pos pos,
		      struct st_step *step)
{
	const struct st_side_type *info = st_side_type(t->label);

	if (info->unreadable)
		return cg_fail(c, pos,
			       "internal error: the checker let an unreadable type through");
	switch (info->type_class) {
	case ST_TC_BOOL:
		step->label = t->label;
		step->size = t->size;
		return 0;
	case ST_TC_INT:
	case ST_TC_FLOAT:
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
	return cg_fail(c, pos, "internal error: a leaf field without a value");
}

/* The SDT arguments load ld reads. */
static uint32_t sdt_bits(const struct st_probe_cfg *cfg, const struct st_load *ld)
{
	if (ld->src == ST_SRC_SDT || ld->src == ST_SRC_MEM)
		return 1U << ld->sdt_arg | (ld->len_arg1 ? 1U << (ld->len_arg1 - 1) : 0);
	return ld->src == ST_SRC_VEC ? 1U << cfg->vec_arg : 0;
}

/*
 * The slot of load ld, added to the probe unless already there; regs: a
 * load of one of the probe's registers, whose SDT arguments no field's
 * load may read (regs.c).
 */
static int put_load(struct cctx *c, const struct st_expr *e, const struct st_load *ld, bool regs)
{
	struct st_probe_cfg *cfg = &c->probe->cfg;
	uint32_t k;

	if (!regs && (sdt_bits(cfg, ld) & st_probe_regs_args(c->probe))) {
		st_diag_set(c->diag, c->prog->filename, e->pos,
			    "%s reads more than %d values at each site, registers (reg(), "
			    "uaddr()) and arguments together",
			    c->probe->name, ST_MAX_SDT_ARGS);
		return -EINVAL;
	}
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
	cfg->sdt_mask |= sdt_bits(cfg, ld);
	if (ld->src == ST_SRC_VEC)
		cfg->need_vec = 1;
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
		return cg_fail(c, e->pos, "internal error: dynamic field in a non-variadic event");
	memset(&ld, 0, sizeof(ld));
	ld.src = ST_SRC_DYN;
	ld.want = e->vtype == ST_VT_STR ? ST_WANT_STR : ST_WANT_INT;
	ld.nr_steps = 1;
	ld.steps[0].label = ST_LABEL_ANY_DYNAMIC;
	memcpy(ld.name, name, strlen(name));
	return put_load(c, e, &ld, false);
}

/*
 * A member reached through a function parameter's pointer (args.r->id,
 * args.r->next->name), or an element of a tracepoint's array
 * (args.args[2]): ST_SRC_MEM, one step per member or element, with its
 * offset, and a pointer read where the path goes on through one.
 */
static int add_mem_load(struct cctx *c, const struct st_expr *e, const struct st_field_ref *ref)
{
	const struct st_type *t = &ref->event->fields[ref->idx[0]].type, *m = NULL;
	struct st_load ld;
	uint32_t j;
	int err;

	if (ref->nr_idx - 1 > ST_MAX_STEPS) {
		st_diag_set(c->diag, c->prog->filename, e->pos,
			    "members nested more than %d levels deep", ST_MAX_STEPS);
		return -EINVAL;
	}
	memset(&ld, 0, sizeof(ld));
	ld.src = ST_SRC_MEM;
	ld.sdt_arg = ref->idx[0];
	/* A kernel function's parameter: what it points to is kernel memory. */
	ld.kernel = t->kernel;
	ld.want = e->vtype == ST_VT_STR ? ST_WANT_STR : ST_WANT_INT;
	ld.nr_steps = ref->nr_idx - 1;
	for (j = 0; j + 1 < ref->nr_idx; j++) {
		const struct st_type *s = t->label == SIDE_TYPE_POINTER ? t->elem : t;

		/* An array in place (a tracepoint record's): element i is i sizes on. */
		if (s && s->label == SIDE_TYPE_ARRAY && s->elem) {
			m = s->elem;
			ld.steps[j].index = ref->idx[j + 1] * m->size;
			ld.steps[j].size = 0;
			t = m;
			continue;
		}
		if (!s || s->label != SIDE_TYPE_STRUCT || ref->idx[j + 1] >= s->nr_fields)
			return cg_fail(c, e->pos,
				       "internal error: a member path through no struct");
		m = &s->fields[ref->idx[j + 1]].type;
		ld.steps[j].index = m->member_offset;
		ld.steps[j].size = m->label == SIDE_TYPE_POINTER ? ST_MEM_DEREF : 0;
		t = m;
	}
	err = leaf_label(c, m, e->pos, &ld.steps[ld.nr_steps - 1]);
	if (err)
		return err;
	/* The leaf's size: its bytes, or for a string 0 (in place) or 8 (a pointer to it). */
	if (m->label == SIDE_TYPE_ENUM && m->elem)
		m = m->elem;
	ld.steps[ld.nr_steps - 1].size = st_side_type(m->label)->type_class == ST_TC_STRING
						 ? (m->in_place ? 0 : 8)
						 : m->size;
	return put_load(c, e, &ld, false);
}

/* The load slot that reads ref, added to the probe unless already there. */
int cg_add_load(struct cctx *c, const struct st_expr *e)
{
	const struct st_field_ref *ref;
	const struct st_type *t;
	struct st_load ld;
	uint32_t k;
	int err;

	if (c->ev_idx >= e->nr_refs || !e->refs[c->ev_idx].event)
		return cg_fail(c, e->pos, "internal error: field not resolved for this event");
	ref = &e->refs[c->ev_idx];
	if (!ref->nr_idx)
		return add_dyn_load(c, e);
	if (st_probe_kind_located(st_event_kind(ref->event)) && ref->nr_idx > 1)
		return add_mem_load(c, e, ref);
	if (ref->nr_idx > ST_MAX_STEPS) {
		st_diag_set(c->diag, c->prog->filename, e->pos,
			    "field nested more than %d levels deep", ST_MAX_STEPS);
		return -EINVAL;
	}
	if (ref->idx[0] >= ref->event->nr_fields)
		return cg_fail(c, e->pos, "internal error: field index out of range");
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
				return cg_fail(c, e->pos,
					       "internal error: member index out of range");
			t = &t->fields[ref->idx[k + 1]].type;
		} else if (st_side_type(t->label)->type_class == ST_TC_ARRAY && t->elem) {
			t = t->elem;
		} else {
			return cg_fail(c, e->pos, "internal error: a path through a leaf field");
		}
	}
	/* buf(args->buf, n), args->saddr: a kernel probe's string or array read as its address. */
	err = e->addr_of ? 0 : leaf_label(c, t, e->pos, &ld.steps[ref->nr_idx - 1]);
	if (err)
		return err;
	/* str(argN): the operand is the string's address (ck_str_at()). */
	if (e->str_at)
		ld.steps[0].label = SIDE_TYPE_STRING_UTF8;
	else if (e->addr_of)
		ld.steps[0].label = SIDE_TYPE_U64;
	else if ((ld.want == ST_WANT_STR) != (st_side_type(t->label)->type_class == ST_TC_STRING))
		return cg_fail(c, e->pos, "internal error: field type and value type differ");
	/*
	 * A top-level field among the probe's value arguments is read from
	 * its SDT argument: no read of the argument vector at all. Not a
	 * SIDE site's float, which its SDT argument truncates to an integer
	 * (side/probe.h).
	 */
	if (ref->nr_idx == 1 && ref->idx[0] < c->probe->nr_sdt_values &&
	    ld.steps[0].label != ST_LABEL_ANY_DYNAMIC && !(c->flags & ST_COMPILE_VECTOR_ONLY) &&
	    (st_probe_kind_located(st_event_kind(ref->event)) ||
	     st_side_type(t->label)->type_class != ST_TC_FLOAT)) {
		ld.src = ST_SRC_SDT;
		ld.sdt_arg = ref->idx[0];
		ld.len_arg1 = t->len_arg1;
		ld.kernel = t->kernel;
	}
	return put_load(c, e, &ld, false);
}

int cg_add_sdt_load(struct cctx *c, const struct st_expr *e, uint32_t arg)
{
	struct st_load ld;

	memset(&ld, 0, sizeof(ld));
	ld.src = ST_SRC_SDT;
	ld.want = ST_WANT_INT;
	ld.nr_steps = 1;
	ld.sdt_arg = arg;
	ld.steps[0].label = SIDE_TYPE_U64;
	return put_load(c, e, &ld, true);
}
