// SPDX-License-Identifier: MIT
/*
 * Whole values of C types (a struct, an array) and tuples: their leaves,
 * the scalars and strings a whole is kept as one by one, and their text
 * as bpftrace prints them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctypes/composite.h"
#include "ctypes/ctypes_int.h"

bool st_ctype_whole(struct st_ctypes *r, struct st_ctype *t)
{
	if (t->kind == ST_CT_ARRAY)
		return !st_ctype_char_array(r, t);
	return t->kind == ST_CT_STRUCT || t->kind == ST_CT_UNION;
}

struct walk {
	struct st_ctypes *r;
	struct st_ctype_leaf *out;
	uint32_t max, nr;
};

static int add_leaves(struct walk *w, struct st_ctype *t, const char *path, int depth);

/* Members of a struct or union; an anonymous one's as if they were t's own, as C reads them. */
static int member_leaves(struct walk *w, struct st_ctype *t, const char *path, int depth)
{
	char sub[ST_LEAF_PATH_LEN];
	uint32_t i;
	int err = ct_complete(w->r, t);

	for (i = 0; !err && i < t->nr_members; i++) {
		const struct st_cmember *m = &t->members[i];

		if (!*m->name) {
			err = add_leaves(w, m->type, path, depth + 1);
			continue;
		}
		if ((size_t)snprintf(sub, sizeof(sub), "%s.%s", path, m->name) >= sizeof(sub))
			return -ENAMETOOLONG;
		err = add_leaves(w, m->type, sub, depth + 1);
	}
	return err;
}

static int add_leaves(struct walk *w, struct st_ctype *t, const char *path, int depth)
{
	char sub[ST_LEAF_PATH_LEN];
	uint32_t i;
	int err = 0;

	if (depth > 8)
		return -E2BIG;
	if (!st_ctype_whole(w->r, t)) {
		if (w->nr == w->max)
			return -E2BIG;
		snprintf(w->out[w->nr].path, sizeof(w->out[w->nr].path), "%s", path);
		w->out[w->nr++].type = t;
		return 0;
	}
	if (t->kind != ST_CT_ARRAY)
		return member_leaves(w, t, path, depth);
	if (t->nr_elems > w->max)
		return -E2BIG;
	for (i = 0; !err && i < t->nr_elems; i++) {
		if ((size_t)snprintf(sub, sizeof(sub), "%s[%u]", path, i) >= sizeof(sub))
			return -ENAMETOOLONG;
		err = add_leaves(w, t->ref, sub, depth + 1);
	}
	return err;
}

int st_ctype_leaves(struct st_ctypes *r, struct st_ctype *t, struct st_ctype_leaf *out,
		    uint32_t max, uint32_t *nr)
{
	struct walk w = {.r = r, .out = out, .max = max};
	int err = add_leaves(&w, t, "", 0);

	*nr = w.nr;
	return err;
}

/* "string[N]" for chars, else the type's own name. */
static const char *elem_name(struct st_ctypes *r, struct st_ctype *t, char *buf, size_t size)
{
	if (!st_ctype_char_array(r, t))
		return t->name;
	snprintf(buf, size, "string[%u]", t->nr_elems);
	return buf;
}

bool st_ctype_same_shape(struct st_ctypes *r, struct st_ctype *a, struct st_ctype *b)
{
	uint32_t i;

	if (a == b || (st_ctype_char_array(r, a) && st_ctype_char_array(r, b)))
		return true;
	/* Integers, and arrays of as many of one shape (a tracepoint's __u8 saddr[4], daddr[4]). */
	if (a->kind == ST_CT_INT && b->kind == ST_CT_INT)
		return a->size == b->size && a->is_signed == b->is_signed &&
		       a->is_char == b->is_char;
	if (a->kind == ST_CT_ARRAY && b->kind == ST_CT_ARRAY && a->nr_elems == b->nr_elems) {
		a = st_ctype_ref(r, a);
		b = st_ctype_ref(r, b);
		return a && b && st_ctype_same_shape(r, a, b);
	}
	if (!a->is_tuple || !b->is_tuple || a->nr_members != b->nr_members)
		return false;
	for (i = 0; i < a->nr_members; i++)
		if (!st_ctype_same_shape(r, a->members[i].type, b->members[i].type))
			return false;
	return true;
}

