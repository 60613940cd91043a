/* SPDX-License-Identifier: MIT */
/* What a reader of DWARF shares with the probed objects' C types (dwarf_ctypes.c). */
#ifndef SIDETRACE_CTYPES_DWARF_CTYPES_H
#define SIDETRACE_CTYPES_DWARF_CTYPES_H

#include <elfutils/libdw.h>
#include <stdbool.h>

/* Type DIE die past typedefs and qualifiers, into *out (may be die); false for void. */
bool st_dwarf_type_peel(Dwarf_Die *die, Dwarf_Die *out);

#endif /* SIDETRACE_CTYPES_DWARF_CTYPES_H */
