/**
 * The upload benchmark's client (bench/upload-throughput.ts runs it in a process of its own, as a
 * browser is): tus 1.0, create, then PATCH ranges of 64 MiB streamed from disk at the server's
 * offset, never held in memory. `tsx bench/tus-client.ts <base url> <file>` with the session cookie
 * in BENCH_COOKIE; prints `{"status": <last PATCH's status>, "seconds": <from create to the end>}`.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { request } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { createTusUpload, tusPatchHeaders } from '../apps/server/src/test-support/tus-upload.ts';

const PATCH_BYTES = 64 * 1024 * 1024;

/** tus 1.0: create, then PATCH ranges streamed from disk at the server's offset. */
export async function tusUploadFromDisk(
  baseUrl: string,
  cookie: string,
  filePath: string,
): Promise<number> {
  const size = (await stat(filePath)).size;
  const metadata = `filename ${Buffer.from('bench.mp4').toString('base64')}`;
  const created = await createTusUpload(baseUrl, cookie, size, metadata);
  if (!('location' in created)) {
    throw new Error(`tus create answered ${created.status}: ${created.body}`);
  }
  const { location } = created;
  let offset = 0;
  let status = 0;
  while (offset < size) {
    const end = Math.min(size, offset + PATCH_BYTES) - 1;
    // node:http with a piped file stream: the client should cost as little CPU as possible, since
    // it shares this 2-core machine with the server being measured.
    const response = await new Promise<{ status: number; offset: string | undefined }>(
      (done, fail) => {
        const req = request(
          location,
          {
            method: 'PATCH',
            headers: {
              ...tusPatchHeaders(cookie, offset),
              'content-length': String(end - offset + 1),
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              const header = res.headers['upload-offset'];
              done({
                status: res.statusCode ?? 0,
                offset: Array.isArray(header) ? header[0] : header,
              });
            });
          },
        );
        req.on('error', fail);
        pipeline(
          createReadStream(filePath, { start: offset, end, highWaterMark: 1024 * 1024 }),
          req,
        ).catch(fail);
      },
    );
    status = response.status;
    const next = Number(response.offset);
    // The last PATCH may be answered with the media check's refusal: the bytes are in either way.
    if (status !== 204 && end !== size - 1) throw new Error(`tus PATCH answered ${status}`);
    offset = Number.isFinite(next) && next > offset ? next : end + 1;
  }
  return status;
}

const [baseUrl, filePath] = process.argv.slice(2);
const cookie = process.env.BENCH_COOKIE;
if (baseUrl === undefined || filePath === undefined || cookie === undefined) {
  throw new Error('usage: BENCH_COOKIE=… tsx bench/tus-client.ts <base url> <file>');
}
const start = performance.now();
const status = await tusUploadFromDisk(baseUrl, cookie, filePath);
process.stdout.write(JSON.stringify({ status, seconds: (performance.now() - start) / 1000 }));
