// SPDX-License-Identifier: MIT
/*
 * The runtime's in-process agent: one thread per process, asleep on the
 * abstract unix socket of common/inproc_abi.h, through which one collector
 * at a time (root or the process's user) attaches the in-process engine
 * for as long as its connection lasts. Nothing of it is on the event path.
 *
 * Environment:
 *   SIDE_INPROC=0          no agent at all: no thread, no socket.
 *   SIDE_INPROC_WAIT=PID   set by the collector for the command it starts
 *                          (-c): in the process PID only (its children
 *                          inherit the variable, not the wait), side_init()
 *                          returns once the first attach is answered, so
 *                          that the command misses no event.
 *   SIDE_INPROC_WAIT_MS=N  that wait's bound in ms (default 5000).
 *
 * fork(): the child has no agent thread. Every descriptor the agent holds
 * is in st_agent and changes only under its lock, which the fork handlers
 * hold across fork(): the child closes exactly what it inherited, forgets
 * the parent's session and starts an agent of its own (as LTTng-UST
 * restarts its listener threads). That is why the thread sleeps in poll()
 * and accepts without blocking, under the lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "../internal.h"
#include "agent_socket.h"
#include "engine.h"

/* A client's time to send its attach message, from its connection. */
#define ST_AGENT_READ_MS 5000
/* SIDE_INPROC_WAIT's bound when SIDE_INPROC_WAIT_MS does not say. */
#define ST_AGENT_WAIT_MS 5000
#define ST_AGENT_WAIT_MAX_MS 600000
/* Descriptors one read takes in (more than one is refused). */
#define ST_AGENT_MAX_FDS 4
/* After a shortage of descriptors or memory: the process may recover. */
#define ST_AGENT_PAUSE_NS 100000000L

static struct {
	pthread_mutex_t lock; /* every descriptor below, the session, fork() */
	pthread_cond_t answered_cond;
	int lfd; /* the listening socket */
	int cfd; /* the connection served */
	int memfd; /* the attach message's, until the engine has mapped it */
	pid_t pid; /* the pid lfd's name says */
	bool enabled; /* SIDE_INPROC is not 0: a forked child starts its own */
	bool running; /* the thread lives */
	bool attached; /* the engine serves a session */
	bool stale; /* a forked child's copy of the parent's session, to detach */
	bool answered; /* the first attach was answered (SIDE_INPROC_WAIT) */
	int fatal; /* the agent thread only: why it stops, a negative errno */
} st_agent = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.lfd = -1,
	.cfd = -1,
	.memfd = -1,
};

/* Lock held: a descriptor of st_agent closed and forgotten at once (see fork). */
static void st_agent_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The error a reply carries; returns status. */
static __attribute__((format(printf, 3, 4))) int st_agent_fail(struct st_ip_reply *reply,
							       int status, const char *fmt, ...)
{
	va_list ap;

	reply->status = status;
	va_start(ap, fmt);
	vsnprintf(reply->err, sizeof(reply->err), fmt, ap);
	va_end(ap);
	return status;
}

/* Never blocks: a reply fits an empty socket buffer, or the client is not reading. */
static int st_agent_send_reply(int fd, const struct st_ip_reply *reply)
{
	struct {
		struct st_ip_msg hdr;
		struct st_ip_reply body;
	} m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = ST_IP_REPLY;
	m.hdr.len = sizeof(m.body);
	m.body = *reply;
	m.body.err[sizeof(m.body.err) - 1] = '\0';
	if (send(fd, &m, sizeof(m), MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)sizeof(m))
		return -EPIPE;
	return 0;
}

/*
 * Lock held. Whether lfd is still the socket bound here: an application
 * that closes every descriptor may have closed it and reused its number.
 */
static bool st_agent_lfd_ours(void)
{
	struct sockaddr_un want, got;
	socklen_t want_len, got_len = sizeof(got);

	if (st_agent.lfd < 0)
		return false;
	want_len = st_agent_addr(st_agent.pid, &want);
	if (getsockname(st_agent.lfd, (struct sockaddr *)&got, &got_len))
		return false;
	return got_len == want_len && !memcmp(&got, &want, want_len);
}

