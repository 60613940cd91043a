// SPDX-License-Identifier: MIT
/* The registry of C types: see ctypes.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctypes/ctypes_int.h"

/* Integer names a cast may use: bpftrace's, then C's and the kernel's spellings. */
static const struct {
	const char *name;
	uint8_t size;
	bool is_signed, is_char;
} int_names[] = {
	{"uint8", 1, false, false},
	{"int8", 1, true, false},
	{"uint16", 2, false, false},
	{"int16", 2, true, false},
	{"uint32", 4, false, false},
	{"int32", 4, true, false},
	{"uint64", 8, false, false},
	{"int64", 8, true, false},
	{"char", 1, true, true},
	{"signed char", 1, true, false},
	{"unsigned char", 1, false, false},
	{"short", 2, true, false},
	{"short int", 2, true, false},
	{"unsigned short", 2, false, false},
	{"short unsigned int", 2, false, false},
	{"int", 4, true, false},
	{"signed", 4, true, false},
	{"unsigned", 4, false, false},
	{"unsigned int", 4, false, false},
	{"long", 8, true, false},
	{"long int", 8, true, false},
	{"unsigned long", 8, false, false},
	{"long unsigned int", 8, false, false},
	{"long long", 8, true, false},
	{"long long int", 8, true, false},
	{"unsigned long long", 8, false, false},
	{"long long unsigned int", 8, false, false},
	{"bool", 1, false, false},
	{"_Bool", 1, false, false},
	{"u8", 1, false, false},
	{"s8", 1, true, false},
	{"u16", 2, false, false},
	{"s16", 2, true, false},
	{"u32", 4, false, false},
	{"s32", 4, true, false},
	{"u64", 8, false, false},
	{"s64", 8, true, false},
	{"__u8", 1, false, false},
	{"__s8", 1, true, false},
	{"__u16", 2, false, false},
	{"__s16", 2, true, false},
	{"__u32", 4, false, false},
	{"__s32", 4, true, false},
	{"__u64", 8, false, false},
	{"__s64", 8, true, false},
	{"uint8_t", 1, false, false},
	{"int8_t", 1, true, false},
	{"uint16_t", 2, false, false},
	{"int16_t", 2, true, false},
	{"uint32_t", 4, false, false},
	{"int32_t", 4, true, false},
	{"uint64_t", 8, false, false},
	{"int64_t", 8, true, false},
	{"size_t", 8, false, false},
	{"ssize_t", 8, true, false},
	/* The kernel's, as tracepoint formats declare them (x86-64) */
	{"pid_t", 4, true, false},
	{"umode_t", 2, false, false},
	{"gfp_t", 4, false, false},
	{"dev_t", 4, false, false},
};

/* The row of int_names that spells name, or -1. */
static int int_row(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(int_names) / sizeof(int_names[0]); i++)
		if (!strcmp(int_names[i].name, name))
			return (int)i;
	return -1;
}

bool st_ctype_int_name(const char *name, uint32_t *size, bool *is_signed)
{
	int i = int_row(name);

	if (i < 0)
		return false;
	*size = int_names[i].size;
	*is_signed = int_names[i].is_signed;
	return true;
}

bool st_ctype_word(const char *word, size_t len)
{
	static const char *const tags[] = {"struct", "union", "enum", "void"};
	size_t i, n;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (len == strlen(tags[i]) && !strncmp(word, tags[i], len))
			return true;
	for (i = 0; i < sizeof(int_names) / sizeof(int_names[0]); i++) {
		n = strcspn(int_names[i].name, " ");
		if (len == n && !strncmp(word, int_names[i].name, n))
			return true;
	}
	return false;
}

struct st_ctypes *st_ctypes_new(void)
{
	return calloc(1, sizeof(struct st_ctypes));
}

static void node_free(struct st_ctype *t)
{
	uint32_t i;

	for (i = 0; i < t->nr_members; i++)
		free(t->members[i].name);
	free(t->members);
	free(t->name);
	free(t);
}

void st_ctypes_drop_btf(struct st_ctypes *r)
{
	if (!r || !r->btf)
		return;
	btf__free(r->btf);
	r->btf = NULL;
	/* A lookup after this is a bug: said as the BTF being gone. */
	r->btf_err = -ENODATA;
}

