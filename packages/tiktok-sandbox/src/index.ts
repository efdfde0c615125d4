export { tiktokSandbox, type TikTokSandboxOptions } from './plugin.ts';
export {
  SandboxState,
  type SandboxLedger,
  type LedgerPost,
  type LedgerToken,
  type LedgerUser,
} from './sandbox-state.ts';
export {
  SandboxControl,
  SandboxControlError,
  type CannotPostReason,
  type InjectedFailure,
  type UserFlags,
  type UserTarget,
} from './control.ts';
export {
  ChaosError,
  type ChaosFault,
  type ChaosSettings,
  type InjectedFaultRecord,
} from './chaos.ts';
export {
  DEFAULT_RATE_LIMITS,
  DEFAULT_SANDBOX_CLIENT,
  KNOWN_SCOPES,
  SANDBOX_ENDPOINTS,
  type PublicBaseUrl,
  type RateLimits,
  type SandboxClient,
  type SandboxEndpoint,
  type SandboxScope,
  type SandboxStateOptions,
} from './options.ts';
export { tokenFingerprint } from './ids.ts';
export {
  startSandboxServer,
  type SandboxServer,
  type StartSandboxServerOptions,
} from './server.ts';
export {
  audienceProfileFor,
  finalViews,
  hourLift,
  videoMetricsAt,
  weekdayAndHour,
  type AudienceProfile,
  type PlantedHour,
  type VideoMetrics,
} from './audience-model.ts';
export { VideoCatalog, type SandboxVideo, type SeedVideoInput } from './video-catalog.ts';
