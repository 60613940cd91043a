// SPDX-License-Identifier: MIT
/*
 * Maps: their configuration, hash key layouts and the array slots of maps
 * without keys.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "compile/codegen.h"

/*
 * A map without keys lives in slots of a per-CPU array, one per value or
 * histogram bucket: no key to build, no hashing. Huge linear histograms
 * stay in the hash, whose entries exist only for buckets that were hit.
 */
static void flat_slots(struct st_compiled *out, struct st_map_cfg *mc, uint32_t nr_keys)
{
	uint64_t len = 1;

	if (nr_keys || mc->kind == ST_K_VALUE)
		return;
	if (mc->kind == ST_K_HIST)
		len = ST_HIST_BUCKETS;
	else if (mc->kind == ST_K_LHIST)
		len = st_lhist_buckets(mc->lmin, mc->lmax, mc->lstep);
	if (len > ST_MAX_FLAT_SLOTS - out->nr_flat)
		return;
	mc->flags |= ST_MAPF_FLAT;
	mc->flat_base = out->nr_flat;
	mc->flat_len = len;
	out->nr_flat += len;
}

/* What key is kept as: a C pointer's as itself, printed in hex. */
static enum st_kept key_kept(const struct st_expr *key)
{
	if (key->ctype && key->ctype->kind == ST_CT_PTR)
		return ST_KEPT_POINTER;
	return st_expr_kept(key);
}

/*
 * How a stack key prints: the most frames a key asks for (ustack(N)), 0
 * for all, UINT32_MAX while one asks for all; as perf prints them, where
 * one asks (kstack(perf)).
 */
struct stack_print {
	uint32_t frames;
	bool perf;
};

/* Is every key k of map m written in stmts a value the kernel keeps as b? */
static bool keys_kept_as(const struct st_stmt *stmts, uint32_t nr, uint32_t m, uint32_t k,
			 enum st_kept b, struct stack_print *sp)
{
	const struct st_expr *key;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		const struct st_stmt *st = &stmts[i];
		const struct st_expr *ref =
			st->kind == ST_STMT_CALL && st_func(st->call->func)->args == ST_FA_ELEM
				? st->call->kids[0]
				: NULL;

		if (st->kind == ST_STMT_IF && (!keys_kept_as(st->then, st->nr_then, m, k, b, sp) ||
					       !keys_kept_as(st->els, st->nr_els, m, k, b, sp)))
			return false;
		if (ref && ref->map_id == (int)m && k < ref->nr_kids)
			key = ref->kids[k];
		else if (st->map && st->map_id == (int)m && k < st->nr_keys)
			key = st->keys[k];
		else
			continue;
		if (key_kept(key) != b)
			return false;
		if (!key->uval || (sp->frames && key->uval > sp->frames))
			sp->frames = key->uval ? key->uval : UINT32_MAX;
		else if (!sp->frames)
			sp->frames = key->uval;
		sp->perf |= key->perf_stack;
	}
	return true;
}

/* Whether key k of map m is kept as b in every clause that writes or deletes it. */
static bool key_always(const struct st_program *prog, uint32_t m, uint32_t k, enum st_kept b,
		       struct stack_print *sp)
{
	uint32_t i;

	for (i = 0; i < prog->nr_clauses; i++)
		if (!keys_kept_as(prog->clauses[i].stmts, prog->clauses[i].nr_stmts, m, k, b, sp))
			return false;
	return true;
}

/*
 * A key of an aggregation that is always kept as b: the probe builtin is
 * stored as the probe's index, a stack as its id, and printed as the
 * probe's name or the stack's frames. Plain values are read back by key:
 * never.
 */
static bool key_is_kept(const struct st_program *prog, uint32_t m, uint32_t k, enum st_kept b,
			struct stack_print *sp)
{
	return prog->maps[m].agg != ST_K_VALUE && key_always(prog, m, k, b, sp);
}

/*
 * What a key kept as an integer printed as text always is, or
 * ST_KEPT_VALUE; in maps of plain values too, whose keys are read back
 * by the integer itself.
 */
static enum st_kept key_text(const struct st_program *prog, uint32_t m, uint32_t k)
{
	struct stack_print sp = {0};
	int b;

	for (b = 0; b < ST_NR_KEPT; b++)
		if ((st_kept_is_text(b) || b == ST_KEPT_POINTER) && key_always(prog, m, k, b, &sp))
			return b;
	return ST_KEPT_VALUE;
}

/* Where each key part of map m goes; the parts' size, or -EINVAL. */
static int layout_keys(const struct st_program *prog, uint32_t m, struct st_map_layout *lay,
		       struct st_diag *diag)
{
	const struct st_map_info *mi = &prog->maps[m];
	uint32_t k, off = 0, coff = 0;