void st_ctypes_free(struct st_ctypes *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_nodes; i++)
		node_free(r->nodes[i]);
	free(r->nodes);
	free(r->defs);
	for (i = 0; i < r->nr_values; i++)
		free(r->values[i].name);
	free(r->values);
	free(r->by_id);
	btf__free(r->btf);
	ct_objects_free(r);
	free(r);
}

struct st_ctype *ct_node(struct st_ctypes *r, enum st_ctype_kind kind, const char *name)
{
	struct st_ctype *t, **grown;

	if (r->nr_nodes == r->cap_nodes) {
		size_t cap = r->cap_nodes ? r->cap_nodes * 2 : 64;

		grown = realloc(r->nodes, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		r->nodes = grown;
		r->cap_nodes = cap;
	}
	t = calloc(1, sizeof(*t));
	if (t)
		t->name = strdup(name);
	if (!t || !t->name) {
		free(t);
		return NULL;
	}
	t->kind = kind;
	r->nodes[r->nr_nodes++] = t;
	return t;
}

static int log2_size(uint32_t size)
{
	return size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;
}

struct st_ctype *st_ctype_int(struct st_ctypes *r, uint32_t size, bool is_signed)
{
	struct st_ctype **slot = &r->ints[is_signed][log2_size(size)];
	char name[16];

	if (*slot)
		return *slot;
	snprintf(name, sizeof(name), "%sint%u", is_signed ? "" : "u", size * 8);
	*slot = ct_node(r, ST_CT_INT, name);
	if (*slot) {
		(*slot)->size = size;
		(*slot)->is_signed = is_signed;
	}
	return *slot;
}

struct st_ctype *st_ctype_pointer(struct st_ctypes *r, struct st_ctype *to)
{
	char name[512];
	struct st_ctype *p;
	size_t i;

	/* One node per pointee: casts of one type in many clauses share it. */
	for (i = 0; i < r->nr_nodes; i++)
		if (r->nodes[i]->kind == ST_CT_PTR && r->nodes[i]->ref == to)
			return r->nodes[i];
	snprintf(name, sizeof(name), "%s%s*", to->name, to->kind == ST_CT_PTR ? "" : " ");
	p = ct_node(r, ST_CT_PTR, name);
	if (p) {
		p->size = 8;
		p->ref = to;
		p->complete = true;
	}
	return p;
}

static struct st_ctype *named_int(struct st_ctypes *r, const char *name)
{
	int i = int_row(name);
	struct st_ctype *t;
	size_t j;

	if (i < 0)
		return NULL;
	if (!int_names[i].is_char)
		return st_ctype_int(r, int_names[i].size, int_names[i].is_signed);
	/* One char node: pointers to it are one type, wherever named. */
	for (j = 0; j < r->nr_nodes; j++)
		if (r->nodes[j]->kind == ST_CT_INT && r->nodes[j]->is_char &&
		    !r->nodes[j]->btf_id && !r->nodes[j]->dwarf_obj &&
		    !strcmp(r->nodes[j]->name, name))
			return r->nodes[j];
	t = ct_node(r, ST_CT_INT, name);
	if (t) {
		t->size = 1;
		t->is_signed = true;
		t->is_char = true;
	}
	return t;
}

/* "struct x": the kind it names and x; false for a name without a tag. */
static bool tagged(const char *name, enum st_ctype_kind *kind, int *btf_kind, const char **rest)
{
	static const struct {
		const char *tag;
		enum st_ctype_kind kind;
		int btf_kind;
	} tags[] = {
		{"struct ", ST_CT_STRUCT, BTF_KIND_STRUCT},
		{"union ", ST_CT_UNION, BTF_KIND_UNION},
		{"class ", ST_CT_STRUCT, BTF_KIND_STRUCT},
		{"enum ", ST_CT_ENUM, BTF_KIND_ENUM},
	};
	size_t i;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		if (!strncmp(name, tags[i].tag, strlen(tags[i].tag))) {
			*kind = tags[i].kind;
			*btf_kind = tags[i].btf_kind;
			*rest = name + strlen(tags[i].tag);
			return true;
		}
	}
	return false;
}

