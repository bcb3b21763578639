import { describe } from 'vitest';
import { messagingConformance } from './conformance.suite.js';

describe('messaging service on the embedded broker', () => messagingConformance('embedded'));
