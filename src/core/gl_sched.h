/* gl_sched.h - the scheduling model: a discrete-event simulation of how the host
 * and the GPU's front end turn API calls into grids running on SMs.
 *
 * Pure C, unit-tested without a GPU. An experiment describes its work as a
 * program (host threads issuing calls in order), describes the machine with
 * numbers measured in the same run (gl_sched_calibrate in gl_model.h), and gets
 * back one predicted interval per operation, as a gl_timeline. Prediction and
 * measurement then go through the same analysis.
 *
 * The rules, each checked on the GPU by an experiment (see the README's
 * "The scheduling model" section for the measurements behind them):
 *
 *   Host.   A host thread issues its calls one after another; each call takes
 *           its issue time (measured per call, or the machine's median). A call
 *           reaches its hardware queue when it returns, plus launch_latency;
 *           an H2D or D2H copy whose call returns before it ends (not one
 *           handed over as recorded: a graph's node, a replayed cudaMemcpy
 *           whose host time reaches its start) copy_arrive_ns later still:
 *           under nsys on the H200
 *           threadFenceReduction's 4-byte cudaMemcpyToSymbol copies into an
 *           idle stream began 0.9 us (tenth percentile; median 1.6) after
 *           their calls returned, where its kernels' launch latency fits 0
 *           beyond the dispatch gap; pinned copies in gridlab's traces, 0.1-2.0
 *           us (the replay fits it, fit.c).
 *           A synchronizing call blocks its thread until its target finishes,
 *           and, where it waited, returns sync_return_ns after that (its own
 *           wake_ns if set): the thread's wake. Under nsys on the H200 the
 *           median cudaDeviceSynchronize that waited returned 3.0-4.4 us after
 *           its work ended in each of eight recordings of gridlab's programs
 *           (3.9 us over waits under 5 us, 6.0 over waits above 500 us); the
 *           replay fits it to its trace (a --range to its own syncs) and
 *           gives each sync that waited in the recording its own return as
 *           its wake_ns (the host's time, as its gaps are), the live
 *           machine keeps 0 (gridlab's own waits poll an event, and a run's
 *           measured call times hold them).
 *           A synchronizing call (stream, device or event; it waited or
 *           not) costs the host more the more queues the setting has:
 *           27-48 ns a connection on the H200 (median 35 over three runs),
 *           alike for the three kinds, idle or after a kernel, where launches
 *           and records cost the same at every setting
 *           (issue-19-probes/probe-callcost, interleaved processes, no
 *           tracer: a stream sync after a one-thread kernel took 5.08-5.14
 *           us at C=1 and 6.11-6.51 at C=32), and so do the waits inside
 *           other calls, which the model takes as synchronizations: a 4-byte
 *           D2H cudaMemcpy after a kernel 44 ns a connection to pinned
 *           memory and 80 to pageable, a cudaEventQuery loop 38
 *           (probe-callcost-waits). So a program's calls timed at one
 *           setting (timed_connections) return sync_connection_ns per
 *           connection later at a larger one and earlier at a smaller one, a
 *           call that found its target done no earlier than at once
 *           (gl_sched_sync_extra_ns): one the replay takes as costing
 *           nothing (its recorded time was the wait) costs more at a larger
 *           setting and no less at a smaller one. Under nsys
 *           jacobiCudaGraphs' 2955 stream syncs took 1.6-2.2 us at C=1 and
 *           2.4-3.4 at C=32.
 *           A call with an `after` op (another thread's) is not made before
 *           that op's call has returned: the program's own order between its
 *           threads, which a replay takes from its recording.
 *   Queues. C hardware queues (CUDA_DEVICE_MAX_CONNECTIONS), each in order.
 *           Which queue a call goes to depends on the sequence of calls, not on
 *           the stream alone (GL_SCHED_QUEUE_TAIL, measured on Hopper): a call
 *           stays in the queue its stream's last call went to while that call
 *           is still the queue's last entry (nothing else was put behind it);
 *           otherwise it takes the next idle queue (round-robin from the last
 *           one chosen), or when none is idle the next queue. With one host
 *           thread this is the rule "a call into the same stream as the
 *           previous call stays, any other call moves" (GL_SCHED_QUEUE_SWITCH)
 *           on every program the GPU suite measures; with several host
 *           threads taking turns only the tail rule matches (each racing
 *           thread's stream keeps a queue; README, "The scheduling model").
 *           The textbook rule, the k-th stream created in queue (k-1) mod C
 *           (the legacy stream in queue 0), is GL_SCHED_QUEUE_STREAM.
 *           GRIDLAB_QUEUE_RULE=tail|switch|stream in the environment makes an
 *           experiment's model use another rule.
 *   Heads.  Only a queue's head can go, and only once what it depends on has
 *           finished: the previous operation of its stream, the event it waits
 *           for, and the implicit barrier of the legacy default stream. A head
 *           that waits holds back everything behind it: the false dependency.
 *           A queue takes queue_entry_ns to move from one entry to the next.
 *           Heads ready at one instant go earliest-submitted first, which
 *           decides which kernel reaches the work distributor first. Which of
 *           two kernels that one event releases goes first is a race on the
 *           GPU: validate-replay's random 20 (H200, nsys, alone, 8 recordings
 *           at each of C = 2, 8, 32) released a 7012-block grid and, after it,
 *           a 1-block kernel with one event; in 11 of 24 recordings the small
 *           one started first (0.2-0.5 us before the grid, also behind it in
 *           one queue at C=2) and its stream went on beside the grid (the
 *           host, waiting for a copy behind the small kernel, went on 750 us
 *           sooner), the span 5.9-6.3 ms; in the others it started as the
 *           grid's last wave left room, 6.7-7.3 ms. So with ranked_races (a
 *           replay at its recorded setting), where the earliest-submitted
 *           ready head is ranked (gl_sched_op.rank: the order kernels and
 *           copies started in the recording), the ready head ranked first
 *           goes instead; and a kernel reaching the distributor waits for one
 *           ranked before it that is due there within queue_entry_ns.
 *           The front end serves the chains in progress in turn: the more
 *           streams at the heads of the queues, the longer a kernel waits
 *           between its dependency ending and its own start
 *           (dispatch_busy_ns, measured with 1, 2, 4, ... C chains at once;
 *           a stream spread over several queues counts once).
 *   Release. A queue moves on when its head kernel is handed to the work
 *           distributor (GL_SCHED_RELEASE_LAUNCH), or only once all of that
 *           kernel's blocks are on SMs (GL_SCHED_RELEASE_DISPATCHED, what
 *           Bakita & Anderson, RTAS 2024, found on GPUs before Hopper).
 *   Grids.  At most resident_grids kernels are in the work distributor at once;
 *           a head kernel waits for a free place.
 *   Blocks. The work distributor hands blocks to free SM slots (blocks_per_sm
 *           of a kernel's shape fit on one SM, from the occupancy calculator),
 *           oldest kernel first within a priority, higher priority first. A
 *           kernel's blocks start a dispatch latency after its queue let it go
 *           (dispatch_ns, or dispatch_busy_ns for the chains in progress), so a
 *           kernel that waits for another starts that long after the other's
 *           last block ends. A graph's node that follows its launch's
 *           previous node in its stream (chained) takes the graph's own
 *           costs after that node, where the machine sets them: a kernel
 *           after a kernel graph_dispatch_ns as its dispatch (the graph's
 *           nodes were handed over together: NVIDIA's cudaGraphsPerfScaling,
 *           H200 under nsys, 20 empty kernels in a chain, each 0.05-0.15 us
 *           after the one before, where a stream's kernels are 1.6 us
 *           apart); a copy or memset after a kernel
 *           graph_copy_after_kernel_ns, and a kernel after a copy or memset
 *           graph_kernel_after_copy_ns and then graph_dispatch_ns, in place
 *           of the machine's copy costs ("Engines") and dispatch
 *           (jacobiCudaGraphs: [memset, kernel, 8-byte D2H] per graph, the
 *           kernel 2.7 us after the memset, the D2H 3.7-4.6 us after the
 *           kernel). A conditional body's kernel node that begins its body
 *           again (chained 2: a while loop's next iteration) takes
 *           graph_restart_ns instead, where the machine sets it: in NVIDIA's
 *           graphConditionalNodes (H200, nsys) a do-while body's three
 *           kernels ran 0.06-0.16 us apart and each iteration began
 *           9.3-9.5 us after the one before ended, a captured while loop's
 *           one-kernel body 5.9-6.1 us; from a copy node's end too, with no
 *           cost after a copy. A wait on another stream's node between
 *           them (a cross-stream edge) changes none of that. A kernel whose
 *           blocks do not all fit starts the rest as slots free up: kernels
 *           overlap partially. The distributor
 *           hands out one block at a time, block_dispatch_ns apiece, for
 *           all kernels together, so a grid of N blocks has its last block
 *           start (N-1)*block_dispatch_ns after its first. A block runs
 *           block_overrun_ns past its nominal time.
 *   Sharing. A block of a kernel with sm_demand d > 0 uses d of an SM's
 *           throughput alone (issue slots, its memory pipes). While the
 *           demands of all such blocks running, evened over the SMs, come to
 *           L > 1 an SM, each runs at 1/L of its speed alone, and speeds up
 *           again as others end: n blocks of one kernel an SM with nothing
 *           beside them take block_ns * max(1, n * d). Such a kernel's blocks
 *           go one an SM in turn, as the hardware spreads a grid, and those
 *           handed out together end together. A kernel with d = 0 (the
 *           default: gridlab's own kernels spin on the clock and take their
 *           time whatever runs beside them) fills one SM's slots before the
 *           next, and neither slows nor is slowed. Evened, not per SM: with
 *           each SM's own load, blocks of one grid on busier SMs ended late,
 *           the grids' tails let the next grids in early, and a PyTorch job's
 *           GEMMs ran 8 at once where the H200 ran 5 (its recorded span at
 *           C=8 came out 14% short). Measured: that job's fp32 GEMM of 128
 *           blocks (one an SM, four fit) ran 172 us alone, 233 us beside one
 *           other (d = 0.68), 537 us beside four (d = 0.62) on the H200
 *           (experiments/torch-job.py, session 25). The replay fits d per
 *           kernel from a trace (src/replay/fit.c).
 *   Legacy. An operation in the legacy default stream waits for everything
 *           issued before it to blocking streams (cudaStreamCreate, and the
 *           per-thread default streams); an operation in a blocking stream waits
 *           for the legacy stream's last operation. Non-blocking streams do
 *           neither.
 *   Events. A record finishes when its stream reaches it and the queue the
 *           rule would give it has let go of all put in it before (a record
 *           on a stream behind nothing, issued after a held queue's entries
 *           at C = 1, ended when the queue let the last one go: 4.01 ms where
 *           its stream was idle; issue 18's probe), but its stream's next
 *           op does not wait for that: it waits for the op before the
 *           record (validate-replay's random 20 at C=1: a 7 MB pageable H2D
 *           behind two records of its stream started 1.3 ms before the held
 *           queue let go of them); a wait finishes
 *           when the record it refers to (the latest one issued before the
 *           wait) has, and its stream's later work waits for it. Neither is a
 *           queue entry: neither holds a queue nor moves the queue
 *           rule's memory; it is the stream's next kernel, waiting at the head
 *           of the queue the rule gives it, that holds the queue. Measured
 *           with one queue: a kernel of another stream issued after a record
 *           that waits for a 2 ms kernel ran beside it (default-stream), and in
 *           the seed's fan-in the waits let the next stream's first kernel
 *           overlap the previous stream's last (stream-events). Measured with
 *           more streams than queues (the fan-in, S = 16 at C = 8, H100): the
 *           last stream's 15 waits, issued between the others' kernels, took
 *           no queue: streams 0..7 got one each and 8..14 shared theirs in
 *           order (2.375 ms, peak 15; a rule where waits pick queues predicted
 *           6.5 ms, peak 8). But a record of a timed event
 *           (cudaEventDefault, the op's timed) whose stream's op before it
 *           (records aside) is a running kernel is an entry of the queue the
 *           rule gives it: at the head it waits for what a record waits for
 *           (that kernel; on the legacy stream or a blocking one, the
 *           barrier too), takes the queue's time per entry, and holds the
 *           queue meanwhile. It counts as the queue's tail and keeps it from
 *           being idle, but leaves the rule's memory (the last queue, its
 *           stream's last entry) alone. Measured: another stream's kernel
 *           behind [2 ms kernel, timed record] started 2003 us after it,
 *           4-62 us behind an untimed one (H200, C=1; probe-record-hold).
 *           Under CUPTI's event trace (nsys --cuda-event-trace=true, which
 *           warns of false dependencies) every record holds so (2003 us,
 *           untimed too): the replay marks a traced trace's records timed
 *           (validate-replay's random 13 at C=1: its starts within 0.3% of
 *           the span, 36% without). Behind a copy a record holds nothing
 *           (under the trace, copy-overlap's starts at C=1 were 0.9% of the
 *           span so, 22% if it held; not probed alone).
 *           A call that finds no queue idle does not go behind a record
 *           that was the latest entry put in any queue, while it holds its
 *           queue: it takes the queue after that one. So a stream that records before each
 *           other stream's work, its own still running, keeps a queue to
 *           itself, and the others share C - 1. Measured under the trace
 *           (H200, 6 towers of three 300 us kernels, each after a record
 *           of a stream busy for 2 ms that it waits for, PyTorch's
 *           wait_stream): one queue's span at C = 2 (3923 us), two queues'
 *           at C = 3 (2121), three at C = 4; with one record for all, the
 *           records issued first, or no record, the C queues' (2113 us at
 *           C = 2, 1515 at C = 3). Alone with timed events the same
 *           (3922 us at C = 2, 2112 at C = 3); alone and under nsys without
 *           the event trace, untimed records hold nothing and the towers take
 *           C queues (2111-2113 us at C = 2; probe-traced-wait). Whichever
 *           thread calls: a kernel called from another thread after a held
 *           record went at once at C = 2 (19 us; probe-thread-hold). A PyTorch
 *           job's 8 towers so ran as in one queue at C = 2, and replayed
 *           -45% without the rule, -1.4% with it (torch-job.py, session 26).
 *
 * The closed forms a textbook gives for S streams x K kernels of T each, one
 * block each, with no issue cost (gl_sched_textbook), follow from these rules
 * when every kernel fits at once and S*K <= resident_grids:
 *   depth-first (stream by stream), S <= C:  K*T
 *   depth-first, S > C:   (ceil(S/C)*(K-1) + 1) * T: a queue holds ceil(S/C)
 *                         streams back to back, and only the first kernel of
 *                         the next stream overlaps the last one of the previous
 *   breadth-first:        K*T: every queue's head is always ready
 *   peak concurrency:     breadth-first S; depth-first min(S, 2C) when S > C
 *                         and K > 1, else S.
 * They stop being right when the host's issue time is comparable to T, when
 * kernels do not all fit on the GPU, and when the legacy stream takes part;
 * the simulation does not stop there.
 *
 * Copies, host functions and module loads (issue 18), each rule from a probe of
 * ours on an H200 (driver 580, CUDA 13; README, "The scheduling model"):
 *   Engines. A pinned H2D or D2H copy is no entry of its stream's hardware
 *           queue: with one queue, a kernel of another stream issued behind a
 *           copy that waited for its own stream's 2 ms kernel started at once.
 *           It waits for its stream (and the legacy barrier, events), then for
 *           a free engine of its direction, but for a pinned H2D of at most
 *           pinned_beside_bytes, which goes at once (in event-programs'
 *           recordings under nsys, 66 pinned H2D of 4-24 KiB started inside a
 *           pinned H2D of over 1 MiB and ended before it; none of 28 KiB or
 *           more did: they started as it ended; not calibrated: 0 unless set)
 *           (copy_engines: one each measured,
 *           two H2D at once took twice one), which takes the ready copies
 *           first-issued first (not always: in event-programs' seed 20261178
 *           at C=16 an 18 MB H2D behind a cross-stream wait, ready with the
 *           first copies, went after four copies issued after it in 4 runs
 *           of 8, H100 and H200; not modelled); where copy_in_order[dir]
 *           (either direction with one queue) a copy also waits for every
 *           earlier copy of its direction to start, but a pinned H2D that
 *           goes beside, which keeps no order though it holds the later ones
 *           back while it waits (probe-h2d-order, H200, C=1: H2D copies of
 *           64 KiB to 16 MiB waited behind another stream's H2D of 4 KiB to
 *           16 MiB held by a 2 ms kernel, 2023-2631 us; one of 4 KiB did not,
 *           29-44 us; at C=8 none did; pageable H2D copies were not probed).
 *           A copy takes its latency plus bytes over bandwidth; while the opposite
 *           direction runs too, both go at copy_bidir_gbps (a shared link)
 *           and take copy_bidir_latency_ns per copy: a small copy slows
 *           far more than a large one (under nsys, 558 KiB H2D took 13 us
 *           alone and 13-28 us while a D2H ran; 16 MiB 5% longer). A copy's
 *           speed while shared is its time alone over that line's. A copy
 *           that waits for a kernel (a direct dependency: its stream, a
 *           legacy barrier) starts copy_after_kernel_ns after it ends, and
 *           so does one behind a queue copy of its stream (event-programs'
 *           seed 20261172 at C=16: a 4 MiB H2D behind an inline 4 KiB
 *           pageable H2D took 81-96 us from its end in 12 runs, 77 alone);
 *           a kernel that waits for a copy goes kernel_after_copy_ns after
 *           it (calibrated per run from [kernel, copy] and [copy, kernel]
 *           chains: kernel to copy 4.7-6.4 us and copy to kernel 0 in
 *           session 12's H200 processes, both 0-0.3 us in session 7's; the
 *           copy latency, 3-6 us, holds the rest of the gap nsys shows).
 *   Queue copies. D2D copies, memsets, and pageable H2D copies of at most
 *           pageable_inline_bytes are entries of the stream's queue, as
 *           kernels are (with one queue a later kernel of another stream
 *           waited behind them); at the head each waits for its dependencies
 *           and an engine of its kind, then leaves the head as it starts
 *           (an SM copy: as it goes to the work distributor, below).
 *           The small pageable H2D takes no engine: its bytes travel in the
 *           queue's own commands (in event-programs' recording under nsys a
 *           12 KiB one ran at once beside a 206 MB pinned H2D, 3229..7016 us).
 *   SM copies. Every D2D copy and every memset over sm_memset_bytes runs on
 *           the SMs, as a grid of the driver's: once its queue lets it go
 *           (an engine of its kind free, which it then holds to its end) it
 *           enters the work distributor like a kernel (behind any kernel
 *           with blocks left, after more urgent ones) as one block that
 *           needs sm_copy_share of an SM free, and from there it takes its
 *           own time less the dispatch latency (so alone it ends its own
 *           time after it went, as before). Probed on the H200
 *           (probe-sm-copies, probe-memset-sizes): behind another stream's
 *           grid that filled every SM for 900 us, 64 MiB memsets ended 12-16
 *           us and 64 MiB D2D copies 27-30 us after the grid, a 4 KiB D2D and
 *           memsets of 4097 B to 3 MiB within 1.3 us of its end, while a
 *           4096 B memset and a 16 MiB pinned H2D ran at once. Beside one
 *           1024-thread block per SM (half the threads) they ran at once but
 *           slower (64 MiB memset ended at 83 us against 22 alone, 64 MiB D2D
 *           54 against 39; not modelled: each keeps its own time); beside two
 *           they waited. So half an SM is the most such a copy needs, not a
 *           measured least; D2D copies of 4 KiB and 64 MiB were probed, not
 *           every size; priorities were not probed with them.
 *   Pageable. A D2H to pageable memory returns when the copy has ended, and
 *           so does an H2D of more than pageable_stage_bytes (the driver
 *           stages it piece by piece): the host waits, and the copy takes
 *           pageable_latency_ns (the staging's cost per call, fitted from a
 *           small and a large one) plus its bytes at pageable_gbps, or the
 *           time it was timed at just before the run (copy_ns: the host's
 *           memory pace switched between two levels on the H200). It holds
 *           no engine: its pieces go between the engine's copies, so a
 *           pinned copy of its direction goes at once, at full speed, and
 *           the pageable one stops while it runs (validate-replay's random
 *           30: a 156 MB pinned D2H took 2.82 ms inside a 14 MB pageable
 *           D2H of 3.79 ms, which alone takes about 0.97; a replay takes
 *           what is left as its time alone). But its piece in flight goes
 *           whole first: an engine copy of its direction that becomes ready
 *           while it runs starts pageable_piece_ns after the piece began, or
 *           at the copy's end if sooner; a piece begins as the copy starts
 *           or resumes, and one ready at that very moment goes first (probe-
 *           pageable-pieces, C=8: a 4 MiB pinned D2H ready 20 us after a 4 or
 *           16 MiB pageable D2H began ended 62 us later than alone, 15 us
 *           after a 1 MiB one; beside 8-256 KiB ones begun 20 us before, or
 *           any begun 5 us before, it went first: they had not begun, the
 *           host waking after their stream's kernel first. In event-
 *           programs' seed 20261186 pinned D2H copies went back to back while
 *           a pageable one waited). One that waits so from its start starts
 *           when its first piece begins: a trace shows the DMA's start
 *           (validate-replay's random 4: a 25 MiB pageable H2D ready with a
 *           21 MiB pinned one began 5-6 us after that one ended, 0.4 ms
 *           late, in each of its 36 recordings; started at once, the replay
 *           took that wait off its time alone). Probed with D2H copies only;
 *           an H2D the host waits for is staged the same way, and the model
 *           treats it alike, unprobed. The shared link adds to it what
 *           it adds to a pinned copy of its size (its DMA). A smaller
 *           pageable H2D returns once staged (its
 *           call's time, at most its copy at the pageable pace or its call
 *           timed alone on its own buffer: a longer call waited for staging
 *           room, gl_sched_staged_call_ns) and is
 *           then copied from the staging buffer at the pinned bandwidth.
 *   Staging. The driver stages pageable copies in one process-wide place per
 *           direction, so a call can wait for another thread's copy
 *           (pageable_d2h_serial, pageable_stage_slots; probe-pagelock in
 *           results/h200/issue-19-probes, H200, C=8 and 1, two threads, one
 *           behind a 2 ms kernel). A pageable D2H call is made only once the
 *           one before it has returned: 1 MiB and 8 KiB ones behind another
 *           thread's, whose stream held it 2 ms, returned 34-169 us after it,
 *           at C=8 as at 1; pinned copies and H2D calls beside it did not
 *           wait. The H2D staging buffer is pageable_stage_slots parts of
 *           pageable_stage_bytes / slots (2 of 1 MiB on the H200): a staged
 *           call takes the parts its bytes fill, one the host waits for takes
 *           all (probe-held-chain: an 8 MiB one in an idle stream, called
 *           300 us into another thread's behind a 3 ms kernel, returned
 *           1.41-1.44 ms after it at C=8, medians; 32 MiB ones 4.9-5.5
 *           ms; at C=1 the one queue orders them anyway), and either waits
 *           for them to be free; an inline one (up to pageable_inline_bytes)
 *           takes none. Parts are held from the call
 *           to the copy's end. Behind a staged H2D whose stream was held
 *           2 ms, from one thread or two: 128 KiB + 1 MiB and 1 + 1 MiB went
 *           at once (94-165 us); 128 KiB + 1.5 MiB, 1.5 MiB + 128 KiB and
 *           1 + 2 MiB waited 1.70-1.95 ms; a 3 or 8 MiB call 2.0-3.2 ms; a
 *           64 KiB one never. The parts are probed there, not timed by the
 *           calibration. The D2H staging goes to a thread that was waiting for
 *           it pageable_d2h_handover_ns after the copy that held it ends; a
 *           call the same thread makes before then goes first, and so does
 *           any other thread's that was not waiting (unprobed) (probe-
 *           pagewake, H200, C=8 and 1, 8 KiB copies behind a kernel of 1-20
 *           ms: the thread that returned, calling again at once, went first
 *           in 70 of 70 runs; 25 us later, in 23 of 70; 50 us later, in 1 of
 *           70; the waiter returned 31-75 us after it, its own copy taking
 *           11-25 us: 25 us). Under nsys, with threads that had waited 11 ms,
 *           one that returned went first again 82 us after its return
 *           (validate-replay's random 11): the replay keeps the recorded
 *           order. A host function's call (cudaLaunchHostFunc,
 *           cudaStreamAddCallback) waits too while another thread's call of
 *           a pageable copy the host waits for has not returned (probe-
 *           pageable-hostfn, H200, C=8 and 1, alone and under nsys: it
 *           returned 35-83 us after a pageable D2H or an 8 MiB pageable H2D
 *           that had waited 3 ms, or a 64 MiB D2H; not after a staged 1 MiB
 *           H2D, a stream sync or a running host function; a kernel, a record
 *           or a pinned copy never waited). Several so held return one
 *           after another, in the order they were called, 32-67 us apart
 *           (medians; probe-held-chain, session 23: three threads' calls 300, 600 and
 *           900 us into a held pageable D2H, 9 of 9 runs in order, at C=1
 *           and 8, alone and under nsys). The model has no rule of its
 *           own: a replay links such a call to the call that held it, or to
 *           the held call before it (gl_sched_op.after, src/replay/import.c
 *           held_calls, sessions 22, 23); a live run keeps its measured time
 *           (FINDINGS, sessions 18, 22, 23). A pageable H2D the host waits
 *           for goes on the H2D engine only once the host has staged its
 *           first part, also in a stream busy behind a kernel (probe-h2d-
 *           push, session 24, C=1, alone and under nsys: another thread's
 *           pinned 1 MiB H2D called 25-50 us after an 8 or 32 MiB one went
 *           before it, 200 us and more after, behind it and its 2 ms wait;
 *           behind a pinned 8 MiB one it waited at every delay; a kernel in
 *           its place never waited: the copy holds the engine's order, not
 *           the queue). The model has no rule of its own: a replay gives
 *           such a call in a busy stream the host time that the trace's
 *           calls into idle streams took to their DMA (rp_stage_busy_h2d).
 *   Host functions. A queue entry that, at its head, once its stream is done,
 *           is handed to the driver's thread and leaves the head (with one
 *           queue a kernel of another stream behind [a 2 ms kernel, a 2 ms host
 *           function] started as the function began, not as it ended). With the
 *           driver's thread asleep the function begins only after its wake, and
 *           the queue does not wait for that (callbacks' "one function" row at
 *           C=1: B's kernel 297 us behind A's function, where holding through
 *           the 91 us wake made it 384, session 20; under nsys too, 493 us
 *           with the model at 493-494 and wakes of 84-104 us; what held two
 *           kernels behind [kernel, function] 349 us after that kernel in
 *           validate-replay's random 38 at C=1 is not known). It runs
 *           there (hostfn_serial: one at a time across streams, measured) for
 *           hostfn_ns plus its own time, and its stream's next op waits for it.
 *           That holds only behind an unfinished queue entry of its own
 *           stream (its last op but records: a kernel). Behind what is no
 *           queue entry (a copy that an engine took, a wait, another function
 *           of its stream, which leaves its queue for the driver's thread:
 *           validate-replay's random 22 at C=1, another stream's D2D behind
 *           [kernel, function, function] began 6 us after the kernel, 190 us
 *           before the first function), or with its stream's work done at the call, it is
 *           no queue entry: it waits for its stream off the queues and goes
 *           to the driver's thread (H200, C=1: a kernel queued behind [64 MB
 *           H2D, host function] started at 54-316 us, median 100, and the
 *           function at the copy's end; with the queue held 2 ms by another
 *           stream ahead, a function behind a finished 1 MB copy began at
 *           55-430 us, one behind a finished kernel at 406 us, the median;
 *           probe-hostfn-queue in results/h200/issue-18-probes). Behind an
 *           engine's unfinished copy it also waits for every copy of that
 *           direction issued before it to its queue's engine channel (the
 *           queue of its stream's last queue entry, or the stream's own by
 *           number): its trigger goes in that channel, in issue order (H200,
 *           C=1, 20 runs each: behind [8 MiB H2D] with another stream's
 *           32 MiB H2D issued between, the function began after that copy,
 *           862-1086 us, never as its own ended; at C=8 it did, 244-281 us;
 *           an H2D between did not hold one behind a D2H, 316-616 us;
 *           probe-hostfn-race). One program (event-programs' copies seed
 *           20261124 at C=1: a function behind a D2H, two D2H of other
 *           streams between) went both ways from run to run, 4 of 8 runs
 *           each, 5 of 16 the fast way in session 12 (the first run of each
 *           of three processes among them); the rule gives the slower way.
 *           A thread that ran no function sleeps (but not one that finds a
 *           function ready as its last returns, its stream's next: random 2
 *           at C=8 ran two so in one 2.2 ms stretch, no switch between): the
 *           first function after GPU work costs hostfn_wake_ns (about 100 us on the H200, against
 *           1.9 us back to back; a function's own wake_ns where its run
 *           measured it: 32-186 us over one process's twelve runs of a
 *           program, 34 and 99 us in one of them), and once awake the
 *           thread takes the waiting functions in the order they became
 *           ready (event-programs' seed 20261139 at C=2, two functions of
 *           two streams ready 3-25 us apart and both waiting at the thread's
 *           turn: the first ready went first in 12 runs of 12, three
 *           processes, eight times the later-issued one; callbacks' "two
 *           functions" row at T = 200 us: B's, ready 100 us before A's,
 *           first but in one run of four, after a wake of about 240 us).
 *   Loads.  Under lazy module loading the first launch of a kernel function
 *           loads it (gl_sched_load, before the launch): the load waits for
 *           everything issued before it in every stream, non-blocking ones
 *           too, and everything issued after it waits for the load (load_ns).
 *           Measured: a first launch in a non-blocking stream started only
 *           when another stream's 3 ms kernel ended, and a third stream's
 *           kernel issued after it waited as long; under eager loading
 *           neither waited.
 * The textbook's copy pipeline follows: N segments of H2D, kernel and D2H of
 * t each, one engine per direction, take (N + 2) t issued breadth-first,
 * against 3 N t in one stream.
 */
