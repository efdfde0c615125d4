import { chmodSync, unlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { registerErrorHandler } from '../../lib/app-error.ts';
import type { UserRepository } from '../users/repository.ts';
import { adminRoutes } from './routes.ts';

/**
 * The server that owns a PGlite DATA_DIR listens here for `npm run admin`, so the CLI finds it
 * from DATA_DIR alone, whatever PORT or HOST say (decision record 012).
 */
export function adminSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'admin.sock');
}

/** sun_path is 108 bytes on Linux (104 on macOS), the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;

export function socketPathTooLong(socketPath: string): boolean {
  return Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES;
}

export interface AdminSocket {
  path: string;
  close(): Promise<void>;
}

/**
 * Serves the admin routes on `DATA_DIR/admin.sock` (mode 0600). Call it only while holding the
 * PGlite lock: a socket file found there was left by a dead owner, and is replaced.
 */
export async function startAdminSocket(options: {
  dataDir: string;
  users: UserRepository;
  adminToken: string;
  logger: FastifyBaseLogger;
}): Promise<AdminSocket | null> {
  const socketPath = adminSocketPath(options.dataDir);
  if (socketPathTooLong(socketPath)) {
    options.logger.warn(
      { socketPath },
      'DATA_DIR is too long a path for the admin socket: `npm run admin` cannot reach this server; choose a shorter DATA_DIR',
    );
    return null;
  }
  try {
    unlinkSync(socketPath);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
  }
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger.child({ name: 'cadence-admin' }),
  });
  registerErrorHandler(app);
  await app.register(adminRoutes, { users: options.users, adminToken: options.adminToken });
  await app.listen({ path: socketPath });
  chmodSync(socketPath, 0o600);
  return { path: socketPath, close: () => app.close() };
}

export type AdminCallResult =
  | { kind: 'answered'; status: number; body: { message?: string } }
  /** Nobody listens there: no socket file, or one left by a process that died. */
  | { kind: 'unreachable'; reason: string };

/** `npm run admin`'s side: one JSON request to the socket of the server that owns DATA_DIR. */
export function callAdminSocket(
  dataDir: string,
  request: { path: string; adminToken: string; body: unknown },
): Promise<AdminCallResult> {
  const socketPath = adminSocketPath(dataDir);
  if (socketPathTooLong(socketPath)) {
    return Promise.resolve({
      kind: 'unreachable',
      reason: `${socketPath} is too long a path for a unix socket`,
    });
  }
  const payload = JSON.stringify(request.body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        socketPath,
        // A fresh connection: a kept-alive one may belong to a server that has gone since.
        agent: false,
        path: request.path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-admin-token': request.adminToken,
        },
        timeout: 30_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', reject);
        response.on('end', () => {
          let parsed: unknown = {};
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = {};
          }
          const body = z.object({ message: z.string().optional() }).catch({}).parse(parsed);
          resolve({ kind: 'answered', status: response.statusCode ?? 0, body });
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer on ${socketPath}`)));
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') {
        resolve({ kind: 'unreachable', reason: `${socketPath}: ${error.code}` });
      } else {
        reject(error);
      }
    });
    outgoing.end(payload);
  });
}
