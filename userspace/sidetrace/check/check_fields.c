// SPDX-License-Identifier: MIT
/*
 * args.* paths: resolved in every event of a clause, typed by the SIDE type table;
 * dynamic fields of variadic events typed from their uses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "events/events.h"
#include "check/check.h"

/* refs[i].type of a dynamic field: its value carries its own type. */
static const struct st_type dynamic_type = {.label = SIDE_TYPE_DYNAMIC};

#define READABLE \
	"readable: integers, bool, byte, pointer, enum, UTF-8 strings, 32- and 64-bit floats " \
	"(printed), and the members and elements of structs, arrays and vlas"

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
	ck_err(c, seg->pos, "%s has type %s, which sidetrace cannot read yet: %s", where,
	       st_type_name(t), st_side_type(t->label)->unreadable);
	st_diag_hint(c->diag, "%s", READABLE);
	return -EINVAL;
}

/* "args.a.b[2]" up to (excluding) segment n, for messages. */
void ck_path_text(const struct st_expr *e, uint32_t n, char *buf, size_t size)
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
	const struct st_probe_kind *k = st_event_kind(ev);
	char ctx[128];
	uint32_t i;

	for (i = 0; i < nr; i++) {
		ck_names_add(&all, fields[i].name, NULL);
		if (ck_is_near(name, fields[i].name))
			ck_names_add(&near, fields[i].name, NULL);
	}
	if (seg == 0 && k->args == ST_ARGS_NONE) {
		ck_err(c, e->path[seg].pos, "%s: probes have no args%s%s", k->name,
		       k->ctx_ctype ? "; ctx points to their context, " : "",
		       ck_ctx_ctype(ev, ctx, sizeof(ctx)) ?: "");
	} else if (seg == 0 && st_probe_kind_function(k)) {
		ck_err(c, e->path[seg].pos, "function %s has no parameter '%s'%s%s", ev->name, name,
		       ev->error ? ": " : "; it has: ", ev->error ? ev->error : all.buf);
	} else if (seg == 0) {
		ck_err(c, e->path[seg].pos, "event %s:%s has no field '%s'; %s%s", ev->provider,
		       ev->name, name, nr ? "its fields: " : "it has no fields", all.buf);
	} else {
		ck_path_text(e, seg, where, sizeof(where));
		ck_err(c, e->path[seg].pos, "struct %s has no member '%s'; its members: %s", where,
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
		return ck_oom(c);
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
		ck_path_text(e, i, where, sizeof(where));
		if (i == 0) {
			f = find_field(ev->fields, ev->nr_fields, seg->name);
			if (f < 0)
				return unknown_field(c, e, i, ev, ev->fields, ev->nr_fields);
			idx = f;
			t = &ev->fields[idx].type;
		} else if (seg->kind == ST_SEG_NAME) {
			/* A function's pointer to a struct (DWARF): args.r->id, args.r.id alike. */
			if (t->label == SIDE_TYPE_POINTER && t->elem && is_struct(t->elem))
				t = t->elem;
			if (!is_struct(t))
				return ck_err(
					c, seg->pos,
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
				return ck_err(c, seg->pos,
					      "%s is not an array (it is %s): [i] applies to array "
					      "and vla fields",
					      where, st_type_name(t));
			if (st_side_type(t->label)->unreadable)
				return unwalkable(c, seg, where, t);
			if ((t->label == SIDE_TYPE_ARRAY || t->label == SIDE_TYPE_GATHER_ARRAY) &&
			    seg->index >= t->array_len)
				return ck_err(
					c, seg->pos,
					"index %llu is out of bounds: %s has %u elements (0 to %u)",
					(unsigned long long)seg->index, where, t->array_len,
					t->array_len - 1);
			if (seg->index > UINT32_MAX)
				return ck_err(c, seg->pos, "index %llu is out of range: at most %u",
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

	ck_path_text(e, e->nr_path, where, sizeof(where));
	if (info->unreadable) {
		ck_err(c, e->pos, "%s has type %s, which sidetrace cannot read yet: %s", where,
		       st_type_name(t), info->unreadable);
		st_diag_hint(c->diag, "%s", READABLE);
		return -EINVAL;
	}
	if (info->type_class == ST_TC_STRUCT)
		return ck_err(c, e->pos, "%s is a struct: use one of its members, %s.MEMBER", where,
			      where);
	if (info->type_class == ST_TC_ARRAY)
		return ck_err(c, e->pos, "%s is an array (%s): use an element, %s[INDEX]", where,
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
	case ST_TC_FLOAT:
		if (t->byte_order != SIDE_TYPE_BYTE_ORDER_HOST)
			return ck_err(c, e->pos,
				      "%s is a %s of the other byte order, which sidetrace does "
				      "not print yet",
				      where, st_type_name(t));
		*vt = ST_VT_FLOAT;
		return 0;
	case ST_TC_ENUM:
		/* An enum reads as its underlying integer. */
		if (t->elem && st_side_type(t->elem->label)->type_class == ST_TC_INT)
			return leaf_vtype(c, e, t->elem, vt);
		return ck_err(c, e->pos, "%s is an enum without an integer type to read", where);
	default:
		return ck_err(c, e->pos, "%s has type %s, which has no value to read", where,
			      st_type_name(t));
	}
}

bool ck_is_int(enum st_vtype t)
{
	return t == ST_VT_INT || t == ST_VT_UINT || t == ST_VT_BOOL;
}

const char *ck_vtype_kind(enum st_vtype t)
{
	return t == ST_VT_STR	  ? "a string"
	       : t == ST_VT_BUF	  ? "a buffer"
	       : t == ST_VT_FLOAT ? "a floating-point value"
				  : "an integer";
}

/* Integers, strings and floats: values of one kind mix in a clause's field. */
static bool same_kind(enum st_vtype a, enum st_vtype b)
{
	return !strcmp(ck_vtype_kind(a), ck_vtype_kind(b));
}

/*
 * A float is printed only (printf's float conversions, print(args)):
 * elsewhere it would be computed with, which BPF cannot do. Its events
 * must agree on its width, which its conversion prints.
 */
static int check_float(struct checker *c, const struct st_expr *e)
{
	char where[256];
	uint32_t i;

	ck_path_text(e, e->nr_path, where, sizeof(where));
	if (!c->float_ok) {
		ck_err(c, e->pos,
		       "%s is a floating-point value (%s): BPF has no floating point, so "
		       "sidetrace prints it but cannot compute with it, compare it, or keep it "
		       "in a map or a variable",
		       where, st_type_name(e->refs[0].type));
		st_diag_hint(c->diag, "print it: printf(\"%%f\\n\", %s), or print(args)", where);
		return -EINVAL;
	}
	for (i = 1; i < e->nr_refs; i++)
		if (e->refs[i].type->label != e->refs[0].type->label)
			return ck_err(c, e->pos, "%s is a %s in %s but a %s in %s", where,
				      st_type_name(e->refs[i].type), e->refs[i].event->name,
				      st_type_name(e->refs[0].type), e->refs[0].event->name);
	return 0;
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
		return ck_err(c, seg->pos,
			      "dynamic field name '%s' is longer than %d bytes, the most sidetrace "
			      "looks up",
			      seg->name, ST_NAME_LEN - 1);
	if (e->nr_path > 1)
		return ck_err(c, e->path[1].pos,
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
		ck_err(c, e->pos,
		       "args.%s is read as %s here (%s) but as %s at line %u, column %u (%s): a "
		       "dynamic field has one type in a clause",
		       name, ck_vtype_kind(vt), why, ck_vtype_kind(d->vtype), d->pos.line,
		       d->pos.col, d->why);
		st_diag_hint(c->diag,
			     "the first use in the clause decides (the filter, then statements "
			     "left to right; a map key is a string unless typed before); args.%s "
			     "+ 0 reads an integer",
			     name);
		return -EINVAL;
	}
	if (!d) {
		d = realloc(c->dyn, (c->nr_dyn + 1) * sizeof(*d));
		if (!d)
			return ck_oom(c);
		c->dyn = d;
		c->dyn[c->nr_dyn++] = (struct dyn_type){name, vt, e->pos, why};
	}
	if (e->vtype == ST_VT_NONE)
		e->vtype = vt;
	return 0;
}

/* Types e from its use if it is a dynamic field not typed yet. */
int ck_settle(struct checker *c, struct st_expr *e, enum st_vtype vt, const char *why)
{
	if (e->vtype != ST_VT_NONE)
		return 0;
	return dyn_fix(c, e, vt, why);
}

/*
 * A use that says nothing about the type (a map key, a comparison of two
 * dynamic fields): an earlier use in the clause decides, else a string.
 */
int ck_settle_default(struct checker *c, struct st_expr *e, const char *why)
{
	const struct dyn_type *d;

	if (e->vtype != ST_VT_NONE)
		return 0;
	d = dyn_find(c, e->path[0].name);
	return dyn_fix(c, e, d ? d->vtype : ST_VT_STR, why);
}

/* A function's value that DWARF says cannot be read where the probe is. */
static int unreadable_here(struct checker *c, const struct st_expr *e, const struct st_event *ev,
			   const char *why)
{
	char where[256];

	ck_path_text(e, e->nr_path, where, sizeof(where));
	return ck_err(c, e->pos, "%s of %s cannot be read at its %s: %s",
		      strcmp(e->str, "args") ? e->str : where, ev->name, st_event_kind(ev)->name,
		      why);
}

/* ev's field name: an array of integers in a kernel probe's record, or NULL. */
static const struct st_type *record_array(const struct st_event *ev, const char *name)
{
	const struct st_probe_kind *k = st_event_kind(ev);
	const struct st_type *t;
	int f;

	if (!k->in_kernel || st_probe_kind_function(k))
		return NULL;
	f = find_field(ev->fields, ev->nr_fields, name);
	if (f < 0)
		return NULL;
	t = &ev->fields[f].type;
	return t->label == SIDE_TYPE_ARRAY && t->elem && !t->unreadable ? t : NULL;
}

int ck_record_array(struct checker *c, struct st_expr *e)
{
	struct st_expr *x, *d;
	uint32_t i;

	if (c->no_args || e->addr_of || e->nr_path != 1 || !c->clause->nr_events)
		return 0;
	for (i = 0; i < c->clause->nr_events; i++)
		if (!record_array(c->clause->events[i], e->path[0].name))
			return 0;
	x = st_expr_new(ST_EXPR_FIELD, e->pos);
	d = x ? st_expr_node(ST_EXPR_DEREF, e->pos, 1, x, NULL) : NULL;
	if (!d) {
		st_expr_free(x);
		return ck_oom(c);
	}
	x->str = e->str;
	x->path = e->path;
	x->nr_path = 1;
	x->addr_of = true;
	*e = *d;
	free(d);
	return 0;
}

/*
 * Field e, ck_record_array()'s address of an array: a pointer to the C
 * array, in kernel memory, of one shape in every event of the clause.
 */
static int array_ctype(struct checker *c, struct st_expr *e)
{
	const struct st_type *t = e->refs[0].type, *o;
	struct st_ctypes *r = ck_ctypes(c);
	struct st_ctype *ct;
	uint32_t i;

	for (i = 1; i < e->nr_refs; i++) {
		o = e->refs[i].type;
		if (o->array_len != t->array_len || o->elem->size != t->elem->size ||
		    o->elem->is_signed != t->elem->is_signed)
			return ck_err(c, e->pos,
				      "args.%s is an array of another type in %s:%s than in "
				      "%s:%s: a field must have the same type in every event of "
				      "the clause",
				      e->path[0].name, e->refs[i].event->provider,
				      e->refs[i].event->name, e->refs[0].event->provider,
				      e->refs[0].event->name);
	}
	ct = r ? st_ctype_int(r, t->elem->size, t->elem->is_signed) : NULL;
	ct = ct ? st_ctype_array(r, ct, t->array_len) : NULL;
	e->ctype = ct ? st_ctype_pointer(r, ct) : NULL;
	if (!e->ctype)
		return ck_oom(c);
	e->vtype = ST_VT_UINT;
	e->mem = ST_MEM_KERNEL;
	return 0;
}

/*
 * ck_field()'s start: field e's references, one per event of the clause;
 * 1 when there are none to make, e typed already; else 0 or an error.
 */
static int field_refs(struct checker *c, struct st_expr *e)
{
	struct st_clause *cl = c->clause;

	if (c->no_args)
		return ck_err(c, e->pos,
			      "args is not available in %s: only side: and usdt: probes have args",
			      ck_point_kind_name(c->no_args));
	/*
	 * A clause whose every probe was skipped (a function this build
	 * lacks) never runs: its fields are the integers bpftrace reads
	 * there, so that the maps it shares with other clauses type alike.
	 */
	if (!cl->nr_events) {
		e->vtype = ST_VT_UINT;
		return 1;
	}
	e->refs = calloc(cl->nr_events, sizeof(*e->refs));
	if (!e->refs)
		return ck_oom(c);
	e->nr_refs = cl->nr_events;
	return 0;
}

/*
 * Resolves args.PATH in every event of the clause. A dynamic field's type
 * is not in the event: its vtype stays ST_VT_NONE for the expression that
 * uses it to decide (ck_settle()), unless the name is a static field in
 * another event of the clause, whose type then decides.
 */
int ck_field(struct checker *c, struct st_expr *e)
{
	struct st_clause *cl = c->clause;
	const struct st_event *ev, *first = NULL;
	enum st_vtype vt = ST_VT_NONE;
	bool dynamic = false;
	char where[256];
	uint32_t i;
	int err;

	err = field_refs(c, e);
	if (err)
		return err > 0 ? 0 : err;
	for (i = 0; i < cl->nr_events; i++) {
		ev = cl->events[i];
		if (strcmp(e->str, "args") && !st_probe_kind_located(st_event_kind(ev)))
			return ck_err(c, e->pos,
				      "'%s' is an SDT operand of usdt: probes: SIDE fields have "
				      "names, use args.FIELD",
				      e->str);
		if (!ev->has_side && !st_probe_kind_located(st_event_kind(ev)))
			return ck_err(c, e->pos,
				      "event %s:%s is a plain USDT probe with no SIDE description: "
				      "it has no args; trace it as usdt:%s:%s:%s with arg0..argN",
				      ev->provider, ev->name, ev->path, ev->usdt_provider,
				      ev->usdt_name);
		if (ev->variadic && find_field(ev->fields, ev->nr_fields, e->path[0].name) < 0) {
			err = dynamic_ref(c, e, ev, &e->refs[i]);
			if (err)
				return err;
			dynamic = true;
			continue;
		}
		err = resolve_path(c, e, ev, &e->refs[i]);
		if (!err && e->refs[i].type->unreadable)
			return unreadable_here(c, e, ev, e->refs[i].type->unreadable);
		/* ck_record_array()'s array: its address. */
		if (!err && e->addr_of && e->refs[i].type->label == SIDE_TYPE_ARRAY)
			vt = ST_VT_UINT;
		else if (!err)
			err = leaf_vtype(c, e, e->refs[i].type, &vt);
		if (err)
			return err;
		if (first && !same_kind(vt, e->vtype)) {
			ck_path_text(e, e->nr_path, where, sizeof(where));
			return ck_err(
				c, e->pos,
				"%s is %s in %s:%s but %s in %s:%s: a field must have the same "
				"kind of type in every event of the clause",
				where, ck_vtype_kind(vt), ev->provider, ev->name,
				ck_vtype_kind(e->vtype), first->provider, first->name);
		}
		/* Integers of mixed signedness read as signed. */
		e->vtype = !first || vt == e->vtype ? vt : ST_VT_INT;
		if (!first)
			first = ev;
	}
	if (e->vtype == ST_VT_FLOAT && dynamic)
		return ck_err(c, e->pos,
			      "args.%s is a floating-point value in one event and a dynamic "
			      "field in another: print it in clauses of its own",
			      e->path[0].name);
	if (e->vtype == ST_VT_FLOAT)
		return check_float(c, e);
	if (dynamic && first)
		return dyn_fix(c, e, e->vtype == ST_VT_STR ? ST_VT_STR : ST_VT_INT,
			       "a static field of another event of the clause");
	if (e->addr_of && e->refs[0].type->label == SIDE_TYPE_ARRAY)
		return array_ctype(c, e);
	/* A record's pointer: where it points is the kernel's, or a syscall's caller's. */
	if (first && e->nr_path == 1 && e->refs[0].type->c_name &&
	    strchr(e->refs[0].type->c_name, '*'))
		e->mem = e->refs[0].type->kernel ? ST_MEM_KERNEL : ST_MEM_USER;
	return ck_field_ctype(c, e);
}

/*
 * str(argN): a usdt: probe's operand is the address of a string, read
 * with the probe's loads (as bpftrace's str(arg0)), where a string not yet
 * in memory is paged in for the next event. Only whole operands of 8
 * bytes; str() of any other address reads it where it is (ST_I_READ_STR).
 */
bool ck_addr_operand(const struct st_expr *e)
{
	uint32_t i;

	if (e->kind != ST_EXPR_FIELD || e->nr_path != 1)
		return false;
	for (i = 0; i < e->nr_refs; i++)
		if (!st_probe_kind_located(st_event_kind(e->refs[i].event)) ||
		    e->refs[i].type->size != 8)
			return false;
	return true;
}

int ck_string_pointer(struct checker *c, struct st_expr *e)
{
	struct st_ctype *chr;
	char why[128];
	uint32_t i;
	int err;

	if (e->kind != ST_EXPR_FIELD || e->vtype != ST_VT_STR || e->nr_path != 1 || !e->nr_refs)
		return 0;
	for (i = 0; i < e->nr_refs; i++)
		if (!e->refs[i].event || !st_event_kind(e->refs[i].event)->in_kernel ||
		    !e->refs[i].type->c_name || !strchr(e->refs[i].type->c_name, '*'))
			return 0;
	err = st_ctypes_named(ck_ctypes(c), "char", &chr, why, sizeof(why));
	if (err)
		return ck_oom(c);
	e->ctype = st_ctype_pointer(ck_ctypes(c), chr);
	if (!e->ctype)
		return ck_oom(c);
	e->vtype = ST_VT_UINT;
	e->addr_of = true;
	return 0;
}

int ck_str_at(struct checker *c, struct st_expr *e)
{
	(void)c;
	e->str_at = true;
	e->vtype = ST_VT_STR;
	return 0;
}
