// SPDX-License-Identifier: MIT
/* The collector's side of the in-process control socket (inproc_client.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "inproc/inproc_client.h"

/* A wait looks at the stop flag at least this often (ms). */
#define ST_IP_STOP_SLICE_MS 50

/* The session's stop flag (st_ip_stop_on()); NULL: none. */
static const volatile sig_atomic_t *st_ip_stop;
/* Set by st_ip_end(). */
static bool st_ip_ended;

void st_ip_stop_on(const volatile sig_atomic_t *stop)
{
	st_ip_stop = stop;
}

void st_ip_end(void)
{
	__atomic_store_n(&st_ip_ended, true, __ATOMIC_RELEASE);
}

bool st_ip_stopping(void)
{
	return (st_ip_stop && *st_ip_stop) || __atomic_load_n(&st_ip_ended, __ATOMIC_ACQUIRE);
}

static int64_t st_ip_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int st_ip_fail(struct st_ip_reply *reply, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A transport error in the reply, as the agent would give one; returns status. */
static int st_ip_fail(struct st_ip_reply *reply, int status, const char *fmt, ...)
{
	va_list ap;

	reply->status = status;
	va_start(ap, fmt);
	vsnprintf(reply->err, sizeof(reply->err), fmt, ap);
	va_end(ap);
	return status;
}

/* The pid on the other end of fd, for messages (0 if unknown). */
static int st_ip_peer(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return 0;
	return cred.pid;
}

/* The agent's abstract address: a NUL, then the name, no NUL after it (as agent.c). */
static socklen_t st_ip_addr(pid_t pid, struct sockaddr_un *addr)
{
	int n;

	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	n = snprintf(addr->sun_path + 1, sizeof(addr->sun_path) - 1, ST_IP_SOCK_FMT, (int)pid);
	return offsetof(struct sockaddr_un, sun_path) + 1 + n;
}

/* Why connect() failed, in words; returns the negative errno the caller gets. */
static int st_ip_connect_error(pid_t pid, int err, char *errbuf, size_t errlen)
{
	if ((err == ECONNREFUSED || err == ENOENT) && kill(pid, 0) && errno == ESRCH) {
		snprintf(errbuf, errlen, "no process with pid %d", (int)pid);
		return -ESRCH;
	}
	if (err == ECONNREFUSED || err == ENOENT) {
		snprintf(errbuf, errlen,
			 "pid %d has no sidetrace in-process agent: it does not use the SIDE "
			 "runtime, or runs with SIDE_INPROC=0",
			 (int)pid);
		return -ECONNREFUSED;
	}
	if (err == EAGAIN || err == ETIMEDOUT || err == EINPROGRESS) {
		snprintf(errbuf, errlen,
			 "pid %d's in-process agent did not accept the connection within %d ms",
			 (int)pid, ST_IP_CONNECT_TIMEOUT_MS);
		return -ETIMEDOUT;
	}
	snprintf(errbuf, errlen, "cannot connect to pid %d's in-process agent: %s", (int)pid,
		 strerror(err));
	return -err;
}

int st_ip_connect(pid_t pid, int *fd, char *err, size_t errlen)
{
	/* A full backlog makes connect() wait up to SO_SNDTIMEO, then fail with EAGAIN. */
	struct timeval tv = {
		.tv_sec = ST_IP_CONNECT_TIMEOUT_MS / 1000,
		.tv_usec = (ST_IP_CONNECT_TIMEOUT_MS % 1000) * 1000,
	};
	struct sockaddr_un addr;
	socklen_t alen = st_ip_addr(pid, &addr);
	int s, owner, ret;

	*fd = -1;
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create a unix socket: %s", strerror(errno));
		return ret;
	}
	/* A signal makes a connect() with a send timeout fail with EINTR. */
	if (st_ip_stopping()) {
		snprintf(err, errlen, "the session is ending");
		ret = -ECANCELED;
		goto cleanup;
	}
	if (setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) ||
	    connect(s, (struct sockaddr *)&addr, alen)) {
		ret = st_ip_connect_error(pid, errno, err, errlen);
		goto cleanup;
	}
	/* The name is anyone's to bind (another pid namespace, a squatter): the owner is checked.
	 */
	owner = st_ip_peer(s);
	if (owner != pid) {
		snprintf(err, errlen, "pid %d's in-process socket belongs to pid %d", (int)pid,
			 owner);
		ret = -EPERM;
		goto cleanup;
	}
	*fd = s;
	return 0;
cleanup:
	close(s);
	return ret;
}

/*
 * Until fd is ready for events or the deadline (ms, -1: none) passes;
 * -ECANCELED once the session is stopping.
 */
