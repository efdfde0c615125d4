/**
 * 'Download my data' memory benchmark: one large media file (a sparse file, 512 MiB by default)
 * written into a data archive by writeDataArchive (the code the data-export.build job runs), on
 * local-disk storage, while the process's RSS is sampled every 20 ms. Prints the archive's size,
 * the throughput, and the peak RSS above the start (target: flat, < 64 MiB whatever the file's
 * size: the archive is streamed, never held in memory). The archive is then read back with yauzl
 * (CRC-32 and sizes checked) without loading it.
 * `npx tsx bench/data-export-memory.ts [--mib 512]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import yauzl from 'yauzl';
import { writeDataArchive } from '../apps/server/src/modules/data-rights/archive.ts';
import { LocalDiskStorage } from '../apps/server/src/storage/local-disk-storage.ts';

const MiB = 1024 * 1024;

/** Bytes of every entry, read as streams (nothing held), with yauzl's CRC and size checks. */
async function entryBytes(file: string): Promise<Map<string, number>> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, validateEntrySizes: true });
  const sizes = new Map<string, number>();
  return new Promise((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve(sizes));
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        let bytes = 0;
        stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
        stream.on('error', reject);
        stream.on('end', () => {
          sizes.set(entry.fileName, bytes);
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: { mib: { type: 'string', default: '512' } },
  });
  const mib = Number(values.mib);
  const root = mkdtempSync(join(tmpdir(), 'cadence-export-bench-'));
  try {
    const storage = new LocalDiskStorage(root);
    const mediaKey = 'users/u1/media/m1.mp4';
    const mediaPath = join(root, mediaKey);
    await mkdir(dirname(mediaPath), { recursive: true });
    const handle = await open(mediaPath, 'w');
    await handle.truncate(mib * MiB);
    await handle.close();

    global.gc?.();
    const startRss = process.memoryUsage().rss;
    let peakRss = startRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    const { size } = await writeDataArchive({
      storage,
      key: 'users/u1/exports/e1.zip',
      sections: [{ file: 'profile.json', rows: [{ id: 'u1', email: 'bench@example.com' }] }],
      files: [{ key: mediaKey, name: 'media/m1.mp4' }],
      mtime: new Date(),
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);

    const archivePath = join(root, 'users/u1/exports/e1.zip');
    const sizes = await entryBytes(archivePath);
    if (sizes.get('media/m1.mp4') !== mib * MiB) throw new Error('the media entry is incomplete');
    if ((await stat(archivePath)).size !== size) throw new Error('archive size mismatch');

    const result = {
      mediaMiB: mib,
      archiveMiB: +(size / MiB).toFixed(1),
      seconds: +seconds.toFixed(1),
      mibPerSecond: +(mib / seconds).toFixed(0),
      startRssMiB: +(startRss / MiB).toFixed(0),
      peakRssMiB: +(peakRss / MiB).toFixed(0),
      peakAboveStartMiB: +((peakRss - startRss) / MiB).toFixed(1),
      loadAverage: loadavg().map((load) => +load.toFixed(2)),
    };
    console.log('data export, one large media file (local disk):');
    console.table([result]);
    console.log(
      `peak RSS above start: ${result.peakAboveStartMiB} MiB for a ${mib} MiB file (target < 64 MiB: streamed)`,
    );
    return result;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main();
}
