/*
 * Descriptors above stderr are AXIS's parent's (a CI runner's pipe), never the program's: both the
 * containment helper and the spawner mark them close-on-exec just before they exec a program. Kernels
 * before 5.11 lack close_range; then they stay open, as before.
 */
#ifndef AXIS_CLOSE_RANGE_H
#define AXIS_CLOSE_RANGE_H

#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static inline void cloexec_above_stderr(void) { syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC); }

#endif
