/* SPDX-License-Identifier: MIT */
/*
 * Aggregation keys whose string parts the kernel kept by address (struct
 * st_ro_ref, ST_MAPF_READ_WHOLE): their bytes put back, and the cuts the
 * kernel could not count since it never read them.
 */
#ifndef SIDETRACE_READOUT_ADDR_KEYS_H
#define SIDETRACE_READOUT_ADDR_KEYS_H

#include <stdbool.h>
#include <stdint.h>

#include "compile/compile.h"
#include "tracer/tracer.h"

/*
 * Puts the bytes of the strings that parts of key (st_compiled.key_size
 * bytes) hold by address in their place and clears st_key_hdr.addr_parts,
 * so that the key equals the one of the same bytes that the kernel read
 * per event. True when a string was cut (longer than ST_STR_LEN - 1); its
 * site is then in *site (if not NULL).
 */
bool st_addr_key_resolve(const struct st_tracer *t, const struct st_compiled *c, uint8_t *key,
			 uint32_t *site);

/*
 * Per probe (cuts[c->nr_probes]), the events whose key held a cut string
 * by address: the most that any one of its maps counted, since an event
 * adds to each map once. 0 or a negative errno.
 */
int st_addr_key_cuts(const struct st_tracer *t, const struct st_compiled *c, uint64_t *cuts);

#endif /* SIDETRACE_READOUT_ADDR_KEYS_H */
