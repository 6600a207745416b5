import { killRestartSuite } from './kill-restart';

// Three kills: early (5 creations committed), midway and late in a burst of 120 creations across 8 agents.
killRestartSuite([5, 40, 90], 120, 180_000);
