import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ChaosError } from '../chaos.ts';
import { SandboxControlError } from '../control.ts';
import { escapeHtml } from '../consent-page.ts';
import { describeZodError } from '../http.ts';
import { SANDBOX_ENDPOINTS } from '../options.ts';
import type { SandboxState } from '../sandbox-state.ts';

const failureSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('http_error'), status: z.number().int().min(400).max(599) }),
  z.object({
    type: z.literal('error_body'),
    code: z.string().min(1),
    status: z.number().int().min(200).max(599).optional(),
    message: z.string().optional(),
  }),
]);

const userTargetSchema = z.union([
  z.object({ username: z.string().min(1) }),
  z.object({ open_id: z.string().min(1) }),
]);

const faultSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('latency'), ms: z.number().int().min(0).max(60_000) }),
  z.object({
    action: z.literal('fail_next'),
    endpoint: z.enum(SANDBOX_ENDPOINTS),
    failure: failureSchema,
    count: z.number().int().min(1).max(1000).default(1),
  }),
  z.object({ action: z.literal('expire_token'), access_token: z.string().min(1) }),
  z.object({
    action: z.literal('fail_post'),
    publish_id: z.string().min(1),
    fail_reason: z.string().min(1),
  }),
  z.object({
    action: z.literal('answer_status'),
    publish_id: z.string().min(1),
    status: z.string().min(1),
    count: z.number().int().min(1).max(1000).default(1),
  }),
  z.object({
    action: z.literal('user_flags'),
    user: userTargetSchema,
    private_account: z.boolean().optional(),
    cannot_post: z
      .enum([
        'spam_risk_too_many_posts',
        'spam_risk_user_banned_from_posting',
        'reached_active_user_cap',
      ])
      .nullable()
      .optional(),
    comment_disabled: z.boolean().optional(),
    duet_disabled: z.boolean().optional(),
    stitch_disabled: z.boolean().optional(),
    // 0 or null (field left out): creator_info gives no usable limit, as TikTok sometimes does.
    max_video_post_duration_sec: z.number().int().nonnegative().nullable().optional(),
    // Direct posts per rolling 24 h before spam_risk_too_many_posts; null: the state's default.
    max_direct_posts_per_day: z.number().int().nonnegative().nullable().optional(),
  }),
  z.object({
    action: z.literal('chaos'),
    seed: z.number().int(),
    server_error_rate: z.number().min(0).max(1).optional(),
    rate_limit_rate: z.number().min(0).max(1).optional(),
    timeout_rate: z.number().min(0).max(1).optional(),
    timeout_ms: z.number().int().min(0).max(600_000).optional(),
    endpoints: z.array(z.enum(SANDBOX_ENDPOINTS)).optional(),
  }),
  z.object({
    action: z.literal('seed_videos'),
    user: userTargetSchema,
    videos: z
      .array(
        z.object({
          /** Seconds since the epoch, as TikTok's create_time. */
          create_time: z.number().int().nonnegative(),
          title: z.string().max(2200).optional(),
        }),
      )
      .max(5000),
  }),
  z.object({ action: z.literal('stop_chaos') }),
  z.object({ action: z.literal('reset') }),
]);

/** One fault or a list of them, applied in order. */
export const faultRequestSchema = z.union([faultSchema, z.array(faultSchema)]);
export type FaultRequest = z.infer<typeof faultSchema>;

