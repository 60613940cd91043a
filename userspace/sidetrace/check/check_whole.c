// SPDX-License-Identifier: MIT
/*
 * Whole values: tuples, and structs, unions and arrays read whole. The
 * machine keeps scalars and strings only, so a whole value is kept leaf
 * by leaf (ctypes/composite.h): $t = (1, "a") becomes $t.0 = 1 and
 * $t.1 = "a", @m[k] = s becomes one map per leaf, $t.1 reads the leaf
 * $t.1, and print($t) becomes the printf of its leaves. The checker does
 * it all by rewriting the tree; nothing after it knows whole values but
 * the printing of maps, which joins a whole map's leaves (readout/).
 */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "ctypes/composite.h"
#include "parse/format.h"

/* An element's type in a tuple: a whole's own, a string's chars, an integer's width. */
static struct st_ctype *elem_type(struct checker *c, struct st_expr *k)
{
	struct st_ctypes *r = ck_ctypes(c);
	struct st_ctype *ch;
	uint32_t size = 8;

	if (k->vtype == ST_VT_WHOLE || (k->ctype && k->vtype != ST_VT_STR))
		return k->ctype;
	if (k->vtype == ST_VT_STR) {
		if (st_ctypes_named(r, "char", &ch, NULL, 0))
			return NULL;
		/* A literal is as long as it is, as bpftrace sizes one. */
		return st_ctype_array(r, ch,
				      k->kind == ST_EXPR_STR ? strlen(k->str) + 1 : ST_STR_LEN);
	}
	if (k->kind == ST_EXPR_CAST)
		size = k->cast.bits / 8;
	return st_ctype_int(r, size, k->vtype == ST_VT_INT);
}

int ck_tuple(struct checker *c, struct st_expr *e)
{
	struct st_ctype *types[ST_MAX_LEAVES];
	uint32_t i;
	int err = 0;

	if (e->nr_kids > ST_MAX_LEAVES)
		return ck_err(c, e->kids[ST_MAX_LEAVES]->pos, "a tuple has at most %d elements",
			      ST_MAX_LEAVES);
	for (i = 0; !err && i < e->nr_kids; i++) {
		err = ck_expr_whole(c, e->kids[i])
			      ?: ck_settle_default(c, e->kids[i], "a tuple's element");
		if (!err && !(types[i] = elem_type(c, e->kids[i])))
			err = ck_oom(c);
	}
	if (err)
		return err;
	e->ctype = st_ctype_tuple(ck_ctypes(c), types, e->nr_kids);
	e->vtype = ST_VT_WHOLE;
	return e->ctype ? 0 : ck_oom(c);
}

/* The leaves of whole e, or an error that names the whole. */
static int leaves_of(struct checker *c, const struct st_expr *e, struct st_ctype_leaf *leaves,
		     uint32_t *nr)
{
	int err = st_ctype_leaves(ck_ctypes(c), e->ctype, leaves, ST_MAX_LEAVES, nr);

	if (err == -ENOMEM)
		return ck_oom(c);
	if (err)
		return ck_err(c, e->pos,
			      "%s is kept leaf by leaf, and it has more than %d leaves (or nests "
			      "deeper than 8): keep the members you need",
			      e->ctype->name, ST_MAX_LEAVES);
	return 0;
}

/* ".3" of a tuple: the element's index and the rest of the path; false if it is none. */
static bool tuple_step(const char *path, uint32_t *k, const char **rest)
{
	char *end;

	if (path[0] != '.' || path[1] < '0' || path[1] > '9')
		return false;
	*k = strtoul(path + 1, &end, 10);
	*rest = end;
	return true;
}

/* A member or element of over at the first step of path; NULL when out of memory, over freed. */
static struct st_expr *step_over(struct st_expr *over, const char **path)
{
	const char *p = *path, *end;
	struct st_expr *e, *i = NULL;

