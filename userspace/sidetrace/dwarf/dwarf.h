/* SPDX-License-Identifier: MIT */
/*
 * A function's parameters and return value from DWARF (elfutils' libdw):
 * their names, their types as SIDE types (integers, bool, enums with
 * their labels, char pointers as strings, other pointers), and where each
 * one is at the probe's address, as the BPF program reads SDT operands
 * (struct st_arg_spec). What cannot be read there gets the reason instead.
 */
#ifndef SIDETRACE_DWARF_DWARF_H
#define SIDETRACE_DWARF_DWARF_H

#include <stdbool.h>
#include <stdint.h>

#include "ctypes/ctypes.h"
#include "objfile/elf.h"
#include "events/events.h"

struct st_dwarf;

/*
 * The DWARF of e: its own, or separate debug info found by build id or
 * debug link from path (NULL: none looked for); NULL if none.
 */
struct st_dwarf *st_dwarf_open(struct st_elf *e, const char *path);
void st_dwarf_close(struct st_dwarf *d);

/* The separate debug file d was read from (a stripped object's symbols are there), or NULL. */
Elf *st_dwarf_debug_elf(const struct st_dwarf *d);

/* A parameter, or the return value, at a probe address. */
struct st_dwarf_value {
	char *name;
	struct st_type type;
	struct st_arg_spec spec;
	struct st_arg_spec len_spec; /* a counted string (type.counted): where its length is */
	char *unreadable; /* why it cannot be read there, or NULL */
};

struct st_dwarf_func {
	uint64_t
		probe_addr; /* entry, or past the prologue where the parameters live in the frame */
	struct st_dwarf_value *params;
	uint32_t nr_params;
	struct st_dwarf_value ret; /* name "retval"; type label 0 for void */
	bool has_ret;
};

/*
 * The function at entry address addr: its parameters where they are at
 * the probe address (at, or when 0 its entry, or past its prologue where
 * its parameters live in the frame), its return value in its register at
 * a return. 0; -ENOENT when DWARF does not describe it; -ENOMEM.
 */
int st_dwarf_function(struct st_dwarf *d, uint64_t addr, uint64_t at, struct st_dwarf_func *out);
void st_dwarf_func_fini(struct st_dwarf_func *f);

/* Opens a probed object's DWARF for the C types a program names (ctypes.h). */
extern const struct st_ctypes_dwarf_ops st_dwarf_ctypes_ops;

#endif /* SIDETRACE_DWARF_DWARF_H */