#ifndef GL_SCHED_H
#define GL_SCHED_H

#include "gl_timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the machine ---------------------------------------------------------- */

enum { GL_SCHED_QUEUE_TAIL, GL_SCHED_QUEUE_SWITCH, GL_SCHED_QUEUE_STREAM }; /* which queue a call goes to */
enum { GL_SCHED_MAX_QUEUES = 32 };                             /* CUDA_DEVICE_MAX_CONNECTIONS at most */
enum { GL_SCHED_RELEASE_LAUNCH, GL_SCHED_RELEASE_DISPATCHED }; /* when a queue moves on */
enum { GL_SCHED_COPY_POINTS = 8 };                             /* copy sizes timed, 4 KiB apart by 4x */

typedef struct gl_sched_machine {
    int connections;          /* C: hardware queues */
    int resident_grids;       /* kernels the work distributor holds at once */
    int sms;                  /* multiprocessors */
    int queue_rule;           /* GL_SCHED_QUEUE_* */
    int release_rule;         /* GL_SCHED_RELEASE_* */
    double issue_ns;          /* host time per call, where a call does not give its own */
    double launch_latency_ns; /* from a call's return to its arrival in the queue */
    double copy_arrive_ns;    /* an H2D or D2H copy's arrival beyond that, where its call returns first (Host) */
    double dispatch_ns;       /* from a queue letting a kernel go to its first block starting */
    double queue_entry_ns;    /* a queue's time from letting one entry go to letting the next go */
    int ranked_races;         /* the ops' rank (a replay's recorded order) decides which of two ranked heads
                               * ready at one instant, or of two kernels reaching the distributor within
                               * queue_entry_ns, goes first ("Heads"; 0: submission order) */
    double dispatch_busy_ns[GL_SCHED_MAX_QUEUES + 1]; /* dispatch_ns with n chains at the queue heads (0: dispatch_ns) */
    double graph_dispatch_ns; /* a chained launch's dispatch, a graph's kernel node behind its previous one (0: as
                               * any other's) */
    double graph_copy_after_kernel_ns; /* a chained copy or memset after a kernel it waits for (0: as any other's) */
    double graph_kernel_after_copy_ns; /* a chained kernel after a copy or memset it waits for (0: as any other's) */
    double graph_restart_ns;  /* a conditional body's kernel node that begins the body again (chained 2), from its
                               * stream's previous node's end (0: as any chained kernel's) */
    double block_dispatch_ns; /* the work distributor's time per block: a big grid takes a while to start */
    double block_overrun_ns;  /* how much longer than asked a block runs (its last spin, its result, its record) */
    int copy_engines[4];      /* engines serving H2D, D2H, D2D copies and memsets (GL_SCHED_H2D..): 0, refused */
    double copy_gbps[4];      /* each direction's bandwidth with pinned host memory (bytes per ns) */
    double copy_latency_ns[4]; /* each direction's time per copy beyond its bytes */
    int copy_points;          /* sizes timed (0: a copy takes latency + bytes / bandwidth) */
    double copy_point_bytes[GL_SCHED_COPY_POINTS];   /* ascending */
    double copy_point_ns[4][GL_SCHED_COPY_POINTS];   /* a pinned copy (memset) of that size alone, per direction */
    double copy_bidir_gbps[2]; /* H2D's and D2H's bandwidth while the other direction runs too */
    double copy_bidir_latency_ns[2]; /* and their time per copy then (0: copy_bidir_gbps alone scales the copy) */
    double copy_after_kernel_ns[2]; /* H2D, D2H: from a kernel it waits for ending to the copy starting */
    double kernel_after_copy_ns[2]; /* from such a copy ending to a kernel that waits for it going, beyond dispatch */
    int copy_in_order[2];     /* H2D, D2H: a copy waits for every earlier copy of its direction (a beside one not) */
    double pageable_gbps[2];  /* H2D from and D2H to pageable host memory, when the host waits for it */
    double pageable_latency_ns[2]; /* such a copy's time beyond its bytes (the driver's staging per call) */
    double pageable_stage_bytes;  /* the largest pageable H2D whose call returns before its copy runs */
    double pageable_stage_call_ns; /* the longest such call the calibration timed, with room to stage (0: none) */
    double pageable_inline_bytes; /* pageable H2D copies up to this size are entries of their stream's queue */
    double pageable_piece_ns;     /* a host-waited pageable copy's piece: an engine copy of its direction that
                                   * becomes ready while one is in flight waits for it (0: it goes at once) */
    int pageable_d2h_serial;      /* pageable D2H calls one at a time, whatever their threads ("Staging") */
    double pageable_d2h_handover_ns; /* how long after one ends another thread's waiting call can take over */
    double sync_return_ns;    /* from a synchronizing call's target finishing to the call's return (Host) */
    double sync_connection_ns; /* what each hardware queue of the setting adds to a synchronizing call (Host) */
    int timed_connections;    /* the setting the program's call times were measured at (0: this machine's own) */
    int pageable_stage_slots;     /* the H2D staging buffer's parts, each pageable_stage_bytes / slots (0: no
                                   * staging rule: a call never waits for room) */
    double pinned_beside_bytes;   /* pinned H2D copies up to this size take no engine (0: every one takes one) */
    /* the part of one SM a D2D copy or a memset over sm_memset_bytes needs free to start ("SM copies"; 0: none) */
    double sm_copy_share;
    double sm_memset_bytes;   /* memsets up to this size need no SM room (D2D copies all do) */
    double hostfn_ns;         /* a host function's time in its stream beyond its own, the driver's thread awake */
    double hostfn_wake_ns;    /* the same when the driver's thread must wake first (it slept: no function ran) */
    int hostfn_serial;        /* host functions run one at a time, whatever their streams */
    double load_ns;           /* a lazy module load's time once what it waits for has ended */
} gl_sched_machine;