/*
 * Lock held, so that a fork() sees the new descriptor in st_agent or not
 * at all. A connection, or -EAGAIN (none yet), or a negative errno for
 * st_agent_retry().
 */
static int st_agent_accept(void)
{
	int fd;

	if (!st_agent_lfd_ours())
		return -EBADF;
	fd = accept4(st_agent.lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd >= 0)
		return st_agent_high_fd(fd);
	if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO)
		return -EAGAIN;
	return -errno;
}

/* After a failed accept: pauses on a shortage, or stops the agent on the unexpected. */
static void st_agent_retry(int err)
{
	static const struct timespec pause = {0, ST_AGENT_PAUSE_NS};

	if (err == -EMFILE || err == -ENFILE || err == -ENOBUFS || err == -ENOMEM)
		nanosleep(&pause, NULL);
	else if (err != -EAGAIN)
		st_agent.fatal = err;
}

/* Root, or the process's real or effective user: 0, else -EPERM in reply. */
static int st_agent_check_peer(int fd, struct st_ip_reply *reply)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return st_agent_fail(reply, -errno,
				     "in-process tracing of pid %d: cannot read the client's "
				     "credentials: %s",
				     (int)getpid(), strerror(errno));
	if (cred.uid == 0 || cred.uid == getuid() || cred.uid == geteuid())
		return 0;
	return st_agent_fail(reply, -EPERM,
			     "in-process tracing of pid %d: user %u may not attach (only root or "
			     "the process's user)",
			     (int)getpid(), (unsigned int)cred.uid);
}

/* A connection while another one is served: answered and closed at once. */
static void st_agent_refuse(void)
{
	struct st_ip_reply reply;
	int fd;

	memset(&reply, 0, sizeof(reply));
	pthread_mutex_lock(&st_agent.lock);
	fd = st_agent_accept();
	if (fd >= 0) {
		if (!st_agent_check_peer(fd, &reply))
			st_agent_fail(&reply, -EBUSY, "another in-process session is %s pid %d",
				      st_agent.attached ? "attached to" : "being attached to",
				      (int)getpid());
		(void)st_agent_send_reply(fd, &reply);
		close(fd);
	}
	pthread_mutex_unlock(&st_agent.lock);
	if (fd < 0)
		st_agent_retry(fd);
}

/*
 * Waits until fd has something (bytes, its end, an error) or the deadline
 * (CLOCK_MONOTONIC ms, -1: none) passes, refusing the connections that
 * come meanwhile. 0, -ETIMEDOUT, or a negative errno with st_agent.fatal.
 */
static int st_agent_wait_in(int fd, int64_t deadline)
{
	struct pollfd pfd[2] = {
		{.fd = fd, .events = POLLIN | POLLRDHUP},
		{.fd = st_agent.lfd, .events = POLLIN},
	};
	int64_t left;
	int n;

	for (;;) {
		left = deadline < 0 ? -1 : deadline - st_agent_now_ms();
		if (deadline >= 0 && left <= 0)
			return -ETIMEDOUT;
		n = poll(pfd, 2, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return st_agent.fatal = -errno;
		if (pfd[0].revents & POLLNVAL) {
			/* The application closed it: the number may be someone else's now. */
			pthread_mutex_lock(&st_agent.lock);
			st_agent.cfd = -1;
			pthread_mutex_unlock(&st_agent.lock);
			return -EBADF;
		}
		if (pfd[0].revents)
			return 0;
		if (pfd[1].revents & POLLNVAL)
			return st_agent.fatal = -EBADF;
		if (pfd[1].revents)
			st_agent_refuse();
		if (st_agent.fatal)
			return st_agent.fatal;
	}
}

/* Lock held: a descriptor received, kept as the memfd if it is the first. */
static void st_agent_take_fds(struct msghdr *msg, int *nfds)
{
	struct cmsghdr *c;
	size_t i, n;
	int fd;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (st_agent.memfd < 0)
				st_agent.memfd = fd;
			else
				close(fd);
			(*nfds)++;
		}
	}
	/* Descriptors that did not fit were closed by the kernel: too many anyway. */
	if (msg->msg_flags & MSG_CTRUNC)
		(*nfds)++;
}

