import { findAndStarSuite } from './find-and-star.js';

findAndStarSuite('embedded');
