import { startTracing } from './tracing';

/** Imported by main.ts before anything else it loads (see startTracing). */
startTracing('api');
