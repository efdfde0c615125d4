/**
 * Parsers for what ffmpeg's `metadata=mode=print` / `ametadata=mode=print` filters write:
 *
 *   frame:12   pts:3       pts_time:0.75
 *   lavfi.scd.mafd=0.433
 *   lavfi.astats.Overall.RMS_level=-inf
 *
 * Pure and tolerant: unknown or malformed lines are skipped, never thrown on, because ffmpeg
 * versions differ in spacing and keys.
 */

export interface MetadataFrame {
  time: number;
  values: Map<string, string>;
}

const FRAME_LINE = /^frame:\s*\d+\s+pts:\s*\S+\s+pts_time:\s*(\S+)/;

export function parseMetadataPrint(text: string): MetadataFrame[] {
  const frames: MetadataFrame[] = [];
  let current: MetadataFrame | null = null;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line === '') continue;
    const frame = FRAME_LINE.exec(line);
    if (frame) {
      const time = Number(frame[1]);
      current = Number.isFinite(time) ? { time, values: new Map() } : null;
      if (current) frames.push(current);
      continue;
    }
    const equals = line.indexOf('=');
    if (current && equals > 0) {
      current.values.set(line.slice(0, equals), line.slice(equals + 1));
    }
  }
  return frames;
}

/** A numeric metadata value; '-inf' (astats on digital silence) becomes `floor`, junk becomes null. */
export function metadataNumber(
  frame: MetadataFrame,
  key: string,
  floor = Number.NEGATIVE_INFINITY,
): number | null {
  const raw = frame.values.get(key);
  if (raw === undefined) return null;
  const value = raw.trim().toLowerCase();
  if (value === '-inf') return floor;
  if (value === 'inf' || value === '+inf') return Number.POSITIVE_INFINITY;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? Math.max(parsed, floor) : null;
}
