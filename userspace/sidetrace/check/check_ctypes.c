// SPDX-License-Identifier: MIT
/*
 * Typing C values: casts to C types, and what a pointer, a struct or an
 * array holds (p->m, s.m, a[i], *p), typed from the program's definitions
 * or the kernel's BTF (ctypes/).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "check/check.h"
#include "common/side_types.h"
#include "parse/parser.h"

struct st_ctypes *ck_ctypes(struct checker *c)
{
	if (!c->prog->ctypes)
		c->prog->ctypes = st_ctypes_new();
	return c->prog->ctypes;
}

int ck_enum_value(struct checker *c, struct st_expr *e)
{
	struct st_ctypes *r = ck_ctypes(c);
	int64_t v;
	int err;

	if (!r)
		return ck_oom(c);
	err = st_ctypes_enum_value(r, e->str, &v);
	if (err == -ENOMEM)
		return ck_oom(c);
	if (err)
		return ck_err(c, e->pos,
			      "unknown identifier '%s': expected " ST_VALUE_FORMS
			      " (nor is it an enum's constant of the program or the kernel)",
			      e->str, st_builtin_names());
	e->kind = ST_EXPR_INT;
	e->uval = (uint64_t)v;
	e->vtype = ST_VT_INT;
	return 0;
}

int ck_kernel_pointer(struct checker *c, struct st_expr *e, const char *to)
{
	struct st_ctypes *r = ck_ctypes(c);
	struct st_ctype *t;
	char why[512];
	int err;

	if (!r)
		return ck_oom(c);
	err = st_ctypes_named(r, to, &t, why, sizeof(why));
	if (err == -ENOMEM)
		return ck_oom(c);
	if (err)
		return ck_err(c, e->pos, "%s", why);
	e->ctype = st_ctype_pointer(r, t);
	e->mem = ST_MEM_KERNEL;
	return e->ctype ? 0 : ck_oom(c);
}

/* The type a cast names, its '*'s applied. */
static int cast_ctype(struct checker *c, struct st_expr *e, struct st_ctype **out)
{
	struct st_ctypes *r = ck_ctypes(c);
	char why[512];
	uint8_t i;
	int err;

	if (!r)
		return ck_oom(c);
	err = st_ctypes_named(r, e->cast.name, out, why, sizeof(why));
	if (err == -ENOMEM)
		return ck_oom(c);
	if (err)
		return ck_err(c, e->pos, "%s", why);
	for (i = 0; i < e->cast.ptrs; i++)
		if (!(*out = st_ctype_pointer(r, *out)))
			return ck_oom(c);
	return 0;
}

int ck_cast(struct checker *c, struct st_expr *e)
{
	struct st_expr *x = e->kids[0];
	struct st_ctype *t;
	int err;

	if (e->cast.name) {
		err = cast_ctype(c, e, &t);
		if (err)
			return err;
		if (t->kind == ST_CT_INT || t->kind == ST_CT_ENUM) {
			/* An integer of a C name: a cast like bpftrace's own. */
			e->cast.bits = t->size * 8;
			e->cast.is_signed = t->is_signed;
		} else if (t->kind != ST_CT_PTR) {
			return ck_err(c, e->pos,
				      "a cast to %s: a value is cast to an integer or a pointer "
				      "((%s *)arg0)",
				      t->name, t->name);
		} else {
			err = ck_int(c, x, "a cast");
			e->ctype = t;
			e->mem = x->mem;
			e->vtype = ST_VT_UINT;
			return err;
		}
	}
	err = ck_int(c, x, "a cast");
	e->vtype = e->cast.is_signed ? ST_VT_INT : ST_VT_UINT;
	return err;
}

/* Why expression e is no place to read a member or an element from. */
static const char *ctype_text(const struct st_expr *e)
{
	if (e->ctype)
		return e->ctype->name;
	return e->vtype == ST_VT_STR   ? "a string"
	       : e->vtype == ST_VT_BUF ? "a buffer"
				       : "an integer";
}

static bool composite(const struct st_ctype *t)
{
	return t->kind == ST_CT_STRUCT || t->kind == ST_CT_UNION || t->kind == ST_CT_ARRAY;
}