	if (*p != '[')
		e = st_expr_node(ST_EXPR_MEMBER, over->pos, 1, over, NULL);
	else if ((i = st_expr_new(ST_EXPR_INT, over->pos)))
		e = st_expr_node(ST_EXPR_INDEX, over->pos, 2, over, i);
	else
		e = NULL;
	if (!e) {
		st_expr_free(i);
		st_expr_free(over);
		return NULL;
	}
	if (i) {
		i->uval = strtoul(p + 1, (char **)&end, 10);
		*path = end + 1;
		return e;
	}
	end = p + 1 + strcspn(p + 1, ".[");
	e->str = strndup(p + 1, end - p - 1);
	*path = end;
	if (!e->str) {
		st_expr_free(e);
		return NULL;
	}
	return e;
}

/* A copy of name with path after it. */
static char *name_path(const char *name, const char *path)
{
	char *s;

	return asprintf(&s, "%s%s", name, path) < 0 ? NULL : s;
}

/*
 * The expression of the leaf at path of whole e (checked), to check anew:
 * a tuple's element, a variable's or map's leaf, or a member or element
 * read where e is. NULL when out of memory.
 */
static struct st_expr *leaf_expr(const struct st_expr *e, const char *path)
{
	struct st_expr *x;
	const char *rest;
	uint32_t k, i;

	if (e->kind == ST_EXPR_TUPLE && tuple_step(path, &k, &rest) && k < e->nr_kids)
		return *rest ? leaf_expr(e->kids[k], rest) : st_expr_clone(e->kids[k]);
	if (e->kind == ST_EXPR_VAR || e->kind == ST_EXPR_MAP) {
		x = st_expr_new(e->kind, e->pos);
		if (x && e->nr_kids)
			x->kids = calloc(e->nr_kids, sizeof(*x->kids));
		if (!x || (e->nr_kids && !x->kids) || !(x->str = name_path(e->str, path))) {
			st_expr_free(x);
			return NULL;
		}
		for (i = 0; i < e->nr_kids; i++) {
			x->kids[i] = st_expr_clone(e->kids[i]);
			if (!x->kids[i]) {
				st_expr_free(x);
				return NULL;
			}
			x->nr_kids = i + 1;
		}
		return x;
	}
	x = st_expr_clone(e);
	while (x && *path)
		x = step_over(x, &path);
	return x;
}

/* A whole variable: its type, where the scope has one named name; else NULL. */
static struct st_ctype *whole_var(const struct checker *c, const char *name)
{
	uint32_t i;

	for (i = c->nr_scope; i-- > 0;)
		if (!strcmp(c->scope[i].name, name))
			return c->scope[i].slot < 0 ? c->scope[i].whole : NULL;
	return NULL;
}

bool ck_is_whole_var(const struct checker *c, const char *name)
{
	return whole_var(c, name);
}

int ck_whole_var(struct checker *c, struct st_expr *e)
{
	struct st_ctype *t = whole_var(c, e->str);

	if (!t)
		return 1;
	e->ctype = t;
	e->vtype = ST_VT_WHOLE;
	e->var_id = -1;
	return 0;
}

/* The maps of whole map m's leaves, made at its first assignment. */
static int leaf_maps(struct checker *c, int m, const struct st_ctype_leaf *leaves, uint32_t nr)
{
	struct st_program *prog = c->prog;
	struct st_map_info *grown, *l;
	uint32_t i;

	grown = realloc(prog->maps, (prog->nr_maps + nr) * sizeof(*grown));
	if (!grown)
		return ck_oom(c);
	prog->maps = grown;
	prog->maps[m].first_leaf = prog->nr_maps;
	prog->maps[m].nr_leaves = nr;
	for (i = 0; i < nr; i++) {
		l = &prog->maps[prog->nr_maps];
		memset(l, 0, sizeof(*l));
		l->name = name_path(prog->maps[m].name, leaves[i].path);
		if (!l->name)
			return ck_oom(c);
		l->pos = prog->maps[m].pos;
		l->agg = ST_K_VALUE;
		l->nr_keys = prog->maps[m].nr_keys;
		l->leaf = true;
		l->elem_used = prog->maps[m].elem_used;
		prog->nr_maps++;
	}
	return 0;
}

/*
 * s, whose then block holds the statements made of it, becomes that
 * block, which always runs: if (1) { ... }. What else it held is freed.
 */
