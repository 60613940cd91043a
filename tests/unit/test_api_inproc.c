// SPDX-License-Identifier: MIT
/*
 * The runtime's in-process agent (userspace/lib/inproc/agent.c) seen from
 * its socket, whatever the engine makes of a program: who may connect,
 * one session at a time, malformed and missing messages, a silent client,
 * fork(), SIDE_INPROC=0 and SIDE_INPROC_WAIT. The test speaks the wire
 * protocol itself, restated from common/inproc_abi.h below.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <side/trace.h>
#include "unit.h"

/* common/inproc_abi.h, byte for byte. */
#define IP_SOCK_FMT "sidetrace-inproc.%d"
#define IP_ATTACH 1
#define IP_REPLY 2
#define IP_MSG_MAX (8U << 20)

struct ip_msg {
	uint32_t type;
	uint32_t len;
};

struct ip_reply {
	int32_t status;
	uint32_t nr_events;
	char err[256];
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static socklen_t sock_addr(pid_t pid, struct sockaddr_un *addr)
{
	int n;

	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	n = snprintf(addr->sun_path + 1, sizeof(addr->sun_path) - 1, IP_SOCK_FMT, (int)pid);
	return offsetof(struct sockaddr_un, sun_path) + 1 + n;
}

/* A connection to pid's agent, or a negative errno. */
static int dial(pid_t pid)
{
	struct sockaddr_un addr;
	socklen_t len = sock_addr(pid, &addr);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, len)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

static pid_t peer_pid(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) ? -1 : cred.pid;
}

