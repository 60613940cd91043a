/* SPDX-License-Identifier: MIT */
/*
 * Symbol tables for naming addresses in stacks: an object file's function
 * symbols (C++ names demangled), with its loadable segments to turn a
 * file offset into an address; and the kernel's (/proc/kallsyms).
 */
#ifndef SIDETRACE_OBJFILE_SYMBOLS_H
#define SIDETRACE_OBJFILE_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct st_sym {
	uint64_t addr;
	uint64_t size; /* 0: up to the next symbol */
	char *name; /* without its version (fopen, not fopen@@GLIBC_2.2.5) */
	uint16_t rank; /* of aliases, the highest names the address (st_sym_rank()) */
};

/* The length of a symbol's name without its version ("fopen@@GLIBC_2.2.5": 5). */
static inline size_t st_sym_name_len(const char *name)
{
	const char *at = name[0] ? strchr(name + 1, '@') : NULL;

	return at ? (size_t)(at - name) : strlen(name);
}

/*
 * How well a symbol names its address among its aliases: a global one
 * over a weak one over a local one (STB_*), then a public name over one
 * that starts with '_', then the shorter (fopen over _IO_fopen and
 * fopen64, open over open64).
 */
static inline uint16_t st_sym_rank(unsigned int bind, const char *name)
{
	unsigned int binding = bind == 1 /* STB_GLOBAL */ ? 2 : bind == 2 /* STB_WEAK */ ? 1 : 0;
	unsigned int public_name = name[0] != '_';
	size_t len = st_sym_name_len(name);

	return (uint16_t)((binding * 2 + public_name) << 8 | (255 - (len < 255 ? len : 255)));
}

struct st_symtab {
	struct st_sym *v; /* sorted by addr */
	size_t nr;
	/* An object file's PT_LOAD segments: offset, vaddr, filesz (3 words each). */
	uint64_t *segs;
	size_t nr_segs;
	unsigned char build_id[20]; /* its GNU build id, as the kernel reads it */
	size_t build_id_len; /* 0: none */
	char **needed; /* the libraries it needs (DT_NEEDED), by name */
	size_t nr_needed;
};

/* Loads the function symbols of the object at path. 0 or a negative errno. */
int st_symtab_load_file(const char *path, struct st_symtab *t);

/* A symbol of an object file found by its name (st_symbol_named()). */
struct st_named_sym {
	uint64_t addr; /* its link-time address */
	uint64_t size;
	bool pie; /* the object is ET_DYN: loaded at an address of the process's choice */
};

/*
 * The defined data or function symbol name of the object at path (its
 * .symtab, else .dynsym): 0, -ENOENT, or another negative errno with a
 * message in err.
 */
int st_symbol_named(const char *path, const char *name, struct st_named_sym *out, char *err,
		    size_t errlen);

/* Loads the kernel's text symbols from /proc/kallsyms. 0 or a negative errno. */
int st_symtab_load_kernel(struct st_symtab *t);

/*
 * The address of the kernel's symbol name (of any type, the first one
 * /proc/kallsyms lists): 0, -ENOENT, or -EPERM where kallsyms hides
 * addresses (not root, kptr_restrict).
 */
int st_kallsyms_addr(const char *name, uint64_t *addr);

/* How many of the kernel's text symbols /proc/kallsyms names name (modules' too). */
unsigned int st_kallsyms_count(const char *name);

/*
 * The bytes of the kernel's text symbol name, up to the next one
 * /proc/kallsyms lists (it gives no sizes): 0, or -ENOENT (also where
 * kallsyms hides addresses), or a negative errno when it cannot be read.
 */
int st_kallsyms_size(const char *name, uint64_t *size);

/* The symbol holding addr and addr's offset into it, or NULL. */
const struct st_sym *st_symtab_find(const struct st_symtab *t, uint64_t addr, uint64_t *off);

/* An object file's address of the byte at file offset off; false if no segment maps it. */
bool st_symtab_vaddr(const struct st_symtab *t, uint64_t off, uint64_t *vaddr);

void st_symtab_free(struct st_symtab *t);

#endif /* SIDETRACE_OBJFILE_SYMBOLS_H */
