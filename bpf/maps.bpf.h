/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Map helpers shared by the sidetrace BPF programs. */
#ifndef SIDETRACE_MAPS_BPF_H
#define SIDETRACE_MAPS_BPF_H

#include <bpf/bpf_helpers.h>

/*
 * Returns the value of key, inserting init first when the key is new.
 * NULL means the map is full: the caller counts that, it never drops
 * silently. -EEXIST is not an error: another CPU inserted the key first.
 */
static __always_inline void *lookup_or_try_init(void *map, const void *key, const void *init)
{
	void *val;
	long err;

	val = bpf_map_lookup_elem(map, key);
	if (val)
		return val;
	err = bpf_map_update_elem(map, key, init, BPF_NOEXIST);
	if (err && err != -17 /* EEXIST */)
		return NULL;
	return bpf_map_lookup_elem(map, key);
}

#endif /* SIDETRACE_MAPS_BPF_H */
