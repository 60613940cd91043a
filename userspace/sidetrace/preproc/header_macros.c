// SPDX-License-Identifier: MIT
/*
 * The headers bpftrace's programs include for constants, and the
 * constants: the values of glibc's <bits/socket.h> and <bits/socket_type.h>,
 * the kernel's <linux/socket.h>, <linux/sched.h>, <uapi/linux/sched.h> and
 * <net/tcp_states.h>, which every kernel since 4.14 shares; and the errno
 * names of <errno.h>, as the C library names them.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "preproc/header_macros.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define GROUP(m) \
	{ \
		m, ARRAY_SIZE(m) \
	}

/* Each family under both names, PF_ as the libc defines it: the AF_ one. */
#define FAMILY(n, v) \
	{"AF_" #n, #v}, \
	{ \
		"PF_" #n, "AF_" #n \
	}

static const struct st_header_macro families[] = {
	FAMILY(UNSPEC, 0),     FAMILY(UNIX, 1),	       FAMILY(LOCAL, 1),     FAMILY(INET, 2),
	FAMILY(AX25, 3),       FAMILY(IPX, 4),	       FAMILY(APPLETALK, 5), FAMILY(NETROM, 6),
	FAMILY(BRIDGE, 7),     FAMILY(ATMPVC, 8),      FAMILY(X25, 9),	     FAMILY(INET6, 10),
	FAMILY(ROSE, 11),      FAMILY(NETBEUI, 13),    FAMILY(SECURITY, 14), FAMILY(KEY, 15),
	FAMILY(NETLINK, 16),   FAMILY(ROUTE, 16),      FAMILY(PACKET, 17),   FAMILY(ASH, 18),
	FAMILY(ECONET, 19),    FAMILY(ATMSVC, 20),     FAMILY(RDS, 21),	     FAMILY(SNA, 22),
	FAMILY(IRDA, 23),      FAMILY(PPPOX, 24),      FAMILY(WANPIPE, 25),  FAMILY(LLC, 26),
	FAMILY(IB, 27),	       FAMILY(MPLS, 28),       FAMILY(CAN, 29),	     FAMILY(TIPC, 30),
	FAMILY(BLUETOOTH, 31), FAMILY(IUCV, 32),       FAMILY(RXRPC, 33),    FAMILY(ISDN, 34),
	FAMILY(PHONET, 35),    FAMILY(IEEE802154, 36), FAMILY(CAIF, 37),     FAMILY(ALG, 38),
	FAMILY(NFC, 39),       FAMILY(VSOCK, 40),      FAMILY(KCM, 41),	     FAMILY(QIPCRTR, 42),
	FAMILY(SMC, 43),       FAMILY(XDP, 44),	       FAMILY(MCTP, 45),
};

static const struct st_header_macro sock_types[] = {
	{"SOCK_STREAM", "1"},	 {"SOCK_DGRAM", "2"}, {"SOCK_RAW", "3"},     {"SOCK_RDM", "4"},
	{"SOCK_SEQPACKET", "5"}, {"SOCK_DCCP", "6"},  {"SOCK_PACKET", "10"},
};

/* <linux/sched.h>'s task states; TASK_TRACED is left out: its value changed in 6.0. */
static const struct st_header_macro task_states[] = {
	{"TASK_RUNNING", "0"},
	{"TASK_INTERRUPTIBLE", "1"},
	{"TASK_UNINTERRUPTIBLE", "2"},
	{"__TASK_STOPPED", "4"},
	{"__TASK_TRACED", "8"},
	{"EXIT_DEAD", "16"},
	{"EXIT_ZOMBIE", "32"},
	{"EXIT_TRACE", "(EXIT_ZOMBIE | EXIT_DEAD)"},
	{"TASK_PARKED", "64"},
	{"TASK_DEAD", "128"},
	{"TASK_WAKEKILL", "256"},
	{"TASK_WAKING", "512"},
	{"TASK_NOLOAD", "1024"},
	{"TASK_NEW", "2048"},
	{"TASK_KILLABLE", "(TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)"},
	{"TASK_STOPPED", "(TASK_WAKEKILL | __TASK_STOPPED)"},
	{"TASK_IDLE", "(TASK_UNINTERRUPTIBLE | TASK_NOLOAD)"},
	{"TASK_NORMAL", "(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)"},
};

/* The scheduling policies of <uapi/linux/sched.h>, which <linux/sched.h> includes. */
static const struct st_header_macro sched_policies[] = {
	{"SCHED_NORMAL", "0"}, {"SCHED_FIFO", "1"}, {"SCHED_RR", "2"},
	{"SCHED_BATCH", "3"},  {"SCHED_IDLE", "5"}, {"SCHED_DEADLINE", "6"},
};

/* An enum in the kernel, whose BTF has it; bpftrace's tools use them as macros. */
static const struct st_header_macro tcp_states[] = {
	{"TCP_ESTABLISHED", "1"}, {"TCP_SYN_SENT", "2"},   {"TCP_SYN_RECV", "3"},
	{"TCP_FIN_WAIT1", "4"},	  {"TCP_FIN_WAIT2", "5"},  {"TCP_TIME_WAIT", "6"},
	{"TCP_CLOSE", "7"},	  {"TCP_CLOSE_WAIT", "8"}, {"TCP_LAST_ACK", "9"},
	{"TCP_LISTEN", "10"},	  {"TCP_CLOSING", "11"},   {"TCP_NEW_SYN_RECV", "12"},
};

static const struct st_header_macro_group g_families = GROUP(families);
static const struct st_header_macro_group g_sock_types = GROUP(sock_types);
static const struct st_header_macro_group g_task_states = GROUP(task_states);
static const struct st_header_macro_group g_sched_policies = GROUP(sched_policies);
static const struct st_header_macro_group g_tcp_states = GROUP(tcp_states);

/*
 * The errnos, named by the C library (strerrorname_np()), which knows the
 * kernel's: the names <errno.h> defines, and the aliases it defines too.
 */
#define MAX_ERRNO 256
static struct st_header_macro errnos[MAX_ERRNO + 3];
static char errno_values[MAX_ERRNO][4];
static struct st_header_macro_group g_errnos = {errnos, 0};

static const struct st_header_macro_group *errno_group(void)
{
	static const struct st_header_macro aliases[] = {
		{"EWOULDBLOCK", "EAGAIN"}, {"EDEADLOCK", "EDEADLK"}, {"ENOTSUP", "EOPNOTSUPP"}};
	const char *name;
	size_t n = 0, i;
	int e;

	if (g_errnos.nr)
		return &g_errnos;
	for (e = 1; e < MAX_ERRNO; e++) {
		name = strerrorname_np(e);
		if (!name)
			continue;
		snprintf(errno_values[n], sizeof(errno_values[n]), "%d", e);
		errnos[n].name = name;
		errnos[n].value = errno_values[n];
		n++;
	}
	for (i = 0; i < ARRAY_SIZE(aliases); i++)
		errnos[n++] = aliases[i];
	g_errnos.nr = n;
	return &g_errnos;
}

static const struct st_header headers[] = {
	{"sys/socket.h", {&g_families, &g_sock_types}},
	{"linux/socket.h", {&g_families}},
	{"linux/sched.h", {&g_task_states, &g_sched_policies}},
	{"net/tcp_states.h", {&g_tcp_states}},
	/* It includes <linux/sched.h> and <net/tcp_states.h>. */
	{"net/sock.h", {&g_task_states, &g_sched_policies, &g_tcp_states}},
	/* Filled when first included (errno_group()). */
	{"errno.h", {&g_errnos}},
	{"linux/errno.h", {&g_errnos}},
	{"asm-generic/errno.h", {&g_errnos}},
	{"asm-generic/errno-base.h", {&g_errnos}},
};

const struct st_header *st_header_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(headers); i++)
		if (!strcmp(headers[i].name, name)) {
			if (headers[i].groups[0] == &g_errnos)
				errno_group();
			return &headers[i];
		}
	return NULL;
}
