// SPDX-License-Identifier: MIT
/*
 * Code for C values: a member, element or pointee read at the address
 * its pointer and offsets make (ST_I_READ, ST_I_READ_STR), a bit field
 * cut out of its bytes, str() of an address, buf()'s bytes. (Pointer arithmetic in
 * elements is the checker's: n becomes n * size.)
 */
#include <errno.h>

#include "compile/codegen.h"

/* Whether memory m is the kernel's in the event being compiled. */
static bool kernel_mem(struct cctx *c, enum st_mem m)
{
	bool k = m == ST_MEM_KERNEL ||
		 (m == ST_MEM_PROBE && st_event_kind(c->probe->event)->in_kernel);

	/* A process's engine reads no kernel memory: such a probe stays the kernel's. */
	if (k)
		c->probe->reads_kernel = true;
	return k;
}

static int add_const(struct cctx *c, struct st_pos pos, int64_t v)
{
	if (!v)
		return 0;
	return cg_emit(c, pos, ST_I_CONST, 0, v) ?: cg_emit(c, pos, ST_I_BINARY, ST_B_ADD, 0);
}

static int mul_const(struct cctx *c, struct st_pos pos, int64_t v)
{
	if (v == 1)
		return 0;
	return cg_emit(c, pos, ST_I_CONST, 0, v) ?: cg_emit(c, pos, ST_I_BINARY, ST_B_MUL, 0);
}

/* The bytes an element of pointer or array t takes; a void pointer's 1, as GNU C counts. */
static uint32_t elem_size(const struct cctx *c, struct st_ctype *t)
{
	struct st_ctype *e = st_ctype_ref(c->prog->ctypes, t);

	return e && e->size ? e->size : 1;
}

/* The code that leaves the address of what e (a member, element or pointee) reads. */
static int cg_addr(struct cctx *c, const struct st_expr *e)
{
	const struct st_expr *x = e->kids[0];
	bool at_ptr = x->ctype && x->ctype->kind == ST_CT_PTR;
	int err;

	/* A pointer's value is the address; a struct's or an array's is where it is. */
	if (e->kind == ST_EXPR_DEREF || at_ptr)
		err = cg_expr(c, x);
	else
		err = cg_addr(c, x);
	if (err || e->kind == ST_EXPR_DEREF)
		return err;
	if (e->kind == ST_EXPR_MEMBER)
		return add_const(c, e->pos, e->bit_off / 8);
	if (e->kids[1]->kind == ST_EXPR_INT)
		return add_const(c, e->pos, (int64_t)e->kids[1]->uval * elem_size(c, x->ctype));
	return cg_expr(c, e->kids[1]) ?: mul_const(c, e->pos, elem_size(c, x->ctype)) ?:
						 cg_emit(c, e->pos, ST_I_BINARY, ST_B_ADD, 0);
}

/* -kk: the helper that reads the kernel's memory, or the process's. */
static enum st_helper read_helper(bool kernel, bool str)
{
	return st_read_helper(kernel ? ST_SPACE_KERNEL : ST_SPACE_USER, str);
}

/* Bit field e: its bits of the bytes read, shifted down; unsigned, as bpftrace reads every one. */
static int cut_bits(struct cctx *c, const struct st_expr *e, uint32_t shift)
{
	uint32_t left = 64 - e->bit_size;
	int err;

	err = shift ? cg_emit(c, e->pos, ST_I_CONST, 0, shift)
			      ?: cg_emit(c, e->pos, ST_I_BINARY, ST_B_SHR, 0)
		    : 0;
	if (err)
		return err;
	return cg_emit(c, e->pos, ST_I_CONST, 0, left) ?:
		       cg_emit(c, e->pos, ST_I_BINARY, ST_B_SHL, 0) ?:
		       cg_emit(c, e->pos, ST_I_CONST, 0, left) ?:
		       cg_emit(c, e->pos, ST_I_BINARY, ST_B_SHR, 0);
}

