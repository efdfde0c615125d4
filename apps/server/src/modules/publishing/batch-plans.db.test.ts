// The publisher's batch statements (an init's confirmation, its answer's settle) take their input
// from `jsonb_to_recordset`, which PostgreSQL plans at 100 rows whatever the batch holds. Against
// a posts table of thousands, that made the settle hash-join a sequential scan of every post, each
// batch (decision 039). Planned here over 2,000 posts: the batches reach
// their posts by primary key.
import { CompiledQuery, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createPublishingRepository } from './repository.ts';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp();

/** The batch statements a repository sends, by the CTE that names them. */
function capturingDatabase() {
  const statements = new Map<string, RootOperationNode>();
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      if (node.kind === 'RawNode') {
        for (const cte of ['marked as (', 'recorded as (']) {
          if (node.sqlFragments.some((part) => part.includes(cte))) statements.set(cte, node);
        }
      }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: kit.t.context.database.db.withPlugin(plugin), statements };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan, its own first. */
function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

/** The plan PostgreSQL makes for `node` as the repository sent it (EXPLAIN, nothing runs). */
async function planOf(node: RootOperationNode): Promise<PlanNode[]> {
  const { db } = kit.t.context.database;
  const compiled = db.getExecutor().compileQuery(node, { queryId: 'batch-plan' });
  const result = await db.executeQuery<{ 'QUERY PLAN': unknown }>(
    CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
  );
  const raw = result.rows[0]?.['QUERY PLAN'];
  const [explained] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  return nodesOf(explained.Plan);
}

describe('the init batches over a table of many posts', () => {
  it('reach the posts of the batch by primary key, never by scanning the table', async () => {
    const { post } = await kit.publishNow('Many posts');
    await kit.waitForStatus(post.id, ['completed']);
    const { db } = kit.t.context.database;
    // 2,000 more posts like it (ids of their own), and statistics that know of them.
    await sql`insert into posts
      select (jsonb_populate_record(null::posts,
        to_jsonb(p) || jsonb_build_object('id', gen_random_uuid()))).*
      from posts p, generate_series(1, 2000)
      where p.id = ${post.id}`.execute(db);
    await sql`analyze posts`.execute(db);

    const captured = capturingDatabase();
    const repository = createPublishingRepository(captured.db);
    if (post.accountId === null) throw new Error('the post has no account');
    const slot = { accountId: post.accountId, stamp: new Date().toISOString() };
    // Slots that were never reserved and a lease nobody holds: the statements change nothing. The
    // settle is one statement for answers accepted and refused: its plan holds both updates.
    await repository.confirmAndMarkInit(slot, post.id, 'nobody', new Date());
    await repository.settleInit(slot, {
      record: {
        postId: post.id,
        owner: 'nobody',
        publishId: 'v_pub_file~v2-1.plan',
        uploadUrl: 'https://upload.example/plan',
        uploadUrlExpiresAt: new Date(Date.now() + 3_600_000),
        videoSize: 1,
        chunkSize: 1,
        totalChunkCount: 1,
      },
    });

    expect([...captured.statements.keys()].sort()).toEqual(['marked as (', 'recorded as (']);
    for (const [cte, node] of captured.statements) {
      const postScans = (await planOf(node)).filter((scan) => scan['Relation Name'] === 'posts');
      expect(postScans.length, cte).toBeGreaterThan(0);
      expect(
        postScans.filter((scan) => scan['Node Type'] === 'Seq Scan'),
        cte,
      ).toEqual([]);
    }
  });
});