/* Copy times as measured (gl_copy_calibrate, pinned host memory unless named), from which the
 * machine's copy fields are fitted. Directions are indexed GL_SCHED_H2D, _D2H, _D2D. */
typedef struct gl_sched_copy_times {
    double small_bytes, large_bytes; /* the two sizes timed */
    double small_ns[4], large_ns[4]; /* one copy (memset: GL_SCHED_MEMSET) of each size, alone */
    double pair_ns[4];               /* two large copies of one direction at once, in two streams */
    double opposite_ns[2];           /* a large H2D and a large D2H started at once: each one's end */
    double opposite_small_bytes;     /* the same with two smaller copies of this size (0: not timed)... */
    double opposite_small_ns[2];     /* ...each one's end */
    double pageable_ns[2];           /* one large H2D from, one large D2H to pageable memory */
    double pageable_small_ns[2];     /* the same, small (0: not timed) */
    double after_kernel_ns[2];       /* H2D, D2H: [kernel, small copy] in one stream less [kernel] less the copy */
    double before_kernel_ns[2];      /* the same for [small copy, kernel] */
    double hold_ns;                  /* a kernel that holds a stream, for the two probes below */
    double behind_ns[2];             /* H2D, D2H: a small copy of another stream issued behind a copy that
                                        waits for that kernel: from the kernel's start to its end */
    double stage_bytes[8];           /* pageable H2D sizes, each queued behind the kernel... */
    double stage_call_ns[8];         /* ...and its call's time: under hold_ns, it returned before copying */
    int n_stage;                     /* how many sizes */
    int n_points;                    /* sizes timed for the curve: 4 KiB, 16 KiB, ... up to large_bytes */
    double point_bytes[GL_SCHED_COPY_POINTS], point_ns[4][GL_SCHED_COPY_POINTS]; /* one copy alone, per direction */
} gl_sched_copy_times;

