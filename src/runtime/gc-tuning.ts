import { setFlagsFromString } from 'node:v8';

/**
 * Runtime trick: V8's allocation-site pretenuring is turned off for the whole process.
 *
 * - Gain: in pairs of runs of the listing benchmark at 10 k open tasks, server CPU 1.30 against 1.50 ms per request
 *   at saturation and 1.47 against 1.76-2.14 at the steady rate, steady p95 10-16 against 24-44 ms; mark-compacts
 *   every 1.5 s instead of every second (docs/scaling.md, "What one machine carries").
 * - Pinned by: gc-tuning.spec.ts (both entry points import this file before anything else). No test can read the
 *   flag back; the listing benchmark's GC counts (`BENCH_NODE_ARGS=--trace-gc`) are what show it working.
 * - To remove: delete this file and its spec, and the first import of main.ts and jobs.main.ts.
 *
 * Imported first by the two entry points (main.ts, jobs.main.ts), so it holds however the process is started (npm
 * start, the image, Kubernetes, the benchmarks).
 *
 * Pretenuring allocates the objects of an allocation site straight into the old generation once enough of them have
 * survived a scavenge. Under load nearly every request object does (32 requests in flight, each for tens of ms), so
 * V8 pretenures the request path's sites, and it keeps doing so at a steady rate when requests last 2 ms and die
 * young: the old generation then grew 20 MB/s and a full mark-compact ran every second at 330 listings/s, each a
 * 5-12 ms pause with scavenges of 4-9 ms around it, and the slow requests of the steady run came in those windows
 * (the database alone, pgbench at the same rate, had a p99 of 3 ms).
 *
 * Set at run time because NODE_OPTIONS does not accept this V8 option (the Kubernetes manifests pass flags that
 * way); V8 consults it at each GC, and the figures above were measured with it set here.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
