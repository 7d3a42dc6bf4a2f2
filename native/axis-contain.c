/*
 * axis-contain: starts one program inside AXIS's per-process containment (src/exec/contain.ts) in a
 * single exec.
 *
 *   axis-contain [--userns] [--net PID] [--fstab FILE] [--host-pid] -- PROGRAM [ARG...]
 *
 * Default: the process dies with its parent (PR_SET_PDEATHSIG SIGKILL), creates a PID and a mount
 * namespace (all mounts private, a fresh /proc, FILE's bind mounts: the job's private /tmp), and forks the
 * namespace's PID 1, which runs PROGRAM as its only child with default signal dispositions and an empty
 * mask, stdin untouched, and exits with its status (128 + n after signal n). A namespace init ignores
 * signals it has no handler for, so the program must not be PID 1: the SIGTERM AXIS sends the process
 * group reaches the program, which may clean up; this process and the init ignore it. When the init
 * exits the kernel kills whatever is left in the namespace; when this process dies (AXIS died, or the
 * group got SIGKILL) the init dies of its own parent-death signal.
 *
 * --userns   (unprivileged) also a user namespace: the caller's uid/gid map to root while the mounts
 *            are made, and PROGRAM runs mapped back to the real uid/gid in a nested one.
 * --net PID  first join PID's network namespace (with --userns, its user namespace before it): a
 *            loopback job's holder (job-space.ts).
 * --fstab    bind mounts to make, "SOURCE TARGET none bind|rbind ..." per line, fstab escapes (\040);
 *            "-" reads them from stdin (AXIS's start-up probe).
 * --host-pid no PID namespace and no init: only the mount namespace, then PROGRAM is exec'd in place
 *            (lifecycle scripts, which stay in the host PID namespace).
 *
 * AXIS_CONTAIN_PARENT (environment): the pid of the process that started this one, set by AXIS and its
 *            spawner. The parent-death signal is armed only after this process runs; a parent that died
 *            before that (between its fork and this main) is caught by comparing getppid() with it,
 *            which the getppid() before and after prctl alone cannot tell from a live parent. Removed
 *            from the environment before PROGRAM runs.
 *
 * Exit status: PROGRAM's; 125 when the containment cannot be set up, 126/127 when PROGRAM cannot be
 * executed / is not found (as a shell says them), each with one line on stderr.
 *
 * Why hand-written: util-linux spreads this over setpriv, unshare, a shell as init and mount(8), four
 * dynamically linked execs (about 2.7 ms of CPU per job, docs/performance.md); bubblewrap is one exec but
 * its PID 1 dies of the group's SIGTERM and takes the program down with no time to clean up; no library
 * provides an init with these semantics. This is the few system calls those tools make, in one process
 * start. Linux only; plain C99 + glibc/musl.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "close-range.h"

#define SETUP_FAILED 125

struct options {
  int userns;
  const char *net;
  const char *fstab;
  int host_pid;
  char **program;
};

static void fail(const char *what, const char *detail) {
  dprintf(2, "axis-contain: %s%s%s: %s\n", what, detail ? " " : "", detail ? detail : "", strerror(errno));
  _exit(SETUP_FAILED);
}

static void usage(const char *why) {
  dprintf(2, "axis-contain: %s\nusage: axis-contain [--userns] [--net PID] [--fstab FILE] [--host-pid] -- PROGRAM [ARG...]\n",
          why);
  _exit(SETUP_FAILED);
}

static struct options parse(int argc, char **argv) {
  struct options o = {0};
  int i = 1;
  for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--userns") == 0)
      o.userns = 1;
    else if (strcmp(argv[i], "--host-pid") == 0)
      o.host_pid = 1;
    else if (strcmp(argv[i], "--net") == 0 && i + 1 < argc)
      o.net = argv[++i];
    else if (strcmp(argv[i], "--fstab") == 0 && i + 1 < argc)
      o.fstab = argv[++i];
    else
      usage("unknown or incomplete option");
  }
  if (i + 1 >= argc) usage("no program given after --");
  o.program = argv + i + 1;
  return o;
}

/* ---------------------------------------------------------------------------------------------- */
/* User and network namespaces */