/* Fit m's copy fields to t: per direction the bandwidth is the slope between the two sizes and the
 * latency its intercept; two engines where a pair of large copies took under 1.5 times one, else one;
 * in the opposite pair the first to end ran at the shared link's speed all along, and the other at
 * that speed until then and alone after (which gives its shared speed); the small opposite pair, where
 * timed, gives each direction's time per copy while shared (its end less its bytes at that speed, at
 * least the latency alone); pageable
 * bandwidth is bytes over time; a direction is in order where the copy behind took over half hold_ns;
 * the stage size is the largest whose call took under half hold_ns. pageable_inline_bytes is not
 * measured here (it needs one queue): 64 KiB, as probed on the H200 (a queue entry; 1 MiB was not).
 * Returns 0, or -1 with a reason in err (m's copy fields zero: copies refused) when an H2D or D2H time
 * is missing or the larger copy was not the slower. A D2D or memset whose times do not fit so leaves
 * that direction alone without engines (programs with such copies are refused) and says so in err, the
 * fit holding for the rest: under nsys a 4 KiB D2D once took longer than 16 MiB (16.9 us, 15.7 us), and
 * copy-overlap, which has none, skipped everything. A link that carries one direction at a time fits
 * too: its shared speeds are half. */
int gl_sched_copy_fit(const gl_sched_copy_times *t, gl_sched_machine *m, char *err, int errlen);

