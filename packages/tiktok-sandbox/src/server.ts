import Fastify, { type FastifyInstance } from 'fastify';
import { tiktokSandbox, type TikTokSandboxOptions } from './plugin.ts';
import { SandboxState } from './sandbox-state.ts';

export interface StartSandboxServerOptions extends Omit<TikTokSandboxOptions, 'state'> {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Path the sandbox lives under (default ''). */
  prefix?: string;
  logger?: boolean;
}

export interface SandboxServer {
  app: FastifyInstance;
  state: SandboxState;
  /** Origin + prefix: use it as both TIKTOK_AUTH_BASE and TIKTOK_API_BASE. */
  baseUrl: string;
  close(): Promise<void>;
}

/** Connections waiting to be accepted, at most (Node's default: 511). */
export const SANDBOX_LISTEN_BACKLOG = 4096;

/** Runs the sandbox alone on its own HTTP server (standalone CLI, contract tests). */
export async function startSandboxServer(
  options: StartSandboxServerOptions = {},
): Promise<SandboxServer> {
  const { port = 0, host = '127.0.0.1', prefix = '', logger = false, ...pluginOptions } = options;
  const state = new SandboxState(pluginOptions);
  const app = Fastify({ logger });
  await app.register(tiktokSandbox, { ...pluginOptions, state, prefix });
  // TikTok's front doors take a burst of new connections: Node's default queue of 511 pending
  // ones overflowed under a publisher's 1,200 inits at one instant, and each SYN dropped waited
  // the kernel's 1 s retransmission (the kernel caps the queue at net.core.somaxconn).
  await app.listen({ port, host, backlog: SANDBOX_LISTEN_BACKLOG });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  return { app, state, baseUrl: `${origin}${prefix}`, close: () => app.close() };
}
