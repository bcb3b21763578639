import { describe } from 'vitest';
import { adversarialSuite } from './adversarial.js';

describe('adversarial MQTT suite on the embedded broker', () => adversarialSuite('embedded'));
