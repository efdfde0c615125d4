import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';

/**
 * Every entry of a ZIP archive, name → bytes, read with yauzl (which checks each entry's
 * CRC-32 and sizes): a truncated or corrupt archive rejects.
 */
export async function readZip(archive: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(archive, {
    lazyEntries: true,
    validateEntrySizes: true,
  });
  const entries = new Map<string, Buffer>();
  return new Promise((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        buffer(stream).then((bytes) => {
          entries.set(entry.fileName, bytes);
          zip.readEntry();
        }, reject);
      });
    });
    zip.readEntry();
  });
}
