/*
 * axis-spawner: the spawner process of src/exec/spawner.ts, in C. It speaks the same protocol as
 * src/exec/spawner-main.ts (the Node version, used where this one is not built), over the IPC channel
 * Node gives a child (`stdio: [..., 'ipc']`: newline-delimited JSON on the socket in NODE_CHANNEL_FD):
 *
 *   in:  {"t":"hello","address":"<abstract name>","token":"<hex>"}
 *        {"id":N,"command":"...","args":[...],"cwd":"...","env":{...},"stdin":"..."?}
 *   out: {"t":"spawned","id":N,"pid":P}  {"t":"exit","id":N,"code":C|null,"signal":"SIG…"|null}
 *        {"t":"error","id":N,"code":"ENOENT","message":"spawn <command> ENOENT"}
 *
 * For each job it connects two Unix stream sockets to AXIS's abstract address (each opened by the
 * header: token, job id as u32 big-endian, 1 for stdout / 2 for stderr), then forks; the child starts a
 * session of its own, gets the sockets as fds 1 and 2, stdin from a pipe (the request's text) or
 * /dev/null, a clear signal mask and default signal dispositions, changes to cwd and execs the command
 * (searched in the job's own PATH), as libuv's spawn does. Exec failures come back through a close-on-exec
 * pipe. When the channel closes, or SIGTERM/SIGINT/SIGHUP arrives (the parent-death signal), every live
 * job's process group is killed and the spawner exits.
 *
 * Why C: the Node spawner cost 1.1 ms of user and 0.8–1.0 ms of system CPU per job (Node's spawn
 * wrapper, streams and IPC; the fork of a 40 MB process); on 2 cores that CPU is taken from the run
 * (docs/performance.md, "Where a job's time goes"). Written by hand: no library does this.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "close-range.h"

extern char **environ;

/* ---------------------------------------------------------------------------------------------- */
/* A small JSON reader: objects, arrays, strings, numbers, true/false/null. */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
struct jval {
  enum jtype type;
  double num;
  char *str;         /* J_STR: NUL-terminated UTF-8 (a NUL inside makes it invalid for exec anyway) */
  size_t len;        /* J_STR: bytes; J_ARR/J_OBJ: items */
  struct jval *item; /* J_ARR/J_OBJ: items */
  char **key;        /* J_OBJ: keys */
};

struct jparser {
  const char *p, *end;
};

static void jfree(struct jval *v) {
  if (v->type == J_STR) free(v->str);
  if (v->type == J_ARR || v->type == J_OBJ) {
    for (size_t i = 0; i < v->len; i++) {
      jfree(&v->item[i]);
      if (v->key) free(v->key[i]);
    }
    free(v->item);
    free(v->key);
  }
}

static void ws(struct jparser *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n')) j->p++;
}

static int hex4(struct jparser *j, unsigned *out) {
  if (j->end - j->p < 4) return -1;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = j->p[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else return -1;
  }
  j->p += 4;
  *out = v;
  return 0;
}

