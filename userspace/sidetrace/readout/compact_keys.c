// SPDX-License-Identifier: MIT
/* Compact aggregation keys back to their full form (compact_keys.h). */
#include <string.h>

#include "readout/compact_keys.h"

_Static_assert(sizeof(struct st_ro_ref) == ST_COMPACT_STR_LEN,
	       "a compact string part holds an address reference");

bool st_compact_key_expand(const struct st_compiled *c, const uint8_t *ckey, uint8_t *key)
{
	const struct st_map_layout *lay;
	const struct st_map_cfg *mc;
	struct st_key_hdr hdr;
	uint32_t k, len;

	memcpy(&hdr, ckey, sizeof(hdr));
	if (hdr.map_id >= c->nr_maps || !c->maps[hdr.map_id].str_parts)
		return false;
	mc = &c->maps[hdr.map_id];
	lay = &c->layouts[hdr.map_id];
	memset(key, 0, c->key_size);
	memcpy(key, &hdr, sizeof(hdr));
	for (k = 0; k < lay->nr_parts; k++) {
		len = st_kpart_size(lay->parts[k].kind, true);
		memcpy(key + ST_KEY_HDR + lay->parts[k].off, ckey + ST_KEY_HDR + lay->parts[k].coff,
		       len);
	}
	if (st_kind_has_bucket(mc->kind))
		memcpy(key + st_key_bucket_off(mc->key_size),
		       ckey + st_key_bucket_off(mc->compact_size), ST_KEY_BUCKET_SIZE);
	return true;
}
