/* SPDX-License-Identifier: MIT */
/*
 * profile:hz:N as an event (ST_AP_PROFILE): no fields, one "site", and
 * its rate in sample_hz: N samples a second on every CPU.
 */
#ifndef SIDETRACE_KERNEL_PROFILE_H
#define SIDETRACE_KERNEL_PROFILE_H

#include "events/events.h"

/* Appends the event of rate (digits, checked by the lexer) to out. 0 or -ENOMEM. */
int st_profile_event(const char *rate, struct st_event_list *out);

#endif /* SIDETRACE_KERNEL_PROFILE_H */
