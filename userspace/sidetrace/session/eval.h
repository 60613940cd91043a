/* SPDX-License-Identifier: MIT */
/*
 * Expressions of BEGIN, END and interval clauses, computed in user space
 * with the operators the stack machine uses (st_binary() in
 * bpf/sidetrace_arith.h): literals, the builtins and functions whose rows
 * give sidetrace a code (parse/builtins.c, parse/functions.c), operators,
 * variables, ?:, casts and map elements read from the kernel's maps.
 */
#ifndef SIDETRACE_SESSION_EVAL_H
#define SIDETRACE_SESSION_EVAL_H

#include "compile/compile.h"
#include "parse/ast.h"
#include "output/maps_print.h"
#include "tracer/tracer.h"

/* A value and the room its string needs. */
struct st_eval_val {
	struct st_key_val v;
	char str[ST_STR_LEN];
};

/* What a clause's expressions see: its probe, the maps, its variables. */
struct st_eval_ctx {
	const char *probe; /* "BEGIN", "interval:s:1" */
	const struct st_compiled *compiled;
	const struct st_tracer *tracer; /* NULL: maps read as empty */
	struct st_eval_val vars[ST_MAX_VARS];
	/* -k: what says that helper h failed at pos, returning ret (NULL: nothing) */
	void (*helper_failed)(void *ctx, struct st_pos pos, enum st_helper h, int64_t ret);
	void *helper_ctx;
};

/* -k: helper h failed at pos, returning ret: said when the level reports h. */
void st_eval_helper_failed(const struct st_eval_ctx *x, struct st_pos pos, enum st_helper h,
			   int64_t ret);

/*
 * Evaluates e. Returns 0, -EINVAL for what user space cannot compute
 * (fields), or a negative errno of a map read.
 */
int st_eval(struct st_eval_ctx *x, const struct st_expr *e, struct st_eval_val *out);

/* Evaluates nr key expressions into keys (strings kept in vals). */
int st_eval_keys(struct st_eval_ctx *x, struct st_expr *const *exprs, uint32_t nr,
		 struct st_eval_val *vals, struct st_key_val *keys);

#endif /* SIDETRACE_SESSION_EVAL_H */