static void write_file(const char *path, const char *text, int must) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
    if (must) fail("cannot write", path);
  }
  if (fd >= 0) close(fd);
}

/* Maps `inside` (uid and gid) to this process's current ids in the parent user namespace. */
static void map_ids(uid_t outer_uid, gid_t outer_gid, uid_t inner_uid, gid_t inner_gid) {
  char line[64];
  write_file("/proc/self/setgroups", "deny", 0); /* already "deny" in a nested namespace */
  snprintf(line, sizeof line, "%u %u 1", (unsigned)inner_uid, (unsigned)outer_uid);
  write_file("/proc/self/uid_map", line, 1);
  snprintf(line, sizeof line, "%u %u 1", (unsigned)inner_gid, (unsigned)outer_gid);
  write_file("/proc/self/gid_map", line, 1);
}

/* A new user namespace where this process's current ids appear as `uid`/`gid`. */
static void enter_userns(uid_t uid, gid_t gid, int more_flags) {
  uid_t outer_uid = geteuid();
  gid_t outer_gid = getegid();
  if (unshare(CLONE_NEWUSER | more_flags) != 0) fail("unshare", "(user namespace)");
  map_ids(outer_uid, outer_gid, uid, gid);
}

static void join_ns(const char *pid, const char *ns, int type) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%s/ns/%s", pid, ns);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || setns(fd, type) != 0) fail("cannot join", path);
  close(fd);
}

/* ---------------------------------------------------------------------------------------------- */
/* Mounts */

/* Decodes fstab's octal escapes (\040 for a space, ...) in place. */
static char *unescape(char *field) {
  char *out = field;
  for (char *in = field; *in; out++) {
    if (in[0] == '\\' && in[1] >= '0' && in[1] <= '7' && in[2] >= '0' && in[2] <= '7' && in[3] >= '0' &&
        in[3] <= '7') {
      *out = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
      in += 4;
    } else {
      *out = *in++;
    }
  }
  *out = '\0';
  return field;
}

static char *next_field(char **cursor) {
  char *s = *cursor + strspn(*cursor, " \t");
  if (*s == '\0') return NULL;
  char *end = s + strcspn(s, " \t");
  if (*end) *end++ = '\0';
  *cursor = end;
  return s;
}

/* Makes the bind mounts `path` lists, in order (what `mount -a -T path` did with the lines AXIS writes). */
static void mount_fstab(const char *path) {
  static char text[1 << 16];
  int from_stdin = strcmp(path, "-") == 0;
  int fd = from_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open", path);
  ssize_t n, len = 0;
  while ((n = read(fd, text + len, sizeof text - 1 - (size_t)len)) > 0) len += n;
  if (!from_stdin) close(fd);
  if (n < 0) fail("cannot read", path);
  if ((size_t)len == sizeof text - 1) {
    errno = EFBIG;
    fail("too long:", path);
  }
  text[len] = '\0';
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    char *cursor = line;
    char *source = next_field(&cursor), *target = next_field(&cursor);
    char *type = next_field(&cursor), *opts = next_field(&cursor);
    if (!source || source[0] == '#') continue;
    unsigned long flags = MS_BIND;
    if (opts && strcmp(opts, "rbind") == 0)
      flags |= MS_REC;
    else if (!opts || strcmp(opts, "bind") != 0 || !type || strcmp(type, "none") != 0) {
      errno = EINVAL;
      fail("only \"none bind|rbind\" lines are supported in", path);
    }
    unescape(source);
    unescape(target);
    if (mount(source, target, NULL, flags, NULL) != 0) {
      dprintf(2, "axis-contain: cannot bind %s on %s (%s): %s\n", source, target, path, strerror(errno));
      _exit(SETUP_FAILED);
    }
  }
}

/* Every mount private (nothing propagates to or from the host), then the job's binds. */
static void private_mounts(const char *fstab) {
  if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) fail("cannot make mounts private", NULL);
  if (fstab) mount_fstab(fstab);
}

/* ---------------------------------------------------------------------------------------------- */
/* Starting the program */