static char *put_utf8(char *o, unsigned cp) {
  if (cp < 0x80) *o++ = (char)cp;
  else if (cp < 0x800) {
    *o++ = (char)(0xc0 | (cp >> 6));
    *o++ = (char)(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    *o++ = (char)(0xe0 | (cp >> 12));
    *o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
    *o++ = (char)(0x80 | (cp & 0x3f));
  } else {
    *o++ = (char)(0xf0 | (cp >> 18));
    *o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
    *o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
    *o++ = (char)(0x80 | (cp & 0x3f));
  }
  return o;
}

/* A string at j->p (just past the opening quote); UTF-8 out is never longer than the JSON text. */
static char *jstring(struct jparser *j, size_t *len) {
  const char *start = j->p;
  char *out = malloc((size_t)(j->end - start) + 1), *o = out;
  if (!out) return NULL;
  while (j->p < j->end && *j->p != '"') {
    char c = *j->p++;
    if (c != '\\') {
      *o++ = c;
      continue;
    }
    if (j->p >= j->end) break;
    c = *j->p++;
    unsigned cp;
    switch (c) {
      case '"': *o++ = '"'; break;
      case '\\': *o++ = '\\'; break;
      case '/': *o++ = '/'; break;
      case 'b': *o++ = '\b'; break;
      case 'f': *o++ = '\f'; break;
      case 'n': *o++ = '\n'; break;
      case 'r': *o++ = '\r'; break;
      case 't': *o++ = '\t'; break;
      case 'u':
        if (hex4(j, &cp)) goto bad;
        if (cp >= 0xd800 && cp < 0xdc00 && j->end - j->p >= 6 && j->p[0] == '\\' && j->p[1] == 'u') {
          unsigned lo;
          j->p += 2;
          if (hex4(j, &lo)) goto bad;
          if (lo >= 0xdc00 && lo < 0xe000) cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          else {
            o = put_utf8(o, 0xfffd);
            cp = lo;
          }
        }
        if (cp >= 0xd800 && cp < 0xe000) cp = 0xfffd; /* a lone surrogate, as Node's UTF-8 writes it */
        o = put_utf8(o, cp);
        break;
      default: goto bad;
    }
  }
  if (j->p >= j->end) goto bad;
  j->p++; /* the closing quote */
  *o = 0;
  *len = (size_t)(o - out);
  return out;
bad:
  free(out);
  return NULL;
}

static int jvalue(struct jparser *j, struct jval *v, int depth);

static int jlist(struct jparser *j, struct jval *v, int object, int depth) {
  size_t cap = 0;
  v->type = object ? J_OBJ : J_ARR;
  ws(j);
  if (j->p < j->end && *j->p == (object ? '}' : ']')) {
    j->p++;
    return 0;
  }
  for (;;) {
    if (v->len == cap) {
      cap = cap ? cap * 2 : 8;
      struct jval *items = realloc(v->item, cap * sizeof *items);
      if (!items) return -1;
      v->item = items;
      if (object) {
        char **keys = realloc(v->key, cap * sizeof *keys);
        if (!keys) return -1;
        v->key = keys;
      }
    }
    ws(j);
    if (object) {
      size_t klen;
      if (j->p >= j->end || *j->p != '"') return -1;
      j->p++;
      char *k = jstring(j, &klen);
      if (!k) return -1;
      v->key[v->len] = k;
      ws(j);
      if (j->p >= j->end || *j->p != ':') {
        v->item[v->len++] = (struct jval){J_NULL, 0, 0, 0, 0, 0};
        return -1;
      }
      j->p++;
    }
    memset(&v->item[v->len], 0, sizeof v->item[0]);
    int r = jvalue(j, &v->item[v->len], depth + 1);
    v->len++;
    if (r) return -1;
    ws(j);
    if (j->p < j->end && *j->p == ',') {
      j->p++;
      continue;
    }
    if (j->p < j->end && *j->p == (object ? '}' : ']')) {
      j->p++;
      return 0;
    }
    return -1;
  }
}

static int jvalue(struct jparser *j, struct jval *v, int depth) {
  if (depth > 16) return -1;
  ws(j);
  if (j->p >= j->end) return -1;
  char c = *j->p;
  if (c == '{' || c == '[') {
    j->p++;
    return jlist(j, v, c == '{', depth);
  }
  if (c == '"') {
    j->p++;
    v->type = J_STR;
    v->str = jstring(j, &v->len);
    return v->str ? 0 : -1;
  }
  if (c == 't' && j->end - j->p >= 4 && !memcmp(j->p, "true", 4)) {
    j->p += 4;
    v->type = J_BOOL;
    v->num = 1;
    return 0;
  }
  if (c == 'f' && j->end - j->p >= 5 && !memcmp(j->p, "false", 5)) {
    j->p += 5;
    v->type = J_BOOL;
    return 0;
  }
  if (c == 'n' && j->end - j->p >= 4 && !memcmp(j->p, "null", 4)) {
    j->p += 4;
    v->type = J_NULL;
    return 0;
  }
  char num[64];
  size_t n = 0;
  while (j->p < j->end && n < sizeof num - 1 && strchr("+-0123456789.eE", *j->p)) num[n++] = *j->p++;
  if (n == 0) return -1;
  num[n] = 0;
  v->type = J_NUM;
  v->num = strtod(num, NULL);
  return 0;
}

static struct jval *jget(struct jval *obj, const char *key) {
  if (obj->type != J_OBJ) return NULL;
  for (size_t i = 0; i < obj->len; i++)
    if (!strcmp(obj->key[i], key)) return &obj->item[i];
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Messages to AXIS. */

static int channel = -1;

static void out_str(char **o, const char *s) {
  char *w = *o;
  *w++ = '"';
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      *w++ = '\\';
      *w++ = (char)*p;
    } else if (*p < 0x20) w += sprintf(w, "\\u%04x", *p);
    else *w++ = (char)*p;
  }
  *w++ = '"';
  *o = w;
}

