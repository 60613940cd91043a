// SPDX-License-Identifier: MIT
/* Semantic checks of a sidetrace program against the SIDE events. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "lang/checker.h"
#include "discovery/discovery.h"
#include "sidetrace.h"

/* The type of a dynamic field once a use fixed it, and that use. */
struct dyn_type {
	const char *name;
	enum st_vtype vtype; /* ST_VT_INT or ST_VT_STR */
	struct st_pos pos;
	const char *why;
};

struct checker {
	struct st_program *prog;
	const struct st_event_source *src;
	struct st_diag *diag;
	struct st_clause *clause; /* being checked */
	const struct st_probe *no_args; /* a probe of it without args */
	/* Dynamic fields of the clause; reset per clause. */
	struct dyn_type *dyn;
	uint32_t nr_dyn;
};

/* refs[i].type of a dynamic field: its value carries its own type. */
static const struct st_type dynamic_type = {.label = SIDE_TYPE_DYNAMIC};

/* A bounded string builder for messages listing names. */
struct names {
	char buf[320];
	size_t len;
	unsigned int n;
};

static const char agg_forms[] =
	"count(), sum(v), avg(v), min(v), max(v), stats(v), hist(v) or lhist(v, min, max, step)";

static int __attribute__((format(printf, 3, 4)))
cerr(struct checker *c, struct st_pos pos, const char *fmt, ...)
{
	char msg[sizeof(c->diag->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	st_diag_set(c->diag, c->prog->filename, pos, "%s", msg);
	return -EINVAL;
}

static int oom(struct checker *c)
{
	st_diag_set(c->diag, c->prog->filename, (struct st_pos){0}, "out of memory");
	return -ENOMEM;
}

static void names_add(struct names *l, const char *a, const char *b)
{
	size_t room = sizeof(l->buf) - l->len;
	int n;

	if (room <= 5)
		return;
	n = snprintf(l->buf + l->len, room, "%s%s%s%s", l->n ? ", " : "", a, b ? ":" : "",
		     b ? b : "");
	/* Cut cleanly when the list does not fit. */
	if ((size_t)n >= room)
		strcpy(l->buf + sizeof(l->buf) - 5, "...");
	l->len = strlen(l->buf);
	l->n++;
}

/* Levenshtein distance, for "did you mean" suggestions. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, prev, tmp, best;
	size_t *row = calloc(lb + 1, sizeof(*row));

	/* Without memory there is no suggestion: report them all as far. */
	if (!row)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

/* Close enough to be a typo: a third of the length, at least 2 edits. */
static bool is_near(const char *want, const char *have)
{
	size_t limit = strlen(want) / 3 > 2 ? strlen(want) / 3 : 2;

	return edit_distance(want, have) <= limit;
}

static const char *probe_kind_name(const struct st_probe *p)
{
	switch (p->kind) {
	case ST_PROBE_BEGIN:
		return "BEGIN";
	case ST_PROBE_END:
		return "END";
	default:
		return "interval";
	}
}

/* ---- probes ---- */

static int add_event(const struct st_event ***arr, uint32_t *nr, const struct st_event *ev)
{
	const struct st_event **n;
	uint32_t i;

	for (i = 0; i < *nr; i++)
		if ((*arr)[i] == ev)
			return 0;
	n = realloc(*arr, (*nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	n[(*nr)++] = ev;
	*arr = n;
	return 0;
}

static int no_match(struct checker *c, const struct st_probe *p, const struct st_event_list *l)
{
	struct names all = {0}, near = {0};
	char want[512], have[512];
	size_t i;

	snprintf(want, sizeof(want), "%s:%s", p->provider, p->event);
	for (i = 0; i < l->nr; i++) {
		names_add(&all, l->events[i].provider, l->events[i].name);
		snprintf(have, sizeof(have), "%s:%s", l->events[i].provider, l->events[i].name);
		if (is_near(want, have))
			names_add(&near, have, NULL);
	}
	if (!l->nr)
		cerr(c, p->target_pos, "%s has no SIDE event", p->target);
	else if (strchr(want, '*'))
		cerr(c, p->provider_pos, "no event of %s matches %s", p->target, want);
	else
		cerr(c, p->provider_pos, "unknown event %s in %s", want, p->target);
	if (near.n)
		st_diag_hint(c->diag, "did you mean %s?", near.buf);
	else if (l->nr)
		st_diag_hint(c->diag, "events of %s: %s", p->target, all.buf);
	return -EINVAL;
}

static int check_side_probe(struct checker *c, struct st_probe *p)
{
	const struct st_event_list *l;
	char why[256] = "";
	size_t i;

	l = c->src->target_events(c->src->ctx, p->target, why, sizeof(why));
	if (!l)
		return cerr(c, p->target_pos, "cannot read the events of %s: %s", p->target,
			    why[0] ? why : "unknown error");
	for (i = 0; i < l->nr; i++) {
		if (!st_event_match(&l->events[i], p->provider, p->event))
			continue;
		if (add_event(&p->events, &p->nr_events, &l->events[i]) ||
		    add_event(&c->clause->events, &c->clause->nr_events, &l->events[i]))
			return oom(c);
	}
	if (!p->nr_events)
		return no_match(c, p, l);
	return 0;
}

/* ---- field paths ---- */

#define READABLE \
	"readable: integers, bool, byte, pointer, enum, UTF-8 strings, and the members and " \
	"elements of structs, arrays and vlas"

static bool is_struct(const struct st_type *t)
{
	return st_side_type(t->label)->type_class == ST_TC_STRUCT;
}

static bool is_array(const struct st_type *t)
{
	return st_side_type(t->label)->type_class == ST_TC_ARRAY;
}

/* A struct or array the kernel side cannot walk into: say why. */
static int unwalkable(struct checker *c, const struct st_path_seg *seg, const char *where,
		      const struct st_type *t)
{
	cerr(c, seg->pos, "%s has type %s, which sidetrace cannot read yet: %s", where,
	     st_type_name(t), st_side_type(t->label)->unreadable);
	st_diag_hint(c->diag, "%s", READABLE);
	return -EINVAL;
}

/* "args.a.b[2]" up to (excluding) segment n, for messages. */
static void path_text(const struct st_expr *e, uint32_t n, char *buf, size_t size)
{
	size_t len;
	uint32_t i;

	snprintf(buf, size, "args");
	for (i = 0; i < n && i < e->nr_path; i++) {
		len = strlen(buf);
		if (e->path[i].kind == ST_SEG_NAME)
			snprintf(buf + len, size - len, ".%s", e->path[i].name);
		else
			snprintf(buf + len, size - len, "[%llu]",
				 (unsigned long long)e->path[i].index);
	}
}

static int unknown_field(struct checker *c, const struct st_expr *e, uint32_t seg,
			 const struct st_event *ev, const struct st_field *fields, uint32_t nr)
{
	struct names all = {0}, near = {0};
	const char *name = e->path[seg].name;
	char where[256];
	uint32_t i;

	for (i = 0; i < nr; i++) {
		names_add(&all, fields[i].name, NULL);
		if (is_near(name, fields[i].name))
			names_add(&near, fields[i].name, NULL);
	}
	if (seg == 0) {
		cerr(c, e->path[seg].pos, "event %s:%s has no field '%s'; %s%s", ev->provider,
		     ev->name, name, nr ? "its fields: " : "it has no fields", all.buf);
	} else {
		path_text(e, seg, where, sizeof(where));
		cerr(c, e->path[seg].pos, "struct %s has no member '%s'; its members: %s", where,
		     name, all.buf);
	}
	if (near.n)
		st_diag_hint(c->diag, "did you mean %s?", near.buf);
	else if (c->clause->nr_events > 1)
		st_diag_hint(c->diag,
			     "this clause matches %u events: a field must exist in each of them",
			     c->clause->nr_events);
	return -EINVAL;
}

static int push_idx(struct checker *c, struct st_field_ref *ref, uint32_t v)
{
	uint32_t *n = realloc(ref->idx, (ref->nr_idx + 1) * sizeof(*n));

	if (!n)
		return oom(c);
	n[ref->nr_idx++] = v;
	ref->idx = n;
	return 0;
}

static int find_field(const struct st_field *fields, uint32_t nr, const char *name)
{
	uint32_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(fields[i].name, name))
			return i;
	return -1;
}

/* Walks e->path in one event; fills ref with the index path and leaf type. */
static int resolve_path(struct checker *c, const struct st_expr *e, const struct st_event *ev,
			struct st_field_ref *ref)
{
	const struct st_path_seg *seg;
	const struct st_type *t = NULL;
	char where[256];
	uint32_t i, idx;
	int f;

	ref->event = ev;
	/* The parser makes the first segment a name. */
	for (i = 0; i < e->nr_path; i++) {
		seg = &e->path[i];
		path_text(e, i, where, sizeof(where));
		if (i == 0) {
			f = find_field(ev->fields, ev->nr_fields, seg->name);
			if (f < 0)
				return unknown_field(c, e, i, ev, ev->fields, ev->nr_fields);
			idx = f;
			t = &ev->fields[idx].type;
		} else if (seg->kind == ST_SEG_NAME) {
			if (!is_struct(t))
				return cerr(c, seg->pos,
					    "%s is not a struct (it is %s): '.' applies to struct "
					    "fields",
					    where, st_type_name(t));
			if (st_side_type(t->label)->unreadable)
				return unwalkable(c, seg, where, t);
			f = find_field(t->fields, t->nr_fields, seg->name);
			if (f < 0)
				return unknown_field(c, e, i, ev, t->fields, t->nr_fields);
			idx = f;
			t = &t->fields[idx].type;
		} else {
			if (!is_array(t))
				return cerr(c, seg->pos,
					    "%s is not an array (it is %s): [i] applies to array "
					    "and vla fields",
					    where, st_type_name(t));
			if (st_side_type(t->label)->unreadable)
				return unwalkable(c, seg, where, t);
			if ((t->label == SIDE_TYPE_ARRAY || t->label == SIDE_TYPE_GATHER_ARRAY) &&
			    seg->index >= t->array_len)
				return cerr(
					c, seg->pos,
					"index %llu is out of bounds: %s has %u elements (0 to %u)",
					(unsigned long long)seg->index, where, t->array_len,
					t->array_len - 1);
			if (seg->index > UINT32_MAX)
				return cerr(c, seg->pos, "index %llu is out of range: at most %u",
					    (unsigned long long)seg->index, UINT32_MAX);
			idx = seg->index;
			t = t->elem;
		}
		if (push_idx(c, ref, idx))
			return -ENOMEM;
	}
	ref->type = t;
	return 0;
}

/*
 * The value type of a SIDE leaf type, or an error saying why it is none:
 * the type table (common/side_types.h) says what the kernel side reads.
 */
static int leaf_vtype(struct checker *c, const struct st_expr *e, const struct st_type *t,
		      enum st_vtype *vt)
{
	const struct st_side_type *info = st_side_type(t->label);
	char where[256];

	path_text(e, e->nr_path, where, sizeof(where));
	if (info->unreadable) {
		cerr(c, e->pos, "%s has type %s, which sidetrace cannot read yet: %s", where,
		     st_type_name(t), info->unreadable);
		st_diag_hint(c->diag, "%s", READABLE);
		return -EINVAL;
	}
	if (info->type_class == ST_TC_STRUCT)
		return cerr(c, e->pos, "%s is a struct: use one of its members, %s.MEMBER", where,
			    where);
	if (info->type_class == ST_TC_ARRAY)
		return cerr(c, e->pos, "%s is an array (%s): use an element, %s[INDEX]", where,
			    st_type_name(t), where);
	switch (info->type_class) {
	case ST_TC_BOOL:
		*vt = ST_VT_BOOL;
		return 0;
	case ST_TC_INT:
		*vt = info->is_signed ? ST_VT_INT : ST_VT_UINT;
		return 0;
	case ST_TC_STRING:
		*vt = ST_VT_STR;
		return 0;
	case ST_TC_ENUM:
		/* An enum reads as its underlying integer. */
		if (t->elem && st_side_type(t->elem->label)->type_class == ST_TC_INT)
			return leaf_vtype(c, e, t->elem, vt);
		return cerr(c, e->pos, "%s is an enum without an integer type to read", where);
	default:
		return cerr(c, e->pos, "%s has type %s, which has no value to read", where,
			    st_type_name(t));
	}
}

static bool is_int(enum st_vtype t)
{
	return t == ST_VT_INT || t == ST_VT_UINT || t == ST_VT_BOOL;
}

static const char *vtype_kind(enum st_vtype t)
{
	return t == ST_VT_STR ? "a string" : "an integer";
}

/*
 * args.NAME in a variadic event without a static field NAME: a dynamic
 * field, looked up by name at run time. A dynamic value may be a struct or
 * an array, but the BPF side reads basic values only.
 */
static int dynamic_ref(struct checker *c, const struct st_expr *e, const struct st_event *ev,
		       struct st_field_ref *ref)
{
	const struct st_path_seg *seg = &e->path[0];

	if (strlen(seg->name) > ST_NAME_LEN - 1)
		return cerr(c, seg->pos,
			    "dynamic field name '%s' is longer than %d bytes, the most sidetrace "
			    "looks up",
			    seg->name, ST_NAME_LEN - 1);
	if (e->nr_path > 1)
		return cerr(c, e->path[1].pos,
			    "args.%s is a dynamic field of variadic event %s:%s: only its value, "
			    "an integer or a string, can be read, not %s",
			    seg->name, ev->provider, ev->name,
			    e->path[1].kind == ST_SEG_NAME ? "a member" : "an element");
	ref->event = ev;
	ref->type = &dynamic_type;
	return 0;
}

static struct dyn_type *dyn_find(struct checker *c, const char *name)
{
	uint32_t i;

	for (i = 0; i < c->nr_dyn; i++)
		if (!strcmp(c->dyn[i].name, name))
			return &c->dyn[i];
	return NULL;
}

/*
 * Fixes the type of dynamic field e to vt (ST_VT_INT or ST_VT_STR): the
 * first use of a name in a clause decides, and a later use that needs the
 * other type is an error rather than a run-time decode error per event.
 */
static int dyn_fix(struct checker *c, struct st_expr *e, enum st_vtype vt, const char *why)
{
	const char *name = e->path[0].name;
	struct dyn_type *d = dyn_find(c, name);

	if (d && d->vtype != vt) {
		cerr(c, e->pos,
		     "args.%s is read as %s here (%s) but as %s at line %u, column %u (%s): a "
		     "dynamic field has one type in a clause",
		     name, vtype_kind(vt), why, vtype_kind(d->vtype), d->pos.line, d->pos.col,
		     d->why);
		st_diag_hint(c->diag,
			     "the first use in the clause that needs a type decides (the filter, "
			     "then statements left to right); args.%s + 0 reads an integer",
			     name);
		return -EINVAL;
	}
	if (!d) {
		d = realloc(c->dyn, (c->nr_dyn + 1) * sizeof(*d));
		if (!d)
			return oom(c);
		c->dyn = d;
		c->dyn[c->nr_dyn++] = (struct dyn_type){name, vt, e->pos, why};
	}
	if (e->vtype == ST_VT_NONE)
		e->vtype = vt;
	return 0;
}

/* Types e from its use if it is a dynamic field not typed yet. */
static int settle(struct checker *c, struct st_expr *e, enum st_vtype vt, const char *why)
{
	if (e->vtype != ST_VT_NONE)
		return 0;
	return dyn_fix(c, e, vt, why);
}

/*
 * A use that says nothing about the type (a map key, a comparison of two
 * dynamic fields): an earlier use in the clause decides, else a string.
 */
static int settle_default(struct checker *c, struct st_expr *e, const char *why)
{
	const struct dyn_type *d;

	if (e->vtype != ST_VT_NONE)
		return 0;
	d = dyn_find(c, e->path[0].name);
	return dyn_fix(c, e, d ? d->vtype : ST_VT_STR, why);
}

/*
 * Resolves args.PATH in every event of the clause. A dynamic field's type
 * is not in the event: its vtype stays ST_VT_NONE for the expression that
 * uses it to decide (settle()), unless the name is a static field in
 * another event of the clause, whose type then decides.
 */
static int check_field(struct checker *c, struct st_expr *e)
{
	struct st_clause *cl = c->clause;
	const struct st_event *ev, *first = NULL;
	enum st_vtype vt = ST_VT_NONE;
	bool dynamic = false;
	char where[256];
	uint32_t i;
	int err;

	if (c->no_args)
		return cerr(c, e->pos, "args is not available in %s: only side: probes have args",
			    probe_kind_name(c->no_args));
	e->refs = calloc(cl->nr_events, sizeof(*e->refs));
	if (!e->refs)
		return oom(c);
	e->nr_refs = cl->nr_events;
	for (i = 0; i < cl->nr_events; i++) {
		ev = cl->events[i];
		if (!ev->has_side)
			return cerr(c, e->pos,
				    "event %s:%s is a plain USDT probe with no SIDE description: "
				    "it has no args",
				    ev->provider, ev->name);
		if (ev->variadic && find_field(ev->fields, ev->nr_fields, e->path[0].name) < 0) {
			err = dynamic_ref(c, e, ev, &e->refs[i]);
			if (err)
				return err;
			dynamic = true;
			continue;
		}
		err = resolve_path(c, e, ev, &e->refs[i]);
		if (!err)
			err = leaf_vtype(c, e, e->refs[i].type, &vt);
		if (err)
			return err;
		if (first && (vt == ST_VT_STR) != (e->vtype == ST_VT_STR)) {
			path_text(e, e->nr_path, where, sizeof(where));
			return cerr(c, e->pos,
				    "%s is %s in %s:%s but %s in %s:%s: a field must have the same "
				    "kind of type in every event of the clause",
				    where, vtype_kind(vt), ev->provider, ev->name,
				    vtype_kind(e->vtype), first->provider, first->name);
		}
		/* Integers of mixed signedness read as signed. */
		e->vtype = !first || vt == e->vtype ? vt : ST_VT_INT;
		if (!first)
			first = ev;
	}
	if (dynamic && first)
		return dyn_fix(c, e, e->vtype == ST_VT_STR ? ST_VT_STR : ST_VT_INT,
			       "a static field of another event of the clause");
	return 0;
}

/* ---- expressions ---- */

static int check_expr(struct checker *c, struct st_expr *e);

/* How an expression is named in messages. */
static void expr_text(const struct st_expr *e, char *buf, size_t size)
{
	switch (e->kind) {
	case ST_EXPR_FIELD:
		path_text(e, e->nr_path, buf, size);
		break;
	case ST_EXPR_BUILTIN:
		snprintf(buf, size, "%s", st_builtin_name(e->builtin));
		break;
	case ST_EXPR_STR:
		snprintf(buf, size, "\"%s\"", e->str);
		break;
	default:
		snprintf(buf, size, "the operand");
		break;
	}
}

static int check_unary(struct checker *c, struct st_expr *e)
{
	struct st_expr *x = e->kids[0];
	char what[256];
	int err;

	err = check_expr(c, x);
	if (!err)
		err = settle(c, x, ST_VT_INT, "used as a number");
	if (err)
		return err;
	if (!is_int(x->vtype)) {
		expr_text(x, what, sizeof(what));
		return cerr(c, e->pos, "'%s' needs an integer, but %s is a string",
			    st_op_name(e->op), what);
	}
	if (e->op == ST_OP_NOT)
		e->vtype = ST_VT_BOOL;
	else if (e->op == ST_OP_BNOT && x->vtype != ST_VT_INT)
		e->vtype = ST_VT_UINT;
	else
		e->vtype = ST_VT_INT;
	return 0;
}

/*
 * Dynamic operands take their type from the operator: == and != from the
 * other operand (a string when both are dynamic, see settle_default()),
 * every other operator needs integers.
 */
static int settle_operands(struct checker *c, struct st_expr *e)
{
	struct st_expr *l = e->kids[0], *r = e->kids[1];
	int err;

	if (e->op != ST_OP_EQ && e->op != ST_OP_NE) {
		err = settle(c, l, ST_VT_INT, "used as a number");
		return err ? err : settle(c, r, ST_VT_INT, "used as a number");
	}
	if (l->vtype == ST_VT_NONE && r->vtype == ST_VT_NONE) {
		err = settle_default(c, l, "compared with a dynamic field");
		if (err)
			return err;
	}
	if (l->vtype == ST_VT_NONE)
		return settle(c, l, r->vtype == ST_VT_STR ? ST_VT_STR : ST_VT_INT,
			      r->vtype == ST_VT_STR ? "compared with a string"
						    : "compared with an integer");
	return settle(c, r, l->vtype == ST_VT_STR ? ST_VT_STR : ST_VT_INT,
		      l->vtype == ST_VT_STR ? "compared with a string"
					    : "compared with an integer");
}

static int check_binary(struct checker *c, struct st_expr *e)
{
	struct st_expr *l = e->kids[0], *r = e->kids[1];
	bool lstr, rstr;
	char what[256];
	int err;

	err = check_expr(c, l);
	if (!err)
		err = check_expr(c, r);
	if (!err)
		err = settle_operands(c, e);
	if (err)
		return err;
	lstr = l->vtype == ST_VT_STR;
	rstr = r->vtype == ST_VT_STR;
	switch (e->op) {
	case ST_OP_EQ:
	case ST_OP_NE:
		if (lstr != rstr)
			return cerr(c, e->pos,
				    "cannot compare a string with an integer: '%s' needs two "
				    "strings or two integers",
				    st_op_name(e->op));
		e->vtype = ST_VT_BOOL;
		return 0;
	case ST_OP_LT:
	case ST_OP_LE:
	case ST_OP_GT:
	case ST_OP_GE:
		if (lstr || rstr)
			return cerr(c, e->pos,
				    "'%s' compares integers: strings can only be compared with == "
				    "and !=",
				    st_op_name(e->op));
		e->vtype = ST_VT_BOOL;
		return 0;
	default:
		break;
	}
	if (lstr || rstr) {
		expr_text(lstr ? l : r, what, sizeof(what));
		return cerr(c, e->pos,
			    "arithmetic on a string: '%s' needs integers, but %s is a string",
			    st_op_name(e->op), what);
	}
	if (e->op == ST_OP_LAND || e->op == ST_OP_LOR)
		e->vtype = ST_VT_BOOL;
	else if (l->vtype != ST_VT_INT && r->vtype != ST_VT_INT)
		e->vtype = ST_VT_UINT;
	else
		e->vtype = ST_VT_INT;
	return 0;
}

static int check_expr(struct checker *c, struct st_expr *e)
{
	switch (e->kind) {
	case ST_EXPR_INT:
		e->vtype = e->is_unsigned ? ST_VT_UINT : ST_VT_INT;
		return 0;
	case ST_EXPR_STR:
		e->vtype = ST_VT_STR;
		return 0;
	case ST_EXPR_BUILTIN:
		e->vtype = e->builtin == ST_BUILTIN_COMM || e->builtin == ST_BUILTIN_PROBE
				   ? ST_VT_STR
				   : ST_VT_UINT;
		return 0;
	case ST_EXPR_FIELD:
		return check_field(c, e);
	case ST_EXPR_UNARY:
		return check_unary(c, e);
	case ST_EXPR_BINARY:
		return check_binary(c, e);
	case ST_EXPR_MAP:
		return cerr(c, e->pos,
			    "maps cannot be read in expressions: print(%s) prints the map", e->str);
	default:
		return cerr(c, e->pos,
			    "%s() is not a value: aggregations are assigned to maps (@m = count()) "
			    "and actions are statements",
			    e->str);
	}
}

/* An integer value: an aggregation argument, a filter. */
static int check_int(struct checker *c, struct st_expr *e, const char *role)
{
	char what[256];
	int err;

	err = check_expr(c, e);
	if (!err)
		err = settle(c, e, ST_VT_INT, "used as a number");
	if (err || is_int(e->vtype))
		return err;
	expr_text(e, what, sizeof(what));
	return cerr(c, e->pos, "%s needs an integer value, but %s is a string", role, what);
}

/* ---- maps and statements ---- */

/* An integer constant, possibly negated: lhist() bounds. */
static bool const_int(const struct st_expr *e, int64_t *v)
{
	if (e->kind == ST_EXPR_UNARY && e->op == ST_OP_NEG && const_int(e->kids[0], v)) {
		*v = -*v;
		return true;
	}
	if (e->kind != ST_EXPR_INT || e->is_unsigned)
		return false;
	*v = (int64_t)e->uval;
	return true;
}

static int check_lhist(struct checker *c, struct st_expr *call, int64_t lh[3])
{
	static const char *const roles[] = {"min", "max", "step"};
	int i, err;

	for (i = 0; i < 3; i++) {
		err = check_expr(c, call->kids[i + 1]);
		if (err)
			return err;
		if (!const_int(call->kids[i + 1], &lh[i]))
			return cerr(
				c, call->kids[i + 1]->pos,
				"lhist() %s must be an integer constant: lhist(v, min, max, step)",
				roles[i]);
	}
	if (lh[0] < 0)
		return cerr(c, call->kids[1]->pos,
			    "lhist() min must be non-negative (provided min %lld)",
			    (long long)lh[0]);
	if (lh[1] <= lh[0])
		return cerr(c, call->kids[2]->pos,
			    "lhist() min must be less than max (provided min %lld and max %lld)",
			    (long long)lh[0], (long long)lh[1]);
	if (lh[2] < 1)
		return cerr(c, call->kids[3]->pos, "lhist() step must be >= 1 (%lld provided)",
			    (long long)lh[2]);
	if (lh[2] > lh[1] - lh[0])
		return cerr(c, call->kids[3]->pos,
			    "lhist() step is too large for the given range (provided step %lld for "
			    "range %lld)",
			    (long long)lh[2], (long long)(lh[1] - lh[0]));
	if ((lh[1] - lh[0]) / lh[2] > ST_LHIST_MAX_BUCKETS)
		return cerr(c, call->pos,
			    "lhist() too many buckets, must be <= %d (would need %lld)",
			    ST_LHIST_MAX_BUCKETS, (long long)((lh[1] - lh[0]) / lh[2]));
	return 0;
}

/* Arity and argument types of an aggregation; lh gets lhist() bounds. */
static int check_agg_call(struct checker *c, struct st_expr *call, int64_t lh[3])
{
	const char *fn = st_func_name(call->func);
	char role[32];
	int err;

	if (call->func > ST_FN_LHIST)
		return cerr(c, call->pos, "%s() is not an aggregation: a map is assigned %s", fn,
			    agg_forms);
	if (call->func == ST_FN_COUNT) {
		if (call->nr_kids)
			return cerr(c, call->kids[0]->pos, "count() takes no argument");
		return 0;
	}
	if (call->func == ST_FN_LHIST && call->nr_kids != 4)
		return cerr(c, call->pos, "lhist() takes 4 arguments: lhist(v, min, max, step)");
	if (call->func != ST_FN_LHIST && call->nr_kids != 1)
		return cerr(c, call->pos, "%s() takes one value: %s(v)", fn, fn);
	snprintf(role, sizeof(role), "%s()", fn);
	err = check_int(c, call->kids[0], role);
	if (err)
		return err;
	if (call->func == ST_FN_LHIST)
		return check_lhist(c, call, lh);
	return 0;
}

/* The map's entry in prog->maps, created on first use. */
static int map_entry(struct checker *c, struct st_stmt *s, bool *created)
{
	struct st_program *prog = c->prog;
	struct st_map_info *m;
	uint32_t i;

	*created = false;
	for (i = 0; i < prog->nr_maps; i++)
		if (!strcmp(prog->maps[i].name, s->map))
			return i;
	m = realloc(prog->maps, (prog->nr_maps + 1) * sizeof(*m));
	if (!m)
		return oom(c);
	prog->maps = m;
	m = &prog->maps[prog->nr_maps];
	memset(m, 0, sizeof(*m));
	m->name = strdup(s->map);
	if (!m->name)
		return oom(c);
	*created = true;
	return prog->nr_maps++;
}

/* Key k of a map has one kind everywhere; mixed signedness reads as signed. */
static int map_key_type(struct checker *c, const struct st_stmt *s, uint32_t k)
{
	struct st_map_info *m = &c->prog->maps[s->map_id];
	enum st_vtype kt = s->keys[k]->vtype;

	/* ST_VT_NONE: new, or so far only keyed by a dynamic field not yet typed. */
	if (m->key_types[k] == ST_VT_NONE || m->key_types[k] == kt)
		m->key_types[k] = kt;
	else if ((kt == ST_VT_STR) != (m->key_types[k] == ST_VT_STR))
		return cerr(c, s->keys[k]->pos,
			    "key %u of %s is %s here but %s at line %u, column %u", k + 1, s->map,
			    vtype_kind(kt), vtype_kind(m->key_types[k]), m->pos.line, m->pos.col);
	else
		m->key_types[k] = ST_VT_INT;
	return 0;
}

/* The same map everywhere: one aggregation, key count, key kinds, bounds. */
static int check_map_use(struct checker *c, struct st_stmt *s, const int64_t lh[3])
{
	enum st_agg_kind agg = st_func_agg(s->call->func);
	struct st_map_info *m;
	bool created;
	uint32_t k;
	int id, err;

	id = map_entry(c, s, &created);
	if (id < 0)
		return id;
	s->map_id = id;
	m = &c->prog->maps[id];
	if (created) {
		m->pos = s->map_pos;
		m->agg = agg;
		m->nr_keys = s->nr_keys;
		m->lhist_min = lh[0];
		m->lhist_max = lh[1];
		m->lhist_step = lh[2];
	} else if (m->agg != agg) {
		return cerr(c, s->call->pos,
			    "%s is a %s() map (line %u, column %u): it cannot also be %s()", s->map,
			    st_func_name((enum st_func)m->agg), m->pos.line, m->pos.col,
			    st_func_name(s->call->func));
	} else if (m->nr_keys != s->nr_keys) {
		return cerr(c, s->map_pos,
			    "%s has %u key%s here but %u at line %u, column %u: a map has one "
			    "number of keys",
			    s->map, s->nr_keys, s->nr_keys == 1 ? "" : "s", m->nr_keys, m->pos.line,
			    m->pos.col);
	} else if (agg == ST_K_LHIST &&
		   (m->lhist_min != lh[0] || m->lhist_max != lh[1] || m->lhist_step != lh[2])) {
		return cerr(c, s->call->pos,
			    "lhist() bounds of %s differ from those at line %u, column %u: a map "
			    "has one set of buckets",
			    s->map, m->pos.line, m->pos.col);
	}
	/* A key that is a dynamic field not yet typed waits for check_clause(). */
	for (k = 0; k < s->nr_keys; k++) {
		err = s->keys[k]->vtype == ST_VT_NONE ? 0 : map_key_type(c, s, k);
		if (err)
			return err;
	}
	if (agg != ST_K_COUNT && s->call->kids[0]->vtype == ST_VT_INT)
		m->value_signed = true;
	return 0;
}

static int check_agg_stmt(struct checker *c, struct st_stmt *s)
{
	int64_t lh[3] = {0};
	uint32_t k;
	int err;

	if (s->nr_keys > ST_MAX_MAP_KEYS)
		return cerr(c, s->keys[ST_MAX_MAP_KEYS]->pos, "too many keys: a map has at most %d",
			    ST_MAX_MAP_KEYS);
	for (k = 0; k < s->nr_keys; k++) {
		err = check_expr(c, s->keys[k]);
		if (err)
			return err;
	}
	err = check_agg_call(c, s->call, lh);
	if (err)
		return err;
	return check_map_use(c, s, lh);
}

static int check_action(struct checker *c, struct st_stmt *s)
{
	struct st_expr *call = s->call;
	const char *fn = st_func_name(call->func);

	switch (call->func) {
	case ST_FN_PRINTF:
		cerr(c, call->pos, "printf is not supported yet");
		st_diag_hint(c->diag,
			     "aggregate into a map instead, e.g. @m[args.FIELD] = count()");
		return -EINVAL;
	case ST_FN_EXIT:
		if (call->nr_kids)
			return cerr(c, call->kids[0]->pos, "exit() takes no argument");
		return 0;
	case ST_FN_PRINT:
	case ST_FN_CLEAR:
	case ST_FN_ZERO:
		/* The map itself is looked up once every map is known. */
		if (call->nr_kids != 1 || call->kids[0]->kind != ST_EXPR_MAP)
			return cerr(c, call->nr_kids ? call->kids[0]->pos : call->pos,
				    "%s() takes a map: %s(@name)", fn, fn);
		return 0;
	default:
		return cerr(c, call->pos, "%s() must be assigned to a map: @name = %s(...)", fn,
			    fn);
	}
}

/*
 * Map keys that are dynamic fields not typed by any use in the clause: a
 * key says nothing of its type, so a later use in the clause may still
 * make it an integer; failing that it is a string.
 */
static int settle_keys(struct checker *c, struct st_clause *cl)
{
	struct st_stmt *s;
	uint32_t i, k;
	int err = 0;

	for (i = 0; !err && i < cl->nr_stmts; i++) {
		s = &cl->stmts[i];
		for (k = 0; !err && s->kind == ST_STMT_AGG && k < s->nr_keys; k++) {
			if (s->keys[k]->vtype != ST_VT_NONE)
				continue;
			err = settle_default(c, s->keys[k], "a map key");
			if (!err)
				err = map_key_type(c, s, k);
		}
	}
	return err;
}

static int check_clause(struct checker *c, struct st_clause *cl)
{
	uint32_t i;
	int err = 0;

	c->clause = cl;
	c->no_args = NULL;
	c->nr_dyn = 0;
	for (i = 0; !err && i < cl->nr_probes; i++) {
		if (cl->probes[i].kind == ST_PROBE_SIDE)
			err = check_side_probe(c, &cl->probes[i]);
		else if (!c->no_args)
			c->no_args = &cl->probes[i];
	}
	if (!err && cl->filter)
		err = check_int(c, cl->filter, "the filter");
	for (i = 0; !err && i < cl->nr_stmts; i++) {
		if (cl->stmts[i].kind == ST_STMT_AGG)
			err = check_agg_stmt(c, &cl->stmts[i]);
		else
			err = check_action(c, &cl->stmts[i]);
	}
	return err ? err : settle_keys(c, cl);
}

/* print/clear/zero may name a map assigned anywhere, even further down. */
static int resolve_map_ref(struct checker *c, struct st_expr *ref)
{
	struct names all = {0};
	uint32_t i;

	for (i = 0; i < c->prog->nr_maps; i++) {
		if (!strcmp(c->prog->maps[i].name, ref->str)) {
			ref->map_id = i;
			return 0;
		}
		names_add(&all, c->prog->maps[i].name, NULL);
	}
	if (!c->prog->nr_maps)
		return cerr(c, ref->pos, "unknown map %s: this program assigns no map", ref->str);
	return cerr(c, ref->pos, "unknown map %s: maps of this program: %s", ref->str, all.buf);
}

int st_check(struct st_program *prog, const struct st_event_source *src, struct st_diag *diag)
{
	struct checker c = {.prog = prog, .src = src, .diag = diag};
	struct st_stmt *s;
	uint32_t i, j;
	int err = 0;

	memset(diag, 0, sizeof(*diag));
	for (i = 0; !err && i < prog->nr_clauses; i++)
		err = check_clause(&c, &prog->clauses[i]);
	for (i = 0; !err && i < prog->nr_clauses; i++) {
		for (j = 0; !err && j < prog->clauses[i].nr_stmts; j++) {
			s = &prog->clauses[i].stmts[j];
			if (s->kind == ST_STMT_CALL && s->call->nr_kids == 1 &&
			    s->call->kids[0]->kind == ST_EXPR_MAP)
				err = resolve_map_ref(&c, s->call->kids[0]);
		}
	}
	free(c.dyn);
	return err;
}
