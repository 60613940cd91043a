// SPDX-License-Identifier: MIT
/*
 * Maps: one entry per name, created by a pass over every statement before
 * the check (a clause may read a map that a later clause assigns), then
 * each use checked against it: one kind (an aggregation or a plain
 * value), one number of keys, one kind per key, one value type.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "check/check.h"

int ck_find_map(const struct st_program *prog, const char *name)
{
	uint32_t i;

	for (i = 0; i < prog->nr_maps; i++)
		if (!strcmp(prog->maps[i].name, name))
			return i;
	return -1;
}

/* How a map's kind is named in messages: "a count()" or "a value". */
static const char *kind_text(enum st_agg_kind agg, char *buf, size_t size)
{
	snprintf(buf, size, agg == ST_K_VALUE ? "a %s" : "a %s()", st_agg_name(agg));
	return buf;
}

int ck_declare(struct checker *c, struct st_stmt *s)
{
	enum st_agg_kind agg = s->kind == ST_STMT_AGG ? st_func_agg(s->call->func) : ST_K_VALUE;
	struct st_program *prog = c->prog;
	char had[32], now[32];
	struct st_map_info *m;
	int id;

	id = ck_find_map(prog, s->map);
	if (id < 0) {
		m = realloc(prog->maps, (prog->nr_maps + 1) * sizeof(*m));
		if (!m)
			return ck_oom(c);
		prog->maps = m;
		m = &prog->maps[prog->nr_maps];
		memset(m, 0, sizeof(*m));
		m->name = strdup(s->map);
		if (!m->name)
			return ck_oom(c);
		m->pos = s->map_pos;
		m->agg = agg;
		m->nr_keys = s->nr_keys;
		id = prog->nr_maps++;
	}
	m = &prog->maps[id];
	s->map_id = id;
	if (m->agg != agg)
		return ck_err(c, s->kind == ST_STMT_AGG ? s->call->pos : s->map_pos,
			      "%s is assigned %s at line %u, column %u: it cannot also be %s",
			      s->map, kind_text(m->agg, had, sizeof(had)), m->pos.line, m->pos.col,
			      kind_text(agg, now, sizeof(now)));
	if (m->nr_keys != s->nr_keys)
		return ck_err(c, s->map_pos,
			      "%s has %u key%s here but %u at line %u, column %u: a map has one "
			      "number of keys",
			      s->map, s->nr_keys, s->nr_keys == 1 ? "" : "s", m->nr_keys,
			      m->pos.line, m->pos.col);
	/* ++ and += make integers: a read before the first '=' knows its type. */
	if (s->kind == ST_STMT_ASSIGN && s->op != ST_OP_NONE && m->value_type == ST_VT_NONE)
		m->value_type = ST_VT_INT;
	return 0;
}

static int declare_all(struct checker *c, struct st_stmt *stmts, uint32_t nr)
{
	uint32_t i;
	int err = 0;

	for (i = 0; !err && i < nr; i++) {
		struct st_stmt *s = &stmts[i];

		if (s->map && (s->kind == ST_STMT_AGG || s->kind == ST_STMT_ASSIGN))
			err = ck_declare(c, s);
		if (!err && s->kind == ST_STMT_IF)
			err = declare_all(c, s->then, s->nr_then)
				      ?: declare_all(c, s->els, s->nr_els);
	}
	return err;
}

static void note_reads(struct st_program *prog, const struct st_expr *e);

/* Map element e named: read as str()'s argument (in_str), read otherwise (read), or neither. */
static void note_read(struct st_program *prog, const struct st_expr *e, bool in_str, bool read)
{
	int id = ck_find_map(prog, e->str);
	uint32_t i;

	if (id >= 0) {
		prog->maps[id].str_only |= in_str;
		prog->maps[id].read_other |= read;
	}
	for (i = 0; i < e->nr_kids; i++)
		note_reads(prog, e->kids[i]);
}