/* How long a pinned copy (or memset) of bytes takes alone in direction dir: between the sizes timed, on the
 * straight line between the two nearest; beyond them, along the nearest segment; without sizes timed, latency
 * plus bytes over bandwidth. Never below zero. (On the H200 the curve is that line within 1 us at every size
 * timed, 4 MiB: 79.6 us timed, 80.0 on the line: the curve does not explain copy-overlap's 35 us at 10^6
 * elements; a link whose copies are not linear in their size would need it.) */
double gl_sched_copy_ns(const gl_sched_machine *m, int dir, double bytes);

/* The Hopper rules with every number zero and one queue: fill in what was measured. */
gl_sched_machine gl_sched_machine_default(void);
/* GRIDLAB_QUEUE_RULE from the environment (tail, switch or stream): the rule
 * it names, fallback when it is unset or empty, or -1 with a reason in err. */
int gl_sched_queue_rule_env(int fallback, char *err, int errlen);

/* ---- the program ---------------------------------------------------------- */

typedef enum {
    GL_SCHED_STREAM_LEGACY,      /* the legacy default stream (stream 0 of every program) */
    GL_SCHED_STREAM_BLOCKING,    /* cudaStreamCreate: synchronizes with the legacy stream */
    GL_SCHED_STREAM_NONBLOCKING, /* cudaStreamNonBlocking: does not */
    GL_SCHED_STREAM_PER_THREAD   /* a host thread's per-thread default stream: blocking, one per thread */
} gl_sched_stream_kind;

