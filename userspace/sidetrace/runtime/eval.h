/* SPDX-License-Identifier: MIT */
/*
 * Expressions of BEGIN, END and interval clauses, computed in user space
 * with the operators the stack machine uses (st_binary() in
 * bpf/sidetrace_arith.h): literals, builtins of the collector itself
 * (pid, tid, comm, nsecs, cpu, uid, probe) and operators.
 */
#ifndef SIDETRACE_RUNTIME_EVAL_H
#define SIDETRACE_RUNTIME_EVAL_H

#include "lang/ast.h"
#include "output/maps_print.h"

/* A value and the room its string needs. */
struct st_eval_val {
	struct st_key_val v;
	char str[ST_STR_LEN];
};

/*
 * Evaluates e of a clause attached at probe ("BEGIN", "interval:s:1").
 * Returns 0, or -EINVAL for what user space cannot compute (fields).
 */
int st_eval(const struct st_expr *e, const char *probe, struct st_eval_val *out);

#endif /* SIDETRACE_RUNTIME_EVAL_H */
