/* SPDX-License-Identifier: MIT */
/*
 * The arithmetic of the kernel/collector contract: histogram buckets, the
 * min/max value encoding, the hash key's layout, the integer operators. Pure functions of their
 * arguments with no BPF helper, so that the BPF program computes with them
 * and the collector sizes, decodes and unit-tests with the very same code.
 * Included through sidetrace.h.
 */
#ifndef SIDETRACE_ARITH_H
#define SIDETRACE_ARITH_H

/* Inlined on both sides: in BPF a call would be a subprogram to verify. */
#define ST_ARITH static inline __attribute__((always_inline))

/* Aggregation kinds; every kind keeps a count, struct st_val says what else. */
enum st_agg_kind {
	ST_K_COUNT,
	ST_K_SUM,
	ST_K_AVG,
	ST_K_MIN,
	ST_K_MAX,
	ST_K_STATS,
	ST_K_HIST, /* key gets a log2 bucket, value counts */
	ST_K_LHIST, /* key gets a linear bucket, value counts */
	/*
	 * Not an aggregation: a plain value (@m[k] = v, @m[k]++), one copy
	 * for every CPU in st_values, read back by any clause.
	 */
	ST_K_VALUE,
	ST_NR_AGG_KINDS,
};

/* hist and lhist store a bucket after the key parts. */
ST_ARITH int st_kind_has_bucket(__u32 kind)
{
	return kind == ST_K_HIST || kind == ST_K_LHIST;
}

/*
 * Log2 histogram buckets, as bpftrace's hist(): index 0 counts negative
 * values, 1 counts 0, 2 counts 1, and index k >= 3 counts
 * [2^(k-2), 2^(k-1)); 65 is [2^63, 2^64).
 */
#define ST_HIST_BUCKETS 66

/* floor(log2(v)) for v > 0, without loops or branches the verifier walks. */
ST_ARITH __u64 st_log2_u64(__u64 v)
{
	__u64 r = 0, shift;

	shift = (v > 0xffffffffULL) << 5;
	v >>= shift;
	r |= shift;
	shift = (v > 0xffff) << 4;
	v >>= shift;
	r |= shift;
	shift = (v > 0xff) << 3;
	v >>= shift;
	r |= shift;
	shift = (v > 0xf) << 2;
	v >>= shift;
	r |= shift;
	shift = (v > 0x3) << 1;
	v >>= shift;
	r |= shift;
	return r | (v >> 1);
}

/* The hist() bucket of v; an unsigned value is never negative. */
ST_ARITH __u64 st_hist_bucket(__s64 v, int is_signed)
{
	if (is_signed && v < 0)
		return 0;
	if (v == 0)
		return 1;
	return st_log2_u64(v) + 2;
}

/*
 * The largest value hist() bucket b holds, as a two's complement __u64:
 * -1 for bucket 0 (negative values), then 0, 1, 3, 7, ... 2^64 - 1. The
 * printers label buckets with it (JSON "max", Prometheus "le").
 */
ST_ARITH __u64 st_hist_bucket_max(__u32 b)
{
	if (b == 0)
		return (__u64)-1;
	if (b == 1)
		return 0;
	return b - 1 < 64 ? (1ULL << (b - 1)) - 1 : ~0ULL;
}

/*
 * Linear histogram buckets, as bpftrace's lhist(), B = (max - min) / step:
 * index 0 counts v < min, index i in 1..B counts
 * [min + (i-1)*step, min + i*step), index B + 1 counts v >= max; B + 2
 * buckets in all. The checker guarantees min < max and step > 0.
 */
ST_ARITH __u64 st_lhist_buckets(__s64 min, __s64 max, __s64 step)
{
	return (__u64)(max - min) / (__u64)step + 2;
}

/* The lhist() bucket of v; a zero step (never configured) is bucket 0. */
ST_ARITH __u64 st_lhist_bucket(__s64 v, __s64 min, __s64 max, __u64 step)
{
	if (!step || v < min)
		return 0;
	if (v >= max)
		return (__u64)(max - min) / step + 1;
	return (__u64)(v - min) / step + 1;
}

/*
 * The largest value lhist() bucket b holds, for b below the last bucket
 * (which holds every value from max on): min - 1 for bucket 0, then
 * min + b * step - 1.
 */
ST_ARITH __s64 st_lhist_bucket_max(__u64 b, __s64 min, __s64 step)
{
	return min + (__s64)b * step - 1;
}

/*
 * min and max are kept as an unsigned maximum of an encoding whose zero is
 * neutral, so that a zeroed value needs no first-value case and CPUs
 * combine by taking the maximum: with u = v ^ (signed ? 1 << 63 : 0), max
 * holds max(u) and min holds max(~u).
 */
ST_ARITH __u64 st_max_encode(__s64 v, int is_signed)
{
	return (__u64)v ^ (is_signed ? 1ULL << 63 : 0);
}

ST_ARITH __u64 st_min_encode(__s64 v, int is_signed)
{
	return ~st_max_encode(v, is_signed);
}

ST_ARITH __u64 st_max_decode(__u64 enc, int is_signed)
{
	return enc ^ (is_signed ? 1ULL << 63 : 0);
}

ST_ARITH __u64 st_min_decode(__u64 enc, int is_signed)
{
	return st_max_decode(~enc, is_signed);
}

/*
 * Hash key: an 8-byte header (struct st_key_hdr: map id, address parts),
 * the map's key parts (key_size bytes, a multiple of 8), then for hist and
 * lhist the 8-byte bucket.
 */
#define ST_KEY_HDR 8
#define ST_KEY_BUCKET_SIZE 8

