// SPDX-License-Identifier: MIT
/*
 * The headers bpftrace's programs include for constants, and the
 * constants: the values of glibc's <bits/socket.h> and <bits/socket_type.h>,
 * the kernel's <linux/socket.h>, <linux/sched.h>, <uapi/linux/sched.h>,
 * <net/tcp_states.h>, <linux/in.h>, <linux/in6.h>, <linux/icmp.h>,
 * <linux/icmpv6.h>, <asm-generic/fcntl.h>, <linux/stat.h> and
 * <linux/fs.h>'s, which every kernel since 4.14 shares; and the errno
 * names of <errno.h>, as the C library names them. A header gets what it
 * includes too, as far as bpftrace's tools rely on it.
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

/* <linux/in.h>'s protocols (an enum there, each also a macro); IPV6's in <linux/in6.h>. */
static const struct st_header_macro ip_protos[] = {
	{"IPPROTO_IP", "0"},	  {"IPPROTO_ICMP", "1"},       {"IPPROTO_IGMP", "2"},
	{"IPPROTO_IPIP", "4"},	  {"IPPROTO_TCP", "6"},	       {"IPPROTO_EGP", "8"},
	{"IPPROTO_PUP", "12"},	  {"IPPROTO_UDP", "17"},       {"IPPROTO_IDP", "22"},
	{"IPPROTO_TP", "29"},	  {"IPPROTO_DCCP", "33"},      {"IPPROTO_IPV6", "41"},
	{"IPPROTO_RSVP", "46"},	  {"IPPROTO_GRE", "47"},       {"IPPROTO_ESP", "50"},
	{"IPPROTO_AH", "51"},	  {"IPPROTO_MTP", "92"},       {"IPPROTO_BEETPH", "94"},
	{"IPPROTO_ENCAP", "98"},  {"IPPROTO_PIM", "103"},      {"IPPROTO_COMP", "108"},
	{"IPPROTO_L2TP", "115"},  {"IPPROTO_SCTP", "132"},     {"IPPROTO_UDPLITE", "136"},
	{"IPPROTO_MPLS", "137"},  {"IPPROTO_ETHERNET", "143"}, {"IPPROTO_RAW", "255"},
	{"IPPROTO_MPTCP", "262"},
};

/* <linux/in6.h>'s IPv6 extension headers and ICMPv6. */
static const struct st_header_macro ip6_protos[] = {
	{"IPPROTO_HOPOPTS", "0"}, {"IPPROTO_ROUTING", "43"}, {"IPPROTO_FRAGMENT", "44"},
	{"IPPROTO_ICMPV6", "58"}, {"IPPROTO_NONE", "59"},    {"IPPROTO_DSTOPTS", "60"},
	{"IPPROTO_MH", "135"},
};

/* <linux/icmp.h>'s message types. */
static const struct st_header_macro icmp_types[] = {
	{"ICMP_ECHOREPLY", "0"},      {"ICMP_DEST_UNREACH", "3"}, {"ICMP_SOURCE_QUENCH", "4"},
	{"ICMP_REDIRECT", "5"},	      {"ICMP_ECHO", "8"},	  {"ICMP_TIME_EXCEEDED", "11"},
	{"ICMP_PARAMETERPROB", "12"}, {"ICMP_TIMESTAMP", "13"},	  {"ICMP_TIMESTAMPREPLY", "14"},
	{"ICMP_INFO_REQUEST", "15"},  {"ICMP_INFO_REPLY", "16"},  {"ICMP_ADDRESS", "17"},
	{"ICMP_ADDRESSREPLY", "18"},
};

/* <linux/icmpv6.h>'s message types. */
static const struct st_header_macro icmpv6_types[] = {
	{"ICMPV6_DEST_UNREACH", "1"},	 {"ICMPV6_PKT_TOOBIG", "2"},
	{"ICMPV6_TIME_EXCEED", "3"},	 {"ICMPV6_PARAMPROB", "4"},
	{"ICMPV6_ECHO_REQUEST", "128"},	 {"ICMPV6_ECHO_REPLY", "129"},
	{"ICMPV6_MGM_QUERY", "130"},	 {"ICMPV6_MGM_REPORT", "131"},
	{"ICMPV6_MGM_REDUCTION", "132"}, {"ICMPV6_NI_QUERY", "139"},
	{"ICMPV6_NI_REPLY", "140"},
};

/* <asm-generic/fcntl.h>'s open flags, in octal as there (x86's, arm64's). */
static const struct st_header_macro open_flags[] = {
	{"O_ACCMODE", "00000003"},
	{"O_RDONLY", "00000000"},
	{"O_WRONLY", "00000001"},
	{"O_RDWR", "00000002"},
	{"O_CREAT", "00000100"},
	{"O_EXCL", "00000200"},
	{"O_NOCTTY", "00000400"},
	{"O_TRUNC", "00001000"},
	{"O_APPEND", "00002000"},
	{"O_NONBLOCK", "00004000"},
	{"O_DSYNC", "00010000"},
	{"FASYNC", "00020000"},
	{"O_DIRECT", "00040000"},
	{"O_LARGEFILE", "00100000"},
	{"O_DIRECTORY", "00200000"},
	{"O_NOFOLLOW", "00400000"},
	{"O_NOATIME", "01000000"},
	{"O_CLOEXEC", "02000000"},
	{"__O_SYNC", "04000000"},
	{"O_SYNC", "(__O_SYNC | O_DSYNC)"},
	{"O_PATH", "010000000"},
	{"__O_TMPFILE", "020000000"},
	{"O_TMPFILE", "(__O_TMPFILE | O_DIRECTORY)"},
	{"O_NDELAY", "O_NONBLOCK"},
};