/* recv() that takes the descriptors sent along, under the lock (see fork). */
static ssize_t st_agent_recv_fds(int fd, void *buf, size_t len, int *nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * ST_AGENT_MAX_FDS)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = {.iov_base = buf, .iov_len = len};
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = ctl.buf,
		.msg_controllen = sizeof(ctl.buf),
	};
	ssize_t n;
	int err;

	pthread_mutex_lock(&st_agent.lock);
	n = recvmsg(fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	err = errno;
	if (n > 0)
		st_agent_take_fds(&msg, nfds);
	pthread_mutex_unlock(&st_agent.lock);
	errno = err;
	return n;
}

/*
 * len bytes before the deadline; with nfds, the descriptors that come
 * with them are taken and counted. 0, or a negative errno (-ECONNRESET:
 * the client closed its end).
 */
static int st_agent_read(int fd, void *buf, size_t len, int64_t deadline, int *nfds)
{
	size_t got = 0;
	ssize_t n;
	int ret;

	while (got < len) {
		ret = st_agent_wait_in(fd, deadline);
		if (ret)
			return ret;
		if (nfds)
			n = st_agent_recv_fds(fd, (char *)buf + got, len - got, nfds);
		else
			n = recv(fd, (char *)buf + got, len - got, MSG_DONTWAIT);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (n > 0)
			got += n;
	}
	return 0;
}

static int st_agent_read_failed(struct st_ip_reply *reply, int err)
{
	if (err == -ETIMEDOUT)
		return st_agent_fail(reply, err, "no attach message within %d s: connection closed",
				     ST_AGENT_READ_MS / 1000);
	if (err == -ECONNRESET)
		return st_agent_fail(reply, err, "the connection closed within the attach message");
	return st_agent_fail(reply, err, "cannot read the attach message: %s", strerror(-err));
}

/*
 * The attach message, within ST_AGENT_READ_MS of the connection: its
 * payload in *prog (malloc'ed), its descriptor in st_agent.memfd; *asked
 * once its header is in.
 */
static int st_agent_read_attach(int fd, void **prog, size_t *len, bool *asked,
				struct st_ip_reply *reply)
{
	int64_t deadline = st_agent_now_ms() + ST_AGENT_READ_MS;
	struct st_ip_msg hdr;
	int ret, nfds = 0;

	ret = st_agent_read(fd, &hdr, sizeof(hdr), deadline, &nfds);
	if (ret)
		return st_agent_read_failed(reply, ret);
	*asked = true;
	if (hdr.type != ST_IP_ATTACH)
		return st_agent_fail(reply, -EINVAL,
				     "expected an attach message (type %d), not type %u",
				     ST_IP_ATTACH, hdr.type);
	if (hdr.len > ST_IP_MSG_MAX)
		return st_agent_fail(reply, -EMSGSIZE, "attach message of %u bytes: at most %u",
				     hdr.len, ST_IP_MSG_MAX);
	if (!nfds)
		return st_agent_fail(
			reply, -EBADF,
			"attach message without its shared memory (no file descriptor)");
	if (nfds > 1)
		return st_agent_fail(reply, -EINVAL,
				     "attach message with %d file descriptors: one expected", nfds);
	*prog = malloc(hdr.len ? hdr.len : 1);
	if (!*prog)
		return st_agent_fail(reply, -ENOMEM, "no memory for an attach message of %u bytes",
				     hdr.len);
	*len = hdr.len;
	ret = st_agent_read(fd, *prog, hdr.len, deadline, NULL);
	if (ret)
		return st_agent_read_failed(reply, ret);
	return 0;
}

/*
 * The first attach (or a refused client) is answered: SIDE_INPROC_WAIT's
 * wait is over. A connection that closes or times out before its message
 * does not count: a collector may probe the socket first.
 */
static void st_agent_answer_done(void)
{
	pthread_mutex_lock(&st_agent.lock);
	st_agent.answered = true;
	pthread_cond_broadcast(&st_agent.answered_cond);
	pthread_mutex_unlock(&st_agent.lock);
}

/*
 * The engine takes the runtime's registry lock: taken first, a wait for
 * it (held by another thread, or for ever in a child forked while it was
 * held) does not hold the agent's lock, and with it fork(). Under the
 * agent's lock, a forked child sees the engine attached or not.
 */
