import { describe } from 'vitest';
import { mosquittoAvailable } from '../testing/mosquitto.js';
import { adversarialSuite } from './adversarial.suite.js';

describe.skipIf(!mosquittoAvailable)('adversarial MQTT suite on Mosquitto', () =>
  adversarialSuite('mosquitto'),
);