int st_ctypes_named(struct st_ctypes *r, const char *name, struct st_ctype **out, char *err,
		    size_t errlen)
{
	enum st_ctype_kind kind = ST_CT_VOID;
	const char *rest = name;
	int btf_kind = BTF_KIND_TYPEDEF, id;
	uint32_t i;

	*out = NULL;
	for (i = 0; i < r->nr_defs; i++)
		if (!strcmp(r->defs[i]->name, name)) {
			*out = r->defs[i];
			return 0;
		}
	if (!strcmp(name, "void")) {
		*out = ct_node(r, ST_CT_VOID, "void");
		return *out ? 0 : -ENOMEM;
	}
	if (!tagged(name, &kind, &btf_kind, &rest)) {
		*out = named_int(r, name);
		if (*out)
			return 0;
	}
	id = ct_btf_find(r, rest, btf_kind);
	if (id == -ENOENT && btf_kind == BTF_KIND_ENUM)
		id = ct_btf_find(r, rest, BTF_KIND_ENUM64);
	if (id > 0) {
		*out = ct_from_btf(r, id);
		return *out ? 0 : -ENOMEM;
	}
	id = ct_dwarf_named(r, kind, rest, out);
	if (id != -ENOENT)
		return id;
	if (!ct_btf(r))
		snprintf(err, errlen,
			 "unknown type %s: the program defines none, %sand the kernel's BTF "
			 "(/sys/kernel/btf/vmlinux) cannot be read: %s",
			 name, r->nr_objects ? "nor the probed objects' DWARF, " : "",
			 strerror(-r->btf_err));
	else
		snprintf(err, errlen,
			 "unknown type %s: neither the program%s nor the kernel's BTF "
			 "defines it",
			 name, r->nr_objects ? ", the probed objects' DWARF" : "");
	return -ENOENT;
}

struct st_ctype *st_ctype_ref(struct st_ctypes *r, struct st_ctype *t)
{
	(void)r;
	return t->ref;
}

int ct_complete(struct st_ctypes *r, struct st_ctype *t)
{
	if (t->complete)
		return 0;
	if (t->dwarf_obj)
		return ct_dwarf_members(r, t);
	return t->btf_id ? ct_btf_members(r, t) : 0;
}

static int find_member(struct st_ctypes *r, struct st_ctype *t, const char *name,
		       const struct st_cmember **m, uint32_t *bit_off, int depth)
{
	uint32_t i;
	int err;

	if (depth > 8)
		return -ENOENT;
	err = ct_complete(r, t);
	if (err)
		return err;
	for (i = 0; i < t->nr_members; i++) {
		const struct st_cmember *cm = &t->members[i];

		if (!strcmp(cm->name, name)) {
			*m = cm;
			*bit_off = cm->bit_off;
			return 0;
		}
		if (!*cm->name &&
		    (cm->type->kind == ST_CT_STRUCT || cm->type->kind == ST_CT_UNION)) {
			err = find_member(r, cm->type, name, m, bit_off, depth + 1);
			if (err != -ENOENT) {
				*bit_off += cm->bit_off;
				return err;
			}
		}
	}
	return -ENOENT;
}

int st_ctype_member(struct st_ctypes *r, struct st_ctype *t, const char *name,
		    const struct st_cmember **m, uint32_t *bit_off)
{
	if (t->kind != ST_CT_STRUCT && t->kind != ST_CT_UNION)
		return -ENOENT;
	return find_member(r, t, name, m, bit_off, 0);
}

static size_t add_names(struct st_ctypes *r, struct st_ctype *t, char *buf, size_t size, size_t off,
			int depth)
{
	uint32_t i;
	int n;

	if (depth > 8 || ct_complete(r, t))
		return off;
	for (i = 0; i < t->nr_members && off < size; i++) {
		if (!*t->members[i].name) {
			off = add_names(r, t->members[i].type, buf, size, off, depth + 1);
			continue;
		}
		n = snprintf(buf + off, size - off, "%s%s", off ? ", " : "", t->members[i].name);
		off = n < 0 || (size_t)n >= size - off ? size : off + n;
	}
	return off;
}

void st_ctype_member_names(struct st_ctypes *r, struct st_ctype *t, char *buf, size_t size)
{
	if (!size)
		return;
	*buf = '\0';
	if (add_names(r, t, buf, size, 0, 0) >= size && size > 4)
		strcpy(buf + size - 4, "...");
}

