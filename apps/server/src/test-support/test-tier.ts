import { testDatabaseKind } from './database.ts';

/**
 * Which tier this run is: `ci` (`npm test`, what CI runs) or `full` (`npm run test:full`, which
 * sets TEST_TIER=full). The full tier runs the chaos tests at full size and every test below on
 * both databases (README, "Tests").
 */
export const testTier: 'ci' | 'full' = process.env.TEST_TIER === 'full' ? 'full' : 'ci';

/**
 * For a test whose cost is work no database changes — ffmpeg encoding and decoding a video whose
 * result the test checks — and whose database work the file's other tests already run on both
 * databases: in CI it runs on PGlite only (the default installation); the full tier runs it on
 * both. Use as `it.runIf(heavyOnThisDatabase)(…)`.
 */
export const heavyOnThisDatabase = testTier === 'full' || testDatabaseKind() === 'pglite';
