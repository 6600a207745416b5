import { startTracing } from './tracing';

/** Imported by jobs.main.ts before anything else it loads (see startTracing). */
startTracing('jobs');
