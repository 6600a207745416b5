import { killRestartSuite } from './kill-restart';

// `npm run test:slow`: ten kills of bursts of 300 creations, at points from the first commits to nearly done.
killRestartSuite([1, 3, 10, 25, 60, 100, 150, 200, 250, 290], 300, 900_000);
