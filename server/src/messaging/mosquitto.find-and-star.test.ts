import { describe } from 'vitest';
import { mosquittoAvailable } from '../testing/mosquitto.js';
import { findAndStarSuite } from './find-and-star.suite.js';

describe.skipIf(!mosquittoAvailable)('finding and starring on Mosquitto', () =>
  findAndStarSuite('mosquitto'),
);