/*
 * What a member, element or pointee of type e->ctype gives: a scalar is
 * read, chars are a string; a struct, union or array is only where a
 * value is, for '.' and '[]' (object).
 */
static int settle_read(struct checker *c, struct st_expr *e, bool object)
{
	struct st_ctypes *r = ck_ctypes(c);
	struct st_ctype *t = e->ctype;

	if (st_ctype_scalar(t)) {
		if (!t->size || t->size > 8 || (t->size & (t->size - 1)))
			return ck_err(c, e->pos,
				      "%s is an integer of %u bytes, which sidetrace "
				      "does not read",
				      t->name, t->size);
		e->vtype = t->kind != ST_CT_PTR && t->is_signed ? ST_VT_INT : ST_VT_UINT;
		return 0;
	}
	if (composite(t) && object) {
		e->vtype = ST_VT_UINT;
		return 0;
	}
	if (st_ctype_char_array(r, t)) {
		e->vtype = ST_VT_STR;
		return 0;
	}
	/* A whole value read where it is: kept leaf by leaf (check_whole.c). */
	if (composite(t)) {
		e->vtype = ST_VT_WHOLE;
		return 0;
	}
	return ck_err(c, e->pos,
		      "%s has no value to read: cast the pointer to what it points to, "
		      "((struct task_struct *)p)->pid",
		      t->name);
}

int ck_reads_memory(struct checker *c, struct st_pos pos, const char *what)
{
	if (!c->no_args)
		return 0;
	return ck_err(c, pos,
		      "%s reads the memory of a probe's event, and %s runs in sidetrace, which "
		      "has none to read",
		      what, ck_point_kind_name(c->no_args));
}

/*
 * A member, element or pointee read in BEGIN, END or interval: the
 * kernel's memory is read for sidetrace (bpf/user.bpf.h), as bpftrace's
 * BEGIN reads in its own task; no process's is there to read.
 */
static int session_read(struct checker *c, const struct st_expr *e, const char *what)
{
	if (!c->no_args)
		return 0;
	if (e->mem == ST_MEM_USER)
		return ck_err(c, e->pos,
			      "%s reads a process's memory, and %s runs in sidetrace, which has "
			      "no process to read: the kernel's memory (curtask->comm) is read "
			      "there",
			      what, ck_point_kind_name(c->no_args));
	c->prog->kernel_reads = true;
	return 0;
}

static int ck_member(struct checker *c, struct st_expr *e, bool object);
static int ck_index(struct checker *c, struct st_expr *e, bool object);
static int ck_deref(struct checker *c, struct st_expr *e, bool object);

int ck_c_read(struct checker *c, struct st_expr *e, bool object)
{
	switch (e->kind) {
	case ST_EXPR_MEMBER:
		return ck_member(c, e, object);
	case ST_EXPR_INDEX:
		return ck_index(c, e, object);
	case ST_EXPR_DEREF:
		return ck_deref(c, e, object);
	default:
		/* A whole value kept leaf by leaf is read by member or element too. */
		return object ? ck_expr_whole(c, e) : ck_expr(c, e);
	}
}

