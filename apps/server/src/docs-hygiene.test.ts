// Docs and comments describe what is (STYLE.md, "Comments and docs"): history lives in git and
// figures from runs in bench/results/, so no other tracked file numbers the sittings the code was
// written in, appends to a record, or gives a machine's load during a run; a decision record
// stays short and is superseded, not grown.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/** What only a record of how the code was found would say. */
const HISTORY_MARKS: { name: string; pattern: RegExp }[] = [
  // The marks are spelled as patterns only, so that this file does not read as one of them.
  { name: 'a numbered sitting', pattern: new RegExp(String.raw`\b${'sess'}ions? \d+`, 'i') },
  { name: 'an appended section', pattern: new RegExp(String.raw`\b${'add'}end(?:um|a)\b`, 'i') },
  // A run's figures come with the machine's load: "at load 9", "load average 7–9", "(load 15)".
  {
    name: "a past run's load",
    pattern: /\bat load \d|\bload average \d|\(load \d|\bload \d+(?:\.\d+)?[–-]\d/i,
  },
];

/** Where measurements and their history go, dated. */
const RESULTS_DIR = 'bench/results/';
/** This file, which has to name the marks it looks for. */
const SELF = path
  .relative(root, import.meta.filename)
  .split(path.sep)
  .join('/');
const MAX_RECORD_LINES = 150;

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '');
}

/** The file's text, or null for a binary file (or one deleted but not yet staged). */
function textOf(file: string): string | null {
  let buffer: Buffer;
  try {
    buffer = readFileSync(path.join(root, file));
  } catch {
    return null;
  }
  return buffer.includes(0) ? null : buffer.toString('utf8');
}

describe('docs and comments describe what is', () => {
  it('names no history of how the code was written outside bench/results/', () => {
    const found: string[] = [];
    for (const file of trackedFiles()) {
      if (file.startsWith(RESULTS_DIR) || file === SELF) continue;
      const text = textOf(file);
      if (text === null) continue;
      text.split('\n').forEach((line, index) => {
        for (const { name, pattern } of HISTORY_MARKS) {
          if (pattern.test(line)) found.push(`${file}:${index + 1} (${name}): ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it(`keeps every decision record within ${MAX_RECORD_LINES} lines`, () => {
    const records = trackedFiles().filter((file) => /^docs\/decisions\/\d{3}-.*\.md$/.test(file));
    expect(records.length).toBeGreaterThan(0);
    const long = records.flatMap((file) => {
      const lines = (textOf(file) ?? '').trimEnd().split('\n').length;
      return lines > MAX_RECORD_LINES ? [`${file}: ${lines} lines`] : [];
    });
    expect(long).toEqual([]);
  });
});
