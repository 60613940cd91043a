// SPDX-License-Identifier: MIT
/*
 * Code for state and control flow: map keys, plain-value maps read and
 * written, variables, if/else and ?: (forward jumps), casts, str().
 */
#include <errno.h>
#include <string.h>

#include "compile/codegen.h"

int cg_tmp_str(struct cctx *c, struct st_pos pos)
{
	if (c->nr_tmp >= ST_MAX_TMPSTR) {
		st_diag_set(
			c->diag, c->prog->filename, pos,
			"more than %d strings made by str(s, n) or read from maps in one clause",
			ST_MAX_TMPSTR);
		return -EINVAL;
	}
	return ST_STR_REF_TMP + c->nr_tmp++;
}

/* Does e read a map? Its code would then build a key of its own. */
static bool reads_map(const struct st_expr *e)
{
	uint32_t i;

	if (e->kind == ST_EXPR_MAP && e->map_read)
		return true;
	for (i = 0; i < e->nr_kids; i++)
		if (reads_map(e->kids[i]))
			return true;
	return false;
}

bool cg_reads_map(const struct st_expr *value, struct st_expr *const *keys, uint32_t nr_keys)
{
	uint32_t k;

	if (value && reads_map(value))
		return true;
	for (k = 0; k < nr_keys; k++)
		if (reads_map(keys[k]))
			return true;
	return false;
}

/*
 * The probe as a key: the first probe of its name, so that probes named
 * alike (a function's inlined copies, an event each) count under one key.
 */
static uint32_t probe_key(const struct cctx *c)
{
	uint32_t i;

	for (i = 0; i < c->probe_idx; i++)
		if (!strcmp(c->out->probes[i].name, c->probe->name))
			return i;
	return c->probe_idx;
}

/* The probe's key: its own index, read in BPF (the specialized programs know it), or another's. */
static int probe_key_value(struct cctx *c, const struct st_expr *key)
{
	uint32_t k = probe_key(c);

	if (k == c->probe_idx)
		return cg_emit(c, key->pos, ST_I_BUILTIN, ST_BI_PROBE, 0);
	return cg_emit(c, key->pos, ST_I_CONST, 0, k);
}

/*
 * The value of key part k of map m: the probe's index for
 * ST_KPART_PROBE; the address, then the process's id, for ST_KPART_USYM.
 */
static int key_value(struct cctx *c, const struct st_kpart *part, const struct st_expr *key)
{
	int err;

	if (part->kind == ST_KPART_PROBE)
		return probe_key_value(c, key);
	err = cg_expr(c, key);
	if (!err && part->kind == ST_KPART_USYM)
		err = cg_emit(c, key->pos, ST_I_BUILTIN, ST_BI_PID, 0);
	return err;
}

/* Stores what key_value() pushed, the last value first. */
static int key_store(struct cctx *c, const struct st_kpart *part, const struct st_expr *key)
{
	int err = 0;

	if (part->kind == ST_KPART_USYM)
		err = cg_emit(c, key->pos, ST_I_KEY_INT, 0, part->off + ST_KPART_USYM_PID);
	if (!err)
		err = cg_emit(c, key->pos,
			      part->kind == ST_KPART_STR || part->kind == ST_KPART_BUF
				      ? ST_I_KEY_STR
				      : ST_I_KEY_INT,
			      0, part->off);
	return err;
}

/*
 * The key of map m into the machine's key buffer. Interleaved (a part
 * computed, stored, the next...) unless a part reads a map, whose own key
 * would overwrite the parts stored: then every part is computed first
 * and they are stored last to first.
 */
int cg_keys(struct cctx *c, int m, struct st_expr *const *keys, uint32_t nr_keys, bool stacked)
{
	const struct st_map_layout *lay;
	uint32_t k;
	int err = 0;

	if (m < 0 || (uint32_t)m >= c->out->nr_maps)
		return cg_fail(c, nr_keys ? keys[0]->pos : (struct st_pos){0},
			       "internal error: map not resolved");
	lay = &c->out->layouts[m];
	if (nr_keys > lay->nr_parts)
		nr_keys = lay->nr_parts;
	for (k = 0; !err && k < nr_keys; k++) {
		err = key_value(c, &lay->parts[k], keys[k]);
		if (!err && !stacked)
			err = key_store(c, &lay->parts[k], keys[k]);
	}
	for (k = nr_keys; !err && stacked && k-- > 0;)
		err = key_store(c, &lay->parts[k], keys[k]);
	return err;
}

