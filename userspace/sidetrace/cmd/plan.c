// SPDX-License-Identifier: MIT
/* `sidetrace -d`: the plan of a compiled program (plan.h). */
#include <inttypes.h>

#include "cmd/plan.h"
#include "parse/functions.h"
#include "util/escape.h"

static void print_probes(FILE *f, const struct st_compiled *c)
{
	uint32_t i, sites;

	for (i = 0; i < c->nr_probes; i++) {
		const struct st_compiled_probe *p = &c->probes[i];

		sites = p->event->nr_sites;
		st_fputs_text(f, p->name);
		fprintf(f,
			"  %" PRIu32 " site%s, %u of %d loads, %" PRIu32
			" of %d instructions, program %s\n",
			sites, sites == 1 ? "" : "s", p->cfg.nr_loads, ST_MAX_LOADS,
			p->cfg.nr_insns, ST_MAX_INSNS, st_prog_name(st_compiled_prog(p)));
	}
}

/* BEGIN, END and interval: run by sidetrace itself. */
static void print_user_points(FILE *f, const struct st_program *prog)
{
	const struct st_attach_point *ap;
	const struct st_probe_kind *k;
	uint32_t i, j;

	for (i = 0; i < prog->nr_clauses; i++) {
		for (j = 0; j < prog->clauses[i].nr_points; j++) {
			ap = &prog->clauses[i].points[j];
			k = st_probe_kind(ap->kind);
			if (k->runs == ST_RUNS_EVERY)
				fprintf(f, "%s:%s:%s  in sidetrace\n", k->name, ap->provider,
					ap->event);
			else if (k->runs != ST_RUNS_AT_EVENTS)
				fprintf(f, "%s  in sidetrace\n", k->name);
		}
	}
}

static void print_maps(FILE *f, const struct st_program *prog)
{
	static const char *const types[] = {
		[ST_VT_NONE] = "?",    [ST_VT_INT] = "int64",  [ST_VT_UINT] = "uint64",
		[ST_VT_BOOL] = "bool", [ST_VT_STR] = "string",
	};
	const struct st_map_info *m;
	uint32_t i, k;

	for (i = 0; i < prog->nr_maps; i++) {
		m = &prog->maps[i];
		st_fputs_text(f, m->name);
		fprintf(f, "  %s", st_agg_name(m->agg));
		if (m->agg == ST_K_VALUE)
			fprintf(f, " (%s)", types[m->value_type]);
		for (k = 0; k < m->nr_keys; k++)
			fprintf(f, "%s%s", k ? ", " : ", keys: ",
				m->key_types[k] < sizeof(types) / sizeof(types[0])
					? types[m->key_types[k]]
					: "?");
		fputc('\n', f);
	}
}

/* The entries of hash, 0 when no map lives there (the kernel's has one). */
static uint32_t hash_entries(const struct st_compiled *c, uint8_t hash)
{
	return st_compiled_hashes(c) & hash ? st_compiled_hash_entries(c, hash) : 0;
}

void st_print_plan(FILE *f, const struct st_program *prog, const struct st_compiled *c)
{
	uint32_t size = st_compiled_events_size(c);

	fprintf(f, "Dry run: nothing attached. Probes:\n");
	print_probes(f, c);
	print_user_points(f, prog);
	fprintf(f,
		"Maps (%" PRIu32 " of %d, %" PRIu32 " keys each: keyed ones share %" PRIu32
		" entries, and %" PRIu32 " more for keys kept compact):\n",
		prog->nr_maps, ST_MAX_MAPS, st_compiled_map_keys(c), hash_entries(c, ST_HASH_AGGR),
		hash_entries(c, ST_HASH_COMPACT));
	print_maps(f, prog);
	/* As -b takes it: 16M, 4K. */
	if (st_compiled_streams(c))
		fprintf(f, "Event buffer: %" PRIu32 "%c (printf, print(args))\n",
			size >> (size >= (1U << 20) ? 20 : 10), size >= (1U << 20) ? 'M' : 'K');
	fflush(f);
}