static void send_line(const char *line, size_t len) {
  while (len > 0) {
    ssize_t n = write(channel, line, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return; /* AXIS is gone: the channel's end shows up in the loop */
    line += n;
    len -= (size_t)n;
  }
}

static void send_spawned(unsigned long id, pid_t pid) {
  char buf[96];
  int n = snprintf(buf, sizeof buf, "{\"t\":\"spawned\",\"id\":%lu,\"pid\":%d}\n", id, (int)pid);
  send_line(buf, (size_t)n);
}

static const char *signal_name(int sig);
static const char *errno_name(int err);

static void send_exit(unsigned long id, int status) {
  char buf[128];
  int n;
  if (WIFSIGNALED(status))
    n = snprintf(buf, sizeof buf, "{\"t\":\"exit\",\"id\":%lu,\"code\":null,\"signal\":\"%s\"}\n", id,
                 signal_name(WTERMSIG(status)));
  else
    n = snprintf(buf, sizeof buf, "{\"t\":\"exit\",\"id\":%lu,\"code\":%d,\"signal\":null}\n", id,
                 WEXITSTATUS(status));
  send_line(buf, (size_t)n);
}

static void send_error(unsigned long id, const char *code, const char *fmt, ...) {
  char message[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  /* Escaping at most doubles six-fold (\u00xx) a byte: room for the worst case. */
  char *buf = malloc(strlen(message) * 6 + strlen(code) * 6 + 96), *o = buf;
  if (!buf) return;
  o += sprintf(o, "{\"t\":\"error\",\"id\":%lu,\"code\":", id);
  out_str(&o, code);
  o += sprintf(o, ",\"message\":");
  out_str(&o, message);
  o += sprintf(o, "}\n");
  send_line(buf, (size_t)(o - buf));
  free(buf);
}

/* ---------------------------------------------------------------------------------------------- */
/* Jobs. */

struct job {
  unsigned long id;
  pid_t pid;
  int in;         /* our end of its stdin pipe, -1 once written and closed */
  char *text;     /* what is left to write */
  size_t left;
  char *textbase; /* the allocation */
  struct job *next;
};

static struct job *jobs;
static char address[108];
static size_t address_len; /* 0 until hello */
static unsigned char token[64];
static size_t token_len;

static void close_stdin(struct job *j) {
  if (j->in >= 0) close(j->in);
  j->in = -1;
  free(j->textbase);
  j->textbase = j->text = NULL;
  j->left = 0;
}

/* Writes what the pipe takes now; closes it when done or when the job is not reading (EPIPE). */
static void feed(struct job *j) {
  while (j->left > 0) {
    ssize_t n = write(j->in, j->text, j->left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (n <= 0) break;
    j->text += n;
    j->left -= (size_t)n;
  }
  close_stdin(j);
}

/* A stream to AXIS, opened by its header; -1 with errno set on failure. */
static int stream(unsigned long id, unsigned char which) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  struct sockaddr_un sa;
  memset(&sa, 0, sizeof sa);
  sa.sun_family = AF_UNIX;
  memcpy(sa.sun_path, address, address_len); /* sun_path[0] is NUL: abstract */
  /*
   * Node 20 (libuv) binds an abstract name padded with NULs to the whole of sun_path, so that is tried
   * first; a libuv that binds the name's own length is tried next, and whichever answered is kept.
   */
  static int exact = 0;
  for (int tries = 0;;) {
    socklen_t salen = exact ? (socklen_t)(offsetof(struct sockaddr_un, sun_path) + address_len)
                            : (socklen_t)sizeof sa;
    if (connect(fd, (struct sockaddr *)&sa, salen) == 0) break;
    if (errno == EINTR) continue;
    if (errno == ECONNREFUSED && ++tries < 2) {
      exact = !exact;
      continue;
    }
    int e = errno;
    close(fd);
    errno = e;
    return -1;
  }
  unsigned char head[64 + 5];
  memcpy(head, token, token_len);
  head[token_len] = (unsigned char)(id >> 24);
  head[token_len + 1] = (unsigned char)(id >> 16);
  head[token_len + 2] = (unsigned char)(id >> 8);
  head[token_len + 3] = (unsigned char)id;
  head[token_len + 4] = which;
  size_t off = 0, len = token_len + 5;
  while (off < len) {
    ssize_t n = write(fd, head + off, len - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int e = errno;
      close(fd);
      errno = e;
      return -1;
    }
    off += (size_t)n;
  }
  return fd;
}

static const char *str_of(struct jval *v) {
  return v && v->type == J_STR ? v->str : NULL;
}

static void start(struct jval *req) {
  struct jval *idv = jget(req, "id"), *cmdv = jget(req, "command"), *argsv = jget(req, "args");
  struct jval *cwdv = jget(req, "cwd"), *envv = jget(req, "env"), *stdinv = jget(req, "stdin");
  if (!idv || idv->type != J_NUM) return;
  unsigned long id = (unsigned long)idv->num;
  const char *command = str_of(cmdv), *cwd = str_of(cwdv);
  if (!command || !cwd || !argsv || argsv->type != J_ARR || !envv || envv->type != J_OBJ) {
    send_error(id, "EINVAL", "spawner: a malformed start request");
    return;
  }
  if (stdinv && stdinv->type != J_STR) stdinv = NULL;

  int out = stream(id, 1);
  int err = out < 0 ? -1 : stream(id, 2);
  if (out < 0 || err < 0) {
    int e = errno;
    if (out >= 0) close(out);
    send_error(id, "EPIPE", "spawner: no stream to AXIS: %s", strerror(e));
    return;
  }

  /* argv and envp; a string with a NUL in it (len differs) cannot be passed to exec. */
  char **argv = calloc(argsv->len + 2, sizeof *argv);
  char **envp = calloc(envv->len + 1, sizeof *envp);
  int invalid = !argv || !envp || strlen(command) != cmdv->len || strlen(cwd) != cwdv->len;
  if (argv) argv[0] = (char *)command;
  for (size_t i = 0; !invalid && i < argsv->len; i++) {
    struct jval *a = &argsv->item[i];
    if (a->type != J_STR || strlen(a->str) != a->len) invalid = 1;
    else argv[i + 1] = a->str;
  }
  char pidbuf[24];
  snprintf(pidbuf, sizeof pidbuf, "%d", (int)getpid());
  for (size_t i = 0; !invalid && i < envv->len; i++) {
    const char *k = envv->key[i];
    struct jval *val = &envv->item[i];
    if (val->type != J_STR || strlen(val->str) != val->len || strchr(k, '=')) {
      invalid = 1;
      break;
    }
    /* axis-contain checks its parent against this (contain.ts): the spawner is it. */
    const char *v = !strcmp(k, "AXIS_CONTAIN_PARENT") && val->len == 0 ? pidbuf : val->str;
    size_t kl = strlen(k), vl = strlen(v);
    envp[i] = malloc(kl + vl + 2);
    if (!envp[i]) {
      invalid = 1;
      break;
    }
    memcpy(envp[i], k, kl);
    envp[i][kl] = '=';
    memcpy(envp[i] + kl + 1, v, vl + 1);
  }
  int in[2] = {-1, -1}, ep[2] = {-1, -1};
  pid_t pid = -1;
  int spawn_errno = 0;
  if (invalid) spawn_errno = EINVAL;
  else if ((stdinv && pipe2(in, O_CLOEXEC) < 0) || pipe2(ep, O_CLOEXEC) < 0) spawn_errno = errno;
  else if ((pid = fork()) < 0) spawn_errno = errno;
  else if (pid == 0) {
    /* The child: as libuv's spawn sets up a detached child, then exec. */
    sigset_t none;
    sigemptyset(&none);
    signal(SIGPIPE, SIG_DFL);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setsid();
    int fd0 = stdinv ? in[0] : open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd0 < 0 || dup2(fd0, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) goto fail;
    if (chdir(cwd) < 0) goto fail;
    cloexec_above_stderr(); /* what AXIS inherited is not the program's (close-range.h) */
    environ = envp;
    execvp(command, argv);
  fail:;
    int e = errno;
    while (write(ep[1], &e, sizeof e) < 0 && errno == EINTR) {
    }
    _exit(127);
  }
  if (pid > 0) {
    close(ep[1]);
    ep[1] = -1;
    int e;
    ssize_t n;
    while ((n = read(ep[0], &e, sizeof e)) < 0 && errno == EINTR) {
    }
    if (n == sizeof e) {
      spawn_errno = e;
      while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
      }
      pid = -1;
    }
  }
  if (ep[0] >= 0) close(ep[0]);
  if (ep[1] >= 0) close(ep[1]);
  if (in[0] >= 0) close(in[0]);
  close(out);
  close(err);
  if (envp)
    for (size_t i = 0; i < envv->len; i++) free(envp[i]);
  free(envp);
  free(argv);
  if (pid < 0) {
    if (in[1] >= 0) close(in[1]);
    const char *code = errno_name(spawn_errno);
    send_error(id, code, "spawn %s %s", command, code);
    return;
  }
  struct job *j = calloc(1, sizeof *j);
  if (!j) {
    kill(-pid, SIGKILL); /* cannot be tracked: its exit report would never come */
    send_error(id, "ENOMEM", "spawner: out of memory");
    return;
  }
  j->id = id;
  j->pid = pid;
  j->in = in[1];
  j->next = jobs;
  jobs = j;
  send_spawned(id, pid);
  if (j->in >= 0) {
    j->textbase = j->text = stdinv->str;
    j->left = stdinv->len;
    stdinv->str = NULL; /* the job owns it now */
    stdinv->type = J_NULL;
    fcntl(j->in, F_SETFL, fcntl(j->in, F_GETFL) | O_NONBLOCK);
    feed(j);
  }
}

static void reap(void) {
  int status;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    for (struct job **p = &jobs; *p; p = &(*p)->next) {
      if ((*p)->pid != pid) continue;
      struct job *j = *p;
      *p = j->next;
      close_stdin(j);
      send_exit(j->id, status);
      free(j);
      break;
    }
  }
}

