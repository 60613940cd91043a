/* SPDX-License-Identifier: MIT */
/* What the files of ctypes/ share: the registry, and its kernel types from BTF. */
#ifndef SIDETRACE_CTYPES_CTYPES_INT_H
#define SIDETRACE_CTYPES_CTYPES_INT_H

#include <bpf/btf.h>

#include "ctypes/ctypes.h"

struct st_ctypes {
	struct st_ctype **nodes; /* every node, owned */
	size_t nr_nodes, cap_nodes;
	struct st_ctype **defs; /* the program's definitions (also in nodes) */
	uint32_t nr_defs;
	struct btf *btf; /* the kernel's, once read */
	bool btf_tried;
	int btf_err; /* why it could not be read: a negative errno */
	struct st_ctype **by_id; /* kernel types converted, by BTF id */
	uint32_t nr_ids;
	struct st_ctype *ints[2][4]; /* [signed][log2 size] */
	struct {
		char *name;
		int64_t v;
	} * values; /* the program's enum constants */
	uint32_t nr_values;
	struct ct_object *objects; /* probed objects whose DWARF names types */
	uint32_t nr_objects;
	struct ct_die_node *by_die; /* their types converted */
	uint32_t nr_by_die, cap_by_die;
};

/* A probed object (st_ctypes_add_object()): its DWARF, opened when first looked in. */
struct ct_object {
	const struct st_ctypes_dwarf_ops *ops;
	char *path;
	bool tried;
	struct Dwarf *dw; /* NULL: none */
	void *owner; /* ops->close()'s */
};

/* The node of a DWARF type: obj is 1 + its object's index, off the DIE's offset. */
struct ct_die_node {
	uint16_t obj;
	uint64_t off;
	struct st_ctype *node;
};

/* A new node of r, zeroed but for kind and a copy of name; NULL when out of memory. */
struct st_ctype *ct_node(struct st_ctypes *r, enum st_ctype_kind kind, const char *name);

/* Fills the members of a kernel type the first time they are asked for. 0 or -ENOMEM. */
int ct_complete(struct st_ctypes *r, struct st_ctype *t);
/* The kernel's BTF, read once; NULL with r->btf_err. */
const struct btf *ct_btf(struct st_ctypes *r);
/* BTF type id of the kernel's as a node of r; NULL when out of memory. */
struct st_ctype *ct_from_btf(struct st_ctypes *r, uint32_t id);
/* A kernel struct's or union's members into t (t->btf_id). 0 or -ENOMEM. */
int ct_btf_members(struct st_ctypes *r, struct st_ctype *t);
/* The kernel's enum constant name: 0 with *v, or -ENOENT. */
int ct_btf_enum_value(struct st_ctypes *r, const char *name, int64_t *v);
/* The kernel's type kind (BTF_KIND_STRUCT, ...) named name: its id, or -ENOENT. */
int ct_btf_find(struct st_ctypes *r, const char *name, int kind);

/*
 * The type kind (ST_CT_STRUCT, _UNION, _ENUM; ST_CT_VOID: a typedef's or
 * a base type's) named name in the probed objects' DWARF, in the order
 * they were added: 0, -ENOENT, or -ENOMEM.
 */
int ct_dwarf_named(struct st_ctypes *r, enum st_ctype_kind kind, const char *name,
		   struct st_ctype **out);
/* A DWARF struct's or union's members into t (t->dwarf_obj). 0 or -ENOMEM. */
int ct_dwarf_members(struct st_ctypes *r, struct st_ctype *t);
/* Closes the probed objects' DWARF. */
void ct_objects_free(struct st_ctypes *r);

#endif /* SIDETRACE_CTYPES_CTYPES_INT_H */