int cg_map_read(struct cctx *c, const struct st_expr *e)
{
	int err, ref = 0;

	if (c->out->maps[e->map_id].kind != ST_K_VALUE)
		return cg_fail(c, e->pos, "internal error: an aggregation read per event");
	if (st_vt_slot(e->vtype)) {
		ref = cg_tmp_str(c, e->pos);
		if (ref < 0)
			return ref;
	}
	err = cg_keys(c, e->map_id, e->kids, e->nr_kids, true);
	return err ?: cg_emit(c, e->pos, ST_I_MAP_GET, e->map_id, ref)
			     ?: cg_check(c, e->pos, ST_H_MAP_LOOKUP);
}

/* Code of a jump whose target is patched later: its index. */
static int jump(struct cctx *c, struct st_pos pos, uint8_t op, uint32_t *at)
{
	*at = c->probe->cfg.nr_insns;
	return cg_emit(c, pos, op, 0, 0);
}

static void land(struct cctx *c, uint32_t at)
{
	c->probe->cfg.insns[at].imm = c->probe->cfg.nr_insns;
}

int cg_ternary(struct cctx *c, const struct st_expr *e)
{
	uint32_t to_b, to_end;
	int err;

	err = cg_expr(c, e->kids[0]);
	if (!err)
		err = jump(c, e->pos, ST_I_JZ, &to_b);
	if (!err)
		err = cg_expr(c, e->kids[1]);
	if (!err)
		err = jump(c, e->pos, ST_I_JUMP, &to_end);
	if (err)
		return err;
	/* One of the two values is pushed. */
	c->depth--;
	land(c, to_b);
	err = cg_expr(c, e->kids[2]);
	land(c, to_end);
	return err;
}

int cg_loop_jump(struct cctx *c, const struct st_stmt *st)
{
	uint32_t at = c->probe->cfg.nr_insns;
	int err;

	if (!c->in_loop)
		return cg_fail(c, st->pos, "internal error: break or continue outside a loop");
	if (st->kind == ST_STMT_CONTINUE)
		return cg_emit(c, st->pos, ST_I_JUMP, 0, c->loop_top);
	err = cg_emit(c, st->pos, ST_I_JUMP, 0, c->breaks);
	if (!err)
		c->breaks = at;
	return err;
}

/* A while loop's breaks, chained by cg_loop_jump(), sent where the loop ends. */
static void land_breaks(struct cctx *c)
{
	int64_t at, next;

	for (at = c->breaks; at >= 0; at = next) {
		next = c->probe->cfg.insns[at].imm;
		c->probe->cfg.insns[at].imm = c->probe->cfg.nr_insns;
	}
}

int cg_if(struct cctx *c, const struct st_stmt *st)
{
	uint32_t to_else, to_end = 0, top = c->probe->cfg.nr_insns, outer_top = c->loop_top;
	int64_t outer_breaks = c->breaks;
	bool outer_in = c->in_loop;
	int err;

	/* A block that always runs (the checker's, of a whole value's leaves): no test. */
	if (st->value->kind == ST_EXPR_INT && st->value->uval && !st->loop && !st->nr_els)
		return cg_stmts(c, st->then, st->nr_then);
	err = cg_expr(c, st->value);
	if (!err)
		err = jump(c, st->pos, ST_I_JZ, &to_else);
	if (st->loop) {
		c->in_loop = true;
		c->loop_top = top;
		c->breaks = -1;
	}
	if (!err)
		err = cg_stmts(c, st->then, st->nr_then);
	/* while: back to the condition; the machine's step budget bounds the rounds. */
	if (!err && st->loop)
		err = cg_emit(c, st->pos, ST_I_JUMP, 0, top);
	if (!err && st->nr_els)
		err = jump(c, st->pos, ST_I_JUMP, &to_end);
	if (err)
		return err;
	land(c, to_else);
	if (st->loop) {
		land_breaks(c);
		c->in_loop = outer_in;
		c->loop_top = outer_top;
		c->breaks = outer_breaks;
	}
	if (!st->nr_els)
		return 0;
	err = cg_stmts(c, st->els, st->nr_els);
	land(c, to_end);
	return err;
}