/** AXIS is gone: nothing it started may outlive it. */
static void shutdown_all(void) {
  for (struct job *j = jobs; j; j = j->next) kill(-j->pid, SIGKILL);
  _exit(0);
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void handle(const char *line, size_t len) {
  struct jparser jp = {line, line + len};
  struct jval msg;
  memset(&msg, 0, sizeof msg);
  if (jvalue(&jp, &msg, 0) || msg.type != J_OBJ) {
    jfree(&msg);
    return;
  }
  const char *t = str_of(jget(&msg, "t"));
  if (jget(&msg, "cmd")) {
    /* Node's own messages (NODE_…): none is meant for us */
  } else if (t && !strcmp(t, "hello")) {
    const char *a = str_of(jget(&msg, "address")), *k = str_of(jget(&msg, "token"));
    size_t al = a ? strlen(a) : 0, kl = k ? strlen(k) : 0;
    if (a && al + 1 <= sizeof address && kl % 2 == 0 && kl / 2 <= sizeof token) {
      address[0] = 0;
      memcpy(address + 1, a, al);
      address_len = al + 1;
      token_len = kl / 2;
      for (size_t i = 0; i < token_len; i++)
        token[i] = (unsigned char)(hexval(k[2 * i]) << 4 | hexval(k[2 * i + 1]));
    }
  } else if (!t) {
    start(&msg);
  }
  jfree(&msg);
}

int main(void) {
  const char *fdtext = getenv("NODE_CHANNEL_FD");
  if (!fdtext) {
    fprintf(stderr, "axis-spawner: no IPC channel (NODE_CHANNEL_FD); it is started by AXIS\n");
    return 2;
  }
  channel = atoi(fdtext);
  fcntl(channel, F_SETFD, FD_CLOEXEC);
  fcntl(channel, F_SETFL, fcntl(channel, F_GETFL) & ~O_NONBLOCK);
  signal(SIGPIPE, SIG_IGN);
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGCHLD);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGHUP);
  sigprocmask(SIG_BLOCK, &mask, NULL);
  int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sfd < 0) {
    perror("axis-spawner: signalfd");
    return 2;
  }
  /* Gone with AXIS even if nothing else noticed (setpriv does it as well where it is used). */
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() == 1) shutdown_all();

  size_t cap = 1 << 16, used = 0;
  char *buf = malloc(cap);
  struct pollfd *fds = NULL;
  struct job **owners = NULL;
  size_t fdcap = 0;
  if (!buf) return 2;
  for (;;) {
    size_t n = 2;
    for (struct job *j = jobs; j; j = j->next)
      if (j->in >= 0) n++;
    if (n > fdcap) {
      fdcap = n * 2;
      fds = realloc(fds, fdcap * sizeof *fds);
      owners = realloc(owners, fdcap * sizeof *owners);
      if (!fds || !owners) shutdown_all();
    }
    fds[0] = (struct pollfd){channel, POLLIN, 0};
    fds[1] = (struct pollfd){sfd, POLLIN, 0};
    size_t k = 2;
    for (struct job *j = jobs; j; j = j->next)
      if (j->in >= 0) {
        owners[k] = j;
        fds[k++] = (struct pollfd){j->in, POLLOUT, 0};
      }
    if (poll(fds, k, -1) < 0) {
      if (errno == EINTR) continue;
      shutdown_all();
    }
    if (fds[1].revents) {
      struct signalfd_siginfo si;
      int child = 0;
      while (read(sfd, &si, sizeof si) == sizeof si) {
        if (si.ssi_signo == SIGCHLD) child = 1;
        else shutdown_all();
      }
      if (child) reap();
    }
    for (size_t i = 2; i < k; i++)
      if (fds[i].revents) {
        /* still listed (reap may have ended it meanwhile)? */
        for (struct job *j = jobs; j; j = j->next)
          if (j == owners[i] && j->in >= 0) feed(j);
      }
    if (fds[0].revents) {
      if (used == cap) {
        cap *= 2;
        char *grown = realloc(buf, cap);
        if (!grown) shutdown_all();
        buf = grown;
      }
      ssize_t r = read(channel, buf + used, cap - used);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) shutdown_all(); /* the channel closed: AXIS is gone or done with us */
      used += (size_t)r;
      size_t from = 0;
      for (size_t i = 0; i < used; i++)
        if (buf[i] == '\n') {
          handle(buf + from, i - from);
          from = i + 1;
        }
      memmove(buf, buf + from, used - from);
      used -= from;
    }
  }
}

