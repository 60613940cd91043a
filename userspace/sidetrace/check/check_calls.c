// SPDX-License-Identifier: MIT
/*
 * The arguments of the functions bpftrace has beside the core ones:
 * join(), and where each may run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check/check.h"

int ck_host_has(struct checker *c, const struct st_expr *call)
{
	const struct st_func_row *f = st_func(call->func);

	if (c->no_args && f->host == ST_FC_NONE)
		return ck_err(c, call->pos, "%s() in %s: %s", f->name,
			      ck_point_kind_name(c->no_args), f->no_host);
	return 0;
}

/* join(arr), join(arr, "delim"): the array's address, a literal delimiter. */
int ck_join(struct checker *c, struct st_expr *call)
{
	int err = ck_host_has(c, call);

	if (!err && (call->nr_kids < 1 || call->nr_kids > 2))
		return ck_err(c, call->pos,
			      "join() takes an array of strings and an optional delimiter: "
			      "join(args->argv), join(args->argv, \",\")");
	if (!err)
		err = ck_int(c, call->kids[0], "join()'s array");
	if (!err && call->nr_kids == 2 && call->kids[1]->kind != ST_EXPR_STR)
		return ck_err(c, call->kids[1]->pos, "join()'s delimiter must be a string literal");
	return err;
}
