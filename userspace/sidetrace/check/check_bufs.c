// SPDX-License-Identifier: MIT
/*
 * The byte buffers (bpf/sidetrace.h ST_BUF_HDR): buf(), macaddr(), and
 * what ntop() and pton() make of arrays. Once checked, each is a buf()
 * call of its kind (the call's uval), its address and length its two
 * arguments, or a constant the checker computed: an ST_EXPR_STR whose
 * str is the buffer's whole slot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"

/* e, a checked C value, is an array: its bytes are where it is. */
static bool is_array(const struct st_expr *e)
{
	return e->ctype && e->ctype->kind == ST_CT_ARRAY;
}

int ck_bytes_arg(struct checker *c, struct st_expr *x)
{
	/* A member, element or pointee may be a whole array: only its place is wanted. */
	return ck_c_read(c, x, true);
}

bool ck_bytes_of(const struct st_expr *x)
{
	return is_array(x) || (x->kind == ST_EXPR_STR && x->vtype == ST_VT_BUF);
}

int ck_buf_const(struct checker *c, struct st_expr *e, enum st_buf_kind kind, const void *bytes,
		 uint32_t n)
{
	char *slot = calloc(1, ST_STR_LEN);
	uint32_t i;

	if (!slot)
		return ck_oom(c);
	n = n < ST_BUF_MAX ? n : ST_BUF_MAX;
	slot[0] = (char)ST_BUF_HDR(kind, n);
	memcpy(slot + 1, bytes, n);
	for (i = 0; i < e->nr_kids; i++)
		st_expr_free(e->kids[i]);
	free(e->kids);
	free(e->str);
	e->kids = NULL;
	e->nr_kids = 0;
	e->kind = ST_EXPR_STR;
	e->str = slot;
	e->vtype = ST_VT_BUF;
	return 0;
}

/* A buffer's length: a literal, cut to ST_BUF_MAX as bpftrace cuts it to its 64. */
static uint64_t cut_len(uint64_t n)
{
	return n < ST_BUF_MAX ? n : ST_BUF_MAX;
}

/*
 * call, checked arguments (bytes x, and len: a literal, 0 for the
 * array's size, or an expression), made buf(x, len) of kind: the
 * engines read len bytes where x is (an array) or at x (an address).
 */
static int make_read(struct checker *c, struct st_expr *call, struct st_expr *x,
		     struct st_expr *len, enum st_buf_kind kind)
{
	struct st_expr **kids;
	int err = ck_reads_memory(c, call->pos, "reading bytes at an address");

	if (err)
		return err;
	if (!len) {
		len = st_expr_new(ST_EXPR_INT, call->pos);
		if (!len)
			return ck_oom(c);
		len->uval = cut_len(is_array(x) ? x->ctype->size : 0);
		len->vtype = ST_VT_UINT;
	}
	kids = calloc(2, sizeof(*kids));
	if (!kids) {
		if (len != call->kids[call->nr_kids - 1])
			st_expr_free(len);
		return ck_oom(c);
	}
	kids[0] = x;
	kids[1] = len;
	/* ntop(af, a): af was a literal, checked; nothing else is dropped. */
	if (call->nr_kids == 2 && call->kids[0] != x && call->kids[0] != len)
		st_expr_free(call->kids[0]);
	free(call->kids);
	call->kids = kids;
	call->nr_kids = 2;
	call->func = ST_FN_BUF;
	call->uval = kind;
	call->vtype = ST_VT_BUF;
	return 0;
}

int ck_make_buf(struct checker *c, struct st_expr *call, enum st_buf_kind kind, uint32_t n)
{
	struct st_expr *x = call->kids[call->nr_kids - 1];
	int err;

	if (x->kind == ST_EXPR_STR) {
		char bytes[ST_STR_LEN];

		/* A constant's bytes, as many as asked: zeroes past its own, as bpftrace reads. */
		memcpy(bytes, x->str + 1, ST_BUF_MAX);
		return ck_buf_const(c, call, kind, bytes, n ? n : ST_BUF_LEN(x->str[0]));
	}
	if (!n)
		n = x->ctype->size;
	if (kind == ST_BUF_INET && n != 4 && n != 16)
		return ck_err(c, x->pos,
			      "ntop() of %s: an address is 4 bytes (IPv4) or 16 (IPv6), or give "
			      "its family: ntop(AF_INET, addr)",
			      x->ctype->name);
	err = make_read(c, call, x, NULL, kind);
	if (!err)
		call->kids[1]->uval = cut_len(n);
	return err;
}

/* buf("literal", n): its bytes and NULs after them, a constant. */
static int literal_buf(struct checker *c, struct st_expr *call, struct st_expr *s,
		       struct st_expr *len)
{
	char bytes[ST_STR_LEN] = {0};

