import { describe } from 'vitest';
import { mosquittoAvailable } from '../testing/mosquitto.js';
import { messagingConformance } from './conformance.suite.js';

describe.skipIf(!mosquittoAvailable)('messaging service on Mosquitto', () =>
  messagingConformance('mosquitto'),
);