static void st_agent_engine_lock(void)
{
	pthread_mutex_lock(&side_event_lock);
	pthread_mutex_lock(&st_agent.lock);
}

static void st_agent_engine_unlock(void)
{
	pthread_mutex_unlock(&st_agent.lock);
	pthread_mutex_unlock(&side_event_lock);
}

/* One connection, from its credentials to the end of its session. */
/*
 * While a session lasts: ST_IP_GO starts its counting; EOF, an error,
 * ST_IP_DETACH or anything else ends it.
 */
static void st_agent_session(int fd)
{
	struct st_ip_msg m;

	while (!st_agent_wait_in(fd, -1) &&
	       recv(fd, &m, sizeof(m), MSG_DONTWAIT) == (ssize_t)sizeof(m) && m.type == ST_IP_GO &&
	       !m.len) {
		st_engine_go();
		st_agent_answer_done();
	}
}

static void st_agent_serve(int fd)
{
	struct st_ip_reply reply;
	void *prog = NULL;
	size_t len = 0;
	bool asked;
	int ret;

	memset(&reply, 0, sizeof(reply));
	ret = st_agent_check_peer(fd, &reply);
	asked = ret != 0;
	if (!ret)
		ret = st_agent_read_attach(fd, &prog, &len, &asked, &reply);
	if (!ret) {
		st_agent_engine_lock();
		ret = st_engine_attach(prog, len, st_agent.memfd, &reply);
		st_agent.attached = !ret;
		st_agent_engine_unlock();
	}
	pthread_mutex_lock(&st_agent.lock);
	st_agent_close(&st_agent.memfd);
	pthread_mutex_unlock(&st_agent.lock);
	free(prog);
	reply.status = ret;
	ret = st_agent_send_reply(fd, &reply);
	/* A deferred session's process waits for ST_IP_GO: none of its events is the switch's. */
	if (asked && !(st_agent.attached && !ret && !st_engine_counting()))
		st_agent_answer_done();
	if (st_agent.attached) {
		if (!ret)
			st_agent_session(fd);
		if (asked)
			st_agent_answer_done();
		st_agent_engine_lock();
		st_engine_detach();
		st_agent.attached = false;
		st_agent_engine_unlock();
	}
	pthread_mutex_lock(&st_agent.lock);
	st_agent_close(&st_agent.cfd);
	pthread_mutex_unlock(&st_agent.lock);
}

/* The agent ends: its socket is closed, and nobody waits for it any more. */
static void st_agent_stop(void)
{
	int why = st_agent.fatal;

	pthread_mutex_lock(&st_agent.lock);
	/* The application closed it: the number may be someone else's now. */
	if (why == -EBADF)
		st_agent.lfd = -1;
	st_agent_close(&st_agent.lfd);
	st_agent.running = false;
	st_agent.answered = true;
	pthread_cond_broadcast(&st_agent.answered_cond);
	pthread_mutex_unlock(&st_agent.lock);
	if (why != -EBADF)
		fprintf(stderr, "libside: the in-process agent of pid %d stops: %s\n",
			(int)getpid(), strerror(-why));
}

static void *st_agent_main(void *arg)
{
	struct pollfd pfd = {.fd = st_agent.lfd, .events = POLLIN};
	int fd;

	(void)pthread_setname_np(pthread_self(), "side-agent");
	if (st_agent.stale) {
		st_agent_engine_lock();
		st_engine_detach();
		st_agent.stale = false;
		st_agent_engine_unlock();
	}
	while (!st_agent.fatal) {
		if (poll(&pfd, 1, -1) < 0) {
			if (errno != EINTR)
				st_agent.fatal = -errno;
			continue;
		}
		if (pfd.revents & POLLNVAL) {
			st_agent.fatal = -EBADF;
			continue;
		}
		pthread_mutex_lock(&st_agent.lock);
		fd = st_agent_accept();
		if (fd >= 0)
			st_agent.cfd = fd;
		pthread_mutex_unlock(&st_agent.lock);
		if (fd >= 0)
			st_agent_serve(fd);
		else
			st_agent_retry(fd);
	}
	st_agent_stop();
	return NULL;
}