/* kids[0]->NAME or kids[0].NAME. */
static int ck_member(struct checker *c, struct st_expr *e, bool object)
{
	struct st_expr *x = e->kids[0];
	const struct st_cmember *m;
	struct st_ctype *t;
	char names[256];
	int err;

	err = ck_c_read(c, x, true);
	if (!err && x->vtype == ST_VT_WHOLE)
		return ck_whole_part(c, e);
	if (err)
		return err;
	t = x->ctype;
	if (e->arrow && (!t || t->kind != ST_CT_PTR))
		return ck_err(c, e->pos,
			      "'->' reads a member where a pointer points, and this is %s: cast "
			      "it first ((struct task_struct *)arg0)->pid",
			      ctype_text(x));
	if (!e->arrow && t && t->kind == ST_CT_PTR)
		return ck_err(c, e->pos, "this is %s, a pointer: its members are read with '->'",
			      t->name);
	if (e->arrow)
		t = st_ctype_ref(ck_ctypes(c), t);
	if (!t || (t->kind != ST_CT_STRUCT && t->kind != ST_CT_UNION))
		return ck_err(c, e->pos,
			      "'%s%s' reads a member of a struct or union, and this is %s",
			      e->arrow ? "->" : ".", e->str, t ? t->name : ctype_text(x));
	err = st_ctype_member(ck_ctypes(c), t, e->str, &m, &e->bit_off);
	if (err == -ENOMEM)
		return ck_oom(c);
	if (err) {
		st_ctype_member_names(ck_ctypes(c), t, names, sizeof(names));
		return ck_err(c, e->pos, "%s has no member %s%s%s%s", t->name, e->str,
			      *names ? ": it has " : "", names,
			      t->size || *names ? ""
						: " (the kernel declares it, but not its members)");
	}
	e->bit_size = m->bit_size;
	e->ctype = m->type;
	e->mem = x->mem;
	err = session_read(c, e, e->arrow ? "'->'" : "'.'") ?: settle_read(c, e, object);
	/* bpftrace reads a bit field unsigned, whatever its type says. */
	if (!err && e->bit_size)
		e->vtype = ST_VT_UINT;
	return err;
}

/* kids[0][kids[1]]: an element of an array, or at a pointer. */
static int ck_index(struct checker *c, struct st_expr *e, bool object)
{
	struct st_expr *x = e->kids[0], *i = e->kids[1];
	struct st_ctype *t;
	int err;

	/* pton("::1")[15]: a constant's byte, read by no engine. */
	if (x->kind == ST_EXPR_CALL && st_func(x->func)->args == ST_FA_PTON)
		return ck_buf_index(c, e);
	err = ck_c_read(c, x, true);
	if (!err && x->vtype == ST_VT_WHOLE)
		return ck_whole_part(c, e);
	if (!err)
		err = ck_int(c, i, "an index");
	if (err)
		return err;
	t = x->ctype;
	if (!t || (t->kind != ST_CT_PTR && t->kind != ST_CT_ARRAY))
		return ck_err(c, e->pos,
			      "'[]' reads an element of a C array or where a pointer points, and "
			      "this is %s",
			      ctype_text(x));
	if (t->kind == ST_CT_ARRAY && i->kind == ST_EXPR_INT && i->uval >= t->nr_elems)
		return ck_err(c, i->pos,
			      "the index %llu is out of bounds for array of size %u (%s)",
			      (unsigned long long)i->uval, t->nr_elems, t->name);
	e->ctype = st_ctype_ref(ck_ctypes(c), t);
	e->mem = x->mem;
	return session_read(c, e, "'[]'") ?: settle_read(c, e, object);
}

/*
 * *args.p of a field that a path reads by index (a record's char **, as
 * args->argv[1]): args.p[0], checked anew from a copy. 1 when e is not
 * such a read.
 */
static int deref_field(struct checker *c, struct st_expr *e)
{
	struct st_expr *x = e->kids[0], *copy;
	struct st_diag before = *c->diag;
	struct st_path_seg *seg;

	if (x->kind != ST_EXPR_FIELD || x->ctype || !x->nr_path ||
	    x->path[x->nr_path - 1].kind == ST_SEG_INDEX)
		return 1;
	copy = st_expr_clone(x);
	seg = copy ? realloc(copy->path, (copy->nr_path + 1) * sizeof(*seg)) : NULL;
	if (!seg) {
		st_expr_free(copy);
		return ck_oom(c);
	}
	copy->path = seg;
	seg = &copy->path[copy->nr_path++];
	*seg = (struct st_path_seg){.kind = ST_SEG_INDEX, .pos = e->pos};
	if (ck_expr(c, copy)) {
		/* Not one: the '*' error says why, not the index's. */
		*c->diag = before;
		st_expr_free(copy);
		return 1;
	}
	st_expr_replace(e, copy);
	return 0;
}