function applyFault(state: SandboxState, fault: FaultRequest): void {
  const { control } = state;
  switch (fault.action) {
    case 'latency':
      control.setLatency(fault.ms);
      return;
    case 'fail_next':
      control.failNext(fault.endpoint, fault.failure, fault.count);
      return;
    case 'expire_token':
      control.expireAccessToken(fault.access_token);
      return;
    case 'fail_post':
      control.failPost(fault.publish_id, fault.fail_reason);
      return;
    case 'answer_status':
      control.answerStatus(fault.publish_id, fault.status, fault.count);
      return;
    case 'user_flags': {
      const target =
        'username' in fault.user
          ? { username: fault.user.username }
          : { openId: fault.user.open_id };
      control.setUserFlags(target, {
        privateAccount: fault.private_account,
        cannotPost: fault.cannot_post,
        commentDisabled: fault.comment_disabled,
        duetDisabled: fault.duet_disabled,
        stitchDisabled: fault.stitch_disabled,
        maxVideoPostDurationSec: fault.max_video_post_duration_sec,
        maxDirectPostsPerDay: fault.max_direct_posts_per_day,
      });
      return;
    }
    case 'chaos':
      control.startChaos({
        seed: fault.seed,
        ...(fault.server_error_rate !== undefined && { serverErrorRate: fault.server_error_rate }),
        ...(fault.rate_limit_rate !== undefined && { rateLimitRate: fault.rate_limit_rate }),
        ...(fault.timeout_rate !== undefined && { timeoutRate: fault.timeout_rate }),
        ...(fault.timeout_ms !== undefined && { timeoutMs: fault.timeout_ms }),
        ...(fault.endpoints !== undefined && { endpoints: fault.endpoints }),
      });
      return;
    case 'seed_videos': {
      const target =
        'username' in fault.user
          ? { username: fault.user.username }
          : { openId: fault.user.open_id };
      control.seedVideos(
        target,
        fault.videos.map((video) => ({
          createdAtMs: video.create_time * 1000,
          ...(video.title !== undefined && { title: video.title }),
        })),
      );
      return;
    }
    case 'stop_chaos':
      control.stopChaos();
      return;
    case 'reset':
      control.reset();
      return;
  }
}

/** Avatars, and only when enabled, the ledger and the fault-injection endpoint. */
export function registerAdminRoutes(
  fastify: FastifyInstance,
  state: SandboxState,
  enableControl: boolean,
): void {
  fastify.get('/avatar/:file', async (request, reply) => {
    const params = z.object({ file: z.string() }).parse(request.params);
    const openId = params.file.replace(/\.svg$/, '');
    const user = state.oauth.findUser(openId);
    const initial = (user?.displayName.charAt(0) ?? '?').toUpperCase();
    const hue = Number.parseInt(openId.slice(0, 6), 16) % 360 || 0;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100"><rect width="100" height="100" fill="hsl(${hue} 70% 45%)"/><text x="50" y="50" dy=".35em" text-anchor="middle" font-family="sans-serif" font-size="48" fill="#fff">${escapeHtml(initial)}</text></svg>`;
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=3600').send(svg);
  });

  // A video's cover: a coloured card with the last digits of its id, as stable as the id.
  fastify.get('/cover/:file', async (request, reply) => {
    const params = z
      .object({ file: z.string().regex(/^\d{1,20}\.svg$/) })
      .safeParse(request.params);
    if (!params.success) return reply.code(404).send({ error: 'No such cover.' });
    const id = params.data.file.replace(/\.svg$/, '');
    const hue = Number(id.slice(-6)) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="320" viewBox="0 0 180 320"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue} 70% 55%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360} 70% 30%)"/></linearGradient></defs><rect width="180" height="320" fill="url(#g)"/><path d="M75 130v60l50-30z" fill="#fff" opacity=".85"/><text x="90" y="290" text-anchor="middle" font-family="sans-serif" font-size="18" fill="#fff">#${id.slice(-4)}</text></svg>`;
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=3600').send(svg);
  });

  // Test tooling only: the ledger shows every user's accounts and posts, and fault control
  // changes what every client gets.
  if (!enableControl) return;

  fastify.get('/_ledger', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(state.ledger()),
  );

  fastify.post('/_control/faults', async (request, reply) => {
    const parsed = faultRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      return reply.code(400).send({ error: describeZodError(parsed.error) });
    }
    const faults = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
    try {
      for (const fault of faults) applyFault(state, fault);
    } catch (error) {
      if (error instanceof SandboxControlError) {
        return reply.code(404).send({ error: error.message });
      }
      if (error instanceof ChaosError) return reply.code(400).send({ error: error.message });
      throw error;
    }
    return reply.send({ ok: true, applied: faults.length });
  });
}
