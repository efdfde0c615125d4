// An in-memory S3 bucket for the SDK's requestHandler (tests only).
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';

/**
 * No S3 server runs here, so the SDK's HTTP layer is replaced by an in-memory bucket that speaks
 * the few S3 REST calls we use. The SDK still builds, signs and parses real requests and
 * responses; only the socket is missing.
 */
export interface RecordedRequest {
  method: string;
  hostname: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  bodyBytes: number;
}

interface FakeRequest {
  method: string;
  hostname: string;
  path: string;
  query?: Record<string, unknown>;
  headers: Record<string, string>;
  body?: unknown;
}

async function bodyBytes(body: unknown): Promise<Buffer> {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof Readable) return buffer(body);
  throw new Error(`unexpected request body ${typeof body}`);
}

export class FakeS3 {
  readonly objects = new Map<string, Buffer>();
  readonly requests: RecordedRequest[] = [];
  private readonly uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  private nextUploadId = 1;

  constructor(
    private readonly bucket: string,
    private readonly pathStyle: boolean,
  ) {}

  /** The SDK's requestHandler contract: handle(request) → { response }. */
  readonly handler = {
    handle: async (request: FakeRequest) => {
      const body = await bodyBytes(request.body);
      const query = request.query ?? {};
      this.requests.push({
        method: request.method,
        hostname: request.hostname,
        path: request.path,
        query,
        headers: request.headers,
        bodyBytes: body.length,
      });
      return { response: this.route(request, query, body) };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  };

  private keyOf(request: FakeRequest): string {
    const path = decodeURIComponent(request.path.replace(/^\//, ''));
    return this.pathStyle ? path.replace(new RegExp(`^${this.bucket}/?`), '') : path;
  }

  private route(request: FakeRequest, query: Record<string, unknown>, body: Buffer) {
    const key = this.keyOf(request);
    const header = (name: string) => request.headers[name] ?? request.headers[name.toLowerCase()];
    switch (request.method) {
      case 'PUT': {
        if ('partNumber' in query && 'uploadId' in query) {
          const upload = this.uploads.get(String(query.uploadId));
          if (!upload) return xmlError(404, 'NoSuchUpload');
          upload.parts.set(Number(query.partNumber), body);
          return reply(200, '', { etag: `"part-${String(query.partNumber)}"` });
        }
        const copySource = header('x-amz-copy-source');
        if (copySource) {
          const sourceKey = decodeURIComponent(copySource).replace(`${this.bucket}/`, '');
          const source = this.objects.get(sourceKey);
          if (!source) return xmlError(404, 'NoSuchKey');
          this.objects.set(key, source);
          return reply(200, '<CopyObjectResult><ETag>"copy"</ETag></CopyObjectResult>');
        }
        this.objects.set(key, body);
        return reply(200, '', { etag: '"object"' });
      }
      case 'POST': {
        if ('uploads' in query) {
          const uploadId = `upload-${this.nextUploadId++}`;
          this.uploads.set(uploadId, { key, parts: new Map() });
          return reply(
            200,
            `<InitiateMultipartUploadResult><Bucket>${this.bucket}</Bucket><Key>${key}</Key>` +
              `<UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
          );
        }
        if ('uploadId' in query) {
          const upload = this.uploads.get(String(query.uploadId));
          if (!upload) return xmlError(404, 'NoSuchUpload');
          const numbers = [...upload.parts.keys()].sort((a, b) => a - b);
          this.objects.set(
            upload.key,
            Buffer.concat(numbers.map((number) => upload.parts.get(number) ?? Buffer.alloc(0))),
          );
          this.uploads.delete(String(query.uploadId));
          return reply(
            200,
            `<CompleteMultipartUploadResult><Key>${upload.key}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`,
          );
        }
        if ('delete' in query) {
          for (const [, deleted] of body.toString().matchAll(/<Key>([^<]*)<\/Key>/g)) {
            if (deleted !== undefined) this.objects.delete(deleted);
          }
          return reply(200, '<DeleteResult></DeleteResult>');
        }
        return xmlError(400, 'InvalidRequest');
      }
      case 'GET': {
        const object = this.objects.get(key);
        if (!object) return xmlError(404, 'NoSuchKey');
        const range = /^bytes=(\d+)-(\d*)$/.exec(header('range') ?? '');
        if (!range) return reply(200, object, { 'content-length': String(object.length) });
        const start = Number(range[1]);
        const end = range[2] ? Math.min(Number(range[2]), object.length - 1) : object.length - 1;
        if (start >= object.length) return xmlError(416, 'InvalidRange');
        const slice = object.subarray(start, end + 1);
        return reply(206, slice, {
          'content-length': String(slice.length),
          'content-range': `bytes ${start}-${end}/${object.length}`,
        });
      }
      case 'HEAD': {
        const object = this.objects.get(key);
        if (!object) return reply(404, '');
        return reply(200, '', { 'content-length': String(object.length) });
      }
      case 'DELETE': {
        if ('uploadId' in query) {
          this.uploads.delete(String(query.uploadId));
          return reply(204, '');
        }
        this.objects.delete(key);
        return reply(204, '');
      }
      default:
        return xmlError(405, 'MethodNotAllowed');
    }
  }

  get openMultipartUploads(): number {
    return this.uploads.size;
  }
}

function reply(statusCode: number, body: string | Buffer, headers: Record<string, string> = {}) {
  return { statusCode, headers, body: Readable.from([Buffer.from(body)]) };
}

function xmlError(statusCode: number, code: string) {
  return reply(statusCode, `<Error><Code>${code}</Code><Message>${code}</Message></Error>`, {
    'content-type': 'application/xml',
  });
}