struct st_ctype *st_ctype_array(struct st_ctypes *r, struct st_ctype *t, uint32_t n)
{
	char name[512];
	struct st_ctype *a;

	snprintf(name, sizeof(name), "%s[%u]", t->name, n);
	a = ct_node(r, ST_CT_ARRAY, name);
	if (a) {
		a->ref = t;
		a->nr_elems = n;
		a->size = t->size * n;
		a->complete = true;
	}
	return a;
}

static uint32_t align_at(struct st_ctypes *r, struct st_ctype *t, int depth)
{
	uint32_t i, a = 1, m;

	if (t->align)
		return t->align;
	switch (t->kind) {
	case ST_CT_INT:
	case ST_CT_ENUM:
	case ST_CT_PTR:
		return t->size ? t->size : 1;
	case ST_CT_ARRAY:
		return depth < 8 ? align_at(r, t->ref, depth + 1) : 1;
	case ST_CT_STRUCT:
	case ST_CT_UNION:
		if (depth >= 8 || ct_complete(r, t))
			return 1;
		for (i = 0; i < t->nr_members; i++) {
			m = align_at(r, t->members[i].type, depth + 1);
			a = m > a ? m : a;
		}
		t->align = a;
		return a;
	default:
		return 1;
	}
}

uint32_t st_ctype_align(struct st_ctypes *r, struct st_ctype *t)
{
	return align_at(r, t, 0);
}

int st_ctypes_enum_value(struct st_ctypes *r, const char *name, int64_t *v)
{
	uint32_t i;

	for (i = 0; i < r->nr_values; i++)
		if (!strcmp(r->values[i].name, name)) {
			*v = r->values[i].v;
			return 0;
		}
	return ct_btf_enum_value(r, name, v);
}

int st_ctypes_define_value(struct st_ctypes *r, const char *name, int64_t v)
{
	int64_t had;
	void *grown;

	for (had = 0; had < r->nr_values; had++)
		if (!strcmp(r->values[had].name, name))
			return -EEXIST;
	grown = realloc(r->values, (r->nr_values + 1) * sizeof(*r->values));
	if (!grown)
		return -ENOMEM;
	r->values = grown;
	r->values[r->nr_values].name = strdup(name);
	if (!r->values[r->nr_values].name)
		return -ENOMEM;
	r->values[r->nr_values++].v = v;
	return 0;
}

bool st_ctype_char_array(struct st_ctypes *r, struct st_ctype *t)
{
	struct st_ctype *e;

	if (t->kind != ST_CT_ARRAY)
		return false;
	e = st_ctype_ref(r, t);
	return e && e->kind == ST_CT_INT && e->is_char;
}

int st_ctypes_define(struct st_ctypes *r, enum st_ctype_kind kind, const char *name,
		     struct st_ctype **out)
{
	struct st_ctype **grown;
	uint32_t i;

	for (i = 0; name && i < r->nr_defs; i++)
		if (!strcmp(r->defs[i]->name, name))
			return -EEXIST;
	grown = name ? realloc(r->defs, (r->nr_defs + 1) * sizeof(*grown)) : r->defs;
	if (name && !grown)
		return -ENOMEM;
	r->defs = grown;
	*out = ct_node(r, kind,
		       name		     ? name
		       : kind == ST_CT_UNION ? "union (anonymous)"
					     : "struct (anonymous)");
	if (!*out)
		return -ENOMEM;
	(*out)->complete = true;
	if (name)
		r->defs[r->nr_defs++] = *out;
	return 0;
}

int st_ctype_add_member(struct st_ctype *t, const char *name, struct st_ctype *type,
			uint32_t bit_off, uint32_t bit_size)
{
	struct st_cmember *grown = realloc(t->members, (t->nr_members + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	t->members = grown;
	grown[t->nr_members].name = strdup(name);
	if (!grown[t->nr_members].name)
		return -ENOMEM;
	grown[t->nr_members].type = type;
	grown[t->nr_members].bit_off = bit_off;
	grown[t->nr_members].bit_size = bit_size;
	t->nr_members++;
	return 0;
}
