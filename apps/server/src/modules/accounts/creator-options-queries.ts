import type { CreatorOptions } from '@cadence/shared/schemas/account';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** TikTok's last creator_info answer per account, kept for when TikTok cannot be asked. */
export function createCreatorOptionsQueries(db: Kysely<Database>) {
  return {
    /**
     * Keeps TikTok's answer as the account's last known options, with the TikTok user (`openId`)
     * the answer was about.
     */
    async rememberCreatorOptions(
      account: { id: string; openId: string },
      options: CreatorOptions,
      fetchedAt: Date,
    ): Promise<void> {
      const row = {
        open_id: account.openId,
        privacy_level_options: options.privacyLevelOptions,
        comment_disabled: options.commentDisabled,
        duet_disabled: options.duetDisabled,
        stitch_disabled: options.stitchDisabled,
        max_video_post_duration_sec: options.maxVideoPostDurationSec,
        fetched_at: fetchedAt,
      };
      await db
        .insertInto('tiktok_creator_options')
        .values({ account_id: account.id, ...row })
        .onConflict((oc) =>
          // Two answers at once: the later one TikTok gave stays.
          oc
            .column('account_id')
            .doUpdateSet(row)
            .where('tiktok_creator_options.fetched_at', '<=', fetchedAt),
        )
        .execute();
    },

    /** The account's last known options, when they are about the TikTok user it holds now. */
    lastCreatorOptions(accountId: string) {
      return db
        .selectFrom('tiktok_creator_options as options')
        .innerJoin('tiktok_accounts as account', (join) =>
          join
            .onRef('account.id', '=', 'options.account_id')
            .onRef('account.open_id', '=', 'options.open_id'),
        )
        .select([
          'options.privacy_level_options',
          'options.comment_disabled',
          'options.duet_disabled',
          'options.stitch_disabled',
          'options.max_video_post_duration_sec',
          'options.fetched_at',
        ])
        .where('options.account_id', '=', accountId)
        .executeTakeFirst();
    },
  };
}
