import type { MemeAnalysis } from '@cadence/shared/schemas/meme';
import { AppError } from '../../lib/app-error.ts';
import type { MediaService } from '../media/service.ts';
import type { UserRepository } from '../users/repository.ts';
import { memeAnalysisView } from './meme-view.ts';
import type { MemeAnalysisRow, MemeRepository } from './repository.ts';

export interface MemeAccessDeps {
  repository: MemeRepository;
  media: MediaService;
  users: Pick<UserRepository, 'isPro'>;
}

/** What every meme request starts or ends with: the Pro check, the user's row, the API view. */
export function createMemeAccess({ repository, media, users }: MemeAccessDeps) {
  async function assertPro(userId: string): Promise<void> {
    if (!(await users.isPro(userId))) {
      throw new AppError('pro_required', 'The meme detector is a Pro feature');
    }
  }

  async function toAnalyses(userId: string, rows: MemeAnalysisRow[]): Promise<MemeAnalysis[]> {
    const results = await media.viewsById(
      userId,
      rows.flatMap((row) => (row.result_media_id ? [row.result_media_id] : [])),
    );
    return rows.map((row) =>
      memeAnalysisView(row, (row.result_media_id && results.get(row.result_media_id)) || null),
    );
  }

  async function toAnalysis(userId: string, row: MemeAnalysisRow): Promise<MemeAnalysis> {
    const [analysis] = await toAnalyses(userId, [row]);
    if (!analysis) throw new Error('unreachable: one row in, one analysis out');
    return analysis;
  }

  async function requireAnalysis(userId: string, id: string): Promise<MemeAnalysisRow> {
    const row = await repository.findForUser(userId, id);
    if (!row) throw new AppError('not_found', 'No such analysis');
    return row;
  }

  return { assertPro, toAnalyses, toAnalysis, requireAnalysis };
}

export type MemeAccess = ReturnType<typeof createMemeAccess>;
