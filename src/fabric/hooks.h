/* hooks.h: the attachment points for congestion-control and QoS plug-ins. A plug-in is a table
 * of function pointers (any may be NULL) selected by the scenario; the data path calls them at
 * these points and knows nothing else about the plug-in:
 *   on_enqueue      a packet entered a switch input queue for an output (occupancy rose)
 *   on_dequeue      a packet left a switch input queue (occupancy fell)
 *   on_depart       a packet is about to leave an output port (switch or adapter): may mark it
 *   on_receive      a packet was delivered at an adapter (FECN seen, BECN seen, ...); it may
 *                   call fabric_send_control(), which may grow the packet pool: the packet
 *                   pointer is not valid after that call
 *   on_source_send  a flow sent a packet: may delay the flow's next packet (flow->next_ok)
 *   dest_ready      for flows the plug-in paces per destination (fabric_flow_pace_by_dest):
 *                   the earliest time the flow may send its next packet to host `dst_host`
 *   on_timer        a timer the plug-in scheduled with fabric_schedule_call() fired
 * A plug-in's own per-port or per-flow state hangs off the `cc` pointers of struct port and
 * struct flow, allocated in init. */
#ifndef IBN_HOOKS_H
#define IBN_HOOKS_H

#include <stdint.h>
#include <stdio.h>

struct fabric;
struct port;
struct flow;
struct packet;
struct json_t;
struct dist_io;

struct fabric_hooks {
    const char *name;
    void *ctx;  /* the plug-in's own state */
    void (*on_enqueue)(struct fabric *f, struct port *in, struct port *out, struct packet *p);
    void (*on_dequeue)(struct fabric *f, struct port *in, struct port *out, struct packet *p);
    void (*on_depart)(struct fabric *f, struct port *out, struct packet *p);
    void (*on_receive)(struct fabric *f, struct port *at, struct packet *p);
    void (*on_source_send)(struct fabric *f, struct flow *fl, struct packet *p);
    int64_t (*dest_ready)(struct fabric *f, const struct flow *fl, int dst_host);
    /* Results: add the plug-in's counters to the run summary (a jansson object). */
    void (*report)(struct fabric *f, struct json_t *summary);
    /* Time series (DIR/cc.csv, written by the results writer when series_row is set): the
     * header line's columns after time_s, and one row's values after the time, each starting
     * with a comma. Called at every sample. */
    void (*series_header)(struct fabric *f, FILE *out);
    void (*series_row)(struct fabric *f, FILE *out);
    /* End-of-run tables (DIR/cc_ports.csv and DIR/cc_flows.csv): complete CSV files. */
    void (*table_ports)(struct fabric *f, FILE *out);
    void (*table_flows)(struct fabric *f, FILE *out);
    void (*destroy)(struct fabric *f);
    /* A distributed run (dist/dist.c): the state of the nodes that `rank` handles
     * (part[node] == rank) and its share of counters several ranks write, walked once by one
     * walker: io packs it on that rank (DIST_PACK) and unpacks it at rank 0 (DIST_UNPACK,
     * counters added with dist_io_sum_u64), so that rank 0's report and tables are the
     * sequential run's (fabric/distio.h). NULL: the plug-in is refused under MPI. */
    void (*dist_walk)(struct fabric *f, const int *part, int rank, struct dist_io *io);
    /* At each sample of a distributed run: series_row's value of every flow `rank` sources
     * into v[flow] (others untouched); at rank 0, make the other ranks' flows show v (added
     * over the ranks) to series_row. NULL with series_row set: the series are refused. */
    void (*dist_sample_get)(struct fabric *f, const int *part, int rank, int64_t *v);
    void (*dist_sample_set)(struct fabric *f, const int *part, const int64_t *v);
};

#endif
