import type { SandboxState } from '@cadence/tiktok-sandbox';
import type PgBoss from 'pg-boss';
import type { Auth } from './auth/auth.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { TokenCipher } from './lib/token-cipher.ts';
import type { AccountRepository } from './modules/accounts/repository.ts';
import type { AccountService } from './modules/accounts/service.ts';
import type { AnalyticsService } from './modules/analytics/service.ts';
import type { AnalyticsSync } from './modules/analytics/sync.ts';
import type { TokenService } from './modules/accounts/token-service.ts';
import type { MailService } from './modules/mail/service.ts';
import type { NotificationService } from './modules/notifications/service.ts';
import type { DataExportService } from './modules/data-rights/export-service.ts';
import type { DataRightsService } from './modules/data-rights/service.ts';
import type { MediaService } from './modules/media/service.ts';
import type { DraftService } from './modules/drafts/service.ts';
import type { PostListingService } from './modules/schedules/listing-service.ts';
import type { ScheduleService } from './modules/schedules/service.ts';
import type { StoryRenderer } from './modules/stories/renderer.ts';
import type { StoryService } from './modules/stories/service.ts';
import type { MemeStages } from './modules/memes/meme-stages.ts';
import type { MemeService } from './modules/memes/service.ts';
import type { EmailChangeService } from './modules/users/email-change.ts';
import type { EmailVerification } from './modules/users/email-verification.ts';
import type { UserRepository } from './modules/users/repository.ts';
import type { MediaStorage } from './storage/media-storage.ts';
import type { TikTokClient } from './tiktok/tiktok-client.ts';

/**
 * What bootstrap.ts (the composition root) builds once per process. Only the composition code
 * reads it (app.ts registering routes, bootstrap starting workers, tests): each module's factory,
 * route plugin and worker takes just the parts it uses, so no module depends on this file.
 */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  auth: Auth;
  boss: PgBoss;
  users: UserRepository;
  /** Changing an account's address (a link to the new one). */
  emailChange: EmailChangeService;
  /** REQUIRE_EMAIL_VERIFICATION: the publishing check, resend and confirm. */
  emailVerification: EmailVerification;
  cipher: TokenCipher;
  tiktok: TikTokClient;
  /** The in-process TikTok sandbox when no TikTok app is configured; mounted at /sandbox/tiktok. */
  sandbox: SandboxState | null;
  accountRepository: AccountRepository;
  tokens: TokenService;
  accounts: AccountService;
  /** Outgoing mail: an outbox row per message, delivered by the 'mail.send' queue. */
  mail: MailService;
  /** Per-user events (bell, emails, digest): the one fan-out every module reports to. */
  notifications: NotificationService;
  /** Deleting an account and everything of it (files included). */
  dataRights: DataRightsService;
  /** 'Download my data': ZIP archives built by the data-export.build job. */
  dataExports: DataExportService;
  /** Syncs connected accounts' videos and stats from TikTok's Display API (analytics.* jobs). */
  analyticsSync: AnalyticsSync;
  /** Reads the synced history: charts, top videos, best times, per-post metrics, CSV. */
  analytics: AnalyticsService;
  storage: MediaStorage;
  media: MediaService;
  schedules: ScheduleService;
  postListing: PostListingService;
  drafts: DraftService;
  stories: StoryService;
  /** The worker's story renders ('stories.render'). */
  storyRenderer: StoryRenderer;
  memes: MemeService;
  /** The worker's meme stages ('memes.analyse', 'memes.compile'). */
  memeStages: MemeStages;
}
