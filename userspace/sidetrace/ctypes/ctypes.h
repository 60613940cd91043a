/* SPDX-License-Identifier: MIT */
/*
 * C types as a program's casts and member reads name them: bpftrace's
 * integer names, pointers, and structs, unions and enums found in the
 * program's own definitions or in the kernel's BTF. A kernel type is
 * converted when first named (a pointer's or an array's target with it),
 * and a struct's members only when one is read, so that naming struct
 * task_struct costs a few nodes, not the kernel's whole graph. One
 * registry per program owns every node.
 */
#ifndef SIDETRACE_CTYPES_CTYPES_H
#define SIDETRACE_CTYPES_CTYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum st_ctype_kind {
	ST_CT_VOID,
	ST_CT_INT, /* 1, 2, 4 or 8 bytes; a bool is an unsigned one */
	ST_CT_ENUM, /* an integer of its size */
	ST_CT_PTR, /* 8 bytes: st_ctype_ref() is the pointee */
	ST_CT_ARRAY, /* nr_elems of st_ctype_ref() */
	ST_CT_STRUCT,
	ST_CT_UNION,
	ST_CT_FUNC, /* a function: only pointed to */
};

struct st_ctype;

struct st_cmember {
	char *name;
	uint32_t bit_off; /* from the start of the struct or union */
	uint32_t bit_size; /* a bit field's width; 0: a whole member */
	struct st_ctype *type;
};

struct st_ctype {
	enum st_ctype_kind kind;
	/* As C spells it: "int", "unsigned char", "struct sock", "struct sock *" */
	char *name;
	uint32_t size; /* bytes; 0 for void, a function, an incomplete type */
	bool is_signed; /* ST_CT_INT, ST_CT_ENUM */
	bool is_char; /* ST_CT_INT of 1 byte spelled char: an array of them is a string */
	bool is_tuple; /* ST_CT_STRUCT: a tuple, its members named "0", "1"... (composite.h) */
	uint32_t nr_elems; /* ST_CT_ARRAY */
	struct st_ctype *ref; /* ST_CT_PTR, ST_CT_ARRAY: what it points to, its element */
	/* A kernel struct's or union's, filled when one is first read (st_ctype_member()) */
	struct st_cmember *members;
	uint32_t nr_members;
	bool complete; /* members filled, or none to fill */
	uint32_t align; /* bytes; 0: not known yet (st_ctype_align()) */
	uint32_t btf_id; /* a kernel type: its BTF id; 0: made here */
	/* A probed object's type: 1 + the object's index, and its DIE's offset; 0: none */
	uint16_t dwarf_obj;
	uint64_t dwarf_off;
};

struct st_ctypes;

/* An empty registry; NULL when out of memory. The kernel's BTF is read when first needed. */
struct st_ctypes *st_ctypes_new(void);
void st_ctypes_free(struct st_ctypes *r);
/*
 * Frees the kernel's BTF once no type will be looked up or printed again
 * (the program compiled, no whole value of such a type kept): the types
 * made from it stay. About 6 MB, held while the rest of start-up peaks.
 */
void st_ctypes_drop_btf(struct st_ctypes *r);

/* The size and sign of the integer type name names ("unsigned int", "u32", "pid_t"): false if none.
 */
bool st_ctype_int_name(const char *name, uint32_t *size, bool *is_signed);

/* Whether a word (len bytes) starts a type's name: "struct", "unsigned", "uint32"... */
bool st_ctype_word(const char *word, size_t len);

/* An integer of size bytes, named as bpftrace names it ("uint32"). NULL: out of memory. */
struct st_ctype *st_ctype_int(struct st_ctypes *r, uint32_t size, bool is_signed);
/* A pointer to t. NULL: out of memory. */
struct st_ctype *st_ctype_pointer(struct st_ctypes *r, struct st_ctype *t);

/*
 * The type name names ("struct sock", "union bpf_attr", "enum x",
 * "uint16", "int", "unsigned long"): the program's definitions first,
 * then the kernel's BTF. 0, or -ENOENT / -ENOMEM with the reason in err.
 */
int st_ctypes_named(struct st_ctypes *r, const char *name, struct st_ctype **out, char *err,
		    size_t errlen);

/*
 * How a probed object's DWARF is opened: open(path) gives libdw's handle
 * (NULL: none), and in *owner what close() ends with the registry.
 */
struct Dwarf;
struct st_ctypes_dwarf_ops {
	struct Dwarf *(*open)(const char *path, void **owner);
	void (*close)(void *owner);
};

/*
 * Adds the object at path (a uprobe's binary) to those whose DWARF names
 * types after the program's definitions and the kernel's BTF; its DWARF
 * is opened the first time a name is looked up there. 0 or -ENOMEM.
 */
int st_ctypes_add_object(struct st_ctypes *r, const char *path,
			 const struct st_ctypes_dwarf_ops *ops);

/* What a pointer points to, an array's element type; NULL when out of memory. */
struct st_ctype *st_ctype_ref(struct st_ctypes *r, struct st_ctype *t);

/*
 * Member name of struct or union t, looked up in its anonymous members
 * too, as C does: *m, with its offset from the start of t. 0, -ENOENT,
 * or -ENOMEM.
 */
int st_ctype_member(struct st_ctypes *r, struct st_ctype *t, const char *name,
		    const struct st_cmember **m, uint32_t *bit_off);

/* The member names of t, comma separated, for "valid are ..." messages: at most size bytes. */
void st_ctype_member_names(struct st_ctypes *r, struct st_ctype *t, char *buf, size_t size);

/* True for a type read as one integer: an integer, an enum, a pointer. */
static inline bool st_ctype_scalar(const struct st_ctype *t)
{
	return t->kind == ST_CT_INT || t->kind == ST_CT_ENUM || t->kind == ST_CT_PTR;
}

/* Whether t is an array of chars: bpftrace prints it as a string. */
bool st_ctype_char_array(struct st_ctypes *r, struct st_ctype *t);

/* An array of n elements of t. NULL: out of memory. */
struct st_ctype *st_ctype_array(struct st_ctypes *r, struct st_ctype *t, uint32_t n);
/* The alignment C gives t, in bytes (1 for what has none). */
uint32_t st_ctype_align(struct st_ctypes *r, struct st_ctype *t);

/*
 * The value of enum constant name: the program's definitions first, then
 * the kernel's BTF. 0, -ENOENT, or -ENOMEM.
 */
int st_ctypes_enum_value(struct st_ctypes *r, const char *name, int64_t *v);
/* An enum constant of the program's. 0, -EEXIST, or -ENOMEM. */
int st_ctypes_define_value(struct st_ctypes *r, const char *name, int64_t v);

/*
 * A definition of the program's: a struct, union or enum named name
 * ("struct foo"), its members added with st_ctype_add_member() in order,
 * then its size and alignment set; name NULL: an anonymous one, inside
 * another, which no name finds. -EEXIST if the program defined it
 * already.
 */
int st_ctypes_define(struct st_ctypes *r, enum st_ctype_kind kind, const char *name,
		     struct st_ctype **out);
int st_ctype_add_member(struct st_ctype *t, const char *name, struct st_ctype *type,
			uint32_t bit_off, uint32_t bit_size);

#endif /* SIDETRACE_CTYPES_CTYPES_H */
