/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The plain statements that the specialized programs run without the
 * stack machine (specialized.bpf.h, keyed.bpf.h), as the collector finds
 * them in a probe's code (compile/specialize.c). Part of sidetrace.h,
 * which includes it.
 */
#ifndef SIDETRACE_PLAIN_STMT_H
#define SIDETRACE_PLAIN_STMT_H

/* Where a key part or value of a plain statement comes from. */
enum st_plain_src {
	ST_P_INT, /* the integer of load a */
	ST_P_STR, /* the string of load a */
	ST_P_BUILTIN, /* integer builtin a */
	ST_P_CONST, /* the value imm (values only) */
	ST_P_COMM, /* the task's comm, a string of ST_COMPACT_STR_LEN bytes (key parts only) */
};

struct st_plain_part {
	__u8 src; /* enum st_plain_src */
	__u8 a;
	__u16 off; /* from the first key part byte */
	__u16 coff; /* the same in a compact key (st_map_layout) */
	__u16 reserved;
};

/* @map[parts...] = aggregation(value), for sidetrace_plain, where filter_op holds if filtered. */
struct st_plain_stmt {
	__u32 mask; /* loads it reads: one failed skips it */
	__u8 map;
	__u8 nr_parts;
	__u8 filtered;
	__u8 filter_op; /* a comparison (enum st_binop) of filter with filter_imm */
	struct st_plain_part value; /* ST_P_INT, ST_P_BUILTIN or ST_P_CONST */
	__s64 imm; /* ST_P_CONST value */
	struct st_plain_part filter; /* ST_P_INT or ST_P_BUILTIN, the same every time read */
	__s64 filter_imm;
	struct st_plain_part parts[ST_MAX_PLAIN_PARTS];
};

#endif /* SIDETRACE_PLAIN_STMT_H */
