/* SPDX-License-Identifier: MIT */
/*
 * The usdt: view of a target's probes: every USDT probe (a SIDE event's
 * sites included) as an event whose fields arg0..argN are the SDT
 * operands of its notes, typed by their size and sign ("-4@%eax": s32),
 * so that the checker and the compile step treat them as they treat a
 * SIDE event's top-level fields read from SDT arguments.
 */
#ifndef SIDETRACE_SIDE_USDT_VIEW_H
#define SIDETRACE_SIDE_USDT_VIEW_H

#include "events/events.h"

/* The usdt: view of the events of in, into out (zeroed first). 0 or -ENOMEM. */
int st_usdt_view(const struct st_event_list *in, struct st_event_list *out);

#endif /* SIDETRACE_SIDE_USDT_VIEW_H */
