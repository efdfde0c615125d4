// Per test file durations, for the two ends of a run:
// - `FileDurationsReporter` writes how long each file took (its import, set-up, tests and hooks;
//   vitest's JSON reporter counts only from the first test to the last and names no project) to
//   `.tmp/vitest-files.json`, which `npm test` prints the slowest of;
// - `LongestFirstSequencer` starts the longest files first, from the durations committed in
//   `scripts/test-durations.json` (`npm test -- --save-durations` rewrites it). Two workers that
//   take the longest files first finish a project's files close together: the last file to start
//   is a short one, so the other core is not left idle at the end of each project.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BaseSequencer,
  type Reporter,
  type TestModule,
  type TestSpecification,
  type Vitest,
} from 'vitest/node';

// Both are relative to the repository's root, vitest's `root`.
export const committedDurationsFile = 'scripts/test-durations.json';
export const lastRunDir = '.tmp/vitest-files';

export interface FileDuration {
  project: string;
  /** Relative to the repository's root, with forward slashes. */
  file: string;
  ms: number;
  state: string;
}

/** `project file`: the same file runs in two projects (PGlite and PostgreSQL). */
export const durationKey = (project: string, file: string): string => `${project} ${file}`;

const relative = (root: string, absolute: string) =>
  path.relative(root, absolute).split(path.sep).join('/');

export class FileDurationsReporter implements Reporter {
  private readonly files: FileDuration[] = [];
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestModuleEnd(testModule: TestModule): void {
    const diagnostic = testModule.diagnostic();
    const ms =
      diagnostic.environmentSetupDuration +
      diagnostic.prepareDuration +
      diagnostic.collectDuration +
      diagnostic.setupDuration +
      diagnostic.duration;
    this.files.push({
      project: testModule.project.name,
      file: relative(this.root, testModule.moduleId),
      ms: Math.round(ms),
      state: testModule.state(),
    });
  }

  onTestRunEnd(): void {
    const output = path.join(this.root, lastRunDir, `${process.pid}.json`);
    mkdirSync(path.dirname(output), { recursive: true });
    writeFileSync(output, `${JSON.stringify(this.files, null, 1)}\n`);
  }
}

function readCommittedDurations(root: string): Map<string, number> {
  try {
    const saved: unknown = JSON.parse(
      readFileSync(path.join(root, committedDurationsFile), 'utf8'),
    );
    if (typeof saved !== 'object' || saved === null) return new Map();
    return new Map(
      Object.entries(saved).filter(
        (entry): entry is [string, number] => typeof entry[1] === 'number',
      ),
    );
  } catch {
    return new Map();
  }
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const durations = readCommittedDurations(root);
    // A file with no committed duration (a new one) goes first: it is the likeliest to fail, and
    // its length is unknown. Among those, vitest's own order (its cache, else file size).
    const fallbackOrder = await super.sort(specs);
    const durationOf = (spec: TestSpecification) =>
      durations.get(durationKey(spec.project.name, relative(root, spec.moduleId))) ??
      Number.POSITIVE_INFINITY;
    return fallbackOrder
      .map((spec, index) => ({ spec, index, ms: durationOf(spec) }))
      .sort((a, b) => (a.ms === b.ms ? a.index - b.index : b.ms - a.ms))
      .map(({ spec }) => spec);
  }
}
