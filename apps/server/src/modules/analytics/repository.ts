import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createAccountReportQueries } from './account-report-queries.ts';
import { createAccountSnapshotQueries } from './account-snapshot-queries.ts';
import type { AnalyticsVideoTable } from './db-types.ts';
import { createPostMetricsQueries } from './post-metrics-queries.ts';
import { createSyncRunQueries } from './sync-run-queries.ts';
import { createVideoReportQueries } from './video-report-queries.ts';
import { createVideoSyncQueries } from './video-sync-queries.ts';
import './db-types.ts';

export type AnalyticsVideoRow = Selectable<AnalyticsVideoTable>;

/**
 * SQL for analytics: the sync's progress, videos and snapshots (written only while the run's
 * lease holds), and the reads behind the API, always scoped by user id.
 */
export function createAnalyticsRepository(db: Kysely<Database>) {
  return {
    // What the sync reads and writes.
    ...createSyncRunQueries(db),
    ...createVideoSyncQueries(db),
    ...createAccountSnapshotQueries(db),
    // Reads behind the API: always scoped by the user's id.
    ...createAccountReportQueries(db),
    ...createVideoReportQueries(db),
    ...createPostMetricsQueries(db),
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
