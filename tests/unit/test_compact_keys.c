// SPDX-License-Identifier: MIT
/*
 * Unit tests of readout/compact_keys.c: a compact key (an integer, a
 * string by address, a probe and a bucket) put back in full form at the
 * offsets of the full layout, and keys that have no compact form refused.
 */
#include <stdint.h>
#include <string.h>

#include "readout/compact_keys.h"

#include "unit.h"

/* @k[int, str, probe] = hist(): full parts 8 + 64 + 8, compact 8 + 16 + 8. */
static void hist_map(struct st_compiled *c)
{
	struct st_map_layout *lay = &c->layouts[0];

	memset(c, 0, sizeof(*c));
	c->nr_maps = 2;
	c->maps[0] = (struct st_map_cfg){.kind = ST_K_HIST,
					 .key_size = 80,
					 .compact_size = 32,
					 .str_parts = 2,
					 .flags = ST_MAPF_READ_WHOLE};
	lay->nr_parts = 3;
	lay->parts[0] = (struct st_kpart){.kind = ST_KPART_INT, .off = 0, .coff = 0};
	lay->parts[1] = (struct st_kpart){.kind = ST_KPART_STR, .off = 8, .coff = 8};
	lay->parts[2] = (struct st_kpart){.kind = ST_KPART_PROBE, .off = 72, .coff = 24};
	c->maps[1] = (struct st_map_cfg){.kind = ST_K_COUNT, .key_size = 8};
	c->layouts[1].nr_parts = 1;
	c->key_size = st_key_len(ST_K_HIST, 80);
	c->compact_key_size = st_key_len(ST_K_HIST, 32);
}

int main(void)
{
	uint8_t ckey[ST_KEY_MAX] = {0}, key[ST_KEY_MAX], want[ST_KEY_MAX] = {0};
	struct st_key_hdr hdr = {.map_id = 0, .addr_parts = 2};
	struct st_ro_ref ref = {.site = 3, .off = -40};
	uint64_t v = 42, probe = 1, bucket = 7;
	struct st_compiled c;

	hist_map(&c);
	memcpy(ckey, &hdr, sizeof(hdr));
	memcpy(ckey + 8, &v, 8);
	memcpy(ckey + 16, &ref, sizeof(ref));
	memcpy(ckey + 32, &probe, 8);
	memcpy(ckey + 40, &bucket, 8);
	memcpy(want, &hdr, sizeof(hdr));
	memcpy(want + 8, &v, 8);
	memcpy(want + 16, &ref, sizeof(ref));
	memcpy(want + 80, &probe, 8);
	memcpy(want + 88, &bucket, 8);
	memset(key, 0xff, sizeof(key));
	ok(st_compact_key_expand(&c, ckey, key) && !memcmp(key, want, c.key_size),
	   "expand: parts at their full offsets, the string's rest zero, the bucket last");

	/* A short string's bytes read as the full key of the same bytes. */
	hdr.addr_parts = 0;
	memcpy(ckey, &hdr, sizeof(hdr));
	memset(ckey + 16, 0, 16);
	memcpy(ckey + 16, "fifteen chars!!", 15);
	memcpy(want, &hdr, sizeof(hdr));
	memset(want + 16, 0, ST_STR_LEN);
	memcpy(want + 16, "fifteen chars!!", 15);
	ok(st_compact_key_expand(&c, ckey, key) && !memcmp(key, want, c.key_size),
	   "expand: a string's bytes, NUL-padded to the full part");

	hdr.map_id = 1;
	memcpy(ckey, &hdr, sizeof(hdr));
	ok(!st_compact_key_expand(&c, ckey, key), "refused: a map without a compact form");
	hdr.map_id = 2;
	memcpy(ckey, &hdr, sizeof(hdr));
	ok(!st_compact_key_expand(&c, ckey, key), "refused: no such map");
	return unit_summary();
}
