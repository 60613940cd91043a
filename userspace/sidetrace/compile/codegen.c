// SPDX-License-Identifier: MIT
/*
 * Stack-machine code of one clause for one event: filter, keys, aggregation
 * (the instructions of bpf/sidetrace.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "compile/codegen.h"

int cg_fail(struct cctx *c, struct st_pos pos, const char *msg)
{
	st_diag_set(c->diag, c->prog->filename, pos, "%s", msg);
	return -EINVAL;
}

int cg_emit(struct cctx *c, struct st_pos pos, uint8_t op, uint8_t a, int64_t imm)
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
	case ST_I_VAR_GET:
	case ST_I_MAP_GET:
		pushes = 1;
		break;
	case ST_I_JZ:
	case ST_I_VAR_SET:
	case ST_I_MAP_SET:
	case ST_I_MAP_ADD:
	case ST_I_FILTER:
	case ST_I_BINARY:
	case ST_I_STREQ:
	case ST_I_STRNE:
	case ST_I_STRSTR:
	case ST_I_KEY_INT:
	case ST_I_KEY_STR:
	case ST_I_AGG:
	case ST_I_OUT_INT:
	case ST_I_OUT_STR:
	case ST_I_OUT_JOIN:
	case ST_I_SIGNAL:
	case ST_I_READ_BUF:
		pushes = -1;
		break;
	default:
		pushes = 0;
		break;
	}
	c->depth += pushes;
	if (pushes > 0 && c->depth > ST_STACK_DEPTH) {
		st_diag_set(c->diag, c->prog->filename, pos,
			    "expression too deeply nested for the BPF machine: its stack holds %d "
			    "values",
			    ST_STACK_DEPTH);
		return -EINVAL;
	}
	in = &cfg->insns[cfg->nr_insns++];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->a = a;
	in->imm = imm;
	return 0;
}

int cg_read_flags(struct cctx *c, uint32_t mask)
{
	c->probe->cfg.insns[c->probe->cfg.nr_insns - 1].mask = mask;
	return 0;
}

/*
 * A string literal of the probe, or a constant buffer's slot (buf: all
 * ST_STR_LEN bytes); returns its reference or -EINVAL.
 */
static int str_const(struct cctx *c, const char *s, bool buf, struct st_pos pos)
{
	struct st_probe_cfg *cfg = &c->probe->cfg;
	uint32_t i;

	for (i = 0; buf && i < c->probe->nr_strs; i++)
		if (!memcmp(cfg->strs[i], s, ST_STR_LEN))
			return ST_STR_REF_CONST + i;
	if (buf && i < ST_MAX_STRCONST) {
		memcpy(cfg->strs[i], s, ST_STR_LEN);
		c->probe->nr_strs++;
		return ST_STR_REF_CONST + i;
	}
	if (!buf && strlen(s) >= ST_STR_LEN) {
		st_diag_set(c->diag, c->prog->filename, pos,
			    "string longer than %d bytes: the kernel compares at most that many",
			    ST_STR_LEN - 1);
		return -EINVAL;
	}
	for (i = 0; !buf && i < c->probe->nr_strs; i++)
		if (!strcmp(cfg->strs[i], s))
			return ST_STR_REF_CONST + i;
	if (!buf && i < ST_MAX_STRCONST) {
		/* Slots are zeroed: the copy is NUL-padded as the kernel needs. */
		strcpy(cfg->strs[i], s);
		c->probe->nr_strs++;
		return ST_STR_REF_CONST + i;
	}
	st_diag_set(c->diag, c->prog->filename, pos, "more than %d distinct string literals for %s",
		    ST_MAX_STRCONST, c->probe->name);
	return -EINVAL;
}

static bool is_unsigned(enum st_vtype t)
{
	return t == ST_VT_UINT || t == ST_VT_BOOL;
}

int st_unop_of(enum st_op op)
{
	switch (op) {
	case ST_OP_NEG:
		return ST_U_NEG;
	case ST_OP_NOT:
		return ST_U_LNOT;
	case ST_OP_BNOT:
		return ST_U_BNOT;
	default:
		return -1;
	}
}

int st_binop_of(const struct st_expr *e)
{
	return st_binop_for(e->op, e->kids[0]->vtype, e->kids[1]->vtype, e->vtype);
}