static int always_run(struct checker *c, struct st_stmt *s)
{
	st_expr_free(s->value);
	st_expr_free(s->call);
	s->call = NULL;
	s->kind = ST_STMT_IF;
	s->value = st_expr_new(ST_EXPR_INT, s->pos);
	if (!s->value)
		return ck_oom(c);
	s->value->uval = 1;
	s->value->vtype = ST_VT_INT;
	return 0;
}

/* Whether whole value of type t may be assigned to s's variable or map; creates its leaves' maps.
 */
static int assign_target(struct checker *c, struct st_stmt *s, struct st_ctype *t,
			 const struct st_ctype_leaf *leaves, uint32_t nr)
{
	struct st_map_info *m;
	struct st_ctype *had;
	int err;

	if (s->op != ST_OP_NONE)
		return ck_err(c, s->pos, "%s is a whole %s: only '=' assigns it", s->var ?: s->map,
			      t->name);
	if (s->var) {
		had = whole_var(c, s->var);
		if ((had && !st_ctype_same_shape(ck_ctypes(c), had, t)) ||
		    (!had && ck_find_var(c, s->var) >= 0))
			return ck_err(c, s->value->pos, "%s holds %s: it cannot be assigned %s",
				      s->var, had ? had->name : "a scalar", t->name);
		return 0;
	}
	err = ck_map_keys(c, s->map_id, &s->keys, &s->nr_keys, s->map_pos);
	m = &c->prog->maps[s->map_id];
	if (err || (m->whole && st_ctype_same_shape(ck_ctypes(c), m->whole, t)))
		return err;
	if (m->whole || m->value_typed || m->agg != ST_K_VALUE)
		return ck_err(c, s->value->pos,
			      "%s holds %s (line %u, column %u): it cannot also hold %s", s->map,
			      m->whole ? m->whole->name : "scalars", m->pos.line, m->pos.col,
			      t->name);
	m->whole = t;
	/* Never written: its leaves hold the values, and the printer joins them. */
	m->value_type = ST_VT_UINT;
	m->value_typed = true;
	return leaf_maps(c, s->map_id, leaves, nr);
}

/* Leaf i's assignment in to, made from s (whose value is whole). */
static int leaf_assign(struct checker *c, const struct st_stmt *s, const char *path,
		       struct st_stmt *to)
{
	uint32_t k;

	to->kind = ST_STMT_ASSIGN;
	to->pos = s->pos;
	to->map_pos = s->map_pos;
	to->map_id = -1;
	to->var_id = -1;
	to->value = leaf_expr(s->value, path);
	if (!to->value)
		return ck_oom(c);
	if (s->var)
		return (to->var = name_path(s->var, path)) ? 0 : ck_oom(c);
	to->map = name_path(s->map, path);
	to->keys = s->nr_keys ? calloc(s->nr_keys, sizeof(*to->keys)) : NULL;
	if (!to->map || (s->nr_keys && !to->keys))
		return ck_oom(c);
	for (k = 0; k < s->nr_keys; k++) {
		to->keys[k] = st_expr_clone(s->keys[k]);
		if (!to->keys[k])
			return ck_oom(c);
		to->nr_keys = k + 1;
	}
	to->map_id = ck_find_map(c->prog, to->map);
	return 0;
}

int ck_whole_assign(struct checker *c, struct st_stmt *s)
{
	struct st_ctype_leaf leaves[ST_MAX_LEAVES];
	struct st_ctype *t = s->value->ctype;
	struct st_stmt *block;
	uint32_t nr, i;
	int err;

	err = leaves_of(c, s->value, leaves, &nr) ?: assign_target(c, s, t, leaves, nr);
	if (err)
		return err;
	block = calloc(nr, sizeof(*block));
	if (!block)
		return ck_oom(c);
	/* The statement becomes a block that always runs: if (1) { leaf = ...; ... } */
	s->then = block;
	for (i = 0; !err && i < nr; i++) {
		err = leaf_assign(c, s, leaves[i].path, &block[i]);
		s->nr_then = i + 1;
		if (!err)
			err = ck_assign(c, &block[i]);
	}
	err = always_run(c, s) ?: err;
	if (err || !s->var || whole_var(c, s->var))
		return err;
	if (c->nr_scope == CK_MAX_SCOPE)
		return ck_err(c, s->pos, "more than %d variables in one clause", CK_MAX_SCOPE);
	c->scope[c->nr_scope].name = s->var;
	c->scope[c->nr_scope].whole = t;
	c->scope[c->nr_scope++].slot = -1;
	return 0;
}

