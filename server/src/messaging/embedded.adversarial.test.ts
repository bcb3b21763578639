import { describe } from 'vitest';
import { adversarialSuite } from './adversarial.suite.js';

describe('adversarial MQTT suite on the embedded broker', () => adversarialSuite('embedded'));