int st_binop_for(enum st_op op, enum st_vtype l, enum st_vtype r, enum st_vtype res)
{
	/* Compared as C compares them, as bpftrace does: unsigned when either side is. */
	bool uns = is_unsigned(l) || is_unsigned(r);

	switch (op) {
	case ST_OP_MUL:
		return ST_B_MUL;
	case ST_OP_DIV:
		return res == ST_VT_UINT ? ST_B_UDIV : ST_B_DIV;
	case ST_OP_MOD:
		return res == ST_VT_UINT ? ST_B_UMOD : ST_B_MOD;
	case ST_OP_ADD:
		return ST_B_ADD;
	case ST_OP_SUB:
		return ST_B_SUB;
	case ST_OP_SHL:
		return ST_B_SHL;
	case ST_OP_SHR:
		return is_unsigned(l) ? ST_B_SHR : ST_B_SAR;
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

/* A builtin, as its row says the machine computes it. */
static int cg_builtin(struct cctx *c, const struct st_expr *e)
{
	const struct st_builtin_row *b = st_builtin(e->builtin);
	char name[ST_STR_LEN];
	int ref;

	c->probe->cfg.stacks |= b->stacks;
	/* A pointer into the kernel: no process's engine has it. */
	if (b->ctype)
		c->probe->reads_kernel = true;
	switch (b->bpf) {
	case ST_BC_HELPER:
		return cg_emit(c, e->pos, ST_I_BUILTIN, b->helper, 0);
	case ST_BC_COMM:
		return cg_emit(c, e->pos, ST_I_STR, ST_STR_REF_COMM, 0);
	case ST_BC_PROBE:
		/* As a value the probe is known here: its name. */
		ref = str_const(c, c->probe->name, false, e->pos);
		if (ref < 0)
			return ref;
		return cg_emit(c, e->pos, ST_I_STR, ref, 0);
	case ST_BC_LOGLEVEL:
		return cg_emit(c, e->pos, ST_I_CONST, 0, c->probe->event->loglevel);
	case ST_BC_CPID:
		return cg_emit(c, e->pos, ST_I_CONST, 0, c->prog->cpid);
	case ST_BC_ELAPSED:
		return cg_emit(c, e->pos, ST_I_BUILTIN, ST_BI_NSECS, 0) ?:
			       cg_emit(c, e->pos, ST_I_CONST, 0, c->out->start_ns) ?:
			       cg_emit(c, e->pos, ST_I_BINARY, ST_B_SUB, 0);
	case ST_BC_FUNC:
		/*
		 * The checker kept func in function probes: its name, an offset
		 * cut off, and cut to a kernel string's length as any string.
		 */
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(c->probe->event->name, "+"),
			 c->probe->event->name);
		ref = str_const(c, name, false, e->pos);
		if (ref < 0)
			return ref;
		return cg_emit(c, e->pos, ST_I_STR, ref, 0);
	case ST_BC_NONE:
	case ST_BC_TASK: /* sidetrace's own clauses' only */
		break;
	}
	return cg_fail(c, e->pos, "unknown builtin");
}

/* A function's value, as its row says the machine computes it. */
static int cg_call(struct cctx *c, const struct st_expr *e)
{
	const struct st_func_row *f = st_func(e->func);

	c->probe->cfg.stacks |= f->stacks;
	switch (f->bpf) {
	case ST_FC_STR:
		return cg_str(c, e);
	case ST_FC_BUF:
		return cg_buf(c, e);
	case ST_FC_ADDR:
		/* The key part's kind says to name it (layout.c). */
		return cg_expr(c, e->kids[e->nr_kids - 1]);
	case ST_FC_KEPT_ARG:
		if (!e->uval)
			return cg_expr(c, st_kept_arg_value(e));
		return cg_expr(c, st_kept_arg_value(e))
			       ?: cg_emit(c, e->pos, ST_I_CONST, 0, (int64_t)ST_KEPT_VALUE_MASK)
			       ?: cg_emit(c, e->pos, ST_I_BINARY, ST_B_AND, 0)
			       ?: cg_emit(c, e->pos, ST_I_CONST, 0,
					  (int64_t)st_kept_with_arg(0, (unsigned int)e->uval))
			       ?: cg_emit(c, e->pos, ST_I_BINARY, ST_B_OR, 0);
	case ST_FC_BSWAP:
		return cg_expr(c, e->kids[0])
			       ?: (st_bswap_unop(e->uval) < 0 ? 0
							      : cg_emit(c, e->pos, ST_I_UNARY,
									st_bswap_unop(e->uval), 0));
	case ST_FC_REG:
	case ST_FC_UADDR:
		return cg_regs(c, e);
	case ST_FC_DPATH:
		return cg_emit(c, e->pos, ST_I_STR, ST_STR_REF_DPATH, 0);
	case ST_FC_STRCONTAINS:
		return cg_expr(c, e->kids[0]) ?: cg_expr(c, e->kids[1])
						   ?: cg_emit(c, e->pos, ST_I_STRSTR, 0, 0);
	case ST_FC_NONE:
		return cg_fail(c, e->pos, f->no_bpf);
	default:
		return cg_fail(c, e->pos, "not a value the kernel can compute");
	}
}

int cg_expr(struct cctx *c, const struct st_expr *e)
{
	int err, ref, op;

	switch (e->kind) {
	case ST_EXPR_INT:
		return cg_emit(c, e->pos, ST_I_CONST, 0, (int64_t)e->uval);
	case ST_EXPR_STR:
		ref = str_const(c, e->str, e->vtype == ST_VT_BUF, e->pos);
		if (ref < 0)
			return ref;
		return cg_emit(c, e->pos, ST_I_STR, ref, 0);
	case ST_EXPR_BUILTIN:
		return cg_builtin(c, e);
	case ST_EXPR_FIELD:
		ref = cg_add_load(c, e);
		if (ref < 0)
			return ref;
		return cg_emit(c, e->pos, e->vtype == ST_VT_STR ? ST_I_STR : ST_I_FIELD, ref, 0);
	case ST_EXPR_UNARY:
		/* A negative literal is a constant: the specialized programs compare with one. */
		if (e->op == ST_OP_NEG && e->kids[0]->kind == ST_EXPR_INT)
			return cg_emit(c, e->pos, ST_I_CONST, 0, (int64_t)-e->kids[0]->uval);
		err = cg_expr(c, e->kids[0]);
		if (err)
			return err;
		op = st_unop_of(e->op);
		if (op < 0)
			return cg_fail(c, e->pos, "unknown unary operator");
		return cg_emit(c, e->pos, ST_I_UNARY, op, 0);
	case ST_EXPR_BINARY:
		err = cg_expr(c, e->kids[0]);
		if (!err)
			err = cg_expr(c, e->kids[1]);
		if (err)
			return err;
		if (st_vt_slot(e->kids[0]->vtype) || st_vt_slot(e->kids[1]->vtype)) {
			if (e->op == ST_OP_EQ)
				return cg_emit(c, e->pos, ST_I_STREQ, 0, 0);
			if (e->op == ST_OP_NE)
				return cg_emit(c, e->pos, ST_I_STRNE, 0, 0);
			return cg_fail(c, e->pos, "strings can only be compared with == and !=");
		}
		op = st_binop_of(e);
		if (op < 0)
			return cg_fail(c, e->pos, "unknown binary operator");
		return cg_emit(c, e->pos, ST_I_BINARY, op, 0);
	case ST_EXPR_MAP:
		return cg_map_read(c, e);
	case ST_EXPR_VAR:
		return cg_emit(c, e->pos, ST_I_VAR_GET, e->var_id, 0);
	case ST_EXPR_TERNARY:
		return cg_ternary(c, e);
	case ST_EXPR_CAST:
		return cg_cast(c, e);
	case ST_EXPR_CALL:
		return cg_call(c, e);
	case ST_EXPR_MEMBER:
	case ST_EXPR_INDEX:
	case ST_EXPR_DEREF:
		return cg_mem_read(c, e);
	case ST_EXPR_ARGS:
	case ST_EXPR_TUPLE: /* the checker kept it leaf by leaf */
	case ST_EXPR_INCR: /* the checker made it statements */
	case ST_EXPR_IDENT: /* the checker made it a constant */
		break;
	}
	return cg_fail(c, e->pos, "not a value the kernel can compute");
}

/* debugf(): its values, then the format, a literal of the probe (ST_I_DEBUGF). */
static int cg_debugf(struct cctx *c, const struct st_stmt *st)
{
	const struct st_expr *call = st->call;
	uint32_t i, n = call->nr_kids - 1, strs = 0;
	int err = 0, fmt;

	for (i = 0; i < n && !err; i++) {
		err = cg_expr(c, call->kids[i + 1]);
		if (st_vt_slot(call->kids[i + 1]->vtype))
			strs |= 1U << i;
	}
	fmt = err ? err : str_const(c, call->kids[0]->str, false, call->kids[0]->pos);
	if (fmt < 0)
		return fmt;
	err = cg_emit(c, st->pos, ST_I_DEBUGF, fmt, n);
	if (err)
		return err;
	c->probe->cfg.insns[c->probe->cfg.nr_insns - 1].mask = strs;
	c->depth -= n;
	return 0;
}

static int call_stmt(struct cctx *c, const struct st_stmt *st)
{
	const struct st_expr *call = st->call;

	switch (st_func(call->func)->bpf) {
	case ST_FC_EXIT:
		return cg_emit(c, st->pos, ST_I_EXIT, 0, 0);
	case ST_FC_PRINTF:
		return cg_printf(c, st);
	case ST_FC_JOIN:
		return cg_join(c, st);
	case ST_FC_SYSTEM:
	case ST_FC_CAT:
		/* A printf record: the collector runs or reads its text (output/record_calls.c). */
		c->probe->acts = true;
		return cg_printf(c, st) ?: cg_wake(c);
	case ST_FC_UNWATCH:
		/* A printf record: the collector removes the breakpoints (bpfload/watch.h). */
		c->probe->acts = true;
		return cg_printf(c, st) ?: cg_wake(c);
	case ST_FC_SIGNAL:
		return cg_expr(c, call->kids[0]) ?: cg_emit(c, st->pos, ST_I_SIGNAL, 0, 0);
	case ST_FC_DEBUGF:
		return cg_debugf(c, st);
	case ST_FC_DELETE:
		return cg_delete(c, call);
	case ST_FC_PRINT:
		if (call->kids[0]->kind == ST_EXPR_ARGS)
			return cg_print_event(c, st);
		/* print(value) prints as the printf the checker made for it. */
		if (call->fmt)
			return cg_printf(c, st);
		return cg_map_action(c, st);
	case ST_FC_CLEAR:
	case ST_FC_ZERO:
		return cg_map_action(c, st);
	default:
		break;
	}
	st_diag_set(c->diag, c->prog->filename, st->pos, "%s() %s", st_func_name(call->func),
		    st_func(call->func)->no_bpf);
	return -EINVAL;
}

/*
 * @m[keys] = agg(value): the key, then the value (count() has 0), then
 * the aggregation; the value first when some part reads a map (cg_keys).
 */
static int agg_stmt(struct cctx *c, const struct st_stmt *st)
{
	const struct st_expr *call = st->call, *value = call->nr_kids ? call->kids[0] : NULL;
	bool stacked = cg_reads_map(value, st->keys, st->nr_keys);
	int err = 0;

	if (!stacked)
		err = cg_keys(c, st->map_id, st->keys, st->nr_keys, false);
	if (err)
		return err;
	if (!st_func(call->func)->max_args)
		err = cg_emit(c, call->pos, ST_I_CONST, 0, 0);
	else if (value)
		err = cg_expr(c, value);
	else
		err = cg_fail(c, call->pos, "internal error: aggregation without value");
	if (!err && stacked)
		err = cg_keys(c, st->map_id, st->keys, st->nr_keys, true);
	return err ?: cg_emit(c, st->pos, ST_I_AGG, st->map_id, 0);
}

int cg_stmts(struct cctx *c, const struct st_stmt *stmts, uint32_t nr)
{
	uint32_t i;
	int err = 0;

	for (i = 0; !err && i < nr; i++) {
		switch (stmts[i].kind) {
		case ST_STMT_AGG:
			err = agg_stmt(c, &stmts[i]);
			break;
		case ST_STMT_ASSIGN:
			err = cg_assign(c, &stmts[i]);
			break;
		case ST_STMT_IF:
			err = cg_if(c, &stmts[i]);
			break;
		case ST_STMT_BREAK:
		case ST_STMT_CONTINUE:
			err = cg_loop_jump(c, &stmts[i]);
			break;
		case ST_STMT_RETURN:
			/* A false filter: the clause ends here, what it sent is sent. */
			err = cg_emit(c, stmts[i].pos, ST_I_CONST, 0, 0)
				      ?: cg_emit(c, stmts[i].pos, ST_I_FILTER, 0, 0);
			break;
		default:
			err = call_stmt(c, &stmts[i]);
			break;
		}
	}
	return err;
}

int cg_clause(struct cctx *c, const struct st_clause *cl)
{
	struct st_probe_cfg *cfg = &c->probe->cfg;
	uint32_t start = cfg->nr_insns, i;
	int err;

	c->depth = 0;
	c->clause = cl;
	c->nr_tmp = 0;
	err = cg_emit(c, cl->pos, ST_I_CLAUSE, 0, 0);
	if (!err && cl->filter) {
		err = cg_expr(c, cl->filter);
		if (!err)
			err = cg_emit(c, cl->filter->pos, ST_I_FILTER, 0, 0);
	}
	if (!err)
		err = cg_stmts(c, cl->stmts, cl->nr_stmts);
	if (err)
		return err;
	cfg->insns[start].imm = cfg->nr_insns;
	for (i = start; i < cfg->nr_insns; i++) {
		const struct st_insn *in = &cfg->insns[i];

		if ((in->op == ST_I_FIELD || in->op == ST_I_STR || in->op == ST_I_OUT_LOAD) &&
		    in->a < ST_MAX_LOADS)
			cfg->insns[start].mask |= 1U << in->a;
	}
	return 0;
}