	if (!len || len->kind != ST_EXPR_INT)
		return ck_err(c, len ? len->pos : call->pos,
			      "buf() of a string literal takes a constant length: buf(\"abc\", 3)");
	memcpy(bytes, s->str, strnlen(s->str, ST_BUF_MAX));
	return ck_buf_const(c, call, ST_BUF_BYTES, bytes, cut_len(len->uval));
}

/*
 * A kernel probe's string field (args->buf of sys_enter_write): its SDT
 * argument is the address of its bytes, a pointer or the record's array,
 * which x then reads as an integer.
 */
static bool field_address(struct st_expr *x)
{
	uint32_t i;

	if (x->kind != ST_EXPR_FIELD || x->vtype != ST_VT_STR || x->nr_path != 1 || !x->nr_refs)
		return false;
	for (i = 0; i < x->nr_refs; i++)
		if (!x->refs[i].event || x->refs[i].nr_idx != 1 ||
		    !st_event_kind(x->refs[i].event)->in_kernel)
			return false;
	x->vtype = ST_VT_UINT;
	x->addr_of = true;
	return true;
}

/*
 * buf(addr, len), buf(array), buf(array, len), buf("literal", len): len
 * bytes, at most ST_BUF_MAX; a length that is no literal is bounded so
 * when the bytes are read.
 */
int ck_buf(struct checker *c, struct st_expr *call)
{
	struct st_expr *x = call->nr_kids ? call->kids[0] : NULL;
	struct st_expr *len = call->nr_kids == 2 ? call->kids[1] : NULL;
	int err;

	if (!x || call->nr_kids > 2)
		return ck_err(c, call->pos,
			      "buf() takes an address and a length, or an array: buf(arg0, 16), "
			      "buf($s->name)");
	err = ck_bytes_arg(c, x) ?: (len ? ck_int(c, len, "buf()'s length") : 0);
	if (err)
		return err;
	if (len && len->kind == ST_EXPR_INT)
		len->uval = cut_len(len->uval);
	if (x->kind == ST_EXPR_STR && x->vtype == ST_VT_STR)
		return literal_buf(c, call, x, len);
	if (len && field_address(x))
		return make_read(c, call, x, len, ST_BUF_BYTES);
	if (x->vtype == ST_VT_BUF)
		return ck_err(c, x->pos, "buf() of a buffer: it is one already");
	if (!is_array(x) && !len)
		return ck_err(c, call->pos,
			      "buf() of %s needs a length: buf(p, 16); only an array's is known",
			      x->vtype == ST_VT_STR ? "a string" : "an address");
	if (!is_array(x)) {
		err = ck_need_int(c, x, "buf()'s address");
		if (err)
			return err;
	}
	return make_read(c, call, x, len, ST_BUF_BYTES);
}

/* macaddr(addr), macaddr(array): 6 bytes, printed AA:BB:CC:DD:EE:FF. */
int ck_macaddr(struct checker *c, struct st_expr *call)
{
	struct st_expr *x = call->nr_kids == 1 ? call->kids[0] : NULL;
	int err;

	if (!x)
		return ck_err(c, call->pos,
			      "macaddr() takes a MAC address: an array of 6 bytes or its address, "
			      "macaddr($s->mac)");
	err = ck_bytes_arg(c, x);
	if (err)
		return err;
	if (is_array(x) && x->ctype->size < 6)
		return ck_err(c, x->pos, "macaddr() of %s: a MAC address is 6 bytes",
			      x->ctype->name);
	if (!is_array(x) && !ck_bytes_of(x)) {
		err = ck_need_int(c, x, "macaddr()'s address");
		if (err)
			return err;
	}
	if (x->kind == ST_EXPR_STR)
		return ck_make_buf(c, call, ST_BUF_MAC, 6);
	err = make_read(c, call, x, NULL, ST_BUF_MAC);
	if (!err)
		call->kids[1]->uval = 6;
	return err;
}

int ck_buf_index(struct checker *c, struct st_expr *e)
{
	struct st_expr *x = e->kids[0], *i = e->kids[1];
	uint32_t n;
	int err;

	err = ck_expr(c, x) ?: ck_int(c, i, "an index");
	if (err)
		return err;
	n = ST_BUF_LEN(x->str[0]);
	if (i->kind != ST_EXPR_INT)
		return ck_err(c, i->pos, "an index of pton()'s array must be a constant, 0 to %u",
			      n - 1);
	if (i->uval >= n)
		return ck_err(c, i->pos, "the index %lld is out of bounds for an array of size %u",
			      (long long)i->uval, n);
	st_expr_make_int(e, (uint8_t)x->str[1 + i->uval]);
	return 0;
}
