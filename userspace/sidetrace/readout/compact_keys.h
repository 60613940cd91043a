/* SPDX-License-Identifier: MIT */
/*
 * Aggregation keys that the kernel kept in compact form (st_aggr_compact,
 * ST_COMPACT_STR_LEN bytes per string part) put back into the full form
 * of st_aggr, which everything after the read works with.
 */
#ifndef SIDETRACE_READOUT_COMPACT_KEYS_H
#define SIDETRACE_READOUT_COMPACT_KEYS_H

#include <stdbool.h>
#include <stdint.h>

#include "compile/compile.h"

/*
 * Writes compact key ckey (st_compiled.compact_key_size bytes) in full
 * form into key (st_compiled.key_size bytes): the parts at their full
 * offsets, a string part's 16 bytes followed by zeros, the header kept
 * (its addr_parts still marks the parts by address). False if the key
 * names no map that has a compact form.
 */
bool st_compact_key_expand(const struct st_compiled *c, const uint8_t *ckey, uint8_t *key);

#endif /* SIDETRACE_READOUT_COMPACT_KEYS_H */