static int st_ip_wait(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = {.fd = fd, .events = events};
	int64_t left;
	int n;

	for (;;) {
		if (st_ip_stopping())
			return -ECANCELED;
		left = deadline < 0 ? ST_IP_STOP_SLICE_MS : deadline - st_ip_now_ms();
		if (deadline >= 0 && left <= 0)
			return -ETIMEDOUT;
		if (left > ST_IP_STOP_SLICE_MS)
			left = ST_IP_STOP_SLICE_MS;
		n = poll(&pfd, 1, (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* The header and the program from byte sent on; the memfd rides with the first byte. */
static ssize_t st_ip_send_from(int fd, const struct st_ip_msg *hdr, const void *prog, size_t len,
			       int memfd, size_t sent)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov[2];
	struct msghdr msg = {.msg_iov = iov};
	struct cmsghdr *c;

	if (sent < sizeof(*hdr)) {
		iov[0].iov_base = (char *)hdr + sent;
		iov[0].iov_len = sizeof(*hdr) - sent;
		iov[1].iov_base = (void *)prog;
		iov[1].iov_len = len;
		msg.msg_iovlen = len ? 2 : 1;
	} else {
		iov[0].iov_base = (char *)prog + (sent - sizeof(*hdr));
		iov[0].iov_len = len - (sent - sizeof(*hdr));
		msg.msg_iovlen = 1;
	}
	if (!sent) {
		memset(&ctl, 0, sizeof(ctl));
		msg.msg_control = ctl.buf;
		msg.msg_controllen = sizeof(ctl.buf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &memfd, sizeof(int));
	}
	return sendmsg(fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
}

static int st_ip_send_attach(int fd, const void *prog, size_t len, int memfd, int64_t deadline,
			     struct st_ip_reply *reply)
{
	struct st_ip_msg hdr = {.type = ST_IP_ATTACH, .len = (uint32_t)len};
	size_t sent = 0;
	ssize_t n;
	int ret;

	while (sent < sizeof(hdr) + len) {
		ret = st_ip_wait(fd, POLLOUT, deadline);
		if (ret == -ETIMEDOUT)
			return st_ip_fail(reply, ret,
					  "pid %d's in-process agent took no program in time",
					  st_ip_peer(fd));
		if (ret)
			return st_ip_fail(reply, ret,
					  "cannot wait for pid %d's in-process agent: %s",
					  st_ip_peer(fd), strerror(-ret));
		n = st_ip_send_from(fd, &hdr, prog, len, memfd, sent);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			return st_ip_fail(
				reply, -errno,
				"cannot send the program to pid %d's in-process agent: %s",
				st_ip_peer(fd), strerror(errno));
		sent += n;
	}
	return 0;
}

/* len bytes before the deadline: 0, -ETIMEDOUT, -ECONNRESET (closed), or a negative errno. */
static int st_ip_recv(int fd, void *buf, size_t len, int64_t deadline)
{
	size_t got = 0;
	ssize_t n;
	int ret;

	while (got < len) {
		ret = st_ip_wait(fd, POLLIN, deadline);
		if (ret)
			return ret;
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

static int st_ip_read_reply(int fd, int64_t deadline, int timeout_ms, struct st_ip_reply *reply)
{
	struct st_ip_msg hdr;
	int pid = st_ip_peer(fd);
	int ret;

	ret = st_ip_recv(fd, &hdr, sizeof(hdr), deadline);
	if (!ret && (hdr.type != ST_IP_REPLY || hdr.len != sizeof(*reply)))
		return st_ip_fail(reply, -EPROTO,
				  "pid %d's in-process agent sent message type %u of %u bytes, "
				  "not a reply",
				  pid, hdr.type, hdr.len);
	if (!ret)
		ret = st_ip_recv(fd, reply, sizeof(*reply), deadline);
	if (ret == -ETIMEDOUT)
		return st_ip_fail(reply, ret,
				  "pid %d's in-process agent did not answer within %d ms", pid,
				  timeout_ms);
	if (ret == -ECONNRESET)
		return st_ip_fail(
			reply, ret,
			"pid %d's in-process agent closed the connection without an answer", pid);
	if (ret)
		return st_ip_fail(reply, ret, "cannot read pid %d's in-process agent's answer: %s",
				  pid, strerror(-ret));
	return 0;
}

int st_ip_attach(int fd, const void *prog, size_t len, int memfd, struct st_ip_reply *reply,
		 int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : st_ip_now_ms() + timeout_ms;
	int ret;

	memset(reply, 0, sizeof(*reply));
	if (len > ST_IP_MSG_MAX)
		return st_ip_fail(reply, -EMSGSIZE,
				  "the in-process program is %zu bytes: at most %u", len,
				  ST_IP_MSG_MAX);
	ret = st_ip_send_attach(fd, prog, len, memfd, deadline, reply);
	/* An agent that refused the message early closed the connection: its reply waits. */
	if (ret && ret != -EPIPE && ret != -ECONNRESET)
		return ret;
	ret = st_ip_read_reply(fd, deadline, timeout_ms, reply);
	if (ret)
		return ret;
	reply->err[sizeof(reply->err) - 1] = '\0';
	if (reply->status > 0)
		return st_ip_fail(reply, -EPROTO, "pid %d's in-process agent answered status %d",
				  st_ip_peer(fd), reply->status);
	if (reply->status < 0 && !reply->err[0])
		snprintf(reply->err, sizeof(reply->err), "%s", strerror(-reply->status));
	return reply->status;
}

int st_ip_go(int fd)
{
	struct st_ip_msg m = {.type = ST_IP_GO, .len = 0};

	return send(fd, &m, sizeof(m), MSG_NOSIGNAL) == (ssize_t)sizeof(m) ? 0 : -errno;
}

void st_ip_detach(int fd)
{
	struct st_ip_msg m = {.type = ST_IP_DETACH, .len = 0};

	if (fd < 0)
		return;
	/* Any message, or the close alone, ends the session: a full buffer is no matter. */
	(void)send(fd, &m, sizeof(m), MSG_DONTWAIT | MSG_NOSIGNAL);
	close(fd);
}
