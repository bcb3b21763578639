import { describe } from 'vitest';
import { messagingConformance } from './conformance.js';

describe('messaging service on the embedded broker', () => messagingConformance('embedded'));