/* e (e.NAME, e[i]) of whole x kept leaf by leaf: the step's path and type. */
static int part_step(struct checker *c, struct st_expr *e, struct st_expr *x, char *path,
		     size_t size, struct st_ctype **t)
{
	const struct st_cmember *m;
	uint32_t off;
	int err;

	if (e->kind == ST_EXPR_INDEX) {
		if (x->ctype->kind != ST_CT_ARRAY)
			return ck_err(c, e->pos,
				      "'[]' reads an element of an array, and this is %s",
				      x->ctype->name);
		err = ck_int(c, e->kids[1], "an index");
		if (err)
			return err;
		if (e->kids[1]->kind != ST_EXPR_INT)
			return ck_err(
				c, e->kids[1]->pos,
				"%s is kept leaf by leaf: its elements are read by a constant "
				"index",
				x->ctype->name);
		if (e->kids[1]->uval >= x->ctype->nr_elems)
			return ck_err(c, e->kids[1]->pos,
				      "the index %llu is out of bounds for array of size %u (%s)",
				      (unsigned long long)e->kids[1]->uval, x->ctype->nr_elems,
				      x->ctype->name);
		snprintf(path, size, "[%llu]", (unsigned long long)e->kids[1]->uval);
		*t = x->ctype->ref;
		return 0;
	}
	if (e->arrow || x->ctype->kind == ST_CT_ARRAY)
		return ck_err(c, e->pos,
			      "'%s%s' reads a member of a struct or tuple, and this is %s",
			      e->arrow ? "->" : ".", e->str, x->ctype->name);
	err = st_ctype_member(ck_ctypes(c), x->ctype, e->str, &m, &off);
	if (err == -ENOMEM)
		return ck_oom(c);
	if (err)
		return ck_err(c, e->pos, "%s has no %s %s", x->ctype->name,
			      x->ctype->is_tuple ? "element" : "member", e->str);
	snprintf(path, size, ".%s", e->str);
	*t = m->type;
	return 0;
}

int ck_whole_part(struct checker *c, struct st_expr *e)
{
	struct st_expr *x = e->kids[0], *part;
	char path[ST_LEAF_PATH_LEN];
	struct st_ctype *t = NULL;
	uint32_t k;
	int err;

	err = part_step(c, e, x, path, sizeof(path), &t);
	if (err)
		return err;
	if (x->kind == ST_EXPR_TUPLE) {
		/* An element, checked with the tuple. */
		k = strtoul(path + 1, NULL, 10);
		part = x->kids[k];
		x->kids[k] = NULL;
		st_expr_replace(e, part);
		return 0;
	}
	part = leaf_expr(x, path);
	if (!part)
		return ck_oom(c);
	/* e becomes the part: a leaf, checked as any, or a whole again. */
	st_expr_replace(e, part);
	if (!st_ctype_whole(ck_ctypes(c), t))
		return ck_expr(c, e);
	e->ctype = t;
	e->vtype = ST_VT_WHOLE;
	return 0;
}

int ck_whole_key(struct checker *c, struct st_expr ***keys, uint32_t *nr, uint32_t k,
		 uint32_t *parts)
{
	struct st_ctype_leaf leaves[ST_MAX_LEAVES];
	struct st_expr **grown, *whole = (*keys)[k];
	uint32_t n, i;
	int err;

	err = leaves_of(c, whole, leaves, &n);
	if (err)
		return err;
	grown = realloc(*keys, (*nr + n) * sizeof(*grown));
	if (!grown)
		return ck_oom(c);
	*keys = grown;
	memmove(&grown[k + n], &grown[k + 1], (*nr - k - 1) * sizeof(*grown));
	for (i = 0; i < n; i++)
		grown[k + i] = NULL;
	/* Counted from here on: the array owns the NULLs too, which free skips. */
	*nr += n - 1;
	*parts = n;
	for (i = 0; !err && i < n; i++) {
		grown[k + i] = leaf_expr(whole, leaves[i].path);
		err = grown[k + i] ? ck_expr(c, grown[k + i]) : ck_oom(c);
		if (!err && grown[k + i]->vtype == ST_VT_NONE)
			err = ck_settle_default(c, grown[k + i], "a map key");
	}
	st_expr_free(whole);
	return err;
}

