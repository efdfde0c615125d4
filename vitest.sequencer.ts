import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest on the 2-core CI machine (seconds there, loaded, with the browser
 * files one at a time): they wait on real time (TikTok's 60 s window), SIGKILL and restart worker
 * processes, run a second production build, or walk long browser flows. A stale entry only
 * changes the order. Longest first.
 */
const slowFiles = [
  'e2e/scheduler-lists.e2e.ts', // 130
  'apps/server/src/chaos/media-jobs-chaos.db.test.ts', // 125
  'apps/server/src/chaos/publishing-chaos.db.test.ts', // 120
  'e2e/overflow.e2e.ts', // 84
  'apps/server/src/modules/publishing/init-pacing.db.test.ts', // 80–86, on each database
  'apps/web/src/bundle-secrets.test.ts', // 63
];

/**
 * Longest files first, so that the last files to start are short ones and the two workers end
 * together (the browser files, one at a time, run after all of these: vitest.config.ts). Vitest's own
 * order (BaseSequencer) does that from the durations of a previous run; a clean clone (CI) has
 * none, and there it would go by file size alone, which puts a 13 kB minute-long chaos file
 * behind dozens of quick unit files. Without durations: `slowFiles` in their order, then the other
 * browser files (20–80 s each), then the rest, by size within each group.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const key = (spec: TestSpecification) =>
      `${spec.project.name}:${path.relative(this.ctx.config.root, spec.moduleId)}`;
    if (files.every((spec) => cache.getFileTestResults(key(spec)) !== undefined)) {
      return super.sort(files);
    }
    // `slowFiles` in their order, then the other browser files, then the rest.
    const rank = (spec: TestSpecification) => {
      const file = path.relative(this.ctx.config.root, spec.moduleId).split(path.sep).join('/');
      const slow = slowFiles.indexOf(file);
      if (slow !== -1) return slow;
      return slowFiles.length + (spec.project.name === 'e2e' ? 0 : 1);
    };
    const size = (spec: TestSpecification) => cache.getFileStats(key(spec))?.size ?? 0;
    return [...files].sort((a, b) => rank(a) - rank(b) || size(b) - size(a));
  }
}
