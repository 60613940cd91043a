// SPDX-License-Identifier: MIT
/*
 * The code of the functions bpftrace has beside the core ones: join(),
 * whose records the collector prints (output/record_calls.c).
 */
#include "compile/codegen.h"

int cg_join(struct cctx *c, const struct st_stmt *st)
{
	struct st_printf_layout *lay;
	bool added;
	int id, err;

	id = cg_record_layout(c, st->call, &added);
	if (id < 0)
		return id;
	lay = &c->out->printfs[id];
	lay->size = ST_JOIN_SIZE;
	err = cg_expr(c, st->call->kids[0]) ?: cg_emit(c, st->pos, ST_I_OUT_JOIN, 0, 0);
	if (!err)
		c->probe->cfg.insns[c->probe->cfg.nr_insns - 1].mask = id;
	return err;
}