struct st_ctype *st_ctype_tuple(struct st_ctypes *r, struct st_ctype **elems, uint32_t n)
{
	uint32_t i, off = 0, align = 1, a;
	char name[512], num[16], str[32];
	struct st_ctype *t;
	size_t len = 0;

	name[len++] = '(';
	for (i = 0; i < n && len < sizeof(name); i++)
		len += snprintf(name + len, sizeof(name) - len, "%s%s", i ? ", " : "",
				elem_name(r, elems[i], str, sizeof(str)));
	if (len + 2 > sizeof(name))
		return NULL;
	snprintf(name + len, sizeof(name) - len, ")");
	/* One node per shape: a variable assigned tuples twice keeps one type. */
	for (i = 0; i < r->nr_nodes; i++)
		if (r->nodes[i]->is_tuple && !strcmp(r->nodes[i]->name, name))
			return r->nodes[i];
	t = ct_node(r, ST_CT_STRUCT, name);
	if (!t)
		return NULL;
	t->is_tuple = true;
	t->complete = true;
	/* Laid out as a C struct of its elements, as bpftrace lays a tuple out. */
	for (i = 0; i < n; i++) {
		a = st_ctype_align(r, elems[i]);
		off = (off + a - 1) / a * a;
		align = a > align ? a : align;
		snprintf(num, sizeof(num), "%u", i);
		if (st_ctype_add_member(t, num, elems[i], off * 8, 0))
			return NULL;
		off += elems[i]->size;
	}
	t->align = align;
	t->size = (off + align - 1) / align * align;
	return t;
}

/* The punctuation of a whole value, by style. */
static const struct punct {
	const char *tuple_open, *tuple_close, *tuple_sep;
	const char *struct_open, *struct_close, *member_sep, *member;
} puncts[] = {
	[ST_WHOLE_TEXT] = {"(", ")", ", ", "{ ", " }", ", ", ".%s = "},
	[ST_WHOLE_KEY] = {"(", ")", ", ", "{", "}", ",", ".%s="},
	[ST_WHOLE_JSON] = {"[", "]", ",", "{ ", " }", ", ", "\"%s\": "},
};

struct text {
	struct st_ctypes *r;
	const struct punct *p;
	struct st_textbuf *tb;
	st_leaf_text_fn *leaf;
	void *arg;
	uint32_t next;
};

static void whole_text(struct text *x, struct st_ctype *t, int depth);

static void members_text(struct text *x, struct st_ctype *t, bool *first, int depth)
{
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct st_cmember *m = &t->members[i];

		if (!*m->name && st_ctype_whole(x->r, m->type)) {
			members_text(x, m->type, first, depth + 1);
			continue;
		}
		if (!*first)
			st_tb_puts(x->tb, t->is_tuple ? x->p->tuple_sep : x->p->member_sep);
		*first = false;
		if (!t->is_tuple)
			st_tb_printf(x->tb, x->p->member, m->name);
		whole_text(x, m->type, depth + 1);
	}
}

static void whole_text(struct text *x, struct st_ctype *t, int depth)
{
	bool first = true;
	uint32_t i;

	if (depth > 8 || !st_ctype_whole(x->r, t)) {
		x->leaf(x->arg, x->tb, x->next++);
		return;
	}
	if (t->kind == ST_CT_ARRAY) {
		st_tb_putc(x->tb, '[');
		for (i = 0; i < t->nr_elems; i++) {
			if (i)
				st_tb_putc(x->tb, ',');
			whole_text(x, t->ref, depth + 1);
		}
		st_tb_putc(x->tb, ']');
		return;
	}
	st_tb_puts(x->tb, t->is_tuple ? x->p->tuple_open : x->p->struct_open);
	members_text(x, t, &first, depth);
	st_tb_puts(x->tb, t->is_tuple ? x->p->tuple_close : x->p->struct_close);
}

void st_ctype_text(struct st_ctypes *r, struct st_ctype *t, enum st_whole_style style,
		   struct st_textbuf *tb, st_leaf_text_fn *leaf, void *arg)
{
	struct text x = {.r = r, .p = &puncts[style], .tb = tb, .leaf = leaf, .arg = arg};

	whole_text(&x, t, 0);
}
