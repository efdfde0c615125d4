// A pending post's caption, due time and TikTok settings changed in one transaction.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';

/** The TikTok settings a schedule holds for its posts. */
export interface PostSettings {
  privacy_level: string | null;
  allow_comment: boolean;
  allow_duet: boolean;
  allow_stitch: boolean;
}

/** The schedule of a post whose settings change: its own, or a copy when it shares it. */
async function scheduleWithSettings(
  trx: Transaction<Database>,
  scheduleId: string,
  settings: PostSettings,
): Promise<string> {
  const siblings = await trx
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('schedule_id', '=', scheduleId)
    .executeTakeFirstOrThrow();
  if (Number(siblings.count) <= 1) {
    await trx.updateTable('schedules').set(settings).where('id', '=', scheduleId).execute();
    return scheduleId;
  }
  const copy = await trx
    .insertInto('schedules')
    .columns([
      'user_id',
      'account_id',
      'publish_type',
      'time_zone',
      'date',
      'time',
      'spaced_interval',
      'privacy_level',
      'allow_comment',
      'allow_duet',
      'allow_stitch',
      'commercial_content',
      'is_aigc',
      'delivery',
      'created_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('schedules')
        .select([
          'user_id',
          'account_id',
          'publish_type',
          'time_zone',
          'date',
          'time',
          'spaced_interval',
          sql.val(settings.privacy_level).as('privacy_level'),
          sql.val(settings.allow_comment).as('allow_comment'),
          sql.val(settings.allow_duet).as('allow_duet'),
          sql.val(settings.allow_stitch).as('allow_stitch'),
          'commercial_content',
          'is_aigc',
          'delivery',
          'created_at',
        ])
        .where('id', '=', scheduleId),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return copy.id;
}

export function createPendingPostEdits(db: Kysely<Database>) {
  return {
    /**
     * Changes a pending post (caption, due time, TikTok settings) in one transaction that holds
     * its row, so the publisher either claimed it before (nothing changes: false) or sees it
     * changed. Settings live on the schedule: a post sharing its schedule with others moves to a
     * copy of it with the new settings, so its siblings keep theirs.
     */
    async editPending(
      userId: string,
      id: string,
      changes: { title?: string | undefined; dueAt?: Date | undefined },
      settings?: PostSettings,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const post = await trx
          .selectFrom('posts')
          .select(['schedule_id'])
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .forUpdate()
          .executeTakeFirst();
        if (!post) return false;
        const scheduleId = settings
          ? await scheduleWithSettings(trx, post.schedule_id, settings)
          : post.schedule_id;
        await trx
          .updateTable('posts')
          .set({
            schedule_id: scheduleId,
            ...(changes.title !== undefined && { title: changes.title }),
            ...(changes.dueAt !== undefined && {
              due_at: changes.dueAt,
              wake_at: changes.dueAt,
              // The user chose this time: Cadence's note about moving it no longer applies.
              note: null,
              postponed_from: null,
            }),
          })
          .where('id', '=', id)
          .execute();
        return true;
      });
    },
  };
}