/* *x of an integer x: bpftrace reads a uint64 there, as *(uint64 *)x. */
static int int_address(struct checker *c, struct st_expr *e)
{
	struct st_ctypes *r = ck_ctypes(c);
	struct st_expr *x = e->kids[0], *cast;

	cast = st_expr_node(ST_EXPR_CAST, x->pos, 1, x, NULL);
	if (!cast)
		return ck_oom(c);
	e->kids[0] = cast;
	cast->ctype = r ? st_ctype_pointer(r, st_ctype_int(r, 8, false)) : NULL;
	cast->cast.bits = 64;
	cast->vtype = ST_VT_UINT;
	cast->mem = x->mem;
	return cast->ctype ? 0 : ck_oom(c);
}

/* *kids[0]: what a pointer points to. */
static int ck_deref(struct checker *c, struct st_expr *e, bool object)
{
	struct st_expr *x = e->kids[0];
	int err;

	err = ck_expr(c, x);
	if (err)
		return err;
	err = x->ctype ? 1 : deref_field(c, e);
	if (err <= 0)
		return err;
	if (!x->ctype && ck_is_int(x->vtype) && x->vtype != ST_VT_BOOL) {
		err = int_address(c, e);
		if (err)
			return err;
		x = e->kids[0];
	}
	if (!x->ctype || x->ctype->kind != ST_CT_PTR)
		return ck_err(c, e->pos,
			      "'*' reads where a pointer points, and this is %s: cast it to one "
			      "first, *(uint32 *)arg0",
			      ctype_text(x));
	e->ctype = st_ctype_ref(ck_ctypes(c), x->ctype);
	e->mem = x->mem;
	return session_read(c, e, "'*'") ?: settle_read(c, e, object);
}

/*
 * Whether e's path reads a value through its field's own type tree (a
 * function's parameter typed by DWARF or BTF), which the event's loads
 * read. An array or a
 * struct read whole is not in the tree, nor a pointer's type: a C read
 * reads them.
 */
static bool tree_reads(const struct st_event *ev, const struct st_expr *e)
{
	const struct st_field *fields = ev->fields;
	const struct st_type *t = NULL;
	uint32_t i, f, nr = ev->nr_fields;

	for (i = 0; i < e->nr_path; i++) {
		if (i && e->path[i].kind == ST_SEG_INDEX) {
			if (t->unreadable || st_side_type(t->label)->type_class != ST_TC_ARRAY)
				return false;
			t = t->elem;
			continue;
		}
		if (i && t->label == SIDE_TYPE_POINTER && t->elem)
			t = t->elem;
		if (i && st_side_type(t->label)->type_class != ST_TC_STRUCT)
			return false;
		if (i) {
			fields = t->fields;
			nr = t->nr_fields;
		}
		for (f = 0; f < nr && strcmp(fields[f].name, e->path[i].name); f++)
			;
		/*
		 * A member a process's tree lacks (a C++ base class's): C's lookup
		 * finds it or says why; the kernel's trees are whole.
		 */
		if (f == nr)
			return st_event_kind(ev)->in_kernel;
		t = &fields[f].type;
	}
	/* A pointer member is read as C, typed: $n = args->p->next; $n->y. */
	return !t->unreadable && !st_side_type(t->label)->unreadable &&
	       st_side_type(t->label)->type_class != ST_TC_STRUCT &&
	       st_side_type(t->label)->type_class != ST_TC_ARRAY && t->label != SIDE_TYPE_POINTER;
}

/*
 * The C type of field e's declaration, when it is a pointer read as a
 * plain integer ("const struct __kernel_timespec *" in a tracepoint's
 * record, "struct Foo*" of a function's parameter): its cast's type, or
 * false. The same in every event of the clause. A function's pointer
 * whose type tree reads the path keeps it (tree_reads()); its type is
 * named in the probed object's DWARF, or the kernel's BTF.
 */
