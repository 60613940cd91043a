/* SPDX-License-Identifier: MIT */
/* Arrays that grow by doubling: the one rule of the collector's lists. */
#ifndef SIDETRACE_UTIL_GROW_H
#define SIDETRACE_UTIL_GROW_H

#include <stddef.h>

/*
 * Makes room for element nr of the array at *(void **)arr, *cap elements
 * of elem bytes: once nr reaches *cap, *cap doubles (first when 0). 0, or
 * -ENOMEM with the array and *cap unchanged.
 */
int st_grow(void *arr, size_t *cap, size_t nr, size_t elem, size_t first);

#endif /* SIDETRACE_UTIL_GROW_H */