/* The maps e reads; a map an action names whole or by element is not read. */
static void note_reads(struct st_program *prog, const struct st_expr *e)
{
	enum st_fn_args args;
	uint32_t i = 0;

	if (!e)
		return;
	if (e->kind == ST_EXPR_MAP) {
		note_read(prog, e, false, true);
		return;
	}
	args = e->kind == ST_EXPR_CALL ? st_func(e->func)->args : ST_FA_NONE;
	if (e->nr_kids && e->kids[0]->kind == ST_EXPR_MAP &&
	    (args == ST_FA_STR || args == ST_FA_MAP || args == ST_FA_ELEM)) {
		note_read(prog, e->kids[0], args == ST_FA_STR, false);
		i = 1;
	}
	for (; i < e->nr_kids; i++)
		note_reads(prog, e->kids[i]);
}

/* A condition: an element tested alone (/@name[tid]/) is not read as a value. */
static void note_test(struct st_program *prog, const struct st_expr *e)
{
	if (e && e->kind == ST_EXPR_MAP)
		note_read(prog, e, false, false);
	else
		note_reads(prog, e);
}

static void note_stmt_reads(struct st_program *prog, const struct st_stmt *stmts, uint32_t nr)
{
	uint32_t i, k;

	for (i = 0; i < nr; i++) {
		for (k = 0; k < stmts[i].nr_keys; k++)
			note_reads(prog, stmts[i].keys[k]);
		note_reads(prog, stmts[i].call);
		if (stmts[i].kind == ST_STMT_IF)
			note_test(prog, stmts[i].value);
		else
			note_reads(prog, stmts[i].value);
		note_stmt_reads(prog, stmts[i].then, stmts[i].nr_then);
		note_stmt_reads(prog, stmts[i].els, stmts[i].nr_els);
	}
}

int ck_declare_maps(struct checker *c)
{
	struct st_program *prog = c->prog;
	uint32_t i;
	int err = 0;

	for (i = 0; !err && i < prog->nr_clauses; i++)
		err = declare_all(c, prog->clauses[i].stmts, prog->clauses[i].nr_stmts);
	for (i = 0; !err && i < prog->nr_clauses; i++) {
		note_test(prog, prog->clauses[i].filter);
		note_stmt_reads(prog, prog->clauses[i].stmts, prog->clauses[i].nr_stmts);
	}
	for (i = 0; i < prog->nr_maps; i++)
		prog->maps[i].str_only &= !prog->maps[i].read_other;
	return err;
}

int ck_map_ref(struct checker *c, struct st_expr *ref)
{
	struct names all = {0};
	uint32_t i;

	ref->map_id = ck_find_map(c->prog, ref->str);
	if (ref->map_id >= 0)
		return 0;
	for (i = 0; i < c->prog->nr_maps; i++)
		ck_names_add(&all, c->prog->maps[i].name, NULL);
	if (!c->prog->nr_maps)
		return ck_err(c, ref->pos, "unknown map %s: this program assigns no map", ref->str);
	return ck_err(c, ref->pos, "unknown map %s: maps of this program: %s", ref->str, all.buf);
}

/* Notes whether e, a key or value of map m, is an enum field (see st_map_info). */
static void note_enum(struct st_map_info *m, const struct st_expr *e, uint32_t bit,
		      const struct st_type **t)
{
	const struct st_type *et = st_expr_enum(e);

	if (!et)
		m->not_enum |= 1U << bit;
	else if (!*t)
		*t = et;
}

/*
 * The keys checked, a whole value's replaced by its leaves (ck_whole_key):
 * *nr becomes the number of key parts.
 */