int ck_whole_map_action(struct checker *c, struct st_stmt *s)
{
	struct st_expr *ref = s->call->nr_kids ? s->call->kids[0] : NULL;
	const struct st_map_info *m;
	struct st_stmt *block;
	uint32_t i;
	int err = 0;

	if (!ref || ref->kind != ST_EXPR_MAP || ref->map_id < 0 ||
	    !c->prog->maps[ref->map_id].whole ||
	    (st_func(s->call->func)->args != ST_FA_MAP &&
	     st_func(s->call->func)->args != ST_FA_ELEM))
		return 0;
	m = &c->prog->maps[ref->map_id];
	block = calloc(m->nr_leaves, sizeof(*block));
	if (!block)
		return ck_oom(c);
	/* The statement becomes a block that always runs, one call a leaf's map. */
	s->then = block;
	for (i = 0; !err && i < m->nr_leaves; i++) {
		block[i].kind = ST_STMT_CALL;
		block[i].pos = s->pos;
		block[i].map_id = block[i].var_id = -1;
		block[i].call = st_expr_clone(s->call);
		s->nr_then = i + 1;
		if (!block[i].call)
			return ck_oom(c);
		free(block[i].call->kids[0]->str);
		block[i].call->kids[0]->str = strdup(c->prog->maps[m->first_leaf + i].name);
		err = block[i].call->kids[0]->str ? ck_action(c, &block[i]) : ck_oom(c);
	}
	return always_run(c, s) ?: err;
}

/* A new node: l op r; NULL (both freed) when out of memory. */
static struct st_expr *binary(enum st_op op, struct st_expr *l, struct st_expr *r)
{
	struct st_expr *e = l ? st_expr_node(ST_EXPR_BINARY, l->pos, 2, l, r) : NULL;

	if (!e) {
		st_expr_free(l);
		st_expr_free(r);
		return NULL;
	}
	e->op = op;
	return e;
}

/* "a whole int[4]" or "an integer", for messages. */
static const char *kind_name(const struct st_expr *e, char *buf, size_t size)
{
	if (e->vtype != ST_VT_WHOLE)
		return ck_vtype_kind(e->vtype);
	snprintf(buf, size, "a whole %s", e->ctype->name);
	return buf;
}

int ck_whole_compare(struct checker *c, struct st_expr *e)
{
	struct st_expr *l = e->kids[0], *r = e->kids[1], *all = NULL, *one;
	struct st_ctype_leaf leaves[ST_MAX_LEAVES];
	char lk[300], rk[300];
	uint32_t nr, i;
	int err;

	if (l->vtype != r->vtype || !st_ctype_same_shape(ck_ctypes(c), l->ctype, r->ctype))
		return ck_err(c, e->pos,
			      "'%s' compares %s with %s: a whole value equals only one of its type",
			      st_op_name(e->op), kind_name(l, lk, sizeof(lk)),
			      kind_name(r, rk, sizeof(rk)));
	err = leaves_of(c, l, leaves, &nr);
	if (err)
		return err;
	/* Equal when every leaf is: leaf == leaf && ...; not equal when one is not. */
	for (i = 0; i < nr; i++) {
		one = binary(e->op, leaf_expr(l, leaves[i].path), leaf_expr(r, leaves[i].path));
		all = !all ? one : binary(e->op == ST_OP_EQ ? ST_OP_LAND : ST_OP_LOR, all, one);
		if (!all)
			return ck_oom(c);
	}
	st_expr_replace(e, all);
	return ck_expr(c, e);
}