/* Offset of the bucket in a key whose parts take key_size bytes. */
ST_ARITH __u32 st_key_bucket_off(__u32 key_size)
{
	return ST_KEY_HDR + key_size;
}

/* Bytes of the key of a map of this kind whose parts take key_size bytes. */
ST_ARITH __u32 st_key_len(__u32 kind, __u32 key_size)
{
	return ST_KEY_HDR + key_size + (st_kind_has_bucket(kind) ? ST_KEY_BUCKET_SIZE : 0);
}

enum st_unop {
	ST_U_NEG,
	ST_U_LNOT,
	ST_U_BNOT,
	/* bswap(): the bytes of a 2, 4 or 8-byte integer in reverse order */
	ST_U_BSWAP16,
	ST_U_BSWAP32,
	ST_U_BSWAP64,
};

enum st_binop {
	ST_B_ADD,
	ST_B_SUB,
	ST_B_MUL,
	ST_B_DIV,
	ST_B_MOD, /* signed */
	ST_B_UDIV,
	ST_B_UMOD, /* unsigned */
	ST_B_AND,
	ST_B_OR,
	ST_B_XOR,
	ST_B_SHL,
	ST_B_SHR, /* logical shift right */
	ST_B_SAR, /* arithmetic shift right */
	ST_B_EQ,
	ST_B_NE,
	ST_B_LT,
	ST_B_LE,
	ST_B_GT,
	ST_B_GE, /* signed */
	ST_B_ULT,
	ST_B_ULE,
	ST_B_UGT,
	ST_B_UGE, /* unsigned */
	ST_B_LAND,
	ST_B_LOR,
};

/*
 * The integer operators of the language (enum st_binop, enum st_unop
 * above): the stack machine computes with these, and the collector
 * with the same functions for BEGIN, END and interval clauses. Division
 * and remainder by zero give 0 rather than a fault, as bpftrace's do; a
 * quotient past the type (INT64_MIN / -1) wraps, as the other operators
 * do, rather than trap. The collector divides map values with st_sdiv()
 * too: a process's engine may leave any value there.
 */
ST_ARITH __s64 st_sdiv(__s64 a, __s64 b, int mod)
{
	__u64 ua = a < 0 ? -(__u64)a : (__u64)a;
	__u64 ub = b < 0 ? -(__u64)b : (__u64)b;
	__u64 r;

	if (!ub)
		return 0;
	/* Negated unsigned: 2^63 (INT64_MIN's magnitude) has no positive __s64. */
	if (mod) {
		r = ua % ub;
		return a < 0 ? (__s64)-r : (__s64)r;
	}
	r = ua / ub;
	return (a < 0) != (b < 0) ? (__s64)-r : (__s64)r;
}

ST_ARITH __s64 st_unary(__u32 op, __s64 v)
{
	switch (op) {
	case ST_U_NEG:
		return -(__u64)v;
	case ST_U_LNOT:
		return !v;
	case ST_U_BSWAP16:
		return __builtin_bswap16((__u16)v);
	case ST_U_BSWAP32:
		return __builtin_bswap32((__u32)v);
	case ST_U_BSWAP64:
		return (__s64)__builtin_bswap64((__u64)v);
	default:
		return ~v;
	}
}

/* bswap() of an integer of size bytes: its operator; ST_U_BSWAP64 past 4 bytes, none for 1 (-1). */
ST_ARITH int st_bswap_unop(__u32 size)
{
	return size == 1 ? -1 : size == 2 ? ST_U_BSWAP16 : size <= 4 ? ST_U_BSWAP32 : ST_U_BSWAP64;
}

/* A comparison of enum st_binop (ST_B_EQ to ST_B_UGE): 1 or 0; 0 for any other operator. */
ST_ARITH __s64 st_compare(__u32 op, __s64 l, __s64 r)
{
	__u64 ul = l, ur = r;

	switch (op) {
	case ST_B_EQ:
		return l == r;
	case ST_B_NE:
		return l != r;
	case ST_B_LT:
		return l < r;
	case ST_B_LE:
		return l <= r;
	case ST_B_GT:
		return l > r;
	case ST_B_GE:
		return l >= r;
	case ST_B_ULT:
		return ul < ur;
	case ST_B_ULE:
		return ul <= ur;
	case ST_B_UGT:
		return ul > ur;
	case ST_B_UGE:
		return ul >= ur;
	default:
		return 0;
	}
}

ST_ARITH __s64 st_binary(__u32 op, __s64 l, __s64 r)
{
	__u64 ul = l, ur = r;

	switch (op) {
	case ST_B_ADD:
		return ul + ur;
	case ST_B_SUB:
		return ul - ur;
	case ST_B_MUL:
		return ul * ur;
	case ST_B_DIV:
		return st_sdiv(l, r, 0);
	case ST_B_MOD:
		return st_sdiv(l, r, 1);
	case ST_B_UDIV:
		return ur ? ul / ur : 0;
	case ST_B_UMOD:
		return ur ? ul % ur : 0;
	case ST_B_AND:
		return ul & ur;
	case ST_B_OR:
		return ul | ur;
	case ST_B_XOR:
		return ul ^ ur;
	case ST_B_SHL:
		return ul << (ur & 63);
	case ST_B_SHR:
		return ul >> (ur & 63);
	case ST_B_SAR:
		return l >> (ur & 63);
	case ST_B_EQ ... ST_B_UGE:
		return st_compare(op, l, r);
	case ST_B_LAND:
		return l && r;
	case ST_B_LOR:
		return l || r;
	default:
		return 0;
	}
}

#endif /* SIDETRACE_ARITH_H */
