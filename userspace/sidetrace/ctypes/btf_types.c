// SPDX-License-Identifier: MIT
/*
 * Kernel types from BTF, converted one node at a time: a pointer or an
 * array brings its target's node along, a struct its members only when
 * one is read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctypes/ctypes_int.h"
#include "objfile/kernel_btf.h"

const struct btf *ct_btf(struct st_ctypes *r)
{
	if (r->btf_tried)
		return r->btf;
	r->btf_tried = true;
	r->btf = st_kernel_btf_load();
	if (!r->btf) {
		r->btf_err = -errno;
		return NULL;
	}
	r->nr_ids = btf__type_cnt(r->btf);
	r->by_id = calloc(r->nr_ids, sizeof(*r->by_id));
	if (!r->by_id) {
		btf__free(r->btf);
		r->btf = NULL;
		r->btf_err = -ENOMEM;
	}
	return r->btf;
}

int ct_btf_find(struct st_ctypes *r, const char *name, int kind)
{
	const struct btf *btf = ct_btf(r);
	int id;

	if (!btf)
		return -ENOENT;
	id = btf__find_by_name_kind(btf, name, kind);
	return id > 0 ? id : -ENOENT;
}

int ct_btf_enum_value(struct st_ctypes *r, const char *name, int64_t *v)
{
	const struct btf *btf = ct_btf(r);
	const struct btf_type *t;
	uint32_t id, i, n;

	for (id = 1; btf && id < r->nr_ids; id++) {
		t = btf__type_by_id(btf, id);
		n = btf_vlen(t);
		for (i = 0; btf_is_enum(t) && i < n; i++)
			if (!strcmp(btf__name_by_offset(btf, btf_enum(t)[i].name_off), name)) {
				*v = btf_kflag(t) ? (int64_t)btf_enum(t)[i].val
						  : (int64_t)(uint32_t)btf_enum(t)[i].val;
				return 0;
			}
		for (i = 0; btf_is_enum64(t) && i < n; i++)
			if (!strcmp(btf__name_by_offset(btf, btf_enum64(t)[i].name_off), name)) {
				*v = (int64_t)btf_enum64_value(&btf_enum64(t)[i]);
				return 0;
			}
	}
	return -ENOENT;
}

/* id past typedefs and qualifiers. */
static uint32_t peel(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return id;
}

/* A forward declaration's definition, where the kernel has one. */
static uint32_t defined(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int def;

	if (!t || !btf_is_fwd(t))
		return id;
	def = btf__find_by_name_kind(btf, btf__name_by_offset(btf, t->name_off),
				     btf_kflag(t) ? BTF_KIND_UNION : BTF_KIND_STRUCT);
	return def > 0 ? (uint32_t)def : id;
}

static struct st_ctype *tagged_node(struct st_ctypes *r, const struct btf_type *t,
				    enum st_ctype_kind kind, const char *tag)
{
	const char *n = btf__name_by_offset(r->btf, t->name_off);
	char name[256];

	snprintf(name, sizeof(name), "%s %s", tag, n && *n ? n : "(anonymous)");
	return ct_node(r, kind, name);
}

/* One node for t, its pointee or element converted too. */
static struct st_ctype *convert(struct st_ctypes *r, uint32_t id, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(r->btf, t->name_off);
	struct st_ctype *c = NULL, *to;

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		c = ct_node(r, ST_CT_INT, n && *n ? n : "int");
		if (c) {
			c->size = t->size;
			c->is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
			c->is_char = t->size == 1 && ((btf_int_encoding(t) & BTF_INT_CHAR) ||
						      (n && strstr(n, "char")));
		}
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		c = tagged_node(r, t, ST_CT_ENUM, "enum");
		if (c) {
			c->size = t->size;
			c->is_signed = btf_kflag(t);
		}
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FWD:
		if (btf_is_fwd(t))
			c = tagged_node(r, t, btf_kflag(t) ? ST_CT_UNION : ST_CT_STRUCT,
					btf_kflag(t) ? "union" : "struct");
		else
			c = tagged_node(r, t, btf_is_union(t) ? ST_CT_UNION : ST_CT_STRUCT,
					btf_is_union(t) ? "union" : "struct");
		if (c && !btf_is_fwd(t)) {
			c->size = t->size;
			c->btf_id = id;
		}
		if (c && btf_is_fwd(t))
			c->complete = true;
		break;
	case BTF_KIND_PTR:
		to = ct_from_btf(r, t->type);
		return to ? st_ctype_pointer(r, to) : NULL;
	case BTF_KIND_ARRAY:
		to = ct_from_btf(r, btf_array(t)->type);
		return to ? st_ctype_array(r, to, btf_array(t)->nelems) : NULL;
	case BTF_KIND_FUNC_PROTO:
		c = ct_node(r, ST_CT_FUNC, "function");
		break;
	default: /* void, a float: nothing sidetrace reads */
		c = ct_node(r, ST_CT_VOID, id ? "float" : "void");
		break;
	}
	return c;
}

struct st_ctype *ct_from_btf(struct st_ctypes *r, uint32_t id)
{
	const struct btf_type *t;
	struct st_ctype *c;

	if (!ct_btf(r))
		return NULL;
	id = defined(r->btf, peel(r->btf, id));
	if (id >= r->nr_ids)
		return NULL;
	if (r->by_id[id])
		return r->by_id[id];
	t = btf__type_by_id(r->btf, id);
	if (!t)
		return NULL;
	c = id ? convert(r, id, t) : ct_node(r, ST_CT_VOID, "void");
	r->by_id[id] = c;
	return c;
}

int ct_btf_members(struct st_ctypes *r, struct st_ctype *t)
{
	const struct btf_type *bt = btf__type_by_id(r->btf, t->btf_id);
	const struct btf_member *m;
	struct st_ctype *mt;
	uint16_t i, n;
	int err;

	t->complete = true;
	if (!bt || !btf_is_composite(bt))
		return 0;
	m = btf_members(bt);
	n = btf_vlen(bt);
	for (i = 0; i < n; i++, m++) {
		const char *name = btf__name_by_offset(r->btf, m->name_off);

		mt = ct_from_btf(r, m->type);
		if (!mt)
			return -ENOMEM;
		err = st_ctype_add_member(t, name ? name : "", mt, btf_member_bit_offset(bt, i),
					  btf_member_bitfield_size(bt, i));
		if (err)
			return err;
	}
	return 0;
}
