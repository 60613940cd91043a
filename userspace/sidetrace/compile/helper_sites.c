// SPDX-License-Identifier: MIT
/* -k: the places of the program whose helpers' failures are reported (parse/helpers.h). */
#include <errno.h>
#include <stdlib.h>

#include "compile/codegen.h"
#include "util/grow.h"

/*
 * The index of the site of h at pos, added when new: a clause compiled
 * for each of its probes calls it at the same sites.
 */
static int site_of(struct st_compiled *out, struct st_pos pos, enum st_helper h)
{
	uint32_t i;

	for (i = 0; i < out->nr_sites; i++)
		if (out->sites[i].helper == h && out->sites[i].pos.line == pos.line &&
		    out->sites[i].pos.col == pos.col)
			return i;
	if (st_grow(&out->sites, &out->sites_cap, out->nr_sites, sizeof(*out->sites), 16))
		return -ENOMEM;
	out->sites[out->nr_sites] = (struct st_helper_site){.pos = pos, .helper = h};
	return out->nr_sites++;
}

int cg_check(struct cctx *c, struct st_pos pos, enum st_helper h)
{
	struct st_probe_cfg *cfg = &c->probe->cfg;
	int site;

	if (!st_helper_checked(c->out->helper_checks, h) || !cfg->nr_insns)
		return 0;
	site = site_of(c->out, pos, h);
	if (site < 0)
		return site;
	/* 16 bits, 0 for none: a program has fewer places than that. */
	if (site >= UINT16_MAX)
		return cg_fail(c, pos, "-k reports the helpers of at most 65534 places");
	cfg->insns[cfg->nr_insns - 1].site = site + 1;
	return 0;
}
