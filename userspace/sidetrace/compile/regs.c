// SPDX-License-Identifier: MIT
/*
 * The event's registers: reg("sp") and uaddr("sym") are SDT arguments of
 * the probe's own, in the last slots of its sites' that no field it reads
 * takes, read with the fields.
 */
#include <stdio.h>
#include <string.h>

#include "compile/codegen.h"
#include "objfile/sdt_args.h"
#include "objfile/symbols.h"

/*
 * The load of spec, an SDT argument of the probe's own, added unless
 * already there: the last argument that no field it reads is.
 */
static int regs_load(struct cctx *c, const struct st_expr *e, const struct st_arg_spec *spec)
{
	struct st_compiled_probe *p = c->probe;
	uint32_t i, arg;
	char msg[200];

	for (i = 0; i < p->nr_regs; i++)
		if (!memcmp(&p->regs[i], spec, sizeof(*spec)))
			return cg_add_sdt_load(c, e, st_probe_regs_arg(i));
	arg = st_probe_regs_arg(p->nr_regs);
	if (p->nr_regs >= ST_MAX_SDT_ARGS || (p->cfg.sdt_mask & (1U << arg))) {
		snprintf(msg, sizeof(msg),
			 "%s reads more than %d values at each site, registers (reg(), uaddr()) "
			 "and arguments together",
			 p->name, ST_MAX_SDT_ARGS);
		return cg_fail(c, e->pos, msg);
	}
	p->regs[p->nr_regs++] = *spec;
	return cg_add_sdt_load(c, e, arg);
}

int cg_regs(struct cctx *c, const struct st_expr *e)
{
	const struct st_event *ev = c->probe->event;
	struct st_arg_spec spec = {.loc = ST_LOC_REG, .reg = e->uval, .size = 8};
	struct st_named_sym sym;
	char why[320];
	int load;

	if (st_func(e->func)->bpf == ST_FC_UADDR) {
		/* The checker found it in each event's file. */
		if (st_symbol_named(ev->path, e->kids[0]->str, &sym, why, sizeof(why)))
			return cg_fail(c, e->pos, why);
		/* Where a position-dependent file has it is its address. */
		if (!sym.pie)
			return cg_emit(c, e->pos, ST_I_CONST, 0, sym.addr);
		spec.loc = ST_LOC_REG_OFFSET;
		spec.reg = st_pt_regs_word("ip");
		spec.val = sym.addr;
	}
	load = regs_load(c, e, &spec);
	return load < 0 ? load : cg_emit(c, e->pos, ST_I_FIELD, load, 0);
}
