import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { TikTokApiError } from './tiktok-error.ts';
import { envelopeSchema, oauthErrorSchema, parseJsonKeepingBigIntegers } from './tiktok-schemas.ts';

export interface TikTokClientOptions {
  clientKey: string;
  clientSecret: string;
  /** https://www.tiktok.com, or the sandbox's origin + prefix. */
  authBase: string;
  /** https://open.tiktokapis.com, or the sandbox's origin + prefix. */
  apiBase: string;
  /**
   * Where requests go (undici's Dispatcher): by default an Agent of the client's own, keeping its
   * connections to TikTok open between calls. Tests pass undici's MockAgent for answers the
   * sandbox cannot give.
   */
  dispatcher?: Dispatcher;
  /** Per API call, body included (default 30 s). */
  timeoutMs?: number;
  /** Per uploaded chunk (default 10 min: a 64 MB chunk on a slow uplink). */
  uploadTimeoutMs?: number;
}

export interface RequestOptions {
  /** Aborting rejects with the signal's reason, not a TikTokApiError. */
  signal?: AbortSignal;
  /**
   * Called once, as soon as TikTok's answer starts to arrive (its status line and headers), before
   * its body is read and checked: the earliest moment known to be after TikTok handled the request
   * (the publisher stamps its init slot with it, decision 039).
   */
  onAnswer?: () => void;
}

/** A request as `send` takes it: what undici's `request` needs besides the URL and the signal. */
export interface Outgoing {
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: string | Buffer | Readable;
}

export interface RawResponse {
  status: number;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  json: unknown;
}

/** A v2 API call as `apiCall` takes it. */
export interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  accessToken: string;
  query?: Record<string, string>;
  body?: unknown;
}

/**
 * Connections this client keeps to one TikTok origin (undici's `connections`, per origin): calls
 * beyond them wait for one to be free, and each is kept open for the next calls. At a due instant
 * a worker sends hundreds of video inits at once; each opened a connection of its own (a TLS
 * handshake at TikTok), and the worker set them all up before writing any request, then read the
 * answers late, which held the inits' pacing slots longer (decision 048). A call's
 * timeout runs while it waits: at TikTok's usual latency the wait is a second or two, far short
 * of its 30 s.
 */
export const TIKTOK_CONNECTIONS_PER_ORIGIN = 128;

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Throws TikTok's error if the body carries one, in either of its two shapes. */
export function throwIfErrorBody(operation: string, response: RawResponse): void {
  const oauthError = oauthErrorSchema.safeParse(response.json);
  if (oauthError.success) {
    throw new TikTokApiError({
      operation,
      code: oauthError.data.error,
      httpStatus: response.status,
      logId: oauthError.data.log_id,
      description: oauthError.data.error_description,
    });
  }
  const envelope = envelopeSchema.safeParse(response.json);
  if (envelope.success && envelope.data.error.code !== 'ok') {
    throw new TikTokApiError({
      operation,
      code: envelope.data.error.code,
      httpStatus: response.status,
      logId: envelope.data.error.log_id,
      description: envelope.data.error.message,
    });
  }
}

export function invalidResponse(operation: string, response: RawResponse, description: string) {
  return new TikTokApiError({
    operation,
    code: 'invalid_response',
    httpStatus: response.status,
    description,
  });
}

/**
 * The HTTP layer every API family of the client shares: one connection pool, TikTok's two error
 * shapes, the v2 envelope, and the timeouts.
 */
export function createTikTokHttp(options: TikTokClientOptions) {
  const dispatcher =
    options.dispatcher ?? new Agent({ connections: TIKTOK_CONNECTIONS_PER_ORIGIN });
  const apiBase = withoutTrailingSlash(options.apiBase);
  const timeoutMs = options.timeoutMs ?? 30_000;

  /** Sends a request and always reads the body, whatever the status. */
  async function send(
    operation: string,
    url: string,
    outgoing: Outgoing,
    limitMs: number,
    callerSignal: AbortSignal | undefined,
    onAnswer?: () => void,
  ): Promise<RawResponse> {
    const timeout = AbortSignal.timeout(limitMs);
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([timeout, callerSignal]);
    let status: number;
    let text: string;
    try {
      const response = await request(url, { ...outgoing, signal, dispatcher });
      onAnswer?.();
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      if (callerSignal?.aborted === true) throw callerSignal.reason;
      const code = timeout.aborted ? 'timeout' : 'network_error';
      throw new TikTokApiError({ operation, code, httpStatus: null, cause: error });
    }
    if (text.trim() === '') return { status, json: undefined };
    try {
      return { status, json: parseJsonKeepingBigIntegers(text) };
    } catch {
      return { status, json: undefined };
    }
  }

  async function oauthCall(
    operation: string,
    path: string,
    form: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<RawResponse> {
    const response = await send(
      operation,
      `${apiBase}${path}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'cache-control': 'no-cache',
        },
        body: new URLSearchParams(form).toString(),
      },
      timeoutMs,
      signal,
    );
    // TikTok sometimes reports token errors with HTTP 200: the body decides.
    throwIfErrorBody(operation, response);
    if (response.status < 200 || response.status >= 300) {
      throw invalidResponse(operation, response, 'Unexpected HTTP status without an error body.');
    }
    return response;
  }

  async function apiCall<TSchema extends z.ZodType>(
    operation: string,
    call: ApiRequest,
    dataSchema: TSchema,
    requestOptions: RequestOptions | undefined,
  ): Promise<z.output<TSchema>> {
    const query = call.query === undefined ? '' : `?${new URLSearchParams(call.query).toString()}`;
    const headers: Record<string, string> = { authorization: `Bearer ${call.accessToken}` };
    let body: string | undefined;
    if (call.method === 'POST') {
      headers['content-type'] = 'application/json; charset=UTF-8';
      if (call.body !== undefined) body = JSON.stringify(call.body);
    }
    const response = await send(
      operation,
      `${apiBase}${call.path}${query}`,
      { method: call.method, headers, body },
      timeoutMs,
      requestOptions?.signal,
      requestOptions?.onAnswer,
    );
    // "Cannot post now" arrives with HTTP 200 and only error.code says so.
    throwIfErrorBody(operation, response);
    if (response.status < 200 || response.status >= 300) {
      throw invalidResponse(operation, response, 'Unexpected HTTP status without an error body.');
    }
    const envelope = envelopeSchema.safeParse(response.json);
    const data = dataSchema.safeParse(envelope.success ? envelope.data.data : undefined);
    if (!envelope.success || !data.success) {
      throw invalidResponse(operation, response, 'The response does not match the v2 contract.');
    }
    return data.data;
  }

  return {
    send,
    oauthCall,
    apiCall,
    authBase: withoutTrailingSlash(options.authBase),
    uploadTimeoutMs: options.uploadTimeoutMs ?? 600_000,
  };
}

export type TikTokHttp = ReturnType<typeof createTikTokHttp>;