struct fmt_leaves {
	struct st_ctypes *types;
	const struct st_ctype_leaf *leaves;
	/* What each leaf's value is kept as: an integer printed as text takes %s */
	enum st_kept kept[ST_MAX_LEAVES];
};

/* What leaf e (a call, a leaf variable or map) holds is kept as, before e is checked. */
static enum st_kept leaf_kept(const struct checker *c, const struct st_expr *e)
{
	int id;

	if (e->kind == ST_EXPR_VAR) {
		id = ck_find_var(c, e->str);
		return id >= 0 ? c->clause->var_kept[id] : ST_KEPT_VALUE;
	}
	if (e->kind == ST_EXPR_MAP) {
		id = ck_find_map(c->prog, e->str);
		return id >= 0 ? c->prog->maps[id].value_kept : ST_KEPT_VALUE;
	}
	return st_expr_kept(e);
}

/* A printf conversion for a leaf of its type: its leaf is checked by the printf, once. */
static void leaf_conversion(void *arg, struct st_textbuf *tb, uint32_t i)
{
	const struct fmt_leaves *f = arg;
	const struct st_ctype *t = f->leaves[i].type;

	st_tb_puts(tb,
		   st_ctype_char_array(f->types, f->leaves[i].type) || st_kept_is_text(f->kept[i])
			   ? "%s"
		   : t->is_signed && t->kind != ST_CT_PTR ? "%lld"
							  : "%llu");
}

/* print(whole)'s -f json value ([1,"abc"], { "m": 2 }): the same leaves' conversions. */
static int whole_json_format(struct checker *c, struct st_expr *call, struct st_ctype *t,
			     struct fmt_leaves *f)
{
	struct st_textbuf tb = {0};
	char err[256];
	uint32_t at;
	int ret;

	call->json_fmt = calloc(1, sizeof(*call->json_fmt));
	if (!call->json_fmt)
		return ck_oom(c);
	st_ctype_text(ck_ctypes(c), t, ST_WHOLE_JSON, &tb, leaf_conversion, f);
	if (tb.failed) {
		st_tb_free(&tb);
		return ck_oom(c);
	}
	ret = st_format_parse(tb.s, call->json_fmt, err, sizeof(err), &at);
	st_tb_free(&tb);
	if (ret == -ENOMEM)
		return ck_oom(c);
	return ret ? ck_err(c, call->pos, "internal error: %s", err) : 0;
}

int ck_whole_print(struct checker *c, struct st_expr *call)
{
	struct st_ctype_leaf leaves[ST_MAX_LEAVES];
	struct st_expr *v = call->kids[0], **kids;
	struct st_textbuf tb = {0};
	struct fmt_leaves f;
	uint32_t nr, i;
	int err;

	err = leaves_of(c, v, leaves, &nr);
	if (err)
		return err;
	kids = calloc(nr + 1, sizeof(*kids));
	if (!kids)
		return ck_oom(c);
	for (i = 0; !err && i < nr; i++)
		if (!(kids[i + 1] = leaf_expr(v, leaves[i].path)))
			err = ck_oom(c);
		else
			f.kept[i] = leaf_kept(c, kids[i + 1]);
	f.types = ck_ctypes(c);
	f.leaves = leaves;
	if (!err) {
		st_ctype_text(ck_ctypes(c), v->ctype, ST_WHOLE_TEXT, &tb, leaf_conversion, &f);
		st_tb_putc(&tb, '\n');
		kids[0] = st_expr_new(ST_EXPR_STR, call->pos);
		if (!kids[0] || !(kids[0]->str = st_tb_take(&tb)))
			err = ck_oom(c);
	}
	if (!err)
		err = whole_json_format(c, call, v->ctype, &f);
	if (err) {
		for (i = 0; i <= nr; i++)
			st_expr_free(kids[i]);
		free(kids);
		st_tb_free(&tb);
		return err;
	}
	/* print(whole) is the printf of its leaves from here on. */
	st_expr_free(v);
	free(call->kids);
	call->kids = kids;
	call->nr_kids = nr + 1;
	call->func = ST_FN_PRINTF;
	return ck_printf(c, call);
}