/* ---------------------------------------------------------------------------------------------- */

static const char *signal_name(int sig) {
  static const char *names[] = {
      [SIGHUP] = "SIGHUP",       [SIGINT] = "SIGINT",     [SIGQUIT] = "SIGQUIT",   [SIGILL] = "SIGILL",
      [SIGTRAP] = "SIGTRAP",     [SIGABRT] = "SIGABRT",   [SIGBUS] = "SIGBUS",     [SIGFPE] = "SIGFPE",
      [SIGKILL] = "SIGKILL",     [SIGUSR1] = "SIGUSR1",   [SIGSEGV] = "SIGSEGV",   [SIGUSR2] = "SIGUSR2",
      [SIGPIPE] = "SIGPIPE",     [SIGALRM] = "SIGALRM",   [SIGTERM] = "SIGTERM",   [SIGSTKFLT] = "SIGSTKFLT",
      [SIGCHLD] = "SIGCHLD",     [SIGCONT] = "SIGCONT",   [SIGSTOP] = "SIGSTOP",   [SIGTSTP] = "SIGTSTP",
      [SIGTTIN] = "SIGTTIN",     [SIGTTOU] = "SIGTTOU",   [SIGURG] = "SIGURG",     [SIGXCPU] = "SIGXCPU",
      [SIGXFSZ] = "SIGXFSZ",     [SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF", [SIGWINCH] = "SIGWINCH",
      [SIGIO] = "SIGIO",         [SIGPWR] = "SIGPWR",     [SIGSYS] = "SIGSYS",
  };
  if (sig > 0 && sig < (int)(sizeof names / sizeof names[0]) && names[sig]) return names[sig];
  static char other[24]; /* a real-time signal */
  snprintf(other, sizeof other, "SIGRT%d", sig - SIGRTMIN);
  return other;
}

static const char *errno_name(int err) {
  switch (err) {
    case ENOENT: return "ENOENT";
    case EACCES: return "EACCES";
    case E2BIG: return "E2BIG";
    case ENOEXEC: return "ENOEXEC";
    case ENOTDIR: return "ENOTDIR";
    case EPERM: return "EPERM";
    case ELOOP: return "ELOOP";
    case ENAMETOOLONG: return "ENAMETOOLONG";
    case ENOMEM: return "ENOMEM";
    case EAGAIN: return "EAGAIN";
    case EMFILE: return "EMFILE";
    case ENFILE: return "ENFILE";
    case ETXTBSY: return "ETXTBSY";
    case EISDIR: return "EISDIR";
    case EINVAL: return "EINVAL";
    case EIO: return "EIO";
    case EFAULT: return "EFAULT";
    default: return "UNKNOWN";
  }
}