static void default_signals(void) {
  sigset_t none;
  sigemptyset(&none);
  for (int s = 1; s < NSIG; s++)
    if (s != SIGKILL && s != SIGSTOP) signal(s, SIG_DFL); /* glibc's reserved ones fail: harmless */
  sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Runs the program; what AXIS inherited above stderr is closed at the exec (close-range.h). */
static void exec_program(char **program) {
  cloexec_above_stderr();
  execvp(program[0], program);
  int code = errno == ENOENT ? 127 : 126;
  dprintf(2, "axis-contain: %s: %s\n", program[0], strerror(errno));
  _exit(code);
}

static int status_code(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * PID 1 of the namespace. `alive` is the read end of a pipe whose write end only the parent holds: EOF
 * means the parent died before our parent-death signal was set.
 */
static void init(const struct options *o, int alive, uid_t uid, gid_t gid) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail("prctl", "(PR_SET_PDEATHSIG)");
  struct pollfd p = {.fd = alive, .events = POLLIN};
  if (poll(&p, 1, 0) != 0) _exit(SETUP_FAILED); /* EOF: the parent is gone */
  close(alive);
  default_signals();
  if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NOEXEC | MS_NODEV, NULL) != 0)
    fail("cannot mount", "/proc");
  pid_t child = fork();
  if (child < 0) fail("fork", NULL);
  if (child == 0) {
    if (o->userns && o->fstab) enter_userns(uid, gid, 0);
    exec_program(o->program);
  }
  for (;;) { /* reap orphans too; the program's end is ours */
    int status;
    pid_t pid = wait(&status);
    if (pid == child) _exit(status_code(status));
    if (pid < 0 && errno != EINTR) fail("wait", NULL);
  }
}

int main(int argc, char **argv) {
  struct options o = parse(argc, argv);
  uid_t uid = getuid();
  gid_t gid = getgid();

  pid_t expected = 0;
  const char *want = getenv("AXIS_CONTAIN_PARENT");
  if (want) {
    expected = (pid_t)strtol(want, NULL, 10);
    unsetenv("AXIS_CONTAIN_PARENT");
  }
  if (!o.host_pid) {
    pid_t parent = expected > 0 ? expected : getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail("prctl", "(PR_SET_PDEATHSIG)");
    if (getppid() != parent) _exit(SETUP_FAILED); /* it died before the signal was armed */
  }
  if (o.net) {
    if (o.userns) join_ns(o.net, "user", CLONE_NEWUSER);
    join_ns(o.net, "net", CLONE_NEWNET);
  }
  int flags = CLONE_NEWNS | (o.host_pid ? 0 : CLONE_NEWPID);
  if (o.userns) {
    /* Root inside while mounting (mount needs it); without a fstab the real ids right away. */
    if (o.fstab)
      enter_userns(0, 0, flags);
    else
      enter_userns(uid, gid, flags);
  } else if (unshare(flags) != 0) {
    fail("unshare", o.host_pid ? "(mount namespace)" : "(PID and mount namespaces)");
  }
  private_mounts(o.fstab);

  if (o.host_pid) {
    if (o.userns && o.fstab) enter_userns(uid, gid, 0);
    exec_program(o.program);
  }

  /* SIGINT/SIGTERM to the group are for the program: this process waits on (as unshare does). */
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  sigprocmask(SIG_BLOCK, &stop, NULL);
  int alive[2];
  if (pipe2(alive, O_CLOEXEC) != 0) fail("pipe", NULL);
  pid_t pid1 = fork();
  if (pid1 < 0) fail("fork", "(namespace init)");
  if (pid1 == 0) {
    close(alive[1]);
    init(&o, alive[0], uid, gid);
  }
  close(alive[0]);
  int status;
  while (waitpid(pid1, &status, 0) < 0)
    if (errno != EINTR) fail("wait", NULL);
  if (WIFSIGNALED(status)) { /* die the same way (the init was killed from outside) */
    signal(WTERMSIG(status), SIG_DFL);
    sigprocmask(SIG_UNBLOCK, &stop, NULL);
    raise(WTERMSIG(status));
  }
  return status_code(status);
}
