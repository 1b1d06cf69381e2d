/* machines.h - the scheduling model's machines for the unit tests (test_sched, test_replay_fit). */
#ifndef GL_TEST_MACHINES_H
#define GL_TEST_MACHINES_H

#include "gl_sched.h"

/* A machine with no costs at all: the textbook's assumptions. */
static inline gl_sched_machine ideal(int C, int sms, int L)
{
    gl_sched_machine m = gl_sched_machine_default();
    m.connections = C;
    m.sms = sms;
    m.resident_grids = L;
    return m;
}

/* An ideal machine with one engine per direction: H2D and D2H 1 byte/ns (0.5 each while both run), D2D 2,
 * memset 4, pageable 0.25 when the host waits; pageable H2D staged up to 100000 bytes, queued up to 100. */
static inline gl_sched_machine copier(int C)
{
    gl_sched_machine m = ideal(C, 4, 128);
    for (int d = 0; d < GL_SCHED_DIRS; d++) m.copy_engines[d] = 1, m.copy_gbps[d] = d < 2 ? 1 : 2 * (d - 1);
    m.copy_bidir_gbps[0] = m.copy_bidir_gbps[1] = 0.5;
    m.pageable_gbps[0] = m.pageable_gbps[1] = 0.25;
    m.pageable_stage_bytes = 100000, m.pageable_inline_bytes = 100;
    return m;
}

#endif
