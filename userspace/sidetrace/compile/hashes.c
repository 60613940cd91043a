// SPDX-License-Identifier: MIT
/*
 * The kernel hashes that maps live in (ST_HASH_*) and their sizes: each
 * map that may live in a hash gets st_compiled_map_keys() entries there.
 * A preallocated per-CPU hash costs about a microsecond per entry and CPU
 * to create, so a hash no map can reach gets one entry.
 */
#include "compile/compile.h"

/* Whether probe p's program may write a key of map m in compact form. */
static bool writes_compact(const struct st_compiled_probe *p, uint32_t m)
{
	enum st_prog prog;
	uint32_t i, k;

	if (p->special != ST_SPECIAL_PLAIN && p->special != ST_SPECIAL_KEYED)
		return false;
	prog = st_compiled_prog(p);
	if (prog != ST_PROG_PLAIN && prog != ST_PROG_TP_PLAIN && prog != ST_PROG_KEYED &&
	    prog != ST_PROG_KEYED1 && prog != ST_PROG_TP_KEYED)
		return false;
	for (i = 0; i < p->cfg.nr_plain && i < ST_MAX_PLAIN; i++) {
		const struct st_plain_stmt *st = &p->cfg.plain[i];

		if (st->map != m)
			continue;
		/* A tracepoint's strings are no literal: sidetrace_tp_keyed keys them in full. */
		for (k = 0; k < st->nr_parts && k < ST_MAX_PLAIN_PARTS; k++)
			if (prog == ST_PROG_TP_KEYED && st->parts[k].src == ST_P_STR)
				return false;
		return true;
	}
	return false;
}

/*
 * Whether probe p may write a key of map m in full form: the stack
 * machine always does; a specialized program does for a string part that
 * is not comm, which may be too long or not a literal.
 */
static bool writes_full(const struct st_compiled_probe *p, uint32_t m)
{
	uint32_t i, k;

	if (!writes_compact(p, m)) {
		for (i = 0; i < p->cfg.nr_insns && i < ST_MAX_INSNS; i++)
			if (p->cfg.insns[i].op == ST_I_AGG && p->cfg.insns[i].a == m)
				return true;
		return false;
	}
	for (i = 0; i < p->cfg.nr_plain && i < ST_MAX_PLAIN; i++)
		for (k = 0; k < p->cfg.plain[i].nr_parts && k < ST_MAX_PLAIN_PARTS; k++)
			if (p->cfg.plain[i].map == m && p->cfg.plain[i].parts[k].src == ST_P_STR)
				return true;
	return false;
}

uint8_t st_compiled_map_hashes(const struct st_compiled *c, uint32_t m)
{
	const struct st_map_cfg *mc = &c->maps[m];
	uint8_t h = 0;
	uint32_t i;

	if (mc->kind == ST_K_VALUE)
		return ST_HASH_VALUES;
	if (mc->flags & ST_MAPF_FLAT)
		return 0;
	/* Only a key with a string part read whole has a compact form (layout.c). */
	if (!(mc->flags & ST_MAPF_READ_WHOLE) || c->user_aggs)
		h |= ST_HASH_AGGR;
	for (i = 0; i < c->nr_probes && (mc->flags & ST_MAPF_READ_WHOLE); i++) {
		if (writes_compact(&c->probes[i], m))
			h |= ST_HASH_COMPACT;
		if (writes_full(&c->probes[i], m))
			h |= ST_HASH_AGGR;
	}
	return h;
}

uint8_t st_compiled_hashes(const struct st_compiled *c)
{
	uint8_t h = 0;
	uint32_t m;

	for (m = 0; m < c->nr_maps; m++)
		h |= st_compiled_map_hashes(c, m);
	return h;
}

uint32_t st_compiled_hash_entries(const struct st_compiled *c, uint8_t hash)
{
	uint64_t n = 0;
	uint32_t m;

	for (m = 0; m < c->nr_maps; m++)
		n += !!(st_compiled_map_hashes(c, m) & hash);
	n *= st_compiled_map_keys(c);
	return n ? (n < UINT32_MAX ? n : UINT32_MAX) : 1;
}
