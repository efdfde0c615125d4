import { readFile } from 'node:fs/promises';

export interface TusUploadResult {
  status: number;
  /** The media id when accepted (the last segment of the upload URL). */
  id: string | null;
  body: string;
}

/** The headers of a tus 1.0 PATCH sending bytes from `offset`. */
export function tusPatchHeaders(cookie: string, offset: number): Record<string, string> {
  return {
    cookie,
    'tus-resumable': '1.0.0',
    'upload-offset': String(offset),
    'content-type': 'application/offset+octet-stream',
  };
}

/**
 * tus 1.0's creation request for `length` bytes: the upload's absolute URL, or the refusal.
 * `metadata` is tus's Upload-Metadata (`key base64value,…`).
 */
export async function createTusUpload(
  baseUrl: string,
  cookie: string,
  length: number,
  metadata: string,
): Promise<{ location: string } | { status: number; body: string }> {
  const created = await fetch(`${baseUrl}/api/uploads`, {
    method: 'POST',
    headers: {
      cookie,
      'tus-resumable': '1.0.0',
      'upload-length': String(length),
      'upload-metadata': metadata,
    },
  });
  if (created.status !== 201) return { status: created.status, body: await created.text() };
  return {
    location: new URL(created.headers.get('location') ?? '', `${baseUrl}/api/uploads/`).toString(),
  };
}

/**
 * Uploads a file with the tus 1.0 protocol over real HTTP, in chunks, as the browser's
 * tus-js-client does: POST to create, then PATCH each chunk at the server's offset.
 */
export async function tusUpload(
  baseUrl: string,
  cookie: string,
  filePath: string,
  options: { filename?: string; chunkBytes?: number; purpose?: 'post' | 'source' } = {},
): Promise<TusUploadResult> {
  const bytes = await readFile(filePath);
  const chunkBytes = options.chunkBytes ?? 5 * 1024 * 1024;
  const base64 = (value: string) => Buffer.from(value).toString('base64');
  const metadata = [
    `filename ${base64(options.filename ?? 'video.mp4')}`,
    ...(options.purpose ? [`purpose ${base64(options.purpose)}`] : []),
  ].join(',');
  const created = await createTusUpload(baseUrl, cookie, bytes.length, metadata);
  if (!('location' in created)) return { ...created, id: null };
  const { location } = created;
  let offset = 0;
  let last: Response | null = null;
  while (offset < bytes.length) {
    const chunk = bytes.subarray(offset, offset + chunkBytes);
    last = await fetch(location, {
      method: 'PATCH',
      headers: tusPatchHeaders(cookie, offset),
      body: chunk,
    });
    if (last.status !== 204) return { status: last.status, id: null, body: await last.text() };
    offset = Number(last.headers.get('upload-offset'));
  }
  return { status: last?.status ?? 204, id: location.split('/').pop() ?? null, body: '' };
}