/* A header, payload bytes (not necessarily hdr_len of them) and nfds copies of passfd. */
static bool send_msg(int fd, uint32_t type, uint32_t hdr_len, const void *payload, size_t len,
		     int passfd, int nfds)
{
	struct ip_msg hdr = {.type = type, .len = hdr_len};
	union {
		char buf[CMSG_SPACE(sizeof(int) * 2)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov[2] = {{&hdr, sizeof(hdr)}, {(void *)payload, len}};
	struct msghdr msg = {.msg_iov = iov, .msg_iovlen = len ? 2 : 1};
	struct cmsghdr *c;
	int fds[2] = {passfd, passfd};

	if (nfds) {
		memset(&ctl, 0, sizeof(ctl));
		msg.msg_control = ctl.buf;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	return sendmsg(fd, &msg, MSG_NOSIGNAL) == (ssize_t)(sizeof(hdr) + len);
}

/* len bytes within timeout_ms: 0, -ETIMEDOUT, -ECONNRESET (EOF) or -errno. */
static int recv_all(int fd, void *buf, size_t len, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		if (poll(&pfd, 1, (int)(deadline - now_ms())) <= 0)
			return -ETIMEDOUT;
		n = recv(fd, (char *)buf + got, len - got, MSG_DONTWAIT);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0)
			return -errno;
		got += n;
	}
	return 0;
}

/* The agent's reply, checked as a reply on the wire. */
static int read_reply(int fd, struct ip_reply *r, int timeout_ms)
{
	struct ip_msg hdr;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = recv_all(fd, &hdr, sizeof(hdr), timeout_ms);
	if (ret)
		return ret;
	if (hdr.type != IP_REPLY || hdr.len != sizeof(*r))
		return -EPROTO;
	ret = recv_all(fd, r, sizeof(*r), timeout_ms);
	r->err[sizeof(r->err) - 1] = '\0';
	return ret;
}

/* The agent closed its end (after whatever it sent). */
static bool closed_soon(int fd)
{
	char buf[512];
	int ret;

	do
		ret = recv_all(fd, buf, 1, 2000);
	while (!ret);
	return ret == -ECONNRESET;
}

static int new_memfd(void)
{
	int fd = memfd_create("test_api_inproc", MFD_CLOEXEC);

	if (fd >= 0 && ftruncate(fd, 4096)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* An attach of a program the engine must refuse: an error reply, then the end. */
static bool garbage_refused(pid_t pid, const char *name)
{
	static const char junk[16] = "not a program!!";
	struct ip_reply r;
	int fd = dial(pid), mfd = new_memfd();
	bool good = false;

	if (fd >= 0 && mfd >= 0 &&
	    send_msg(fd, IP_ATTACH, sizeof(junk), junk, sizeof(junk), mfd, 1)) {
		good = !read_reply(fd, &r, 5000) && r.status < 0 && r.err[0] && closed_soon(fd);
		if (!good)
			printf("# %s: status %d, err \"%s\"\n", name, r.status, r.err);
	}
	ok(good, name);
	if (fd >= 0)
		close(fd);
	if (mfd >= 0)
		close(mfd);
	return good;
}

static void test_own_agent(void)
{
	int fd = dial(getpid());

	ok(fd >= 0, "the process has an agent");
	if (fd >= 0) {
		ok(peer_pid(fd) == getpid(), "its socket is the process's");
		close(fd);
	}
	garbage_refused(getpid(), "a garbage program gets an error reply");
}

/* A message the agent refuses, with the status it must give. */
static void malformed(const char *name, uint32_t type, uint32_t hdr_len, size_t len, int nfds,
		      int status)
{
	static char payload[64];
	struct ip_reply r;
	int fd = dial(getpid()), mfd = new_memfd();
	bool good = false;

	if (fd >= 0 && mfd >= 0 && send_msg(fd, type, hdr_len, payload, len, mfd, nfds)) {
		/* All of it sent: a message cut short ends there. */
		shutdown(fd, SHUT_WR);
		good = !read_reply(fd, &r, 5000) && r.status == status && r.err[0] &&
		       closed_soon(fd);
		if (!good)
			printf("# %s: status %d, err \"%s\"\n", name, r.status, r.err);
	}
	ok(good, name);
	if (fd >= 0)
		close(fd);
	if (mfd >= 0)
		close(mfd);
}

static void test_malformed(void)
{
	malformed("a message of the wrong type is refused", 7, 0, 0, 1, -EINVAL);
	malformed("a reply sent to the agent is refused", IP_REPLY, 0, 0, 1, -EINVAL);
	malformed("a message over ST_IP_MSG_MAX is refused", IP_ATTACH, IP_MSG_MAX + 1, 0, 1,
		  -EMSGSIZE);
	malformed("an attach without a descriptor is refused", IP_ATTACH, 16, 16, 0, -EBADF);
	malformed("an attach with two descriptors is refused", IP_ATTACH, 16, 16, 2, -EINVAL);
	malformed("a message cut short is refused", IP_ATTACH, 64, 16, 1, -ECONNRESET);
	garbage_refused(getpid(), "the agent still answers after malformed messages");
}

/* While one client is being served, another gets -EBUSY at once. */
static void test_busy(void)
{
	struct ip_reply r;
	int a = dial(getpid()), b;

	usleep(100000);
	b = dial(getpid());
	ok(a >= 0 && b >= 0, "two clients connect");
	if (b >= 0) {
		ok(!read_reply(b, &r, 2000) && r.status == -EBUSY &&
			   strstr(r.err, "another in-process session"),
		   "a second client gets -EBUSY");
		ok(closed_soon(b), "and is disconnected");
		close(b);
	}
	if (a >= 0)
		close(a);
	garbage_refused(getpid(), "the first client's end frees the agent");
}

/* A client that sends nothing is dropped after 5 s, with a reason. */
static void test_silent(void)
{
	struct pollfd pfd = {.events = POLLIN};
	struct ip_reply r;
	int64_t t0 = now_ms(), waited;
	int fd = dial(getpid());

	ok(fd >= 0, "a silent client connects");
	if (fd < 0)
		return;
	pfd.fd = fd;
	poll(&pfd, 1, 7000);
	waited = now_ms() - t0;
	ok(waited >= 4500 && waited < 6900, "a silent client is dropped after 5 s");
	ok(!read_reply(fd, &r, 100) && r.status == -ETIMEDOUT && r.err[0] && closed_soon(fd),
	   "with -ETIMEDOUT, then the end of the connection");
	close(fd);
}

/* The child of the wrong user: -EPERM, whatever it would send. */
static int child_wrong_user(pid_t parent)
{
	struct ip_reply r;
	int fd;

	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		return 2;
	fd = dial(parent);
	if (fd < 0)
		return 3;
	if (read_reply(fd, &r, 3000) || r.status != -EPERM || !strstr(r.err, "may not attach"))
		return 4;
	return closed_soon(fd) ? 0 : 5;
}

static int wait_child(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_wrong_user(void)
{
	pid_t parent = getpid(), pid;
	int ret;

	if (geteuid() != 0) {
		printf("# skipped: the other-user check needs root (setresuid)\n");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(child_wrong_user(parent));
	ret = wait_child(pid);
	if (ret)
		printf("# the other user's child exited %d\n", ret);
	ok(!ret, "another user is refused with -EPERM");
	garbage_refused(getpid(), "the agent still answers after a refused user");
}

/* A descriptor of this process bound to pid's agent name (listening or accepted). */
static bool holds_agent_socket(pid_t pid)
{
	struct sockaddr_un want, got;
	socklen_t want_len = sock_addr(pid, &want), len;
	struct dirent *d;
	bool found = false;
	DIR *dir = opendir("/proc/self/fd");

	while (dir && (d = readdir(dir))) {
		len = sizeof(got);
		if (d->d_name[0] != '.' &&
		    !getsockname(atoi(d->d_name), (struct sockaddr *)&got, &len) &&
		    len == want_len && !memcmp(&got, &want, len))
			found = true;
	}
	if (dir)
		closedir(dir);
	return found;
}

/* A thread of this process named side-agent. */
static bool has_agent_thread(void)
{
	char path[300], comm[32];
	struct dirent *d;
	bool found = false;
	DIR *dir = opendir("/proc/self/task");
	FILE *f;

	while (dir && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", d->d_name);
		f = d->d_name[0] != '.' ? fopen(path, "r") : NULL;
		if (f && fgets(comm, sizeof(comm), f) && !strcmp(comm, "side-agent\n"))
			found = true;
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return found;
}

static int child_forked(pid_t parent)
{
	int fd;

	if (holds_agent_socket(parent))
		return 2;
	fd = dial(getpid());
	if (fd < 0 || peer_pid(fd) != getpid())
		return 3;
	close(fd);
	if (!garbage_refused(getpid(), "the child's agent answers"))
		return 4;
	/* Named by the thread itself: it has run by now. */
	return has_agent_thread() ? 0 : 5;
}

/* fork() while the parent's agent holds a connection. */
static void test_fork(void)
{
	pid_t parent = getpid(), pid;
	int a = dial(parent), ret;

	usleep(100000);
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(child_forked(parent));
	ret = wait_child(pid);
	if (ret)
		printf("# the forked child exited %d\n", ret);
	ok(!ret,
	   "a forked child has its own agent under its own pid, none of the parent's sockets");
	if (a >= 0)
		close(a);
	garbage_refused(parent, "the parent's agent still answers after fork()");
	ok(has_agent_thread(), "the parent's agent thread still runs");
}

/* This program again, as a child, with env (NULL-terminated "NAME=VALUE" pairs) added. */
static pid_t spawn_self(char **argv, char **env)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		for (; *env; env++)
			putenv(*env);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	return pid;
}

static int child_disabled(void)
{
	if (dial(getpid()) != -ECONNREFUSED)
		return 2;
	return has_agent_thread() ? 3 : 0;
}

static void test_disabled(void)
{
	char *argv[] = {"test_api_inproc", "--disabled", NULL};
	char *env[] = {"SIDE_INPROC=0", NULL};

	ok(!wait_child(spawn_self(argv, env)), "SIDE_INPROC=0: no socket, no agent thread");
}

/*
 * The relay (SIDE_INPROC=0, so no agent) names its own pid in
 * SIDE_INPROC_WAIT, says 'r' on the pipe and becomes the waiting command,
 * which says 'm' from main(). A forked child has an agent of its own
 * before it execs: the relay keeps the test from attaching to that one.
 */
static int child_relay(const char *wfd, const char *ms)
{
	char *argv[] = {"test_api_inproc", "--waited", (char *)wfd, NULL};
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	unsetenv("SIDE_INPROC");
	if (setenv("SIDE_INPROC_WAIT", pid, 1) || setenv("SIDE_INPROC_WAIT_MS", ms, 1) ||
	    write(atoi(wfd), "r", 1) != 1)
		return 2;
	execv("/proc/self/exe", argv);
	return 127;
}

/* The command that SIDE_INPROC_WAIT makes wait, its relay's 'r' read. */
static pid_t spawn_waiting(int p[2], const char *ms)
{
	char fd[16];
	char *argv[] = {"test_api_inproc", "--relay", fd, (char *)ms, NULL};
	char *env[] = {"SIDE_INPROC=0", NULL};
	struct pollfd pfd = {.fd = p[0], .events = POLLIN};
	pid_t pid;
	char c = 0;

	snprintf(fd, sizeof(fd), "%d", p[1]);
	pid = spawn_self(argv, env);
	close(p[1]);
	if (poll(&pfd, 1, 5000) != 1 || read(p[0], &c, 1) != 1 || c != 'r')
		printf("# the relay did not start\n");
	return pid;
}

/* main() reached: its byte on the pipe. */
static bool main_reached(int rfd, int timeout_ms)
{
	struct pollfd pfd = {.fd = rfd, .events = POLLIN};

	return poll(&pfd, 1, timeout_ms) == 1;
}

static void test_wait_attach(void)
{
	int64_t t0;
	int p[2], fd = -1;
	pid_t pid;

	if (pipe(p))
		return;
	pid = spawn_waiting(p, "10000");
	t0 = now_ms();
	while (pid > 0 && now_ms() - t0 < 5000 && (fd = dial(pid)) < 0)
		usleep(10000);
	/* A probe that closes without a message is not the attach awaited. */
	ok(fd >= 0, "SIDE_INPROC_WAIT: the command's agent listens");
	if (fd >= 0)
		close(fd);
	usleep(300000);
	ok(!main_reached(p[0], 0), "SIDE_INPROC_WAIT: main() waits for the first attach");
	garbage_refused(pid, "SIDE_INPROC_WAIT: the command's agent answers");
	ok(main_reached(p[0], 2000), "SIDE_INPROC_WAIT: main() runs once it is answered");
	ok(!wait_child(pid), "SIDE_INPROC_WAIT: the command exits");
	close(p[0]);
}

static void test_wait_bound(void)
{
	int64_t t0, waited;
	int p[2];
	pid_t pid;

	if (pipe(p))
		return;
	pid = spawn_waiting(p, "300");
	t0 = now_ms();
	ok(main_reached(p[0], 5000), "SIDE_INPROC_WAIT_MS: main() runs without an attach");
	waited = now_ms() - t0;
	ok(waited >= 200 && waited < 3000, "SIDE_INPROC_WAIT_MS: after its 300 ms");
	ok(!wait_child(pid), "SIDE_INPROC_WAIT_MS: the command exits");
	close(p[0]);
}

int main(int argc, char **argv)
{
	side_init();
	if (argc > 1 && !strcmp(argv[1], "--disabled"))
		return child_disabled();
	if (argc > 3 && !strcmp(argv[1], "--relay"))
		return child_relay(argv[2], argv[3]);
	if (argc > 2 && !strcmp(argv[1], "--waited"))
		return write(atoi(argv[2]), "m", 1) == 1 ? 0 : 1;
	/* The agent under test must be running: a caller's SIDE_INPROC=0 is dropped. */
	if (getenv("SIDE_INPROC") || getenv("SIDE_INPROC_WAIT")) {
		unsetenv("SIDE_INPROC");
		unsetenv("SIDE_INPROC_WAIT");
		execv("/proc/self/exe", argv);
	}
	signal(SIGPIPE, SIG_IGN);
	test_own_agent();
	test_malformed();
	test_busy();
	test_wrong_user();
	test_fork();
	test_disabled();
	test_wait_attach();
	test_wait_bound();
	test_silent();
	return unit_summary();
}
