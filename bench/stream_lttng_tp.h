/* SPDX-License-Identifier: MIT */
/*
 * LTTng-UST tracepoint provider of bench/stream_lttng.c: the event of
 * bench/stream_app.c, same four fields.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER bench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./stream_lttng_tp.h"

#if !defined(STREAM_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define STREAM_LTTNG_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

/* The fields read as a list, one a line. */
/* clang-format off */
LTTNG_UST_TRACEPOINT_EVENT(bench, op,
	LTTNG_UST_TP_ARGS(const char *, name, uint32_t, seq, uint64_t, value, int32_t, delta),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(name, name)
		lttng_ust_field_integer(uint32_t, seq, seq)
		lttng_ust_field_integer(uint64_t, value, value)
		lttng_ust_field_integer(int32_t, delta, delta)
	)
)
/* clang-format on */

#endif

#include <lttng/tracepoint-event.h>