	lay->nr_parts = mi->nr_keys;
	for (k = 0; k < mi->nr_keys; k++) {
		struct stack_print sp = {0};

		lay->parts[k].off = off;
		lay->parts[k].coff = coff;
		if (mi->key_types[k] == ST_VT_STR && key_is_kept(prog, m, k, ST_KEPT_PROBE, &sp)) {
			lay->parts[k].kind = ST_KPART_PROBE;
		} else if (key_is_kept(prog, m, k, ST_KEPT_USTACK, &sp) ||
			   key_is_kept(prog, m, k, ST_KEPT_KSTACK, &sp)) {
			lay->parts[k].kind = key_is_kept(prog, m, k, ST_KEPT_USTACK, &sp)
						     ? ST_KPART_USTACK
						     : ST_KPART_KSTACK;
			/* Frames printed; the kernel keeps them all (one stack id). */
			lay->parts[k].frames = sp.frames == UINT32_MAX ? 0 : sp.frames;
			lay->parts[k].perf = sp.perf;
		} else if (key_is_kept(prog, m, k, ST_KEPT_KSYM, &sp)) {
			lay->parts[k].kind = ST_KPART_KSYM;
		} else if (key_is_kept(prog, m, k, ST_KEPT_USYM, &sp)) {
			lay->parts[k].kind = ST_KPART_USYM;
		} else if (key_text(prog, m, k) != ST_KEPT_VALUE) {
			lay->parts[k].kind = ST_KPART_TEXT;
			lay->parts[k].text = key_text(prog, m, k);
		} else if (mi->key_types[k] == ST_VT_STR) {
			lay->parts[k].kind = ST_KPART_STR;
		} else if (mi->key_types[k] == ST_VT_BUF) {
			lay->parts[k].kind = ST_KPART_BUF;
		} else {
			lay->parts[k].kind = ST_KPART_INT;
			lay->parts[k].pid = key_always(prog, m, k, ST_KEPT_PID, &sp);
		}
		off += st_kpart_size(lay->parts[k].kind, false);
		coff += st_kpart_size(lay->parts[k].kind, true);
	}
	if (off > ST_KEY_PARTS_MAX) {
		st_diag_set(diag, prog->filename, mi->pos,
			    "the keys of %s take %u bytes; the kernel allows %d", mi->name, off,
			    ST_KEY_PARTS_MAX);
		st_diag_hint(diag, "each string key takes %d bytes, other keys 8", ST_STR_LEN);
		return -EINVAL;
	}
	lay->parts_size = off;
	return off;
}

/*
 * Whether map m is read whole only (ST_MAPF_READ_WHOLE): an aggregation
 * with a string key that nothing looks up or deletes by key, since such a
 * lookup builds the full key from the bytes. Its string parts, str_parts.
 */
static uint32_t read_whole_str_parts(const struct st_map_info *mi, const struct st_map_layout *lay)
{
	uint32_t k, parts = 0;

	if (mi->agg == ST_K_VALUE || mi->elem_used)
		return 0;
	for (k = 0; k < lay->nr_parts; k++) {
		/* A buffer's NULs are bytes: no short form tells them from padding. */
		if (lay->parts[k].kind == ST_KPART_BUF)
			return 0;
		if (lay->parts[k].kind == ST_KPART_STR)
			parts |= 1U << k;
	}
	return parts;
}

/* The compact form of map mc's key: its parts' bytes, and its own. */
static void layout_compact(const struct st_map_layout *lay, struct st_map_cfg *mc,
			   uint32_t *largest)
{
	const struct st_kpart *last = &lay->parts[lay->nr_parts - 1];

	mc->compact_size = last->coff + (last->kind == ST_KPART_STR ? ST_COMPACT_STR_LEN : 8);
	if (st_key_len(mc->kind, mc->compact_size) > *largest)
		*largest = st_key_len(mc->kind, mc->compact_size);
}

/* Key layouts and map configurations, from the checker's map table. */
int cg_layout_maps(const struct st_program *prog, struct st_compiled *out, struct st_diag *diag)
{
	uint32_t m, largest = st_key_len(ST_K_HIST, 0), compact = ST_KEY_HDR;
	int size;

	if (prog->nr_maps > ST_MAX_MAPS) {
		st_diag_set(diag, prog->filename, prog->maps[ST_MAX_MAPS].pos, "more than %d maps",
			    ST_MAX_MAPS);
		return -EINVAL;
	}
	out->nr_maps = prog->nr_maps;
	for (m = 0; m < prog->nr_maps; m++) {
		const struct st_map_info *mi = &prog->maps[m];
		struct st_map_cfg *mc = &out->maps[m];

		size = layout_keys(prog, m, &out->layouts[m], diag);
		if (size < 0)
			return size;
		mc->key_size = size;
		mc->flags = mi->value_signed || mi->value_type == ST_VT_INT ? ST_MAPF_SIGNED : 0;
		if (st_vt_slot(mi->value_type))
			mc->flags |= ST_MAPF_STR;
		mc->kind = mi->agg;
		mc->str_parts = read_whole_str_parts(mi, &out->layouts[m]);
		if (mc->str_parts) {
			mc->flags |= ST_MAPF_READ_WHOLE;
			layout_compact(&out->layouts[m], mc, &compact);
		}
		mc->lmin = mi->lhist_min;
		mc->lmax = mi->lhist_max;
		mc->lstep = mi->lhist_step;
		if (st_key_len(mc->kind, size) > largest)
			largest = st_key_len(mc->kind, size);
		flat_slots(out, mc, mi->nr_keys);
	}
	out->key_size = largest;
	out->compact_key_size = compact;
	return 0;
}
