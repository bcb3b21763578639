import { findAndStarSuite } from './find-and-star.suite.js';

findAndStarSuite('embedded');