int cg_mem_read(struct cctx *c, const struct st_expr *e)
{
	bool kernel = kernel_mem(c, e->mem);
	uint32_t size = e->ctype->size, shift = e->bit_off % 8, need;
	int err, ref;

	err = cg_addr(c, e);
	if (err)
		return err;
	if (e->vtype == ST_VT_STR) {
		ref = cg_tmp_str(c, e->pos);
		if (ref < 0)
			return ref;
		/* A char array's bytes, all of them where no NUL ends them: "hello" in char[5]. */
		return cg_emit(c, e->pos, ST_I_READ_STR, ref, size)
			       ?: cg_read_flags(c, ST_READ_ARRAY | (kernel ? ST_READ_KERNEL : 0))
			       ?: cg_check(c, st_expr_start(e), read_helper(kernel, false));
	}
	if (!e->bit_size)
		return cg_emit(c, e->pos, ST_I_READ,
			       size |
				       (e->ctype->is_signed && e->ctype->kind != ST_CT_PTR
						? ST_READ_SIGNED
						: 0) |
				       (kernel ? ST_READ_KERNEL : 0),
			       0)
			       ?: cg_check(c, st_expr_start(e), read_helper(kernel, false));
	/* The fewest whole bytes, a power of 2, that hold the field's bits. */
	need = (shift + e->bit_size + 7) / 8;
	for (size = 1; size < need; size *= 2)
		;
	if (size > 8)
		return cg_fail(c, e->pos, "a bit field across more than 8 bytes");
	return cg_emit(c, e->pos, ST_I_READ, size | (kernel ? ST_READ_KERNEL : 0), 0)
		       ?: cg_check(c, st_expr_start(e), read_helper(kernel, false)) ?: cut_bits(c, e, shift);
}

int cg_str_len(struct cctx *c, const struct st_expr *n, int64_t *imm, uint32_t *mask)
{
	bool computed = n && n->kind != ST_EXPR_INT;

	*imm = !n ? ST_STR_LEN : computed ? 0 : ST_STR_BYTES((int64_t)n->uval);
	*mask = computed ? ST_READ_LEN : 0;
	return computed ? cg_expr(c, n) : 0;
}

int cg_str_at(struct cctx *c, const struct st_expr *e)
{
	const struct st_expr *x = e->kids[0];
	bool kernel = kernel_mem(c, x->ctype ? x->mem : ST_MEM_PROBE);
	uint32_t mask;
	int64_t imm;
	int err, ref;

	err = cg_expr(c, x) ?: cg_str_len(c, e->nr_kids > 1 ? e->kids[1] : NULL, &imm, &mask);
	if (err)
		return err;
	ref = cg_tmp_str(c, e->pos);
	if (ref < 0)
		return ref;
	return cg_emit(c, e->pos, ST_I_READ_STR, ref, imm)
		       ?: cg_read_flags(c, (kernel ? ST_READ_KERNEL : 0) | mask)
		       ?: cg_check(c, st_expr_start(e), read_helper(kernel, true));
}

/*
 * buf(x, len) once checked (check/check_bufs.c): len bytes where array x
 * is, or at address x, into a buffer of the call's kind (uval).
 */
int cg_buf(struct cctx *c, const struct st_expr *e)
{
	const struct st_expr *x = e->kids[0];
	bool array = x->ctype && x->ctype->kind == ST_CT_ARRAY;
	/* A field's bytes are where its type says (a syscall's buffer: the process's). */
	bool field_user = x->kind == ST_EXPR_FIELD && c->ev_idx < x->nr_refs &&
			  !x->refs[c->ev_idx].type->kernel;
	bool kernel = !field_user && kernel_mem(c, x->ctype ? x->mem : ST_MEM_PROBE);
	int err, ref;

	err = array ? cg_addr(c, x) : cg_expr(c, x);
	if (!err)
		err = cg_expr(c, e->kids[1]);
	if (err)
		return err;
	ref = cg_tmp_str(c, e->pos);
	if (ref < 0)
		return ref;
	return cg_emit(c, e->pos, ST_I_READ_BUF, ref, (int64_t)e->uval)
		       ?: cg_read_flags(c, kernel ? ST_READ_KERNEL : 0)
		       ?: cg_check(c, st_expr_start(e), read_helper(kernel, false));
}