static bool field_pointer(struct checker *c, const struct st_expr *e, struct st_cast_type *t)
{
	const char *decl = NULL, *d, *star;
	const struct st_type *ft;
	uint32_t i, f;

	for (i = 0; i < c->clause->nr_events; i++) {
		const struct st_event *ev = c->clause->events[i];
		const struct st_probe_kind *k = st_event_kind(ev);

		for (f = 0; f < ev->nr_fields && strcmp(ev->fields[f].name, e->path[0].name); f++)
			;
		if (f == ev->nr_fields)
			return false;
		ft = &ev->fields[f].type;
		if (ft->label == SIDE_TYPE_STRING_UTF8)
			return false;
		if (st_probe_kind_function(k) ? e->nr_path > 1 && tree_reads(ev, e)
					      : !k->in_kernel || ft->nr_fields || ft->elem)
			return false;
		d = ft->c_name;
		/* Go spells a pointer "*main.T": no C type names it. */
		if (!d || *d == '*' || !strchr(d, '*') || (decl && strcmp(decl, d)))
			return false;
		decl = d;
	}
	if (!decl)
		return false;
	if (!strncmp(decl, "const ", 6))
		decl += 6;
	star = strchr(decl, '*');
	for (t->ptrs = 0, d = star; *d; d++)
		t->ptrs += *d == '*';
	while (star > decl && star[-1] == ' ')
		star--;
	t->name = strndup(decl, star - decl);
	return true;
}

/* Segment seg of a path, over top: a member or an element; NULL when out of memory. */
static struct st_expr *segment(struct st_path_seg *seg, struct st_expr *top)
{
	struct st_expr *i = NULL, *e;

	if (seg->kind == ST_SEG_NAME)
		e = st_expr_node(ST_EXPR_MEMBER, seg->pos, 1, top, NULL);
	else if ((i = st_expr_new(ST_EXPR_INT, seg->pos)))
		e = st_expr_node(ST_EXPR_INDEX, seg->pos, 2, top, i);
	else
		e = NULL;
	if (!e) {
		st_expr_free(i);
		return NULL;
	}
	if (i) {
		i->uval = seg->index;
		return e;
	}
	e->str = seg->name;
	e->arrow = seg->arrow;
	seg->name = NULL;
	return e;
}

/* Field e, a pointer, cast to its declaration's C type (field_pointer()), then its path's segments.
 */
static int cast_path(struct checker *c, struct st_expr *e)
{
	struct st_cast_type cast = {0};
	struct st_expr *base, *top, *next;
	uint32_t i;

	if (c->no_args || !field_pointer(c, e, &cast))
		return 0;
	if (!cast.name)
		return ck_oom(c);
	base = st_expr_new(ST_EXPR_FIELD, e->pos);
	if (!base) {
		free(cast.name);
		return ck_oom(c);
	}
	/* args.p->a.b: the field args.p, cast to its C type, then ->a and .b */
	base->str = e->str;
	base->path = e->path;
	base->nr_path = 1;
	top = st_expr_node(ST_EXPR_CAST, e->pos, 1, base, NULL);
	if (top)
		top->cast = cast;
	else
		free(cast.name);
	for (i = 1, next = top; next && i < e->nr_path; i++)
		if ((next = segment(&e->path[i], top)))
			top = next;
	/* The names the segments did not take; the path is base's from here on. */
	for (i = 1; i < e->nr_path; i++)
		free(e->path[i].name);
	e->str = NULL;
	e->path = NULL;
	e->nr_path = 0;
	if (!top || !next) {
		st_expr_free(top ?: base);
		return ck_oom(c);
	}
	*e = *top;
	free(top);
	return 0;
}

int ck_c_path(struct checker *c, struct st_expr *e)
{
	return e->nr_path < 2 ? ck_record_array(c, e) : cast_path(c, e);
}