typedef enum {
    GL_SCHED_LAUNCH,    /* a kernel */
    GL_SCHED_RECORD,    /* cudaEventRecord */
    GL_SCHED_WAIT,      /* cudaStreamWaitEvent */
    GL_SCHED_SYNC,      /* the host waits: for a stream, an event, or the device (stream -1) */
    GL_SCHED_HOST,      /* host work that costs time and reaches no queue (bookkeeping) */
    GL_SCHED_CREATE,    /* cudaStreamCreate*: costs host time; the stream may be used after it */
    GL_SCHED_COPY,      /* cudaMemcpyAsync or cudaMemsetAsync: a copy engine, and for some a queue entry */
    GL_SCHED_HOSTFN,    /* cudaLaunchHostFunc or cudaStreamAddCallback: block_ns is the function's own time */
    GL_SCHED_LOAD       /* a lazy module load: the first launch of a kernel function, before that launch */
} gl_sched_op_kind;

enum { GL_SCHED_H2D, GL_SCHED_D2H, GL_SCHED_D2D, GL_SCHED_MEMSET, GL_SCHED_DIRS }; /* a copy's direction */

typedef struct gl_sched_op {
    /* what the program says */
    int kind;          /* a gl_sched_op_kind */
    int thread;        /* the host thread that issues it */
    int stream;        /* its stream (GL_SCHED_SYNC: -1 for the whole device) */
    int event;         /* RECORD, WAIT, SYNC on an event: the event; else -1 */
    int blocks;        /* LAUNCH: grid size */
    int threads;       /* LAUNCH: block size (carried into the timeline) */
    int blocks_per_sm; /* LAUNCH: blocks of this shape that fit on one SM at once */
    double block_ns;   /* LAUNCH: how long each block runs */
    double sm_demand;  /* LAUNCH: the share of an SM's throughput one block uses alone, 0..1 ("Sharing"; 0: none) */
    double issue_ns;   /* host time of the call; negative: the machine's issue_ns */
    int id;            /* LAUNCH: the kernel id in the timeline (match it to the measured span slot) */
    int label;         /* LAUNCH: the span label */
    int track;         /* LAUNCH: the span track (a stream index in the experiment's terms) */
    int user;          /* LAUNCH, COPY: 0, the core's; else the caller's own (gl_schedrun.h's user_op hook) */
    int timed;         /* RECORD: its event keeps time (cudaEventDefault), or CUPTI traces records: either way
                        * it holds its queue behind a running kernel of its stream ("Events") */
    int chained;       /* LAUNCH, COPY: a graph's node behind its launch's previous node in its stream (the
                        * stream's kernel or copy before it): it takes the graph's costs after that node, where
                        * the machine sets them ("Blocks"); LAUNCH, 2: a conditional body's kernel node that
                        * begins the body again (a while loop's next iteration) */
    int handed;        /* COPY: handed over at the end of its issue time, as recorded (a replayed call that waits
                        * for its copy, whose host time before it reaches its start where its stream was idle; a
                        * graph's node): it arrives with no copy_arrive_ns ("Host") */
    int dir;           /* COPY: GL_SCHED_H2D, _D2H, _D2D or _MEMSET */
    int pageable;      /* COPY: the host side is pageable memory */
    double bytes;      /* COPY: how many */
    double copy_ns;    /* COPY: its own time, timed just before the run (a pageable one) or recorded (0: the machine's) */
    double wake_ns;    /* HOSTFN: the driver's thread's wake when this function wakes it, as its run measured it
                        * (0: the machine's hostfn_wake_ns). SYNC: its thread's, from its target finishing to its
                        * return where it waited (0: the machine's sync_return_ns; negative: none, a replayed call
                        * whose own time after its target is kept as host time) */
    double stage_ns;   /* COPY: a pageable H2D that returns once staged: its call timed alone on its own buffer just
                        * before the run, with room to stage (0: not timed) */
    int rank;          /* LAUNCH, COPY: its place in a recording's order of starts, 1 the first (0: none): on a
                        * machine with ranked_races, ranked heads ready at one instant leave their queues in this
                        * order, and a kernel waits at the distributor for one ranked before it ("Heads") */
    int after;         /* another thread's op that this one's call waits to see returned (-1: none): the program's
                        * own order between its threads (a lock, a flag), which no CUDA call shows. A live run takes
                        * it from the call its thread spun for last (gl_schedrun.h); the replay from a recording: a
                        * wait on an event after another thread's record of it, a pageable D2H or an H2D the host
                        * waits for after the one whose copy went before its own, a held host function's call after
                        * the call that held it */
    /* what the simulation found */
    double call_ns;    /* when the host began the call */
    double submit_ns;  /* when the call returned */
    double go_ns;      /* when it left its queue's head */
    double start_ns;   /* LAUNCH, an SM copy: first block start; other COPY: its engine took it; HOSTFN, LOAD: began;
                        * else ended */
    double end_ns;     /* LAUNCH: last block end; else when it finished */
    int queue;         /* the hardware queue it went to (-1: none) */
} gl_sched_op;

