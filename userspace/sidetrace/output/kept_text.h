/* SPDX-License-Identifier: MIT */
/*
 * Integers that the collector prints as text (parse/builtins.h
 * st_kept_is_text): ntop()'s IPv4 address, username's uid, strerror()'s
 * errno, named where they are printed, in a printf, a map key or a
 * clause of sidetrace's own; and the byte buffers of buf(), macaddr(),
 * ntop() of arrays and pton(), whose kind says how they print.
 */
#ifndef SIDETRACE_OUTPUT_KEPT_TEXT_H
#define SIDETRACE_OUTPUT_KEPT_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "parse/builtins.h"

/* Room for any integer's text: cgroup_path()'s paths in every hierarchy. */
#define ST_KEPT_TEXT_MAX 1024

/* v, kept as k, as text into buf. */
void st_kept_text(enum st_kept k, uint64_t v, char *buf, size_t size);

/* Room for any byte buffer's text: 4 characters a byte (\xNN), and the NUL. */
#define ST_BUF_TEXT (4 * ST_STR_LEN)

/*
 * The byte buffer in slot (ST_STR_LEN bytes, bpf/sidetrace.h ST_BUF_HDR)
 * as bpftrace prints it, into buf (ST_BUF_TEXT bytes): as its kind says,
 * or with style 'x' (printf's %rx: every byte \xNN) or 'h' (%rh: "0a fe").
 */
void st_buf_text(const void *slot, char style, char *buf);

#endif /* SIDETRACE_OUTPUT_KEPT_TEXT_H */