/* (uintN)v keeps the low N bits; (intN)v also extends their sign; (T *)v is v. */
int cg_cast(struct cctx *c, const struct st_expr *e)
{
	int shift = 64 - e->cast.bits, err;

	err = cg_expr(c, e->kids[0]);
	/* A pointer keeps every bit. */
	if (err || !shift || e->ctype)
		return err;
	if (!e->cast.is_signed)
		return cg_emit(c, e->pos, ST_I_CONST, 0, (int64_t)((1ULL << e->cast.bits) - 1))
			       ?: cg_emit(c, e->pos, ST_I_BINARY, ST_B_AND, 0);
	return cg_emit(c, e->pos, ST_I_CONST, 0, shift) ?:
		       cg_emit(c, e->pos, ST_I_BINARY, ST_B_SHL, 0) ?:
		       cg_emit(c, e->pos, ST_I_CONST, 0, shift) ?:
		       cg_emit(c, e->pos, ST_I_BINARY, ST_B_SAR, 0);
}

int cg_str(struct cctx *c, const struct st_expr *e)
{
	uint32_t mask;
	int64_t imm;
	int err, ref;

	/* str(address): the string there (a field of a usdt: probe is a load instead). */
	if (e->kids[0]->vtype != ST_VT_STR)
		return cg_str_at(c, e);
	err = cg_expr(c, e->kids[0]);
	if (err || e->nr_kids < 2)
		return err;
	err = cg_str_len(c, e->kids[1], &imm, &mask);
	if (err)
		return err;
	ref = cg_tmp_str(c, e->pos);
	if (ref < 0)
		return ref;
	return cg_emit(c, e->pos, ST_I_STRN, ref, imm) ?: cg_read_flags(c, mask);
}

/* The operator of "x op= v" on x of type t. */
static int compound_op(enum st_op op, enum st_vtype t, enum st_vtype v)
{
	bool uns = t != ST_VT_INT && v != ST_VT_INT;

	return st_binop_for(op, t, v, uns ? ST_VT_UINT : ST_VT_INT);
}

/* $v op= value: the variable's value, the value, the operator. */
static int assign_var(struct cctx *c, const struct st_stmt *st)
{
	int err = 0, op;

	if (st->op != ST_OP_NONE)
		err = cg_emit(c, st->pos, ST_I_VAR_GET, st->var_id, 0);
	if (!err)
		err = cg_expr(c, st->value);
	if (!err && st->op != ST_OP_NONE) {
		op = compound_op(st->op, c->clause->var_types[st->var_id], st->value->vtype);
		err = cg_emit(c, st->pos, ST_I_BINARY, op, 0);
	}
	return err ? err : cg_emit(c, st->pos, ST_I_VAR_SET, st->var_id, 0);
}

/*
 * @m[k] = v stores; += and -= (++, --) add atomically; another operator
 * reads, computes and stores, as bpftrace does.
 */
static int assign_map(struct cctx *c, const struct st_stmt *st)
{
	enum st_vtype t = c->prog->maps[st->map_id].value_type;
	bool stacked = cg_reads_map(st->value, st->keys, st->nr_keys);
	int err = 0;

	if (st->op == ST_OP_ADD || st->op == ST_OP_SUB) {
		err = cg_expr(c, st->value);
		if (!err && st->op == ST_OP_SUB)
			err = cg_emit(c, st->pos, ST_I_UNARY, ST_U_NEG, 0);
		err = err ?: cg_keys(c, st->map_id, st->keys, st->nr_keys, stacked);
		return err ?: cg_emit(c, st->pos, ST_I_MAP_ADD, st->map_id, 0);
	}
	if (st->op != ST_OP_NONE) {
		err = cg_keys(c, st->map_id, st->keys, st->nr_keys, true)
			      ?: cg_emit(c, st->pos, ST_I_MAP_GET, st->map_id, 0);
		stacked = true;
	}
	err = err ?: cg_expr(c, st->value);
	if (!err && st->op != ST_OP_NONE)
		err = cg_emit(c, st->pos, ST_I_BINARY, compound_op(st->op, t, st->value->vtype), 0);
	err = err ?: cg_keys(c, st->map_id, st->keys, st->nr_keys, stacked);
	return err ?: cg_emit(c, st->pos, ST_I_MAP_SET, st->map_id, 0)
			     ?: cg_check(c, st->pos, ST_H_MAP_UPDATE);
}

int cg_assign(struct cctx *c, const struct st_stmt *st)
{
	return st->var ? assign_var(c, st) : assign_map(c, st);
}

int cg_delete(struct cctx *c, const struct st_expr *call)
{
	const struct st_expr *ref = call->kids[0];
	int err;

	err = cg_keys(c, ref->map_id, ref->kids, ref->nr_kids,
		      cg_reads_map(NULL, ref->kids, ref->nr_kids));
	return err ?: cg_emit(c, call->pos, ST_I_MAP_DEL, ref->map_id, 0)
			     ?: cg_check(c, call->pos, ST_H_MAP_DELETE);
}