typedef struct gl_sched_stream {
    int kind;     /* a gl_sched_stream_kind */
    int priority; /* CUDA's convention: lower is more urgent; 0 is the default */
    int thread;   /* PER_THREAD: its host thread */
} gl_sched_stream;

typedef struct gl_sched_program {
    gl_sched_op *ops;         /* in the order they were added; each thread issues its own in that order */
    int n_ops, cap_ops;       /* used and allocated */
    gl_sched_stream *streams; /* stream 0 is the legacy default stream */
    int n_streams, cap_streams; /* streams made, and room for them */
    int n_events;             /* events are plain indices 0..n_events-1 */
    int n_threads;            /* 1 + the largest thread index used */
} gl_sched_program;

/* An empty program: no ops, and the legacy stream as stream 0. */
void gl_sched_program_init(gl_sched_program *p);
/* Free its ops and streams. */
void gl_sched_program_free(gl_sched_program *p);

/* A new stream (GL_SCHED_STREAM_BLOCKING, _NONBLOCKING, or _PER_THREAD with
 * its thread); returns its index. The legacy stream is GL_SCHED_LEGACY. */
enum { GL_SCHED_LEGACY = 0 };
int gl_sched_stream_new(gl_sched_program *p, int kind, int priority, int thread);
/* A new stream made by a call of thread, which costs that call's issue time
 * (the op is the last one added); returns the stream's index. */
int gl_sched_stream_create(gl_sched_program *p, int thread, int kind, int priority);
/* Whether a stream synchronizes with the legacy stream (cudaStreamCreate's, and a per-thread default stream). */
int gl_sched_stream_blocking(const gl_sched_stream *st);
/* "Sharing": how many times longer a sharing block takes than alone while the demands running come to load_per_sm
 * an SM (evened over the SMs): max(1, load_per_sm). The simulation and the replay's fit of the demands share it. */
double gl_sched_share_slowdown(double load_per_sm);
/* "Host": how long after its call returns an op reaches its queue (or its engine): the launch latency, and for an
 * H2D or D2H copy whose call returns before it ends, not handed over as recorded, copy_arrive_ns more. */
double gl_sched_arrival_ns(const gl_sched_machine *m, const gl_sched_op *o);
/* "Host": how much later than at the setting its call times were measured at (timed_connections) a synchronizing
 * call returns at the machine's setting: sync_connection_ns per connection more or fewer (0 when
 * timed_connections is 0: the times are the machine's own). */
double gl_sched_sync_extra_ns(const gl_sched_machine *m);
/* A new event; returns its index. */
int gl_sched_event_new(gl_sched_program *p);

/* Add one call to a host thread's sequence; each returns the op's index, whose
 * entry in p->ops the caller may adjust (issue_ns, label, track) before
 * simulating. */
int gl_sched_launch(gl_sched_program *p, int thread, int stream, int blocks, int threads, int blocks_per_sm,
                    double block_ns, int id);
int gl_sched_record(gl_sched_program *p, int thread, int stream, int event);
int gl_sched_wait(gl_sched_program *p, int thread, int stream, int event);
/* The host waits for a stream (-1: the device) to finish what was issued to it before. */
int gl_sched_sync_stream(gl_sched_program *p, int thread, int stream);
int gl_sched_sync_event(gl_sched_program *p, int thread, int event);
int gl_sched_host(gl_sched_program *p, int thread, double ns);
/* A copy of bytes in direction dir (GL_SCHED_H2D, _D2H, _D2D, or a memset) into stream; pageable: the host side
 * is not pinned. */
int gl_sched_copy(gl_sched_program *p, int thread, int stream, int dir, double bytes, int pageable);
/* A host function of ns (its own time) in stream. */
int gl_sched_hostfn(gl_sched_program *p, int thread, int stream, double ns);
/* A lazy load of a kernel function, in the stream of its first launch, which follows it. */
int gl_sched_load(gl_sched_program *p, int thread, int stream);
/* Whether the host waits for this copy's end in its call (pageable, gl_sched.h "Pageable"). */
int gl_sched_copy_blocks_host(const gl_sched_machine *m, const gl_sched_op *o);
/* A copy op's time alone: its own (copy_ns, timed before the run or recorded) where it has one, else the machine's:
 * the host's pageable pace for one its host waits for, gl_sched_copy_ns for the others. */
double gl_sched_op_copy_ns(const gl_sched_machine *m, const gl_sched_op *o);
/* The most host time of its own that a pageable H2D call which returns once staged (not blocking the host,
 * not inline) can hold: its whole copy at the host's pageable pace, m's pageable rule, the longest staged call the
 * calibration timed, or its own call timed alone (stage_ns), whichever is longer (INFINITY for any other op, or
 * where m has no pageable pace). A measured call longer than that waited for the GPU: for
 * room in the driver's staging buffer behind copies the engine had not taken yet (event-programs' copies seed 20261148 at C=4: a 128 KiB call
 * held 4.6 ms while a 3 MiB pageable H2D, staged, waited behind a 263 MB pinned H2D). The model does not
 * have that wait, so a run's measured host time keeps only this much of such a call. */
double gl_sched_staged_call_ns(const gl_sched_machine *m, const gl_sched_op *o);

/* ---- simulating -------------------------------------------------------------- */

typedef struct gl_sched_result {
    double makespan_ns;   /* first kernel start to last kernel end */
    double span_ns;       /* the GPU's span: first kernel or copy start to last end */
    int peak_concurrency; /* most kernels running at once */
    double host_end_ns;   /* when the last host thread finished its last call */
    double end_ns;        /* when the last operation finished */
    int max_resident;     /* most kernels in the work distributor at once */
    int max_queue_depth;  /* most operations waiting in one queue */
    int ranked;           /* times the ops' rank, not submission order, decided which went first (ranked_races) */
} gl_sched_result;

/* Run the program on the machine: fill each op's results and return the
 * summary. Returns 0, or -1 with a reason in err when the program cannot run
 * (a kernel that fits nowhere, an event index out of range, a program that
 * deadlocks, an unsupported op). A wait on an event never recorded before it
 * does not wait, as in CUDA. */
int gl_sched_simulate(gl_sched_program *p, const gl_sched_machine *m, gl_sched_result *r, char *err, int errlen);

/* Give each copy its host waits for (gl_sched_copy_blocks_host) the own time that makes its simulated time, start
 * to end, own_ns[op] (what it took in a run; 0 or NAN: leave the op as it is), so that a run's model can take the
 * host's memory pace from the run itself (gl_sched_run_own_pace; why, in FINDINGS, session 9). What the
 * simulation adds for the link shared with the other direction comes off, by up to 8 bracketed simulations (the
 * set of times nearest kept); a copy that the simulation puts beside engine copies of its own direction whose
 * times alone come to more than GL_SCHED_OWN_BESIDE of own_ns keeps own_ns whole, as the run's caller gives only
 * copies that had no more than that beside them, and taking that pause off would hide the model's error.
 * Afterwards the ops hold the last pass's simulation: simulate again. Returns the copies given a time, or -1 with
 * err as gl_sched_simulate. */