/* <linux/stat.h>'s file types of a mode, and <linux/fs.h>'s of a directory entry. */
static const struct st_header_macro file_types[] = {
	{"S_IFMT", "00170000"}, {"S_IFSOCK", "0140000"}, {"S_IFLNK", "0120000"},
	{"S_IFREG", "0100000"}, {"S_IFBLK", "0060000"},	 {"S_IFDIR", "0040000"},
	{"S_IFCHR", "0020000"}, {"S_IFIFO", "0010000"},	 {"S_ISUID", "0004000"},
	{"S_ISGID", "0002000"}, {"S_ISVTX", "0001000"},
};

static const struct st_header_macro dirent_types[] = {
	{"DT_UNKNOWN", "0"}, {"DT_FIFO", "1"}, {"DT_CHR", "2"},	  {"DT_DIR", "4"},  {"DT_BLK", "6"},
	{"DT_REG", "8"},     {"DT_LNK", "10"}, {"DT_SOCK", "12"}, {"DT_WHT", "14"},
};

static const struct st_header_macro_group g_families = GROUP(families);
static const struct st_header_macro_group g_sock_types = GROUP(sock_types);
static const struct st_header_macro_group g_task_states = GROUP(task_states);
static const struct st_header_macro_group g_sched_policies = GROUP(sched_policies);
static const struct st_header_macro_group g_tcp_states = GROUP(tcp_states);
static const struct st_header_macro_group g_ip_protos = GROUP(ip_protos);
static const struct st_header_macro_group g_ip6_protos = GROUP(ip6_protos);
static const struct st_header_macro_group g_icmp_types = GROUP(icmp_types);
static const struct st_header_macro_group g_icmpv6_types = GROUP(icmpv6_types);
static const struct st_header_macro_group g_open_flags = GROUP(open_flags);
static const struct st_header_macro_group g_file_types = GROUP(file_types);
static const struct st_header_macro_group g_dirent_types = GROUP(dirent_types);

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
	/*
	 * It includes <linux/sched.h>, <net/tcp_states.h> and, through
	 * <linux/net.h>, <linux/socket.h> and the socket types.
	 */
	{"net/sock.h", {&g_task_states, &g_sched_policies, &g_tcp_states, &g_families}},
	/* The kernel's includes <linux/errno.h> and, in the kernel, <linux/socket.h>. */
	{"linux/in.h", {&g_ip_protos, &g_families, &g_errnos}},
	{"uapi/linux/in.h", {&g_ip_protos}},
	{"netinet/in.h", {&g_ip_protos, &g_ip6_protos, &g_families, &g_sock_types}},
	{"linux/in6.h", {&g_ip6_protos}},
	{"uapi/linux/in6.h", {&g_ip6_protos}},
	/* It includes <uapi/linux/ipv6.h>, which includes <linux/in6.h>, and <linux/icmpv6.h>. */
	{"linux/ipv6.h", {&g_ip6_protos, &g_icmpv6_types}},
	{"linux/icmp.h", {&g_icmp_types}},
	{"uapi/linux/icmp.h", {&g_icmp_types}},
	{"linux/icmpv6.h", {&g_icmpv6_types}},
	{"uapi/linux/icmpv6.h", {&g_icmpv6_types}},
	{"fcntl.h", {&g_open_flags, &g_file_types}},
	{"linux/fcntl.h", {&g_open_flags}},
	{"asm-generic/fcntl.h", {&g_open_flags}},
	{"linux/stat.h", {&g_file_types}},
	/* It includes <linux/stat.h> and <linux/fcntl.h>. */
	{"linux/fs.h", {&g_dirent_types, &g_file_types, &g_open_flags}},
	/* Filled when first included (errno_group()). */
	{"errno.h", {&g_errnos}},
	{"linux/errno.h", {&g_errnos}},
	{"asm-generic/errno.h", {&g_errnos}},
	{"asm-generic/errno-base.h", {&g_errnos}},
};

const struct st_header *st_header_find(const char *name)
{
	size_t i;

	size_t g;

	for (i = 0; i < ARRAY_SIZE(headers); i++) {
		if (strcmp(headers[i].name, name))
			continue;
		for (g = 0; g < ST_HEADER_GROUPS && headers[i].groups[g]; g++)
			if (headers[i].groups[g] == &g_errnos)
				errno_group();
		return &headers[i];
	}
	return NULL;
}