int ck_field_ctype(struct checker *c, struct st_expr *e)
{
	struct st_cast_type cast = {0};
	struct st_ctypes *r = ck_ctypes(c);
	struct st_ctype *t;
	char why[512];
	uint32_t i;
	int err;

	if (!r)
		return ck_oom(c);
	/*
	 * A function's parameter, or a tracepoint's pointer kept whole
	 * (soconnect.bt's @sockaddr[tid] = args->uservaddr, read at exit).
	 */
	for (i = 0; i < c->clause->nr_events; i++)
		if (!st_probe_kind_function(st_event_kind(c->clause->events[i])) &&
		    !st_event_kind(c->clause->events[i])->in_kernel)
			return 0;
	if (e->nr_path != 1 || !field_pointer(c, e, &cast))
		return 0;
	if (!cast.name)
		return ck_oom(c);
	err = st_ctypes_named(r, cast.name, &t, why, sizeof(why));
	free(cast.name);
	/* A name no table has (a typedef DWARF lacks) leaves the plain integer it was. */
	if (err)
		return err == -ENOMEM ? ck_oom(c) : 0;
	for (i = 0; t && i < cast.ptrs; i++)
		t = st_ctype_pointer(r, t);
	e->ctype = t;
	return t ? 0 : ck_oom(c);
}

int ck_elements(struct checker *c, struct st_expr **n, struct st_ctype *p)
{
	struct st_ctype *t = st_ctype_ref(ck_ctypes(c), p);
	struct st_expr *mul, *size;

	/* A void pointer counts bytes, as GNU C does. */
	if (!t || t->size <= 1 || (*n)->scaled)
		return 0;
	size = st_expr_new(ST_EXPR_INT, (*n)->pos);
	mul = st_expr_node(ST_EXPR_BINARY, (*n)->pos, 2, *n, size);
	if (!mul) {
		st_expr_free(size);
		return ck_oom(c);
	}
	size->uval = t->size;
	size->vtype = ST_VT_UINT;
	mul->op = ST_OP_MUL;
	mul->scaled = true;
	mul->vtype = (*n)->vtype == ST_VT_INT ? ST_VT_INT : ST_VT_UINT;
	*n = mul;
	return 0;
}

static bool is_pointer(const struct st_expr *e)
{
	return e->ctype && e->ctype->kind == ST_CT_PTR;
}

int ck_ctype_arith(struct checker *c, struct st_expr *e)
{
	struct st_expr *l = e->kids[0], *r = e->kids[1];

	/* p + n, n + p, p - n: a pointer, n elements on, as C counts. */
	if (e->op != ST_OP_ADD && e->op != ST_OP_SUB)
		return 0;
	if (is_pointer(l) && !is_pointer(r)) {
		e->ctype = l->ctype;
		e->mem = l->mem;
		e->vtype = ST_VT_UINT;
		return ck_elements(c, &e->kids[1], l->ctype);
	}
	if (e->op == ST_OP_ADD && is_pointer(r) && !l->ctype) {
		e->ctype = r->ctype;
		e->mem = r->mem;
		e->vtype = ST_VT_UINT;
		return ck_elements(c, &e->kids[0], r->ctype);
	}
	return 0;
}

/* The bytes of a checked value: its C type's, else its kind's as bpftrace sizes it. */
static uint64_t value_size(const struct st_expr *e)
{
	if (e->ctype)
		return e->ctype->size;
	if (e->vtype == ST_VT_STR)
		return ST_STR_LEN;
	if (e->kind == ST_EXPR_FIELD && e->nr_refs && e->refs[0].type->size)
		return e->refs[0].type->size;
	if (e->kind == ST_EXPR_CAST)
		return e->cast.bits / 8;
	return 8;
}

int ck_sizeof(struct checker *c, struct st_expr *e)
{
	const struct st_attach_point *no_args;
	struct st_ctype *t;
	uint64_t size;
	int err;

	if (e->cast.name) {
		err = cast_ctype(c, e, &t);
		if (err)
			return err;
		size = t->size;
	} else if (e->cast.bits) {
		size = e->cast.bits / 8;
	} else if (e->nr_kids == 1) {
		/* Sized, never read: sizeof((*(struct foo *)0).x) in BEGIN too. */
		no_args = c->no_args;
		c->no_args = NULL;
		err = ck_expr_whole(c, e->kids[0]);
		c->no_args = no_args;
		if (err)
			return err;
		size = value_size(e->kids[0]);
	} else {
		return ck_err(c, e->pos,
			      "sizeof() takes a type or a value: sizeof(struct task_struct)");
	}
	st_expr_make_int(e, size);
	return 0;
}