/* The most of a copy's time that other copies of its direction beside it may take, alone, for its time in a run
 * to count as its own (a twentieth: that much of the model's error in them is all it can carry; gl_schedrun.h,
 * gl_sched_run_own_pace; event-programs' copies seed 20261178, FINDINGS session 12). */
#define GL_SCHED_OWN_BESIDE (1.0 / 20)
int gl_sched_fit_host_copies(gl_sched_program *p, const gl_sched_machine *m, const double *own_ns, char *err,
                             int errlen);
/* One step of fitting a time whose simulation grows with it, but not in step (a copy's pauses grow with it too):
 * cur simulated to sim where target was wanted. cur becomes the bracket's upper end (sim too long) or lower end;
 * the next value is cur less the difference, or the bracket's middle where that leaves the bracket (a step by
 * difference alone can swing between two values for ever). gl_sched_fit_host_copies and the replay's fit use it. */
double gl_sched_bracket_step(double cur, double sim, double target, double *lo, double *hi);

/* What the model predicts when it cannot know the order in which racing host
 * threads' calls reached the driver. A call is known only to have done so
 * somewhere between its call and its return (window_ns[i], the call's
 * measured duration), and when several threads call at once the queue each
 * call goes to depends on that order: a few hundred nanoseconds can put a
 * stream behind another's long kernel. So the program is simulated `draws`
 * more times, each call's submission moved back by a seeded uniform share of
 * its window (a thread's later calls keep their own times), and the spread of
 * outcomes is the prediction. With one thread the calls keep their order, so
 * the spread is usually narrow (a kernel moves by at most its call's window);
 * it widens where an earlier submission finds a queue idle that was busy, or
 * the other way round. */
typedef struct gl_sched_spread {
    int draws;                      /* perturbed simulations made (besides the unperturbed one) */
    double makespan_min_ns, makespan_median_ns, makespan_max_ns;
    int peak_min, peak_max;         /* peak concurrency (kernels together for at least lasting_ns) */
} gl_sched_spread;

/* Fill out for the program as its ops' issue_ns now stand (measured); window_ns
 * may be NULL (no uncertainty). Afterwards the ops hold the unperturbed
 * simulation's results again, as after gl_sched_simulate. Returns 0, or -1
 * with err as gl_sched_simulate. */
int gl_sched_simulate_spread(gl_sched_program *p, const gl_sched_machine *m, const double *window_ns, int draws,
                             unsigned long long seed, double lasting_ns, gl_sched_spread *out, char *err, int errlen);

/* Simulated times start at 0 and timelines want absolute ns: every simulated
 * interval is shifted by this much. */
#define GL_SCHED_ORIGIN_NS 1e9
/* A simulated LAUNCH op's kernel as a span (its id, label, track and shape),
 * shifted by GL_SCHED_ORIGIN_NS. */
gl_span gl_sched_op_span(const gl_sched_op *o);

/* The predicted kernels as a timeline (kernel ids, labels and tracks from the
 * ops), on the same footing as a measured one. Returns the interval count. */
int gl_sched_timeline(const gl_sched_program *p, gl_timeline *tl);

/* ---- comparing prediction and measurement ---------------------------------- */

typedef struct gl_sched_errors {
    int matched;          /* kernels found in both timelines, by id */
    int missing;          /* predicted kernels the measurement lacks */
    double start_median_ns, start_p90_ns, start_max_ns; /* |start error|, each timeline from its first kernel start */
    double end_median_ns, end_p90_ns, end_max_ns;       /* |end error| on the same footing */
    int worst_id;         /* id of the kernel with the largest start error; -1 when none */
} gl_sched_errors;

/* Match the predicted kernels to the measured ones by id and summarize the
 * start and end errors, each timeline measured from its own first kernel. */
gl_sched_errors gl_sched_compare(const gl_timeline *measured, const gl_timeline *predicted);

/* ---- the dependencies a program promises --------------------------------------
 * The orderings between kernels that the rules above imply, for checking a
 * measured (or simulated) timeline edge by edge. "Before" is program order
 * (op index): for a program of one host thread, the order of the calls. */

enum {
    GL_SCHED_EDGE_EVENT = 1 << 0,  /* a wait: the last kernel issued to the recording stream before the
                                      record, before the first kernel issued to the waiting stream after it */
    GL_SCHED_EDGE_LEGACY = 1 << 1, /* the legacy stream's barrier: a legacy kernel after the last kernel of
                                      every blocking stream issued before it; the first kernel of a blocking
                                      stream after a legacy kernel, after that kernel */
    GL_SCHED_EDGE_SYNC = 1 << 2,   /* a host wait: what it waited for, before the next kernel its thread issues */
    GL_SCHED_EDGE_ALL = 7
};

typedef struct gl_sched_edge {
    int before; /* op index of the kernel that must end first */
    int after;  /* op index of the kernel that must start after it ends */
    int kind;   /* one GL_SCHED_EDGE_* bit */
} gl_sched_edge;

/* The edges of the kinds asked for (a mask), without duplicates, into a
 * malloc'd *edges (NULL when there are none). Returns the count. */
int gl_sched_edges(const gl_sched_program *p, int kinds, gl_sched_edge **edges);

typedef struct gl_sched_edge_check {
    int edges;              /* edges checked */
    int held;               /* the later kernel started at or after the earlier one ended, within the slack */
    int missing;            /* edges with a kernel absent from the timeline */
    double worst_margin_ns; /* smallest (start of after) - (end of before) over the edges present */
    int worst;              /* index of that edge in the array; -1 when none */
} gl_sched_edge_check;

/* Check edges against tl, whose kernel ids are the ops' id fields. */
gl_sched_edge_check gl_sched_edges_hold(const gl_sched_program *p, const gl_sched_edge *e, int n,
                                        const gl_timeline *tl, double slack_ns);

/* ---- the textbook ----------------------------------------------------------- */

enum { GL_SCHED_DEPTH_FIRST, GL_SCHED_BREADTH_FIRST };

typedef struct gl_sched_textbook_form {
    double makespan_ns; /* the closed form's makespan */
    int peak;           /* its peak concurrency */
    char formula[112];  /* the form with the numbers filled in */
} gl_sched_textbook_form;

/* The closed forms above for S streams x K kernels of T ns in the given order
 * through C queues, capped by L resident grids: at least ceil(S*K/L)*T, and
 * a peak of at most L. */
gl_sched_textbook_form gl_sched_textbook(int order, int S, int K, double T_ns, int C, int L);

/* "depth" or "breadth". */
const char *gl_sched_order_name(int order);

/* The n-th launch (from 0) of S streams x K kernels issued in this order:
 * its stream and its kernel index. The one definition of the two orders. */
void gl_sched_issue_order(int order, int S, int K, int n, int *stream, int *kernel);

/* Build S streams x K kernels issued in that order by thread 0: the program
 * false-dependency and hyperq run. Kernel (s, k) has id, label k and track s
 * given by its position in issue order. streams[] holds the S stream indices. */
void gl_sched_streams_by_kernels(gl_sched_program *p, const int *streams, int S, int K, int order, int blocks,
                                 int threads, int blocks_per_sm, double T_ns);

#ifdef __cplusplus
}
#endif
#endif