/* Lock held: this process's socket, then its thread. */
static int st_agent_launch(void)
{
	pthread_attr_t attr;
	sigset_t all, old;
	pthread_t id;
	int fd, ret;

	fd = st_agent_listen(getpid());
	if (fd < 0) {
		/* Taken: a process of this pid in another pid namespace has it. */
		if (fd != -EADDRINUSE)
			fprintf(stderr,
				"libside: no in-process agent: cannot listen on @" ST_IP_SOCK_FMT
				": %s\n",
				(int)getpid(), strerror(-fd));
		return fd;
	}
	ret = pthread_attr_init(&attr);
	if (ret)
		goto cleanup;
	(void)pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	st_agent.lfd = fd;
	st_agent.pid = getpid();
	st_agent.fatal = 0;
	/* Born with every signal blocked: none of the application's lands there. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&id, &attr, st_agent_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (!ret) {
		st_agent.running = true;
		return 0;
	}
	st_agent.lfd = -1;
cleanup:
	fprintf(stderr, "libside: cannot start the in-process agent: %s\n", strerror(ret));
	close(fd);
	return -ret;
}

/* SIDE_INPROC_WAIT's timed wait counts on the monotonic clock. */
static void st_agent_cond_init(void)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&st_agent.answered_cond, &attr);
	pthread_condattr_destroy(&attr);
}

static void st_agent_before_fork(void)
{
	pthread_mutex_lock(&st_agent.lock);
}

static void st_agent_after_fork_parent(void)
{
	pthread_mutex_unlock(&st_agent.lock);
}

/*
 * The child has this thread only: the parent's session and descriptors
 * are forgotten (the listening socket only if it is still the agent's),
 * and the child gets an agent of its own, under its own pid, which
 * detaches the session's copy (unregistering takes locks that fork() may
 * have copied held: not here).
 */
static void st_agent_after_fork_child(void)
{
	st_engine_forget_in_child();
	st_agent.stale = st_agent.stale || st_agent.attached;
	st_agent.attached = false;
	if (!st_agent_lfd_ours())
		st_agent.lfd = -1;
	st_agent_close(&st_agent.lfd);
	st_agent_close(&st_agent.cfd);
	st_agent_close(&st_agent.memfd);
	st_agent.running = false;
	st_agent.answered = false;
	st_agent_cond_init();
	if (st_agent.enabled)
		(void)st_agent_launch();
	pthread_mutex_unlock(&st_agent.lock);
}

/* A non-negative decimal variable, or def when unset or malformed. */
static long st_agent_env(const char *name, long def)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0)
		return def;
	return v;
}

/* SIDE_INPROC_WAIT=<this pid>: the collector is attaching; the first answer is awaited. */
static void st_agent_wait_first(void)
{
	long ms = st_agent_env("SIDE_INPROC_WAIT_MS", ST_AGENT_WAIT_MS);
	int64_t end;
	struct timespec until;

	if (st_agent_env("SIDE_INPROC_WAIT", -1) != getpid())
		return;
	end = st_agent_now_ms() + (ms < ST_AGENT_WAIT_MAX_MS ? ms : ST_AGENT_WAIT_MAX_MS);
	until.tv_sec = end / 1000;
	until.tv_nsec = end % 1000 * 1000000L;
	pthread_mutex_lock(&st_agent.lock);
	while (st_agent.running && !st_agent.answered)
		if (pthread_cond_timedwait(&st_agent.answered_cond, &st_agent.lock, &until))
			break;
	pthread_mutex_unlock(&st_agent.lock);
}

void st_agent_start(void)
{
	const char *v = getenv("SIDE_INPROC");
	int ret;

	if (v && !strcmp(v, "0"))
		return;
	pthread_mutex_lock(&st_agent.lock);
	st_agent.enabled = true;
	st_agent_cond_init();
	pthread_mutex_unlock(&st_agent.lock);
	/*
	 * Before the socket exists, and without the lock: fork() holds
	 * glibc's handler lock while it takes ours.
	 */
	(void)pthread_atfork(st_agent_before_fork, st_agent_after_fork_parent,
			     st_agent_after_fork_child);
	pthread_mutex_lock(&st_agent.lock);
	ret = st_agent_launch();
	pthread_mutex_unlock(&st_agent.lock);
	if (!ret)
		st_agent_wait_first();
}