static int check_keys(struct checker *c, struct st_map_info *m, struct st_expr ***keys,
		      uint32_t *nr)
{
	uint32_t k, user = 0, parts;
	int err = 0;

	for (k = 0; !err && k < *nr; k += parts, user++) {
		parts = 1;
		err = ck_expr_whole(c, (*keys)[k]);
		/*
		 * A dynamic field not typed yet takes the type an earlier use
		 * gave it, else it is a string; no later use changes it.
		 */
		if (!err)
			err = ck_settle_default(c, (*keys)[k], "a map key");
		if (err || (*keys)[k]->vtype != ST_VT_WHOLE)
			continue;
		/* As bpftrace: a tuple's elements are keys of their own. */
		if ((*keys)[k]->ctype->is_tuple)
			return ck_err(
				c, (*keys)[k]->pos,
				"a tuple cannot be a map key: make its elements keys of their "
				"own, @m[a, b]");
		if (k >= ST_MAX_MAP_KEYS)
			return ck_err(c, (*keys)[k]->pos, "too many keys: a map has at most %d",
				      ST_MAX_MAP_KEYS);
		if (m->key_whole[k] && m->key_whole[k] != (*keys)[k]->ctype)
			return ck_err(c, (*keys)[k]->pos,
				      "key %u of %s is %s here but %s at line %u, column %u",
				      user + 1, m->name, (*keys)[k]->ctype->name,
				      m->key_whole[k]->name, m->pos.line, m->pos.col);
		m->key_whole[k] = (*keys)[k]->ctype;
		err = ck_whole_key(c, keys, nr, k, &parts);
		m->key_parts[k] = parts;
	}
	return err;
}

int ck_map_keys(struct checker *c, int map_id, struct st_expr ***keysp, uint32_t *nr_keysp,
		struct st_pos pos)
{
	struct st_map_info *m = &c->prog->maps[map_id];
	struct st_expr **keys;
	uint32_t k, nr_keys;
	enum st_vtype kt;
	int err;

	/* Declared with the keys as written: a whole key's leaves are parts of their own. */
	err = check_keys(c, m, keysp, nr_keysp);
	if (!err && !m->keys_checked)
		m->nr_keys = *nr_keysp;
	m->keys_checked = true;
	keys = *keysp;
	nr_keys = *nr_keysp;
	if (err)
		return err;
	if (nr_keys > ST_MAX_MAP_KEYS)
		return ck_err(c, keys[ST_MAX_MAP_KEYS]->pos,
			      "too many keys: a map has at most %d (a whole key's leaves "
			      "counted one by one)",
			      ST_MAX_MAP_KEYS);
	if (nr_keys != m->nr_keys)
		return ck_err(c, pos,
			      "%s has %u key%s here but %u at line %u, column %u: a map has one "
			      "number of keys",
			      m->name, nr_keys, nr_keys == 1 ? "" : "s", m->nr_keys, m->pos.line,
			      m->pos.col);
	for (k = 0; k < nr_keys; k++) {
		kt = keys[k]->vtype;
		note_enum(m, keys[k], k, &m->key_enum[k]);
		/* ST_VT_NONE: the first use; mixed signedness reads as signed. */
		if (m->key_types[k] == ST_VT_NONE || m->key_types[k] == kt)
			m->key_types[k] = kt;
		else if (strcmp(ck_vtype_kind(kt), ck_vtype_kind(m->key_types[k])))
			return ck_err(c, keys[k]->pos,
				      "key %u of %s is %s here but %s at line %u, column %u", k + 1,
				      m->name, ck_vtype_kind(kt), ck_vtype_kind(m->key_types[k]),
				      m->pos.line, m->pos.col);
		else
			m->key_types[k] = ST_VT_INT;
	}
	return 0;
}

/* The value of an aggregation read in user space: its scalar, if it has one. */
static int agg_read_type(struct checker *c, const struct st_expr *e, const struct st_map_info *m)
{
	char kind[32];

	switch (m->agg) {
	case ST_K_COUNT:
		return ST_VT_UINT;
	case ST_K_SUM:
	case ST_K_MIN:
	case ST_K_MAX:
	case ST_K_AVG:
		return ST_VT_INT;
	default:
		return ck_err(c, e->pos, "%s is %s map: it has no single value to read; print(%s)",
			      m->name, kind_text(m->agg, kind, sizeof(kind)), m->name);
	}
}

