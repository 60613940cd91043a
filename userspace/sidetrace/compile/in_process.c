// SPDX-License-Identifier: MIT
/* Which probes a process can run itself, and where the kernel probes their sites. */
#include "compile/compile.h"

/* An instruction that only the kernel's engine runs (lib/inproc/validate.c refuses it). */
static bool kernel_only(uint8_t op)
{
	switch (op) {
	case ST_I_OUT_JOIN:
	case ST_I_SIGNAL:
	case ST_I_DEBUGF:
		return true;
	default:
		return false;
	}
}

bool st_probe_served_in_process(const struct st_compiled_probe *p)
{
	const struct st_event *ev = p->event;
	uint32_t i;

	if (!ev || !st_event_kind(ev)->in_process || !ev->has_side || p->cfg.stacks || p->acts ||
	    p->reads_kernel || p->nr_regs)
		return false;
	/* Instructions that only the kernel's engine has (lib/inproc/validate.c). */
	for (i = 0; i < p->cfg.nr_insns; i++)
		if (kernel_only(p->cfg.insns[i].op))
			return false;
	/* Where an event is the engine's is decided at the fallback (side/probe.h). */
	for (i = 0; i < ev->nr_sites; i++)
		if (!ev->sites[i].fallback_delta)
			return false;
	return true;
}

bool st_compiled_in_process_any(const struct st_compiled *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		if (st_probe_served_in_process(&c->probes[i]))
			return true;
	return false;
}

uint32_t st_site_probe_delta(const struct st_compiled *c, const struct st_compiled_probe *p,
			     const struct st_site *site)
{
	return c->inproc_all && st_probe_served_in_process(p) ? site->fallback_delta : 0;
}
