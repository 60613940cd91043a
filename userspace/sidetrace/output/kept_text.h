/* SPDX-License-Identifier: MIT */
/*
 * Integers that the collector prints as text (parse/builtins.h
 * st_kept_is_text): ntop()'s IPv4 address, username's uid, strerror()'s
 * errno, named where they are printed, in a printf, a map key or a
 * clause of sidetrace's own.
 */
#ifndef SIDETRACE_OUTPUT_KEPT_TEXT_H
#define SIDETRACE_OUTPUT_KEPT_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "parse/builtins.h"

/* v, kept as k, as text into buf. */
void st_kept_text(enum st_kept k, uint64_t v, char *buf, size_t size);

#endif /* SIDETRACE_OUTPUT_KEPT_TEXT_H */