int ck_map_read(struct checker *c, struct st_expr *e)
{
	struct st_map_info *m;
	char kind[32];
	int err;

	err = ck_map_ref(c, e);
	if (!err)
		err = ck_map_keys(c, e->map_id, &e->kids, &e->nr_kids, e->pos);
	if (err)
		return err;
	e->map_read = true;
	c->prog->maps[e->map_id].elem_used = true;
	m = &c->prog->maps[e->map_id];
	/* What the assignments so far keep it as. */
	if (st_kept_carried(m->value_kept))
		e->kept = m->value_kept;
	if (m->whole) {
		e->vtype = ST_VT_WHOLE;
		e->ctype = m->whole;
		return 0;
	}
	if (m->agg != ST_K_VALUE) {
		if (st_clause_on_sites(c->clause))
			return ck_err(c, e->pos,
				      "%s is %s map, kept per CPU: read it in BEGIN, END or "
				      "interval; per event, keep a value (@m[k] = v, @m[k]++)",
				      m->name, kind_text(m->agg, kind, sizeof(kind)));
		err = agg_read_type(c, e, m);
		if (err < 0)
			return err;
		e->vtype = err;
		return 0;
	}
	/* Read before typed, as bpftrace allows (@n = @n + 1): an integer, 0 while unset. */
	if (m->value_type == ST_VT_NONE) {
		if (!m->read_untyped)
			m->untyped_pos = e->pos;
		m->read_untyped = true;
		e->vtype = ST_VT_INT;
		return 0;
	}
	e->vtype = m->value_type;
	e->ctype = m->value_ctype;
	e->mem = m->value_mem;
	return 0;
}

int ck_maps_untyped(struct checker *c)
{
	const struct st_map_info *m;
	uint32_t i;

	for (i = 0; i < c->prog->nr_maps; i++) {
		m = &c->prog->maps[i];
		if (!m->read_untyped || m->agg != ST_K_VALUE)
			continue;
		if (m->value_type == ST_VT_STR)
			return ck_err(
				c, m->untyped_pos,
				"%s is read as an integer before its first assignment (line %u, "
				"column %u) gives it a string: put the clause that assigns it "
				"first",
				m->name, m->pos.line, m->pos.col);
		if (m->value_type == ST_VT_NONE)
			return ck_err(c, m->untyped_pos, "%s is read but never assigned", m->name);
	}
	return 0;
}

int ck_map_value(struct checker *c, struct st_stmt *s)
{
	struct st_map_info *m = &c->prog->maps[s->map_id];
	enum st_vtype vt = s->value->vtype;
	/* @a = @b keeps what @b keeps (@b = ntop(...)). */
	enum st_kept kept = s->value->kind == ST_EXPR_MAP && s->value->map_id >= 0
				    ? c->prog->maps[s->value->map_id].value_kept
				    : st_expr_kept(s->value);

	note_enum(m, s->value, ST_MAX_MAP_KEYS, &m->value_enum);
	if (s->op != ST_OP_NONE)
		m->not_enum |= 1U << ST_MAX_MAP_KEYS;
	/* A map of pointers of one type reads as that type (@sk[tid] = $sk; @sk[tid]->m). */
	if (!m->value_typed) {
		m->value_typed = true;
		m->value_ctype = s->op == ST_OP_NONE ? s->value->ctype : NULL;
		m->value_mem = s->value->mem;
		m->value_kept = s->op == ST_OP_NONE ? kept : ST_KEPT_VALUE;
	} else {
		/* Pointers of two types, or a pointer multiplied: an integer; p += n keeps p's. */
		if (s->op == ST_OP_NONE ? m->value_ctype != s->value->ctype
					: s->op != ST_OP_ADD && s->op != ST_OP_SUB)
			m->value_ctype = NULL;
		/* ntop() here, a sum there: numbers. */
		if (s->op != ST_OP_NONE || m->value_kept != kept)
			m->value_kept = ST_KEPT_VALUE;
	}
	if (m->value_type == ST_VT_NONE || m->value_type == vt)
		m->value_type = vt == ST_VT_BOOL ? ST_VT_UINT : vt;
	else if (strcmp(ck_vtype_kind(vt), ck_vtype_kind(m->value_type)))
		return ck_err(c, s->value->pos,
			      "%s holds %s (line %u, column %u): it cannot also hold %s", s->map,
			      ck_vtype_kind(m->value_type), m->pos.line, m->pos.col,
			      ck_vtype_kind(vt));
	else if (vt == ST_VT_INT)
		m->value_type = ST_VT_INT;
	return 0;
}
